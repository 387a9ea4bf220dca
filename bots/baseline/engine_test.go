package baseline

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
)

var ruleSets = []string{"classic", "mars2006", "fixedcards", "missions"}

func load(t testing.TB, rules string) (*sim.Map, *sim.Rules) {
	t.Helper()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err, "LoadMap")
	r, err := sim.LoadRules(rules)
	require.NoError(t, err, "LoadRules", rules)
	return m, r
}

// kinds are the baseline bots, in the order seats are filled.
var kinds = []func() sim.Player{
	func() sim.Player { return NewSciberras(Aggressive) },
	func() sim.Player { return newRandom(defaultRandomStop) },
	func() sim.Player { return NewSciberras(Passive) },
	func() sim.Player { return NewSciberras(Pacifist) },
}

// TestNoFaults plays every baseline bot on every embedded rule set with 2..6
// players: the engine must never record a fault.
func TestNoFaults(t *testing.T) {
	t.Parallel()
	gamesPerCount := 16
	if race.Enabled { // make test-full plays the 16
		gamesPerCount = 6
	}
	for _, rn := range ruleSets {
		m, r := load(t, rn)
		total := 0
		for n := 2; n <= 6; n++ {
			g, err := sim.NewGame(m, r, n)
			require.NoError(t, err, rn, n)
			var fault string
			g.Observe(sim.ObserverFunc(func(e *sim.Event) {
				if e.Kind == sim.EvFault && fault == "" {
					fault = fmt.Sprintf("seat %d, phase %v: %s", e.Player, e.Phase, e.Text)
				}
			}))
			players := make([]sim.Player, n)
			for i := 0; i < gamesPerCount; i++ {
				for p := range players {
					players[p] = kinds[(p+i)%len(kinds)]()
				}
				res, err := g.Play(players, 7, uint64(i))
				require.NoError(t, err, rn, n, i)
				for p, f := range res.Faults {
					require.Zero(t, f, "%s, %d players, game %d: seat %d (%T) made %d faults; first: %s", rn, n, i, p, players[p], f, fault)
				}
				total++
			}
		}
		require.Equal(t, 5*gamesPerCount, total, "%s: games played", rn)
	}
}

// randomSpy records the Random bot's answers.
type randomSpy struct {
	*Random
	s                                          *sim.State
	dice                                       [4]int
	single, repeatStop, voluntary, forced      int
	multiPlace, onePlace, occupyMid, occupyMax int
	multiMove, sameSource, farMove             int
}

func (r *randomSpy) Start(s *sim.State, seat int, rng *rand.Rand) {
	r.s = s
	r.Random.Start(s, seat, rng)
}

func (r *randomSpy) Trade(s *sim.State, forced bool) ([3]int, bool) {
	set, ok := r.Random.Trade(s, forced)
	if ok && forced {
		r.forced++
	} else if ok {
		r.voluntary++
	}
	return set, ok
}

func (r *randomSpy) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	buf = r.Random.Place(s, armies, buf)
	if len(buf) > 1 {
		r.multiPlace++
	} else {
		r.onePlace++
	}
	return buf
}

func (r *randomSpy) Attack(s *sim.State) (sim.AttackOrder, bool) {
	o, ok := r.Random.Attack(s)
	if ok {
		r.dice[o.Dice]++
		if !o.Repeat {
			r.single++
		} else if o.StopAt >= 2 {
			r.repeatStop++
		}
	}
	return o, ok
}

func (r *randomSpy) Occupy(s *sim.State, from, to, lo, hi int) int {
	k := r.Random.Occupy(s, from, to, lo, hi)
	if k > lo && k < hi {
		r.occupyMid++
	}
	if k == hi && hi > lo {
		r.occupyMax++
	}
	return k
}

func (r *randomSpy) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	buf = r.Random.Fortify(s, buf)
	if len(buf) > 1 {
		r.multiMove++
		for i := 1; i < len(buf); i++ {
			if buf[i].From == buf[i-1].From {
				r.sameSource++
				break
			}
		}
	}
	for _, mv := range buf {
		if !s.Map().Adjacent(mv.From, mv.To) {
			r.farMove++
		}
	}
	return buf
}

