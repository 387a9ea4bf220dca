package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChiSquareP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stat float64
		df   int
		want float64
	}{
		// The 95 % point of χ²₁ is z²_{0.975}.
		{1.959963984540054 * 1.959963984540054, 1, 0.05},
		// χ²₂ survival is e^(-x/2); χ²₄ is e^(-x/2)(1 + x/2).
		{2, 2, math.Exp(-1)},
		{10, 2, math.Exp(-5)},
		{6, 4, math.Exp(-3) * 4},
		{0, 3, 1},
		{math.Inf(1), 3, 0},
	} {
		p, err := chiSquareP(tc.stat, tc.df)
		require.NoError(t, err)
		assert.InDelta(t, tc.want, p, 1e-12, "ChiSquareP(%v, %d)", tc.stat, tc.df)
	}
	_, err := chiSquareP(1, 0)
	assert.EqualError(t, err, "stats: ChiSquareP: df = 0, need at least 1")
	_, err = chiSquareP(-1, 2)
	assert.EqualError(t, err, "stats: ChiSquareP: statistic -1 outside [0, +Inf]")
}

func TestChiSquareGOF(t *testing.T) {
	t.Parallel()
	// (10-20)²/20 + 0 + (30-20)²/20 = 10 on 2 df: P = e^-5.
	r, err := ChiSquareGOF([]int{10, 20, 30}, []float64{20, 20, 20})
	require.NoError(t, err)
	assert.Equal(t, 2, r.DF)
	assert.InDelta(t, 10, r.Stat, 1e-12)
	assert.InDelta(t, math.Exp(-5), r.P, 1e-15)

	// A die: 60 rolls, (5-10)² + (15-10)² = 50 over 10 = 5 on 5 df.
	r, err = ChiSquareGOF([]int{5, 10, 10, 10, 10, 15}, []float64{10, 10, 10, 10, 10, 10})
	require.NoError(t, err)
	assert.Equal(t, ChiSquare{Stat: 5, DF: 5, P: r.P}, r)
	assert.InDelta(t, 0.41588018699550816, r.P, 1e-12)

	// A perfect fit and an impossible category.
	r, err = ChiSquareGOF([]int{3, 0, 7}, []float64{3, 0, 7})
	require.NoError(t, err)
	assert.Equal(t, ChiSquare{Stat: 0, DF: 2, P: 1}, r)
	r, err = ChiSquareGOF([]int{3, 1, 6}, []float64{3, 0, 7})
	require.NoError(t, err)
	assert.Equal(t, ChiSquare{Stat: math.Inf(1), DF: 2, P: 0}, r)

	for _, tc := range []struct {
		obs  []int
		exp  []float64
		want string
	}{
		{[]int{1, 2}, []float64{3}, "2 observed and 1 expected counts"},
		{[]int{4}, []float64{4}, "1 categories, need at least 2"},
		{[]int{-1, 5}, []float64{2, 2}, "observed[0] = -1 is negative"},
		{[]int{1, 3}, []float64{math.NaN(), 4}, "expected[0] = NaN outside [0, +Inf)"},
		{[]int{1, 3}, []float64{5, -1}, "expected[1] = -1 outside [0, +Inf)"},
		{[]int{1, 3}, []float64{2, 3}, "expected counts sum to 5, observed to 4"},
	} {
		_, err := ChiSquareGOF(tc.obs, tc.exp)
		assert.EqualError(t, err, "stats: ChiSquareGOF: "+tc.want)
	}
}
