package search

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/search/cmaes"
	"github.com/marslab-risk/marslab/stats"
)

// EvolveConfig configures a CMA-ES search (package cmaes) over the
// normalised box of Space.
type EvolveConfig struct {
	// Space is the searched parameters; Start the initial mean's values
	// (the base parameters, clamped into the searched ranges).
	Space Space
	Start []float64
	// Generations is the number of generations, >= 1.
	Generations int
	// Lambda is the population (0 = 4 + floor(3 ln d)); Sigma the initial
	// step size in normalised units, in (0, 1].
	Lambda int
	Sigma  float64
	// Blocks is the number of blocks each candidate plays per generation
	// at first, maxBlocks the most the uncertainty handling may raise it
	// to (>= Blocks).
	Blocks, MaxBlocks int
	// Reeval re-evaluates a share of each generation on fresh blocks
	// (UH-CMA-ES uncertainty handling).
	Reeval bool
	// MeanBlocks is the number of blocks the distribution mean plays each
	// generation (its estimate, not used by the optimiser), >= 1;
	// FinalBlocks the blocks of the last step, the final mean's estimate.
	MeanBlocks, FinalBlocks int
	// Noise is what the uncertainty handling does to sigma once the
	// blocks per candidate are at MaxBlocks and noise still dominates the
	// ranking: "sigma" (or "", UH-CMA-ES) increases it, "evals" leaves it,
	// "decay" decreases it (cmaes.Treatment).
	Noise string
	// Seed seeds the optimiser's sampling.
	Seed uint64
}

// noiseTreatments are the values of EvolveConfig.Noise.
var noiseTreatments = map[string]bool{"": true, "sigma": true, "evals": true, "decay": true}

// Generation is the record of one CMA-ES generation.
type Generation struct {
	// Mean holds the distribution mean's values at the start of the
	// generation, and its win rate over MeanBlocks blocks (Wins of Games).
	Mean        []float64
	Wins, Games int
	// Best holds the values of the best-scoring candidate and BestScore
	// its win rate (the luckiest sample: not an estimate).
	Best      []float64
	BestScore float64
	// Sigma is the step size, Evals the blocks per candidate, and
	// Uncertainty the smoothed UH-CMA-ES measure (> 0: noise dominates).
	Sigma       float64
	Evals       int
	Uncertainty float64
	// StdDevs is the distribution's standard deviation per coordinate.
	StdDevs []float64
}

// Wilson returns the 95 % Wilson interval of the mean's win rate.
func (g *Generation) Wilson() stats.Interval { return wilson95(g.Wins, g.Games) }

// Evolve is the Method of a CMA-ES search: step g < Generations plays the
// generation's Lambda candidates on Evals common blocks, the re-evaluated
// ones on as many fresh blocks, and the distribution mean on MeanBlocks
// blocks; the last step plays the final mean on FinalBlocks blocks. Block
// numbers: generation g uses g·(2·maxBlocks + MeanBlocks) onwards, the final
// step Generations·(2·maxBlocks + MeanBlocks) onwards. The result is the
// final distribution mean with its win rate on the last step's blocks, not
// the luckiest sample. Integer and choice parameters keep a standard
// deviation of at least 1/(2k) of the box, k their number of values, so that
// rounding does not freeze them.
type Evolve struct {
	cfg   EvolveConfig
	opt   *cmaes.Optimizer
	gens  []Generation
	final *Generation
	// current step's layout
	xs     [][]float64
	reev   []int
	evals  int
	stride int
}