// TestRandomCorners checks that the Random bot reaches every legal corner of
// the Player interface (and stays legal while doing so).
func TestRandomCorners(t *testing.T) {
	t.Parallel()
	for _, rn := range []string{"classic", "mars2006", "fixedcards"} {
		m, r := load(t, rn)
		g, err := sim.NewGame(m, r, 4)
		require.NoError(t, err)
		spies := make([]*randomSpy, 4)
		players := make([]sim.Player, 4)
		for i := range spies {
			spies[i] = &randomSpy{Random: newRandom(0.1)}
			players[i] = spies[i]
		}
		for i := 0; i < 20; i++ {
			res, err := g.Play(players, 11, uint64(i))
			require.NoError(t, err)
			for p, f := range res.Faults {
				require.Zero(t, f, "%s game %d: seat %d made %d faults", rn, i, p, f)
			}
		}
		var sum randomSpy
		for _, s := range spies {
			for d := range sum.dice {
				sum.dice[d] += s.dice[d]
			}
			sum.single += s.single
			sum.repeatStop += s.repeatStop
			sum.voluntary += s.voluntary
			sum.forced += s.forced
			sum.multiPlace += s.multiPlace
			sum.onePlace += s.onePlace
			sum.occupyMid += s.occupyMid
			sum.occupyMax += s.occupyMax
			sum.multiMove += s.multiMove
			sum.sameSource += s.sameSource
			sum.farMove += s.farMove
		}
		checks := []struct {
			what string
			n    int
		}{
			{"dice 0 (most)", sum.dice[0]}, {"dice 1", sum.dice[1]}, {"dice 2", sum.dice[2]}, {"dice 3", sum.dice[3]},
			{"single rolls", sum.single}, {"repeat with StopAt >= 2", sum.repeatStop},
			{"voluntary trades", sum.voluntary},
			{"multi-placement", sum.multiPlace}, {"one placement", sum.onePlace},
			{"occupy between min and max", sum.occupyMid}, {"occupy max", sum.occupyMax},
		}
		switch r.Fortify.Mode {
		case sim.FortifyOneStep:
			checks = append(checks, struct {
				what string
				n    int
			}{"several moves", sum.multiMove}, struct {
				what string
				n    int
			}{"two moves from one source", sum.sameSource})
		case sim.FortifyConnected:
			checks = append(checks, struct {
				what string
				n    int
			}{"non-adjacent move", sum.farMove})
		}
		for _, c := range checks {
			assert.NotZero(t, c.n, "%s: random bot never made a %s", rn, c.what)
		}
		if r.Fortify.Mode != sim.FortifyOneStep {
			assert.Zero(t, sum.multiMove, "%s: random bot's multi-move fortifications", rn)
		}
		if r.Fortify.Mode != sim.FortifyConnected {
			assert.Zero(t, sum.farMove, "%s: random bot's non-adjacent moves", rn)
		}
	}
}

// TestDeterminism: the same seed gives the same event stream, with fresh
// bots or with bots reused from other games.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	m, r := load(t, "classic")
	digest := func(players []sim.Player, index uint64) uint64 {
		h := fnv.New64a()
		var buf []byte
		obs := sim.ObserverFunc(func(e *sim.Event) {
			buf = e.AppendJSON(buf[:0])
			h.Write(buf)
		})
		g, err := sim.NewGame(m, r, len(players))
		require.NoError(t, err)
		g.Observe(obs)
		_, err = g.Play(players, 99, index)
		require.NoError(t, err)
		return h.Sum64()
	}
	fresh := func() []sim.Player {
		return []sim.Player{NewSciberras(Aggressive), newRandom(0.2), NewSciberras(Pacifist), NewSciberras(Passive), newRandom(0.5)}
	}
	reused := fresh()
	for i := uint64(0); i < 5; i++ {
		digest(reused, i+100) // dirty the bots' state with another game
		a, b := digest(fresh(), i), digest(reused, i)
		require.Equal(t, b, a, "game %d: fresh bots give %x, reused bots %x", i, a, b)
	}
}
