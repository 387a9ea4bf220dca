package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// R's sleep data: extra sleep of 10 patients under two drugs.
var (
	sleep1 = []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	sleep2 = []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
)

func TestPairedT(t *testing.T) {
	t.Parallel()
	// R: t.test(sleep1, sleep2, paired = TRUE): t = -4.0621, df = 9,
	// p-value = 0.002833, 95 % CI -2.4598858 -0.7001142, mean -1.58.
	r, err := PairedT(sleep1, sleep2, 0.95)
	require.NoError(t, err)
	assert.Equal(t, 10, r.N)
	assert.Equal(t, 9, r.DF)
	assert.InDelta(t, -1.58, r.Mean, 1e-12)
	assert.InDelta(t, -4.062128, r.Stat, 1e-6)
	assert.InDelta(t, 0.002832890, r.P, 1e-8)
	assert.InDelta(t, -2.4598858, r.Interval.Lo, 1e-7)
	assert.InDelta(t, -0.7001142, r.Interval.Hi, 1e-7)
	assert.InDelta(t, r.SD/math.Sqrt(10), r.SE, 1e-15)

	// Swapping the candidates negates everything but P.
	s, err := PairedT(sleep2, sleep1, 0.95)
	require.NoError(t, err)
	assert.InDelta(t, -r.Stat, s.Stat, 1e-12)
	assert.InDelta(t, r.P, s.P, 1e-15)
	assert.InDelta(t, -r.Interval.Hi, s.Interval.Lo, 1e-12)
}

func TestPairedNormal(t *testing.T) {
	t.Parallel()
	r, err := PairedNormal(sleep1, sleep2, 0.95)
	require.NoError(t, err)
	assert.Equal(t, 0, r.DF)
	assert.InDelta(t, -4.062128, r.Stat, 1e-6)
	// 2·(1 - Φ(4.062128)) and -1.58 ± 1.96·SE.
	assert.InDelta(t, 4.862e-5, r.P, 1e-8)
	assert.InDelta(t, -1.58-1.959963984540054*r.SE, r.Interval.Lo, 1e-12)
	assert.InDelta(t, -1.58+1.959963984540054*r.SE, r.Interval.Hi, 1e-12)
}

func TestPairedDegenerate(t *testing.T) {
	t.Parallel()
	// Equal differences: no spread.
	r, err := PairedT([]float64{3, 4, 5}, []float64{1, 2, 3}, 0.95)
	require.NoError(t, err)
	assert.Equal(t, Paired{N: 3, Mean: 2, DF: 2, Stat: math.Inf(1), P: 0, Interval: Interval{2, 2}}, r)
	r, err = PairedNormal([]float64{1, 2}, []float64{1, 2}, 0.95)
	require.NoError(t, err)
	assert.Equal(t, Paired{N: 2, P: 1}, r)

	for _, tc := range []struct {
		x, y  []float64
		level float64
		want  string
	}{
		{[]float64{1, 2}, []float64{1}, 0.95, "2 x values and 1 y values, want pairs"},
		{[]float64{1}, []float64{1}, 0.95, "1 pairs, need at least 2"},
		{[]float64{1, 2}, []float64{1, 2}, 0, "confidence level 0 outside (0, 1)"},
		{[]float64{1, math.NaN()}, []float64{1, 2}, 0.95, "pair 1: x = NaN, y = 2: difference is not finite"},
	} {
		_, err := PairedT(tc.x, tc.y, tc.level)
		assert.EqualError(t, err, "stats: PairedT: "+tc.want)
		_, err = PairedNormal(tc.x, tc.y, tc.level)
		assert.EqualError(t, err, "stats: PairedNormal: "+tc.want)
	}
}

func TestPairedTCoverage(t *testing.T) {
	t.Parallel()
	// Differences with mean 0.3 and sd 1 on correlated pairs: the 90 %
	// t interval covers 0.3 in about 90 % of 2000 samples of 8 pairs
	// (binomial sd 0.0067), and the test rejects at 5 % in about 5 % of
	// samples when the true difference is 0.
	rng := rand.New(rand.NewPCG(1, 2))
	covered, rejected := 0, 0
	const reps = 2000
	x, y, y0 := make([]float64, 8), make([]float64, 8), make([]float64, 8)
	for range reps {
		for i := range x {
			common := rng.NormFloat64() * 3
			x[i] = common + 0.3 + rng.NormFloat64()/math.Sqrt2
			y[i] = common + rng.NormFloat64()/math.Sqrt2
			y0[i] = x[i] - rng.NormFloat64()
		}
		r, err := PairedT(x, y, 0.9)
		require.NoError(t, err)
		if r.Interval.Contains(0.3) {
			covered++
		}
		r0, err := PairedT(x, y0, 0.9)
		require.NoError(t, err)
		if r0.P < 0.05 {
			rejected++
		}
	}
	assert.InDelta(t, 0.9, float64(covered)/reps, 0.025)
	assert.InDelta(t, 0.05, float64(rejected)/reps, 0.015)
}

