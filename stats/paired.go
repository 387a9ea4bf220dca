package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Paired is the comparison of two candidates measured on the same N units
// (for example the same seeds): the differences d_i = x_i - y_i.
type Paired struct {
	// N is the number of pairs.
	N int
	// Mean is the mean difference d̄ = Σ d_i / N, an estimate of E[x - y].
	Mean float64
	// SD is the sample standard deviation of the differences,
	// √(Σ (d_i - d̄)² / (N-1)).
	SD float64
	// SE is the standard error of the mean difference, SD/√N.
	SE float64
	// Stat is the test statistic d̄/SE of H0: E[x - y] = 0 (t or z); 0 when
	// every difference is 0, ±Inf when all differences are equal and not 0.
	Stat float64
	// DF is the t distribution's degrees of freedom N-1 (0 for the normal
	// test).
	DF int
	// P is the two-sided p-value of H0: E[x - y] = 0.
	P float64
	// Interval is the confidence interval d̄ ± q·SE of E[x - y], q the t
	// (or normal) critical value of the level.
	Interval Interval
}

// PairedT is the paired t-test of x against y (equal lengths N >= 2):
// with the differences d_i = x_i - y_i,
//
//	t = d̄ / (s_d/√N),   DF = N - 1,   P = 2·P(T_DF >= |t|),
//
// and the interval d̄ ± t_{DF, 1-α/2}·s_d/√N, α = 1 - level. It assumes the
// differences are roughly normal or N is large.
func PairedT(x, y []float64, level float64) (Paired, error) {
	r, err := pairedMoments(x, y, level)
	if err != nil {
		return Paired{}, fmt.Errorf("stats: PairedT: %w", err)
	}
	r.DF = r.N - 1
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(r.DF)}
	q := t.Quantile(1 - (1-level)/2)
	r.Interval = Interval{r.Mean - q*r.SE, r.Mean + q*r.SE}
	if r.SE > 0 {
		r.P = 2 * t.Survival(math.Abs(r.Stat))
	}
	return r, nil
}

// PairedNormal is the large-sample (z) version of [PairedT]: the same
// statistic d̄/(s_d/√N) referred to the standard normal,
//
//	P = 2·(1 - Φ(|z|)),   interval d̄ ± z_{1-α/2}·s_d/√N.
//
// Use it for many pairs (hundreds or more), where it and [PairedT] agree.
func PairedNormal(x, y []float64, level float64) (Paired, error) {
	r, err := pairedMoments(x, y, level)
	if err != nil {
		return Paired{}, fmt.Errorf("stats: PairedNormal: %w", err)
	}
	q := zOf(level)
	r.Interval = Interval{r.Mean - q*r.SE, r.Mean + q*r.SE}
	if r.SE > 0 {
		r.P = normalTwoSided(r.Stat)
	}
	return r, nil
}

// pairedMoments checks the input of a paired test and fills N, Mean, SD,
// SE, Stat, and P for the case SE = 0 (all differences equal).
func pairedMoments(x, y []float64, level float64) (Paired, error) {
	if len(x) != len(y) {
		return Paired{}, fmt.Errorf("%d x values and %d y values, want pairs", len(x), len(y))
	}
	if len(x) < 2 {
		return Paired{}, fmt.Errorf("%d pairs, need at least 2", len(x))
	}
	if err := checkLevel(level); err != nil {
		return Paired{}, err
	}
	n := len(x)
	sum := 0.0
	for i := range x {
		d := x[i] - y[i]
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return Paired{}, fmt.Errorf("pair %d: x = %v, y = %v: difference is not finite", i, x[i], y[i])
		}
		sum += d
	}
	mean := sum / float64(n)
	ss := 0.0
	for i := range x {
		d := x[i] - y[i] - mean
		ss += d * d
	}
	sd := math.Sqrt(ss / float64(n-1))
	r := Paired{N: n, Mean: mean, SD: sd, SE: sd / math.Sqrt(float64(n))}
	switch {
	case r.SE > 0:
		r.Stat = mean / r.SE
	case mean == 0:
		r.P = 1
	default:
		r.Stat = math.Inf(int(math.Copysign(1, mean)))
	}
	return r, nil
}

// PairCounts is the 2×2 table of paired binary outcomes of two candidates
// X and Y on the same units (e.g. a win or not of each on the same seeds).
type PairCounts struct {
	// Both counts the units where X and Y both succeeded.
	Both int
	// OnlyX counts the units where X succeeded and Y did not.
	OnlyX int
	// OnlyY counts the units where Y succeeded and X did not.
	OnlyY int
	// Neither counts the units where both failed.
	Neither int
}

