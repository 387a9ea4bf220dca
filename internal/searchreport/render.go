package searchreport

import (
	"fmt"
	"strconv"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// The renderers of this file turn the searches' results into the tables,
// sentences and CSV rows that both the commands' report.md files (marslab
// sweep, evolve, validate) and the calibration notebooks (package report)
// print.

// interval formats [lo, hi] with prec decimals.
func interval(lo, hi float64, prec int) string {
	return fmt.Sprintf("[%s, %s]", textfmt.Fixed(lo, prec), textfmt.Fixed(hi, prec))
}

// signedInterval formats [lo, hi] with signs.
func signedInterval(lo, hi float64, prec int) string {
	return fmt.Sprintf("[%s, %s]", textfmt.Signed(lo, prec), textfmt.Signed(hi, prec))
}

func pRel(p float64) string { return textfmt.PRel(p) }

// Levels returns one row per level of n that played: its window, cells,
// cells alive at the end, games, best cell and the best cell's win rate
// with its 95 % Wilson interval.
func Levels(n *search.Narrowing) table.Table {
	sp := n.Config().Space
	levels := n.Levels()
	t := table.Table{Header: []string{"level", "window", "cells", "alive at the end", "games", "best cell", "win rate", "95 % Wilson"}}
	for k := range levels {
		l := &levels[k]
		g := levelGames(l)
		if g == 0 {
			continue
		}
		bc := &l.Cells[l.Best]
		iv := bc.Wilson()
		t.Add(strconv.Itoa(k+1), window(sp, l), strconv.Itoa(len(l.Cells)), strconv.Itoa(alive(l)), strconv.Itoa(g),
			"`"+sp.Label(bc.X)+"`", textfmt.Fixed(winRate(bc), 3), interval(iv.Lo, iv.Hi, 3))
	}
	return t
}

// alive returns the number of cells of l alive.
func alive(l *search.Level) int {
	k := 0
	for i := range l.Cells {
		if l.Cells[i].Dropped < 0 {
			k++
		}
	}
	return k
}

// BestText is the sentence stating the best cell of n: its values,
// level, win rate with the 95 % Wilson interval and games.
func BestText(n *search.Narrowing) string {
	best, lvl := n.Best()
	iv := best.Wilson()
	return fmt.Sprintf("Best cell (level %d): `%s`, win rate %s (95 %% Wilson %s, %d games)",
		levelIndex(n, lvl)+1, n.Config().Space.Label(best.X), textfmt.Fixed(winRate(&best), 3), interval(iv.Lo, iv.Hi, 3), best.Games)
}

// Params returns one row per parameter e searched: its start value
// (under the column startLabel), the final distribution mean's value and
// the searched range.
func Params(e *search.Evolve, startLabel string) table.Table {
	t := table.Table{Header: []string{"parameter", startLabel, "final mean", "searched range"}}
	f := e.Final()
	cfg := e.Config()
	for i, d := range cfg.Space {
		mean := "-"
		if f != nil {
			mean = d.Param.Format(f.Mean[i])
		}
		t.Add(d.Param.Name, d.Param.Format(cfg.Start[i]), mean, fmt.Sprintf("[%s, %s]", d.Param.Format(d.Lo), d.Param.Format(d.Hi)))
	}
	return t
}

// FinalText is the sentence stating the final distribution mean of the
// CMA-ES search e: its values and win rate with the 95 % Wilson interval
// over its own games ("" before the final mean is evaluated).
func FinalText(e *search.Evolve) string {
	f := e.Final()
	if f == nil {
		return ""
	}
	iv := f.Wilson()
	return fmt.Sprintf("The final mean `%s` wins %s (95 %% Wilson %s, %d games on its own blocks)",
		e.Config().Space.Label(f.Mean), textfmt.Fixed(float64(f.Wins)/float64(f.Games), 3), interval(iv.Lo, iv.Hi, 3), f.Games)
}

// CandidatesTables returns the validations cs against the reference ref
// (Holm-adjusted p-values holm): shown, the report's table (see
// candidatesShown), and csv, the rows of their CSV file (see
// candidatesCSV).
func CandidatesTables(ref string, cs []search.Candidate, holm []float64) (shown, csv table.Table) {
	return candidatesShown(ref, cs, holm), candidatesCSV(cs, holm)
}

// EffectsTables returns the named options' effects against the reference
// ref: shown, the report's table (see effectsShown), and csv, the rows of
// effects.csv (see effectsCSV).
func EffectsTables(ref string, es []search.Candidate) (shown, csv table.Table) {
	return effectsShown(ref, es), effectsCSV(es)
}

// candidatesShown returns the validations cs against the reference ref
// (Holm-adjusted p-values holm): games, win rates, the paired difference
// with its 95 % interval, p and Holm p.
func candidatesShown(ref string, cs []search.Candidate, holm []float64) table.Table {
	t := table.Table{Header: []string{"candidate", "games", "win rate", "95 % Wilson", ref, "difference", "95 % interval", "p", "Holm p"}}
	for i, v := range cs {
		t.Add(v.Name, strconv.Itoa(v.Games), textfmt.Fixed(v.WinA, 3), interval(v.WilsonA.Lo, v.WilsonA.Hi, 3), textfmt.Fixed(v.WinB, 3),
			textfmt.Signed(v.Diff.Mean, 3), signedInterval(v.Diff.Interval.Lo, v.Diff.Interval.Hi, 3), textfmt.P(v.Diff.P), textfmt.P(holm[i]))
	}
	return t
}

// candidatesCSV returns the header and rows of the CSV file of
// validations cs (validation.csv, confirmation.csv).
func candidatesCSV(cs []search.Candidate, holm []float64) table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"candidate", "blocks", "games", "win_rate", "reference_win_rate", "difference", "diff95_lo", "diff95_hi", "p", "holm_p"}
	for i, v := range cs {
		rows = append(rows, []string{v.Name, strconv.Itoa(v.Blocks), strconv.Itoa(v.Games), num(v.WinA), num(v.WinB), num(v.Diff.Mean),
			num(v.Diff.Interval.Lo), num(v.Diff.Interval.Hi), num(v.Diff.P), num(holm[i])})
	}
	return table.Table{Header: head, Rows: rows}
}

