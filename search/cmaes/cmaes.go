// Package cmaes is a CMA-ES optimiser with an ask/tell interface for noisy
// objectives in the unit box [0,1]^d.
//
// The algorithm is the (mu/mu_w, lambda)-CMA-ES with cumulative step-size
// adaptation, rank-one and rank-mu covariance updates, as in Hansen's
// tutorial "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772, the
// algorithm summary with its default strategy parameters, positive
// recombination weights only). Noise is handled as in
// UH-CMA-ES (Hansen, Niederberger, Guzzella and Koumoutsakos, "A Method for
// Handling Uncertainty in Evolutionary Optimization With an Application to
// Feedback Control of Combustion", IEEE TEC 13(1), 2009): every generation a
// few candidates are evaluated a second time on fresh noise, the rank changes
// this causes are measured, and when they are larger than chance ranking
// would leave room for, the optimiser first asks the caller for more
// evaluations per candidate (Evals) and, once that is at Config.MaxEvals,
// increases the step size.
//
// The optimiser knows nothing of games: the caller maps each point of the
// unit box to its parameters (log scale, integers, choices), evaluates it and
// tells the values back. The same Config (seed included) and the same told
// values give bit-identical asked points on the same platform (Go may fuse
// multiply-adds on some architectures), so a caller can rebuild the state
// after a restart by replaying its log of tells.
package cmaes

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Config sets up an Optimizer. Zero values of the optional fields select the
// documented defaults.
type Config struct {
	// Dim is the number of coordinates, at least 1.
	Dim int
	// Mean is the initial distribution mean, Dim values in [0,1]; nil starts
	// at the centre of the box (0.5 in every coordinate).
	Mean []float64
	// Sigma is the initial step size in units of the box's side, in
	// (0, 1]; 0 means 0.3.
	Sigma float64
	// Lambda is the number of candidates per generation, at least 4; 0 means
	// 4 + floor(3 ln Dim) (Hansen's default).
	Lambda int
	// Seed seeds the PCG random stream of all sampling.
	Seed uint64
	// Maximize makes the optimiser maximise the told values (for instance
	// a win rate); by default it minimises them.
	Maximize bool

	// Noisy turns on the uncertainty handling: Reevaluate names candidates
	// to be evaluated twice and Tell needs their second values.
	Noisy bool
	// ReevalRate is the fraction r_lambda of each generation re-evaluated
	// when Noisy, in (0, 1]; 0 means max(0.1, 2/Lambda): at least two
	// re-evaluations a generation.
	ReevalRate float64
	// Evals is the initial number of evaluations (for instance blocks of
	// games) per candidate the optimiser asks for, at least 1; 0 means 1.
	Evals int
	// MaxEvals bounds the number of evaluations per candidate the
	// uncertainty handling may ask for, at least Evals; 0 means Evals (the
	// uncertainty handling then only increases the step size).
	MaxEvals int
	// Treatment is what the uncertainty handling does once Evals is at
	// MaxEvals and the ranking is still dominated by noise: "sigma" (or
	// "", UH-CMA-ES) increases sigma by 1 + 2/(n+10), "evals" leaves
	// sigma alone (the step-size control alone moves it), "decay"
	// decreases it by the same factor, so that the mean's steps shrink as
	// in a stochastic approximation.
	Treatment string
	// Theta is the quantile parameter of the uncertainty measure, in
	// (0, 1); 0 means 0.2. Larger values tolerate larger rank changes
	// before the measure calls a ranking noisy.
	Theta float64

	// MinStd, if not nil, holds Dim lower bounds in [0, 0.5] on the search
	// distribution's standard deviation along each coordinate (sigma times
	// the square root of C's diagonal entry): after each update a smaller
	// one is raised to its bound by enlarging C's diagonal entry. Integer and
	// choice parameters need it: with k levels mapped onto [0,1], a
	// standard deviation well below 1/k stops the coordinate from changing
	// at all (a bound of about 1/(2k) keeps it moving).
	MinStd []float64

	// MaxGenerations stops the run after this many generations; 0 means no
	// limit.
	MaxGenerations int
	// TolX stops the run when sigma times the largest standard deviation of
	// the search distribution is below it, in [0, 1); 0 means 1e-6.
	TolX float64
}

