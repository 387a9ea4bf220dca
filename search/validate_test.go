package search

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// identity is the win probability of a one-parameter candidate: its value.
func identity(x []float64) float64 { return x[0] }

// The validation's 95 % interval of the difference in win rate covers the
// true difference in about 95 % of 400 seeds (binomial 95 % band of the
// count: 372..388 of 400, widened to 366..392 for the t approximation).
func TestValidationCoverage(t *testing.T) {
	t.Parallel()
	const seeds = 400
	pa, pb := 0.45, 0.40
	covered := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		v, err := NewValidation(ValidateConfig{A: []float64{pa}, B: []float64{pb}, Blocks: 50, Chunk: 25})
		require.NoError(t, err)
		runMethod(t, v, &Bernoulli{Games: 4, Seed: seed, P: identity})
		c, err := v.Compare()
		require.NoError(t, err)
		require.Equal(t, 50, c.Blocks)
		require.Equal(t, 200, c.Games)
		if c.Diff.Interval.Contains(pa - pb) {
			covered++
		}
	}
	assert.GreaterOrEqual(t, covered, 366)
	assert.LessOrEqual(t, covered, 392)
	t.Logf("coverage %d/%d", covered, seeds)
}

// The SPRT stops early on a large difference, deciding for A, and on no
// difference decides against it (at the stated error rates: over 100
// seeds each, at most a few wrong).
func TestValidationSPRT(t *testing.T) {
	t.Parallel()
	sprt := &SPRT{P1: 0.7, Alpha: 0.05, Beta: 0.1}
	wrong, early := 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		v, err := NewValidation(ValidateConfig{A: []float64{0.6}, B: []float64{0.3}, Blocks: 400, Chunk: 5, SPRT: sprt})
		require.NoError(t, err)
		runMethod(t, v, &Bernoulli{Games: 4, Seed: seed, P: identity})
		c, err := v.Compare()
		require.NoError(t, err)
		if !(c.Diff.Interval.Lo > 0 || c.Decision == "A better (H1 accepted)") {
			wrong++
		}
		if c.Blocks < 400 {
			early++
		}
	}
	assert.LessOrEqual(t, wrong, 3, "missed a true difference")
	assert.Equal(t, 100, early, "every run stopped before the last block")

	wrong = 0
	for seed := uint64(1); seed <= 100; seed++ {
		v, err := NewValidation(ValidateConfig{A: []float64{0.4}, B: []float64{0.4}, Blocks: 400, Chunk: 5, SPRT: sprt})
		require.NoError(t, err)
		runMethod(t, v, &Bernoulli{Games: 4, Seed: seed + 1000, P: identity})
		c, err := v.Compare()
		require.NoError(t, err)
		if c.Decision == "A better (H1 accepted)" {
			wrong++
		}
	}
	assert.LessOrEqual(t, wrong, 12, "false decisions for A (alpha 0.05 of 100)")
}

func TestValidationBlocksAreFresh(t *testing.T) {
	t.Parallel()
	v, err := NewValidation(ValidateConfig{A: []float64{0.5}, B: []float64{0.4}, Blocks: 3, Chunk: 2})
	require.NoError(t, err)
	assert.Equal(t, 2, v.steps())
	ev, err := v.next()
	require.NoError(t, err)
	require.Len(t, ev, 4)
	assert.Equal(t, Eval{Cand: 0, X: []float64{0.5}, Block: validationBlock0}, ev[0])
	assert.Equal(t, Eval{Cand: 1, X: []float64{0.4}, Block: validationBlock0 + 1}, ev[3])
	assert.Greater(t, validationBlock0, math.MaxInt32/4)
}
