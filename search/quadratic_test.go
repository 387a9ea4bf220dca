package search

import "math"

// Quadratic is a synthetic win probability with a known optimum: the
// logistic of a concave quadratic in the normalised coordinates,
//
//	P(x) = 1 / (1 + exp(-(Peak - Curv·Σ (u_i - Opt_i)²)))
//
// with u = Space.units(x), so that P is largest, 1/(1+exp(-Peak)), at the
// values Space.Values(Opt).
type Quadratic struct {
	Space Space
	// Opt is the optimum in normalised coordinates.
	Opt []float64
	// Peak is the logit at the optimum, Curv the curvature.
	Peak, Curv float64
}

// P returns the win probability of values x.
func (q *Quadratic) P(x []float64) float64 {
	u := q.Space.units(x)
	var s float64
	for i := range u {
		d := u[i] - q.Opt[i]
		s += d * d
	}
	return 1 / (1 + math.Exp(-(q.Peak - q.Curv*s)))
}
