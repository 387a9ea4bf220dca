package report

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/tourney"
)

// marsStopConfig is the MARS section of a dice-literature notebook: MARS's
// attack rule against the optimal stopping policy (MARS's named option
// stop), in games against a field.
type marsStopConfig struct {
	// Mars is MARS's seat without options (mars@paper); the section seats
	// it with stop_stats = 1 (the paper's rule, counted) and with stop =
	// optimal.
	Mars string `toml:"mars"`
	// Opponents are the other seats; Rules the rule set (name or file).
	Opponents []string `toml:"opponents"`
	Rules     string   `toml:"rules"`
	// Tournament, when set, is a tournament config (a path relative to
	// the notebook's config) whose games in which TournamentBot sits are
	// replayed with that entry as Mars measuring the paper's rule and as
	// Mars stopping optimally: the same seats, seed and streams, so with
	// the paper's rule they are the tournament's own games (stop_stats
	// changes no move). The sizes' tournament_games games of its schedule
	// are played.
	Tournament    string `toml:"tournament"`
	TournamentBot string `toml:"tournament_bot"`

	tc *tourney.Config // the loaded Tournament
}

// marsStopMeasure is what the MARS section measures on a set of games
// played twice on the same seeds, by MARS measuring the paper's rule and
// by MARS stopping optimally.
type marsStopMeasure struct {
	// Decisions counts MARS's attack decisions, Priced those with an army
	// price (mars.stopMinPrice), over which LossArmies is estimated.
	Games, Decisions, Priced int
	// More and Less are the shares of decisions where the optimal policy
	// rolls and the paper's rule stops, and the reverse, with their 95 %
	// intervals (ratio estimates, games as clusters).
	More, Less           ratioEstimate
	LossArmies, LossGoal ratioEstimate
	// Paired compares MARS's wins with the paper's rule (PX) and with the
	// optimal policy (PY) on the same games.
	Paired    stats.PairedProportion
	Stalemate [2]int // stalemates with the paper's rule and with the optimal one
	// Gain is the optimal policy's win rate minus the paper rule's, in
	// points, with its 95 % interval (Paired's, negated).
	Gain, GainLo, GainHi float64
}

// marsStopData is the template data of the MARS section: the measure on
// the section's own line-up, and on a tournament's games.
type marsStopData struct {
	Line string // the measured line-up
	marsStopMeasure
	Tournament *marsTournamentData // nil without literature.mars.tournament
}

// marsTournamentData is the MARS section's measure on the games of a
// tournament in which MARS sits.
type marsTournamentData struct {
	Config, Bot string // the tournament config as configured, and MARS's entry
	Field       string // the tournament's bots
	Players     int
	Seed        uint64
	// Played is the number of the schedule's games played (Games of them
	// seat MARS); First the games MARS won with the paper's rule.
	Played, First int
	marsStopMeasure
}

// ratioEstimate is a ratio of sums over games, Σy/Σx, with the 95 %
// normal interval of the ratio estimator (the games are the clusters:
// var = Σ(y_g - R·x_g)² / (n(n-1)·x̄²)).
type ratioEstimate struct {
	R      float64
	Lo, Hi float64
}