// Optimizer is the state of a CMA-ES run. It is not safe for concurrent use.
type Optimizer struct {
	cfg Config
	n   int
	lam int
	mu  int
	w   []float64 // positive recombination weights, sum 1
	// Strategy parameters (the tutorial's defaults).
	mueff, cc, cs, c1, cmu, ds, chiN float64
	// Uncertainty handling parameters.
	rLam, alphaSigma, alphaEvals, cUnc float64

	rng   *rand.Rand
	mean  []float64
	sigma float64
	pc    []float64
	ps    []float64
	C     *mat.SymDense
	B     *mat.Dense // eigenvectors of C in columns
	D     []float64  // square roots of C's eigenvalues
	eig   mat.EigenSym

	gen      int
	evals    int
	sbar     float64 // smoothed uncertainty measure s-bar
	lastS    float64
	asked    bool
	x        [][]float64 // current generation's points (what the caller evaluates)
	y        [][]float64 // (x - mean)/sigma, clipped if repaired
	repaired []bool
	nReev    int
	stopped  string

	// Scratch.
	z, tmp, cinv []float64
	order        []int
	fsel         []float64
	uvals, ulim  []float64
	uidx, urank  []int
}

// Default constants of the uncertainty handling (Hansen et al. 2009).
const (
	defaultTheta      = 0.2
	defaultAlphaEvals = 1.5
	defaultCUnc       = 0.3
)

