package strategist

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/marslab-risk/marslab/learn"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// Experiment is the strategist experiment: train a tabular Q-learner in an
// environment, then evaluate its greedy policy against every fixed action
// and a uniformly random choice on fresh, common seeds.
type Experiment struct {
	// Source names the config file.
	Source string
	// Env is the environment.
	Env *learn.Config
	// Train sizes the training (its Seed is the experiment's seed).
	Train TrainConfig
	// QFeatures names the observation values the Q-table's state is made
	// of; Q holds the rest of its configuration.
	QFeatures []string
	Q         QConfig
	// Learner is "q" (QTable over QFeatures) or "dqn" (DQN over the whole
	// observation, configured by DQN, its Seed the experiment's seed).
	Learner string
	DQN     DQNConfig
	// EvalSeed and EvalGames are the evaluation's seed (fresh: not the
	// training seed) and episodes per policy.
	EvalSeed  uint64
	EvalGames int
	// Out is the output folder.
	Out string
}

type experimentFile struct {
	Seed  *int64           `toml:"seed"`
	Out   string           `toml:"out"`
	Env   learn.ConfigFile `toml:"env"`
	Train struct {
		Games *int `toml:"games"`
		Batch *int `toml:"batch"`
		Block *int `toml:"block"`
	} `toml:"train"`
	Q struct {
		Features []string `toml:"features"`
		Bins     *int     `toml:"bins"`
		Alpha    *float64 `toml:"alpha"`
		Gamma    *float64 `toml:"gamma"`
		Epsilon  *float64 `toml:"epsilon"`
	} `toml:"q"`
	Eval struct {
		Seed  *int64 `toml:"seed"`
		Games *int   `toml:"games"`
	} `toml:"eval"`
	Learner string `toml:"learner"`
	DQN     struct {
		Hidden       []int    `toml:"hidden"`
		LearningRate *float64 `toml:"learning_rate"`
		Gamma        *float64 `toml:"gamma"`
		BatchSize    *int     `toml:"batch_size"`
		Replay       *int     `toml:"replay"`
		TrainEvery   *int     `toml:"train_every"`
		TargetEvery  *int     `toml:"target_every"`
		Policy       *string  `toml:"policy"`
		Temperature  *float64 `toml:"temperature"`
		Epsilon      *float64 `toml:"epsilon"`
		RewardScale  *float64 `toml:"reward_scale"`
	} `toml:"dqn"`
}

