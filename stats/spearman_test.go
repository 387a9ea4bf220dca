package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRanks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want []float64 }{
		{[]float64{3, 1, 2}, []float64{3, 1, 2}},
		{[]float64{10, 20, 20, 5}, []float64{2, 3.5, 3.5, 1}},
		{[]float64{7, 7, 7}, []float64{2, 2, 2}},
		{nil, []float64{}},
	} {
		assert.Equal(t, tc.want, ranks(tc.in), "Ranks(%v)", tc.in)
	}
}

func TestSpearmanRho(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 4, 6, 8, 100}, 1},
		{[]float64{1, 2, 3, 4, 5}, []float64{5, 4, 3, 2, 1}, -1},
		// d = (0, 0, -1, 1, 0): 1 - 6·2/(5·24) = 0.9.
		{[]float64{1, 2, 3, 4, 5}, []float64{1, 2, 4, 3, 5}, 0.9},
		// Ties: ranks (1.5, 1.5, 3) against (1, 2, 3): Pearson of the ranks.
		{[]float64{1, 1, 2}, []float64{1, 2, 3}, math.Sqrt(3) / 2},
	} {
		got, err := spearmanRho(tc.x, tc.y)
		require.NoError(t, err)
		assert.InDelta(t, tc.want, got, 1e-12, "SpearmanRho(%v, %v)", tc.x, tc.y)
	}
}

func TestSpearmanErrors(t *testing.T) {
	t.Parallel()
	_, err := spearmanRho([]float64{1, 2}, []float64{1})
	assert.EqualError(t, err, "stats: Spearman: 2 x values and 1 y values, want equal lengths")
	_, err = spearmanRho([]float64{1}, []float64{1})
	assert.EqualError(t, err, "stats: Spearman: 1 pairs, want at least 2")
	_, err = spearmanRho([]float64{1, math.NaN()}, []float64{1, 2})
	assert.EqualError(t, err, "stats: Spearman: pair 1 holds NaN")
	_, err = spearmanRho([]float64{1, 1, 1}, []float64{1, 2, 3})
	assert.EqualError(t, err, "stats: Spearman: a constant sample has no rank correlation")
	_, err = SpearmanTest(make10(), make10(), 0, 1)
	assert.EqualError(t, err, "stats: Spearman: perms = 0 outside [1, ∞) for n = 10 > 9")
}

func make10() []float64 { return []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} }

func TestSpearmanTestExact(t *testing.T) {
	t.Parallel()
	// n = 4, perfect order: of the 24 permutations only the identity and
	// its reverse reach |rho| = 1, so p = 2/24.
	s, err := SpearmanTest([]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 0, 0)
	require.NoError(t, err)
	assert.True(t, s.Exact)
	assert.Equal(t, 24, s.Permutations)
	assert.InDelta(t, 1, s.Rho, 1e-12)
	assert.InDelta(t, 2.0/24, s.P, 1e-12)
	// n = 5, rho = 0.9: |rho| >= 0.9 is reached by sum d² <= 2 or >= 38:
	// the identity and the 4 adjacent swaps, and their 5 reverses: 10/120.
	s, err = SpearmanTest([]float64{1, 2, 3, 4, 5}, []float64{1, 2, 4, 3, 5}, 0, 0)
	require.NoError(t, err)
	assert.InDelta(t, 10.0/120, s.P, 1e-12)
}

func TestSpearmanTestMonteCarlo(t *testing.T) {
	t.Parallel()
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	y := []float64{2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 13}
	s, err := SpearmanTest(x, y, 20000, 7)
	require.NoError(t, err)
	assert.False(t, s.Exact)
	assert.Equal(t, 20000, s.Permutations)
	// Strong correlation: no random permutation of 13 ranks reaches it in
	// practice, so p is the floor 1/(m+1).
	assert.InDelta(t, 1.0/20001, s.P, 1e-12)
	again, err := SpearmanTest(x, y, 20000, 7)
	require.NoError(t, err)
	assert.Equal(t, s, again, "same seed, same p")
	// No correlation: p near 1 (alternating pattern, rho close to 0).
	z := []float64{7, 1, 13, 2, 12, 3, 11, 4, 10, 5, 9, 6, 8}
	s, err = SpearmanTest(x, z, 20000, 7)
	require.NoError(t, err)
	assert.Less(t, math.Abs(s.Rho), 0.3)
	assert.Greater(t, s.P, 0.3)
}

func BenchmarkSpearmanTest(b *testing.B) {
	x := make10()
	y := []float64{2, 1, 4, 3, 6, 5, 8, 7, 10, 9}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SpearmanTest(x, y, 1000, 1); err != nil {
			b.Fatal(err)
		}
	}
}
