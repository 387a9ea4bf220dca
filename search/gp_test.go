package search

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process fitted to noisy samples of a smooth function of two variables
// predicts it within 0.05 at fresh points, and its 95 % band covers the
// truth at most of them.
func TestGPFitPredicts(t *testing.T) {
	f := func(p []float64) float64 { return 0.4 - 0.3*((p[0]-0.3)*(p[0]-0.3)+(p[1]-0.7)*(p[1]-0.7)) }
	rng := rand.New(rand.NewPCG(1, 2))
	var x [][]float64
	var y, noise []float64
	for range 60 {
		p := []float64{rng.Float64(), rng.Float64()}
		x = append(x, p)
		y = append(y, f(p)+0.01*rng.NormFloat64())
		noise = append(noise, 0.0001)
	}
	g, err := gpFit(x, y, noise)
	require.NoError(t, err)
	covered := 0
	for range 50 {
		p := []float64{rng.Float64(), rng.Float64()}
		mu, v := g.predict(p)
		assert.InDelta(t, f(p), mu, 0.05)
		if math.Abs(mu-f(p)) < 1.96*math.Sqrt(v+1e-4) {
			covered++
		}
	}
	assert.GreaterOrEqual(t, covered, 40)
}

func TestGPExpectedImprovement(t *testing.T) {
	assert.InDelta(t, 0.3989422804, expectedImprovement(0, 1, 0), 1e-9)
	assert.Equal(t, 0.2, expectedImprovement(0.5, 0, 0.3))
	assert.Equal(t, 0.0, expectedImprovement(0.1, 0, 0.3))
	assert.Greater(t, expectedImprovement(0, 2, 0), expectedImprovement(0, 1, 0))
}

func TestGPFitErrors(t *testing.T) {
	_, err := gpFit([][]float64{{0}}, []float64{1}, []float64{1})
	assert.Error(t, err)
	_, err = gpFit([][]float64{{0}, {1}}, []float64{1, math.NaN()}, []float64{1, 1})
	assert.Error(t, err)
	_, err = gpFit([][]float64{{0}, {1}}, []float64{1, 2}, []float64{1, 0})
	assert.Error(t, err)
}