func TestCountPairs(t *testing.T) {
	t.Parallel()
	c, err := CountPairs([]bool{true, true, false, false, true}, []bool{true, false, true, false, false})
	require.NoError(t, err)
	assert.Equal(t, PairCounts{Both: 1, OnlyX: 2, OnlyY: 1, Neither: 1}, c)
	assert.Equal(t, 5, c.n())
	_, err = CountPairs([]bool{true}, nil)
	assert.EqualError(t, err, "stats: CountPairs: 1 x values and 0 y values, want pairs")
}

func TestPairedProportions(t *testing.T) {
	t.Parallel()
	// Newcombe's method 10 worked by hand from its formula (Wilson bounds
	// of 21/44 and 14/44, φ = (12·21 - 9·2)/√(21·23·14·30)).
	r, err := PairedProportions(PairCounts{Both: 12, OnlyX: 9, OnlyY: 2, Neither: 21}, 0.95)
	require.NoError(t, err)
	assert.Equal(t, 44, r.N)
	assert.InDelta(t, 21.0/44, r.PX, 1e-15)
	assert.InDelta(t, 14.0/44, r.PY, 1e-15)
	assert.InDelta(t, 7.0/44, r.Diff, 1e-15)
	assert.InDelta(t, 0.018210226243591948, r.Interval.Lo, 1e-12)
	assert.InDelta(t, 0.28915665958827236, r.Interval.Hi, 1e-12)
	// Exact McNemar: 2·P(X <= 2 | 11, 1/2) = 2·(1+11+55)/2048.
	assert.InDelta(t, 134.0/2048, r.P, 1e-12)

	r, err = PairedProportions(PairCounts{Both: 40, OnlyX: 30, OnlyY: 10, Neither: 20}, 0.95)
	require.NoError(t, err)
	assert.InDelta(t, 0.07994824267521897, r.Interval.Lo, 1e-12)
	assert.InDelta(t, 0.31142637043994803, r.Interval.Hi, 1e-12)

	// Swapping X and Y mirrors the interval.
	s, err := PairedProportions(PairCounts{Both: 40, OnlyX: 10, OnlyY: 30, Neither: 20}, 0.95)
	require.NoError(t, err)
	assert.InDelta(t, -r.Interval.Hi, s.Interval.Lo, 1e-12)
	assert.InDelta(t, -r.Interval.Lo, s.Interval.Hi, 1e-12)
	assert.InDelta(t, r.P, s.P, 1e-15)

	// No discordant pairs: no evidence of a difference.
	r, err = PairedProportions(PairCounts{Both: 5, Neither: 5}, 0.95)
	require.NoError(t, err)
	assert.Equal(t, 1.0, r.P)
	assert.True(t, r.Interval.Contains(0))
	// All X, no Y: the interval stays inside [-1, 1].
	r, err = PairedProportions(PairCounts{OnlyX: 20}, 0.95)
	require.NoError(t, err)
	assert.Equal(t, 1.0, r.Diff)
	assert.Equal(t, 1.0, r.Interval.Hi)
	assert.Greater(t, r.Interval.Lo, 0.5)

	_, err = PairedProportions(PairCounts{}, 0.95)
	assert.EqualError(t, err, "stats: PairedProportions: no pairs")
	_, err = PairedProportions(PairCounts{OnlyY: -1, Both: 3}, 0.95)
	assert.EqualError(t, err, "stats: PairedProportions: OnlyY = -1 is negative")
	_, err = PairedProportions(PairCounts{Both: 3}, 2)
	assert.EqualError(t, err, "stats: PairedProportions: confidence level 2 outside (0, 1)")
}

func TestPairedProportionsCoverage(t *testing.T) {
	t.Parallel()
	// Two correlated candidates on 60 seeds: X wins with 0.55, Y with
	// 0.45. Newcombe's interval covers the difference 0.10 in about 95 %
	// of 2000 samples (Newcombe reports coverage near nominal).
	rng := rand.New(rand.NewPCG(3, 4))
	const reps, n = 2000, 60
	covered := 0
	x, y := make([]bool, n), make([]bool, n)
	for range reps {
		for i := range x {
			u := rng.Float64()
			// P(both) 0.35, P(only X) 0.20, P(only Y) 0.10, P(neither) 0.35.
			x[i], y[i] = u < 0.55, u < 0.35 || (u >= 0.55 && u < 0.65)
		}
		c, err := CountPairs(x, y)
		require.NoError(t, err)
		r, err := PairedProportions(c, 0.95)
		require.NoError(t, err)
		if r.Interval.Contains(0.10) {
			covered++
		}
	}
	assert.InDelta(t, 0.95, float64(covered)/reps, 0.02)
}
