package searchreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// WriteValidation writes validation.md in dir, the report of marslab
// validate: the two candidates' win rates, the paired comparison (and the
// SPRT's decision, the comparison within each condition of a mixture) and
// the verdict, which it returns.
func WriteValidation(dir string, setup *search.Setup, a, b string, v *search.Validation) (string, error) {
	c, err := v.Compare()
	if err != nil {
		return "", err
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, "# Validation: %s against %s\n\n", a, b)
	if len(setup.Field.Mixture) > 0 {
		fmt.Fprintf(&w, "Field of %s: %s; seed %d; %d fresh blocks from block %d (deals never used by a search), each played once by each candidate in each seat of its condition.\n\n",
			setup.Config.Name, FieldText(setup), setup.Field.Seed, c.Blocks, c.FirstBlock)
	} else {
		fmt.Fprintf(&w, "Field of %s (%d players, rules %s, seed %d); %d fresh blocks from block %d (deals never used by a search), each played %d times by each candidate with it in every seat.\n\n",
			setup.Config.Name, setup.Field.Players, setup.Field.Rules.Name, setup.Field.Seed, c.Blocks, c.FirstBlock, setup.Field.Players)
	}
	t := table.Table{Header: []string{"candidate", "games", "win rate", "95 % Wilson interval"}}
	t.Add("A: `"+a+"`", strconv.Itoa(c.Games), textfmt.Fixed(c.WinA, 3), interval(c.WilsonA.Lo, c.WilsonA.Hi, 3))
	t.Add("B: `"+b+"`", strconv.Itoa(c.Games), textfmt.Fixed(c.WinB, 3), interval(c.WilsonB.Lo, c.WilsonB.Hi, 3))
	w.WriteString(t.Markdown() + "\n")
	fmt.Fprintf(&w, "Difference A - B in win rate, paired by block (t test over %d blocks): **%+.3f**, 95 %% interval [%+.3f, %+.3f], two-sided p = %.3g.\n\n",
		c.Blocks, c.Diff.Mean, c.Diff.Interval.Lo, c.Diff.Interval.Hi, c.Diff.P)
	fmt.Fprintf(&w, "Game-level pairs (same deal and seat): A alone won %d, B alone won %d, both %d, neither %d; Newcombe interval [%+.3f, %+.3f], exact McNemar p = %.3g (treats the games of a block as independent).\n",
		c.McNemar.Counts.OnlyX, c.McNemar.Counts.OnlyY, c.McNemar.Counts.Both, c.McNemar.Counts.Neither, c.McNemar.Interval.Lo, c.McNemar.Interval.Hi, c.McNemar.P)
	if s := c.SPRT; s != nil {
		d := c.Decision
		if d == "" {
			d = "undecided after the last block"
		}
		fmt.Fprintf(&w, "\nSPRT (H0: A wins half of the discordant pairs; H1: a share %.2f; alpha %.2f, beta %.2f): %s, log LR %.2f.\n", s.P1, s.Alpha, s.Beta, d, c.LLR)
	}
	if cc := c.Conditions; len(cc) > 0 {
		w.WriteString("\nPer condition (paired by block within the condition; no correction for the several conditions):\n\n")
		w.WriteString(ConditionTable(cc).Markdown())
	}
	verdict := verdictText(c)
	fmt.Fprintf(&w, "\n**Verdict:** %s\n", verdict)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("search: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "validation.md"), w.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("search: %w", err)
	}
	return verdict, nil
}

// ConditionTable returns the per-condition comparisons as a table:
// blocks, games, the two win rates and the paired difference with its 95 %
// interval and p-value ("-" where a condition has too few blocks).
func ConditionTable(cc []search.ConditionComparison) table.Table {
	t := table.Table{Header: []string{"condition", "blocks", "games", "win A", "win B", "A - B", "95 % interval", "p"}}
	for _, c := range cc {
		if c.Err != nil {
			t.Add(c.Name, strconv.Itoa(c.Blocks), strconv.Itoa(c.Games), "-", "-", "-", "-", "-")
			continue
		}
		t.Add(c.Name, strconv.Itoa(c.Blocks), strconv.Itoa(c.Games), textfmt.Fixed(c.WinA, 3), textfmt.Fixed(c.WinB, 3),
			fmt.Sprintf("%+.3f", c.Diff.Mean), interval(c.Diff.Interval.Lo, c.Diff.Interval.Hi, 3), fmt.Sprintf("%.3g", c.Diff.P))
	}
	return t
}

