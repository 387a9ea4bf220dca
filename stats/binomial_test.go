package stats

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestNormalQuantile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ level, z float64 }{
		{0.95, 1.959963984540054},
		{0.90, 1.6448536269514722},
		{0.99, 2.5758293035489004},
		{0.5, 0.6744897501960817},
	} {
		z, err := NormalQuantile(tc.level)
		require.NoError(t, err)
		assert.InDelta(t, tc.z, z, 1e-14, "level %v", tc.level)
		// The quantile's two tails hold 1 - level.
		assert.InDelta(t, 1-tc.level, 2*distuv.UnitNormal.Survival(z), 1e-14)
	}
	for _, level := range []float64{0, 1, -0.5, 95, math.NaN()} {
		_, err := NormalQuantile(level)
		assert.ErrorContains(t, err, "outside (0, 1)", "level %v", level)
	}
}

func TestWilson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k, n   int
		level  float64
		lo, hi float64
	}{
		// z²/(n+z²) at k = 0.
		{0, 10, 0.95, 0, 0.2775327998628892},
		{10, 10, 0.95, 1 - 0.2775327998628892, 1},
		{5, 10, 0.95, 0.236593090512564, 0.7634069094874361},
		{682, 925, 0.95, 0.7079959876196206, 0.764635800971489},
		{0, 0, 0.95, 0, 1},
	} {
		iv, err := Wilson(tc.k, tc.n, tc.level)
		require.NoError(t, err)
		assert.InDelta(t, tc.lo, iv.Lo, 1e-12, "Wilson(%d, %d) lo", tc.k, tc.n)
		assert.InDelta(t, tc.hi, iv.Hi, 1e-12, "Wilson(%d, %d) hi", tc.k, tc.n)
	}
	// A bound p of the interval solves |k/n - p| = z·√(p(1-p)/n).
	iv, err := Wilson(37, 120, 0.9)
	require.NoError(t, err)
	z, _ := NormalQuantile(0.9)
	for _, p := range []float64{iv.Lo, iv.Hi} {
		assert.InDelta(t, z*math.Sqrt(p*(1-p)/120), math.Abs(37.0/120-p), 1e-12)
	}
}

func TestIntervalErrors(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		name string
		fn   func(k, n int, level float64) (Interval, error)
	}{{"Wilson", Wilson}, {"ClopperPearson", ClopperPearson}} {
		for _, tc := range []struct {
			k, n  int
			level float64
			want  string
		}{
			{-1, 10, 0.95, "successes k = -1 outside [0, n = 10]"},
			{11, 10, 0.95, "successes k = 11 outside [0, n = 10]"},
			{0, -1, 0.95, "trials n = -1 is negative"},
			{3, 10, 1, "confidence level 1 outside (0, 1)"},
		} {
			_, err := f.fn(tc.k, tc.n, tc.level)
			assert.EqualError(t, err, "stats: "+f.name+": "+tc.want)
		}
	}
}

func TestClopperPearson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
		tol    float64
	}{
		// R: binom.test(5, 10)$conf.int
		{5, 10, 0.1870860, 0.8129140, 1e-7},
		// k = 0 and k = n: 1 - (α/2)^(1/n) and (α/2)^(1/n).
		{0, 10, 0, 1 - math.Pow(0.025, 0.1), 1e-12},
		{10, 10, math.Pow(0.025, 0.1), 1, 1e-12},
		// R: binom.test(c(682, 243), p = 3/4)$conf.int
		{682, 925, 0.7076683, 0.7654066, 1e-7},
		{0, 0, 0, 1, 0},
	} {
		iv, err := ClopperPearson(tc.k, tc.n, 0.95)
		require.NoError(t, err)
		assert.InDelta(t, tc.lo, iv.Lo, tc.tol, "ClopperPearson(%d, %d) lo", tc.k, tc.n)
		assert.InDelta(t, tc.hi, iv.Hi, tc.tol, "ClopperPearson(%d, %d) hi", tc.k, tc.n)
	}
	// The bounds are where each tail holds α/2.
	iv, err := ClopperPearson(13, 40, 0.9)
	require.NoError(t, err)
	assert.InDelta(t, 0.05, 1-distuv.Binomial{N: 40, P: iv.Lo}.CDF(12), 1e-10)
	assert.InDelta(t, 0.05, distuv.Binomial{N: 40, P: iv.Hi}.CDF(13), 1e-10)
}

