package report

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/learn"
	"github.com/marslab-risk/marslab/stats"
)

// strategistNotes are the note sections of a strategist notebook.
var strategistNotes = []string{"intro", "ablation", "training", "evaluation", "why", "conclusion"}

// strategistConfig is the config of a strategist notebook: the experiment
// of marslab learn (package learn's format) at a full and a quick size.
type strategistConfig struct {
	Header
	Strategist struct {
		// Config is the experiment's config file, relative to the
		// notebook's folder; its seed must be the notebook's.
		Config string `toml:"config"`
		// Workers is the number of goroutines playing episodes; 0 means
		// every core (the results do not depend on it).
		Workers int `toml:"workers"`
		// Name names the experiment's arm in the ablation table, e.g.
		// "thesis observation".
		Name string `toml:"name"`
	} `toml:"strategist"`
	// Ablation are further arms: experiments that differ from the
	// strategist config only in the Q-table's features (checked), each
	// trained and its greedy policy evaluated on the same episodes, then
	// every two arms compared.
	Ablation []struct {
		Name   string `toml:"name"`
		Config string `toml:"config"`
	} `toml:"ablation"`
	// Quick is the reduced size: training games, batch and block, and
	// evaluation games per policy.
	Quick struct {
		Games     int `toml:"games"`
		Batch     int `toml:"batch"`
		Block     int `toml:"block"`
		EvalGames int `toml:"eval_games"`
	} `toml:"quick"`
	path string
	exp  *learn.Experiment
	arms []*learn.Experiment
}

func parseStrategist(path string, data []byte) (experiment, error) {
	c := strategistConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	ck.nonEmpty("strategist.config", c.Strategist.Config)
	ck.intIn("strategist.workers", c.Strategist.Workers, 0, maxWorkers)
	ck.intIn("quick.games", c.Quick.Games, 1, 1_000_000)
	ck.intIn("quick.batch", c.Quick.Batch, 1, 1_000_000)
	ck.intIn("quick.block", c.Quick.Block, 1, 1_000_000)
	ck.intIn("quick.eval_games", c.Quick.EvalGames, 1, 1_000_000)
	if ck.err != nil {
		return nil, ck.err
	}
	exp, err := learn.LoadExperiment(notebookPath(filepath.Dir(path), c.Strategist.Config))
	if err != nil {
		return nil, fmt.Errorf("%s: key strategist.config: %w", path, err)
	}
	if exp.Train.Seed != c.Seed {
		return nil, fmt.Errorf("%s: key seed: %d: want the experiment's seed %d (%s)", path, c.Seed, exp.Train.Seed, c.Strategist.Config)
	}
	c.exp = exp
	if len(c.Ablation) > 0 {
		ck.nonEmpty("strategist.name", c.Strategist.Name)
	}
	names := map[string]bool{c.Strategist.Name: true}
	for i, a := range c.Ablation {
		key := fmt.Sprintf("ablation[%d]", i)
		ck.nonEmpty(key+".name", a.Name)
		ck.nonEmpty(key+".config", a.Config)
		if names[a.Name] {
			ck.fail(key+".name", "%q: used twice", a.Name)
		}
		names[a.Name] = true
		if ck.err != nil {
			return nil, ck.err
		}
		ae, err := learn.LoadExperiment(filepath.Join(filepath.Dir(path), a.Config))
		if err != nil {
			return nil, fmt.Errorf("%s: key %s.config: %w", path, key, err)
		}
		if err := sameButFeatures(exp, ae); err != nil {
			return nil, fmt.Errorf("%s: key %s.config: %s: %w", path, key, a.Config, err)
		}
		c.arms = append(c.arms, ae)
	}
	return &c, nil
}

// sameButFeatures reports an error unless b is the experiment a with other
// Q-table features only (learner q).
func sameButFeatures(a, b *learn.Experiment) error {
	if a.Learner != "q" || b.Learner != "q" {
		return fmt.Errorf("learner %q and %q: an ablation needs the q learner", a.Learner, b.Learner)
	}
	x, y := *a, *b
	x.Source, y.Source, x.Out, y.Out, x.QFeatures, y.QFeatures = "", "", "", "", nil, nil
	x.Q.Features, y.Q.Features = nil, nil
	if x.Env != nil && y.Env != nil {
		// The environments are compared without the names of their files.
		ex, ey := *x.Env, *y.Env
		ex.Source, ey.Source = "", ""
		x.Env, y.Env = &ex, &ey
	}
	if !reflect.DeepEqual(x, y) {
		return fmt.Errorf("differs from %s in more than q.features", a.Source)
	}
	return nil
}

