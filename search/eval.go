package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Eval is one evaluation: a candidate's values on one block.
type Eval struct {
	// Cand is the candidate's index within its step (log key "cand").
	Cand int
	// X holds the values of the searched parameters, in Space order.
	X []float64
	// Block is the block index: its random stream and opponents.
	Block int
}

// Result is the outcome of one evaluation: the candidate's games of one
// block, one per seat.
type Result struct {
	// Games is the number of games, the players per game.
	Games int
	// Wins is the number of those games the candidate won.
	Wins int
	// Stalemates counts the games that ended at the round limit.
	Stalemates int
	// Place[r] is the candidate's finishing position (1 = winner, or first
	// on territories at a stalemate) in the game where it sat in seat r,
	// and Won[r] whether it won that game.
	Place []int
	Won   []bool
}

// score returns the win rate of the evaluation, Wins/Games.
func (r Result) score() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.Wins) / float64(r.Games)
}

// An Evaluator plays evaluations. Evaluate plays evals and calls emit with
// each result in the order of evals (emit's calls never overlap); it
// returns the number of results emitted. When ctx is cancelled it stops
// and returns an error wrapping arena.ErrInterrupted, having emitted a
// prefix of the results. A result depends only on its evaluation (values
// and block), never on the other evaluations or the number of workers.
type Evaluator interface {
	Evaluate(ctx context.Context, evals []Eval, emit func(k int, r Result) error) (int, error)
}

// Games is the Evaluator of real games: the candidate (Bot with its values
// set on Base) against opponents, on Workers goroutines of an arena.Pool.
//
// Block b is played with the random streams sim.GameSeed(Seed, Stream+b)
// Players times, the candidate in seat r of the r-th game and the opponents
// of the block in their order in the seats after it (wrapping around).
// With Sample false the opponents are Opponents (Players-1 of them) in
// every block; with Sample true each block seats Players-1 distinct
// entries of Opponents drawn from (Seed, b) alone.
type Games struct {
	// Map and Rules are the board and rule set.
	Map   *sim.Map
	Rules *sim.Rules
	// Base is the searched bot with the values of every parameter that is
	// not searched.
	Base bots.Seat
	// Space is the searched parameters.
	Space Space
	// Players is the number of seats of every game, 2..6.
	Players int
	// Opponents is the fixed line-up (Sample false, Players-1 seats) or the
	// pool line-ups are sampled from (Sample true, >= Players-1 seats).
	Opponents []bots.Seat
	// Sample selects line-ups sampled per block.
	Sample bool
	// Seed is the experiment seed.
	Seed uint64
	// Stream is added to the block index to give its stream: validation
	// blocks use a Stream far from the search's.
	Stream uint64
	// Workers is the number of goroutines (0 = every core).
	Workers int
	// Mixture, when not empty, replaces Map, Rules, Players, Opponents and
	// Sample: block b plays one condition of it, drawn from Seed, b and the
	// weights alone (see Condition), so that every candidate meets the same
	// condition on the same block.
	// Players then holds the most seats of any condition.
	Mixture []Condition

	// slots are the game places a mixture's conditions share while they
	// play at the same time (see evaluateMixture); nil outside a mixture.
	slots chan struct{}
	// cost, when not nil, keeps each condition's time per evaluation in
	// the last play of a mixture, so that the next starts with the
	// costliest conditions (see evaluateMixture); Resolve sets it.
	cost *mixtureCost
}

// check reports whether the field is well formed.
func (g *Games) check() error {
	if g.mixed() {
		if g.Base.Factory == nil {
			return errors.New("search: field needs a base seat")
		}
		return g.checkMixture()
	}
	switch {
	case g.Map == nil || g.Rules == nil:
		return errors.New("search: field needs a map and rules")
	case g.Base.Factory == nil:
		return errors.New("search: field needs a base seat")
	case g.Players < sim.MinPlayers || g.Players > sim.MaxPlayers:
		return fmt.Errorf("search: %d players: want %d..%d", g.Players, sim.MinPlayers, sim.MaxPlayers)
	case !g.Sample && len(g.Opponents) != g.Players-1:
		return fmt.Errorf("search: %d opponents in a fixed line-up of %d players: want %d", len(g.Opponents), g.Players, g.Players-1)
	case g.Sample && len(g.Opponents) < g.Players-1:
		return fmt.Errorf("search: a pool of %d opponents for %d players: want at least %d", len(g.Opponents), g.Players, g.Players-1)
	case g.Workers < 0:
		return fmt.Errorf("search: workers %d: want >= 0", g.Workers)
	}
	for _, d := range g.Space {
		if _, ok := g.Base.Factory.Param(d.Param.Name); !ok {
			return fmt.Errorf("search: bot %s has no parameter %s (it has %s)", g.Base.Factory.Name, d.Param.Name, g.Base.Factory.ParamNames())
		}
	}
	return nil
}

// lineup returns the opponents of block b, indices into g.Opponents,
// appended to dst[:0].
func (g *Games) lineup(b int, dst []int) []int {
	dst = dst[:0]
	if !g.Sample {
		for i := 0; i < g.Players-1; i++ {
			dst = append(dst, i)
		}
		return dst
	}
	// A partial Fisher-Yates shuffle of the pool driven by a SplitMix64
	// stream of (Seed, b), mixed with a constant so that it is independent
	// of the block's dice.
	n := len(g.Opponents)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	s := sim.GameSeed(g.Seed^0x5ea7c4a11e0b10c5, uint64(b))
	for i := 0; i < g.Players-1; i++ {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		j := i + int(z%uint64(n-i))
		perm[i], perm[j] = perm[j], perm[i]
		dst = append(dst, perm[i])
	}
	return dst
}

