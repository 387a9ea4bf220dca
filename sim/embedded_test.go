package sim

import (
	"fmt"
	"testing"
)

// TestInvariantsEmbeddedRules plays seeded games with random (and partly
// misbehaving) players under every embedded rule set on the classic map,
// for 2 to 6 players, checking the invariants after every event.
func TestInvariantsEmbeddedRules(t *testing.T) {
	m, err := LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	games := 60
	if testing.Short() || raceEnabled {
		games = 15
	}
	for _, name := range []string{"classic", "mars2006", "fixedcards", "missions"} {
		r, err := LoadRules(name)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 6; n++ {
			t.Run(fmt.Sprintf("%s/%dp", name, n), func(t *testing.T) {
				g, err := NewGame(m, r, n)
				if err != nil {
					t.Fatal(err)
				}
				c := &checker{t: t, g: g}
				g.Observe(c)
				players := newChaos(n, 0.01)
				finished := 0
				for i := 0; i < games && !c.fail; i++ {
					res, err := g.Play(players, 2006, uint64(i))
					if err != nil {
						t.Fatal(err)
					}
					checkResult(t, g, res)
					if !res.Stalemate {
						finished++
					}
				}
				if c.counts[EvRoll] == 0 || c.counts[EvOccupation] == 0 {
					t.Errorf("no battles: %v", c.counts)
				}
				if r.Cards.Mode != "none" && c.counts[EvTrade] == 0 {
					t.Errorf("no card trades in %d games", games)
				}
			})
		}
	}
}
