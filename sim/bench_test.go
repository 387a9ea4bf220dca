package sim

import (
	"testing"

	"github.com/marslab-risk/marslab/internal/gamebench"
)

// greedy is a minimal allocation-free bot for engine benchmarks: it places
// everything on its strongest territory and attacks from its strongest
// territories with maximum dice until the odds look poor.
type greedy struct{ BasePlayer }

func (p *greedy) strongest(s *State) int {
	best, ba := -1, -1
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) == p.Seat && s.Armies(t) > ba {
			best, ba = t, s.Armies(t)
		}
	}
	return best
}

func (p *greedy) PlaceInitial(s *State) int { return p.strongest(s) }

func (p *greedy) Trade(s *State, forced bool) ([3]int, bool) { return BestSet(s, p.Seat) }

func (p *greedy) Place(s *State, armies int, buf []Placement) []Placement {
	// Prefer the strongest territory that borders an enemy.
	best, ba := p.strongest(s), -1
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != p.Seat || s.Armies(t) <= ba {
			continue
		}
		for _, nb := range s.Map().Neighbors(t) {
			if s.Owner(nb) != p.Seat {
				best, ba = t, s.Armies(t)
				break
			}
		}
	}
	return append(buf, Placement{Territory: best, Armies: armies})
}

func (p *greedy) Attack(s *State) (AttackOrder, bool) {
	bf, bt, bd := -1, -1, 0
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != p.Seat || s.Armies(t) < 3 {
			continue
		}
		for _, nb := range s.Map().Neighbors(t) {
			if s.Owner(nb) != p.Seat {
				if d := s.Armies(t) - s.Armies(nb); d > bd {
					bf, bt, bd = t, nb, d
				}
			}
		}
	}
	if bf < 0 {
		return AttackOrder{}, false
	}
	return AttackOrder{From: bf, To: bt, Repeat: true}, true
}

func (p *greedy) Occupy(s *State, from, to, lo, hi int) int { return hi }

func benchGame(b *testing.B, m *Map, r *Rules, obs Observer) {
	g, err := NewGame(m, r, 6)
	if err != nil {
		b.Fatal(err)
	}
	g.Observe(obs)
	players := make([]Player, 6)
	for i := range players {
		players[i] = &greedy{}
	}
	gamebench.Play(b, func(i uint64) (int, error) {
		res, err := g.Play(players, 1, i)
		return res.Turns, err
	})
}

// BenchmarkEngine measures the bare engine (validation on, no observer) with
// six greedy bots on a 42-territory map.
func BenchmarkEngine(b *testing.B) {
	benchGame(b, ringMap(6, 7), testRules(FortifyOneStep), nil)
}

// BenchmarkEngineObserved measures the cost of events with one observer.
func BenchmarkEngineObserved(b *testing.B) {
	n := 0
	benchGame(b, ringMap(6, 7), testRules(FortifyOneStep), ObserverFunc(func(e *Event) { n++ }))
}

// BenchmarkEngineClassic measures the bare engine with six greedy bots on
// the classic map under the MARS paper's rules.
func BenchmarkEngineClassic(b *testing.B) {
	m, err := LoadMap("classic")
	if err != nil {
		b.Fatal(err)
	}
	r, err := LoadRules("mars2006")
	if err != nil {
		b.Fatal(err)
	}
	benchGame(b, m, r, nil)
}

// BenchmarkRollDice measures the engine's dice: one roll of 3 against 2.
func BenchmarkRollDice(b *testing.B) {
	g, _ := NewGame(ringMap(1, 3), testRules(FortifySingle), 2)
	g.reset(1)
	var a [3]uint8
	var d [2]uint8
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		RollDice(g.rng, 3, 2, false, &a, &d)
	}
}

// BenchmarkEngineLux is BenchmarkEngineClassic under the rule set lux:
// the bots place their starting armies 4 at a time through Place, and an
// unforced player trades one set a turn.
func BenchmarkEngineLux(b *testing.B) {
	m, err := LoadMap("classic")
	if err != nil {
		b.Fatal(err)
	}
	r, err := LoadRules("lux")
	if err != nil {
		b.Fatal(err)
	}
	benchGame(b, m, r, nil)
}
