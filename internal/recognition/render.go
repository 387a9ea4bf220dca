package recognition

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/table"
)

// This file holds the Markdown tables that marslab recognize's report.md and
// notebooks/recognition both print: one renderer per table.

// Cell formats a tally as "correct/incorrect accuracy [lo, hi]" in percent
// with one decimal, "—" when it counts nothing.
func Cell(t Tally) string {
	if t.N == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d %s [%s, %s]", t.Correct, t.incorrect(), textfmt.Fixed(100*t.Acc, 1), textfmt.Fixed(100*t.CI.Lo, 1), textfmt.Fixed(100*t.CI.Hi, 1))
}

// interval formats a difference's interval in points: "[+a, +b]" with signs
// when signed, "[a, b]" otherwise.
func interval(lo, hi float64, signed bool) string {
	f := func(v float64) string {
		s := textfmt.Fixed(100*v, 1)
		if signed && v >= 0 {
			s = "+" + s
		}
		return s
	}
	return "[" + f(lo) + ", " + f(hi) + "]"
}

// LengthTable is recogniser r's accuracy at the end of the game by the
// game's length in player-turns (lengthBins), one row per arm.
func (sum *Summary) LengthTable(r int) table.Table {
	t := table.Table{Header: []string{"arm"}}
	for b := range lengthBins {
		t.Header = append(t.Header, binName(b))
	}
	for a, arm := range sum.Arms {
		row := []string{arm}
		for _, tl := range sum.ByLength[r][a] {
			row = append(row, Cell(tl))
		}
		t.Add(row...)
	}
	return t
}

// RecognisersTable is every recogniser that ran, at 50 % and at the end of
// the game, one column pair per arm.
func (sum *Summary) RecognisersTable() table.Table {
	t := table.Table{Header: []string{"recogniser"}}
	for _, arm := range sum.Arms {
		t.Header = append(t.Header, arm+" 50 %", arm+" 100 %")
	}
	for r, rn := range sum.Recognisers {
		if !sum.Ran[r] {
			continue
		}
		row := []string{rn}
		for a := range sum.Arms {
			row = append(row, Cell(sum.Curve[r][a][All][Step(50)]), Cell(sum.Curve[r][a][All][Step(100)]))
		}
		t.Add(row...)
	}
	return t
}

// PairsTable is the paired comparisons of the recognisers (Summary.Pairs).
func (sum *Summary) PairsTable() table.Table {
	t := table.Table{Header: []string{"arm", "X", "Y", "X right only", "Y right only", "X − Y (pts)", "95 % interval", "McNemar p", "Holm p"}}
	for _, pr := range sum.Pairs {
		r := pr.Result
		t.Add(pr.Arm, pr.X, pr.Y, strconv.Itoa(r.Counts.OnlyX), strconv.Itoa(r.Counts.OnlyY),
			textfmt.Fixed(100*r.Diff, 1), interval(r.Interval.Lo, r.Interval.Hi, false),
			fmt.Sprintf("%.3g", r.P), fmt.Sprintf("%.3g", pr.PHolm))
	}
	return t
}

// EffectsTable is the effect of each counting rule (CountingEffects), one
// row per rule and arm.
func EffectsTable(effects []RuleEffect) table.Table {
	t := table.Table{Header: []string{"rule (X: the paper's)", "Y", "arm", "X", "Y", "X right only", "Y right only", "X − Y (pts)", "95 % interval", "McNemar p", "Holm p"}}
	for _, e := range effects {
		for _, row := range e.Arms {
			pp := row.Result
			d := textfmt.Fixed(100*pp.Diff, 1)
			if pp.Diff >= 0 {
				d = "+" + d
			}
			t.Add(e.Rule.Paper, e.Rule.Other, row.Arm, textfmt.Fixed(100*pp.PX, 1), textfmt.Fixed(100*pp.PY, 1),
				strconv.Itoa(pp.Counts.OnlyX), strconv.Itoa(pp.Counts.OnlyY), d, interval(pp.Interval.Lo, pp.Interval.Hi, true),
				fmt.Sprintf("%.3g", pp.P), fmt.Sprintf("%.3g", row.PHolm))
		}
	}
	return t
}

// WriteMarkdown writes the report.md of a run: the counting, then the
// tables that notebooks/recognition prints too (plain PHATT by game length,
// every recogniser at 50 and 100 %, their paired comparisons, and the
// effects of the paper's counting rules).
func WriteMarkdown(w io.Writer, sum *Summary, effects []RuleEffect) error {
	_, err := fmt.Fprintf(w, "# Mission recognition\n\nCounting: %s.\n\n## %s by game length (player-turns), end of the game\n\n%s\n## Every recogniser at 50 %% and at the end of the game\n\n%s\n## Paired comparisons at the end of the game\n\n%s\n## The paper's counting rules, each changed alone (%s, paired)\n\n%s",
		sum.Counting, sum.Recognisers[0], sum.LengthTable(0).Markdown(), sum.RecognisersTable().Markdown(), sum.PairsTable().Markdown(),
		sum.Recognisers[0], EffectsTable(effects).Markdown())
	return err
}

// WriteTables writes the tables of marslab recognize's tables.txt as
// Markdown: the counting and the arms, then for every recogniser that ran
// the paper's Tables 7.2 and 7.1, the accuracy by game length and per
// mission with the sentences that state their results, then the paired
// comparisons of the recognisers and the effects of the paper's counting
// rules on plain PHATT.
func WriteTables(w io.Writer, sum *Summary, effects []RuleEffect) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Mission recognition: tables\n\nCounting: %s.\n\nRandom guess: %s %% (1 of %d continent cards).\n\n",
		sum.Counting, textfmt.Fixed(100*sum.Chance, 2), len(sum.Cards))
	for a, name := range sum.Arms {
		fmt.Fprintf(&b, "- arm %s: %d games, %s turns per game, %d won (not stalemates)\n", name, sum.Games[a], textfmt.Fixed(sum.Turns[a], 1), sum.WinnerWon[a])
	}
	line := func(s string) {
		if s != "" {
			b.WriteString("- " + s + "\n")
		}
	}
	for r, rn := range sum.Recognisers {
		if !sum.Ran[r] {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n### Correct/incorrect and accuracy %% [95 %% Wilson] at %% of the game (the paper's Table 7.2)\n\n%s\n",
			rn, GeneralTable(r, []Scored{{"ours", sum}}, nil).Markdown())
		line(sum.CurveSentence(r))
		fmt.Fprintf(&b, "\n### Winners and losers (the paper's Table 7.1)\n\n%s", sum.WinLoseTable(r, nil).Markdown())
		fmt.Fprintf(&b, "\n### Accuracy at the end of the game by game length (player-turns)\n\n%s\n", sum.LengthTable(r).Markdown())
		for a := range sum.Arms {
			line(sum.LengthSentence(r, a))
		}
		fmt.Fprintf(&b, "\n### Accuracy per mission at the end of the game (all players)\n\n%s\n", sum.MissionsTable(r, nil).Markdown())
		for a := range sum.Arms {
			line(sum.MissionSentence(r, a))
		}
	}
	if len(sum.Pairs) > 0 {
		fmt.Fprintf(&b, "\n## Paired comparisons at the end of the game (X − Y, Newcombe's 95 %% interval, exact McNemar, Holm)\n\n%s", sum.PairsTable().Markdown())
	}
	fmt.Fprintf(&b, "\n## %s at the end of the game: the paper's counting (X) against one rule changed (Y), paired\n\n%s", sum.Recognisers[0], EffectsTable(effects).Markdown())
	_, err := io.WriteString(w, b.String())
	return err
}
