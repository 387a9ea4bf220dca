package strategist

import (
	"context"
	"github.com/marslab-risk/marslab/learn"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func TestQTableUpdate(t *testing.T) {
	t.Parallel()
	q, err := NewQTable(QConfig{Features: []int{0}, Bins: 2, Alpha: 0.5, Gamma: 0.9, Epsilon: 0}, 2)
	require.NoError(t, err)
	assert.Equal(t, 0, q.state([]float64{0.2}))
	assert.Equal(t, 1, q.state([]float64{0.7}))
	assert.Equal(t, 1, q.state([]float64{3}))
	assert.Equal(t, 0, q.state([]float64{-1}))
	// Two steps: state 0 action 1 (reward -1), then state 1 action 0 (final 10).
	ep := Episode{Dim: 1, Obs: []float64{0.2, 0.7}, Actions: []int{1, 0}, Outcome: learn.Outcome{PerTurn: -1, Final: 10}}
	q.Learn([]Episode{ep})
	// Q(0,1) = 0.5·(-1 + 0.9·0) = -0.5; Q(1,0) = 0.5·10 = 5.
	assert.Equal(t, []float64{0, -0.5, 5, 0}, q.Q)
	q.Learn([]Episode{ep})
	// Q(0,1) += 0.5·(-1 + 0.9·5 + 0.5) = -0.5 + 2 = 1.5; Q(1,0) = 5 + 0.5·5 = 7.5.
	assert.Equal(t, []float64{0, 1.5, 7.5, 0}, q.Q)
	assert.Equal(t, []int{0, 2, 2, 0}, q.Visit)
	assert.Equal(t, 1, q.greedy(0))
	assert.Equal(t, 0, q.greedy(1))
	for _, c := range []QConfig{{Bins: 2, Alpha: 1}, {Features: []int{0}, Bins: 0, Alpha: 1}, {Features: []int{0}, Bins: 2, Alpha: 0},
		{Features: []int{0}, Bins: 2, Alpha: 1, Gamma: 2}, {Features: []int{0}, Bins: 2, Alpha: 1, Epsilon: -1},
		{Features: make([]int, 30), Bins: 10, Alpha: 1}} {
		_, err := NewQTable(c, 2)
		assert.Error(t, err, "%+v", c)
	}
}

// Training depends on the seed alone, not on the number of workers.
func TestTrainDeterministic(t *testing.T) {
	t.Parallel()
	cfg := learn.DefaultConfig()
	train := func(workers int) (*QTable, []BlockStats) {
		q, err := NewQTable(QConfig{Features: []int{0, 1, 10}, Bins: 4, Alpha: 0.1, Gamma: 0.99, Epsilon: 0.2}, 3)
		require.NoError(t, err)
		curve, err := train(context.Background(), cfg, registry.Default(), q, TrainConfig{Seed: 3, Games: 60, Batch: 16, Block: 20, Workers: workers}, nil)
		require.NoError(t, err)
		return q, curve
	}
	q1, c1 := train(1)
	q3, c3 := train(3)
	require.Equal(t, q1.Q, q3.Q)
	require.Equal(t, c1, c3)
	require.Len(t, c1, 3)
	assert.Equal(t, 40, c1[2].First)
	assert.NotEqual(t, make([]float64, len(q1.Q)), q1.Q)
	sum := 0.0
	for _, s := range c1[0].ActionShare {
		sum += s
	}
	assert.InDelta(t, 1, sum, 1e-9)
}

func TestEvaluatePaired(t *testing.T) {
	t.Parallel()
	cfg := learn.DefaultConfig()
	ev, err := evaluate(context.Background(), cfg, registry.Default(), 5, 12, 2, []policy{Fixed("aggressive", 2), Uniform("random", 3), Fixed("aggressive again", 2)})
	require.NoError(t, err)
	require.Len(t, ev, 3)
	// The same policy on the same seeds plays the same games.
	assert.Equal(t, ev[0].Won, ev[2].Won)
	assert.Equal(t, ev[0].Return, ev[2].Return)
	assert.Equal(t, []float64{0, 0, 1}, ev[0].ActionShare)
	assert.NotEqual(t, ev[0].Return, ev[1].Return)
	for a := range 3 {
		assert.Greater(t, ev[1].ActionShare[a], 0.2)
	}
	r, err := learn.NewRunner(cfg, registry.Default())
	require.NoError(t, err)
	_, out := trace(t, r, 5, 4, func(int) int { return 2 })
	assert.Equal(t, out.Return, ev[0].Return[4])
}

func TestParseExperiment(t *testing.T) {
	t.Parallel()
	e, err := LoadExperiment("../../configs/experiments/strategist.toml")
	require.NoError(t, err)
	assert.Equal(t, uint64(16), e.Train.Seed)
	assert.Equal(t, 50000, e.Train.Games)
	want := learn.DefaultConfig()
	want.Features = append(want.Features, "front")
	want.Source = "../../configs/experiments/strategist.toml [env]"
	want.File = "../../configs/experiments/strategist.toml"
	assert.Equal(t, want, e.Env)
	assert.Equal(t, []string{"territories"}, e.QFeatures, "the thesis's observation")
	base := "seed = 1\nout = \"x\"\n[train]\ngames = 10\nbatch = 5\nblock = 5\n[q]\nfeatures = [\"round\"]\nbins = 3\nalpha = 0.1\ngamma = 0.9\nepsilon = 0.1\n[eval]\nseed = 2\ngames = 10\n"
	_, err = parseExperiment("e.toml", []byte(base))
	require.NoError(t, err)
	for _, tc := range []struct{ from, to, msg string }{
		{"games = 10\nbatch", "games = 0\nbatch", "key train.games: 0: want 1..1000000000"},
		// Issue 25, items 9 and 15: unbounded sizes and a block longer than the training.
		{"batch = 5", "batch = 1000000000", "e.toml: key train.batch: 1000000000: want 1..min(train.games, 100000) = 10"},
		{"block = 5", "block = 11", "e.toml: key train.block: 11: want 1..train.games = 10 (a block is a point of the curve)"},
		{"games = 10\nbatch", "games = 100000000000\nbatch", "e.toml: key train.games: 100000000000: want 1..1000000000"},
		{"seed = 2\ngames = 10", "seed = 2\ngames = 1000000", "e.toml: key eval.games: 1000000: want 1..100000"},
		{"alpha = 0.1", "alpha = 0.0", "key q.alpha: 0: want (0, 1]"},
		{"gamma = 0.9", "gamma = 1.5", "key q.gamma: 1.5: want [0, 1]"},
		{"bins = 3", "bins = 300", "key q.bins: 300: want 1..100"},
		{`features = ["round"]`, `features = ["round", "round"]`, `e.toml: key q.features: "round" listed twice (entries 0 and 1)`},
		{"seed = 2", "seed = 1", "key eval.seed: 1: want seeds other than the training seed"},
		{"out = \"x\"", "", "key out: missing"},
		{"[train]", "[env]\nplayers = 1\n[train]", "key env.players: 1: want 2..6"},
		{"[train]", "[env]\ncolour = 1\n[train]", `e.toml:4: unknown key "env.colour" (allowed: rules, players, seat, actions, opponents, features, rewards)`},
		{"seed = 1\n", "seed = 1\nlearner = \"sarsa\"\n", `key learner: "sarsa": want q or dqn`},
		{"[train]", "[dqn]\npolicy = \"greedy\"\n[train]", `policy "greedy": want boltzmann or epsilon`},
	} {
		_, err := parseExperiment("e.toml", []byte(strings.Replace(base, tc.from, tc.to, 1)))
		require.Error(t, err, tc.msg)
		assert.Contains(t, err.Error(), tc.msg)
	}
}

func TestQTablePolicyBy(t *testing.T) {
	t.Parallel()
	q, err := NewQTable(QConfig{Features: []int{0, 1}, Bins: 2, Alpha: 1, Gamma: 0, Epsilon: 0}, 2)
	require.NoError(t, err)
	// Feature 1 low: action 1 pays; high: action 0 pays. Feature 0 varies.
	var eps []Episode
	for _, x := range [][2]float64{{0.2, 0.2}, {0.7, 0.2}, {0.2, 0.7}, {0.7, 0.7}} {
		for a := range 2 {
			r := -1.0
			if (a == 1) == (x[1] < 0.5) {
				r = 1
			}
			eps = append(eps, Episode{Dim: 2, Obs: []float64{x[0], x[1]}, Actions: []int{a}, Outcome: learn.Outcome{Final: r}})
		}
	}
	eps = append(eps, eps[0]) // one more visit of state (0, 0)
	q.Learn(eps)
	share, visits := q.policyBy(1)
	assert.Equal(t, []int{5, 4}, visits)
	assert.Equal(t, [][]float64{{0, 1}, {1, 0}}, share)
	share, visits = q.policyBy(0)
	assert.Equal(t, []int{5, 4}, visits)
	// Bin 0 of feature 0: state (0,0), 3 visits, greedy 1; state (0,1), 2 visits, greedy 0.
	assert.InDelta(t, 3.0/5, share[0][1], 1e-12)
	assert.InDelta(t, 2.0/5, share[0][0], 1e-12)
}

func TestStrategistConfigs(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"strategist", "strategist-front", "strategist-threat", "strategist-all", "strategist-dqn"} {
		e, err := LoadExperiment("../../configs/experiments/" + name + ".toml")
		require.NoError(t, err, name)
		r, err := learn.NewRunner(e.Env, registry.Default())
		require.NoError(t, err, name)
		for _, f := range e.QFeatures {
			assert.Contains(t, r.ObservationNames(), f, name)
		}
	}
}