// New returns an optimiser for cfg, or an error naming the first field that
// is out of range.
func New(cfg Config) (*Optimizer, error) {
	if cfg.Dim < 1 {
		return nil, fmt.Errorf("cmaes: Config.Dim = %d, want at least 1", cfg.Dim)
	}
	n := cfg.Dim
	if cfg.Mean != nil {
		if len(cfg.Mean) != n {
			return nil, fmt.Errorf("cmaes: Config.Mean has %d values, want Dim = %d", len(cfg.Mean), n)
		}
		for i, v := range cfg.Mean {
			if !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("cmaes: Config.Mean[%d] = %v, want a value in [0, 1]", i, v)
			}
		}
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 0.3
	}
	if !(cfg.Sigma > 0 && cfg.Sigma <= 1) {
		return nil, fmt.Errorf("cmaes: Config.Sigma = %v, want a value in (0, 1]", cfg.Sigma)
	}
	if cfg.Lambda == 0 {
		cfg.Lambda = 4 + int(3*math.Log(float64(n)))
	}
	if cfg.Lambda < 4 {
		return nil, fmt.Errorf("cmaes: Config.Lambda = %d, want at least 4 (or 0 for the default)", cfg.Lambda)
	}
	if cfg.ReevalRate == 0 {
		cfg.ReevalRate = max(0.1, 2/float64(cfg.Lambda))
	}
	if !(cfg.ReevalRate > 0 && cfg.ReevalRate <= 1) {
		return nil, fmt.Errorf("cmaes: Config.ReevalRate = %v, want a value in (0, 1]", cfg.ReevalRate)
	}
	if cfg.Evals == 0 {
		cfg.Evals = 1
	}
	if cfg.Evals < 1 {
		return nil, fmt.Errorf("cmaes: Config.Evals = %d, want at least 1 (or 0 for 1)", cfg.Evals)
	}
	if cfg.MaxEvals == 0 {
		cfg.MaxEvals = cfg.Evals
	}
	if cfg.MaxEvals < cfg.Evals {
		return nil, fmt.Errorf("cmaes: Config.MaxEvals = %d, want at least Evals = %d", cfg.MaxEvals, cfg.Evals)
	}
	switch cfg.Treatment {
	case "":
		cfg.Treatment = "sigma"
	case "sigma", "evals", "decay":
	default:
		return nil, fmt.Errorf("cmaes: Config.Treatment = %q, want \"sigma\", \"evals\" or \"decay\"", cfg.Treatment)
	}
	if cfg.Theta == 0 {
		cfg.Theta = defaultTheta
	}
	if !(cfg.Theta > 0 && cfg.Theta < 1) {
		return nil, fmt.Errorf("cmaes: Config.Theta = %v, want a value in (0, 1)", cfg.Theta)
	}
	if cfg.MinStd != nil {
		if len(cfg.MinStd) != n {
			return nil, fmt.Errorf("cmaes: Config.MinStd has %d values, want Dim = %d", len(cfg.MinStd), n)
		}
		for i, v := range cfg.MinStd {
			if !(v >= 0 && v <= 0.5) {
				return nil, fmt.Errorf("cmaes: Config.MinStd[%d] = %v, want a value in [0, 0.5]", i, v)
			}
		}
	}
	if cfg.MaxGenerations < 0 {
		return nil, fmt.Errorf("cmaes: Config.MaxGenerations = %d, want at least 0 (0: no limit)", cfg.MaxGenerations)
	}
	if cfg.TolX == 0 {
		cfg.TolX = 1e-6
	}
	if !(cfg.TolX >= 0 && cfg.TolX < 1) {
		return nil, fmt.Errorf("cmaes: Config.TolX = %v, want a value in [0, 1)", cfg.TolX)
	}

	o := &Optimizer{cfg: cfg, n: n, lam: cfg.Lambda, mu: cfg.Lambda / 2}
	o.w = make([]float64, o.mu)
	var sum, sum2 float64
	for i := range o.w {
		o.w[i] = math.Log(float64(cfg.Lambda+1)/2) - math.Log(float64(i+1))
		sum += o.w[i]
	}
	for i := range o.w {
		o.w[i] /= sum
		sum2 += o.w[i] * o.w[i]
	}
	nf := float64(n)
	o.mueff = 1 / sum2
	o.cc = (4 + o.mueff/nf) / (nf + 4 + 2*o.mueff/nf)
	o.cs = (o.mueff + 2) / (nf + o.mueff + 5)
	o.c1 = 2 / ((nf+1.3)*(nf+1.3) + o.mueff)
	o.cmu = min(1-o.c1, 2*(o.mueff-2+1/o.mueff)/((nf+2)*(nf+2)+o.mueff))
	o.ds = 1 + 2*max(0, math.Sqrt((o.mueff-1)/(nf+1))-1) + o.cs
	o.chiN = math.Sqrt(nf) * (1 - 1/(4*nf) + 1/(21*nf*nf))
	o.rLam = cfg.ReevalRate
	o.alphaSigma = 1 + 2/(nf+10)
	o.alphaEvals = defaultAlphaEvals
	o.cUnc = defaultCUnc

	o.rng = rand.New(rand.NewPCG(cfg.Seed, 0x636d6165732d7063)) // "cmaes-pc"
	o.mean = make([]float64, n)
	if cfg.Mean != nil {
		copy(o.mean, cfg.Mean)
	} else {
		for i := range o.mean {
			o.mean[i] = 0.5
		}
	}
	o.sigma = cfg.Sigma
	o.pc = make([]float64, n)
	o.ps = make([]float64, n)
	o.C = mat.NewSymDense(n, nil)
	o.B = mat.NewDense(n, n, nil)
	o.D = make([]float64, n)
	for i := range n {
		o.C.SetSym(i, i, 1)
		o.B.Set(i, i, 1)
		o.D[i] = 1
	}
	o.evals = cfg.Evals
	o.x = make([][]float64, o.lam)
	o.y = make([][]float64, o.lam)
	back := make([]float64, 2*o.lam*n)
	for k := range o.lam {
		o.x[k] = back[2*k*n : (2*k+1)*n : (2*k+1)*n]
		o.y[k] = back[(2*k+1)*n : (2*k+2)*n : (2*k+2)*n]
	}
	o.repaired = make([]bool, o.lam)
	o.z = make([]float64, n)
	o.tmp = make([]float64, n)
	o.order = make([]int, o.lam)
	o.fsel = make([]float64, o.lam)
	o.cinv = make([]float64, n)
	o.uvals = make([]float64, 2*o.lam)
	o.ulim = make([]float64, 2*o.lam)
	o.uidx = make([]int, 2*o.lam)
	o.urank = make([]int, 2*o.lam)
	return o, nil
}