// parseExperiment parses an experiment config:
//
//	seed = 16                       # training seed, >= 0
//	out  = "results/strategist"     # output folder
//	[env]                           # the environment (learn.ParseConfig's keys), optional
//	[train]
//	games = 300000                  # training episodes, 1..maxTrainGames
//	batch = 2000                    # episodes per policy update, 1..min(games, maxBatch)
//	block = 10000                   # episodes per point of the curves, 1..games
//	[q]
//	features = ["territories", "armies", "round", "threat"]   # observation values making the state
//	bins = 5                        # bins per value, 1..100
//	alpha = 0.05                    # (0, 1]
//	gamma = 0.99                    # [0, 1]
//	epsilon = 0.1                   # [0, 1]
//	[eval]
//	seed = 1016                     # fresh seeds, != seed
//	games = 5000                    # episodes per policy, 1..maxEvalGames
//	learner = "q"                   # "q" (default) or "dqn"
//	[dqn]                           # optional, defaultDQNConfig's values by default
//	hidden = [24, 24]
//	learning_rate = 0.001
//	gamma = 0.99
//	batch_size = 32
//	replay = 100000
//	train_every = 16                # transitions per gradient step
//	target_every = 500              # gradient steps per target copy
//	policy = "boltzmann"            # or "epsilon"
//	temperature = 0.1
//	epsilon = 0.1
//	reward_scale = 100.0
//
// Every key but those of [env] and [dqn] and learner is required (the
// [q] keys too); errors name source and the key.
func parseExperiment(source string, data []byte) (*Experiment, error) {
	var f experimentFile
	_, err := configs.DecodeStrict(source, data, &f)
	if err != nil {
		return nil, err
	}
	bad := configs.KeyErrors(source)
	e := &Experiment{Source: source, Out: f.Out}
	if e.Env, err = f.Env.Config(source, "env."); err != nil {
		return nil, err
	}
	ints := []struct {
		key string
		v   *int
		dst *int
	}{{"train.games", f.Train.Games, &e.Train.Games}, {"train.batch", f.Train.Batch, &e.Train.Batch},
		{"train.block", f.Train.Block, &e.Train.Block}, {"q.bins", f.Q.Bins, &e.Q.Bins}, {"eval.games", f.Eval.Games, &e.EvalGames}}
	for _, v := range ints {
		if v.v == nil {
			return nil, bad(v.key, "missing")
		}
		*v.dst = *v.v
	}
	tr := &e.Train
	for _, v := range []struct {
		key    string
		v, max int
		want   string
	}{{"train.games", tr.Games, maxTrainGames, fmt.Sprint(maxTrainGames)},
		{"train.batch", tr.Batch, min(tr.Games, maxBatch), fmt.Sprintf("min(train.games, %d) = %d", maxBatch, min(tr.Games, maxBatch))},
		{"train.block", tr.Block, tr.Games, fmt.Sprintf("train.games = %d (a block is a point of the curve)", tr.Games)},
		{"q.bins", e.Q.Bins, 100, "100"}, {"eval.games", e.EvalGames, maxEvalGames, fmt.Sprint(maxEvalGames)}} {
		if v.v < 1 || v.v > v.max {
			return nil, bad(v.key, "%d: want 1..%s", v.v, v.want)
		}
	}
	floats := []struct {
		key    string
		v      *float64
		dst    *float64
		lo, hi float64
		loOpen bool
	}{{"q.alpha", f.Q.Alpha, &e.Q.Alpha, 0, 1, true}, {"q.gamma", f.Q.Gamma, &e.Q.Gamma, 0, 1, false},
		{"q.epsilon", f.Q.Epsilon, &e.Q.Epsilon, 0, 1, false}}
	for _, v := range floats {
		if v.v == nil {
			return nil, bad(v.key, "missing")
		}
		x := *v.v
		if !(x <= v.hi && (x > v.lo || !v.loOpen && x == v.lo)) {
			lo := "["
			if v.loOpen {
				lo = "("
			}
			return nil, bad(v.key, "%v: want %s%v, %v]", x, lo, v.lo, v.hi)
		}
		*v.dst = x
	}
	if f.Seed == nil || *f.Seed < 0 {
		return nil, bad("seed", "missing or negative: want an integer >= 0")
	}
	if f.Eval.Seed == nil || *f.Eval.Seed < 0 {
		return nil, bad("eval.seed", "missing or negative: want an integer >= 0")
	}
	if *f.Eval.Seed == *f.Seed {
		return nil, bad("eval.seed", "%d: want seeds other than the training seed", *f.Eval.Seed)
	}
	e.Train.Seed, e.EvalSeed = uint64(*f.Seed), uint64(*f.Eval.Seed)
	if len(f.Q.Features) == 0 {
		return nil, bad("q.features", "missing: want observation values such as territories, armies, round, threat")
	}
	for i, n := range f.Q.Features {
		if j := slices.Index(f.Q.Features[:i], n); j >= 0 {
			return nil, bad("q.features", "%q listed twice (entries %d and %d)", n, j, i)
		}
	}
	e.QFeatures = f.Q.Features
	if e.Out == "" {
		return nil, bad("out", "missing: want an output folder")
	}
	switch f.Learner {
	case "", "q":
		e.Learner = "q"
	case "dqn":
		e.Learner = "dqn"
	default:
		return nil, bad("learner", "%q: want q or dqn", f.Learner)
	}
	e.DQN = defaultDQNConfig()
	e.DQN.Seed = e.Train.Seed
	dq := &f.DQN
	if dq.Hidden != nil {
		e.DQN.Hidden = dq.Hidden
	}
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	seti := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&e.DQN.LearningRate, dq.LearningRate)
	set(&e.DQN.Gamma, dq.Gamma)
	set(&e.DQN.Temperature, dq.Temperature)
	set(&e.DQN.Epsilon, dq.Epsilon)
	set(&e.DQN.RewardScale, dq.RewardScale)
	seti(&e.DQN.BatchSize, dq.BatchSize)
	seti(&e.DQN.Replay, dq.Replay)
	seti(&e.DQN.TrainEvery, dq.TrainEvery)
	seti(&e.DQN.TargetEvery, dq.TargetEvery)
	if dq.Policy != nil {
		e.DQN.Policy = *dq.Policy
	}
	if err := e.DQN.validate(); err != nil {
		return nil, fmt.Errorf("%s: keys dqn.*: %w", source, err)
	}
	return e, nil
}

