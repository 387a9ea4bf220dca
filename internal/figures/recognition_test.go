package figures

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/recognition"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
)

// The recognition figures: PHATT's accuracy per arm with the random
// guess, its winners and losers, and one chart per arm of the recognisers
// that ran, each as PNG and SVG; the curves are in % at every 5 % of the
// game.
func TestRecognition(t *testing.T) {
	t.Parallel()
	sum := &recognition.Summary{Arms: []string{"w4", "constrained"}, Recognisers: []string{"phatt", "data"}, Ran: []bool{true, false}, Chance: 0.25,
		Curve: make([][][3][20]recognition.Tally, 2)}
	for r := range sum.Curve {
		sum.Curve[r] = make([][3][20]recognition.Tally, 2)
	}
	sum.Curve[0][1][recognition.All][19] = recognition.Tally{Correct: 6, N: 12, Acc: 0.5, CI: stats.Interval{Lo: 0.25, Hi: 0.75}}
	figs := Recognition(sum)
	require.Len(t, figs, 4)
	assert.Equal(t, "recognisers-constrained", figs[3].Name)
	acc := figs[0].Chart.(*plots.LineChart)
	require.Len(t, acc.Series, 3, "an arm each and the random guess")
	assert.Equal(t, []float64{5, 100}, []float64{acc.Series[1].X[0], acc.Series[1].X[19]})
	assert.Equal(t, []float64{50, 25, 75}, []float64{acc.Series[1].Y[19], acc.Series[1].Lo[19], acc.Series[1].Hi[19]})
	assert.Equal(t, []float64{25, 25}, acc.Series[2].Y, "the random guess")
	assert.Len(t, figs[1].Chart.(*plots.LineChart).Series, 4, "winners and losers of each arm")
	assert.Len(t, figs[2].Chart.(*plots.LineChart).Series, 2, "the recogniser that ran and the random guess")

	dir := t.TempDir()
	names, err := WriteRecognition(dir, sum)
	require.NoError(t, err)
	assert.Equal(t, []string{"accuracy.png", "accuracy.svg", "winners-losers.png", "winners-losers.svg",
		"recognisers-w4.png", "recognisers-w4.svg", "recognisers-constrained.png", "recognisers-constrained.svg"}, names)
	for _, f := range names {
		assert.FileExists(t, filepath.Join(dir, f))
	}
}
