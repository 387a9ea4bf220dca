package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestSweep: on testdata/two.toml, seat 0 holds a, b, c, f and g, root c;
// the front of c's cluster is c (8), f (1) and g (1). c pushes into d (2),
// its only enemy; f then has no enemy left and leaves the front; from d the
// push goes on into e, its only unseen enemy, when it holds 1; then g and e
// have no enemy left: the front collapses and Shaft attacks c-d, then d-e,
// moving everything in. With 5 on e the push stops at d, g still faces e:
// two points stay, and nothing is attacked. Once something was conquered
// this turn no new sweep is planned.
func TestSweep(t *testing.T) {
	m, err := sim.LoadMap("testdata/two.toml")
	require.NoError(t, err)
	const tc, td, te = 2, 3, 4
	for _, tt := range []struct {
		eArmies int
		steps   [][2]int
	}{{1, [][2]int{{tc, td}, {td, te}}}, {5, nil}} {
		c := newCluster(variant{plan: shaftPlan})
		c.b.Map = m
		c.b.Owner = []int{0, 0, 0, 1, 1, 0, 0}
		c.b.Armies = []int{1, 1, 8, 2, tt.eArmies, 1, 1}
		c.root = tc
		_, _, ok := c.sweep(true)
		assert.False(t, ok, "e=%d: nothing planned after a conquest", tt.eArmies)
		var got [][2]int
		for {
			from, to, ok := c.sweep(false)
			if !ok {
				break
			}
			got = append(got, [2]int{from, to})
			// The conquest, everything moved in.
			c.b.Owner[to], c.b.Armies[to], c.b.Armies[from] = 0, c.b.Armies[from]-1, 1
		}
		assert.Equal(t, tt.steps, got, "e=%d", tt.eArmies)
	}
}

// TestSweepStops: a planned sweep ends at a step whose attacker was lost.
func TestSweepStops(t *testing.T) {
	m, err := sim.LoadMap("testdata/two.toml")
	require.NoError(t, err)
	c := newCluster(variant{plan: shaftPlan})
	c.b.Map = m
	c.b.Owner = []int{0, 0, 0, 1, 1, 0, 0}
	c.b.Armies = []int{1, 1, 8, 2, 1, 1, 1}
	c.root = 2
	from, to, ok := c.sweep(false)
	require.True(t, ok)
	assert.Equal(t, []int{2, 3}, []int{from, to})
	// The attack on d failed: c is down to 1 army, d is still seat 1's.
	c.b.Armies[2] = 1
	_, _, ok = c.sweep(true)
	assert.False(t, ok)
	_, _, ok = c.sweep(false)
	assert.False(t, ok, "the plan is over for the turn")
}