// LoadExperiment reads an experiment config file (see parseExperiment).
func LoadExperiment(path string) (*Experiment, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	return parseExperiment(path, data)
}

// Comparison is the paired comparison of a learned policy with another.
type Comparison struct {
	// Policy is the learned policy ("learned" or "learned, exploring"),
	// Against the other.
	Policy, Against string
	// Win is the difference in win rate (Policy minus Against) with its
	// interval and exact McNemar p-value; Return the mean difference in
	// return with its t interval and p-value. HolmP holds both p-values
	// after Holm's correction over the family of every comparison.
	Win         stats.PairedProportion
	Return      stats.Paired
	HolmWinP    float64
	HolmReturnP float64
	// WinsMore and ReturnsMore are the differences' verdicts (judge):
	// significant after Holm and the whole interval above 0.
	WinsMore    bool
	ReturnsMore bool
}

// Result is an experiment's outcome.
type Result struct {
	Curve []BlockStats
	// Actions and Observation name the environment's actions and
	// observation values.
	Actions     []string
	Observation []string
	Evaluations []Evaluation
	// Comparisons compare each learned policy ("learned", the greedy one,
	// and "learned, exploring") with each fixed action and the uniform
	// choice, and the greedy with the exploring one; the Holm correction
	// runs over all of them.
	Comparisons []Comparison
	// Q or DQN is the trained (or loaded) learner.
	Q   *QTable
	DQN *DQN
	// PolicySource names the file the policy was loaded from, "" when it
	// was trained.
	PolicySource string
}

// Files an experiment writes into its output folder beside its results.
const (
	// PolicyName is the trained policy (SavePolicy).
	PolicyName = "policy.json"
	// CheckpointName is the training checkpoint (see RunOptions).
	CheckpointName = "checkpoint.bin"
)

// RunOptions are the options of Experiment.RunWith.
type RunOptions struct {
	// Workers is the number of goroutines playing episodes (<= 0: one per
	// core); the results do not depend on it.
	Workers int
	// Progress receives the training's progress line (nil: none);
	// ProgressLines makes it a plain line per block (TrainConfig).
	Progress      io.Writer
	ProgressLines bool
	// Checkpoint, if not "", is the file the learner's whole state and
	// the training's progress are written to (atomically) after each
	// batch that completes a block of the curve.
	Checkpoint string
	// Resume continues the training from the file Checkpoint, which must
	// exist and have been written with the same config; the results are
	// those of an uninterrupted run.
	Resume bool
	// Policy, if not nil, is evaluated instead of training a learner (a
	// *QTable or *DQN, as Experiment.LoadPolicy returns); the result has
	// no curve. PolicySource names its file in the report.
	Policy       Learner
	PolicySource string
	// Checkpointed, if not nil, is called after each checkpoint with the
	// number of training episodes it holds.
	Checkpointed func(games int)
	// GreedyOnly evaluates the greedy learned policy alone (no fixed
	// strategy, no uniform choice, no comparison): for ablations, whose
	// arms are compared with each other on the same evaluation episodes.
	GreedyOnly bool
}

// fingerprint identifies every setting training depends on.
func (e *Experiment) fingerprint() (string, error) {
	data, err := json.Marshal(struct {
		Env                 *learn.Config
		Seed                uint64
		Games, Batch, Block int
		Learner             string
		QFeatures           []string
		Q                   QConfig
		DQN                 DQNConfig
	}{e.Env, e.Train.Seed, e.Train.Games, e.Train.Batch, e.Train.Block, e.Learner, e.QFeatures, e.Q, e.DQN})
	if err != nil {
		return "", fmt.Errorf("%s: the config's fingerprint: %w", e.Source, err)
	}
	return string(data), nil
}

