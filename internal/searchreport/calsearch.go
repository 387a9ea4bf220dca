package searchreport

import (
	"fmt"
	"strconv"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// traceRows returns the indices of at most n+1 evenly spaced points of a
// trace of length m, the first and the last included.
func traceRows(m, n int) []int {
	if m == 0 {
		return nil
	}
	if n < 1 || m <= n+1 {
		n = m - 1
	}
	var out []int
	for k := 0; k <= n; k++ {
		i := 0
		if n > 0 {
			i = k * (m - 1) / n
		}
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}

// TraceTable returns the recommendation of the calibration c's search
// (not CMA-ES) at at most n+1 evenly spaced steps, the start and the end
// included: the step, the games spent by then and the value of every
// searched parameter (the rows of METHOD-trace.csv).
func TraceTable(c *search.Calibration, n int) table.Table {
	sp := c.EvolveSetup.Space
	t := table.Table{Header: append([]string{"step", "games"}, names(sp)...)}
	for _, i := range traceRows(len(c.Trace), n) {
		row := []string{strconv.Itoa(i), strconv.Itoa(c.TraceGames[i])}
		for k, d := range sp {
			row = append(row, d.Param.Format(c.Trace[i][k]))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// TraceFigure returns the chart of the recommendation of the calibration
// c's search against the games spent, one panel per searched parameter
// on its searched range; method names the search in the title.
func TraceFigure(c *search.Calibration, method string) *plots.TraceChart {
	sp := c.EvolveSetup.Space
	tr := &plots.TraceChart{Title: method + ": the recommendation", XLabel: "games"}
	rows := traceRows(len(c.Trace), 400)
	for k, d := range sp {
		s := plots.Series{Name: "recommendation"}
		for _, i := range rows {
			s.X = append(s.X, float64(c.TraceGames[i]))
			s.Y = append(s.Y, c.Trace[i][k])
		}
		tr.Panels = append(tr.Panels, plots.TracePanel{YLabel: d.Param.Name, Series: []plots.Series{s}, LogY: d.Param.Log, YMin: d.Lo, YMax: d.Hi})
	}
	return tr
}

// SearchParams returns one row per parameter the calibration c's search
// (not CMA-ES) searched: its start value (under the column startLabel),
// the recommendation's and the searched range.
func SearchParams(c *search.Calibration, startLabel string) table.Table {
	sp := c.EvolveSetup.Space
	t := table.Table{Header: []string{"parameter", startLabel, "recommendation", "searched range"}}
	if len(c.Trace) == 0 {
		return t
	}
	first, last := c.Trace[0], c.Trace[len(c.Trace)-1]
	for i, d := range sp {
		t.Add(d.Param.Name, d.Param.Format(first[i]), d.Param.Format(last[i]), fmt.Sprintf("[%s, %s]", d.Param.Format(d.Lo), d.Param.Format(d.Hi)))
	}
	return t
}

// readingsBase returns the name of the candidate the calibration c's
// readings were compared with: the search's result (after the narrowing
// optimum when there is one).
func readingsBase(c *search.Calibration) string {
	if c.Narrowing != nil {
		return c.Validations[1].Name
	}
	return c.Validations[0].Name
}

// ReadingsTables returns the other named-option readings of the
// calibration c, each at the search's result against it: shown, the
// report's table, and csv, the rows of readings.csv (as
// CandidatesTables, with Holm's correction over the readings).
func ReadingsTables(c *search.Calibration) (shown, csv table.Table) {
	return CandidatesTables(readingsBase(c), c.Readings, c.ReadingsHolm)
}

// ReadingsText is the sentence stating which other reading of the
// calibration c, set in the search's result, is shown better than the
// result (the largest difference among those above 0 with a Holm-adjusted
// p below 0.05, validated as a candidate), or that none is and the
// result keeps its readings.
func ReadingsText(c *search.Calibration) string {
	base := readingsBase(c)
	if c.Reading < 0 {
		best := 0
		for i, r := range c.Readings {
			if r.Diff.Mean > c.Readings[best].Diff.Mean {
				best = i
			}
		}
		r := c.Readings[best]
		return fmt.Sprintf("None of the %d other readings is shown better than the %s (Holm-adjusted p < 0.05 with a difference above 0), "+
			"so it keeps its readings; the largest difference, `%s`'s, is %s points (95 %% interval [%s, %s], Holm-adjusted p %s)",
			len(c.Readings), base, r.Name, textfmt.Signed(100*r.Diff.Mean, 1), textfmt.Signed(100*r.Diff.Interval.Lo, 1),
			textfmt.Signed(100*r.Diff.Interval.Hi, 1), pRel(c.ReadingsHolm[best]))
	}
	r := c.Readings[c.Reading]
	return fmt.Sprintf("Of the %d other readings, `%s` is shown better than the %s by the most: %s points (95 %% interval [%s, %s], "+
		"Holm-adjusted p %s), so the %s with `%s` is validated beside it",
		len(c.Readings), r.Name, base, textfmt.Signed(100*r.Diff.Mean, 1), textfmt.Signed(100*r.Diff.Interval.Lo, 1),
		textfmt.Signed(100*r.Diff.Interval.Hi, 1), pRel(c.ReadingsHolm[c.Reading]), base, r.Name)
}

// TunedWinText is the sentence stating the tuned candidate's win rate of
// the calibration c on the validation's fresh blocks, and on the
// confirmation's when there is one, with 95 % Wilson intervals.
func TunedWinText(c *search.Calibration) string {
	t := c.Validations[c.Pick]
	s := fmt.Sprintf("The %s wins %s %% of its %d games on the validation's fresh blocks (95 %% Wilson interval [%s, %s]; `%s` %s %%)",
		t.Name, textfmt.Fixed(100*t.WinA, 1), t.Games, textfmt.Fixed(100*t.WilsonA.Lo, 1), textfmt.Fixed(100*t.WilsonA.Hi, 1),
		c.Reference, textfmt.Fixed(100*t.WinB, 1))
	if len(c.Confirmations) > 0 {
		f := c.Confirmations[c.Pick]
		s += fmt.Sprintf(", and %s %% of %d games on seed %d ([%s, %s]; `%s` %s %%)", textfmt.Fixed(100*f.WinA, 1), f.Games, c.ConfirmSeed,
			textfmt.Fixed(100*f.WilsonA.Lo, 1), textfmt.Fixed(100*f.WilsonA.Hi, 1), c.Reference, textfmt.Fixed(100*f.WinB, 1))
	}
	return s
}

// VersusTables returns the tuned candidate of the calibration c against
// each further seat on the confirmation's blocks (the validation's
// without a confirmation): shown, the report's
// table, and csv, the rows of versus.csv.
func VersusTables(c *search.Calibration) (shown, csv table.Table) {
	shown = table.Table{Header: []string{"seat", "games", "tuned win rate", "seat win rate", "difference (tuned - seat)", "95 % interval", "p"}}
	csv = table.Table{Header: []string{"seat", "blocks", "games", "tuned_win_rate", "seat_win_rate", "difference", "diff95_lo", "diff95_hi", "p"}}
	num := textfmt.Shortest
	for _, v := range c.Versus {
		shown.Add("`"+v.Name+"`", strconv.Itoa(v.Games), textfmt.Fixed(v.WinA, 3), textfmt.Fixed(v.WinB, 3), textfmt.Signed(v.Diff.Mean, 3),
			signedInterval(v.Diff.Interval.Lo, v.Diff.Interval.Hi, 3), textfmt.P(v.Diff.P))
		csv.Rows = append(csv.Rows, []string{v.Name, strconv.Itoa(v.Blocks), strconv.Itoa(v.Games), num(v.WinA), num(v.WinB), num(v.Diff.Mean),
			num(v.Diff.Interval.Lo), num(v.Diff.Interval.Hi), num(v.Diff.P)})
	}
	return shown, csv
}

// VersusText returns one sentence per further seat of the calibration c:
// the tuned candidate's difference from it on the confirmation's blocks
// (the validation's without a confirmation),
// with its 95 % interval and whether it is shown better, worse or not
// shown different (two-sided p below 0.05, one comparison per seat).
func VersusText(c *search.Calibration) []string {
	var out []string
	tuned := c.Validations[c.Pick].Name
	for _, v := range c.Versus {
		verdict := "not shown different"
		if v.Diff.P < 0.05 {
			verdict = map[bool]string{true: "shown better", false: "shown worse"}[v.Diff.Mean > 0]
		}
		seed := ""
		if len(c.Confirmations) > 0 {
			seed = fmt.Sprintf(" of seed %d", c.ConfirmSeed)
		}
		out = append(out, fmt.Sprintf("against `%s` on the same %d blocks%s the %s is %s: %s points (95 %% interval [%s, %s], p %s; %s %% against %s %%)",
			v.Name, v.Blocks, seed, tuned, verdict, textfmt.Signed(100*v.Diff.Mean, 1), textfmt.Signed(100*v.Diff.Interval.Lo, 1),
			textfmt.Signed(100*v.Diff.Interval.Hi, 1), pRel(v.Diff.P), textfmt.Fixed(100*v.WinA, 1), textfmt.Fixed(100*v.WinB, 1)))
	}
	return out
}
