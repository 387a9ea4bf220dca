package simtest

import (
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

// NewGame loads the rule set rules (an embedded name or a TOML file) and
// the map it names and returns a game of them for players seats, with the
// map and the rules; a failure fails tb.
func NewGame(tb testing.TB, rules string, players int) (*sim.Game, *sim.Map, *sim.Rules) {
	tb.Helper()
	r, err := sim.LoadRules(rules)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := r.LoadMap()
	if err != nil {
		tb.Fatal(err)
	}
	g, err := sim.NewGame(m, r, players)
	if err != nil {
		tb.Fatal(err)
	}
	return g, m, r
}

// Play plays games 0..games-1 of the experiment seed with players (one
// per seat, reused from game to game) under the rule set rules (an
// embedded name or a TOML file, on its own map), checks every event and
// every result with a Checker, and returns the events of each kind by
// seat (counts[p][k]) and each seat's faults summed over the games. A
// failure to load, to play or a broken invariant fails tb.
func Play(tb testing.TB, players []sim.Player, rules string, seed uint64, games int) (counts [][sim.NumEventKinds]int, faults []int) {
	tb.Helper()
	g, m, r := NewGame(tb, rules, len(players))
	ck := NewChecker(g, m, r)
	g.Observe(ck)
	counts = make([][sim.NumEventKinds]int, len(players))
	g.Observe(sim.ObserverFunc(func(ev *sim.Event) {
		if ev.Player >= 0 && ev.Player < len(players) {
			counts[ev.Player][ev.Kind]++
		}
	}))
	faults = make([]int, len(players))
	for i := range games {
		res, err := g.Play(players, seed, uint64(i))
		if err != nil {
			tb.Fatalf("%s: game %d: %v", rules, i, err)
		}
		if err := ck.CheckResult(res); err != nil {
			tb.Fatalf("%s: game %d: %v", rules, i, err)
		}
		for k, f := range res.Faults {
			faults[k] += f
		}
	}
	return counts, faults
}

// Attack asks p for one attack order on s and fails tb unless the order
// is legal for seat (sim.State.CheckAttack). It returns the zero order
// and false when p does not attack.
func Attack(tb testing.TB, p sim.Player, s *sim.State, seat int) (sim.AttackOrder, bool) {
	tb.Helper()
	o, ok := p.Attack(s)
	if !ok {
		return sim.AttackOrder{}, false
	}
	if err := s.CheckAttack(seat, o); err != nil {
		tb.Fatalf("attack order %+v: %v", o, err)
	}
	return o, true
}

// Attacks returns the orders of up to n successive Attack calls of p on
// s (as Attack checks them), stopping at the first call that does not
// attack; nil if p does not attack at all.
func Attacks(tb testing.TB, p sim.Player, s *sim.State, seat, n int) []sim.AttackOrder {
	tb.Helper()
	var got []sim.AttackOrder
	for range n {
		o, ok := Attack(tb, p, s, seat)
		if !ok {
			break
		}
		got = append(got, o)
	}
	return got
}

// Fortify returns p's fortification moves on s and fails tb unless they
// are legal for seat ([sim.State.CheckMoves]).
func Fortify(tb testing.TB, p sim.Player, s *sim.State, seat int) []sim.Move {
	tb.Helper()
	mv := p.Fortify(s, nil)
	if err := s.CheckMoves(seat, mv); err != nil {
		tb.Fatalf("moves %+v: %v", mv, err)
	}
	return mv
}

// LoadPosition loads the map mapArg and the rule set rules (embedded
// names or TOML files) and the position in the file path on them; a
// failure fails tb.
func LoadPosition(tb testing.TB, mapArg, rules, path string) (*sim.Map, *sim.Rules, *sim.Position) {
	tb.Helper()
	m, err := sim.LoadMap(mapArg)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := sim.LoadRules(rules)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := sim.LoadPosition(path, m, r)
	if err != nil {
		tb.Fatal(err)
	}
	return m, r, pos
}

// TurnAllocs returns the allocations of one turn's decisions of p on s
// (PlaceInitial, Trade with forced, Place of 5 armies, Attack, Fortify)
// averaged over runs turns, the placement and move buffers reused from
// turn to turn ([testing.AllocsPerRun]).
func TurnAllocs(p sim.Player, s *sim.State, forced bool, runs int) float64 {
	pl := make([]sim.Placement, 0, 8)
	mv := make([]sim.Move, 0, 8)
	return testing.AllocsPerRun(runs, func() {
		p.PlaceInitial(s)
		p.Trade(s, forced)
		pl = p.Place(s, 5, pl[:0])
		p.Attack(s)
		mv = p.Fortify(s, mv[:0])
	})
}