// abortingLearner's actors play action 0 and answer learn.Abort at the calls'
// count-th call, over all its actors.
type abortingLearner struct {
	calls *atomic.Int64
	count int64
}

func (l abortingLearner) NewActor() Actor { return l }
func (l abortingLearner) Learn([]Episode) {}
func (l abortingLearner) Act(_ []float64, _ *rand.Rand) int {
	if l.calls.Add(1) == l.count {
		return learn.Abort
	}
	return 0
}

// TestPlayBatchStopsOnError: an episode that fails stops the other
// workers: few of the batch's episodes are played, the error is the
// episode's, and no goroutine is left running.
func TestPlayBatchStopsOnError(t *testing.T) {
	before := runtime.NumGoroutine()
	runners, err := newRunners(learn.DefaultConfig(), registry.Default(), 2)
	require.NoError(t, err)
	eps := make([]Episode, 200)
	l := abortingLearner{calls: new(atomic.Int64), count: 30}
	err = playBatch(context.Background(), runners, l, 1, 0, eps, false)
	require.ErrorIs(t, err, learn.ErrAborted)
	assert.ErrorContains(t, err, "episode ")
	played := 0
	for i := range eps {
		if len(eps[i].Actions) > 0 {
			played++
		}
	}
	assert.Less(t, played, 20, "episodes played after the failure")
	for range 200 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left running")
}
