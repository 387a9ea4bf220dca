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
		c := newLegacyCluster(variant{smallestGoal: true, plan: quoPlan})
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
	c := newLegacyCluster(variant{smallestGoal: true, plan: quoPlan})
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

// TestSweepBreakout: a lone stack breaks out when it can take every enemy
// it faces and the chains beyond close to one point. On testdata/two.toml
// seat 0 holds b (10), e and f. b faces a and c, each a step (a opens onto
// g, c onto d): both are taken, b's 9 movable armies less their cost (2 +
// 2) leave 5, shared 3 (a, the first) and 2 (c). a pushes on into g, which
// faces nothing unseen; c (2) cannot pay for d (1 + 1 standing) and holds:
// the front is c alone. The plan moves 1 + 3 into a, everything into c
// (the last of b's chains) and 1 into g. With c at 5 the armies left (1)
// take neither a's nor c's chain further: two points stay, no sweep.
func TestSweepBreakout(t *testing.T) {
	m, err := sim.LoadMap("testdata/two.toml")
	require.NoError(t, err)
	const ta, tb, tc, tg = 0, 1, 2, 6
	for _, tt := range []struct {
		cArmies int
		plan    []sweepStep
	}{
		{1, []sweepStep{{tb, ta, 4}, {tb, tc, 0}, {ta, tg, 1}}},
		{5, nil},
	} {
		c := newLegacyCluster(variant{smallestGoal: true, plan: quoPlan})
		c.b.Map = m
		c.b.Owner = []int{1, 0, 1, 1, 0, 0, 1}
		c.b.Armies = []int{1, 10, tt.cArmies, 1, 1, 1, 1}
		c.root = tb
		ok := c.planSweep()
		require.Equal(t, tt.plan != nil, ok, "c=%d", tt.cArmies)
		if ok {
			assert.Equal(t, tt.plan, c.sweepPlan)
			// The move-in of each step: its planned armies within the
			// engine's bounds, everything for the last chain.
			c.sweeping = true
			for i, want := range []int{4, 7, 1} {
				c.sweepAt = i + 1
				assert.Equal(t, want, c.Occupy(nil, 0, 0, 1, 7), "step %d", i)
			}
		}
	}
}
