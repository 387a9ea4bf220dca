package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// maxConditions is the most conditions a mixture may hold.
const maxConditions = 64

// Condition is one condition of a mixture field: a rule set and map, a
// number of seats and the opponents, with the weight of its share of the
// blocks.
type Condition struct {
	// Name names the condition in reports (e.g. "mars2006-escalating/4p").
	Name string
	// Weight is the condition's relative share of the blocks, > 0.
	Weight float64
	// Map and Rules are the board and rule set.
	Map   *sim.Map
	Rules *sim.Rules
	// Players is the number of seats of the condition's games, 2..6.
	Players int
	// Opponents and Sample are as in Games: a fixed line-up of Players-1
	// seats, or a pool line-ups are drawn from per block.
	Opponents []bots.Seat
	Sample    bool
}

// mixed reports whether g is a mixture of conditions.
func (g *Games) mixed() bool { return len(g.Mixture) > 0 }

// condition returns the index in g.Mixture of the condition block b plays
// (0 for a field of one condition). The draw depends on (Seed, b) and the
// weights alone: a SplitMix64 number of (Seed, b), mixed with a constant so
// that it is independent of the block's dice and line-up, picks the
// condition whose share of the cumulative weights holds it. Every
// candidate evaluated on block b therefore meets the same condition.
func (g *Games) condition(b int) int {
	if len(g.Mixture) < 2 {
		return 0
	}
	var total float64
	for _, c := range g.Mixture {
		total += c.Weight
	}
	z := sim.GameSeed(g.Seed^0xc0bd17105a1c7ed3, uint64(b))
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	u := float64(z>>11) / (1 << 53) * total
	var acc float64
	for i, c := range g.Mixture {
		acc += c.Weight
		if u < acc {
			return i
		}
	}
	return len(g.Mixture) - 1
}

// conditionNames returns the names of g's conditions (one unnamed entry
// for a field of one condition).
func (g *Games) conditionNames() []string {
	if !g.mixed() {
		return []string{""}
	}
	out := make([]string, len(g.Mixture))
	for i, c := range g.Mixture {
		out[i] = c.Name
	}
	return out
}

// sub returns the field of one condition of g: g's candidate, seed, stream
// and workers in condition i's game.
func (g *Games) sub(i int) *Games {
	c := g.Mixture[i]
	return &Games{Map: c.Map, Rules: c.Rules, Base: g.Base, Space: g.Space, Players: c.Players,
		Opponents: c.Opponents, Sample: c.Sample, Seed: g.Seed, Stream: g.Stream, Workers: g.Workers}
}

// checkMixture reports whether every condition of a mixture is well formed.
func (g *Games) checkMixture() error {
	if len(g.Mixture) > maxConditions {
		return fmt.Errorf("search: %d conditions: want at most %d", len(g.Mixture), maxConditions)
	}
	for i, c := range g.Mixture {
		if !(c.Weight > 0) || math.IsInf(c.Weight, 0) {
			return fmt.Errorf("search: condition %d (%s): weight %v: want a finite number > 0", i, c.Name, c.Weight)
		}
		if err := g.sub(i).check(); err != nil {
			return fmt.Errorf("condition %d (%s): %w", i, c.Name, err)
		}
	}
	return nil
}

// mixtureConditions is how many conditions of a mixture play at the same
// time (see evaluateMixture).
const mixtureConditions = 2

// mixtureCost is the wall time per evaluation of each condition of a
// mixture in its last play (0: not played yet), safe for concurrent use.
type mixtureCost struct {
	mu   sync.Mutex
	each []float64 // seconds per evaluation, by condition
}

// order returns the conditions c with evaluations (len(idx[c]) > 0), the
// costliest first: those not played yet, then by decreasing expected time
// (time per evaluation times evaluations), the lower index on ties. A play
// that starts with its longest conditions ends with short ones, so that
// the cores finish together.
func (mc *mixtureCost) order(idx [][]int) []int {
	var cs []int
	for c, js := range idx {
		if len(js) > 0 {
			cs = append(cs, c)
		}
	}
	if mc == nil {
		return cs
	}
	mc.mu.Lock()
	defer mc.mu.Unlock()
	expect := func(c int) float64 {
		if c >= len(mc.each) || mc.each[c] == 0 {
			return math.Inf(1)
		}
		return mc.each[c] * float64(len(idx[c]))
	}
	slices.SortStableFunc(cs, func(a, b int) int { return cmp.Compare(expect(b), expect(a)) })
	return cs
}

// record keeps condition c's time per evaluation.
func (mc *mixtureCost) record(c int, perEval float64) {
	if mc == nil || !(perEval > 0) {
		return
	}
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if len(mc.each) <= c {
		mc.each = append(mc.each, make([]float64, c+1-len(mc.each))...)
	}
	mc.each[c] = perEval
}

// evaluateMixture plays evals on a mixture: each condition's evaluations
// on its own pool, the results emitted in the order of evals. Two
// conditions play at a time and share the workers' places (one game a
// core, arena.PoolConfig.Slots), so that the next condition's games fill
// the cores a condition's last games leave idle, the costliest conditions
// first (mixtureCost.order); the results are those of playing the
// conditions one after another in any order. When a condition's play stops
// early, the results up to the first missing one are emitted, and the
// error is the first a condition returned.
func (g *Games) evaluateMixture(ctx context.Context, evals []Eval, emit func(k int, r Result) error) (int, error) {
	if err := g.checkMixture(); err != nil {
		return 0, err
	}
	idx := make([][]int, len(g.Mixture))
	for j, e := range evals {
		c := g.condition(e.Block)
		idx[c] = append(idx[c], j)
	}
	res := make([]Result, len(evals))
	done := make([]bool, len(evals))
	workers := g.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	slots := make(chan struct{}, workers)
	running := make(chan struct{}, mixtureConditions)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		playErr error
	)
	for _, c := range g.cost.order(idx) {
		js := idx[c]
		select {
		case running <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		sub := make([]Eval, len(js))
		for k, j := range js {
			sub[k] = evals[j]
		}
		field := g.sub(c)
		field.slots = slots
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-running }()
			// Each condition writes the results of its own evaluations.
			start := time.Now()
			_, err := field.Evaluate(ctx, sub, func(k int, r Result) error {
				res[js[k]], done[js[k]] = r, true
				return nil
			})
			if err == nil {
				g.cost.record(c, time.Since(start).Seconds()/float64(len(js)))
			} else {
				mu.Lock()
				if playErr == nil {
					playErr = err
				}
				mu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	n := 0
	for n < len(evals) && done[n] {
		if err := emit(n, res[n]); err != nil {
			return n, err
		}
		n++
	}
	if playErr == nil && n < len(evals) {
		if ctx.Err() != nil {
			// The caller's context ended between two conditions.
			return n, fmt.Errorf("search: %w: %w", arena.ErrInterrupted, context.Cause(ctx))
		}
		playErr = errors.New("search: a condition returned fewer results than asked")
	}
	return n, playErr
}

// SplitConditions sets cfg's Conditions and Of to g's mixture, so that the
// validation compares its candidates within each condition as well; it
// leaves cfg as it is for a field of one condition.
func (g *Games) SplitConditions(cfg *ValidateConfig) {
	if !g.mixed() {
		return
	}
	cfg.Conditions, cfg.Of = g.conditionNames(), g.condition
}
