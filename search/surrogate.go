package search

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// surrogateConfig configures a Bayesian optimisation (package search/gp):
// a Gaussian process with a noise model fitted to (point, win rate, games),
// the next points chosen by expected improvement under noise over the best
// posterior mean among the points evaluated.
type surrogateConfig struct {
	// Space is the searched parameters; Start the first point's values.
	Space Space
	Start []float64
	// Init is the initial design: the start and Init-1 points of a Latin
	// hypercube of the box, >= 2. Batch is the points each later step
	// proposes, >= 1, and Rounds the number of those steps, >= 1.
	Init, Batch, Rounds int
	// Blocks is the blocks each point plays; the points of a step share
	// the step's blocks (common random numbers).
	Blocks int
	// Candidates is the number of random points the expected improvement
	// is maximised over (0 = 1000); Window the most points the process is
	// fitted on, those nearest the incumbent (0 = 200).
	Candidates, Window int
	// FinalBlocks is the blocks the last step plays the recommendation on.
	FinalBlocks int
	// Seed seeds the design and the candidates.
	Seed uint64
}

// surPoint is a point evaluated by the surrogate search.
type surPoint struct {
	x, u        []float64
	scores      []float64 // block win rates
	wins, games int
	mu          float64 // posterior mean at the last fit
}

// surrogateSearch is the Method of a surrogate search (surrogateConfig): step 0
// plays the initial design on blocks 0..Blocks-1, step s in 1..Rounds its
// Batch points on blocks s·Blocks onwards, and the last step the
// recommendation on FinalBlocks blocks from (Rounds+1)·Blocks. A point
// proposed again adds blocks to its record. The noise variance of a
// point's win rate is the pooled variance of the block win rates divided
// by its blocks. The recommendation is the point of largest posterior mean
// among those evaluated (in the fitted window).
type surrogateSearch struct {
	cfg    surrogateConfig
	pts    []*surPoint
	index  map[string]int
	step   int
	asked  []int // the step's points
	inc    int   // incumbent: index into pts, -1 before the first fit
	model  *gpModel
	final  *estimate
	rounds []surrogateRound
}

// surrogateRound is the record of one surrogate step.
type surrogateRound struct {
	// Points is the number of distinct points evaluated so far; Incumbent
	// the recommendation's values and Mu its posterior mean.
	Points    int
	Incumbent []float64
	Mu        float64
	// LengthScale is the fitted length scale; EI the largest expected
	// improvement of the step's proposals (0 for the initial design).
	LengthScale, EI float64
}

// newSurrogate returns a surrogate search.
func newSurrogate(cfg surrogateConfig) (*surrogateSearch, error) {
	if _, err := checkStart("surrogate", cfg.Space, cfg.Start); err != nil {
		return nil, err
	}
	if cfg.Candidates == 0 {
		cfg.Candidates = 1000
	}
	if cfg.Window == 0 {
		cfg.Window = 200
	}
	switch {
	case cfg.Init < 2 || cfg.Init > 10000 || cfg.Batch < 1 || cfg.Batch > 1000:
		return nil, fmt.Errorf("search: surrogate: init %d, batch %d: want init 2..10000, batch 1..1000", cfg.Init, cfg.Batch)
	case cfg.Rounds < 1 || cfg.Rounds > maxGenerations:
		return nil, fmt.Errorf("search: surrogate: rounds %d: want 1..%d", cfg.Rounds, maxGenerations)
	case cfg.Blocks < 1 || cfg.Blocks > maxBlocks || cfg.FinalBlocks < 1 || cfg.FinalBlocks > maxBlocks:
		return nil, fmt.Errorf("search: surrogate: blocks %d, final blocks %d: want 1..%d", cfg.Blocks, cfg.FinalBlocks, maxBlocks)
	case cfg.Candidates < 1 || cfg.Candidates > 1000000 || cfg.Window < 4 || cfg.Window > 2000:
		return nil, fmt.Errorf("search: surrogate: candidates %d, window %d: want 1..1000000 and 4..2000", cfg.Candidates, cfg.Window)
	}
	return &surrogateSearch{cfg: cfg, index: map[string]int{}, inc: -1}, nil
}

// steps returns Rounds + 2: the initial design, the rounds and the final
// estimate.
func (s *surrogateSearch) steps() int { return s.cfg.Rounds + 2 }

// rng returns the random stream of step k.
func (s *surrogateSearch) rng(k int) *rand.Rand {
	return rand.New(rand.NewPCG(s.cfg.Seed, 0x7375727267700000+uint64(k))) // "surrgp"
}

