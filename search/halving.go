package search

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/marslab-risk/marslab/search/cmaes"
)

// A proposer proposes the candidates of each bracket of a successive
// halving (halvingSearch) and learns from how far each got.
type proposer interface {
	// Propose returns the bracket's candidates, points of the normalised
	// box (the same number every bracket).
	Propose() [][]float64
	// Observe gives the bracket's outcome: value[k] ranks Propose()[k]
	// (larger is better: the rounds it survived plus its win rate).
	Observe(value []float64) error
}

// proposers are the names of the proposers halvingConfig.Proposer takes.
var proposers = []string{"cmaes", "random"}

// cmaesProposer proposes a CMA-ES generation per bracket and tells it the
// ranking of the halving.
type cmaesProposer struct{ opt *cmaes.Optimizer }

func (p *cmaesProposer) Propose() [][]float64 { return p.opt.Ask() }
func (p *cmaesProposer) Observe(v []float64) error {
	return p.opt.Tell(v, nil)
}

// randomProposer proposes points of a Latin hypercube of the box.
type randomProposer struct {
	rng     *rand.Rand
	n, dims int
}

func (p *randomProposer) Propose() [][]float64    { return latinHypercube(p.rng, p.n, p.dims) }
func (p *randomProposer) Observe([]float64) error { return nil }

// halvingConfig configures successive halving of blocks among candidates:
// each bracket races the incumbent and Candidates proposals; every round
// the candidates alive play new common blocks, twice as many as the
// round before, and the better half (by win rate over every block of the
// bracket, all of them common: a paired comparison) goes on, until one is
// left: the new incumbent.
type halvingConfig struct {
	// Space is the searched parameters; Start the first incumbent's values.
	Space Space
	Start []float64
	// Brackets is the number of brackets, >= 1; Candidates the proposals
	// of each, >= 2; Blocks the blocks of a bracket's first round, >= 1
	// (round r plays Blocks·2^r).
	Brackets, Candidates, Blocks int
	// Proposer names the proposer: "cmaes" (a CMA-ES generation per
	// bracket, ranked by the halving) or "random" (a Latin hypercube of
	// the box).
	Proposer string
	// Sigma is the CMA-ES proposer's initial step size, in (0, 1] (0 =
	// 0.2).
	Sigma float64
	// FinalBlocks is the blocks the last step plays the incumbent on.
	FinalBlocks int
	// Seed seeds the proposer.
	Seed uint64
}

// halvingSearch is the Method of successive halving (halvingConfig): bracket j,
// round r plays the candidates alive (Cand 0 the incumbent, 1..Candidates
// the proposals) on blocks j·Blocks·(2^R−1) + Blocks·(2^r−1) onwards, R
// the rounds of a bracket, ceil(log2(Candidates+1)); the last step plays
// the incumbent on FinalBlocks blocks from Brackets·Blocks·(2^R−1). The
// recommendation is the incumbent, the last bracket's winner.
type halvingSearch struct {
	cfg      halvingConfig
	prop     proposer
	rounds   int
	inc      []float64 // the incumbent's normalised point
	incX     []float64
	bracket  int
	round    int
	cands    [][]float64 // normalised points: the incumbent, then the proposals
	xs       [][]float64
	scores   [][]float64 // block win rates of each candidate in the bracket
	alive    []int
	survived []int
	final    *estimate
	history  []bracketRecord
}

// bracketRecord is the record of one bracket of successive halving.
type bracketRecord struct {
	// Winner holds the winner's values and Rate its win rate over its
	// Blocks blocks in the bracket; Incumbent whether the incumbent won.
	Winner    []float64
	Rate      float64
	Blocks    int
	Incumbent bool
}

// newHalving returns a successive-halving search.
func newHalving(cfg halvingConfig) (*halvingSearch, error) {
	u, err := checkStart("halving", cfg.Space, cfg.Start)
	if err != nil {
		return nil, err
	}
	if cfg.Sigma == 0 {
		cfg.Sigma = 0.2
	}
	switch {
	case cfg.Brackets < 1 || cfg.Brackets > maxGenerations:
		return nil, fmt.Errorf("search: halving: brackets %d: want 1..%d", cfg.Brackets, maxGenerations)
	case cfg.Candidates < 2 || cfg.Candidates > maxLambda:
		return nil, fmt.Errorf("search: halving: candidates %d: want 2..%d", cfg.Candidates, maxLambda)
	case cfg.Blocks < 1 || cfg.FinalBlocks < 1 || cfg.FinalBlocks > maxBlocks:
		return nil, fmt.Errorf("search: halving: blocks %d, final blocks %d: want >= 1 and 1..%d", cfg.Blocks, cfg.FinalBlocks, maxBlocks)
	case !(cfg.Sigma > 0 && cfg.Sigma <= 1):
		return nil, fmt.Errorf("search: halving: sigma %v: want in (0, 1]", cfg.Sigma)
	}
	h := &halvingSearch{cfg: cfg, inc: u, incX: cfg.Space.Values(u)}
	h.rounds = bits.Len(uint(cfg.Candidates)) // ceil(log2(Candidates+1))
	if per := cfg.Blocks * (1<<h.rounds - 1); per > maxBlocks || per*(cfg.Candidates+1) > maxStepBlocks {
		return nil, fmt.Errorf("search: halving: blocks %d over %d rounds: %d blocks a bracket's winner: want at most %d", cfg.Blocks, h.rounds, per, maxBlocks)
	}
	switch cfg.Proposer {
	case "cmaes":
		opt, err := cmaes.New(cmaes.Config{Dim: len(cfg.Space), Mean: u, Sigma: cfg.Sigma, Lambda: max(4, cfg.Candidates), Seed: cfg.Seed, Maximize: true, MinStd: minStdOf(cfg.Space)})
		if err != nil {
			return nil, fmt.Errorf("search: halving: %w", err)
		}
		if cfg.Candidates < 4 {
			return nil, fmt.Errorf("search: halving: candidates %d: the cmaes proposer wants at least 4", cfg.Candidates)
		}
		h.prop = &cmaesProposer{opt: opt}
	case "random":
		h.prop = &randomProposer{rng: rand.New(rand.NewPCG(cfg.Seed, 0x68616c76)), n: cfg.Candidates, dims: len(cfg.Space)}
	default:
		return nil, fmt.Errorf("search: halving: proposer %q: want one of %v", cfg.Proposer, proposers)
	}
	return h, nil
}