// coverage is the exact probability that the interval of k ~ Binomial(n, p)
// contains p.
func coverage(t *testing.T, f func(k, n int, level float64) (Interval, error), n int, p, level float64) float64 {
	b := distuv.Binomial{N: float64(n), P: p}
	c := 0.0
	for k := 0; k <= n; k++ {
		iv, err := f(k, n, level)
		require.NoError(t, err)
		if iv.Contains(p) {
			c += b.Prob(float64(k))
		}
	}
	return c
}

func TestIntervalCoverage(t *testing.T) {
	t.Parallel()
	// Clopper-Pearson covers at least the level for every p; Wilson's
	// coverage oscillates about it and averages close to it.
	for _, n := range []int{10, 50, 200} {
		sum, cells := 0.0, 0
		for p := 0.05; p < 0.96; p += 0.01 {
			cp := coverage(t, ClopperPearson, n, p, 0.95)
			assert.GreaterOrEqual(t, cp, 0.95-1e-9, "Clopper-Pearson n %d p %.2f", n, p)
			w := coverage(t, Wilson, n, p, 0.95)
			assert.Greater(t, w, 0.83, "Wilson n %d p %.2f", n, p)
			sum += w
			cells++
		}
		assert.InDelta(t, 0.95, sum/float64(cells), 0.01, "Wilson mean coverage n %d", n)
	}
}

// exactBinomialTest is BinomialTest by exact rational arithmetic over every
// outcome.
func exactBinomialTest(k, n int, p *big.Rat) float64 {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	pmf := make([]*big.Rat, n+1)
	for i := range pmf {
		c := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(i)))
		for range i {
			c.Mul(c, p)
		}
		for range n - i {
			c.Mul(c, q)
		}
		pmf[i] = c
	}
	d := new(big.Rat).Mul(pmf[k], big.NewRat(10_000_001, 10_000_000))
	sum := new(big.Rat)
	for _, v := range pmf {
		if v.Cmp(d) <= 0 {
			sum.Add(sum, v)
		}
	}
	f, _ := sum.Float64()
	return min(f, 1)
}

func TestBinomialTest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k, n int
		p    float64
		want float64
		tol  float64
	}{
		// 2·(1+20+190+1140+4845+15504+38760+77520)/2²⁰
		{7, 20, 0.5, 2 * 137980.0 / 1048576, 1e-12},
		{13, 20, 0.5, 2 * 137980.0 / 1048576, 1e-12},
		{10, 20, 0.5, 1, 0},
		// R: binom.test(c(682, 243), p = 3/4) gives p-value = 0.3825.
		{682, 925, 0.75, 0.3824915595748517, 1e-9},
		{3, 20, 0.3, 0.2204182673807094, 1e-12},
		{10, 20, 0.3, 0.08344502962981216, 1e-12},
		// Certain outcomes.
		{0, 10, 0, 1, 0},
		{1, 10, 0, 0, 0},
		{10, 10, 1, 1, 0},
		{9, 10, 1, 0, 0},
		{0, 0, 0.3, 1, 0},
	} {
		p, err := BinomialTest(tc.k, tc.n, tc.p)
		require.NoError(t, err)
		assert.InDelta(t, tc.want, p, tc.tol, "BinomialTest(%d, %d, %v)", tc.k, tc.n, tc.p)
	}
	// Against exact arithmetic on every outcome of a few skewed cases.
	for _, tc := range []struct{ n, num, den int }{{15, 1, 7}, {30, 2, 3}, {41, 1, 2}, {25, 9, 10}} {
		pr := big.NewRat(int64(tc.num), int64(tc.den))
		pf, _ := pr.Float64()
		for k := 0; k <= tc.n; k++ {
			p, err := BinomialTest(k, tc.n, pf)
			require.NoError(t, err)
			assert.InDelta(t, exactBinomialTest(k, tc.n, pr), p, 1e-10, "k %d n %d p %v", k, tc.n, pf)
		}
	}
	_, err := BinomialTest(3, 10, 1.5)
	assert.EqualError(t, err, "stats: BinomialTest: p = 1.5 outside [0, 1]")
	_, err = BinomialTest(11, 10, 0.5)
	assert.EqualError(t, err, "stats: BinomialTest: successes k = 11 outside [0, n = 10]")
}