// Lambda returns the number of candidates per generation.
func (o *Optimizer) Lambda() int { return o.lam }

// Mean returns a copy of the distribution mean, the optimiser's current
// estimate of the optimum (a point of [0,1]^d). Report it, re-evaluated on
// fresh noise, rather than the best-scoring sample: under noise the best
// sample is mostly the luckiest one.
func (o *Optimizer) Mean() []float64 { return append([]float64(nil), o.mean...) }

// Sigma returns the current step size, in units of the box's side.
func (o *Optimizer) Sigma() float64 { return o.sigma }

// StdDevs returns sigma times the square root of each diagonal entry of the
// covariance matrix: the search distribution's standard deviation along
// each coordinate.
func (o *Optimizer) StdDevs() []float64 {
	s := make([]float64, o.n)
	for i := range s {
		s[i] = o.sigma * math.Sqrt(o.C.At(i, i))
	}
	return s
}

// generation returns the number of completed generations (Tell calls that
// succeeded).
func (o *Optimizer) generation() int { return o.gen }

// Evals returns the number of evaluations (for instance blocks of games)
// per candidate the caller should spend on the current generation, for each
// of the two evaluations of a re-evaluated candidate alike. It starts at
// Config.Evals and the uncertainty handling raises it (by a factor 1.5,
// rounded up, at most Config.MaxEvals) while the ranking is dominated by
// noise and lowers it again (down to Config.Evals) when it is not. It
// changes only in Tell.
func (o *Optimizer) Evals() int { return o.evals }

// Uncertainty returns the smoothed uncertainty measure s-bar of UH-CMA-ES
// (Hansen et al. 2009) and the last generation's raw value s.
// Positive means that re-evaluation changed ranks more than the threshold
// allows: the ranking is dominated by noise. Both are 0 when not Noisy.
func (o *Optimizer) Uncertainty() (smoothed, last float64) { return o.sbar, o.lastS }

// Ask returns the candidates of the current generation: Lambda points of
// [0,1]^d, in an order that matters (Tell takes their values in the same
// order). Until Tell, repeated calls return the same points. The returned
// slices are copies the caller may keep.
func (o *Optimizer) Ask() [][]float64 {
	if !o.asked {
		o.sample()
		o.asked = true
	}
	out := make([][]float64, o.lam)
	back := make([]float64, o.lam*o.n)
	for k := range out {
		out[k] = back[k*o.n : (k+1)*o.n : (k+1)*o.n]
		copy(out[k], o.x[k])
	}
	return out
}