// point returns the index of the point at normalised coordinates u
// (rounded to its values), adding it.
func (s *surrogateSearch) point(u []float64) int {
	x := s.cfg.Space.Values(u)
	k := key(x)
	if i, ok := s.index[k]; ok {
		return i
	}
	s.pts = append(s.pts, &surPoint{x: x, u: s.cfg.Space.units(x)})
	s.index[k] = len(s.pts) - 1
	return len(s.pts) - 1
}

// next returns the step's points on its blocks.
func (s *surrogateSearch) next() ([]Eval, error) {
	switch {
	case s.step > s.cfg.Rounds+1:
		return nil, fmt.Errorf("surrogate: no step after %d", s.steps())
	case s.step == s.cfg.Rounds+1:
		return finalEvals(s.Recommend(), (s.cfg.Rounds+1)*s.cfg.Blocks, s.cfg.FinalBlocks), nil
	}
	s.asked = s.asked[:0]
	if s.step == 0 {
		u0, _ := checkStart("surrogate", s.cfg.Space, s.cfg.Start)
		s.asked = append(s.asked, s.point(u0))
		for _, u := range latinHypercube(s.rng(0), s.cfg.Init-1, len(s.cfg.Space)) {
			if i := s.point(u); !slices.Contains(s.asked, i) {
				s.asked = append(s.asked, i)
			}
		}
	} else {
		ei, err := s.propose()
		if err != nil {
			return nil, err
		}
		s.rounds[len(s.rounds)-1].EI = ei
	}
	first := s.step * s.cfg.Blocks
	var ev []Eval
	for c, i := range s.asked {
		for b := 0; b < s.cfg.Blocks; b++ {
			ev = append(ev, Eval{Cand: c, X: s.pts[i].x, Block: first + b})
		}
	}
	return ev, nil
}

// latinHypercube returns n points of a Latin hypercube of [0,1]^d: each
// coordinate's n strata hold one point each.
func latinHypercube(rng *rand.Rand, n, d int) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = make([]float64, d)
	}
	for j := 0; j < d; j++ {
		perm := rng.Perm(n)
		for i := range pts {
			pts[i][j] = (float64(perm[i]) + rng.Float64()) / float64(n)
		}
	}
	return pts
}

// tell records the step's results and refits the process.
func (s *surrogateSearch) tell(res []Result) error {
	if s.step == s.cfg.Rounds+1 {
		if s.final != nil || len(res) != s.cfg.FinalBlocks {
			return fmt.Errorf("surrogate: final step: %d results, want %d", len(res), s.cfg.FinalBlocks)
		}
		s.final = tallyEstimate(s.Recommend(), res)
		s.step++
		return nil
	}
	if len(res) != len(s.asked)*s.cfg.Blocks {
		return fmt.Errorf("surrogate: %d results: want %d", len(res), len(s.asked)*s.cfg.Blocks)
	}
	for c, i := range s.asked {
		p := s.pts[i]
		for _, r := range res[c*s.cfg.Blocks : (c+1)*s.cfg.Blocks] {
			p.scores = append(p.scores, r.score())
			p.wins += r.Wins
			p.games += r.Games
		}
	}
	if err := s.fit(); err != nil {
		return err
	}
	inc := s.pts[s.inc]
	s.rounds = append(s.rounds, surrogateRound{Points: len(s.pts), Incumbent: inc.x, Mu: inc.mu, LengthScale: s.model.lengthScale()})
	s.step++
	return nil
}

// noise returns the pooled variance of a block's win rate.
func (s *surrogateSearch) noise() float64 {
	var ss float64
	df := 0
	for _, p := range s.pts {
		if len(p.scores) < 2 {
			continue
		}
		m := 0.0
		for _, v := range p.scores {
			m += v
		}
		m /= float64(len(p.scores))
		for _, v := range p.scores {
			ss += (v - m) * (v - m)
		}
		df += len(p.scores) - 1
	}
	if df < 2 {
		return 0.25 // a fair coin's variance, before any estimate
	}
	return max(ss/float64(df), 1e-4)
}

// window returns the points the process is fitted on: all, or the Window
// nearest the incumbent (ties by index).
func (s *surrogateSearch) window() []int {
	idx := make([]int, 0, len(s.pts))
	for i, p := range s.pts {
		if p.games > 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) <= s.cfg.Window || s.inc < 0 {
		return idx
	}
	c := s.pts[s.inc].u
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(dist(s.pts[a].u, c), dist(s.pts[b].u, c)) })
	idx = idx[:s.cfg.Window]
	slices.Sort(idx)
	return idx
}

