package stats

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// checkCount reports k successes in n trials outside 0 <= k <= n.
func checkCount(k, n int) error {
	if n < 0 {
		return fmt.Errorf("trials n = %d is negative", n)
	}
	if k < 0 || k > n {
		return fmt.Errorf("successes k = %d outside [0, n = %d]", k, n)
	}
	return nil
}

// Wilson returns the Wilson score interval of a binomial proportion at a
// confidence level in (0, 1): with p̂ = k/n and z = NormalQuantile(level),
//
//	center = (p̂ + z²/2n) / (1 + z²/n)
//	half   = z·√(p̂(1-p̂)/n + z²/4n²) / (1 + z²/n)
//
// the interval [center - half, center + half], which is the set of p with
// |p̂ - p| <= z·√(p(1-p)/n) (Wilson 1927). The ends are exact at k = 0 (Lo =
// 0) and k = n (Hi = 1). For n = 0 it is the whole range [0, 1].
func Wilson(k, n int, level float64) (Interval, error) {
	if err := checkCount(k, n); err != nil {
		return Interval{}, fmt.Errorf("stats: Wilson: %w", err)
	}
	if err := checkLevel(level); err != nil {
		return Interval{}, fmt.Errorf("stats: Wilson: %w", err)
	}
	if n == 0 {
		return Interval{0, 1}, nil
	}
	z, z2 := zSquared(level)
	fn := float64(n)
	p := float64(k) / fn
	den := 1 + z2/fn
	center := (p + z2/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / den
	lo, hi := center-half, center+half
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return Interval{max(lo, 0), min(hi, 1)}, nil
}

// ClopperPearson returns the Clopper-Pearson ("exact") interval of a
// binomial proportion at a confidence level in (0, 1), with α = 1 - level:
//
//	Lo = B⁻¹(α/2; k, n-k+1)      (0 if k = 0)
//	Hi = B⁻¹(1-α/2; k+1, n-k)    (1 if k = n)
//
// where B⁻¹(q; a, b) is the q-quantile of the Beta(a, b) distribution. Lo is
// the p with P(X >= k | p) = α/2 and Hi the p with P(X <= k | p) = α/2, so
// the coverage is at least level for every p. For n = 0 it is [0, 1].
func ClopperPearson(k, n int, level float64) (Interval, error) {
	if err := checkCount(k, n); err != nil {
		return Interval{}, fmt.Errorf("stats: ClopperPearson: %w", err)
	}
	if err := checkLevel(level); err != nil {
		return Interval{}, fmt.Errorf("stats: ClopperPearson: %w", err)
	}
	alpha := 1 - level
	iv := Interval{0, 1}
	if k > 0 {
		iv.Lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha / 2)
	}
	if k < n {
		iv.Hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha/2)
	}
	return iv, nil
}

// checkProb reports a probability outside [0, 1].
func checkProb(name string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("%s = %v outside [0, 1]", name, p)
	}
	return nil
}

// BinomialTest returns the two-sided p-value of the exact binomial test of
// k successes in n trials against the success probability p in [0, 1]: the
// probability under Binomial(n, p) of every outcome i no more likely than
// the observed one,
//
//	P = Σ { P(X = i) : P(X = i) <= P(X = k)·(1 + 10⁻⁷) },
//
// capped at 1 (the method of R's binom.test; the relative tolerance counts
// outcomes of equal probability that rounding separates). If p is 0 or 1 the
// outcome is certain: the p-value is 1 for the certain count and 0 for any
// other. For n = 0 it is 1.
func BinomialTest(k, n int, p float64) (float64, error) {
	if err := checkCount(k, n); err != nil {
		return 0, fmt.Errorf("stats: BinomialTest: %w", err)
	}
	if err := checkProb("p", p); err != nil {
		return 0, fmt.Errorf("stats: BinomialTest: %w", err)
	}
	switch {
	case n == 0:
		return 1, nil
	case p == 0:
		return certain(k == 0), nil
	case p == 1:
		return certain(k == n), nil
	}
	b := distuv.Binomial{N: float64(n), P: p}
	logd := b.LogProb(float64(k)) + math.Log1p(1e-7)
	mode := math.Floor(float64(n+1) * p) // a most likely outcome
	m := float64(n) * p
	// P(X <= x) and P(X >= x), with the empty sums 0.
	cdf := func(x int) float64 {
		if x < 0 {
			return 0
		}
		return b.CDF(float64(x))
	}
	sf := func(x int) float64 {
		switch {
		case x > n:
			return 0
		case x <= 0:
			return 1
		}
		// P(X >= x) = I_p(x, n-x+1), without the cancellation of 1 - CDF.
		return mathext.RegIncBeta(float64(x), float64(n-x+1), p)
	}
	var pv float64
	switch {
	case float64(k) == m:
		return 1, nil
	case float64(k) < m:
		// The other tail lies above the mode, where the probabilities
		// fall: count its outcomes no more likely than k.
		lo := int(max(mode, math.Ceil(m)))
		j := lo + sort.Search(n-lo+1, func(i int) bool { return b.LogProb(float64(lo+i)) <= logd })
		pv = cdf(k) + sf(j)
	default:
		// The other tail lies below the mode, where the probabilities
		// rise: find the last outcome no more likely than k.
		hi := int(min(mode, math.Floor(m)))
		j := sort.Search(hi+1, func(i int) bool { return b.LogProb(float64(i)) > logd })
		pv = cdf(j-1) + sf(k)
	}
	return min(pv, 1), nil
}