func FuzzBinomialTest(f *testing.F) {
	f.Add(7, 20, 0.5)
	f.Add(0, 1, 0.0)
	f.Add(682, 925, 0.75)
	f.Fuzz(func(t *testing.T, k, n int, p float64) {
		v, err := BinomialTest(k, n, p)
		if err != nil {
			return
		}
		require.True(t, v >= 0 && v <= 1, "BinomialTest(%d, %d, %v) = %v", k, n, p, v)
		if n > 0 && n <= 40 && p > 0 && p < 1 {
			// The observed outcome itself is always counted.
			assert.GreaterOrEqual(t, v, distuv.Binomial{N: float64(n), P: p}.Prob(float64(k))*(1-1e-9))
		}
	})
}

func TestBinomialZTest(t *testing.T) {
	t.Parallel()
	// z = (60 - 50)/√25 = 2, p = 2·(1 - Φ(2)).
	r, err := BinomialZTest(60, 100, 0.5)
	require.NoError(t, err)
	assert.InDelta(t, 2, r.Z, 1e-15)
	assert.InDelta(t, 0.04550026389635842, r.P, 1e-14)
	r, err = BinomialZTest(40, 100, 0.5)
	require.NoError(t, err)
	assert.InDelta(t, -2, r.Z, 1e-15)
	assert.InDelta(t, 0.04550026389635842, r.P, 1e-14)
	// Certain outcomes.
	for _, tc := range []struct {
		k, n int
		p    float64
		want float64
	}{{0, 10, 0, 1}, {1, 10, 0, 0}, {10, 10, 1, 1}, {9, 10, 1, 0}} {
		r, err := BinomialZTest(tc.k, tc.n, tc.p)
		require.NoError(t, err)
		assert.Equal(t, ZTest{Z: 0, P: tc.want}, r)
	}
	_, err = BinomialZTest(0, 0, 0.5)
	assert.EqualError(t, err, "stats: BinomialZTest: trials n = 0, need at least 1")
	_, err = BinomialZTest(1, 10, math.NaN())
	assert.EqualError(t, err, "stats: BinomialZTest: p = NaN outside [0, 1]")
}

func BenchmarkBinomialTest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = BinomialTest(49_700, 100_000, 0.5)
	}
}

// wilson95 is the Wilson interval written with z = 1.959963984540054 as an
// untyped constant (the form arena's summaries use).
func wilson95(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	const z2 = z * z
	fn := float64(n)
	p := float64(k) / fn
	den := 1 + z2/fn
	center := (p + z2/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / den
	lo, hi = center-half, center+half
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return max(lo, 0), min(hi, 1)
}

func TestWilson95BitForBit(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 300; n++ {
		for k := 0; k <= n; k++ {
			lo, hi := wilson95(k, n)
			iv, err := Wilson(k, n, 0.95)
			require.NoError(t, err)
			require.Equal(t, Interval{lo, hi}, iv, "Wilson(%d, %d)", k, n)
		}
	}
}

// TestDiffWilson checks Newcombe's (1998) worked example of method 10:
// 56/70 - 48/80 = 0.2000, 95 % interval [0.0524, 0.3339].
func TestDiffWilson(t *testing.T) {
	t.Parallel()
	d, iv, err := DiffWilson(56, 70, 48, 80, 0.95)
	require.NoError(t, err)
	assert.InDelta(t, 0.2, d, 1e-12)
	assert.InDelta(t, 0.0524, iv.Lo, 5e-5)
	assert.InDelta(t, 0.3339, iv.Hi, 5e-5)
	_, _, err = DiffWilson(1, 0, 1, 2, 0.95)
	assert.ErrorContains(t, err, "want both > 0")
	_, _, err = DiffWilson(3, 2, 1, 2, 0.95)
	assert.Error(t, err)
}