// RunWith trains (or takes opts.Policy) and evaluates: the greedy learned
// policy ("learned") against each fixed action, a uniform random choice
// and the learned policy with its training exploration ("learned,
// exploring"). Interrupted (ctx done) during training, it returns the
// result with the completed blocks of the curve and ctx's error.
func (e *Experiment) RunWith(ctx context.Context, reg *bots.Registry, opts RunOptions) (*Result, error) {
	r, err := learn.NewRunner(e.Env, reg)
	if err != nil {
		return nil, err // named by e.Env.Source, "FILE [env]"
	}
	names := r.ObservationNames()
	res := &Result{Actions: r.ActionNames(), Observation: names}
	var l Learner
	if opts.Policy != nil {
		l, res.PolicySource = opts.Policy, opts.PolicySource
		if res.PolicySource == "" {
			res.PolicySource = "a policy given to RunWith"
		}
	} else if l, err = e.train(ctx, reg, r, res, opts); err != nil {
		return res, err
	}
	switch l := l.(type) {
	case *QTable:
		res.Q = l
	case *DQN:
		res.DQN = l
	}
	pols := []policy{Greedy("learned", l)}
	if opts.GreedyOnly {
		res.Evaluations, err = evaluate(ctx, e.Env, reg, e.EvalSeed, e.EvalGames, opts.Workers, pols)
		return res, err
	}
	for a, n := range res.Actions {
		pols = append(pols, Fixed("always "+n, a))
	}
	pols = append(pols, Uniform("uniform random", r.NumActions()),
		policy{Name: "learned, exploring", NewActor: l.NewActor})
	if res.Evaluations, err = evaluate(ctx, e.Env, reg, e.EvalSeed, e.EvalGames, opts.Workers, pols); err != nil {
		return res, err
	}
	return res, res.compare()
}

// compare fills r.Comparisons from r.Evaluations (the greedy learned
// policy first, the exploring one last, the fixed actions and the uniform
// choice between): each learned policy against every other but the
// learned ones, then the greedy against the exploring one, all paired by
// episode, the p-values Holm-corrected together.
func (r *Result) compare() error {
	var ps []float64
	evs := r.Evaluations
	greedy, exploring := &evs[0], &evs[len(evs)-1]
	r.Comparisons = nil
	compare := func(x, y *Evaluation) error {
		c := Comparison{Policy: x.Name, Against: y.Name}
		pc, err := stats.CountPairs(x.Won, y.Won)
		if err != nil {
			return err
		}
		if c.Win, err = stats.PairedProportions(pc, stats.Level); err != nil {
			return err
		}
		if c.Return, err = stats.PairedT(x.Return, y.Return, stats.Level); err != nil {
			return err
		}
		ps = append(ps, c.Win.P, c.Return.P)
		r.Comparisons = append(r.Comparisons, c)
		return nil
	}
	for _, x := range []*Evaluation{greedy, exploring} {
		for i := 1; i < len(evs)-1; i++ {
			if err := compare(x, &evs[i]); err != nil {
				return err
			}
		}
	}
	if err := compare(greedy, exploring); err != nil {
		return err
	}
	holm, err := stats.Holm(ps)
	if err != nil {
		return err
	}
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		c.HolmWinP, c.HolmReturnP = holm[2*i], holm[2*i+1]
		c.WinsMore = judge(c.Win.Interval, c.HolmWinP) == more
		c.ReturnsMore = judge(c.Return.Interval, c.HolmReturnP) == more
	}
	return nil
}

// LoadPolicy reads a policy file (see LoadPolicy) and checks that it was
// trained in an environment with e's observation values and actions.
func (e *Experiment) LoadPolicy(path string, reg *bots.Registry) (Learner, error) {
	l, f, err := LoadPolicy(path)
	if err != nil {
		return nil, err
	}
	r, err := learn.NewRunner(e.Env, reg)
	if err != nil {
		return nil, err // named by e.Env.Source, "FILE [env]"
	}
	if names := r.ObservationNames(); !slices.Equal(f.Observation, names) {
		return nil, fmt.Errorf("learn: policy %s: key observation %v: want the environment's %v", path, f.Observation, names)
	}
	if names := r.ActionNames(); !slices.Equal(f.Actions, names) {
		return nil, fmt.Errorf("learn: policy %s: key actions %v: want the environment's %v", path, f.Actions, names)
	}
	return l, nil
}