// NewEvolve returns a CMA-ES search.
func NewEvolve(cfg EvolveConfig) (*Evolve, error) {
	switch {
	case len(cfg.Space) == 0:
		return nil, fmt.Errorf("search: evolve: no parameter to search")
	case len(cfg.Start) != len(cfg.Space):
		return nil, fmt.Errorf("search: evolve: %d start values for %d parameters", len(cfg.Start), len(cfg.Space))
	case cfg.Generations < 1 || cfg.Generations > maxGenerations:
		return nil, fmt.Errorf("search: evolve: generations %d: want 1..%d", cfg.Generations, maxGenerations)
	case cfg.Lambda < 0 || cfg.Lambda > maxLambda:
		return nil, fmt.Errorf("search: evolve: lambda %d: want 4..%d (0 = the default)", cfg.Lambda, maxLambda)
	case cfg.Blocks < 1 || cfg.MaxBlocks < cfg.Blocks || cfg.MaxBlocks > maxBlocks:
		return nil, fmt.Errorf("search: evolve: blocks %d, max %d: want 1 <= blocks <= max <= %d", cfg.Blocks, cfg.MaxBlocks, maxBlocks)
	case cfg.MeanBlocks < 1 || cfg.FinalBlocks < 1 || cfg.MeanBlocks > maxBlocks || cfg.FinalBlocks > maxBlocks:
		return nil, fmt.Errorf("search: evolve: mean blocks %d, final blocks %d: want 1..%d", cfg.MeanBlocks, cfg.FinalBlocks, maxBlocks)
	case cfg.Lambda*2*cfg.MaxBlocks+cfg.MeanBlocks > maxStepBlocks:
		return nil, fmt.Errorf("search: evolve: lambda %d, max blocks %d, mean blocks %d: %d blocks per generation: want at most %d", cfg.Lambda, cfg.MaxBlocks, cfg.MeanBlocks, cfg.Lambda*2*cfg.MaxBlocks+cfg.MeanBlocks, maxStepBlocks)
	}
	for _, d := range cfg.Space {
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("search: evolve: %w", err)
		}
	}
	u := cfg.Space.units(cfg.Start)
	for i := range u {
		u[i] = min(1, max(0, u[i]))
	}
	// Integer and choice parameters keep a standard deviation of at least
	// half a level, 1/(2k) for k levels, so that they keep moving.
	var minStd []float64
	for i, d := range cfg.Space {
		if d.Param.Integer {
			if minStd == nil {
				minStd = make([]float64, len(cfg.Space))
			}
			k := math.Floor(d.Hi) - math.Ceil(d.Lo) + 1
			minStd[i] = min(0.5, 1/(2*k))
		}
	}
	if !noiseTreatments[cfg.Noise] {
		return nil, fmt.Errorf("search: evolve: noise %q: want sigma, evals or decay", cfg.Noise)
	}
	opt, err := cmaes.New(cmaes.Config{Dim: len(cfg.Space), Mean: u, Sigma: cfg.Sigma, Lambda: cfg.Lambda, Seed: cfg.Seed,
		Maximize: true, Noisy: cfg.Reeval, Evals: cfg.Blocks, MaxEvals: cfg.MaxBlocks, MinStd: minStd, Treatment: cfg.Noise})
	if err != nil {
		return nil, fmt.Errorf("search: evolve: %w", err)
	}
	cfg.Lambda = opt.Lambda()
	return &Evolve{cfg: cfg, opt: opt, stride: 2*cfg.MaxBlocks + cfg.MeanBlocks}, nil
}

// steps returns Generations + 1 (the final mean's evaluation).
func (e *Evolve) steps() int { return e.cfg.Generations + 1 }

// Config returns the search's configuration, its Lambda the population
// size (the default's value when 0 was asked for).
func (e *Evolve) Config() EvolveConfig { return e.cfg }

// Generations returns the generations told so far.
func (e *Evolve) Generations() []Generation { return e.gens }

// Final returns the final mean's record (nil until the last step).
func (e *Evolve) Final() *Generation { return e.final }

