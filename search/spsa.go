package search

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/sim"
)

// spsaConfig configures a simultaneous-perturbation stochastic
// approximation (Spall 1992) in the normalised box of Space, with the gain
// sequences of fishtest, the chess engines' tuning framework:
//
//	a_k = A / (k + 1 + BigA)^Alpha,   c_k = C / (k + 1)^Gamma,
//
// iteration k (0-based) perturbing every coordinate of the iterate θ_k by
// ±c_k (a Rademacher draw Δ_k), playing θ_k + c_kΔ_k and θ_k − c_kΔ_k on the
// same new blocks (common random numbers), and moving
// θ_{k+1} = clip(θ_k + a_k (f₊ − f₋)/(2c_k) Δ_k) (maximising the win rate).
type spsaConfig struct {
	// Space is the searched parameters; Start the first iterate's values.
	Space Space
	Start []float64
	// Iterations is the number of iterations, >= 1; Blocks the blocks both
	// perturbations of an iteration play, >= 1.
	Iterations, Blocks int
	// A and C are the gains' numerators: the step size (normalised units
	// per unit of win-rate gradient) and the perturbation (normalised
	// units), both > 0. BigA is the stability constant (< 0 = 10 % of
	// Iterations, fishtest's choice); Alpha and Gamma the exponents
	// (0 = 0.602 and 0.101).
	A, C, BigA   float64
	Alpha, Gamma float64
	// Average is the share of the iterations done whose iterates the
	// recommendation averages (Polyak-Ruppert), in [0, 1]: 0 recommends
	// the current iterate.
	Average float64
	// FinalBlocks is the blocks the last step plays the recommendation on
	// (its estimate), >= 1.
	FinalBlocks int
	// Seed seeds the perturbations.
	Seed uint64
}

func (c *spsaConfig) defaults() {
	if c.Alpha == 0 {
		c.Alpha = 0.602
	}
	if c.Gamma == 0 {
		c.Gamma = 0.101
	}
	if c.BigA < 0 {
		c.BigA = 0.1 * float64(c.Iterations)
	}
}

// spsaSearch is the Method of an spsaSearch search (spsaConfig): step k < Iterations
// plays candidate 0 (θ₊) and candidate 1 (θ₋) on blocks k·Blocks onwards;
// the last step plays the recommendation on FinalBlocks blocks from
// Iterations·Blocks. Integer parameters are perturbed by at least 0.6 of
// their level spacing, so that both sides round to different levels.
type spsaSearch struct {
	cfg     spsaConfig
	theta   []float64
	iters   [][]float64 // θ_0..θ_k, the iterates so far
	minC    []float64
	k       int
	plus    []float64
	minus   []float64
	delta   []float64
	ck      []float64
	history []spsaIteration
	final   *estimate
}

// spsaIteration is the record of one spsaSearch iteration.
type spsaIteration struct {
	// Theta holds the iterate's values before the step; Plus and Minus
	// the win rates of its two perturbations on the iteration's blocks.
	Theta       []float64
	Plus, Minus float64
	// Gain and Perturbation are a_k and c_k.
	Gain, Perturbation float64
}

// newSPSA returns an spsaSearch search.
func newSPSA(cfg spsaConfig) (*spsaSearch, error) {
	u, err := checkStart("spsa", cfg.Space, cfg.Start)
	if err != nil {
		return nil, err
	}
	cfg.defaults()
	switch {
	case cfg.Iterations < 1 || cfg.Iterations > maxGenerations:
		return nil, fmt.Errorf("search: spsa: iterations %d: want 1..%d", cfg.Iterations, maxGenerations)
	case cfg.Blocks < 1 || cfg.Blocks > maxBlocks || cfg.FinalBlocks < 1 || cfg.FinalBlocks > maxBlocks:
		return nil, fmt.Errorf("search: spsa: blocks %d, final blocks %d: want 1..%d", cfg.Blocks, cfg.FinalBlocks, maxBlocks)
	case !(cfg.A > 0) || math.IsInf(cfg.A, 0) || !(cfg.C > 0 && cfg.C <= 0.5):
		return nil, fmt.Errorf("search: spsa: a %v, c %v: want a > 0 and c in (0, 0.5]", cfg.A, cfg.C)
	case !(cfg.Alpha > 0 && cfg.Alpha <= 1) || !(cfg.Gamma > 0 && cfg.Gamma <= 1) || !(cfg.BigA >= 0):
		return nil, fmt.Errorf("search: spsa: alpha %v, gamma %v, A %v: want alpha and gamma in (0, 1], A >= 0", cfg.Alpha, cfg.Gamma, cfg.BigA)
	case !(cfg.Average >= 0 && cfg.Average <= 1):
		return nil, fmt.Errorf("search: spsa: average %v: want in [0, 1]", cfg.Average)
	}
	s := &spsaSearch{cfg: cfg, theta: u, minC: levelSpacing(cfg.Space)}
	for i := range s.minC {
		s.minC[i] *= 0.6
	}
	s.iters = [][]float64{append([]float64(nil), u...)}
	return s, nil
}