// Reevaluate returns the indices, into Ask's points, of the candidates to be
// evaluated a second time on fresh noise (new seeds) this generation: the
// first r_lambda*Lambda of them, the fraction rounded at random (the points
// are independent draws, so the first ones are a random choice). It is nil
// unless Config.Noisy. It calls Ask's sampling if needed, so it may be
// called before Ask.
func (o *Optimizer) Reevaluate() []int {
	if !o.cfg.Noisy {
		return nil
	}
	if !o.asked {
		o.sample()
		o.asked = true
	}
	idx := make([]int, o.nReev)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// sample draws the generation's points and the number to re-evaluate.
//
// Bounds: a point m + sigma*B*D*z outside [0,1]^d is redrawn (new z) up to
// maxResample times; if still outside, each coordinate is reflected into the
// box (x -> -x below 0, x -> 2-x above 1, repeated). The update then uses the
// point actually evaluated, with its step y = (x - m)/sigma clipped to a
// Mahalanobis length of sqrt(n) + 2n/(n+2) (Hansen 2011, "Injecting external
// solutions into CMA-ES", arXiv:1110.4181), so that repaired points cannot
// inflate the step size.
func (o *Optimizer) sample() {
	n := o.n
	for k := range o.lam {
		x := o.x[k]
		inside := false
		for try := 0; try <= maxResample && !inside; try++ {
			for i := range n {
				o.z[i] = o.D[i] * o.rng.NormFloat64()
			}
			inside = true
			for i := range n {
				v := o.mean[i]
				for j := range n {
					v += o.sigma * o.B.At(i, j) * o.z[j]
				}
				x[i] = v
				if !(v >= 0 && v <= 1) {
					inside = false
				}
			}
		}
		o.repaired[k] = !inside
		if !inside {
			for i := range n {
				x[i] = reflect(x[i])
			}
		}
		y := o.y[k]
		for i := range n {
			y[i] = (x[i] - o.mean[i]) / o.sigma
		}
		if o.repaired[k] {
			if l, lim := o.mahalanobis(y), math.Sqrt(float64(n))+2*float64(n)/float64(n+2); l > lim {
				for i := range n {
					y[i] *= lim / l
				}
			}
		}
	}
	o.nReev = 0
	if o.cfg.Noisy {
		r := o.rLam * float64(o.lam)
		fl := math.Floor(r)
		o.nReev = int(fl)
		if o.rng.Float64() < r-fl {
			o.nReev++
		}
		o.nReev = min(o.nReev, o.lam)
	}
}

// maxResample is how many times a point outside the box is redrawn before it
// is reflected into it.
const maxResample = 10

// reflect maps v into [0,1] by mirroring at the bounds.
func reflect(v float64) float64 {
	v = math.Mod(math.Abs(v), 2) // mirror at 0, period 2
	if v > 1 {
		v = 2 - v
	}
	return v
}

// mahalanobis returns |C^{-1/2} y| = |D^{-1} B^T y|.
func (o *Optimizer) mahalanobis(y []float64) float64 {
	var s float64
	for j := range o.n {
		var v float64
		for i := range o.n {
			v += o.B.At(i, j) * y[i]
		}
		v /= o.D[j]
		s += v * v
	}
	return math.Sqrt(s)
}

// Tell takes the values of this generation's candidates: f[k] is the value
// of Ask()[k], and f2[i] the second, independent evaluation of candidate
// Reevaluate()[i] (f2 nil unless Config.Noisy). Values must be finite. A
// re-evaluated candidate is ranked by the mean of its two values. Tell
// updates the distribution and starts a new generation; on error the state
// is unchanged.
func (o *Optimizer) Tell(f, f2 []float64) error {
	if !o.asked {
		return errors.New("cmaes: Tell without Ask")
	}
	if o.stopped != "" {
		return fmt.Errorf("cmaes: Tell after the run stopped (%s)", o.stopped)
	}
	if len(f) != o.lam {
		return fmt.Errorf("cmaes: Tell got %d values, want Lambda = %d", len(f), o.lam)
	}
	if len(f2) != o.nReev {
		return fmt.Errorf("cmaes: Tell got %d second values, want %d (len(Reevaluate()))", len(f2), o.nReev)
	}
	for k, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("cmaes: value %d is %v, want a finite number", k, v)
		}
	}
	for k, v := range f2 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("cmaes: second value %d is %v, want a finite number", k, v)
		}
	}
	sign := 1.0
	if o.cfg.Maximize {
		sign = -1
	}
	for k, v := range f {
		o.fsel[k] = sign * v
	}
	if o.nReev > 0 {
		o.lastS = o.uncertainty(f, f2, sign)
		o.sbar = (1-o.cUnc)*o.sbar + o.cUnc*o.lastS
		for i, v := range f2 {
			o.fsel[i] = (o.fsel[i] + sign*v) / 2
		}
	}
	o.update()
	if o.cfg.Noisy && o.nReev > 0 {
		o.treatUncertainty()
	}
	o.gen++
	o.asked = false
	o.stopped = o.stopCondition()
	return nil
}

