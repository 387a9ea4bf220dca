package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/marslab-risk/marslab/bots/blocks"
)

// TestClusterStartResets: Start clears all of a game's state, so a bot
// reused for the next game (as arena's workers reuse them) plays it as a
// fresh one would. Vulture places without choosing a goal when it hunts,
// so a root left from the last game would steer its fortification.
func TestClusterStartResets(t *testing.T) {
	c := newLuxCluster()
	c.MustKill, c.Root, c.Memory = 2, 7, blocks.MoveAll
	c.Start(nil, 1, nil)
	assert.Equal(t, -1, c.MustKill)
	assert.Equal(t, -1, c.Root)
	assert.Equal(t, blocks.MoveUnset, c.Memory)
	assert.Equal(t, 1, c.Seat)

	for _, c := range []*legacyCluster{newLegacyCluster(variant{plan: legacyClusterPlan}), newVulture().legacyCluster} {
		c.goal, c.root, c.stage, c.lastCard = 2, 7, 3, true
		c.Start(nil, 1, nil)
		assert.Equal(t, -1, c.goal)
		assert.Equal(t, -1, c.root)
		assert.Equal(t, 0, c.stage)
		assert.False(t, c.lastCard)
		assert.Equal(t, 1, c.Seat)
	}
	v := newVulture()
	v.root, v.prey = 7, 3
	v.Start(nil, 0, nil)
	assert.Equal(t, -1, v.root)
	assert.Equal(t, -1, v.prey)
}
