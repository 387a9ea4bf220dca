package stats

import (
	"fmt"
	"slices"
)

// Holm returns the Holm(-Bonferroni) adjusted p-values of a family of m
// p-values, in the order given. With p₍₁₎ <= ... <= p₍ₘ₎ sorted,
//
//	p̃₍ᵢ₎ = max_{j <= i} min(1, (m - j + 1)·p₍ⱼ₎),
//
// so rejecting every hypothesis with p̃ <= α controls the family-wise error
// rate at α under any dependence (Holm 1979); this is R's
// p.adjust(p, "holm"). Each p-value must lie in [0, 1]. Ties keep their
// input order.
func Holm(p []float64) ([]float64, error) {
	m := len(p)
	order := make([]int, m)
	for i, v := range p {
		if !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("stats: Holm: p[%d] = %v outside [0, 1]", i, v)
		}
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	adj := make([]float64, m)
	run := 0.0
	for j, i := range order {
		run = max(run, min(1, float64(m-j)*p[i]))
		adj[i] = run
	}
	return adj, nil
}
