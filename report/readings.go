package report

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// readingsNotes are the note sections of a readings notebook.
var readingsNotes = []string{"intro", "ranking", "headline", "gaps", "timing", "conclusion"}

// readingsConfig is the config of a readings notebook: a tournament
// notebook's round robin played once for every combination of the values
// of a bot's named options (its readings of a paper), each with the bot's
// base seat, on the same games, and ranked by their distance to the
// paper's win percentages.
type readingsConfig struct {
	Header
	Readings struct {
		// Notebook is the folder of a tournament notebook, relative to
		// this notebook's: its tournament config, quick sizes, workers,
		// permutations and the paper's win percentages are used.
		Notebook string `toml:"notebook"`
		// Bot is the name, in that tournament's bots, of the bot whose
		// readings vary; Base the seat every combination starts from
		// (e.g. "mars@paper", the paper's numbers).
		Bot  string `toml:"bot"`
		Base string `toml:"base"`
		// Replications is the number of games per line-up.
		Replications int `toml:"replications"`
		// Options are the named options whose values are combined; the
		// first value of each is the reference's.
		Options []readingOption `toml:"option"`
	} `toml:"readings"`
	path string
	tn   *tournamentConfig
}

// readingOption is one named option of the bot and the values played.
type readingOption struct {
	Name   string   `toml:"name"`
	Values []string `toml:"values"`
}

// maxReadings bounds the number of combinations (one tournament each).
const maxReadings = 256

