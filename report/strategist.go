package report

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/marslab-risk/marslab/learn"
	"github.com/marslab-risk/marslab/stats"
)

// strategistNotes are the note sections of a strategist notebook.
var strategistNotes = []string{"intro", "training", "evaluation", "why", "conclusion"}

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
	} `toml:"strategist"`
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
	return &c, nil
}

func (c *strategistConfig) template() string { return "strategist.md.tmpl" }

// sized returns the experiment at the run's size.
func (c *strategistConfig) sized(quick bool) learn.Experiment {
	e := *c.exp
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
		row := []string{ev.Name, itoa(len(ev.Won)), itoa(wins), fmtFloat(100*rate, 1),
			"[" + fmtFloat(100*iv.Lo, 1) + ", " + fmtFloat(100*iv.Hi, 1) + "]", fmtFloat(mean, 1), itoa(ev.Eliminated), itoa(ev.Stalemates)}
		for _, s := range ev.ActionShare {
			row = append(row, fmtFloat(100*s, 1))
		}
		d.Eval.Rows = append(d.Eval.Rows, row)
	}
	d.Paired = mdTable{Header: []string{"policy", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	for _, cm := range res.Comparisons {
		d.Paired.Rows = append(d.Paired.Rows, []string{cm.Policy, cm.Against, signed(100*cm.Win.Diff, 1),
			"[" + signed(100*cm.Win.Interval.Lo, 1) + ", " + signed(100*cm.Win.Interval.Hi, 1) + "]", pval(cm.HolmWinP),
			signed(cm.Return.Mean, 1), "[" + signed(cm.Return.Interval.Lo, 1) + ", " + signed(cm.Return.Interval.Hi, 1) + "]", pval(cm.HolmReturnP)})
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
				row := []string{"[" + fmtFloat(float64(b)/float64(bins), 2) + ", " + fmtFloat(float64(b+1)/float64(bins), 2) + ")", itoa(visits[b])}
				for _, s := range share[b] {
					row = append(row, fmtFloat(100*s, 1))
				}
				d.PolicyBy.Rows = append(d.PolicyBy.Rows, row)
			}
		}
	}
	return d, nil
}

func signed(v float64, digits int) string {
	s := fmtFloat(v, digits)
	if v >= 0 {
		s = "+" + s
	}
	return s
}

func pval(p float64) string { return strconv.FormatFloat(p, 'g', 3, 64) }