// steps returns Iterations + 1 (the recommendation's final estimate).
func (s *spsaSearch) steps() int { return s.cfg.Iterations + 1 }

// Gains returns a_k and c_k of iteration k.
func (s *spsaSearch) gains(k int) (a, c float64) {
	a = s.cfg.A / math.Pow(float64(k)+1+s.cfg.BigA, s.cfg.Alpha)
	c = s.cfg.C / math.Pow(float64(k)+1, s.cfg.Gamma)
	return a, c
}

// rademacher returns the perturbation signs of iteration k, drawn from
// (Seed, k) alone.
func (s *spsaSearch) rademacher(k int) []float64 {
	d := make([]float64, len(s.theta))
	z := sim.GameSeed(s.cfg.Seed^0x5b5a0d17e1a2b3c4, uint64(k))
	for i := range d {
		if i > 0 && i%64 == 0 {
			z = sim.GameSeed(z, uint64(i))
		}
		d[i] = 1
		if z>>(uint(i)%64)&1 == 1 {
			d[i] = -1
		}
	}
	return d
}

// next returns the iteration's two perturbations on its blocks, or the
// recommendation on the final blocks.
func (s *spsaSearch) next() ([]Eval, error) {
	if s.k > s.cfg.Iterations {
		return nil, fmt.Errorf("spsa: no step after %d", s.steps())
	}
	if s.k == s.cfg.Iterations {
		return finalEvals(s.Recommend(), s.cfg.Iterations*s.cfg.Blocks, s.cfg.FinalBlocks), nil
	}
	_, c := s.gains(s.k)
	s.delta = s.rademacher(s.k)
	n := len(s.theta)
	s.plus, s.minus, s.ck = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range s.theta {
		ci := max(c, s.minC[i])
		s.ck[i] = ci
		s.plus[i] = min(1, max(0, s.theta[i]+ci*s.delta[i]))
		s.minus[i] = min(1, max(0, s.theta[i]-ci*s.delta[i]))
	}
	xp, xm := s.cfg.Space.Values(s.plus), s.cfg.Space.Values(s.minus)
	first := s.k * s.cfg.Blocks
	ev := make([]Eval, 0, 2*s.cfg.Blocks)
	for b := 0; b < s.cfg.Blocks; b++ {
		ev = append(ev, Eval{Cand: 0, X: xp, Block: first + b})
	}
	for b := 0; b < s.cfg.Blocks; b++ {
		ev = append(ev, Eval{Cand: 1, X: xm, Block: first + b})
	}
	return ev, nil
}

// tell moves the iterate along the estimated gradient.
func (s *spsaSearch) tell(res []Result) error {
	if s.k == s.cfg.Iterations {
		if s.final != nil || len(res) != s.cfg.FinalBlocks {
			return fmt.Errorf("spsa: final step: %d results, want %d", len(res), s.cfg.FinalBlocks)
		}
		s.final = tallyEstimate(s.Recommend(), res)
		s.k++
		return nil
	}
	if len(res) != 2*s.cfg.Blocks {
		return fmt.Errorf("spsa: %d results: want %d", len(res), 2*s.cfg.Blocks)
	}
	fp, fm := meanScore(res[:s.cfg.Blocks]), meanScore(res[s.cfg.Blocks:])
	a, c := s.gains(s.k)
	s.history = append(s.history, spsaIteration{Theta: s.cfg.Space.Values(s.theta), Plus: fp, Minus: fm, Gain: a, Perturbation: c})
	for i := range s.theta {
		// The actual half-distance between the two points (a clipped
		// perturbation is shorter).
		h := (s.plus[i] - s.minus[i]) / 2
		if h == 0 {
			continue
		}
		g := (fp - fm) / (2 * h)
		s.theta[i] = min(1, max(0, s.theta[i]+a*g))
	}
	s.iters = append(s.iters, append([]float64(nil), s.theta...))
	s.k++
	return nil
}

// recommendUnits returns the average of the last Average share of the
// iterates (at least the current one), in normalised coordinates.
func (s *spsaSearch) recommendUnits() []float64 {
	n := len(s.iters)
	m := max(1, int(math.Ceil(s.cfg.Average*float64(n))))
	u := make([]float64, len(s.theta))
	for _, it := range s.iters[n-m:] {
		for i, v := range it {
			u[i] += v
		}
	}
	for i := range u {
		u[i] /= float64(m)
	}
	return u
}

// Recommend returns the average of the last Average share of the iterates
// (the current iterate when Average is 0).
func (s *spsaSearch) Recommend() []float64 { return s.cfg.Space.Values(s.recommendUnits()) }

// status describes the iteration and the gains.
func (s *spsaSearch) status() string {
	if s.final != nil {
		iv := s.final.Wilson()
		return fmt.Sprintf("done: recommendation %.3f [%.3f, %.3f] over %d games", s.final.Rate(), iv.Lo, iv.Hi, s.final.Games)
	}
	a, c := s.gains(min(s.k, s.cfg.Iterations-1))
	return fmt.Sprintf("iteration %d/%d, a_k %.3g, c_k %.3g", s.k+1, s.cfg.Iterations, a, c)
}
