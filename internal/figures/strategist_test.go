package figures

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/strategist"
)

// The strategist's figures: the curve's win rate in % with its Wilson
// interval and the mean return with its normal interval per block, the
// evaluation's win rates; counts stats.Wilson refuses and evaluations
// with fewer returns than games are errors naming them.
func TestStrategist(t *testing.T) {
	t.Parallel()
	r := &strategist.Result{Curve: []strategist.BlockStats{{First: 0, Games: 100, Wins: 20, MeanReturn: -1, SDReturn: 2}, {First: 100, Games: 100, Wins: 45, MeanReturn: 1, SDReturn: 2}},
		Evaluations: []strategist.Evaluation{{Name: "learned", Won: []bool{true, false, true, true}, Return: []float64{1, -1, 1, 1}}}}
	win, ret, err := StrategistCurve(r)
	require.NoError(t, err)
	require.Len(t, win.Series, 1)
	assert.Equal(t, []float64{100, 200}, win.Series[0].X)
	assert.Equal(t, []float64{20, 45}, win.Series[0].Y)
	assert.InDelta(t, 13.3, win.Series[0].Lo[0], 0.05)
	assert.Equal(t, []float64{-1, 1}, ret.Series[0].Y)
	assert.InDelta(t, -1-1.959964*2/10, ret.Series[0].Lo[0], 1e-6)
	bar, err := StrategistEval(r)
	require.NoError(t, err)
	assert.Equal(t, []string{"learned"}, bar.Categories)
	assert.Equal(t, []float64{75}, bar.Values)

	dir := t.TempDir()
	require.NoError(t, WriteStrategist(dir, r))
	for _, f := range []string{"curve-win.png", "curve-return.png", "eval-win.png"} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
		assert.Positive(t, st.Size())
	}
	loaded := *r
	loaded.PolicySource = "policy.json"
	dir = t.TempDir()
	require.NoError(t, WriteStrategist(dir, &loaded))
	assert.NoFileExists(t, filepath.Join(dir, "curve-win.png"), "a loaded policy has no training curve")
	assert.FileExists(t, filepath.Join(dir, "eval-win.png"))

	bad := &strategist.Result{Curve: []strategist.BlockStats{{First: 0, Games: 100, Wins: 20}, {First: 100, Games: 100, Wins: 101}}}
	_, _, err = StrategistCurve(bad)
	assert.EqualError(t, err, "training block from game 100: stats: Wilson: successes k = 101 outside [0, n = 100]")
	assert.Error(t, WriteStrategistCurve(t.TempDir(), bad))
	short := &strategist.Result{Evaluations: []strategist.Evaluation{{Name: "learned", Won: []bool{true, false}, Return: []float64{1}}}}
	_, err = StrategistEval(short)
	assert.EqualError(t, err, `evaluation "learned": 1 returns for 2 games`)
}