// verdictText is the sentence stating a validation's result: A better
// than B, worse, or not shown either, by the 95 % interval of the paired
// difference.
func verdictText(c search.Comparison) string {
	switch {
	case c.Diff.Interval.Lo > 0:
		return fmt.Sprintf("A is better than B: the 95 %% interval of the difference excludes 0 (p = %.3g).", c.Diff.P)
	case c.Diff.Interval.Hi < 0:
		return fmt.Sprintf("A is worse than B: the 95 %% interval of the difference excludes 0 (p = %.3g).", c.Diff.P)
	}
	return "A is not shown better than B at the 5 % level."
}

// WriteTuned writes the tuned result of calibration c as a parameter file
// (writeParamFile) at path, its comment saying where it comes from
// (notebook, the folder name of the notebook that ran the calibration)
// and what the validation found.
func WriteTuned(c *search.Calibration, path, notebook string) error {
	return writeParamFile(path, &c.Field, c.Validations[c.Pick].X, tunedComment(c, notebook))
}

// tunedComment is the comment of the tuned result's parameter file.
func tunedComment(c *search.Calibration, notebook string) string {
	t := c.Validations[c.Pick]
	confirmed := ""
	if len(c.Confirmations) > 0 {
		confirmed = "\nConfirmation " + ConfirmedText(c) + "."
	}
	return fmt.Sprintf("MARS parameters from the %s notebook (marslab report notebooks/%s): the %s.\nValidation on %d fresh blocks against %s: difference %+.3f in win rate, 95 %% interval [%+.3f, %+.3f], Holm p %s: %s.%s",
		notebook, notebook, t.Name, t.Blocks, c.Reference, t.Diff.Mean, t.Diff.Interval.Lo, t.Diff.Interval.Hi, pRel(c.Holm[c.Pick]),
		map[bool]string{true: "shown better", false: "NOT shown better"}[c.ShownBetter()], confirmed)
}

// describeField describes a field in words: "4-player games of rules
// `mars2006`, `mars@paper` against ..." or, for a mixture, "games of a
// mixture of N conditions, ..." with each condition and its share.
func describeField(g *search.Games, base string, players int, opponents []string, sample bool) string {
	if len(g.Mixture) == 0 {
		opp := fmt.Sprintf("the line-up %v", opponents)
		if sample {
			opp = fmt.Sprintf("%d opponents drawn per block from %v", players-1, opponents)
		}
		return fmt.Sprintf("%d-player games of rules `%s`, `%s` against %s", players, g.Rules.Name, base, opp)
	}
	var total float64
	for _, c := range g.Mixture {
		total += c.Weight
	}
	parts := make([]string, len(g.Mixture))
	for i, c := range g.Mixture {
		var labels []string
		for _, o := range c.Opponents {
			labels = append(labels, o.Label)
		}
		opp := fmt.Sprintf("the line-up %v", labels)
		if c.Sample {
			opp = fmt.Sprintf("%d drawn from %v", c.Players-1, labels)
		}
		parts[i] = fmt.Sprintf("%s (share %.3g: %d players, rules `%s`, %s)", c.Name, c.Weight/total, c.Players, c.Rules.Name, opp)
	}
	return fmt.Sprintf("games of a mixture of %d conditions, one drawn per block, as a variant of `%s`: %s", len(g.Mixture), base, strings.Join(parts, "; "))
}

// FieldText describes the setup's field in words (see describeField).
func FieldText(s *search.Setup) string {
	c := s.Config
	return describeField(s.Field, c.Base, c.Players, c.Opponents, c.Sample)
}
