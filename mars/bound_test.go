package mars

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
)

// worstCorner returns the parameters at the corner of the ranges that costs
// a placement the most work: the longest goal paths, every path kept,
// every valuation coefficient at its top, the bid multipliers at theirs
// and no attack threshold (docs/mars.md, "Cost of a decision").
func worstCorner() Params {
	p := PaperParams()
	p.Gl, p.GoalPaths = maxGoalPath, GoalPathsAll
	p.Csv, p.Cfn, p.Cen, p.Cfnu, p.Cenu, p.Ccb, p.Coc, p.Ceoc = 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000
	p.Pob, p.Pdb = 10000, 10000
	p.Wp, p.Wp1 = 0, 0
	return p
}

// TestPlacementWorkBounded: at the worst corner of the parameter ranges, a
// placement on the classic map with stacks of 1,000 armies against
// single armies (every simple path of up to 10 enemy territories is
// reachable: millions of chains) relays at most maxRelay messages and
// keeps at most maxBnd bid-bound numerators, whatever the armies to place,
// so the bot's buffers stay within the documented bound; the placement
// still places every army on the bot's territories.
func TestPlacementWorkBounded(t *testing.T) {
	t.Parallel()
	cm, err := sim.LoadMap("classic")
	require.NoError(t, err)
	nt := len(cm.Territories)
	nbr, cont := make([][]int, nt), make([]int, nt)
	for i, tr := range cm.Territories {
		nbr[i], cont[i] = tr.Neighbors, tr.Continent
	}
	bonus := make([]int, len(cm.Continents))
	for c, cn := range cm.Continents {
		bonus[c] = cn.Bonus
	}
	owner, armies := make([]int, nt), make([]int, nt)
	for i := range owner {
		owner[i], armies[i] = 1+i%5, 1
	}
	// Seat 0 holds three territories spread over the map, each with a
	// stack that reaches any chain of up to ten single armies.
	for _, i := range []int{0, nt / 3, 2 * nt / 3} {
		owner[i], armies[i] = 0, 1000
	}
	ns := []int{3, 5000}
	if race.Enabled {
		// One goroutine: the race detector has nothing to check here, and
		// a placement takes it seconds.
		ns = ns[:1]
	}
	for _, n := range ns {
		m := testMediator(t, worstCorner(), nbr, cont, bonus, owner, armies)
		m.place(n)
		assert.Equal(t, maxRelay, len(m.msgs), "%d armies to place: the relay stops at its bound (the test reaches it)", n)
		assert.LessOrEqual(t, cap(m.msgs), 2*maxRelay, "%d armies: the message buffer", n)
		assert.LessOrEqual(t, len(m.ccs), maxRelay, "%d armies: odds caches, one a message at most", n)
		assert.NotEmpty(t, m.goals, "%d armies: goals found", n)
		assert.LessOrEqual(t, m.bndN, maxBnd, "%d armies: bid-bound numerators kept", n)
		placed := 0
		for i := range owner {
			if owner[i] != 0 {
				assert.Equal(t, armies[i], m.b.Armies[i], "%d armies: territory %d is not the bot's", n, i)
				continue
			}
			placed += m.b.Armies[i] - armies[i]
		}
		assert.Equal(t, n, placed, "%d armies placed", n)
	}
}
