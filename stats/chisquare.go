package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ChiSquare is the result of Pearson's chi-square test.
type ChiSquare struct {
	// Stat is the statistic χ² = Σ (O_j - E_j)² / E_j.
	Stat float64
	// DF is the degrees of freedom.
	DF int
	// P is the upper-tail p-value P(χ²_DF >= Stat).
	P float64
}

// ChiSquareGOF is Pearson's chi-square goodness-of-fit test of observed
// counts O_j against expected counts E_j over k >= 2 categories:
//
//	χ² = Σ_j (O_j - E_j)² / E_j,   DF = k - 1,   P = P(χ²_DF >= χ²).
//
// The expected counts must be finite and not negative and sum to the
// observed total (within a relative 10⁻⁹). A category with E_j = 0 adds
// nothing if O_j = 0; if O_j > 0 it was impossible and χ² is +Inf, P = 0.
// The approximation wants every E_j of about 5 or more.
func ChiSquareGOF(observed []int, expected []float64) (ChiSquare, error) {
	if len(observed) != len(expected) {
		return ChiSquare{}, fmt.Errorf("stats: ChiSquareGOF: %d observed and %d expected counts",
			len(observed), len(expected))
	}
	if len(observed) < 2 {
		return ChiSquare{}, fmt.Errorf("stats: ChiSquareGOF: %d categories, need at least 2", len(observed))
	}
	var nObs, nExp float64
	for j, o := range observed {
		if o < 0 {
			return ChiSquare{}, fmt.Errorf("stats: ChiSquareGOF: observed[%d] = %d is negative", j, o)
		}
		e := expected[j]
		if !(e >= 0) || math.IsInf(e, 1) {
			return ChiSquare{}, fmt.Errorf("stats: ChiSquareGOF: expected[%d] = %v outside [0, +Inf)", j, e)
		}
		nObs += float64(o)
		nExp += e
	}
	if math.Abs(nObs-nExp) > 1e-9*max(nObs, nExp) {
		return ChiSquare{}, fmt.Errorf("stats: ChiSquareGOF: expected counts sum to %v, observed to %v", nExp, nObs)
	}
	df := len(observed) - 1
	stat := 0.0
	for j, o := range observed {
		e := expected[j]
		if e == 0 {
			if o > 0 {
				return ChiSquare{Stat: math.Inf(1), DF: df, P: 0}, nil
			}
			continue
		}
		d := float64(o) - e
		stat += d * d / e
	}
	return ChiSquare{Stat: stat, DF: df, P: distuv.ChiSquared{K: float64(df)}.Survival(stat)}, nil
}

// chiSquareP returns the upper-tail p-value P(χ²_df >= stat) of a
// chi-square statistic stat >= 0 with df >= 1 degrees of freedom.
func chiSquareP(stat float64, df int) (float64, error) {
	if df < 1 {
		return 0, fmt.Errorf("stats: ChiSquareP: df = %d, need at least 1", df)
	}
	if !(stat >= 0) {
		return 0, fmt.Errorf("stats: ChiSquareP: statistic %v outside [0, +Inf]", stat)
	}
	return distuv.ChiSquared{K: float64(df)}.Survival(stat), nil
}
