package lux_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// tableSix are the Lux bots of the MARS paper's Table 6 (vulture standing
// in for Nefarious).
var tableSix = []string{"angry", "communist", "stinky", "cluster", "pixie", "shaft", "yakool", "boscoe", "bort", "evilpixie", "quo", "vulture"}

// TestPlaceInitialIsPlace: every Table-6 Lux bot forwards Lux's
// placeInitialArmies to its placeArmies, so a starting army goes where
// Place puts one army (two bots started alike, at the same position);
// Vulture.java forwards it to its Cluster backer, so Vulture's starting
// army goes where Cluster's Place puts one. Under setup.initial_per_turn
// (the lux rule sets) the engine asks Place itself.
func TestPlaceInitialIsPlace(t *testing.T) {
	t.Parallel()
	m, r, base := simtest.LoadPosition(t, "testdata/grid.toml", "mars2006", "testdata/communist-source.toml")
	boards := []string{"", "a=1:3 b=0:4", "e=1:2 f=0:7 c=0:1", "g=1:1 h=0:2 d=1:9"}
	for _, spec := range tableSix {
		for _, edit := range boards {
			t.Run(spec+"/"+edit, func(t *testing.T) {
				pos := gridEdit(t, m, base, edit)
				pos.Phase = sim.PhasePlace
				seat, err := registry.Default().ParseSeat(spec, nil)
				require.NoError(t, err)
				a, s := bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(3, 4)))
				if spec == "vulture" {
					seat, err = registry.Default().ParseSeat("cluster", nil)
					require.NoError(t, err)
				}
				b, _ := bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(3, 4)))
				pl := b.Place(s, 1, nil)
				require.Len(t, pl, 1)
				assert.Equal(t, pl[0].Territory, a.PlaceInitial(s))
			})
		}
	}
}

// occupyCheck wraps a player and checks each of its Occupy answers against
// want, computed from the Java source's moveArmiesIn, at the moment the
// engine asks: the captured territory still the defender's, with 0 armies.
type occupyCheck struct {
	sim.Player
	t     *testing.T
	seat  int
	want  func(s *sim.State, seat, from, to, lo, hi int) int
	calls int
}

func (o *occupyCheck) Start(s *sim.State, seat int, rng *rand.Rand) {
	o.seat = seat
	o.Player.Start(s, seat, rng)
}

func (o *occupyCheck) Occupy(s *sim.State, from, to, lo, hi int) int {
	o.calls++
	assert.NotEqual(o.t, o.seat, s.Owner(to), "the engine asks before the owner changes")
	assert.Zero(o.t, s.Armies(to), "the engine asks with the captured territory empty")
	got := o.Player.Occupy(s, from, to, lo, hi)
	assert.Equal(o.t, o.want(s, o.seat, from, to, lo, hi), got, "Occupy(%d, %d, %d, %d)", from, to, lo, hi)
	return got
}

// enemiesAfter counts t's neighbours owned by another seat than p, the
// captured territory won counting as p's (Lux shows it as the attacker's).
func enemiesAfter(s *sim.State, p, t, won int) int {
	n := 0
	for _, u := range s.Map().Neighbors(t) {
		if u != won && s.Owner(u) != p {
			n++
		}
	}
	return n
}

// weakestAfter is t's weakest enemy neighbour (the first on ties), the
// captured territory won counting as p's; -1 if none.
func weakestAfter(s *sim.State, p, t, won int) int {
	best := -1
	for _, u := range s.Map().Neighbors(t) {
		if u != won && s.Owner(u) != p && (best < 0 || s.Armies(u) < s.Armies(best)) {
			best = u
		}
	}
	return best
}

// TestOccupySource plays games of Angry, Communist and Stinky and checks
// every move-in against the rule of their Java moveArmiesIn, called as the
// engine calls Occupy.
func TestOccupySource(t *testing.T) {
	t.Parallel()
	rules := map[string]func(s *sim.State, p, from, to, lo, hi int) int{
		// Angry.moveArmiesIn: 0 (the minimum) if the attacker has more enemy
		// neighbours than the captured territory, else everything.
		"angry": func(s *sim.State, p, from, to, lo, hi int) int {
			if enemiesAfter(s, p, from, to) > enemiesAfter(s, p, to, to) {
				return lo
			}
			return hi
		},
		// Communist.moveArmiesIn: (armies + 1) / 2, rounded into the bounds.
		"communist": func(s *sim.State, p, from, to, lo, hi int) int {
			return min(max((s.Armies(from)+1)/2, lo), hi)
		},
		// Stinky.moveArmiesIn: everything if the attacker has no enemy left,
		// the minimum if the captured territory has none or the attacker's
		// weakest enemy is weaker, else everything.
		"stinky": func(s *sim.State, p, from, to, lo, hi int) int {
			wf, wt := weakestAfter(s, p, from, to), weakestAfter(s, p, to, to)
			switch {
			case wf < 0:
				return hi
			case wt < 0 || s.Armies(wf) < s.Armies(wt):
				return lo
			}
			return hi
		},
	}
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	for _, spec := range []string{"angry", "communist", "stinky"} {
		t.Run(spec, func(t *testing.T) {
			seats, err := registry.Default().ParseSeats(spec+",cluster,pixie,aggressive", nil)
			require.NoError(t, err)
			var players []sim.Player
			for _, st := range seats {
				p, err := st.New()
				require.NoError(t, err)
				players = append(players, p)
			}
			check := &occupyCheck{Player: players[0], t: t, want: rules[spec]}
			players[0] = check
			g, err := sim.NewGame(m, r, len(players))
			require.NoError(t, err)
			for i := range 4 {
				_, err := g.Play(players, 17, uint64(i))
				require.NoError(t, err)
			}
			assert.Greater(t, check.calls, 10, "enough move-ins to test")
		})
	}
}