func ratio(ys, xs []float64) ratioEstimate {
	n := float64(len(xs))
	var sy, sx float64
	for i := range xs {
		sy += ys[i]
		sx += xs[i]
	}
	if sx == 0 || n < 2 {
		return ratioEstimate{R: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	r := sy / sx
	var ss float64
	for i := range xs {
		e := ys[i] - r*xs[i]
		ss += e * e
	}
	xbar := sx / n
	se := math.Sqrt(ss/(n*(n-1))) / xbar
	z, _ := stats.NormalQuantile(0.95)
	return ratioEstimate{R: r, Lo: r - z*se, Hi: r + z*se}
}

// check validates the section's keys.
func (m *marsStopConfig) check(ck *checker) {
	ck.nonEmpty("literature.mars.mars", m.Mars)
	if strings.ContainsAny(m.Mars, "(;") {
		ck.fail("literature.mars.mars", "%q: a seat without options (the section adds stop options)", m.Mars)
	}
	if len(m.Opponents) < sim.MinPlayers-1 || len(m.Opponents) > sim.MaxPlayers-1 {
		ck.fail("literature.mars.opponents", "%d seats, want %d to %d", len(m.Opponents), sim.MinPlayers-1, sim.MaxPlayers-1)
	}
	ck.nonEmpty("literature.mars.rules", m.Rules)
	if m.Tournament == "" {
		if m.TournamentBot != "" {
			ck.fail("literature.mars.tournament_bot", "%q without literature.mars.tournament", m.TournamentBot)
		}
		return
	}
	tc, err := tourney.Load(notebookPath(filepath.Dir(ck.path), m.Tournament))
	if err != nil {
		ck.fail("literature.mars.tournament", "%v", err)
		return
	}
	if !slices.Contains(tc.Bots, m.TournamentBot) {
		ck.fail("literature.mars.tournament_bot", "%q is not a bot of %s (%s)", m.TournamentBot, tc.Source, strings.Join(tc.Bots, ", "))
	}
	m.tc = tc
}

// checkGames checks a size's tournament_games: 1 to the tournament's games
// with a tournament, 0 without.
func (m *marsStopConfig) checkGames(ck *checker, key string, games int) {
	if m.tc == nil {
		ck.intIn(key, games, 0, 0)
		return
	}
	ck.intIn(key, games, 1, m.tc.Games())
}

// marsStop plays the section's two batches (MARS measuring the paper's
// rule, and MARS stopping optimally, on the same games) and writes
// mars-stop.csv, one line per game; with a tournament, also its games
// (marsTournament).
func (c *diceLiteratureConfig) marsStop(ctx context.Context, w *writer, d *diceLiteratureData, size diceLiteratureSize) error {
	ms := &c.Lit.Mars
	plays := make([][]arena.Record, 2)
	for i, opt := range marsStopOptions {
		line := ms.Mars + "(" + opt + ")," + strings.Join(ms.Opponents, ",")
		g, err := (&engineConfig{path: c.path}).setup(w, "literature.mars.rules", ms.Rules, "literature.mars.opponents", line)
		if err != nil {
			return err
		}
		w.logf("dice-literature: %d games of %s", size.MarsGames, line)
		recs := make([]arena.Record, 0, size.MarsGames)
		if _, err := arena.Run(ctx, arena.Config{Map: g.m, Rules: g.rules, Seats: g.seats, Games: size.MarsGames, Seed: w.seed,
			Workers: 0, OnRecord: func(r arena.Record) { recs = append(recs, r) }}); err != nil {
			return fmt.Errorf("MARS stopping, %s: %w", opt, err)
		}
		plays[i] = recs
		if i == 0 {
			d.Mars.Line = line
		}
	}
	m, rows, err := ms.measure(plays[0], plays[1])
	if err != nil {
		return err
	}
	d.Mars.marsStopMeasure = m
	if err := w.csv("mars-stop.csv", marsStopColumns, rows); err != nil {
		return err
	}
	if ms.tc == nil {
		return nil
	}
	return c.marsTournament(ctx, w, d, size.TournamentGames)
}

// marsStopOptions are MARS's options of the section's two batches: the
// paper's rule, counted, and the optimal stopping policy.
var marsStopOptions = [2]string{"stop_stats=1", "stop=optimal"}

// marsStopColumns are the columns of mars-stop.csv and
// mars-stop-tournament.csv.
var marsStopColumns = []string{"game", "decisions", "optimal_rolls_rule_stops", "rule_rolls_optimal_stops",
	"priced", "rule_loss_armies", "rule_loss_path_values", "mars_wins_rule", "mars_wins_optimal"}

// marsTournament replays the first games of the tournament's schedule
// (its seats, seed and streams) with its entry TournamentBot as MARS
// measuring the paper's rule and as MARS stopping optimally, and measures
// the games that seat MARS; it writes mars-stop-tournament.csv.
func (c *diceLiteratureConfig) marsTournament(ctx context.Context, w *writer, d *diceLiteratureData, games int) error {
	ms := &c.Lit.Mars
	tc := ms.tc
	setup, err := tc.Resolve(w.reg)
	if err != nil {
		return fmt.Errorf("%s: key literature.mars.tournament: %w", c.path, err)
	}
	sched, err := arena.NewSubsets(len(tc.Bots), tc.Players, tc.Replications, tc.Seed)
	if err != nil {
		return fmt.Errorf("%s: key literature.mars.tournament: %w", c.path, err)
	}
	entry := slices.Index(tc.Bots, ms.TournamentBot)
	plays := make([][]arena.Record, 2)
	for i, opt := range marsStopOptions {
		seat, err := w.reg.ParseSeat(ms.Mars+"("+opt+")", nil)
		if err != nil {
			return fmt.Errorf("%s: key literature.mars.mars: %w", c.path, err)
		}
		seats := slices.Clone(setup.Seats)
		seats[entry] = seat
		w.logf("dice-literature: %d games of %s with %s as %s", games, tc.Source, ms.TournamentBot, seat.Label)
		var recs []arena.Record
		if _, err := arena.Run(ctx, arena.Config{Map: setup.Map, Rules: setup.Rules, Seats: seats, Schedule: sched, Games: games,
			Seed: tc.Seed, Workers: 0, OnRecord: func(r arena.Record) {
				if slices.Contains(r.Seating, seat.Label) {
					recs = append(recs, r)
				}
			}}); err != nil {
			return fmt.Errorf("MARS stopping, %s, %s: %w", tc.Source, opt, err)
		}
		plays[i] = recs
	}
	m, rows, err := ms.measure(plays[0], plays[1])
	if err != nil {
		return err
	}
	t := &marsTournamentData{Config: ms.Tournament, Bot: ms.TournamentBot, Field: strings.Join(tc.Bots, ", "),
		Players: tc.Players, Seed: tc.Seed, Played: games, marsStopMeasure: m}
	label := ms.Mars + "(" + marsStopOptions[0] + ")"
	for _, r := range plays[0] {
		if r.Winner >= 0 && r.Seating[r.Winner] == label {
			t.First++
		}
	}
	d.Mars.Tournament = t
	return w.csv("mars-stop-tournament.csv", marsStopColumns, rows)
}

// measure compares MARS's games measuring the paper's rule (a) and
// stopping optimally (b), the same games in the same order, and returns
// the measure and the lines of the section's CSV files.
func (ms *marsStopConfig) measure(a, b []arena.Record) (marsStopMeasure, [][]string, error) {
	var m marsStopMeasure
	seat := func(r arena.Record, label string) int {
		for s, l := range r.Seating {
			if l == ms.Mars+"("+label+")" {
				return s
			}
		}
		return -1
	}
	n := len(a)
	if len(b) != n {
		return m, nil, fmt.Errorf("MARS stopping: %d games with the paper's rule, %d stopping optimally", n, len(b))
	}
	dec, more, less, priced, lossA, lossG := make([]float64, n), make([]float64, n), make([]float64, n),
		make([]float64, n), make([]float64, n), make([]float64, n)
	winP, winO := make([]bool, n), make([]bool, n)
	var rows [][]string
	for g := range n {
		ra, rb := a[g], b[g]
		sa, sb := seat(ra, marsStopOptions[0]), seat(rb, marsStopOptions[1])
		if sa < 0 || sb < 0 || len(ra.Stats) <= sa || ra.Game != rb.Game {
			return m, nil, fmt.Errorf("MARS stopping: game %d: MARS's seat or counts missing", ra.Game)
		}
		st := ra.Stats[sa]
		dec[g], more[g], less[g] = float64(st["stop_decisions"]), float64(st["stop_more"]), float64(st["stop_less"])
		priced[g], lossA[g], lossG[g] = float64(st["stop_priced"]), float64(st["stop_loss_micro"])/1e6, float64(st["stop_loss_goal_ppm"])/1e6
		winP[g], winO[g] = ra.Winner == sa, rb.Winner == sb
		if ra.Stalemate {
			m.Stalemate[0]++
		}
		if rb.Stalemate {
			m.Stalemate[1]++
		}
		m.Decisions += int(dec[g])
		m.Priced += int(priced[g])
		rows = append(rows, []string{strconv.Itoa(ra.Game), strconv.Itoa(int(dec[g])), strconv.Itoa(int(more[g])), strconv.Itoa(int(less[g])), strconv.Itoa(int(priced[g])),
			num(lossA[g]), num(lossG[g]), fmt.Sprint(winP[g]), fmt.Sprint(winO[g])})
	}
	m.Games = n
	m.More, m.Less = ratio(more, dec), ratio(less, dec)
	m.LossArmies, m.LossGoal = ratio(lossA, priced), ratio(lossG, dec)
	pc, err := stats.CountPairs(winP, winO)
	if err != nil {
		return m, nil, err
	}
	if m.Paired, err = stats.PairedProportions(pc, 0.95); err != nil {
		return m, nil, err
	}
	pp := m.Paired
	m.Gain, m.GainLo, m.GainHi = -100*pp.Diff, -100*pp.Interval.Hi, -100*pp.Interval.Lo
	return m, rows, nil
}