// effectsShown returns the named options' effects against the
// reference ref: blocks, both win rates, the effect with its 95 %
// interval and p.
func effectsShown(ref string, es []search.Candidate) table.Table {
	t := table.Table{Header: []string{"option", "blocks", "win rate", ref, "effect", "95 % interval", "p"}}
	for _, e := range es {
		t.Add("`"+e.Name+"`", strconv.Itoa(e.Blocks), textfmt.Fixed(e.WinA, 3), textfmt.Fixed(e.WinB, 3),
			textfmt.Signed(e.Diff.Mean, 3), signedInterval(e.Diff.Interval.Lo, e.Diff.Interval.Hi, 3), textfmt.P(e.Diff.P))
	}
	return t
}

// effectsCSV returns the header and rows of effects.csv.
func effectsCSV(es []search.Candidate) table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"option", "blocks", "win_rate", "reference_win_rate", "effect", "effect95_lo", "effect95_hi", "p"}
	for _, e := range es {
		rows = append(rows, []string{e.Name, strconv.Itoa(e.Blocks), num(e.WinA), num(e.WinB), num(e.Diff.Mean), num(e.Diff.Interval.Lo),
			num(e.Diff.Interval.Hi), num(e.Diff.P)})
	}
	return table.Table{Header: head, Rows: rows}
}

// EffectsChart returns the chart of the effects against the reference ref
// with their 95 % intervals (nil without effects).
func EffectsChart(ref string, es []search.Candidate) *plots.EffectChart {
	if len(es) == 0 {
		return nil
	}
	chart := &plots.EffectChart{Title: "named options against " + ref, YLabel: "change in win rate", SlantLabels: true}
	for _, e := range es {
		chart.Categories = append(chart.Categories, e.Name)
		chart.Values = append(chart.Values, e.Diff.Mean)
		chart.Lo = append(chart.Lo, e.Diff.Interval.Lo)
		chart.Hi = append(chart.Hi, e.Diff.Interval.Hi)
	}
	return chart
}

// EffectsText is the sentence stating which named options change the win
// rate: those whose 95 % interval lies above 0, those below, and how many
// are not shown to change it.
func EffectsText(es []search.Candidate) string {
	var up, down []string
	for _, e := range es {
		switch {
		case e.Diff.Interval.Lo > 0:
			up = append(up, fmt.Sprintf("`%s` (%s points)", e.Name, textfmt.Signed(100*e.Diff.Mean, 1)))
		case e.Diff.Interval.Hi < 0:
			down = append(down, fmt.Sprintf("`%s` (%s points)", e.Name, textfmt.Signed(100*e.Diff.Mean, 1)))
		}
	}
	if len(es) == 0 {
		return "No option has another choice"
	}
	verb := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	s := fmt.Sprintf("Of %d options, %d %s the win rate (95 %% interval above 0)", len(es), len(up), verb(len(up), "raises", "raise"))
	if len(up) > 0 {
		s += ": " + list(up)
	}
	s += fmt.Sprintf("; %d %s it (interval below 0)", len(down), verb(len(down), "lowers", "lower"))
	if len(down) > 0 {
		s += ": " + list(down)
	}
	rest := len(es) - len(up) - len(down)
	return s + fmt.Sprintf("; %d %s not shown to change it (interval across 0)", rest, verb(rest, "is", "are"))
}

