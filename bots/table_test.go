package bots_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func TestNewTable(t *testing.T) {
	t.Parallel()
	tab, err := registry.Default().NewTable("aggressive,random(stop=0.5),passive", "classic")
	require.NoError(t, err)
	require.Len(t, tab.Players, 3)
	assert.Equal(t, "random(stop=0.5)", tab.Seats[1].Label)
	a, err := tab.Play(3, 1)
	require.NoError(t, err)
	b, err := tab.Play(3, 1)
	require.NoError(t, err)
	assert.Equal(t, a, b, "the same game again")
	assert.Equal(t, []int{0, 0, 0}, a.Faults)

	_, err = registry.Default().NewTable("aggressive,nobody", "classic")
	assert.ErrorContains(t, err, `unknown bot "nobody"`)
	_, err = registry.Default().NewTable("aggressive,random", "atlantis")
	assert.ErrorContains(t, err, `atlantis`)
	_, err = registry.Default().NewTable("aggressive", "classic")
	assert.Error(t, err, "one seat")
}