func (c *strategistConfig) template() string { return "strategist.md.tmpl" }

// sized returns the experiment at the run's size.
func (c *strategistConfig) sized(quick bool) learn.Experiment { return c.sizedArm(c.exp, quick) }

// sizedArm returns experiment e at the run's size.
func (c *strategistConfig) sizedArm(exp *learn.Experiment, quick bool) learn.Experiment {
	e := *exp
	if quick {
		e.Train.Games, e.Train.Batch, e.Train.Block, e.EvalGames = c.Quick.Games, c.Quick.Batch, c.Quick.Block, c.Quick.EvalGames
	}
	return e
}

func (c *strategistConfig) sizes(quick bool) string {
	e := c.sized(quick)
	return fmt.Sprintf("train.games = %d, train.batch = %d, train.block = %d, eval.games = %d", e.Train.Games, e.Train.Batch, e.Train.Block, e.EvalGames)
}

// strategistData is the template data of a strategist notebook.
type strategistData struct {
	Config      string
	Exp         learn.Experiment
	Learner     string
	Actions     []string
	Opponents   []string
	Features    []string
	Eval        mdTable
	Paired      mdTable
	Verdicts    []strategistVerdict
	Best        string // the best policy by win rate
	FirstBlock  learnBlock
	LastBlock   learnBlock
	PolicyBy    mdTable // the greedy policy along the Q-table's "front" feature, if any
	PolicyByKey string
	// TrainSteps is the experiment's training budget in the learner's
	// steps (Exp.Train.Games in episodes).
	TrainSteps int
	// Ablation is the table of the arms (the experiment first), AblPairs
	// their paired comparisons; Lead names the experiment's arm.
	Ablation mdTable
	AblPairs mdTable
	Lead     string
	// AblVerdicts say, for each further arm, how its greedy policy's win
	// rate compares with the experiment's (Holm-corrected, 95 %).
	AblVerdicts []string
}

// strategistVerdict says whether a learned policy beats the others.
type strategistVerdict struct {
	Policy              string
	BeatsFixed, Uniform bool
}

// learnBlock is one block of the training curve, formatted.
type learnBlock struct {
	First, Games int
	Win, Lo, Hi  float64
	MeanReturn   float64
}

