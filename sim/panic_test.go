package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// bomb plays like steady until it panics in the method named trigger
// ("Trade after elimination" and "Place after elimination" name the forced
// trade and placement after it eliminates a player), and counts the calls
// it gets after that.
type bomb struct {
	steady
	trigger  string
	exploded bool
	after    int // calls after the panic
	occupied int // the round of the last Occupy call, 0 for none
}

func (b *bomb) call(s *sim.State, method string) {
	if b.exploded {
		b.after++
		return
	}
	if method == "Trade" || method == "Place" {
		if b.occupied == s.Round() { // a conquest earlier in this turn
			method += " after elimination"
		}
	}
	if method == b.trigger {
		b.exploded = true
		panic("bomb: " + method)
	}
}

func (b *bomb) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.steady.Start(s, seat, rng)
	b.occupied = 0
	b.call(s, "Start")
}

func (b *bomb) PlaceInitial(s *sim.State) int {
	b.call(s, "PlaceInitial")
	return b.steady.PlaceInitial(s)
}

func (b *bomb) Trade(s *sim.State, forced bool) ([3]int, bool) {
	b.call(s, "Trade")
	return b.steady.Trade(s, forced)
}

func (b *bomb) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	b.call(s, "Place")
	return b.steady.Place(s, armies, buf)
}

func (b *bomb) Attack(s *sim.State) (sim.AttackOrder, bool) {
	b.call(s, "Attack")
	return b.steady.Attack(s)
}

func (b *bomb) Occupy(s *sim.State, from, to, lo, hi int) int {
	b.call(s, "Occupy")
	b.occupied = s.Round()
	return b.steady.Occupy(s, from, to, lo, hi)
}

func (b *bomb) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	b.call(s, "Fortify")
	buf = b.steady.Fortify(s, buf)
	if s.Armies(s.FirstOwned(b.Seat)) > 1 {
		for t := 0; t < s.NumTerritories(); t++ {
			if f := s.FirstOwned(b.Seat); t != f && s.Owner(t) == b.Seat && s.Map().Adjacent(f, t) {
				buf = append(buf, sim.Move{From: f, To: t, Armies: 1})
				break
			}
		}
	}
	return buf
}

// TestPanicPassesForTheRestOfTheGame: a bot that panics in any method (and
// in the forced trade and placement after an elimination) is recovered,
// the fault recorded once, and it is never called again in that game,
// while the game goes on with its invariants intact.
func TestPanicPassesForTheRestOfTheGame(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(3, 4)
	r := sim.RulesForTest(sim.FortifySingle)
	for _, trigger := range []string{"Start", "PlaceInitial", "Trade", "Place", "Attack", "Occupy", "Fortify",
		"Trade after elimination", "Place after elimination"} {
		t.Run(trigger, func(t *testing.T) {
			g, err := sim.NewGame(m, r, 3)
			require.NoError(t, err)
			c := simtest.NewChecker(g, m, r)
			g.Observe(c)
			var faults []string
			g.Observe(sim.ObserverFunc(func(e *sim.Event) {
				if e.Kind == sim.EvFault {
					faults = append(faults, e.Text)
				}
			}))
			b := &bomb{trigger: trigger}
			players := []sim.Player{b, &steady{}, &steady{}}
			for i := 0; i < 300 && !b.exploded; i++ {
				faults = faults[:0]
				res, err := g.Play(players, 7, uint64(i))
				require.NoError(t, err)
				require.NoError(t, c.CheckResult(res), "game %d", i)
				if !b.exploded {
					continue
				}
				require.Zero(t, b.after, "game %d: the bot was called after its panic", i)
				require.Equal(t, 1, res.Faults[0], "game %d: faults %q", i, faults)
				require.Len(t, faults, 1, "game %d", i)
				t.Logf("game %d: %s; %d rounds", i, faults[0], res.Rounds)
			}
			require.True(t, b.exploded, "no game called %s", trigger)
		})
	}
}
