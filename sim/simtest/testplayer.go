package simtest

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/sim"
)

// defaultGames is the number of games [TestPlayer] and [CheckPlayer] play per
// rule set and seat count when [Options.Games] is 0.
const defaultGames = 4

// Options tunes [TestPlayer] and [CheckPlayer]. The zero value plays
// 4 games of seed 0 under every embedded rule set with every
// seat count from 2 to 6 the rule set can seat, the bot in every seat.
type Options struct {
	// Rules are the rule sets to play, embedded names or TOML files; nil
	// means every embedded rule set ([configs.RulesNames]).
	Rules []string
	// Seats are the seat counts to play, each 2..6; nil means every count
	// from 2 to 6 that the rule set can seat ([sim.NewGame] accepts). A
	// count given here that the rule set cannot seat is an error.
	Seats []int
	// Games is the number of games per rule set and seat count, game
	// indexes 0..Games-1; 0 means 4.
	Games int
	// Seed is the experiment seed of the games ([sim.Game.Play]).
	Seed uint64
	// Opponent, when not nil, makes the player of a seat the bot does not
	// hold: game i of n seats seats the bot in seat i mod n and
	// Opponent's players in the others. nil: the bot holds every seat.
	Opponent func(seat int) sim.Player
}

// A run is one rule set and seat count of a [TestPlayer] or [CheckPlayer].
type run struct {
	rules string
	seats int
}

func (r run) String() string { return r.rules + "/" + strconv.Itoa(r.seats) + " seats" }

// runs returns the rule sets and seat counts opt asks for, in order.
func (opt Options) runs() ([]run, error) {
	rules := opt.Rules
	if rules == nil {
		rules = configs.RulesNames()
	}
	var out []run
	for _, name := range rules {
		r, err := sim.LoadRules(name)
		if err != nil {
			return nil, err
		}
		m, err := r.LoadMap()
		if err != nil {
			return nil, fmt.Errorf("rules %s: %w", name, err)
		}
		if opt.Seats != nil {
			for _, n := range opt.Seats {
				if _, err := sim.NewGame(m, r, n); err != nil {
					return nil, fmt.Errorf("rules %s, %d seats: %w", name, n, err)
				}
				out = append(out, run{name, n})
			}
			continue
		}
		for n := 2; n <= 6; n++ {
			if _, err := sim.NewGame(m, r, n); err == nil {
				out = append(out, run{name, n})
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("simtest: no rule set and seat count to play")
	}
	return out, nil
}

// check plays the games of one run and returns the first violation.
func (opt Options) check(newPlayer func(seat int) sim.Player, rn run) error {
	r, err := sim.LoadRules(rn.rules)
	if err != nil {
		return err
	}
	m, err := r.LoadMap()
	if err != nil {
		return err
	}
	g, err := sim.NewGame(m, r, rn.seats)
	if err != nil {
		return err
	}
	ck := NewChecker(g, m, r)
	g.Observe(ck)
	bot := make([]sim.Player, rn.seats)
	var opp []sim.Player
	for i := range bot {
		if bot[i] = newPlayer(i); bot[i] == nil {
			return fmt.Errorf("newPlayer(%d) returned nil", i)
		}
	}
	if opt.Opponent != nil {
		opp = make([]sim.Player, rn.seats)
		for i := range opp {
			if opp[i] = opt.Opponent(i); opp[i] == nil {
				return fmt.Errorf("Opponent(%d) returned nil", i)
			}
		}
	}
	games := opt.Games
	if games == 0 {
		games = defaultGames
	}
	players := make([]sim.Player, rn.seats)
	for i := range games {
		own := -1 // the bot's only seat, or -1 when it holds every seat
		copy(players, bot)
		if opp != nil {
			own = i % rn.seats
			copy(players, opp)
			players[own] = bot[own]
		}
		res, err := g.Play(players, opt.Seed, uint64(i))
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		if err := ck.CheckResult(res); err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		for seat, f := range res.Faults {
			if f > 0 && (own < 0 || seat == own) {
				return fmt.Errorf("game %d: the bot in seat %d made %d faults (illegal answers or panics the engine replaced)", i, seat, f)
			}
		}
	}
	return nil
}

// CheckPlayer plays the bot that newPlayer makes (newPlayer(seat) returns
// a new player for that seat; each is reused from game to game) under the
// rule sets and seat counts of opt, checks every event with a Checker,
// and returns the first violation, naming the rule set, seat count and
// game: a broken invariant, an error of the engine, or a fault of a seat
// the bot holds. It returns nil if the bot played every game cleanly.
func CheckPlayer(newPlayer func(seat int) sim.Player, opt Options) error {
	runs, err := opt.runs()
	if err != nil {
		return err
	}
	for _, rn := range runs {
		if err := opt.check(newPlayer, rn); err != nil {
			return fmt.Errorf("%s: %w", rn, err)
		}
	}
	return nil
}

// TestPlayer is [CheckPlayer] as a test: one subtest per rule set and seat
// count ("classic/4 seats"), each failing with its violation.
//
//	func TestMyBot(t *testing.T) {
//		simtest.TestPlayer(t, func(int) sim.Player { return mybot.New() }, simtest.Options{})
//	}
func TestPlayer(t *testing.T, newPlayer func(seat int) sim.Player, opt Options) {
	t.Helper()
	runs, err := opt.runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, rn := range runs {
		t.Run(rn.String(), func(t *testing.T) {
			if err := opt.check(newPlayer, rn); err != nil {
				t.Error(err)
			}
		})
	}
}
