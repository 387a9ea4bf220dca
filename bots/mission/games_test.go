package mission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/mission"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestGamesLegal plays mission-mode and classic games of the mission bots
// (and the random bot) under the sim/simtest ledger: no fault, every invariant
// kept, and under the missions rules most games end by a completed mission
// rather than at the round limit.
func TestGamesLegal(t *testing.T) {
	t.Parallel()
	for _, rn := range []string{"missions", "classic", "mars2006"} {
		r, err := sim.LoadRules(rn)
		require.NoError(t, err)
		m, err := r.LoadMap()
		require.NoError(t, err)
		g, err := sim.NewGame(m, r, 6)
		require.NoError(t, err)
		ck := simtest.NewChecker(g, m, r)
		g.Observe(ck)
		players := []sim.Player{mission.NewMission(4), mission.NewConstrained(), mission.NewMission(100),
			mission.NewConstrained(), mission.NewMission(1), &sim.BasePlayer{}}
		stalemates := 0
		for i := range 40 {
			res, err := g.Play(players, 3, uint64(i))
			require.NoError(t, err)
			require.NoError(t, ck.Err(), "%s game %d", rn, i)
			require.NoError(t, ck.CheckResult(res), "%s game %d", rn, i)
			for s, f := range res.Faults[:5] {
				assert.Zero(t, f, "%s game %d seat %d", rn, i, s)
			}
			if res.Stalemate {
				stalemates++
			}
		}
		if rn == "missions" {
			assert.Less(t, stalemates, 4, "missions: %d of 40 games at the round limit", stalemates)
		}
	}
}