// list joins items as "a", "a and b", "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := ""
	for i, it := range items[:len(items)-1] {
		if i > 0 {
			s += ", "
		}
		s += it
	}
	return s + " and " + items[len(items)-1]
}

// PaperTable returns, per parameter the calibration c narrowed, the
// paper's value (from paper, "-" if absent), the reference seat's, the
// narrowing optimum's and the last window.
func PaperTable(c *search.Calibration, paper map[string]float64) table.Table {
	t := table.Table{Header: []string{"parameter", "paper", "reference seat", "narrowing optimum", "last window"}}
	best, last := c.Narrowing.Best()
	sp := c.Narrowing.Config().Space
	lo, hi := sp.Values(last.Lo), sp.Values(last.Hi)
	for i, dim := range sp {
		pv := "-"
		if v, ok := paper[dim.Param.Name]; ok {
			pv = bots.FormatNum(v)
		}
		t.Add(dim.Param.Name, pv, dim.Param.Format(c.RefNarrow[i]), dim.Param.Format(best.X[i]),
			fmt.Sprintf("[%s, %s]", bots.FormatNum(lo[i]), bots.FormatNum(hi[i])))
	}
	return t
}

// PaperText is the sentence stating whether the paper's published values
// of the parameters the calibration c narrowed lie inside the narrowing's
// last window.
func PaperText(c *search.Calibration, paper map[string]float64) string {
	_, last := c.Narrowing.Best()
	sp := c.Narrowing.Config().Space
	los, his := sp.Values(last.Lo), sp.Values(last.Hi)
	var in, out []string
	for i, dim := range sp {
		v, ok := paper[dim.Param.Name]
		if !ok {
			continue
		}
		lo, hi := los[i], his[i]
		if v >= min(lo, hi) && v <= max(lo, hi) {
			in = append(in, dim.Param.Name)
		} else {
			out = append(out, dim.Param.Name)
		}
	}
	values := func(names []string) string {
		if len(names) == 1 {
			return "value of " + names[0] + " lies"
		}
		return "values of " + list(names) + " lie"
	}
	switch {
	case len(in) == 0 && len(out) == 0:
		return "The paper gives none of the narrowed parameters"
	case len(out) == 0:
		return "The paper's " + values(in) + " inside the narrowing's last window"
	case len(in) == 0:
		return "The paper's " + values(out) + " outside the narrowing's last window"
	}
	return "The paper's " + values(in) + " inside the narrowing's last window, its " + values(out) + " outside"
}

// Verdict is the sentence stating the result of the calibration c's first
// validation: which candidate beats the reference and by how much, or
// that none is shown better (its mean difference above 0 with a
// Holm-adjusted p below 0.05), with the best difference's 95 % interval.
func Verdict(c *search.Calibration) string {
	t := c.Validations[c.Pick]
	d := t.Diff
	if d.Mean > 0 && c.Holm[c.Pick] < 0.05 {
		return fmt.Sprintf("the %s beats %s on %d fresh blocks by %s points of win rate (95 %% interval [%s, %s], Holm-adjusted p %s)",
			t.Name, c.Reference, t.Blocks, textfmt.Fixed(100*d.Mean, 1), textfmt.Fixed(100*d.Interval.Lo, 1), textfmt.Fixed(100*d.Interval.Hi, 1), pRel(c.Holm[c.Pick]))
	}
	return fmt.Sprintf("no candidate is shown better than %s on %d fresh blocks: the best difference, the %s's, is %s points (95 %% interval [%s, %s], Holm-adjusted p %s)",
		c.Reference, t.Blocks, t.Name, textfmt.Fixed(100*d.Mean, 1), textfmt.Fixed(100*d.Interval.Lo, 1), textfmt.Fixed(100*d.Interval.Hi, 1), pRel(c.Holm[c.Pick]))
}

// ConfirmedText is the sentence stating what the confirmation of the
// calibration c found for the tuned candidate ("" without a confirmation).
func ConfirmedText(c *search.Calibration) string {
	if len(c.Confirmations) == 0 {
		return ""
	}
	cc := c.Confirmations[c.Pick]
	return fmt.Sprintf("on seed %d (%d blocks) the %s is %s: %s points (95 %% interval [%s, %s], Holm-adjusted p %s)",
		c.ConfirmSeed, cc.Blocks, c.Validations[c.Pick].Name, map[bool]string{true: "again shown better", false: "not shown better"}[c.Confirmed()],
		textfmt.Signed(100*cc.Diff.Mean, 1), textfmt.Signed(100*cc.Diff.Interval.Lo, 1), textfmt.Signed(100*cc.Diff.Interval.Hi, 1), pRel(c.ConfirmHolm[c.Pick]))
}
