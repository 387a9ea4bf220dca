package report

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/marslab-risk/marslab/internal/figures"
	lexp "github.com/marslab-risk/marslab/internal/strategist"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/learn"
	"github.com/marslab-risk/marslab/table"
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
	exp  *lexp.Experiment
	arms []*lexp.Experiment
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
	exp, err := lexp.LoadExperiment(notebookPath(filepath.Dir(path), c.Strategist.Config))
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
		ae, err := lexp.LoadExperiment(filepath.Join(filepath.Dir(path), a.Config))
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
func sameButFeatures(a, b *lexp.Experiment) error {
	if a.Learner != "q" || b.Learner != "q" {
		return fmt.Errorf("learner %q and %q: an ablation needs the q learner", a.Learner, b.Learner)
	}
	x, y := *a, *b
	x.Source, y.Source, x.Out, y.Out, x.QFeatures, y.QFeatures = "", "", "", "", nil, nil
	x.Q.Features, y.Q.Features = nil, nil
	if x.Env != nil && y.Env != nil {
		// The environments are compared without the names of their files.
		ex, ey := *x.Env, *y.Env
		ex.Source, ey.Source, ex.File, ey.File = "", "", "", ""
		x.Env, y.Env = &ex, &ey
	}
	if !reflect.DeepEqual(x, y) {
		return fmt.Errorf("differs from %s in more than q.features", a.Source)
	}
	return nil
}

func (c *strategistConfig) template() string { return "strategist.md.tmpl" }

// sized returns the experiment at the run's size.
func (c *strategistConfig) sized(quick bool) lexp.Experiment { return c.sizedArm(c.exp, quick) }

// sizedArm returns experiment e at the run's size.
func (c *strategistConfig) sizedArm(exp *lexp.Experiment, quick bool) lexp.Experiment {
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

// strategistData is the template data of a strategist notebook: the
// experiment's set-up and its result rendered by package learn (the same
// tables and sentences as the README.md of marslab learn).
type strategistData struct {
	Config    string
	Exp       lexp.Experiment
	Learner   string
	Actions   []string
	Opponents []string
	Features  []string
	// Eval and Paired are the evaluation and its paired comparisons;
	// Verdicts and Behaviour the sentences stating them; Best the policy
	// with the highest win rate.
	Eval      table.Table
	Paired    table.Table
	Verdicts  []string
	Behaviour []string
	Best      string
	// Curve states the first and last blocks of the training curve.
	Curve       string
	PolicyBy    table.Table // the greedy policy along the Q-table's "front" feature, if any
	PolicyByKey string
	// TrainSteps is the experiment's training budget in the learner's
	// steps (Exp.Train.Games in episodes).
	TrainSteps int
	// Ablation is the table of the arms (the experiment first), AblPairs
	// their paired comparisons; Lead names the experiment's arm.
	Ablation table.Table
	AblPairs table.Table
	Lead     string
	// AblVerdicts say, for each further arm, how its greedy policy's win
	// rate compares with the experiment's (Holm-corrected, 95 %).
	AblVerdicts []string
}

func (c *strategistConfig) run(ctx context.Context, w *writer) (any, error) {
	e := c.sized(w.quick)
	res, err := e.RunWith(ctx, w.reg, lexp.RunOptions{Workers: c.Strategist.Workers, Progress: w.log})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	paired, pairedCSV := res.PairedTables()
	d := &strategistData{Config: c.Strategist.Config, Exp: e, Learner: e.Learner, Actions: res.Actions,
		Opponents: e.Env.Opponents, Features: e.Env.Features, Paired: paired,
		Behaviour: res.Behaviour(), Best: res.Best(), TrainSteps: res.TrainSteps()}
	var eval table.Table
	if d.Eval, eval, err = res.EvalTables(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	if d.Verdicts, err = res.Verdicts(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	if d.Curve, err = res.CurveText(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	curve, err := res.CurveTable()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	for _, t := range []struct {
		name string
		t    table.Table
	}{{"curve.csv", curve}, {"eval.csv", eval}, {"paired.csv", pairedCSV}} {
		if err := w.table(t.name, t.t); err != nil {
			return nil, err
		}
	}
	win, ret, err := figures.StrategistCurve(res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	if err := w.figure("curve-win", win); err != nil {
		return nil, err
	}
	if err := w.figure("curve-return", ret); err != nil {
		return nil, err
	}
	chart, err := figures.StrategistEval(res)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path, err)
	}
	if err := w.figure("eval-win", chart); err != nil {
		return nil, err
	}
	if len(c.arms) > 0 {
		if err := c.ablation(ctx, w, d, res); err != nil {
			return nil, err
		}
	}
	if k := slices.Index(e.QFeatures, learn.FeatFront); k >= 0 && res.Q != nil {
		d.PolicyByKey, d.PolicyBy = learn.FeatFront, res.PolicyByMarkdown(e.QFeatures, k)
	}
	return d, nil
}

// ablation trains every further arm, evaluates its greedy policy and
// compares every two arms (the experiment's greedy evaluation first) on
// the same episodes (lexp.CompareArms).
func (c *strategistConfig) ablation(ctx context.Context, w *writer, d *strategistData, lead *lexp.Result) error {
	d.Lead = c.Strategist.Name
	arms := []lexp.Arm{{Name: c.Strategist.Name, Features: d.Exp.QFeatures, Games: d.Exp.Train.Games, Steps: d.TrainSteps, Eval: &lead.Evaluations[0]}}
	for i, ae := range c.arms {
		e := c.sizedArm(ae, w.quick)
		w.logf("strategist: ablation arm %s (%v)", c.Ablation[i].Name, e.QFeatures)
		res, err := e.RunWith(ctx, w.reg, lexp.RunOptions{Workers: c.Strategist.Workers, GreedyOnly: true})
		if err != nil {
			return fmt.Errorf("%s: ablation %s: %w", c.path, c.Ablation[i].Name, err)
		}
		arms = append(arms, lexp.Arm{Name: c.Ablation[i].Name, Features: e.QFeatures, Games: e.Train.Games, Steps: res.TrainSteps(), Eval: &res.Evaluations[0]})
	}
	abl, err := lexp.CompareArms(arms)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	var csv, pairsCSV table.Table
	d.AblPairs, pairsCSV = abl.PairsTables()
	d.AblVerdicts = abl.Verdicts()
	if d.Ablation, csv, err = abl.Tables(); err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	if err := w.table("ablation.csv", csv); err != nil {
		return err
	}
	return w.table("ablation-paired.csv", pairsCSV)
}

// signed formats v with digits decimals and a "+" before values >= 0.
func signed(v float64, digits int) string { return textfmt.Signed(v, digits) }