// next returns the evaluations of the next generation, or of the final
// mean.
func (e *Evolve) next() ([]Eval, error) {
	g := len(e.gens)
	var ev []Eval
	if g == e.cfg.Generations {
		x := e.cfg.Space.Values(e.opt.Mean())
		first := g * e.stride
		for b := 0; b < e.cfg.FinalBlocks; b++ {
			ev = append(ev, Eval{Cand: 0, X: x, Block: first + b})
		}
		return ev, nil
	}
	if g > e.cfg.Generations {
		return nil, fmt.Errorf("evolve: no step after %d", e.steps())
	}
	us := e.opt.Ask()
	e.reev = e.opt.Reevaluate()
	e.evals = e.opt.Evals()
	e.xs = make([][]float64, len(us))
	for k, u := range us {
		e.xs[k] = e.cfg.Space.Values(u)
	}
	first := g * e.stride
	cand := 0
	for _, x := range e.xs {
		for b := 0; b < e.evals; b++ {
			ev = append(ev, Eval{Cand: cand, X: x, Block: first + b})
		}
		cand++
	}
	for _, k := range e.reev {
		for b := 0; b < e.evals; b++ {
			ev = append(ev, Eval{Cand: cand, X: e.xs[k], Block: first + e.cfg.MaxBlocks + b})
		}
		cand++
	}
	mean := e.cfg.Space.Values(e.opt.Mean())
	for b := 0; b < e.cfg.MeanBlocks; b++ {
		ev = append(ev, Eval{Cand: cand, X: mean, Block: first + 2*e.cfg.MaxBlocks + b})
	}
	return ev, nil
}

// tell gives the generation's results to the optimiser.
func (e *Evolve) tell(res []Result) error {
	g := len(e.gens)
	if g == e.cfg.Generations {
		if e.final != nil {
			return fmt.Errorf("evolve: no step after %d", e.steps())
		}
		f := Generation{Mean: e.cfg.Space.Values(e.opt.Mean()), Sigma: e.opt.Sigma(), StdDevs: e.opt.StdDevs(), Evals: e.evals}
		for _, r := range res {
			f.Wins += r.Wins
			f.Games += r.Games
		}
		e.final = &f
		return nil
	}
	want := (len(e.xs)+len(e.reev))*e.evals + e.cfg.MeanBlocks
	if len(res) != want {
		return fmt.Errorf("evolve: %d results: want %d", len(res), want)
	}
	score := func(rs []Result) float64 {
		w, n := 0, 0
		for _, r := range rs {
			w += r.Wins
			n += r.Games
		}
		return float64(w) / float64(n)
	}
	f := make([]float64, len(e.xs))
	k := 0
	for i := range f {
		f[i] = score(res[k : k+e.evals])
		k += e.evals
	}
	var f2 []float64
	for range e.reev {
		f2 = append(f2, score(res[k:k+e.evals]))
		k += e.evals
	}
	gen := Generation{Mean: e.cfg.Space.Values(e.opt.Mean()), Sigma: e.opt.Sigma(), Evals: e.evals, StdDevs: e.opt.StdDevs()}
	for _, r := range res[k:] {
		gen.Wins += r.Wins
		gen.Games += r.Games
	}
	best := 0
	for i := range f {
		if f[i] > f[best] {
			best = i
		}
	}
	gen.Best, gen.BestScore = e.xs[best], f[best]
	if !e.cfg.Reeval {
		f2 = nil
	}
	if err := e.opt.Tell(f, f2); err != nil {
		return fmt.Errorf("evolve: %w", err)
	}
	gen.Uncertainty, _ = e.opt.Uncertainty()
	e.gens = append(e.gens, gen)
	return nil
}

// status describes the generation and the mean's last estimate.
func (e *Evolve) status() string {
	s := fmt.Sprintf("generation %d/%d, sigma %.3f, %d blocks per candidate", len(e.gens)+1, e.cfg.Generations, e.opt.Sigma(), e.opt.Evals())
	if len(e.gens) == e.cfg.Generations {
		s = fmt.Sprintf("final mean, sigma %.3f", e.opt.Sigma())
		if f := e.final; f != nil {
			iv := f.Wilson()
			return s + fmt.Sprintf(": %.3f [%.3f, %.3f] over %d games", float64(f.Wins)/float64(f.Games), iv.Lo, iv.Hi, f.Games)
		}
	}
	if n := len(e.gens); n > 0 {
		g := &e.gens[n-1]
		iv := g.Wilson()
		s += fmt.Sprintf("; mean %.3f [%.3f, %.3f]", float64(g.Wins)/float64(g.Games), iv.Lo, iv.Hi)
	}
	return s
}

// Recommend returns the distribution mean's values: the point CMA-ES would
// ship if stopped now.
func (e *Evolve) Recommend() []float64 { return e.cfg.Space.Values(e.opt.Mean()) }
