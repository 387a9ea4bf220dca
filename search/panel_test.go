package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A panel's comparison of each candidate is the validation of that
// candidate against the reference on the same blocks, the reference
// played once per block.
func TestPanelMatchesValidations(t *testing.T) {
	sets := [][]float64{{0.6}, {0.3}, {0.45}}
	ref := []float64{0.45}
	ev := &Bernoulli{Games: 4, Seed: 8, P: identity}
	p, err := NewPanel(PanelConfig{Sets: sets, Ref: ref, Blocks: 30, Chunk: 7, First: 5})
	require.NoError(t, err)
	assert.Equal(t, 5, p.Steps())
	first, err := p.Next()
	require.NoError(t, err)
	assert.Len(t, first, 4*7, "three candidates and the reference on 7 blocks")
	assert.Equal(t, Eval{Cand: 3, X: ref, Block: validationBlock0 + 5}, first[3*7])
	p, _ = NewPanel(PanelConfig{Sets: sets, Ref: ref, Blocks: 30, Chunk: 7, First: 5})
	runMethod(t, p, ev)
	for i, x := range sets {
		v, err := NewValidation(ValidateConfig{A: x, B: ref, Blocks: 30, Chunk: 30, First: 5})
		require.NoError(t, err)
		runMethod(t, v, ev)
		want, err := v.Compare()
		require.NoError(t, err)
		got, err := p.Compare(i)
		require.NoError(t, err)
		assert.Equal(t, want, got, "candidate %d", i)
	}
	a, _ := p.Compare(0)
	b, _ := p.Compare(1)
	assert.Greater(t, a.Diff.Mean, 0.05)
	assert.Less(t, b.Diff.Mean, -0.05)
	assert.Contains(t, p.Status(), "2: 30 blocks")

	_, err = NewPanel(PanelConfig{Ref: ref, Blocks: 3, Chunk: 1})
	assert.ErrorContains(t, err, "no candidates")
	_, err = NewPanel(PanelConfig{Sets: sets, Ref: ref, Blocks: 1, Chunk: 1})
	assert.ErrorContains(t, err, "panel candidate 0")
	assert.ErrorContains(t, p.Tell(make([]Result, 5)), "want 4 candidates")
}