func parseReadings(path string, data []byte) (experiment, error) {
	c := readingsConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	r := &c.Readings
	ck.nonEmpty("readings.base", r.Base)
	ck.intIn("readings.replications", r.Replications, 1, maxReplications)
	if len(r.Options) == 0 {
		ck.fail("readings.option", "empty: want at least one option with two values")
	}
	combos := 1
	for i, o := range r.Options {
		key := fmt.Sprintf("readings.option[%d]", i)
		ck.nonEmpty(key+".name", o.Name)
		if len(o.Values) < 2 {
			ck.fail(key+".values", "%d values, want at least 2", len(o.Values))
		}
		for j, v := range o.Values {
			if v == "" || strings.ContainsAny(v, ";,()=") || slices.Index(o.Values, v) != j {
				ck.fail(fmt.Sprintf("%s.values[%d]", key, j), "%q: want a distinct non-empty value without ; , ( ) =", v)
			}
		}
		for j := range i {
			if r.Options[j].Name == o.Name {
				ck.fail(key+".name", "%q repeats readings.option[%d]", o.Name, j)
			}
		}
		combos *= max(len(o.Values), 1)
		if combos > maxReadings {
			ck.fail("readings.option", "more than %d combinations of values", maxReadings)
			break
		}
	}
	c.tn = loadTournamentNotebook(ck, path, "readings", r.Notebook, r.Bot)
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

// loadTournamentNotebook reads the tournament notebook named by key
// prefix+".notebook" of the config at path and checks that bot (key
// prefix+".bot") is one of its bots.
func loadTournamentNotebook(ck *checker, path, prefix, notebook, bot string) *tournamentConfig {
	ck.nonEmpty(prefix+".notebook", notebook)
	ck.nonEmpty(prefix+".bot", bot)
	if ck.err != nil {
		return nil
	}
	tpath := filepath.Join(filepath.Dir(path), notebook, configFile)
	data, err := fileread.ReadFile(tpath, fileread.Config)
	if err != nil {
		ck.fail(prefix+".notebook", "%v", err)
		return nil
	}
	nb, err := parseTournament(tpath, data)
	if err != nil {
		ck.fail(prefix+".notebook", "%v", err)
		return nil
	}
	tn := nb.(*tournamentConfig)
	if !slices.Contains(tn.tc.Bots, bot) {
		ck.fail(prefix+".bot", "%q is not a bot of %s (%s)", bot, tn.tc.Source, strings.Join(tn.tc.Bots, ", "))
	}
	return tn
}

func (c *readingsConfig) template() string { return "readings.md.tmpl" }

// sized returns the tournament config played at the full or quick size.
func (c *readingsConfig) sized(quick bool) tourney.Config {
	tc, reps := c.tn.sized(quick)
	if !quick {
		reps = c.Readings.Replications
	}
	tc.Replications = reps
	return tc
}

func (c *readingsConfig) sizes(quick bool) string {
	tc := c.sized(quick)
	return fmt.Sprintf("%d combinations of readings, each %d bots, %d players per game, %d replications per line-up, %d games",
		len(c.specs()), len(tc.Bots), tc.Players, tc.Replications, tc.Games())
}

// specs returns the seat specification of every combination of the
// options' values, the reference (every first value, the base seat
// itself) first; the last option varies fastest.
func (c *readingsConfig) specs() []string {
	r := &c.Readings
	idx := make([]int, len(r.Options))
	var out []string
	for {
		var kv []string
		for i, o := range r.Options {
			if idx[i] > 0 {
				kv = append(kv, o.Name+"="+o.Values[idx[i]])
			}
		}
		spec := r.Base
		if len(kv) > 0 {
			spec = r.Base + "(" + strings.Join(kv, ";") + ")"
		}
		out = append(out, spec)
		i := len(idx) - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(r.Options[i].Values) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

// checkReference reports an error unless the first value of every option
// is the base seat's own: the reference combination is the base seat
// itself, and every other combination sets only the values that differ
// from the first ones.
func (c *readingsConfig) checkReference(reg *bots.Registry) error {
	r := &c.Readings
	base, err := reg.ParseSeat(r.Base, nil)
	if err != nil {
		return fmt.Errorf("%s: key readings.base: %w", c.path, err)
	}
	for i, o := range r.Options {
		spec := r.Base + "(" + o.Name + "=" + o.Values[0] + ")"
		s, err := reg.ParseSeat(spec, nil)
		if err != nil {
			return fmt.Errorf("%s: key readings.option[%d]: %w", c.path, i, err)
		}
		if s.Params[o.Name] != base.Params[o.Name] {
			return fmt.Errorf("%s: key readings.option[%d].values[0]: %q is not %s's %s: the first value is the reference's, the base seat's own",
				c.path, i, o.Values[0], r.Base, o.Name)
		}
	}
	return nil
}

// readingsData is the template data of a readings notebook.
type readingsData struct {
	Notebook     string
	Bot          string
	Base         string
	Combinations int
	Replications int
	Games        int
	Paper        float64
	// Margin is tourney.HeadlineMargin.
	Margin float64
	// Ranking lists every combination from the closest to the paper's
	// win % to the furthest; Gaps every bot's gap in the closest
	// combinations and the reference.
	Ranking, Gaps table.Table
	// Findings are the generated sentences.
	Findings []string
	Seconds  float64
	ReadBack int
	Played   int
}

// combination returns the options that spec sets beyond base ("the
// paper's readings" for base itself).
func combination(spec, base string) string {
	if spec == base {
		return "the base readings"
	}
	return strings.TrimSuffix(strings.TrimPrefix(spec, base+"("), ")")
}

func (c *readingsConfig) run(ctx context.Context, w *writer) (any, error) {
	r, tn := &c.Readings, c.tn
	tc := c.sized(w.quick)
	setup, err := tc.Resolve(w.reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tn.path, err)
	}
	idx := slices.Index(tc.Bots, r.Bot)
	if idx < 0 {
		return nil, fmt.Errorf("%s: key readings.bot: %q is not among the bots played (%s)", c.path, r.Bot, strings.Join(tc.Bots, ", "))
	}
	if err := c.checkReference(w.reg); err != nil {
		return nil, err
	}
	specs := c.specs()
	seats := make([]bots.Seat, len(specs))
	for i, spec := range specs {
		s, err := w.reg.ParseSeat(spec, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: readings combination %d (%s): %w", c.path, i+1, spec, err)
		}
		s.Label = spec
		seats[i] = s
	}
	dirs := make([]string, len(seats))
	for k := range seats {
		if w.work != "" {
			dirs[k] = filepath.Join(w.work, fmt.Sprintf("readings-%d", k+1))
			continue
		}
		tmp, err := os.MkdirTemp("", "marslab-readings-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dirs[k] = tmp
	}
	start := time.Now()
	runs, err := tourney.RunSeats(ctx, &tc, setup, idx, seats, func(k int) string {
		w.logf("readings: %d of %d, %s in %s's place, %d games, in %s", k+1, len(seats), seats[k].Label, r.Bot, tc.Games(), dirs[k])
		return dirs[k]
	}, tourney.Options{Workers: tn.Tournament.Workers, Progress: w.progress, ProgressLines: w.progressLines})
	if err != nil {
		return nil, err
	}
	d := &readingsData{Notebook: r.Notebook, Bot: r.Bot, Base: r.Base, Combinations: len(specs), Replications: tc.Replications,
		Games: tc.Games(), Paper: tn.Paper.Bots[r.Bot].WinPct, Margin: tourney.HeadlineMargin, Seconds: time.Since(start).Seconds()}
	for _, run := range runs {
		d.Played += run.Played
		d.ReadBack += run.Done - run.Played
	}
	w.readBack += d.ReadBack
	sc, err := tourney.CompareSeats(runs, r.Bot, idx, &tn.Paper, tn.Tournament.Permutations)
	if err != nil {
		return nil, err
	}
	fits := sc.Fits()
	order := tourney.RankFits(fits)
	d.Ranking = rankingTable(fits, order, r.Base)
	head, rows := readingsCSV(fits, order, r.Options, specs, r.Base)
	if err := w.csv("readings.csv", head, rows); err != nil {
		return nil, err
	}
	labels := make([]string, len(runs[0].Results.Bots))
	for i, b := range runs[0].Results.Bots {
		labels[i] = b.Bot
	}
	labels[idx] = r.Bot
	head, rows = gapsCSV(fits, labels)
	if err := w.csv("gaps.csv", head, rows); err != nil {
		return nil, err
	}
	d.Gaps = gapsTable(fits, order, labels, tn.Paper, r.Base)
	if err := w.figure("readings", readingsChart(fits, order, r.Bot, r.Base)); err != nil {
		return nil, err
	}
	d.Findings = readingsFindings(fits, order, r.Bot, r.Base)
	timings := [][]string{{"games_per_second", "all combinations", num(float64(d.Played) / max(d.Seconds, 1e-9)), "games/s"}}
	if err := w.csv(timingsFile, []string{"measure", "subject", "value", "unit"}, timings); err != nil {
		return nil, err
	}
	return d, nil
}

// diffText formats a paired difference with its interval, in points.
func diffText(f tourney.SeatFit) string {
	if f.Paired == nil {
		return "reference"
	}
	p := f.Paired
	return fmt.Sprintf("%s [%s, %s]", textfmt.Signed(100*p.Diff, 1), textfmt.Signed(100*p.Interval.Lo, 1), textfmt.Signed(100*p.Interval.Hi, 1))
}

// rankingTable lists the combinations from the closest to the paper's
// win % to the furthest.
func rankingTable(fits []tourney.SeatFit, order []int, base string) table.Table {
	t := table.Table{Header: []string{"rank", "readings", "win % [95 %]", "place", "lead (points)", "headline", "ρ", "mean |gap|", "largest gap", "bots within 5", "against the base (points)"}}
	for rank, k := range order {
		f := fits[k]
		headline := "no"
		if f.Headline() {
			headline = "yes"
		}
		t.Add(strconv.Itoa(rank+1), "`"+combination(f.Seat, base)+"`", textfmt.Fixed(f.Win, 1)+" "+interval(f.WinLo, f.WinHi),
			textfmt.Ordinal(f.Rank), textfmt.Signed(f.Lead, 1), headline, textfmt.Fixed(f.Rho.Rho, 2),
			textfmt.Fixed(f.MeanGap, 1), f.MaxGapBot+" "+textfmt.Fixed(f.MaxGap, 1), strconv.Itoa(f.Within5)+" of "+strconv.Itoa(len(f.Gaps)), diffText(f))
	}
	return t
}

// interval formats a Wilson interval in percent.
func interval(lo, hi float64) string {
	return "[" + textfmt.Fixed(lo, 1) + ", " + textfmt.Fixed(hi, 1) + "]"
}

// readingsCSV returns the rows of readings.csv in ranking order: every
// option's value, then the measures.
func readingsCSV(fits []tourney.SeatFit, order []int, opts []readingOption, specs []string, base string) ([]string, [][]string) {
	head := []string{"rank", "seat"}
	for _, o := range opts {
		head = append(head, o.Name)
	}
	head = append(head, "win_pct", "wilson95_lo", "wilson95_hi", "paper_win_pct", "place", "lead", "clear", "headline", "rho", "rho_p",
		"mean_abs_gap", "max_abs_gap", "max_gap_bot", "within5", "diff", "diff95_lo", "diff95_hi", "mcnemar_p")
	var rows [][]string
	for rank, k := range order {
		f := fits[k]
		row := []string{strconv.Itoa(rank + 1), f.Seat}
		set := map[string]string{}
		for _, kv := range strings.Split(combination(specs[k], base), ";") {
			if n, v, ok := strings.Cut(kv, "="); ok {
				set[n] = v
			}
		}
		for _, o := range opts {
			v, ok := set[o.Name]
			if !ok {
				v = o.Values[0]
			}
			row = append(row, v)
		}
		row = append(row, num(f.Win), num(f.WinLo), num(f.WinHi), num(f.Paper), strconv.Itoa(f.Rank), num(f.Lead),
			fmt.Sprint(f.Clear), fmt.Sprint(f.Headline()), num(f.Rho.Rho), num(f.Rho.P), num(f.MeanGap), num(f.MaxGap), f.MaxGapBot, strconv.Itoa(f.Within5))
		if p := f.Paired; p != nil {
			row = append(row, num(p.Diff), num(p.Interval.Lo), num(p.Interval.Hi), num(p.P))
		} else {
			row = append(row, "", "", "", "")
		}
		rows = append(rows, row)
	}
	return head, rows
}

// gapsCSV returns every combination's gap to the paper for every bot.
func gapsCSV(fits []tourney.SeatFit, labels []string) ([]string, [][]string) {
	head := []string{"seat", "bot", "gap"}
	var rows [][]string
	for _, f := range fits {
		for i, g := range f.Gaps {
			rows = append(rows, []string{f.Seat, labels[i], num(g)})
		}
	}
	return head, rows
}

// gapsShown is the number of closest combinations whose gaps the report
// shows beside the reference's.
const gapsShown = 3

// gapsTable gives every bot's win % minus the paper's for the reference
// and the closest combinations.
func gapsTable(fits []tourney.SeatFit, order []int, labels []string, paper tourney.Published, base string) table.Table {
	cols := []int{0}
	for _, k := range order {
		if len(cols) > gapsShown {
			break
		}
		if k != 0 {
			cols = append(cols, k)
		}
	}
	t := table.Table{Header: []string{"bot", "paper win %"}}
	for _, k := range cols {
		t.Header = append(t.Header, "`"+combination(fits[k].Seat, base)+"`")
	}
	for i, l := range labels {
		row := []string{l, textfmt.Fixed(paper.Bots[l].WinPct, 1)}
		for _, k := range cols {
			row = append(row, textfmt.Signed(fits[k].Gaps[i], 1))
		}
		t.Add(row...)
	}
	return t
}

// readingsChart draws every combination's paired difference in the
// bot's win rate against the base seat, labelled by the combination's rank
// in the ranking table (the base itself is left out).
func readingsChart(fits []tourney.SeatFit, order []int, bot, base string) *plots.EffectChart {
	ch := &plots.EffectChart{Title: bot + "'s win rate against " + base + "'s on the same games, by rank in the table",
		YLabel: "change in win rate"}
	for rank, k := range order {
		p := fits[k].Paired
		if p == nil {
			continue
		}
		ch.Categories = append(ch.Categories, strconv.Itoa(rank+1))
		ch.Values = append(ch.Values, p.Diff)
		ch.Lo = append(ch.Lo, p.Interval.Lo)
		ch.Hi = append(ch.Hi, p.Interval.Hi)
	}
	return ch
}

// readingsFindings states, from the numbers, which combination comes
// closest to the paper, where the reference ranks, and which combinations
// reproduce the headline.
func readingsFindings(fits []tourney.SeatFit, order []int, bot, base string) []string {
	best := fits[order[0]]
	out := []string{fmt.Sprintf("the closest to the paper's win %% is `%s`: a mean gap of %s points over the %d bots, %d of them within 5 points, "+
		"Spearman's rho %s; %s wins %s %% (the paper's %s %%) and ranks %s",
		combination(best.Seat, base), textfmt.Fixed(best.MeanGap, 1), len(best.Gaps), best.Within5, textfmt.Fixed(best.Rho.Rho, 2),
		bot, textfmt.Fixed(best.Win, 1), textfmt.Fixed(best.Paper, 1), textfmt.Ordinal(best.Rank))}
	refRank := slices.Index(order, 0) + 1
	out = append(out, fmt.Sprintf("`%s` itself ranks %s of %d (mean gap %s points, rho %s, %s %s)", base, textfmt.Ordinal(refRank), len(fits),
		textfmt.Fixed(fits[0].MeanGap, 1), textfmt.Fixed(fits[0].Rho.Rho, 2), bot, placeText(fits[0])))
	var head []string
	for _, k := range order {
		if fits[k].Headline() {
			head = append(head, "`"+combination(fits[k].Seat, base)+"`")
		}
	}
	switch {
	case len(head) == 0:
		out = append(out, fmt.Sprintf("no combination reproduces the headline (%s first with its interval above every other bot's and a lead of at least %s points)",
			bot, textfmt.Fixed(tourney.HeadlineMargin, 0)))
	default:
		out = append(out, fmt.Sprintf("%d of %d combinations reproduce the headline (%s first with its interval above every other bot's and a lead of at least %s points): %s",
			len(head), len(fits), bot, textfmt.Fixed(tourney.HeadlineMargin, 0), strings.Join(head, ", ")))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, f := range fits {
		lo, hi = min(lo, f.Win), max(hi, f.Win)
	}
	out = append(out, fmt.Sprintf("across the combinations %s wins between %s and %s %% of its games", bot, textfmt.Fixed(lo, 1), textfmt.Fixed(hi, 1)))
	return out
}

// placeText describes a fit's place: "first by 3.2 points" or "3rd, 4.1
// points short of the first".
func placeText(f tourney.SeatFit) string {
	if f.Rank == 1 {
		return "first by " + textfmt.Fixed(f.Lead, 1) + " points"
	}
	return textfmt.Ordinal(f.Rank) + ", " + textfmt.Fixed(-f.Lead, 1) + " points short of the first"
}
