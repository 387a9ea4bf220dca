package strategist

import (
	"context"
	"errors"
	"fmt"
	"github.com/marslab-risk/marslab/learn"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// streamExplore names the random stream of a training episode's
// exploration, drawn from its game seed.
const streamExplore = 0x6578706c6f7265 // "explore"

// Learner is a trainable policy. Train plays a batch of episodes with the
// policy frozen (each worker acting through an Actor of its own), then
// hands the batch to Learn in game-index order, so that training depends
// on the seed alone, not on the number of workers.
type Learner interface {
	// NewActor returns an actor reading the learner's current policy; it
	// may hold scratch space and is used by one goroutine.
	NewActor() Actor
	// Learn updates the policy from a batch of episodes, in order.
	Learn(batch []Episode)
}

// Actor chooses actions with a Learner's policy.
type Actor interface {
	// Act returns the action for obs: greedy when rng is nil, else
	// exploring with rng.
	Act(obs []float64, rng *rand.Rand) int
}

// Episode is one played episode: its observations at each decision, the
// actions taken and the outcome. Obs holds len(Actions) observations of
// Dim values each, one after the other.
type Episode struct {
	Dim     int
	Obs     []float64
	Actions []int
	Outcome learn.Outcome
}

// reward returns the reward of step i (learn.Outcome.PerTurn, or learn.Outcome.Final
// at the last step).
func (e *Episode) reward(i int) float64 {
	if i == len(e.Actions)-1 {
		return e.Outcome.Final
	}
	return e.Outcome.PerTurn
}

// state returns observation i.
func (e *Episode) state(i int) []float64 { return e.Obs[i*e.Dim : (i+1)*e.Dim] }

// Limits on the sizes of an experiment, far above the paper's (300000
// training games in batches of 2000, 5000 evaluation games): a batch's and
// an evaluation's episodes are all held in memory at once.
const (
	// maxTrainGames bounds TrainConfig.Games (train.games).
	maxTrainGames = 1_000_000_000
	// maxBatch bounds TrainConfig.Batch (train.batch).
	maxBatch = 100_000
	// maxEvalGames bounds the episodes of an evaluation (eval.games).
	maxEvalGames = 100_000
)

// TrainConfig sizes a training run.
type TrainConfig struct {
	// Seed is the experiment seed: training episode i is learn.Runner.Run(Seed, i).
	Seed uint64
	// Games is the number of training episodes; Batch the episodes played
	// with one frozen policy between two calls of Learner.Learn; Block the
	// episodes per point of the training curve.
	Games, Batch, Block int
	// Workers is the number of goroutines playing episodes (0: one per
	// core). The result does not depend on it.
	Workers int
	// Resume, if not nil, is the state of an earlier run of the same
	// learner and config (saved by Checkpoint): training goes on from
	// there, with the learner restored to that state by the caller.
	Resume *TrainState
	// Checkpoint, if not nil, is called after each batch that completes a
	// block of the curve and after the last batch, with the state a resumed run needs besides the
	// learner's own; an error from it stops the training.
	Checkpoint func(*TrainState) error
	// ProgressLines writes Train's progress as one plain line per block of
	// the curve and at the end, for a file or a pipe, instead of one line
	// rewritten in place with carriage returns after every batch, for a
	// terminal.
	ProgressLines bool
}

// TrainState is the progress of a training run between two batches:
// the episodes played, the completed blocks of the curve and the block
// being filled. With the learner's state it lets a run resume exactly.
type TrainState struct {
	// Next is the number of episodes played (the index of the next).
	Next int
	// Curve holds the completed blocks.
	Curve []BlockStats
	// Partial is the block being filled.
	Partial PartialBlock
}

// PartialBlock holds the sums of a block of the curve being filled.
type PartialBlock struct {
	Games, Wins, Steps int
	Sum, SumSq         float64
	Acts               []int
}

// BlockStats are the statistics of one block of training episodes.
type BlockStats struct {
	// First is the index of the block's first episode; Games its size.
	First, Games int
	// Wins counts the learner's wins; MeanReturn and SDReturn are the mean
	// and sample standard deviation of the episodes' returns.
	Wins                 int
	MeanReturn, SDReturn float64
	// Steps is the number of the learner's steps (its turns, one action
	// each) in the block; ActionShare[a] the share of them that took
	// action a.
	Steps       int
	ActionShare []float64
}

// train trains l for cfg.Games episodes of the environment env (one
// learn.Runner per worker, made with reg), writing a progress line per batch to
// progress (if not nil). It returns the training curve, one BlockStats per
// cfg.Block episodes. A cancelled ctx stops it after the batch being
// played, returning the blocks completed and ctx's error.
func train(ctx context.Context, env *learn.Config, reg *bots.Registry, l Learner, cfg TrainConfig, progress io.Writer) ([]BlockStats, error) {
	if cfg.Games < 1 || cfg.Games > maxTrainGames || cfg.Batch < 1 || cfg.Batch > min(cfg.Games, maxBatch) || cfg.Block < 1 || cfg.Block > cfg.Games {
		return nil, fmt.Errorf("learn: train: games %d, batch %d, block %d: want games 1..%d, batch 1..min(games, %d), block 1..games",
			cfg.Games, cfg.Batch, cfg.Block, maxTrainGames, maxBatch)
	}
	runners, err := newRunners(env, reg, cfg.Workers)
	if err != nil {
		return nil, err
	}
	nact := runners[0].NumActions()
	var curve []BlockStats
	acc := newBlockAcc(nact)
	start0 := 0
	if st := cfg.Resume; st != nil {
		if st.Next < 0 || st.Next > cfg.Games || st.Next%cfg.Batch != 0 && st.Next != cfg.Games {
			return nil, fmt.Errorf("learn: train: resume at episode %d: want a multiple of batch %d in 0..%d", st.Next, cfg.Batch, cfg.Games)
		}
		if len(st.Partial.Acts) != nact {
			return nil, fmt.Errorf("learn: train: resume with %d action counts: want %d", len(st.Partial.Acts), nact)
		}
		curve = slices.Clone(st.Curve)
		p := st.Partial
		acc = &blockAcc{games: p.Games, wins: p.Wins, steps: p.Steps, sum: p.Sum, sumsq: p.SumSq, acts: slices.Clone(p.Acts)}
		start0 = st.Next
	}
	batch := make([]Episode, cfg.Batch)
	start := time.Now()
	for first := start0; first < cfg.Games; first += cfg.Batch {
		n := min(cfg.Batch, cfg.Games-first)
		err := playBatch(ctx, runners, l, cfg.Seed, first, batch[:n], true)
		if err != nil {
			return curve, err
		}
		l.Learn(batch[:n])
		blocks := len(curve)
		for i := range batch[:n] {
			acc.add(&batch[i])
			if acc.games == cfg.Block {
				curve = append(curve, acc.stats(first+i+1-cfg.Block))
				acc = newBlockAcc(nact)
			}
		}
		if cfg.Checkpoint != nil && (len(curve) > blocks || first+n == cfg.Games) {
			st := &TrainState{Next: first + n, Curve: curve, Partial: PartialBlock{Games: acc.games, Wins: acc.wins,
				Steps: acc.steps, Sum: acc.sum, SumSq: acc.sumsq, Acts: acc.acts}}
			if err := cfg.Checkpoint(st); err != nil {
				return curve, fmt.Errorf("learn: train: checkpoint after %d games: %w", first+n, err)
			}
		}
		if progress != nil {
			done := first + n
			el := time.Since(start).Seconds()
			line := fmt.Sprintf("train: %d/%d games, %.0f games/s", done, cfg.Games, float64(done-start0)/el)
			if len(curve) > 0 {
				b := curve[len(curve)-1]
				line += fmt.Sprintf(", last block: mean return %.1f, win %.1f %%", b.MeanReturn, 100*float64(b.Wins)/float64(b.Games))
			}
			switch {
			case !cfg.ProgressLines:
				fmt.Fprintf(progress, "\r%s   ", line)
				if done == cfg.Games {
					fmt.Fprintln(progress)
				}
			case len(curve) > blocks || done == cfg.Games:
				fmt.Fprintln(progress, line)
			}
		}
	}
	return curve, nil
}

// newRunners returns one learn.Runner per worker (workers <= 0: one per core).
func newRunners(env *learn.Config, reg *bots.Registry, workers int) ([]*learn.Runner, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	runners := make([]*learn.Runner, workers)
	for i := range runners {
		r, err := learn.NewRunner(env, reg)
		if err != nil {
			return nil, err
		}
		runners[i] = r
	}
	return runners, nil
}

// playBatch plays episodes first .. first+len(out)-1 of seed with the
// learner's policy (exploring if explore) on arena.Ordered's workers, one
// per runner, and stores them by index. The first error stops the other
// workers and is returned; when ctx is done it returns ctx's error.
func playBatch(ctx context.Context, runners []*learn.Runner, l Learner, seed uint64, first int, out []Episode, explore bool) error {
	actors := make([]Actor, len(runners))
	for w := range actors {
		actors[w] = l.NewActor()
	}
	_, err := arena.Ordered(ctx, len(runners), len(out), func(ctx context.Context, w, i int) (struct{}, error) {
		r, actor := runners[w], actors[w]
		idx := uint64(first + i)
		var rng *rand.Rand
		if explore {
			rng = rand.New(rand.NewPCG(sim.GameSeed(seed, idx), streamExplore))
		}
		ep := &out[i]
		ep.Dim, ep.Obs, ep.Actions = r.NumObservations(), ep.Obs[:0], ep.Actions[:0]
		o, err := r.Run(ctx, seed, idx, func(obs []float64) int {
			a := actor.Act(obs, rng)
			ep.Obs = append(ep.Obs, obs...)
			ep.Actions = append(ep.Actions, a)
			return a
		})
		if err != nil {
			return struct{}{}, fmt.Errorf("episode %d: %w", idx, err)
		}
		ep.Outcome = o
		return struct{}{}, nil
	}, func(int, *struct{}) error { return nil })
	if errors.Is(err, arena.ErrInterrupted) {
		return ctx.Err()
	}
	return err
}

type blockAcc struct {
	games, wins int
	sum, sumsq  float64
	acts        []int
	steps       int
}

func newBlockAcc(nact int) *blockAcc { return &blockAcc{acts: make([]int, nact)} }

func (b *blockAcc) add(e *Episode) {
	b.games++
	if e.Outcome.Won {
		b.wins++
	}
	b.sum += e.Outcome.Return
	b.sumsq += e.Outcome.Return * e.Outcome.Return
	for _, a := range e.Actions {
		b.acts[a]++
	}
	b.steps += len(e.Actions)
}

func (b *blockAcc) stats(first int) BlockStats {
	n := float64(b.games)
	mean := b.sum / n
	sd := 0.0
	if b.games > 1 {
		v := (b.sumsq - n*mean*mean) / (n - 1)
		if v > 0 {
			sd = sqrt(v)
		}
	}
	share := make([]float64, len(b.acts))
	for a, k := range b.acts {
		if b.steps > 0 {
			share[a] = float64(k) / float64(b.steps)
		}
	}
	return BlockStats{First: first, Games: b.games, Wins: b.wins, MeanReturn: mean, SDReturn: sd, Steps: b.steps, ActionShare: share}
}
