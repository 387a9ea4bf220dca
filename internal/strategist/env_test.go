package strategist

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/learn"
)

// TestExperimentEnvErrors: an experiment's [env] table is named in the
// errors found when its environment is resolved, once.
func TestExperimentEnvErrors(t *testing.T) {
	t.Parallel()
	e, err := parseExperiment("e.toml", []byte("seed = 1\nout = \"x\"\n[env]\nopponents = [\"nobot\"]\n[train]\ngames = 10\nbatch = 5\nblock = 5\n[q]\nfeatures = [\"round\"]\nbins = 3\nalpha = 0.1\ngamma = 0.9\nepsilon = 0.1\n[eval]\nseed = 2\ngames = 10\n"))
	require.NoError(t, err)
	_, err = learn.NewRunner(e.Env, registry.Default())
	require.ErrorContains(t, err, "e.toml [env]: key opponents: entry 0: seat \"nobot\"")
	// The experiment names its file once.
	_, err = e.RunWith(context.Background(), registry.Default(), RunOptions{Workers: 1})
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "e.toml [env]: key opponents: entry 0: "), err.Error())
}

// trace plays episode (seed, index) with actions chosen by a function of
// the step and returns every observation and the outcome.
func trace(t *testing.T, r *learn.Runner, seed, index uint64, act func(step int) int) ([][]float64, learn.Outcome) {
	t.Helper()
	var obs [][]float64
	out, err := r.Run(context.Background(), seed, index, func(o []float64) int {
		obs = append(obs, append([]float64(nil), o...))
		return act(len(obs) - 1)
	})
	require.NoError(t, err)
	return append(obs, append([]float64(nil), r.Final()...)), out
}