// train makes the learner (or restores it from the checkpoint) and
// trains it, filling res.Curve.
func (e *Experiment) train(ctx context.Context, reg *bots.Registry, r *learn.Runner, res *Result, opts RunOptions) (Learner, error) {
	names := r.ObservationNames()
	qc := e.Q
	qc.Features = nil
	for _, f := range e.QFeatures {
		i := slices.Index(names, f)
		if i < 0 {
			return nil, fmt.Errorf("%s: key q.features: %q is not an observation value of the environment (%s)", e.Source, f, strings.Join(names, ", "))
		}
		qc.Features = append(qc.Features, i)
	}
	tc := e.Train
	tc.Workers, tc.ProgressLines = opts.Workers, opts.ProgressLines
	var l Learner
	fp, err := e.fingerprint()
	if err != nil {
		return nil, err
	}
	switch {
	case opts.Resume:
		if opts.Checkpoint == "" {
			return nil, fmt.Errorf("%s: resume: no checkpoint file given", e.Source)
		}
		c, cl, err := loadCheckpoint(opts.Checkpoint, fp)
		if err != nil {
			return nil, err
		}
		l, tc.Resume = cl, &c.State
	case e.Learner == "dqn":
		if l, err = newDQN(e.DQN, len(names), r.NumActions()); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Source, err)
		}
	default:
		if l, err = NewQTable(qc, r.NumActions()); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Source, err)
		}
	}
	if opts.Checkpoint != "" {
		tc.Checkpoint = func(st *TrainState) error {
			if err := saveCheckpoint(opts.Checkpoint, fp, st, l); err != nil {
				return err
			}
			if opts.Checkpointed != nil {
				opts.Checkpointed(st.Next)
			}
			return nil
		}
	}
	res.Curve, err = train(ctx, e.Env, reg, l, tc, opts.Progress)
	return l, err
}

// beatsFixed reports whether the learned policy named policy wins
// significantly more often than every fixed action (Holm-corrected, at
// stats.Level).
func (r *Result) beatsFixed(policy string) bool {
	for _, c := range r.Comparisons {
		if c.Policy == policy && strings.HasPrefix(c.Against, "always ") && !c.WinsMore {
			return false
		}
	}
	return true
}

// beatsUniform reports whether the learned policy named policy wins
// significantly more often than the uniform random choice.
func (r *Result) beatsUniform(policy string) bool {
	for _, c := range r.Comparisons {
		if c.Policy == policy && c.Against == "uniform random" {
			return c.WinsMore
		}
	}
	return false
}

// writeCSV writes t to dir/name.
func writeCSV(dir, name string, t table.Table) error {
	data, err := t.CSV()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, name), data, 0o644)
}

// rate returns an evaluation's win rate (NaN without a game).
func (ev *Evaluation) rate() float64 {
	wins := 0
	for _, w := range ev.Won {
		if w {
			wins++
		}
	}
	return float64(wins) / float64(len(ev.Won))
}

// WinRate returns an evaluation's wins, win rate with its Wilson interval
// at stats.Level, and mean return; an error when Won and Return differ in
// length.
func (ev *Evaluation) WinRate() (wins int, rate float64, iv stats.Interval, mean float64, err error) {
	if len(ev.Return) != len(ev.Won) {
		return 0, 0, iv, 0, fmt.Errorf("evaluation %q: %d returns for %d games", ev.Name, len(ev.Return), len(ev.Won))
	}
	sum := 0.0
	for i, w := range ev.Won {
		if w {
			wins++
		}
		sum += ev.Return[i]
	}
	n := len(ev.Won)
	if iv, err = stats.Wilson(wins, n, stats.Level); err != nil {
		return 0, 0, iv, 0, fmt.Errorf("evaluation %q: %w", ev.Name, err)
	}
	return wins, float64(wins) / float64(n), iv, sum / float64(n), nil
}

// TrainSteps returns the learner's steps (its turns, one action each) over
// the training curve's blocks: the training budget in steps, beside
// Train.Games in episodes.
func (r *Result) TrainSteps() int {
	n := 0
	for _, c := range r.Curve {
		n += c.Steps
	}
	return n
}