// uncertainty returns the uncertainty measure s of UH-CMA-ES for one
// generation (Hansen et al. 2009). The 2*Lambda values
// f_1..f_Lambda, f'_1..f'_Lambda are ranked together, where f'_k is the
// second value of a re-evaluated candidate and f'_k = f_k for the others.
// For each re-evaluated candidate the rank change Delta = |R' - R| - 1 is
// compared with the theta/2 quantile of the rank changes a random rank would
// give:
//
//	s = 1/nReev sum_i (2 Delta_i - lim(R'_i - [R'_i > R_i]) - lim(R_i - [R_i > R'_i]))
//
// where lim(R) is the theta/2 quantile of {|1-R|, ..., |2 Lambda - 1 - R|}.
// Ties are ranked by index, first values before second ones.
func (o *Optimizer) uncertainty(f, f2 []float64, sign float64) float64 {
	lam := o.lam
	N := 2 * lam
	vals := o.uvals
	for k, v := range f {
		vals[k] = sign * v
		vals[lam+k] = sign * v
	}
	for i, v := range f2 {
		vals[lam+i] = sign * v
	}
	idx := o.uidx
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
	rank := o.urank // 1-based
	for r, i := range idx {
		rank[i] = r + 1
	}
	var s float64
	for i := range o.nReev {
		r1, r2 := rank[i], rank[lam+i]
		delta := abs(r2-r1) - 1
		a, b := r2, r1
		if r2 > r1 {
			a--
		} else {
			b--
		}
		s += 2*float64(delta) - o.rankLimit(a, N) - o.rankLimit(b, N)
	}
	return s / float64(o.nReev)
}

