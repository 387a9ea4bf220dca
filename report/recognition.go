package report

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/marslab-risk/marslab/internal/figures"
	rexp "github.com/marslab-risk/marslab/internal/recognition"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// recognitionNotes are the note sections of a recognition notebook.
var recognitionNotes = []string{"intro", "headline", "differences", "general", "winners", "missions", "length", "figures", "beyond", "conclusion"}

// recognitionConfig is the config of a recognition notebook: the mission
// recognition experiment of package internal/recognition beside the appendix
// of Khan & Rovatsos (2013).
type recognitionConfig struct {
	Header
	Recognition struct {
		// Config is the experiment's config file, relative to the
		// notebook's folder.
		Config string `toml:"config"`
		// Games and TrainGames are the full sizes per arm.
		Games      int `toml:"games"`
		TrainGames int `toml:"train_games"`
		// Workers is the worker count; 0 means every core.
		Workers int `toml:"workers"`
		// Compare names two arms (low, high) whose end-of-game accuracies
		// the headline compares (e.g. mission-w4 and mission-w100); empty
		// for none.
		Compare []string `toml:"compare"`
		// Tolerance is the largest distance in points between an arm's
		// end-of-game accuracy and the paper's that the headline calls
		// close, in (0, 100].
		Tolerance float64 `toml:"tolerance"`
		// Differences are the set-up differences from the paper that
		// the notebook measures, each as a pair of arms that differ in it
		// alone.
		Differences []setupDifference `toml:"differences"`
	} `toml:"recognition"`
	// Quick is the reduced size.
	Quick struct {
		Games      int `toml:"games"`
		TrainGames int `toml:"train_games"`
	} `toml:"quick"`
	Paper paperRecognition `toml:"paper"`
	path  string
	ec    *rexp.Config
}

// setupDifference is one difference in set-up between our experiment and
// the paper's, measured as the change in end-of-game accuracy from arm Base
// (ours) to arm Variant (the difference removed).
type setupDifference struct {
	// Name says what differs, e.g. "starting armies spread".
	Name string `toml:"name"`
	// Base and Variant are arms of the experiment config.
	Base    string `toml:"base"`
	Variant string `toml:"variant"`
}

// paperRecognition holds the paper's appendix counts, by arm name.
type paperRecognition struct {
	// Source cites the tables.
	Source string `toml:"source"`
	// Arms are the paper's rows for our arms (by arm name).
	Arms rexp.Paper `toml:"arms"`
}

