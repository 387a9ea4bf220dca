package registry

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry/internal/famgen"
	"github.com/marslab-risk/marslab/sim"
)

func TestFamiliesFileFresh(t *testing.T) {
	t.Parallel()
	want, err := famgen.Generate("../..")
	require.NoError(t, err)
	got, err := os.ReadFile("families.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "families.go is stale: run go generate ./bots/registry")
}

func TestDefaultNames(t *testing.T) {
	t.Parallel()
	r := Default()
	assert.Equal(t, []string{"aggressive", "angry", "bort", "boscoe", "cautious", "cluster", "communist", "constrained", "evilpixie", "mars", "mcts", "mission", "mission-greedy", "pacifist", "passive", "pixie", "quo", "random", "shaft", "stinky", "vulture", "yakool"}, r.Names())
	for _, n := range r.Names() {
		f, ok := r.Lookup(n)
		require.True(t, ok, n)
		assert.Equal(t, n, f.Name)
		assert.NotEmpty(t, f.Doc, n)
	}
	_, ok := r.Lookup("lux")
	assert.False(t, ok)
	// Registering in one registry leaves another untouched.
	r2 := Default()
	require.NoError(t, r2.Register(bots.Factory{Name: "tuned", Doc: "test bot",
		New: func(bots.Values) (sim.Player, error) { return &sim.BasePlayer{}, nil }}))
	_, ok = r2.Lookup("tuned")
	assert.True(t, ok)
	_, ok = r.Lookup("tuned")
	assert.False(t, ok, "tuned leaked into another registry")
	// Names returns a copy.
	r.Names()[0] = "zzz"
	assert.Equal(t, "aggressive", r.Names()[0])
	assert.Empty(t, bots.NewRegistry().Names())
}
