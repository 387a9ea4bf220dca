package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/marslab-risk/marslab/bots/blocks"
)

// TestClusterStartResets: Start clears all of a game's state, so a bot
// reused for the next game (as arena's workers reuse them) plays it as a
// fresh one would: Vulture's stored routes, which outlive a turn as
// Java's attackRoutes do, are dropped with the rest.
func TestClusterStartResets(t *testing.T) {
	t.Parallel()
	c := newLuxCluster()
	c.MustKill, c.Root, c.Memory = 2, 7, blocks.MoveAll
	c.Start(nil, 1, nil)
	assert.Equal(t, -1, c.MustKill)
	assert.Equal(t, -1, c.Root)
	assert.Equal(t, blocks.MoveUnset, c.Memory)
	assert.Equal(t, 1, c.Seat)

	v := newVulture()
	v.hunt.size(4)
	v.hunt.routes, v.hunt.ends = append(v.hunt.routes, 0, 1), append(v.hunt.ends, 2)
	v.placedToKill, v.hunting, v.round, v.routesDone = true, true, 5, true
	v.backer.Root, v.backer.MustKill, v.Memory = 7, 2, blocks.MoveAll
	v.Start(nil, 0, nil)
	assert.False(t, v.hunt.hunting(), "no route left from the last game")
	assert.False(t, v.placedToKill)
	assert.False(t, v.hunting)
	assert.Equal(t, -1, v.round)
	assert.False(t, v.routesDone)
	assert.Equal(t, -1, v.backer.Root)
	assert.Equal(t, -1, v.backer.MustKill)
	assert.Equal(t, blocks.MoveUnset, v.Memory)
	assert.Equal(t, 0, v.backer.Seat)
}