// CurveTable is the training curve: per block, the wins with a Wilson
// interval, the mean return with a normal 95 % interval, the learner's
// steps and the action shares; an error names a block whose counts
// stats.Wilson refuses.
func (r *Result) CurveTable() (table.Table, error) {
	t := table.Table{Header: []string{"first", "games", "wins", "win_rate", "win_lo", "win_hi", "mean_return", "return_lo", "return_hi", "steps"}}
	for _, a := range r.Actions {
		t.Header = append(t.Header, "share_"+a)
	}
	for _, c := range r.Curve {
		iv, err := c.Wilson()
		if err != nil {
			return table.Table{}, err
		}
		half := 1.959963984540054 * c.SDReturn / math.Sqrt(float64(c.Games))
		row := []string{strconv.Itoa(c.First), strconv.Itoa(c.Games), strconv.Itoa(c.Wins), textfmt.Fixed(float64(c.Wins)/float64(c.Games), 6),
			textfmt.Fixed(iv.Lo, 6), textfmt.Fixed(iv.Hi, 6), textfmt.Fixed(c.MeanReturn, 4), textfmt.Fixed(c.MeanReturn-half, 4), textfmt.Fixed(c.MeanReturn+half, 4), strconv.Itoa(c.Steps)}
		for _, sh := range c.ActionShare {
			row = append(row, textfmt.Fixed(sh, 6))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Wilson returns the 95 % Wilson interval of the block's win rate, an
// error naming the block when stats.Wilson refuses its counts.
func (c *BlockStats) Wilson() (stats.Interval, error) {
	iv, err := stats.Wilson(c.Wins, c.Games, stats.Level)
	if err != nil {
		return iv, fmt.Errorf("training block from game %d: %w", c.First, err)
	}
	return iv, nil
}

// evalCSV is the evaluation: per policy, games, wins, win rate with its
// Wilson interval, mean return, eliminations, stalemates, action shares
// (an error from Evaluation.WinRate).
func (r *Result) evalCSV() (table.Table, error) {
	t := table.Table{Header: []string{"policy", "games", "wins", "win_rate", "win_lo", "win_hi", "mean_return", "eliminated", "stalemates"}}
	for _, a := range r.Actions {
		t.Header = append(t.Header, "share_"+a)
	}
	for i := range r.Evaluations {
		ev := &r.Evaluations[i]
		wins, rate, iv, mean, err := ev.WinRate()
		if err != nil {
			return table.Table{}, err
		}
		row := []string{ev.Name, strconv.Itoa(len(ev.Won)), strconv.Itoa(wins), textfmt.Fixed(rate, 6), textfmt.Fixed(iv.Lo, 6), textfmt.Fixed(iv.Hi, 6), textfmt.Fixed(mean, 4),
			strconv.Itoa(ev.Eliminated), strconv.Itoa(ev.Stalemates)}
		for _, sh := range ev.ActionShare {
			row = append(row, textfmt.Fixed(sh, 6))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// pairedCSV is the paired comparisons of the learned policy with each
// other policy.
func (r *Result) pairedCSV() table.Table {
	t := table.Table{Header: []string{"policy", "against", "win_diff", "win_diff_lo", "win_diff_hi", "win_p", "win_p_holm",
		"return_diff", "return_diff_lo", "return_diff_hi", "return_p", "return_p_holm"}}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	for _, c := range r.Comparisons {
		t.Rows = append(t.Rows, []string{c.Policy, c.Against, textfmt.Fixed(c.Win.Diff, 6), textfmt.Fixed(c.Win.Interval.Lo, 6), textfmt.Fixed(c.Win.Interval.Hi, 6), g(c.Win.P), g(c.HolmWinP),
			textfmt.Fixed(c.Return.Mean, 4), textfmt.Fixed(c.Return.Interval.Lo, 4), textfmt.Fixed(c.Return.Interval.Hi, 4), g(c.Return.P), g(c.HolmReturnP)})
	}
	return t
}

// WriteCurve writes the training curve into dir: curve.csv (the
// figures curve-win.png and curve-return.png are internal/figures').
func (r *Result) WriteCurve(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	curve, err := r.CurveTable()
	if err != nil {
		return err
	}
	return writeCSV(dir, "curve.csv", curve)
}

// Write writes the result into dir: the curve (WriteCurve) and the
// policy (PolicyName) unless the policy was loaded, eval.csv, paired.csv
// and README.md, which shows the figures internal/figures draws
// (curve-win.png, curve-return.png, eval-win.png).
func (r *Result) Write(dir string) error {
	if r.PolicySource == "" {
		if err := r.WriteCurve(dir); err != nil {
			return err
		}
		if err := r.WritePolicy(dir); err != nil {
			return err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	eval, err := r.evalCSV()
	if err != nil {
		return err
	}
	for name, t := range map[string]table.Table{"eval.csv": eval, "paired.csv": r.pairedCSV()} {
		if err := writeCSV(dir, name, t); err != nil {
			return err
		}
	}
	readme, err := r.readme()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, "README.md"), readme, 0o644)
}

// WritePolicy writes the learner's greedy policy to dir/PolicyName (none
// without a learner).
func (r *Result) WritePolicy(dir string) error {
	var l Learner
	switch {
	case r.Q != nil:
		l = r.Q
	case r.DQN != nil:
		l = r.DQN
	default:
		return nil
	}
	return SavePolicy(filepath.Join(dir, PolicyName), l, r.Observation, r.Actions)
}

// readme is the result's report: the training curve, the evaluation and
// paired comparisons as Markdown tables (EvalTables, PairedTables),
// the verdicts and the figures, from the same renderers as the strategist
// notebooks (an error from Evaluation.WinRate or a block's counts).
func (r *Result) readme() ([]byte, error) {
	var b strings.Builder
	b.WriteString("# The strategist experiment\n\n")
	if r.PolicySource != "" {
		fmt.Fprintf(&b, "Written by `marslab learn -policy`: the policy was loaded from %s, not trained.\n\n", r.PolicySource)
	} else {
		curve, err := r.CurveText()
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "Written by `marslab learn`. Training: %d steps of the learner. Curve of the exploring policy, per block (data: `curve.csv`). %s\n\n", r.TrainSteps(), curve)
		b.WriteString("![win rate](curve-win.png)\n\n![mean return](curve-return.png)\n\n")
	}
	b.WriteString("Evaluation on fresh seeds, every policy on the same episodes (data: `eval.csv`; the action columns are the shares of the steps taking each action):\n\n")
	eval, err := r.evalShown()
	if err != nil {
		return nil, err
	}
	b.WriteString(eval.Markdown())
	b.WriteString("\n![evaluation](eval-win.png)\n\n")
	if len(r.Comparisons) > 0 {
		b.WriteString("Paired on the same episodes, p-values Holm-corrected over all comparisons (data: `paired.csv`):\n\n")
		b.WriteString(r.pairedShown().Markdown())
		b.WriteString("\n")
	}
	verdicts, err := r.Verdicts()
	if err != nil {
		return nil, err
	}
	for _, v := range verdicts {
		b.WriteString("- " + v + "\n")
	}
	for _, v := range r.Behaviour() {
		b.WriteString("- " + v + "\n")
	}
	return []byte(b.String()), nil
}

// Summary writes the evaluation and the verdict as text (an error from
// Evaluation.WinRate).
func (r *Result) Summary(w io.Writer) error {
	fmt.Fprintf(w, "%-22s %7s %22s %12s\n", "policy", "games", "win % [95 % Wilson]", "mean return")
	for i := range r.Evaluations {
		ev := &r.Evaluations[i]
		wins, _, iv, mean, err := ev.WinRate()
		if err != nil {
			return err
		}
		n := len(ev.Won)
		fmt.Fprintf(w, "%-22s %7d %6.1f [%5.1f, %5.1f] %12.1f\n", ev.Name, n, 100*float64(wins)/float64(n), 100*iv.Lo, 100*iv.Hi, mean)
	}
	fmt.Fprintln(w, "\npaired on the same seeds; p after Holm over all comparisons:")
	for _, c := range r.Comparisons {
		fmt.Fprintf(w, "  %s minus %-20s win %+6.1f points [%+.1f, %+.1f] p=%.3g   return %+8.1f [%+.1f, %+.1f] p=%.3g\n", c.Policy, c.Against,
			100*c.Win.Diff, 100*c.Win.Interval.Lo, 100*c.Win.Interval.Hi, c.HolmWinP, c.Return.Mean, c.Return.Interval.Lo, c.Return.Interval.Hi, c.HolmReturnP)
	}
	yes := map[bool]string{true: "yes", false: "no"}
	for _, p := range []string{"learned", "learned, exploring"} {
		fmt.Fprintf(w, "%s wins more often than every fixed strategy: %s; than the uniform random choice: %s\n",
			p, yes[r.beatsFixed(p)], yes[r.beatsUniform(p)])
	}
	return nil
}
