package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
)

// A panel's comparison of each candidate is the validation of that
// candidate against the reference on the same blocks, the reference
// played once per block.
func TestPanelMatchesValidations(t *testing.T) {
	t.Parallel()
	sets := [][]float64{{0.6}, {0.3}, {0.45}}
	ref := []float64{0.45}
	ev := &Bernoulli{Games: 4, Seed: 8, P: identity}
	p, err := NewPanel(PanelConfig{Sets: sets, Ref: ref, Blocks: 30, Chunk: 7, First: 5})
	require.NoError(t, err)
	assert.Equal(t, 5, p.steps())
	first, err := p.next()
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
	assert.Contains(t, p.status(), "2: 30 blocks")

	_, err = NewPanel(PanelConfig{Ref: ref, Blocks: 3, Chunk: 1})
	assert.ErrorContains(t, err, "no candidates")
	_, err = NewPanel(PanelConfig{Sets: sets, Ref: ref, Blocks: 1, Chunk: 1})
	assert.ErrorContains(t, err, "panel candidate 0")
	assert.ErrorContains(t, p.tell(make([]Result, 5)), "want 4 candidates")
}

// A panel's candidates carry their names, values and comparisons, with
// p-values Holm-adjusted over the candidates; the validation of marslab
// run is such a panel, and its config.json lists the candidates, then the
// reference.
func TestPanelCandidates(t *testing.T) {
	t.Parallel()
	a, b, ref := []float64{0.9}, []float64{0.2}, []float64{0.5}
	ev := &Bernoulli{Games: 6, Seed: 3, P: func(x []float64) float64 { return x[0] / 2 }}
	cfg := PanelConfig{Sets: [][]float64{a, b}, Ref: ref, Blocks: 40, Chunk: 7}
	p, err := NewPanel(cfg)
	require.NoError(t, err)
	runMethod(t, p, ev)
	cs, holm, err := p.Candidates([]string{"a", "b"})
	require.NoError(t, err)
	for i, x := range [][]float64{a, b} {
		v, err := NewValidation(ValidateConfig{A: x, B: ref, Blocks: 40, Chunk: 7})
		require.NoError(t, err)
		runMethod(t, v, ev)
		c, err := v.Compare()
		require.NoError(t, err)
		assert.Equal(t, c, cs[i].Comparison)
		assert.Equal(t, x, cs[i].X)
	}
	assert.Equal(t, []string{"a", "b"}, []string{cs[0].Name, cs[1].Name})
	want, err := stats.Holm([]float64{cs[0].Diff.P, cs[1].Diff.P})
	require.NoError(t, err)
	assert.Equal(t, want, holm)
	assert.Greater(t, cs[0].Diff.Mean, 0.0)
	assert.Less(t, cs[1].Diff.Mean, 0.0)
	_, _, err = p.Candidates([]string{"a"})
	assert.ErrorContains(t, err, "1 names for 2 candidates")

	setup := &Setup{Config: &Config{Name: "x"}, Field: &Games{Players: 2, Rules: &sim.Rules{Name: "r"}, Map: &sim.Map{Name: "m"}}}
	fp := string(setup.ValidationSetFingerprint([]string{"a", "b"}, "ref", cfg))
	assert.Contains(t, fp, `"method": "validate-set"`)
	assert.Contains(t, fp, "\"values\": [\n    [\n      0.9\n    ],\n    [\n      0.2\n    ],\n    [\n      0.5\n    ]\n  ],")
}