// n is the number of pairs.
func (c PairCounts) n() int { return c.Both + c.OnlyX + c.OnlyY + c.Neither }

// CountPairs tallies paired binary outcomes x[i], y[i] (equal lengths).
func CountPairs(x, y []bool) (PairCounts, error) {
	if len(x) != len(y) {
		return PairCounts{}, fmt.Errorf("stats: CountPairs: %d x values and %d y values, want pairs", len(x), len(y))
	}
	var c PairCounts
	for i := range x {
		switch {
		case x[i] && y[i]:
			c.Both++
		case x[i]:
			c.OnlyX++
		case y[i]:
			c.OnlyY++
		default:
			c.Neither++
		}
	}
	return c, nil
}

// PairedProportion compares the success rates of X and Y on the same units.
type PairedProportion struct {
	// Counts is the 2×2 table.
	Counts PairCounts
	// N is the number of pairs.
	N int
	// PX and PY are the success rates of X and Y.
	PX, PY float64
	// Diff is PX - PY = (OnlyX - OnlyY)/N.
	Diff float64
	// Interval is Newcombe's hybrid score interval of the difference.
	Interval Interval
	// P is the exact McNemar test's two-sided p-value of H0: PX = PY.
	P float64
}

// PairedProportions compares two success rates measured on the same N >= 1
// units. Only the discordant pairs b = OnlyX and c = OnlyY carry
// information about the difference; the p-value is the exact McNemar test,
// the exact binomial test of b successes in b + c trials against 1/2
// (1 if b + c = 0). The interval of PX - PY is Newcombe's hybrid score
// interval for paired data (Newcombe 1998, Stat. Med. 17:2635, method 10):
// with [l₁, u₁] and [l₂, u₂] the Wilson intervals of PX and PY and
//
//	φ = (Both·Neither - OnlyX·OnlyY) / √((Both+OnlyX)(OnlyY+Neither)(Both+OnlyY)(OnlyX+Neither))
//
// (0 if a margin is empty),
//
//	Lo = D - √((PX-l₁)² - 2φ(PX-l₁)(u₂-PY) + (u₂-PY)²)
//	Hi = D + √((u₁-PX)² - 2φ(u₁-PX)(PY-l₂) + (PY-l₂)²),   D = PX - PY.
func PairedProportions(c PairCounts, level float64) (PairedProportion, error) {
	for _, f := range []struct {
		name string
		v    int
	}{{"Both", c.Both}, {"OnlyX", c.OnlyX}, {"OnlyY", c.OnlyY}, {"Neither", c.Neither}} {
		if f.v < 0 {
			return PairedProportion{}, fmt.Errorf("stats: PairedProportions: %s = %d is negative", f.name, f.v)
		}
	}
	n := c.n()
	if n == 0 {
		return PairedProportion{}, fmt.Errorf("stats: PairedProportions: no pairs")
	}
	if err := checkLevel(level); err != nil {
		return PairedProportion{}, fmt.Errorf("stats: PairedProportions: %w", err)
	}
	fn := float64(n)
	r := PairedProportion{Counts: c, N: n,
		PX: float64(c.Both+c.OnlyX) / fn, PY: float64(c.Both+c.OnlyY) / fn}
	r.Diff = float64(c.OnlyX-c.OnlyY) / fn
	var err error
	if r.P, err = BinomialTest(c.OnlyX, c.OnlyX+c.OnlyY, 0.5); err != nil {
		return PairedProportion{}, fmt.Errorf("stats: PairedProportions: %w", err)
	}
	w1, _ := Wilson(c.Both+c.OnlyX, n, level) // inputs checked above
	w2, _ := Wilson(c.Both+c.OnlyY, n, level)
	phi := 0.0
	if m := float64(c.Both+c.OnlyX) * float64(c.OnlyY+c.Neither) *
		float64(c.Both+c.OnlyY) * float64(c.OnlyX+c.Neither); m > 0 {
		phi = (float64(c.Both)*float64(c.Neither) - float64(c.OnlyX)*float64(c.OnlyY)) / math.Sqrt(m)
	}
	dl1, du1 := r.PX-w1.Lo, w1.Hi-r.PX
	dl2, du2 := r.PY-w2.Lo, w2.Hi-r.PY
	delta := math.Sqrt(max(0, dl1*dl1-2*phi*dl1*du2+du2*du2))
	eps := math.Sqrt(max(0, du1*du1-2*phi*du1*dl2+dl2*dl2))
	r.Interval = Interval{max(-1, r.Diff-delta), min(1, r.Diff+eps)}
	return r, nil
}
