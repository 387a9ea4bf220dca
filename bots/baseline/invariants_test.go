package baseline

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestInvariantsBaseline plays the baseline bots (aggressive, random,
// passive and pacifist, rotating through the seats) under every embedded
// rule set on the classic map, 2 to 6 players, and checks every event with
// the ledger of github.com/marslab-risk/marslab/sim/simtest, which recomputes starting armies,
// reinforcements, set values and territory bonuses from the rules: 200
// games per player count, 1000 per rule set (10 and 50 under -short or
// -race: the race detector has nothing to detect in games played on the
// test's goroutine).
func TestInvariantsBaseline(t *testing.T) {
	t.Parallel()
	games := 200
	if testing.Short() || race.Enabled {
		games = 10
	}
	for _, rn := range ruleSets {
		m, r := load(t, rn)
		var total [sim.NumEventKinds]int
		for n := 2; n <= 6; n++ {
			t.Run(fmt.Sprintf("%s/%dp", rn, n), func(t *testing.T) {
				g, err := sim.NewGame(m, r, n)
				require.NoError(t, err)
				c := simtest.NewChecker(g, m, r)
				g.Observe(c)
				players := make([]sim.Player, n)
				for i := 0; i < games; i++ {
					for p := range players {
						players[p] = kinds[(p+i)%len(kinds)]()
					}
					res, err := g.Play(players, 2006, uint64(i))
					require.NoError(t, err)
					require.NoError(t, c.CheckResult(res), "game %d", i)
					for p, f := range res.Faults {
						require.Zero(t, f, "game %d: seat %d (%T) made %d faults", i, p, players[p], f)
					}
				}
				for k, v := range c.Counts {
					total[k] += v
				}
			})
		}
		for _, k := range []sim.EventKind{sim.EvTrade, sim.EvElimination, sim.EvMove} {
			assert.NotZero(t, total[k], "%s: no %v events: %v", rn, k, total)
		}
	}
}