func (c *strategistConfig) run(ctx context.Context, w *writer) (any, error) {
	e := c.sized(w.quick)
	res, err := e.Run(ctx, w.reg, c.Strategist.Workers, w.log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	d := &strategistData{Config: c.Strategist.Config, Exp: e, Learner: e.Learner, Actions: res.Actions,
		Opponents: e.Env.Opponents, Features: e.Env.Features}
	for _, p := range []string{"learned", "learned, exploring"} {
		d.Verdicts = append(d.Verdicts, strategistVerdict{p, res.BeatsFixed(p), res.BeatsUniform(p)})
	}
	for _, t := range []struct {
		name string
		t    learn.Table
	}{{"curve.csv", res.CurveTable()}, {"eval.csv", res.EvalTable()}, {"paired.csv", res.PairedTable()}} {
		if err := w.csv(t.name, t.t.Header, t.t.Rows); err != nil {
			return nil, err
		}
	}
	win, ret := res.CurveCharts()
	if err := w.figure("curve-win", win); err != nil {
		return nil, err
	}
	if err := w.figure("curve-return", ret); err != nil {
		return nil, err
	}
	if err := w.figure("eval-win", res.EvalChart()); err != nil {
		return nil, err
	}
	block := func(b learn.BlockStats) learnBlock {
		wins, n := b.Wins, b.Games
		rate := float64(wins) / float64(n)
		iv, _ := stats.Wilson(wins, n, learn.Level)
		return learnBlock{First: b.First, Games: n, Win: rate, Lo: iv.Lo, Hi: iv.Hi, MeanReturn: b.MeanReturn}
	}
	if len(res.Curve) > 0 {
		d.FirstBlock, d.LastBlock = block(res.Curve[0]), block(res.Curve[len(res.Curve)-1])
	}
	d.Eval = mdTable{Header: []string{"policy", "games", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates"}}
	for _, a := range res.Actions {
		d.Eval.Header = append(d.Eval.Header, a+" %")
	}
	bestRate := -1.0
	for i := range res.Evaluations {
		ev := &res.Evaluations[i]
		wins, rate, iv, mean := ev.Winrate()
		if rate > bestRate {
			bestRate, d.Best = rate, ev.Name
		}
		row := []string{ev.Name, itoa(len(ev.Won)), itoa(wins), textfmt.Fixed(100*rate, 1),
			"[" + textfmt.Fixed(100*iv.Lo, 1) + ", " + textfmt.Fixed(100*iv.Hi, 1) + "]", textfmt.Fixed(mean, 1), itoa(ev.Eliminated), itoa(ev.Stalemates)}
		for _, s := range ev.ActionShare {
			row = append(row, textfmt.Fixed(100*s, 1))
		}
		d.Eval.Rows = append(d.Eval.Rows, row)
	}
	d.Paired = mdTable{Header: []string{"policy", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	for _, cm := range res.Comparisons {
		d.Paired.Rows = append(d.Paired.Rows, []string{cm.Policy, cm.Against, signed(100*cm.Win.Diff, 1),
			"[" + signed(100*cm.Win.Interval.Lo, 1) + ", " + signed(100*cm.Win.Interval.Hi, 1) + "]", pval(cm.HolmWinP),
			signed(cm.Return.Mean, 1), "[" + signed(cm.Return.Interval.Lo, 1) + ", " + signed(cm.Return.Interval.Hi, 1) + "]", pval(cm.HolmReturnP)})
	}
	d.TrainSteps = res.TrainSteps()
	if len(c.arms) > 0 {
		if err := c.ablation(ctx, w, d, res); err != nil {
			return nil, err
		}
	}
	if res.Q != nil {
		if k := slices.Index(e.QFeatures, learn.FeatFront); k >= 0 {
			d.PolicyByKey = learn.FeatFront
			share, visits := res.Q.PolicyBy(k)
			d.PolicyBy = mdTable{Header: []string{learn.FeatFront + " bin", "training visits"}}
			for _, a := range res.Actions {
				d.PolicyBy.Header = append(d.PolicyBy.Header, "greedy "+a+" %")
			}
			bins := len(share)
			for b := range share {
				row := []string{"[" + textfmt.Fixed(float64(b)/float64(bins), 2) + ", " + textfmt.Fixed(float64(b+1)/float64(bins), 2) + ")", itoa(visits[b])}
				for _, s := range share[b] {
					row = append(row, textfmt.Fixed(100*s, 1))
				}
				d.PolicyBy.Rows = append(d.PolicyBy.Rows, row)
			}
		}
	}
	return d, nil
}

// ablationArm is one arm of the ablation: its name, features, training
// budget and greedy evaluation.
type ablationArm struct {
	name     string
	features []string
	games    int
	steps    int
	ev       *learn.Evaluation
}

// ablation trains every further arm, evaluates its greedy policy and
// compares every two arms (the experiment's greedy evaluation first) on
// the same episodes, Holm-correcting every p-value together.
func (c *strategistConfig) ablation(ctx context.Context, w *writer, d *strategistData, lead *learn.Result) error {
	d.Lead = c.Strategist.Name
	arms := []ablationArm{{c.Strategist.Name, d.Exp.QFeatures, d.Exp.Train.Games, d.TrainSteps, &lead.Evaluations[0]}}
	for i, ae := range c.arms {
		e := c.sizedArm(ae, w.quick)
		w.logf("strategist: ablation arm %s (%v)", c.Ablation[i].Name, e.QFeatures)
		res, err := e.RunWith(ctx, w.reg, learn.RunOptions{Workers: c.Strategist.Workers, GreedyOnly: true})
		if err != nil {
			return fmt.Errorf("%s: ablation %s: %w", c.path, c.Ablation[i].Name, err)
		}
		arms = append(arms, ablationArm{c.Ablation[i].Name, e.QFeatures, e.Train.Games, res.TrainSteps(), &res.Evaluations[0]})
	}
	d.Ablation = mdTable{Header: []string{"arm", "Q-table's observation", "training games", "training steps", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates"}}
	var csvRows [][]string
	for _, a := range arms {
		wins, rate, iv, mean := a.ev.Winrate()
		d.Ablation.Rows = append(d.Ablation.Rows, []string{a.name, strings.Join(a.features, ", "), itoa(a.games), itoa(a.steps),
			itoa(wins), textfmt.Fixed(100*rate, 1), "[" + textfmt.Fixed(100*iv.Lo, 1) + ", " + textfmt.Fixed(100*iv.Hi, 1) + "]",
			textfmt.Fixed(mean, 1), itoa(a.ev.Eliminated), itoa(a.ev.Stalemates)})
		csvRows = append(csvRows, []string{a.name, strings.Join(a.features, " "), itoa(a.games), itoa(a.steps), itoa(len(a.ev.Won)),
			itoa(wins), num(rate), num(iv.Lo), num(iv.Hi), num(mean), itoa(a.ev.Eliminated), itoa(a.ev.Stalemates)})
	}
	if err := w.csv("ablation.csv", []string{"arm", "features", "train_games", "train_steps", "eval_games", "wins", "win_rate", "win_lo", "win_hi", "mean_return", "eliminated", "stalemates"}, csvRows); err != nil {
		return err
	}
	type pair struct {
		x, y int
		win  stats.PairedProportion
		ret  stats.Paired
	}
	var pairs []pair
	var ps []float64
	for y := range arms {
		for x := y + 1; x < len(arms); x++ {
			pc, err := stats.CountPairs(arms[x].ev.Won, arms[y].ev.Won)
			if err != nil {
				return err
			}
			win, err := stats.PairedProportions(pc, learn.Level)
			if err != nil {
				return err
			}
			ret, err := stats.PairedT(arms[x].ev.Return, arms[y].ev.Return, learn.Level)
			if err != nil {
				return err
			}
			pairs = append(pairs, pair{x, y, win, ret})
			ps = append(ps, win.P, ret.P)
		}
	}
	holm, err := stats.Holm(ps)
	if err != nil {
		return err
	}
	for i, p := range pairs {
		if p.y != 0 {
			continue
		}
		verdict := "no clear difference"
		if holm[2*i] < 1-learn.Level {
			verdict = "wins more often"
			if p.win.Diff < 0 {
				verdict = "wins less often"
			}
		}
		d.AblVerdicts = append(d.AblVerdicts, fmt.Sprintf("*%s* minus *%s*: %s points of win rate, 95 %% [%s, %s], Holm p = %s: %s.",
			arms[p.x].name, arms[0].name, signed(100*p.win.Diff, 1), signed(100*p.win.Interval.Lo, 1), signed(100*p.win.Interval.Hi, 1), pval(holm[2*i]), verdict))
	}
	d.AblPairs = mdTable{Header: []string{"arm", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	csvRows = nil
	for i, p := range pairs {
		d.AblPairs.Rows = append(d.AblPairs.Rows, []string{arms[p.x].name, arms[p.y].name, signed(100*p.win.Diff, 1),
			"[" + signed(100*p.win.Interval.Lo, 1) + ", " + signed(100*p.win.Interval.Hi, 1) + "]", pval(holm[2*i]),
			signed(p.ret.Mean, 1), "[" + signed(p.ret.Interval.Lo, 1) + ", " + signed(p.ret.Interval.Hi, 1) + "]", pval(holm[2*i+1])})
		csvRows = append(csvRows, []string{arms[p.x].name, arms[p.y].name, num(p.win.Diff), num(p.win.Interval.Lo), num(p.win.Interval.Hi),
			num(p.win.P), num(holm[2*i]), num(p.ret.Mean), num(p.ret.Interval.Lo), num(p.ret.Interval.Hi), num(p.ret.P), num(holm[2*i+1])})
	}
	return w.csv("ablation-paired.csv", []string{"arm", "minus", "win_diff", "win_lo", "win_hi", "win_p", "win_p_holm", "return_diff", "return_lo", "return_hi", "return_p", "return_p_holm"}, csvRows)
}

func signed(v float64, digits int) string {
	s := textfmt.Fixed(v, digits)
	if v >= 0 {
		s = "+" + s
	}
	return s
}

func pval(p float64) string { return strconv.FormatFloat(p, 'g', 3, 64) }
