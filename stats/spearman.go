package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// maxExactSpearman is the largest sample size whose Spearman p-value
// [SpearmanTest] computes exactly, over all n! permutations.
const maxExactSpearman = 9

// Spearman is the result of a Spearman rank correlation test.
type Spearman struct {
	// Rho is Spearman's rank correlation coefficient in [-1, 1]: Pearson's
	// correlation of the ranks, tied values taking their mean rank.
	Rho float64
	// P is the two-sided p-value of rho under the null hypothesis that
	// every pairing of the ranks is equally likely: the share of
	// permutations of y's ranks with |rho| at least the observed one.
	P float64
	// Exact reports that P counts all n! permutations; otherwise P is the
	// Monte Carlo estimate (k+1)/(m+1) from m random permutations.
	Exact bool
	// Permutations is the number of permutations P is computed from.
	Permutations int
}

// ranks returns the ranks 1..n of xs, tied values taking the mean of the
// ranks they span.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r
}

// spearmanRho returns Spearman's rank correlation of x and y (equal
// lengths, at least 2, no NaN, neither constant).
func spearmanRho(x, y []float64) (float64, error) {
	if err := checkSpearman(x, y); err != nil {
		return 0, err
	}
	rho := stat.Correlation(ranks(x), ranks(y), nil)
	if math.IsNaN(rho) {
		return 0, fmt.Errorf("stats: Spearman: a constant sample has no rank correlation")
	}
	return rho, nil
}

// SpearmanTest returns Spearman's rank correlation of x and y with its
// two-sided permutation p-value: exact for up to maxExactSpearman pairs,
// otherwise estimated from perms (>= 1) random permutations drawn from a
// generator seeded with seed, so that the same inputs give the same p.
func SpearmanTest(x, y []float64, perms int, seed uint64) (Spearman, error) {
	rho, err := spearmanRho(x, y)
	if err != nil {
		return Spearman{}, err
	}
	rx, ry := ranks(x), ranks(y)
	n := len(x)
	// A small tolerance counts permutations whose |rho| equals the
	// observed one up to rounding.
	limit := math.Abs(rho) - 1e-12
	perm := make([]float64, n)
	copy(perm, ry)
	s := Spearman{Rho: rho}
	if n <= maxExactSpearman {
		hits, total := 0, 0
		permute(perm, 0, func() {
			total++
			if math.Abs(stat.Correlation(rx, perm, nil)) >= limit {
				hits++
			}
		})
		s.P, s.Exact, s.Permutations = float64(hits)/float64(total), true, total
		return s, nil
	}
	if perms < 1 {
		return Spearman{}, fmt.Errorf("stats: Spearman: perms = %d outside [1, ∞) for n = %d > %d", perms, n, maxExactSpearman)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed5bea))
	hits := 0
	for range perms {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if math.Abs(stat.Correlation(rx, perm, nil)) >= limit {
			hits++
		}
	}
	s.P, s.Permutations = float64(hits+1)/float64(perms+1), perms
	return s, nil
}

// permute calls visit once for every permutation of xs[k:], restoring xs
// when it returns.
func permute(xs []float64, k int, visit func()) {
	if k == len(xs) {
		visit()
		return
	}
	for i := k; i < len(xs); i++ {
		xs[k], xs[i] = xs[i], xs[k]
		permute(xs, k+1, visit)
		xs[k], xs[i] = xs[i], xs[k]
	}
}

func checkSpearman(x, y []float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("stats: Spearman: %d x values and %d y values, want equal lengths", len(x), len(y))
	}
	if len(x) < 2 {
		return fmt.Errorf("stats: Spearman: %d pairs, want at least 2", len(x))
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return fmt.Errorf("stats: Spearman: pair %d holds NaN", i)
		}
	}
	return nil
}