// seat returns the seat of the candidate with values x: Base with x set,
// labelled "bot(K=V;...)".
func (g *Games) seat(x []float64) bots.Seat {
	p := g.Base.Params.Clone()
	for i, d := range g.Space {
		p[d.Param.Name] = x[i]
	}
	return bots.Seat{Factory: g.Base.Factory, Params: p, Label: g.Base.Factory.Name + "(" + g.Space.Label(x) + ")"}
}

// evalSchedule seats the games of a list of evaluations: game g is the
// (g % players)-th rotation of evaluation g / players.
type evalSchedule struct {
	players, pool int
	cand          []int    // entry of each evaluation's candidate
	opp           []int    // Players-1 opponent entries per evaluation
	stream        []uint64 // stream of each evaluation
}

func (s *evalSchedule) Players() int { return s.players }
func (s *evalSchedule) Pool() int    { return s.pool }
func (s *evalSchedule) Lineup(g int, dst []int) []int {
	j, r := g/s.players, g%s.players
	dst = dst[:s.players]
	dst[r] = s.cand[j]
	o := s.opp[j*(s.players-1) : (j+1)*(s.players-1)]
	for i, e := range o {
		dst[(r+1+i)%s.players] = e
	}
	return dst
}
func (s *evalSchedule) Stream(g int) uint64 { return s.stream[g/s.players] }
func (s *evalSchedule) Spec() arena.ScheduleSpec {
	return arena.ScheduleSpec{Kind: "search-blocks", Players: s.players, Pool: s.pool}
}

// Evaluate plays evals on an arena.Pool: each evaluation's Players games
// (on a mixture, those of its block's condition, one pool per condition).
func (g *Games) Evaluate(ctx context.Context, evals []Eval, emit func(k int, r Result) error) (int, error) {
	if len(evals) == 0 {
		return 0, nil
	}
	if g.mixed() {
		return g.evaluateMixture(ctx, evals, emit)
	}
	if err := g.check(); err != nil {
		return 0, err
	}
	sched := &evalSchedule{players: g.Players, cand: make([]int, len(evals)), stream: make([]uint64, len(evals))}
	var seats []bots.Seat
	entry := map[string]int{}
	for j, e := range evals {
		if len(e.X) != len(g.Space) {
			return 0, fmt.Errorf("search: evaluation %d has %d values for %d parameters", j, len(e.X), len(g.Space))
		}
		k := key(e.X)
		c, ok := entry[k]
		if !ok {
			c = len(seats)
			entry[k] = c
			seats = append(seats, g.seat(e.X))
		}
		sched.cand[j] = c
	}
	nc := len(seats)
	seats = append(seats, g.Opponents...)
	sched.pool = len(seats)
	var lu []int
	for j, e := range evals {
		lu = g.lineup(e.Block, lu)
		for _, o := range lu {
			sched.opp = append(sched.opp, nc+o)
		}
		sched.stream[j] = g.Stream + uint64(e.Block)
	}
	pool, err := arena.NewPool(arena.PoolConfig{Map: g.Map, Rules: g.Rules, Seats: seats, Schedule: sched, Seed: g.Seed, Workers: g.Workers, Slots: g.slots})
	if err != nil {
		return 0, fmt.Errorf("search: %w", err)
	}
	emitted := 0
	var cur Result
	_, err = pool.Play(ctx, len(evals)*g.Players, func(k int) int { return k }, func(k int, o *arena.Outcome) error {
		j, r := k/g.Players, k%g.Players
		if r == 0 {
			cur = Result{Games: g.Players, Place: make([]int, g.Players), Won: make([]bool, g.Players)}
		}
		rec := &o.Record
		if rec.Winner == r {
			cur.Wins++
			cur.Won[r] = true
		}
		if rec.Stalemate {
			cur.Stalemates++
		}
		cur.Place[r] = rec.Placements[r]
		if r == g.Players-1 {
			if err := emit(j, cur); err != nil {
				return err
			}
			emitted++
		}
		return nil
	})
	return emitted, err
}

// Bernoulli is a synthetic Evaluator for tests and benchmarks: game r of
// block b is a win when U(b, r) < P(x), U a uniform number drawn from
// (Seed, b, r) alone, so candidates meet common random numbers exactly as
// in real games.
type Bernoulli struct {
	// Games is the number of games per block, >= 1.
	Games int
	// Seed is the experiment seed.
	Seed uint64
	// Stream is added to the block index (as in Games).
	Stream uint64
	// P is the win probability of values x, in [0, 1].
	P func(x []float64) float64
}

// Evaluate plays evals synthetically.
func (b *Bernoulli) Evaluate(ctx context.Context, evals []Eval, emit func(k int, r Result) error) (int, error) {
	for j, e := range evals {
		if err := ctx.Err(); err != nil {
			return j, fmt.Errorf("%w: %w", arena.ErrInterrupted, context.Cause(ctx))
		}
		p := b.P(e.X)
		r := Result{Games: b.Games, Place: make([]int, b.Games), Won: make([]bool, b.Games)}
		s := sim.GameSeed(b.Seed, b.Stream+uint64(e.Block))
		for i := 0; i < b.Games; i++ {
			u := float64(sim.GameSeed(s, uint64(i))>>11) / (1 << 53)
			r.Place[i] = 2
			if u < p {
				r.Wins++
				r.Place[i] = 1
				r.Won[i] = true
			}
		}
		if err := emit(j, r); err != nil {
			return j, err
		}
	}
	return len(evals), nil
}