// minStdOf returns the CMA-ES lower bounds on the standard deviation of
// integer parameters (half a level), nil when there are none.
func minStdOf(sp Space) []float64 {
	var m []float64
	for i, d := range sp {
		if d.Param.Integer {
			if m == nil {
				m = make([]float64, len(sp))
			}
			k := math.Floor(d.Hi) - math.Ceil(d.Lo) + 1
			m[i] = min(0.5, 1/(2*k))
		}
	}
	return m
}

// steps returns Brackets·R + 1.
func (h *halvingSearch) steps() int { return h.cfg.Brackets*h.rounds + 1 }

// next returns the round's evaluations.
func (h *halvingSearch) next() ([]Eval, error) {
	per := h.cfg.Blocks * (1<<h.rounds - 1)
	switch {
	case h.bracket > h.cfg.Brackets:
		return nil, fmt.Errorf("halving: no step after %d", h.steps())
	case h.bracket == h.cfg.Brackets:
		return finalEvals(h.incX, h.cfg.Brackets*per, h.cfg.FinalBlocks), nil
	}
	if h.round == 0 {
		h.cands = append([][]float64{h.inc}, h.prop.Propose()...)
		h.xs = make([][]float64, len(h.cands))
		h.scores = make([][]float64, len(h.cands))
		h.alive = h.alive[:0]
		h.survived = make([]int, len(h.cands))
		for k, u := range h.cands {
			h.xs[k] = h.cfg.Space.Values(u)
			h.alive = append(h.alive, k)
		}
		h.xs[0] = h.incX
	}
	first := h.bracket*per + h.cfg.Blocks*(1<<h.round-1)
	n := h.cfg.Blocks << h.round
	var ev []Eval
	for _, k := range h.alive {
		for b := 0; b < n; b++ {
			ev = append(ev, Eval{Cand: k, X: h.xs[k], Block: first + b})
		}
	}
	return ev, nil
}

// rate returns candidate k's mean block win rate in the bracket.
func (h *halvingSearch) rate(k int) float64 {
	var s float64
	for _, v := range h.scores[k] {
		s += v
	}
	return s / float64(len(h.scores[k]))
}

// tell records the round, keeps the better half and, after a bracket's
// last round, makes its winner the incumbent and tells the proposer.
func (h *halvingSearch) tell(res []Result) error {
	if h.bracket == h.cfg.Brackets {
		if h.final != nil || len(res) != h.cfg.FinalBlocks {
			return fmt.Errorf("halving: final step: %d results, want %d", len(res), h.cfg.FinalBlocks)
		}
		h.final = tallyEstimate(h.incX, res)
		h.bracket++
		return nil
	}
	n := h.cfg.Blocks << h.round
	if len(res) != n*len(h.alive) {
		return fmt.Errorf("halving: %d results: want %d", len(res), n*len(h.alive))
	}
	for j, k := range h.alive {
		for _, r := range res[j*n : (j+1)*n] {
			h.scores[k] = append(h.scores[k], r.score())
		}
		h.survived[k] = h.round
	}
	// Keep the better half (ties: the lower index, the incumbent first).
	order := append([]int(nil), h.alive...)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(h.rate(b), h.rate(a)) })
	h.alive = order[:(len(order)+1)/2]
	slices.Sort(h.alive)
	h.round++
	if len(h.alive) > 1 && h.round < h.rounds {
		return nil
	}
	win := order[0]
	value := make([]float64, len(h.cands)-1)
	for k := 1; k < len(h.cands); k++ {
		value[k-1] = float64(h.survived[k]) + h.rate(k)
	}
	if err := h.prop.Observe(value); err != nil {
		return fmt.Errorf("halving: %w", err)
	}
	h.history = append(h.history, bracketRecord{Winner: h.xs[win], Rate: h.rate(win), Blocks: len(h.scores[win]), Incumbent: win == 0})
	h.inc, h.incX = h.cands[win], h.xs[win]
	h.bracket++
	h.round = 0
	return nil
}

// Recommend returns the incumbent: the last bracket's winner.
func (h *halvingSearch) Recommend() []float64 { return h.incX }

// status describes the bracket and round.
func (h *halvingSearch) status() string {
	if h.final != nil {
		iv := h.final.Wilson()
		return fmt.Sprintf("done: incumbent %.3f [%.3f, %.3f] over %d games", h.final.Rate(), iv.Lo, iv.Hi, h.final.Games)
	}
	return fmt.Sprintf("bracket %d/%d round %d/%d, %d candidates alive", h.bracket+1, h.cfg.Brackets, h.round+1, h.rounds, len(h.alive))
}
