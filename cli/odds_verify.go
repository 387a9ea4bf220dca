package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/dice/dicetest"
)

// The -verify modes of marslab odds print the tests of package dicetest.

// verifyJSON is the JSON output of -verify.
type verifyJSON struct {
	Seed  uint64  `json:"seed"`
	Games int     `json:"games"`
	Alpha float64 `json:"alpha"`
	Rules string  `json:"rules"`
	// Hypothesis is the tested hypothesis of -verify -d or -chain.
	Hypothesis string          `json:"hypothesis,omitempty"`
	Tests      []dicetest.Test `json:"tests"`
	Failed     int             `json:"failed"`
}

// verifyConfig checks the options of -verify.
func verifyConfig(r dice.Rules, o oddsOptions) (dicetest.Config, error) {
	if o.games < dicetest.MinTrials || o.games > dicetest.MaxTrials {
		return dicetest.Config{}, fmt.Errorf("-games %d outside [%d, %d]", o.games, dicetest.MinTrials, dicetest.MaxTrials)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return dicetest.Config{}, fmt.Errorf("-alpha %v outside (0, 1)", o.alpha)
	}
	if r.DefenderDice > 2 {
		return dicetest.Config{}, fmt.Errorf("-verify: the engine rolls at most 2 defending dice, not %d", r.DefenderDice)
	}
	return dicetest.Config{Rules: r, Trials: o.games, Seed: o.seed}, nil
}

// oddsVerify rolls with the engine's dice and tests the frequencies.
func oddsVerify(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	c, err := verifyConfig(r, o)
	if err != nil {
		return err
	}
	tests, err := dicetest.Suite(ctx, c)
	if err != nil {
		return err
	}
	failed := dicetest.Failed(tests, o.alpha)
	if o.json {
		if err := writeJSON(w, verifyJSON{Seed: o.seed, Games: o.games, Alpha: o.alpha, Rules: r.String(),
			Tests: tests, Failed: failed}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "verify: the engine's dice (sim.RollDice, PCG seed %d), %d trials per test, dice %s, alpha %g\n\n",
			o.seed, o.games, r, o.alpha)
		fmt.Fprintln(w, "single rolls: chi-square of defender losses 0..m, observed (expected)")
		for _, t := range tests {
			if t.DF == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-10s", t.Name)
			for j := range t.Observed {
				fmt.Fprintf(w, "  %d: %d (%.1f)", j, t.Observed[j], t.Expected[j])
			}
			fmt.Fprintf(w, "  chi2 %.3f df %d p %.4f%s\n", t.Stat, t.DF, t.P, flagBelow(t.P, o.alpha))
		}
		fmt.Fprintln(w, "\nwhole battles: attacker wins, observed vs exact, two-sided binomial z")
		for _, t := range tests {
			if t.DF == 0 {
				printBinomial(w, t, o.alpha)
			}
		}
		if failed == 0 {
			fmt.Fprintf(w, "\nall %d p-values >= %g: the engine's dice agree with the exact odds\n", len(tests), o.alpha)
		}
	}
	if failed > 0 {
		return fmt.Errorf("verify: %d of %d tests have a p-value below alpha %g", failed, len(tests), o.alpha)
	}
	return nil
}

// printBinomial prints one line of a binomial test of battle wins.
func printBinomial(w io.Writer, t dicetest.Test, alpha float64) {
	n := float64(t.Observed[0] + t.Observed[1])
	fmt.Fprintf(w, "  %-16s wins %d of %d = %.5f, exact %.5f, z %+.3f p %.4f%s\n", t.Name,
		t.Observed[0], int(n), float64(t.Observed[0])/n, t.Expected[0]/n, t.Stat, t.P, flagBelow(t.P, alpha))
}

// oddsVerifyHypothesis tests one hypothesis, -verify -a A -d D [-stop K]
// or -verify -a A -chain D1,D2,...: that the battle or chain, fought
// -games times with the engine's dice, is won with its exact probability.
func oddsVerifyHypothesis(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions, defs []int) error {
	c, err := verifyConfig(r, o)
	if err != nil {
		return err
	}
	var (
		t                   dicetest.Test
		p                   float64
		what, moves, trials string
	)
	if defs == nil {
		if _, err := dice.BattleStop(r, o.a, o.d, o.stop); err != nil {
			return err
		}
		what = fmt.Sprintf("%d attacking armies (a territory of %d) against %d defenders", o.a, o.a+1, o.d)
		if o.stop > 0 {
			moves = fmt.Sprintf("the attacker stops when its attacking armies fall to %d", o.stop)
		}
		trials = "battles"
		t, p, err = dicetest.Battle(ctx, c, o.a, o.d, o.stop)
	} else {
		if _, err := dice.Chain(r, o.a, defs); err != nil {
			return err
		}
		what = fmt.Sprintf("%d attacking armies along %d territories with %s defenders", o.a, len(defs), joinInts(defs))
		moves = "all survivors move on, one army stays in each conquered territory"
		trials = "chains"
		t, p, err = dicetest.Chain(ctx, c, o.a, defs)
	}
	if err != nil {
		return err
	}
	hyp := fmt.Sprintf("P(win) = %.6f for %s, dice %s", p, what, r)
	if moves != "" {
		hyp += " (" + moves + ")"
	}
	rejected := t.P < o.alpha
	if o.json {
		failed := 0
		if rejected {
			failed = 1
		}
		if err := writeJSON(w, verifyJSON{Seed: o.seed, Games: o.games, Alpha: o.alpha, Rules: r.String(),
			Hypothesis: hyp, Tests: []dicetest.Test{t}, Failed: failed}); err != nil {
			return err
		}
	} else {
		printHypothesis(w, r, o, t, p, what, moves, trials)
	}
	if rejected {
		return fmt.Errorf("verify: H0 rejected, p-value %.4g below alpha %g: %s", t.P, o.alpha, hyp)
	}
	return nil
}

// printHypothesis prints the test t of the hypothesis that the battle or
// chain what (its moves, "" for none), fought as trials, is won with the
// exact probability p under the dice rules r.
func printHypothesis(w io.Writer, r dice.Rules, o oddsOptions, t dicetest.Test, p float64, what, moves, trials string) {
	fmt.Fprintf(w, "verify: H0: the engine's dice win with the exact probability, P(win) = %.6f,\n", p)
	fmt.Fprintf(w, "  for %s, dice %s\n", what, r)
	if moves != "" {
		fmt.Fprintf(w, "  (%s)\n", moves)
	}
	fmt.Fprintf(w, "test: %d %s with the engine's dice (sim.RollDice, PCG seed %d), two-sided binomial z, alpha %g\n\n",
		o.games, trials, o.seed, o.alpha)
	printBinomial(w, t, o.alpha)
	if !(t.P < o.alpha) { // not rejected
		fmt.Fprintf(w, "\nH0 not rejected: p %.4f >= alpha %g: the engine's win frequency agrees with the exact odds\n",
			t.P, o.alpha)
	}
}

// joinInts formats defender counts as "3,2,1".
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func flagBelow(p, alpha float64) string {
	if p < alpha {
		return "  BELOW ALPHA"
	}
	return ""
}