func parseRecognition(path string, data []byte) (experiment, error) {
	c := recognitionConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	r := &c.Recognition
	ck.nonEmpty("recognition.config", r.Config)
	if ck.err != nil {
		return nil, ck.err
	}
	ec, err := rexp.Load(notebookPath(filepath.Dir(path), r.Config))
	if err != nil {
		return nil, fmt.Errorf("%s: key recognition.config: %w", path, err)
	}
	c.ec = ec
	ck.intIn("recognition.games", r.Games, 1, rexp.MaxGames)
	ck.intIn("recognition.train_games", r.TrainGames, 1, rexp.MaxGames)
	ck.intIn("recognition.workers", r.Workers, 0, maxWorkers)
	if len(r.Compare) != 0 && len(r.Compare) != 2 {
		ck.fail("recognition.compare", "%d arms, want 2 (low, high) or none", len(r.Compare))
	}
	for i, name := range r.Compare {
		found := false
		for _, arm := range ec.Arms {
			found = found || arm.Name == name
		}
		if !found {
			ck.fail(fmt.Sprintf("recognition.compare[%d]", i), "%q is not an arm of %s", name, ec.Source)
		}
	}
	distinct(ck, "recognition.compare", r.Compare)
	// A difference may be measured on several pairs of arms (its name
	// repeated), each pair once.
	pairs := make([][2]string, len(r.Differences))
	for i, d := range r.Differences {
		key := fmt.Sprintf("recognition.differences[%d]", i)
		ck.nonEmpty(key+".name", d.Name)
		pairs[i] = [2]string{d.Base, d.Variant}
		for _, x := range []struct{ k, name string }{{"base", d.Base}, {"variant", d.Variant}} {
			found := false
			for _, arm := range ec.Arms {
				found = found || arm.Name == x.name
			}
			if !found {
				ck.fail(key+"."+x.k, "%q is not an arm of %s", x.name, ec.Source)
			}
		}
		if d.Base == d.Variant {
			ck.fail(key+".variant", "%q: must differ from base", d.Variant)
		}
	}
	distinct(ck, "recognition.differences", pairs)
	if !(r.Tolerance > 0 && r.Tolerance <= 100) {
		ck.fail("recognition.tolerance", "%v outside (0, 100] (points)", r.Tolerance)
	}
	ck.intIn("quick.games", c.Quick.Games, 1, r.Games)
	ck.intIn("quick.train_games", c.Quick.TrainGames, 1, r.TrainGames)
	p := &c.Paper
	ck.nonEmpty("paper.source", p.Source)
	for _, name := range sortedKeys(p.Arms) {
		a, key := p.Arms[name], "paper.arms."+name
		found := false
		for _, arm := range ec.Arms {
			found = found || arm.Name == name
		}
		if !found {
			ck.fail(key, "%q is not an arm of %s", name, ec.Source)
		}
		ck.nonEmpty(key+".name", a.Name)
		for _, t := range []struct {
			k    string
			rows [][]int
			n    int
		}{{"winners", a.Winners, 4}, {"losers", a.Losers, 4}, {"missions", a.Missions, -1}} {
			if t.n > 0 && len(t.rows) != t.n {
				ck.fail(key+"."+t.k, "%d rows, want %d ([correct, incorrect] at 25, 50, 75, 100 %%)", len(t.rows), t.n)
			}
			for i, row := range t.rows {
				ck.ints(fmt.Sprintf("%s.%s[%d]", key, t.k, i), row, 2, 2, 0, rexp.MaxGames)
			}
		}
	}
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

func (c *recognitionConfig) template() string { return "recognition.md.tmpl" }

func (c *recognitionConfig) sized(quick bool) (games, train int) {
	if quick {
		return c.Quick.Games, c.Quick.TrainGames
	}
	return c.Recognition.Games, c.Recognition.TrainGames
}

func (c *recognitionConfig) sizes(quick bool) string {
	g, t := c.sized(quick)
	return fmt.Sprintf("%d arms, %d test games and %d training games per arm", len(c.ec.Arms), g, t)
}

// recognitionGap is the difference of the end-of-game accuracies of two
// arms (high - low), ours with Newcombe's interval, and the paper's.
type recognitionGap struct {
	Low, High string
	Diff      float64
	Lo, Hi    float64
	Paper     float64
	HasPaper  bool
	// Direction reports that ours has the paper's sign and its interval
	// excludes 0.
	Direction bool
}

// differenceResult is one measured set-up difference: the variant's
// end-of-game accuracy minus the base's (points, Newcombe's 95 % interval,
// independent samples), and each arm's distance from the paper (points;
// HasPaper false when neither arm has a paper row).
type differenceResult struct {
	Name, Base, Variant    string
	BaseAcc, VariantAcc    float64
	Diff, Lo, Hi           float64
	HasPaper               bool
	BaseGap, VariantGap    float64
	VariantClose, Included bool
}

// bestRecogniser is the recogniser most often right on an arm at the end
// of the game, with its accuracy and plain PHATT's, in percent.
type bestRecogniser struct {
	Arm, Name  string
	Acc, PHATT float64
}

// countingResult is the effect of one counting rule of the paper's, per
// arm: the paper's counting minus the counting with that rule changed, in
// points with Newcombe's 95 % interval (paired).
type countingResult struct {
	Name string
	Rows []countingRow
}

// countingRow is one arm's effect of a counting rule.
type countingRow struct {
	Arm          string
	Diff, Lo, Hi float64
}

// recognitionData is the template data of a recognition notebook.
type recognitionData struct {
	Config     string
	Source     string
	Arms       []string
	Games      int
	TrainGames int
	Sum        *rexp.Summary
	// Ours is the summary by our counting (turn clock, ties broken at
	// random).
	Ours    *rexp.Summary
	Trained []int
	// Headline compares each arm's end-of-game accuracy with the paper's;
	// Gap the two Compare arms; Close says whether every arm with a paper
	// row is within Tolerance points of it.
	Headline table.Table
	Gap      *recognitionGap
	// Differences is the table of the measured set-up differences and
	// Diffs their numbers, for the sentences.
	Differences table.Table
	Diffs       []differenceResult
	// CountingTable is the table of the counting differences and
	// Countings their numbers, for the sentences.
	CountingTable table.Table
	Countings     []countingResult
	// Gaps are the arms with a paper row against it, and WinnerGaps every
	// arm's winners against its losers, for the sentences.
	Gaps        []rexp.PaperGap
	WinnerGaps  []rexp.WinnerGap
	Close       bool
	Tolerance   float64
	General     table.Table
	WinLose     table.Table
	Missions    table.Table
	Recognisers table.Table
	Pairs       table.Table
	Length      table.Table
	// CurveSentence, LengthSentences and MissionSentences state what the
	// accuracy curves, the game-length table and the per-mission table of
	// plain PHATT show (rexp.Summary's CurveSentence, LengthSentence and
	// MissionSentence, one per arm).
	CurveSentence    string
	LengthSentences  []string
	MissionSentences []string
	// Chance is the random guess's accuracy.
	Chance float64
	// Trace says which game and player convergence.png shows.
	Trace string
	// Best is, per arm, the recogniser most often right at the end of the
	// game (paper's counting; the first in rexp.Recognisers on ties).
	Best []bestRecogniser
}

func (c *recognitionConfig) run(ctx context.Context, w *writer) (any, error) {
	games, train := c.sized(w.quick)
	setup, err := c.ec.Resolve(w.reg)
	if err != nil {
		return nil, err
	}
	cfg := *c.ec
	w.logf("recognition: %d arms, %d test and %d training games per arm", len(cfg.Arms), games, train)
	res, err := rexp.Run(ctx, &cfg, setup, rexp.Options{Workers: c.Recognition.Workers, Games: games, TrainGames: train})
	if err != nil {
		return nil, err
	}
	sum, err := rexp.Summarize(res, rexp.Counting{})
	if err != nil {
		return nil, err
	}
	ours, err := rexp.Summarize(res, rexp.Ours)
	if err != nil {
		return nil, err
	}
	d := &recognitionData{Config: c.Recognition.Config, Source: c.Paper.Source, Arms: sum.Arms, Games: games,
		TrainGames: train, Sum: sum, Ours: ours, Trained: res.Trained, Chance: sum.Chance, Tolerance: c.Recognition.Tolerance}
	if err := c.headline(d); err != nil {
		return nil, err
	}
	if err := c.differences(d); err != nil {
		return nil, err
	}
	if err := countings(d, res); err != nil {
		return nil, err
	}
	for a, arm := range sum.Arms {
		end := rexp.Step(100)
		b := bestRecogniser{Arm: arm, Name: sum.Recognisers[0], Acc: 100 * sum.Curve[0][a][rexp.All][end].Acc}
		b.PHATT = b.Acc
		for r, name := range sum.Recognisers {
			if acc := 100 * sum.Curve[r][a][rexp.All][end].Acc; sum.Ran[r] && acc > b.Acc {
				b.Name, b.Acc = name, acc
			}
		}
		d.Best = append(d.Best, b)
	}
	if err := c.tables(w, d); err != nil {
		return nil, err
	}
	if err := c.figures(w, sum); err != nil {
		return nil, err
	}
	if err := c.convergence(w, &cfg, setup, d); err != nil {
		return nil, err
	}
	return d, nil
}

// headline fills the end-of-game comparison with the paper and the gap
// between the Compare arms.
func (c *recognitionConfig) headline(d *recognitionData) error {
	const ph = 0
	end := rexp.Step(100)
	gaps, err := d.Sum.PaperGaps(ph, c.Paper.Arms, d.Tolerance)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	d.Gaps = gaps
	d.Close = true
	for _, g := range gaps {
		d.Close = d.Close && g.Close
	}
	d.Headline = rexp.HeadlineTable(ph, d.Sum, d.Ours, gaps, d.Tolerance)
	cmp := c.Recognition.Compare
	if len(cmp) != 2 {
		return nil
	}
	idx := func(name string) int {
		for a, arm := range d.Sum.Arms {
			if arm == name {
				return a
			}
		}
		return -1
	}
	lo, hi := d.Sum.Curve[ph][idx(cmp[0])][rexp.All][end], d.Sum.Curve[ph][idx(cmp[1])][rexp.All][end]
	if lo.N == 0 || hi.N == 0 {
		return nil
	}
	diff, iv, err := stats.DiffWilson(hi.Correct, hi.N, lo.Correct, lo.N, stats.Level)
	if err != nil {
		return fmt.Errorf("%s: key recognition.compare: %w", c.path, err)
	}
	g := &recognitionGap{Low: cmp[0], High: cmp[1], Diff: 100 * diff, Lo: 100 * iv.Lo, Hi: 100 * iv.Hi}
	pl, okl := c.Paper.Arms[cmp[0]]
	phi, okh := c.Paper.Arms[cmp[1]]
	if okl && okh {
		g.HasPaper = true
		g.Paper = phi.EndAcc() - pl.EndAcc()
		g.Direction = (g.Paper > 0 && g.Lo > 0) || (g.Paper < 0 && g.Hi < 0)
	}
	d.Gap = g
	return nil
}

// differences fills the table of the measured set-up differences: plain
// PHATT at the end of the game by the paper's counting, the variant arm
// against the base arm, and both against the paper's row of the base arm
// (of the variant if the base has none).
func (c *recognitionConfig) differences(d *recognitionData) error {
	const ph = 0
	end := rexp.Step(100)
	idx := map[string]int{}
	for a, arm := range d.Sum.Arms {
		idx[arm] = a
	}
	d.Differences.Header = []string{"difference removed", "arm (ours)", "variant", "ours", "variant", "variant − ours (pts)", "95 % interval", "ours − paper (pts)", "variant − paper (pts)"}
	for _, sd := range c.Recognition.Differences {
		b, v := d.Sum.Curve[ph][idx[sd.Base]][rexp.All][end], d.Sum.Curve[ph][idx[sd.Variant]][rexp.All][end]
		if b.N == 0 || v.N == 0 {
			continue
		}
		diff, iv, err := stats.DiffWilson(v.Correct, v.N, b.Correct, b.N, stats.Level)
		if err != nil {
			return fmt.Errorf("%s: key recognition.differences: %w", c.path, err)
		}
		r := differenceResult{Name: sd.Name, Base: sd.Base, Variant: sd.Variant, BaseAcc: 100 * b.Acc, VariantAcc: 100 * v.Acc,
			Diff: 100 * diff, Lo: 100 * iv.Lo, Hi: 100 * iv.Hi, Included: iv.Lo <= 0 && iv.Hi >= 0}
		row := []string{sd.Name, sd.Base, sd.Variant, rexp.Cell(b), rexp.Cell(v), signed(r.Diff, 1), "[" + signed(r.Lo, 1) + ", " + signed(r.Hi, 1) + "]", "—", "—"}
		p, ok := c.Paper.Arms[sd.Base]
		if !ok {
			p, ok = c.Paper.Arms[sd.Variant]
		}
		if ok {
			acc := p.EndAcc()
			r.HasPaper, r.BaseGap, r.VariantGap = true, r.BaseAcc-acc, r.VariantAcc-acc
			r.VariantClose = math.Abs(r.VariantGap) <= d.Tolerance
			row[7], row[8] = signed(r.BaseGap, 1), signed(r.VariantGap, 1)
		}
		d.Differences.Rows = append(d.Differences.Rows, row)
		d.Diffs = append(d.Diffs, r)
	}
	return nil
}

// countings fills the table of the paper's counting rules, each against
// the paper's counting with that rule alone changed, paired on the same
// player-games (plain PHATT at the end of the game).
func countings(d *recognitionData, res *rexp.Results) error {
	effects, err := rexp.CountingEffects(res, 0)
	if err != nil {
		return err
	}
	d.CountingTable = rexp.EffectsTable(effects)
	for _, e := range effects {
		cr := countingResult{Name: e.Rule.Name}
		for _, row := range e.Arms {
			pp := row.Result
			cr.Rows = append(cr.Rows, countingRow{Arm: row.Arm, Diff: 100 * pp.Diff, Lo: 100 * pp.Interval.Lo, Hi: 100 * pp.Interval.Hi})
		}
		d.Countings = append(d.Countings, cr)
	}
	return nil
}

// convergence draws the first game of the first arm as the winner's
// explanations saw it: PHATT's probability of each after every turn.
func (c *recognitionConfig) convergence(w *writer, cfg *rexp.Config, setup *rexp.Setup, d *recognitionData) error {
	tr, err := rexp.TraceGame(cfg, setup, 0, 0)
	if err != nil {
		return err
	}
	p := max(tr.Game.Winner, 0)
	card := setup.Rules.Missions[tr.Game.Missions[p]].Name
	d.Trace = fmt.Sprintf("game 0 of arm %s: seat %d, which won after %d turns and holds %q", cfg.Arms[0].Name, p, tr.Game.Turns, card)
	lc := &plots.LineChart{Title: "PHATT's explanations of one player, turn by turn", XLabel: "turns played",
		YLabel: "probability", YMin: 0, YMax: 1}
	for e, ex := range tr.Explanations {
		name := ex.Name
		if ex.Mission == tr.Game.Missions[p] {
			name += " (its card)"
		}
		sr := plots.Series{Name: name}
		for j, row := range tr.Probs {
			sr.X = append(sr.X, float64(j))
			sr.Y = append(sr.Y, row[p][e])
		}
		lc.Series = append(lc.Series, sr)
	}
	return w.figure("convergence", lc)
}

func (c *recognitionConfig) tables(w *writer, d *recognitionData) error {
	sum := d.Sum
	for _, arm := range sortedKeys(c.Paper.Arms) {
		if n := len(c.Paper.Arms[arm].Missions); n != 0 && n != len(sum.Cards) {
			return fmt.Errorf("%s: key paper.arms.%s.missions: %d rows, want one per continent card (%d)", c.path, arm, n, len(sum.Cards))
		}
	}
	const ph = 0 // plain PHATT, the paper's recogniser
	steps := rexp.PaperSteps
	d.General = rexp.GeneralTable(ph, []rexp.Scored{{Label: "ours (paper's counting)", Sum: sum}, {Label: "ours (our counting)", Sum: d.Ours}}, c.Paper.Arms)
	d.WinLose = sum.WinLoseTable(ph, c.Paper.Arms)
	d.Missions = sum.MissionsTable(ph, c.Paper.Arms)
	gaps, err := sum.WinnerGaps(ph, c.Paper.Arms)
	if err != nil {
		return fmt.Errorf("%s: %w", c.path, err)
	}
	d.WinnerGaps = gaps
	d.CurveSentence = sum.CurveSentence(ph)
	for a := range sum.Arms {
		if s := sum.LengthSentence(ph, a); s != "" {
			d.LengthSentences = append(d.LengthSentences, s)
		}
		if s := sum.MissionSentence(ph, a); s != "" {
			d.MissionSentences = append(d.MissionSentences, s)
		}
	}
	d.Length = sum.LengthTable(ph)
	d.Recognisers = sum.RecognisersTable()
	d.Pairs = sum.PairsTable()
	names, err := rexp.WriteCSV(w.dir, sum, d.Ours)
	if err != nil {
		return err
	}
	w.files = append(w.files, names...)
	var paperRows [][]string
	for _, arm := range sortedKeys(c.Paper.Arms) {
		p := c.Paper.Arms[arm]
		for i, s := range steps {
			paperRows = append(paperRows, []string{arm, p.Name, "winners", strconv.Itoa(s), strconv.Itoa(p.Winners[i][0]), strconv.Itoa(p.Winners[i][1])},
				[]string{arm, p.Name, "losers", strconv.Itoa(s), strconv.Itoa(p.Losers[i][0]), strconv.Itoa(p.Losers[i][1])})
		}
	}
	return w.csv("paper.csv", []string{"arm", "paper_name", "players", "percent_of_game", "correct", "incorrect"}, paperRows)
}

// figures draws accuracy against the share of the game played
// (figures.WriteRecognition): PHATT per arm (accuracy), its winners and losers
// (winners-losers) and every recogniser per arm (recognisers-ARM).
func (c *recognitionConfig) figures(w *writer, sum *rexp.Summary) error {
	names, err := figures.WriteRecognition(w.dir, sum)
	if err != nil {
		return err
	}
	w.files = append(w.files, names...)
	return nil
}