// rankLimit returns the theta/2 quantile of {|k - R| : k = 1, ..., N-1},
// with linear interpolation between order statistics.
func (o *Optimizer) rankLimit(R, N int) float64 {
	d := o.ulim[:N-1]
	for k := 1; k < N; k++ {
		d[k-1] = float64(abs(k - R))
	}
	slices.Sort(d)
	p := o.cfg.Theta / 2 * float64(len(d)-1)
	lo := int(math.Floor(p))
	if lo >= len(d)-1 {
		return d[len(d)-1]
	}
	return d[lo] + (p-float64(lo))*(d[lo+1]-d[lo])
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// treatUncertainty applies the UH-CMA-ES treatment after the update: when
// the smoothed measure is positive, Evals grows by 1.5 (rounded up) while it
// is below MaxEvals, and otherwise sigma grows by 1 + 2/(n+10) ("sigma"),
// stays ("evals") or shrinks by that factor ("decay"); when it is
// negative, Evals shrinks by 1.5 (rounded down, at least Config.Evals).
func (o *Optimizer) treatUncertainty() {
	switch {
	case o.sbar > 0:
		switch {
		case o.evals < o.cfg.MaxEvals:
			o.evals = min(o.cfg.MaxEvals, int(math.Ceil(float64(o.evals)*o.alphaEvals)))
		case o.cfg.Treatment == "sigma":
			o.sigma *= o.alphaSigma
		case o.cfg.Treatment == "decay":
			o.sigma /= o.alphaSigma
		}
	case o.sbar < 0:
		o.evals = max(o.cfg.Evals, int(math.Floor(float64(o.evals)/o.alphaEvals)))
	}
	o.capSigma()
}

// capSigma keeps sigma times the largest standard deviation at most 1 (the
// box's side): a wider distribution would only sample the bounds.
func (o *Optimizer) capSigma() {
	var m float64
	for i := range o.n {
		m = max(m, o.C.At(i, i))
	}
	if lim := 1 / math.Sqrt(m); o.sigma > lim {
		o.sigma = lim
	}
}

// update moves the mean, the evolution paths, the covariance matrix and the
// step size (the tutorial's update, c_m = 1, positive weights).
func (o *Optimizer) update() {
	n := o.n
	for k := range o.order {
		o.order[k] = k
	}
	slices.SortStableFunc(o.order, func(a, b int) int { return cmp.Compare(o.fsel[a], o.fsel[b]) })

	// y_w = sum w_i y_{i:lambda}; mean += sigma*y_w.
	yw := o.tmp
	clear(yw)
	for r := range o.mu {
		y := o.y[o.order[r]]
		for i := range n {
			yw[i] += o.w[r] * y[i]
		}
	}
	for i := range n {
		o.mean[i] = min(max(o.mean[i]+o.sigma*yw[i], 0), 1)
	}

	// p_sigma = (1-cs) p_sigma + sqrt(cs(2-cs)mueff) C^{-1/2} y_w.
	cinv := o.cinv
	for j := range n {
		var v float64
		for i := range n {
			v += o.B.At(i, j) * yw[i]
		}
		o.z[j] = v / o.D[j]
	}
	for i := range n {
		var v float64
		for j := range n {
			v += o.B.At(i, j) * o.z[j]
		}
		cinv[i] = v
	}
	a := math.Sqrt(o.cs * (2 - o.cs) * o.mueff)
	var psn float64
	for i := range n {
		o.ps[i] = (1-o.cs)*o.ps[i] + a*cinv[i]
		psn += o.ps[i] * o.ps[i]
	}
	psn = math.Sqrt(psn)
	hsig := 0.0
	if psn/math.Sqrt(1-math.Pow(1-o.cs, 2*float64(o.gen+1))) < (1.4+2/float64(n+1))*o.chiN {
		hsig = 1
	}
	ac := hsig * math.Sqrt(o.cc*(2-o.cc)*o.mueff)
	for i := range n {
		o.pc[i] = (1-o.cc)*o.pc[i] + ac*yw[i]
	}

	// C = (1 - c1 - cmu) C + c1 (pc pc^T + (1-hsig) cc(2-cc) C) + cmu sum w_i y_i y_i^T.
	keep := 1 - o.c1 - o.cmu + (1-hsig)*o.c1*o.cc*(2-o.cc)
	for i := range n {
		for j := i; j < n; j++ {
			v := keep*o.C.At(i, j) + o.c1*o.pc[i]*o.pc[j]
			var r1 float64
			for r := range o.mu {
				y := o.y[o.order[r]]
				r1 += o.w[r] * y[i] * y[j]
			}
			o.C.SetSym(i, j, v+o.cmu*r1)
		}
	}

	// sigma *= exp(cs/ds (|p_sigma|/chiN - 1)).
	o.sigma *= math.Exp(o.cs / o.ds * (psn/o.chiN - 1))
	o.raiseMinStd()
	o.decompose()
	o.capSigma()
}

// raiseMinStd enlarges the diagonal entries of C whose standard deviation
// sigma*sqrt(C_ii) is below Config.MinStd[i] to exactly that bound. Adding
// to the diagonal keeps C positive definite.
func (o *Optimizer) raiseMinStd() {
	for i, m := range o.cfg.MinStd {
		if want := (m / o.sigma) * (m / o.sigma); o.C.At(i, i) < want {
			o.C.SetSym(i, i, want)
		}
	}
}

// decompose refreshes B and D from C. If the factorisation fails (it
// should not for a symmetric matrix) the previous B and D are kept.
func (o *Optimizer) decompose() {
	if !o.eig.Factorize(o.C, true) {
		return
	}
	vals := o.eig.Values(nil)
	o.eig.VectorsTo(o.B)
	for i, v := range vals {
		o.D[i] = math.Sqrt(max(v, 1e-300))
	}
}

// stopCondition returns why the run should stop, or "".
func (o *Optimizer) stopCondition() string {
	if o.cfg.MaxGenerations > 0 && o.gen >= o.cfg.MaxGenerations {
		return fmt.Sprintf("maxgenerations: %d generations done", o.gen)
	}
	var sd float64
	for i := range o.n {
		sd = max(sd, o.sigma*math.Sqrt(o.C.At(i, i)))
	}
	if sd < o.cfg.TolX {
		return fmt.Sprintf("tolx: largest standard deviation %.3g below %g", sd, o.cfg.TolX)
	}
	dmin, dmax := math.Inf(1), 0.0
	for _, d := range o.D {
		dmin, dmax = min(dmin, d), max(dmax, d)
	}
	if dmax*dmax > 1e14*dmin*dmin {
		return fmt.Sprintf("conditioncov: condition number of C %.3g above 1e14", dmax*dmax/(dmin*dmin))
	}
	return ""
}

// Stop reports whether the run should stop and why: "maxgenerations"
// (Config.MaxGenerations reached), "tolx" (the distribution's largest
// standard deviation is below Config.TolX) or "conditioncov" (the
// covariance matrix's condition number exceeds 1e14). Under noise a run is
// usually ended by the caller's budget or MaxGenerations: the uncertainty
// handling keeps sigma from collapsing.
func (o *Optimizer) Stop() (bool, string) { return o.stopped != "", o.stopped }
