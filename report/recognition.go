package report

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/marslab-risk/marslab/plots"
	rexp "github.com/marslab-risk/marslab/recog/experiment"
)

// recognitionNotes are the note sections of a recognition notebook.
var recognitionNotes = []string{"intro", "general", "winners", "missions", "length", "figures", "beyond", "conclusion"}

// recognitionConfig is the config of a recognition notebook: the mission
// recognition experiment of package recog/experiment beside the appendix
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

// paperRecognition holds the paper's appendix counts, by arm name.
type paperRecognition struct {
	// Source cites the tables.
	Source string `toml:"source"`
	// Arms are the paper's rows for our arms (by arm name).
	Arms map[string]paperArm `toml:"arms"`
}

// paperArm is the paper's counts for one kind of play.
type paperArm struct {
	// Name is the paper's name of the kind of play.
	Name string `toml:"name"`
	// Winners and Losers are [correct, incorrect] at 25, 50, 75 and 100 %
	// of the game (Table 7.1).
	Winners [][]int `toml:"winners"`
	Losers  [][]int `toml:"losers"`
	// Missions are [correct, incorrect] at the end of the game per card,
	// in the order of the rules' continent cards (Tables 7.6, 7.9, 7.12).
	Missions [][]int `toml:"missions"`
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

// recognitionData is the template data of a recognition notebook.
type recognitionData struct {
	Config      string
	Source      string
	Arms        []string
	Games       int
	TrainGames  int
	Sum         *rexp.Summary
	Trained     []int
	General     mdTable
	WinLose     mdTable
	Missions    mdTable
	Recognisers mdTable
	Pairs       mdTable
	Length      mdTable
	// Chance is the random guess's accuracy.
	Chance float64
	// Trace says which game and player convergence.png shows.
	Trace string
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
	sum, err := rexp.Summarize(res)
	if err != nil {
		return nil, err
	}
	d := &recognitionData{Config: c.Recognition.Config, Source: c.Paper.Source, Arms: sum.Arms, Games: games,
		TrainGames: train, Sum: sum, Trained: res.Trained, Chance: sum.Chance}
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

// cell formats correct/incorrect, the accuracy and its interval.
func cell(t rexp.Tally) string {
	if t.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d %s [%s, %s]", t.Correct, t.Incorrect(), fmtFloat(100*t.Acc, 1), fmtFloat(100*t.CI.Lo, 1), fmtFloat(100*t.CI.Hi, 1))
}

// paperCell formats a paper's [correct, incorrect].
func paperCell(ci []int) string {
	n := ci[0] + ci[1]
	if n == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d %s", ci[0], ci[1], fmtFloat(100*float64(ci[0])/float64(n), 1))
}

func tallyRow(prefix []string, t rexp.Tally) []string {
	return append(prefix, itoa(t.Correct), itoa(t.N), num(t.Acc), num(t.CI.Lo), num(t.CI.Hi))
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
	head := []string{"arm", "source"}
	for _, s := range steps {
		head = append(head, strconv.Itoa(s)+" %")
	}
	d.General.Header = head
	d.WinLose.Header = append([]string{"arm", "players", "source"}, head[2:]...)
	for a, arm := range sum.Arms {
		paper, hasPaper := c.Paper.Arms[arm]
		row := []string{arm, "ours"}
		for _, s := range steps {
			row = append(row, cell(sum.Curve[ph][a][rexp.All][rexp.Step(s)]))
		}
		d.General.Rows = append(d.General.Rows, row)
		if hasPaper {
			row := []string{"", "paper: " + paper.Name}
			for i := range steps {
				row = append(row, paperCell([]int{paper.Winners[i][0] + paper.Losers[i][0], paper.Winners[i][1] + paper.Losers[i][1]}))
			}
			d.General.Rows = append(d.General.Rows, row)
		}
		for g, gn := range []string{"winners", "losers"} {
			grp := rexp.Winners + g
			row := []string{arm, gn, "ours"}
			for _, s := range steps {
				row = append(row, cell(sum.Curve[ph][a][grp][rexp.Step(s)]))
			}
			d.WinLose.Rows = append(d.WinLose.Rows, row)
			if hasPaper {
				rows := paper.Winners
				if g == 1 {
					rows = paper.Losers
				}
				row := []string{"", "", "paper"}
				for i := range steps {
					row = append(row, paperCell(rows[i]))
				}
				d.WinLose.Rows = append(d.WinLose.Rows, row)
			}
		}
	}
	d.Missions.Header = []string{"mission"}
	for _, arm := range sum.Arms {
		d.Missions.Header = append(d.Missions.Header, arm)
		if p, ok := c.Paper.Arms[arm]; ok && len(p.Missions) == len(sum.Cards) {
			d.Missions.Header = append(d.Missions.Header, "paper: "+p.Name)
		}
	}
	for ci, name := range sum.CardNames {
		row := []string{name}
		for a, arm := range sum.Arms {
			row = append(row, cell(sum.PerMission[ph][a][rexp.All][ci]))
			if p, ok := c.Paper.Arms[arm]; ok && len(p.Missions) == len(sum.Cards) {
				row = append(row, paperCell(p.Missions[ci]))
			}
		}
		d.Missions.Rows = append(d.Missions.Rows, row)
	}
	d.Length.Header = []string{"arm"}
	for b, lo := range rexp.LengthBins {
		if b+1 < len(rexp.LengthBins) {
			d.Length.Header = append(d.Length.Header, fmt.Sprintf("%d-%d turns", lo, rexp.LengthBins[b+1]-1))
		} else {
			d.Length.Header = append(d.Length.Header, fmt.Sprintf("%d+ turns", lo))
		}
	}
	var lengthRows [][]string
	for a, arm := range sum.Arms {
		row := []string{arm}
		for b, t := range sum.ByLength[ph][a] {
			row = append(row, cell(t))
			lengthRows = append(lengthRows, tallyRow([]string{arm, itoa(rexp.LengthBins[b])}, t))
		}
		d.Length.Rows = append(d.Length.Rows, row)
	}
	d.Recognisers.Header = []string{"recogniser"}
	for _, arm := range sum.Arms {
		d.Recognisers.Header = append(d.Recognisers.Header, arm+" 50 %", arm+" 100 %")
	}
	for r, rn := range sum.Recognisers {
		if !sum.Ran[r] {
			continue
		}
		row := []string{rn}
		for a := range sum.Arms {
			row = append(row, cell(sum.Curve[r][a][rexp.All][rexp.Step(50)]),
				cell(sum.Curve[r][a][rexp.All][rexp.Step(100)]))
		}
		d.Recognisers.Rows = append(d.Recognisers.Rows, row)
	}
	d.Pairs.Header = []string{"arm", "X", "Y", "X right only", "Y right only", "X − Y (pts)", "95 % interval", "McNemar p", "Holm p"}
	var pairRows [][]string
	for _, pr := range sum.Pairs {
		r := pr.Result
		d.Pairs.Rows = append(d.Pairs.Rows, []string{pr.Arm, pr.X, pr.Y, itoa(r.Counts.OnlyX), itoa(r.Counts.OnlyY),
			fmtFloat(100*r.Diff, 1), "[" + fmtFloat(100*r.Interval.Lo, 1) + ", " + fmtFloat(100*r.Interval.Hi, 1) + "]",
			fmt.Sprintf("%.3g", r.P), fmt.Sprintf("%.3g", pr.PHolm)})
		pairRows = append(pairRows, []string{pr.Arm, pr.X, pr.Y, itoa(r.Counts.Both), itoa(r.Counts.OnlyX), itoa(r.Counts.OnlyY),
			itoa(r.Counts.Neither), num(r.Diff), num(r.Interval.Lo), num(r.Interval.Hi), num(r.P), num(pr.PHolm)})
	}
	// CSV files.
	var curve, missions [][]string
	for r, rn := range sum.Recognisers {
		if !sum.Ran[r] {
			continue
		}
		for a, arm := range sum.Arms {
			for g := range rexp.NumGroups {
				for k := range rexp.Steps {
					curve = append(curve, tallyRow([]string{rn, arm, rexp.GroupNames[g], itoa(5 * (k + 1))}, sum.Curve[r][a][g][k]))
				}
				for ci, name := range sum.CardNames {
					missions = append(missions, tallyRow([]string{rn, arm, rexp.GroupNames[g], name}, sum.PerMission[r][a][g][ci]))
				}
			}
		}
	}
	tally := []string{"correct", "n", "accuracy", "wilson_lo", "wilson_hi"}
	if err := w.csv("length.csv", append([]string{"arm", "min_turns"}, tally...), lengthRows); err != nil {
		return err
	}
	if err := w.csv("accuracy.csv", append([]string{"recogniser", "arm", "players", "percent_of_game"}, tally...), curve); err != nil {
		return err
	}
	if err := w.csv("missions.csv", append([]string{"recogniser", "arm", "players", "mission"}, tally...), missions); err != nil {
		return err
	}
	if err := w.csv("pairs.csv", []string{"arm", "x", "y", "both", "only_x", "only_y", "neither", "diff", "lo", "hi", "p_mcnemar", "p_holm"}, pairRows); err != nil {
		return err
	}
	var paperRows [][]string
	for _, arm := range sortedKeys(c.Paper.Arms) {
		p := c.Paper.Arms[arm]
		for i, s := range steps {
			paperRows = append(paperRows, []string{arm, p.Name, "winners", itoa(s), itoa(p.Winners[i][0]), itoa(p.Winners[i][1])},
				[]string{arm, p.Name, "losers", itoa(s), itoa(p.Losers[i][0]), itoa(p.Losers[i][1])})
		}
	}
	return w.csv("paper.csv", []string{"arm", "paper_name", "players", "percent_of_game", "correct", "incorrect"}, paperRows)
}

// figures draws accuracy against the share of the game played: PHATT per
// arm (accuracy.png) and every recogniser per arm (recognisers-ARM.png).
func (c *recognitionConfig) figures(w *writer, sum *rexp.Summary) error {
	x := make([]float64, rexp.Steps)
	for k := range x {
		x[k] = float64(5 * (k + 1))
	}
	series := func(name string, ts [rexp.Steps]rexp.Tally) plots.Series {
		s := plots.Series{Name: name, X: x, Y: make([]float64, len(x)), Lo: make([]float64, len(x)), Hi: make([]float64, len(x))}
		for k, t := range ts {
			s.Y[k], s.Lo[k], s.Hi[k] = 100*t.Acc, 100*t.CI.Lo, 100*t.CI.Hi
		}
		return s
	}
	chance := plots.Series{Name: "random guess", X: []float64{5, 100}, Y: []float64{100 * sum.Chance, 100 * sum.Chance}}
	lc := &plots.LineChart{Title: "PHATT: accuracy against the share of the game played", XLabel: "% of the game's turns",
		YLabel: "correct predictions (%, 95 % Wilson)", YMin: 0, YMax: 100}
	for a, arm := range sum.Arms {
		lc.Series = append(lc.Series, series(arm, sum.Curve[0][a][rexp.All]))
	}
	lc.Series = append(lc.Series, chance)
	if err := w.figure("accuracy", lc); err != nil {
		return err
	}
	wl := &plots.LineChart{Title: "PHATT: winners and losers", XLabel: "% of the game's turns",
		YLabel: "correct predictions (%, 95 % Wilson)", YMin: 0, YMax: 100}
	for a, arm := range sum.Arms {
		wl.Series = append(wl.Series, series(arm+" winners", sum.Curve[0][a][rexp.Winners]),
			series(arm+" losers", sum.Curve[0][a][rexp.Losers]))
	}
	if err := w.figure("winners-losers", wl); err != nil {
		return err
	}
	for a, arm := range sum.Arms {
		rc := &plots.LineChart{Title: "The recognisers on " + arm, XLabel: "% of the game's turns",
			YLabel: "correct predictions (%, 95 % Wilson)", YMin: 0, YMax: 100}
		for r, rn := range sum.Recognisers {
			if sum.Ran[r] {
				rc.Series = append(rc.Series, series(rn, sum.Curve[r][a][rexp.All]))
			}
		}
		rc.Series = append(rc.Series, chance)
		if err := w.figure("recognisers-"+arm, rc); err != nil {
			return err
		}
	}
	return nil
}