func dist(a, b []float64) float64 {
	var t float64
	for i := range a {
		d := a[i] - b[i]
		t += d * d
	}
	return math.Sqrt(t)
}

// fit refits the process on the window and moves the incumbent to the
// point of largest posterior mean.
func (s *surrogateSearch) fit() error {
	idx := s.window()
	v := s.noise()
	x := make([][]float64, len(idx))
	y := make([]float64, len(idx))
	nv := make([]float64, len(idx))
	for k, i := range idx {
		p := s.pts[i]
		x[k] = p.u
		y[k] = float64(p.wins) / float64(p.games)
		nv[k] = v / float64(len(p.scores))
	}
	m, err := gpFit(x, y, nv)
	if err != nil {
		return fmt.Errorf("surrogate: %w", err)
	}
	s.model = m
	best := -1
	for _, i := range idx {
		p := s.pts[i]
		p.mu, _ = m.predict(p.u)
		if best < 0 || p.mu > s.pts[best].mu {
			best = i
		}
	}
	s.inc = best
	return nil
}

// propose chooses the step's Batch points by expected improvement over the
// incumbent's posterior mean, each after the last believed at its mean
// (kriging believer), and returns the largest expected improvement.
func (s *surrogateSearch) propose() (float64, error) {
	rng := s.rng(s.step)
	idx := s.window()
	var ys, nvs []float64
	v := s.noise()
	for _, i := range idx {
		p := s.pts[i]
		ys = append(ys, float64(p.wins)/float64(p.games))
		nvs = append(nvs, v/float64(len(p.scores)))
	}
	// The candidates: uniform points, and Gaussian steps around the
	// incumbent and the next best points.
	d := len(s.cfg.Space)
	order := append([]int(nil), idx...)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.pts[b].mu, s.pts[a].mu) })
	var cands [][]float64
	nu := s.cfg.Candidates / 2
	for range nu {
		u := make([]float64, d)
		for j := range u {
			u[j] = rng.Float64()
		}
		cands = append(cands, u)
	}
	scales := []float64{0.02, 0.05, 0.1, 0.2}
	for k := 0; len(cands) < s.cfg.Candidates; k++ {
		c := s.pts[order[k%min(3, len(order))]].u
		sd := scales[(k/3)%len(scales)]
		u := make([]float64, d)
		for j := range u {
			u[j] = min(1, max(0, c[j]+sd*rng.NormFloat64()))
		}
		cands = append(cands, u)
	}
	level := s.pts[s.inc].mu
	m := s.model
	top := 0.0
	for b := 0; b < s.cfg.Batch; b++ {
		bi, bv, bmu := -1, -1.0, 0.0
		for ci, u := range cands {
			if u == nil {
				continue
			}
			mu, va := m.predict(u)
			if ei := expectedImprovement(mu, math.Sqrt(va), level); ei > bv {
				bi, bv, bmu = ci, ei, mu
			}
		}
		if bi < 0 {
			break
		}
		if b == 0 {
			top = bv
		}
		u := cands[bi]
		cands[bi] = nil
		i := s.point(u)
		if !slices.Contains(s.asked, i) {
			s.asked = append(s.asked, i)
		}
		if b+1 < s.cfg.Batch {
			var err error
			if m, err = m.with(s.pts[i].u, bmu, v/float64(s.cfg.Blocks), ys, nvs); err != nil {
				return 0, fmt.Errorf("surrogate: %w", err)
			}
			ys = append(ys, bmu)
			nvs = append(nvs, v/float64(s.cfg.Blocks))
		}
	}
	return top, nil
}

// Recommend returns the evaluated point of largest posterior mean (the
// start before the first fit).
func (s *surrogateSearch) Recommend() []float64 {
	if s.inc < 0 {
		u, _ := checkStart("surrogate", s.cfg.Space, s.cfg.Start)
		return s.cfg.Space.Values(u)
	}
	return s.pts[s.inc].x
}

// status describes the step and the incumbent.
func (s *surrogateSearch) status() string {
	if s.final != nil {
		iv := s.final.Wilson()
		return fmt.Sprintf("done: recommendation %.3f [%.3f, %.3f] over %d games", s.final.Rate(), iv.Lo, iv.Hi, s.final.Games)
	}
	st := fmt.Sprintf("step %d/%d, %d points", s.step+1, s.steps(), len(s.pts))
	if s.inc >= 0 {
		st += fmt.Sprintf(", incumbent posterior mean %.3f", s.pts[s.inc].mu)
	}
	return st
}