// certain is the p-value of a certain outcome: 1 if it happened, else 0.
func certain(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// ZTest is the result of a normal-approximation test.
type ZTest struct {
	// Z is the standardised statistic.
	Z float64
	// P is the two-sided p-value 2·(1 - Φ(|Z|)).
	P float64
}

// BinomialZTest is the two-sided normal-approximation (z) test of k
// successes in n >= 1 trials against the success probability p:
//
//	Z = (k - np) / √(np(1-p)),   P = 2·(1 - Φ(|Z|)).
//
// If p is 0 or 1 the outcome is certain: Z is 0 and P is 1 for the certain
// count (np) and 0 for any other.
func BinomialZTest(k, n int, p float64) (ZTest, error) {
	if err := checkCount(k, n); err != nil {
		return ZTest{}, fmt.Errorf("stats: BinomialZTest: %w", err)
	}
	if n == 0 {
		return ZTest{}, fmt.Errorf("stats: BinomialZTest: trials n = 0, need at least 1")
	}
	if err := checkProb("p", p); err != nil {
		return ZTest{}, fmt.Errorf("stats: BinomialZTest: %w", err)
	}
	fn := float64(n)
	if p == 0 || p == 1 {
		return ZTest{P: certain(float64(k) == fn*p)}, nil
	}
	z := (float64(k) - fn*p) / math.Sqrt(fn*p*(1-p))
	return ZTest{Z: z, P: normalTwoSided(z)}, nil
}

// DiffWilson returns Newcombe's (1998, method 10) interval of the
// difference p1 - p2 of two independent binomial proportions, k1 of n1
// and k2 of n2, at a confidence level in (0, 1): with [l1, u1] and [l2, u2]
// their Wilson intervals and d = p̂1 - p̂2,
//
//	[d - √((p̂1-l1)² + (u2-p̂2)²), d + √((u1-p̂1)² + (p̂2-l2)²)].
//
// It fails when either count is out of range or either n is 0.
func DiffWilson(k1, n1, k2, n2 int, level float64) (d float64, iv Interval, err error) {
	if n1 == 0 || n2 == 0 {
		return 0, Interval{}, fmt.Errorf("stats: DiffWilson: n1 = %d, n2 = %d: want both > 0", n1, n2)
	}
	w1, err := Wilson(k1, n1, level)
	if err != nil {
		return 0, Interval{}, fmt.Errorf("stats: DiffWilson: %w", err)
	}
	w2, err := Wilson(k2, n2, level)
	if err != nil {
		return 0, Interval{}, fmt.Errorf("stats: DiffWilson: %w", err)
	}
	p1, p2 := float64(k1)/float64(n1), float64(k2)/float64(n2)
	d = p1 - p2
	lo := d - math.Hypot(p1-w1.Lo, w2.Hi-p2)
	hi := d + math.Hypot(w1.Hi-p1, p2-w2.Lo)
	return d, Interval{max(lo, -1), min(hi, 1)}, nil
}
