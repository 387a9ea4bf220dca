package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"marslab/sim"
)

// TestSweep: on testdata/two.toml, seat 0 holds everything but d and e; c
// (8) pushes through d (2), whose only other enemy is e (1), and then
// finds no enemy: the front collapses, so c attacks d. With 5 on e the
// push runs out of armies and nothing is attacked.
func TestSweep(t *testing.T) {
	m, err := sim.LoadMap("testdata/two.toml")
	require.NoError(t, err)
	for _, tc := range []struct {
		eArmies  int
		from, to int
		ok       bool
	}{{1, 2, 3, true}, {5, -1, -1, false}} {
		c := newCluster(variant{plan: shaftPlan})
		c.b.Map = m
		c.b.Owner = []int{0, 0, 0, 1, 1, 0, 0}
		c.b.Armies = []int{1, 1, 8, 2, tc.eArmies, 1, 1}
		from, to, ok := c.sweep()
		assert.Equal(t, []any{tc.from, tc.to, tc.ok}, []any{from, to, ok}, "e=%d", tc.eArmies)
	}
}
