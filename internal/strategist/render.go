package strategist

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// The renderers of this file turn an experiment's result into the Markdown
// tables and the sentences that both the README.md of marslab learn and
// the strategist notebooks (package report) print. A sentence that states
// a result is made from the numbers: a difference is "more" or "less" only
// when its Holm-corrected p-value is below 1 - stats.Level and its 95 %
// interval lies wholly on that side of 0.

// direction is the verdict of a paired difference: more, less or unclear.
type direction int

// The verdicts of a paired difference.
const (
	// unclear: the Holm-corrected p-value is at least 1 - stats.Level, or the
	// interval holds 0.
	unclear direction = iota
	// more: significant and the whole interval above 0.
	more
	// less: significant and the whole interval below 0.
	less
)

// judge returns the verdict of a difference with the interval iv and the
// Holm-corrected p-value holmP, at stats.Level.
func judge(iv stats.Interval, holmP float64) direction {
	switch {
	case holmP >= 1-stats.Level:
		return unclear
	case iv.Lo > 0:
		return more
	case iv.Hi < 0:
		return less
	}
	return unclear
}

// wins returns the verdict in words: "wins more often", "wins less often"
// or "no clear difference".
func (d direction) wins() string {
	switch d {
	case more:
		return "wins more often"
	case less:
		return "wins less often"
	}
	return "no clear difference"
}

// pct formats a share (0..1) as a percentage with one decimal.
func pct(p float64) string { return textfmt.Fixed(100*p, 1) }

// wilson formats a Wilson interval as percentages: "[12.4, 14.3]".
func wilson(iv stats.Interval) string { return "[" + pct(iv.Lo) + ", " + pct(iv.Hi) + "]" }

// signedIv formats an interval with signs and prec decimals, scaled by
// scale: "[+0.5, +4.0]".
func signedIv(iv stats.Interval, scale float64, prec int) string {
	return "[" + textfmt.Signed(scale*iv.Lo, prec) + ", " + textfmt.Signed(scale*iv.Hi, prec) + "]"
}

// pval formats a p-value with three significant digits; one below the
// smallest normal float64 (an exact test's tail that underflows) is
// "< 1e-300", never "0".
func pval(p float64) string {
	if p < 1e-300 {
		return "< 1e-300"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}

// pvalRel is pval as a relation: "= 0.0925" or "< 1e-300".
func pvalRel(p float64) string {
	if p < 1e-300 {
		return pval(p)
	}
	return "= " + pval(p)
}

// EvalTables returns the evaluation: shown, the table of the README and
// the notebooks (see evalShown), and csv, the rows of eval.csv (see
// evalCSV); an error from Evaluation.WinRate.
func (r *Result) EvalTables() (shown, csv table.Table, err error) {
	if shown, err = r.evalShown(); err != nil {
		return table.Table{}, table.Table{}, err
	}
	if csv, err = r.evalCSV(); err != nil {
		return table.Table{}, table.Table{}, err
	}
	return shown, csv, nil
}

// PairedTables returns the paired comparisons: shown, the table of the
// README and the notebooks (see pairedShown), and csv, the rows of
// paired.csv (see pairedCSV).
func (r *Result) PairedTables() (shown, csv table.Table) { return r.pairedShown(), r.pairedCSV() }

// evalShown is the evaluation as a Markdown table: per policy, games,
// wins, win % with its 95 % Wilson interval, mean return, eliminations,
// stalemates and the share of its steps taking each action (%); an error
// from Evaluation.WinRate.
func (r *Result) evalShown() (table.Table, error) {
	t := table.Table{Header: []string{"policy", "games", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates"}}
	for _, a := range r.Actions {
		t.Header = append(t.Header, a+" %")
	}
	for i := range r.Evaluations {
		ev := &r.Evaluations[i]
		wins, rate, iv, mean, err := ev.WinRate()
		if err != nil {
			return table.Table{}, err
		}
		row := []string{ev.Name, strconv.Itoa(len(ev.Won)), strconv.Itoa(wins), pct(rate), wilson(iv), textfmt.Fixed(mean, 1),
			strconv.Itoa(ev.Eliminated), strconv.Itoa(ev.Stalemates)}
		for _, s := range ev.ActionShare {
			row = append(row, pct(s))
		}
		t.Add(row...)
	}
	return t, nil
}

// pairedShown is the paired comparisons as a Markdown table: the
// win-rate difference in points with its 95 % interval and Holm p, and
// the return difference with its 95 % interval and Holm p.
func (r *Result) pairedShown() table.Table {
	t := table.Table{Header: []string{"policy", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	for _, c := range r.Comparisons {
		t.Add(c.Policy, c.Against, textfmt.Signed(100*c.Win.Diff, 1), signedIv(c.Win.Interval, 100, 1), pval(c.HolmWinP),
			textfmt.Signed(c.Return.Mean, 1), signedIv(c.Return.Interval, 1, 1), pval(c.HolmReturnP))
	}
	return t
}

// Best returns the name of the policy with the highest win rate (the
// first of equals; "" without an evaluation).
func (r *Result) Best() string {
	best, rate := "", -1.0
	for i := range r.Evaluations {
		if x := r.Evaluations[i].rate(); x > rate {
			best, rate = r.Evaluations[i].Name, x
		}
	}
	return best
}

// comparison returns the comparison of policy with against, if any.
func (r *Result) comparison(policy, against string) *Comparison {
	for i := range r.Comparisons {
		if c := &r.Comparisons[i]; c.Policy == policy && c.Against == against {
			return c
		}
	}
	return nil
}

// evaluation returns the evaluation of the named policy, if any.
func (r *Result) evaluation(name string) *Evaluation {
	for i := range r.Evaluations {
		if r.Evaluations[i].Name == name {
			return &r.Evaluations[i]
		}
	}
	return nil
}

// Verdicts are the sentences answering the experiment's question, one per
// learned policy ("learned", "learned, exploring"): its win rate, then,
// against the fixed strategy with the highest win rate and against the
// uniform random choice, the paired difference in points with its 95 %
// interval, Holm p and verdict; then whether it wins more often than
// every fixed strategy. A policy without comparisons (GreedyOnly) gets
// its win rate only. An error comes from Evaluation.WinRate.
func (r *Result) Verdicts() ([]string, error) {
	bestFixed, bestRate := "", -1.0
	for i := range r.Evaluations {
		ev := &r.Evaluations[i]
		if x := ev.rate(); strings.HasPrefix(ev.Name, "always ") && x > bestRate {
			bestFixed, bestRate = ev.Name, x
		}
	}
	var out []string
	for _, p := range []string{"learned", "learned, exploring"} {
		ev := r.evaluation(p)
		if ev == nil {
			continue
		}
		_, rate, iv, _, err := ev.WinRate()
		if err != nil {
			return nil, err
		}
		s := fmt.Sprintf("*%s* wins %s %% of its games (95 %% Wilson %s)", p, pct(rate), wilson(iv))
		var parts []string
		for _, against := range []string{bestFixed, "uniform random"} {
			if c := r.comparison(p, against); c != nil {
				parts = append(parts, fmt.Sprintf("minus *%s*, the %s: %s points %s, Holm p %s: %s", against,
					map[bool]string{true: "best fixed strategy", false: "uniform choice"}[against == bestFixed],
					textfmt.Signed(100*c.Win.Diff, 1), signedIv(c.Win.Interval, 100, 1), pvalRel(c.HolmWinP), judge(c.Win.Interval, c.HolmWinP).wins()))
			}
		}
		if len(parts) == 0 {
			out = append(out, s+".")
			continue
		}
		every := "does not win more often than every fixed strategy"
		if r.beatsFixed(p) {
			every = "wins more often than every fixed strategy"
		}
		out = append(out, s+"; "+strings.Join(parts, "; ")+". It "+every+".")
	}
	return out, nil
}

// Behaviour are the sentences describing what each learned policy does:
// the action it takes most often and its share of the steps, and the
// shares of its games that end in a stalemate (the round limit) and in
// its elimination.
func (r *Result) Behaviour() []string {
	var out []string
	for _, p := range []string{"learned", "learned, exploring"} {
		ev := r.evaluation(p)
		if ev == nil || len(ev.Won) == 0 || len(ev.ActionShare) != len(r.Actions) {
			continue
		}
		top := 0
		for a, s := range ev.ActionShare {
			if s > ev.ActionShare[top] {
				top = a
			}
		}
		n := float64(len(ev.Won))
		out = append(out, fmt.Sprintf("*%s* plays %s in %s %% of its steps; %s %% of its games end at the round limit (stalemate) and %s %% in its elimination.",
			p, r.Actions[top], pct(ev.ActionShare[top]), pct(float64(ev.Stalemates)/n), pct(float64(ev.Eliminated)/n)))
	}
	return out
}

// blockText is the sentence stating a block of the training curve: its
// win rate with the 95 % Wilson interval and mean return; an error names
// a block whose counts stats.Wilson refuses.
func blockText(b BlockStats) (string, error) {
	iv, err := b.Wilson()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("win %s %% [%s %%, %s %%], mean return %s", pct(float64(b.Wins)/float64(b.Games)), pct(iv.Lo), pct(iv.Hi), textfmt.Fixed(b.MeanReturn, 1)), nil
}

// CurveText is the sentence stating the first and the last block of the
// training curve ("" without a block); an error names a block whose
// counts stats.Wilson refuses.
func (r *Result) CurveText() (string, error) {
	if len(r.Curve) == 0 {
		return "", nil
	}
	first, err := blockText(r.Curve[0])
	if err != nil {
		return "", err
	}
	last, err := blockText(r.Curve[len(r.Curve)-1])
	if err != nil {
		return "", err
	}
	return "First block: " + first + "; last block: " + last + ".", nil
}

// PolicyByMarkdown is the greedy policy of the Q-table along its state
// feature k (of features, the Q-table's state, named features[k]): per
// bin, the training visits and the share of them spent in states whose
// greedy action is each action (%). It is empty without a Q-table.
func (r *Result) PolicyByMarkdown(features []string, k int) table.Table {
	if r.Q == nil || k < 0 || k >= len(features) {
		return table.Table{}
	}
	share, visits := r.Q.policyBy(k)
	t := table.Table{Header: []string{features[k] + " bin", "training visits"}}
	for _, a := range r.Actions {
		t.Header = append(t.Header, "greedy "+a+" %")
	}
	bins := len(share)
	for b := range share {
		row := []string{"[" + textfmt.Fixed(float64(b)/float64(bins), 2) + ", " + textfmt.Fixed(float64(b+1)/float64(bins), 2) + ")", strconv.Itoa(visits[b])}
		for _, s := range share[b] {
			row = append(row, pct(s))
		}
		t.Add(row...)
	}
	return t
}

// Arm is one arm of an ablation: an experiment that differs from the
// others only in its Q-table's state, trained, and its greedy policy
// evaluated on the same episodes as every other arm's.
type Arm struct {
	// Name names the arm ("thesis observation", "+front").
	Name string
	// Features are the observation values of its Q-table's state.
	Features []string
	// Games and Steps are its training budget in episodes and in the
	// learner's steps (Result.TrainSteps).
	Games, Steps int
	// Eval is its greedy policy's evaluation.
	Eval *Evaluation
}

// ArmPair is the paired comparison of arm X with arm Y (X after Y) on the
// same evaluation episodes.
type ArmPair struct {
	X, Y int
	// Win is X's win rate minus Y's (Newcombe's interval, exact McNemar
	// p); Return the mean difference in return (paired t).
	Win    stats.PairedProportion
	Return stats.Paired
	// HolmWinP and HolmReturnP are the p-values after Holm's correction
	// over every p-value of the ablation.
	HolmWinP, HolmReturnP float64
}

// Ablation is the comparison of every two arms, the first arm being the
// reference (the experiment itself).
type Ablation struct {
	Arms  []Arm
	Pairs []ArmPair
}

// CompareArms compares every arm with every arm before it on the same
// evaluation episodes (at stats.Level), Holm-correcting the win and return
// p-values of all pairs together.
func CompareArms(arms []Arm) (*Ablation, error) {
	a := &Ablation{Arms: arms}
	var ps []float64
	for y := range arms {
		for x := y + 1; x < len(arms); x++ {
			pc, err := stats.CountPairs(arms[x].Eval.Won, arms[y].Eval.Won)
			if err != nil {
				return nil, fmt.Errorf("ablation %s minus %s: %w", arms[x].Name, arms[y].Name, err)
			}
			p := ArmPair{X: x, Y: y}
			if p.Win, err = stats.PairedProportions(pc, stats.Level); err != nil {
				return nil, fmt.Errorf("ablation %s minus %s: %w", arms[x].Name, arms[y].Name, err)
			}
			if p.Return, err = stats.PairedT(arms[x].Eval.Return, arms[y].Eval.Return, stats.Level); err != nil {
				return nil, fmt.Errorf("ablation %s minus %s: %w", arms[x].Name, arms[y].Name, err)
			}
			a.Pairs = append(a.Pairs, p)
			ps = append(ps, p.Win.P, p.Return.P)
		}
	}
	if len(ps) == 0 {
		return a, nil
	}
	holm, err := stats.Holm(ps)
	if err != nil {
		return nil, fmt.Errorf("ablation: %w", err)
	}
	for i := range a.Pairs {
		a.Pairs[i].HolmWinP, a.Pairs[i].HolmReturnP = holm[2*i], holm[2*i+1]
	}
	return a, nil
}

// Tables returns the arms: shown, the Markdown table of the README and
// the notebooks (see armsShown), and csv, the rows of ablation.csv (see
// armsCSV); an error from Evaluation.WinRate.
func (a *Ablation) Tables() (shown, csv table.Table, err error) {
	if shown, err = a.armsShown(); err != nil {
		return table.Table{}, table.Table{}, err
	}
	if csv, err = a.armsCSV(); err != nil {
		return table.Table{}, table.Table{}, err
	}
	return shown, csv, nil
}

// PairsTables returns the paired comparisons: shown, the Markdown table
// (see pairsShown), and csv, the rows of ablation-paired.csv.
func (a *Ablation) PairsTables() (shown, csv table.Table) { return a.pairsShown(), a.pairsCSV() }

// armsShown is the arms as a Markdown table: name, the Q-table's observation,
// training games and steps, wins, win % with its 95 % Wilson interval,
// mean return, eliminations and stalemates (an error from
// Evaluation.WinRate).
func (a *Ablation) armsShown() (table.Table, error) {
	t := table.Table{Header: []string{"arm", "Q-table's observation", "training games", "training steps", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates"}}
	for _, arm := range a.Arms {
		wins, rate, iv, mean, err := arm.Eval.WinRate()
		if err != nil {
			return table.Table{}, fmt.Errorf("arm %s: %w", arm.Name, err)
		}
		t.Add(arm.Name, strings.Join(arm.Features, ", "), strconv.Itoa(arm.Games), strconv.Itoa(arm.Steps),
			strconv.Itoa(wins), pct(rate), wilson(iv), textfmt.Fixed(mean, 1), strconv.Itoa(arm.Eval.Eliminated), strconv.Itoa(arm.Eval.Stalemates))
	}
	return t, nil
}

// armsCSV returns the header and rows of ablation.csv: the arms' numbers in
// full precision (an error from Evaluation.WinRate).
func (a *Ablation) armsCSV() (table.Table, error) {
	var rows [][]string
	num, itoa := textfmt.Shortest, strconv.Itoa
	head := []string{"arm", "features", "train_games", "train_steps", "eval_games", "wins", "win_rate", "win_lo", "win_hi", "mean_return", "eliminated", "stalemates"}
	for _, arm := range a.Arms {
		wins, rate, iv, mean, err := arm.Eval.WinRate()
		if err != nil {
			return table.Table{}, fmt.Errorf("arm %s: %w", arm.Name, err)
		}
		rows = append(rows, []string{arm.Name, strings.Join(arm.Features, " "), itoa(arm.Games), itoa(arm.Steps), itoa(len(arm.Eval.Won)),
			itoa(wins), num(rate), num(iv.Lo), num(iv.Hi), num(mean), itoa(arm.Eval.Eliminated), itoa(arm.Eval.Stalemates)})
	}
	return table.Table{Header: head, Rows: rows}, nil
}

// pairsShown is the paired comparisons as a Markdown table (as
// Result.pairedShown).
func (a *Ablation) pairsShown() table.Table {
	t := table.Table{Header: []string{"arm", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	for _, p := range a.Pairs {
		t.Add(a.Arms[p.X].Name, a.Arms[p.Y].Name, textfmt.Signed(100*p.Win.Diff, 1), signedIv(p.Win.Interval, 100, 1), pval(p.HolmWinP),
			textfmt.Signed(p.Return.Mean, 1), signedIv(p.Return.Interval, 1, 1), pval(p.HolmReturnP))
	}
	return t
}

// pairsCSV returns the header and rows of ablation-paired.csv.
func (a *Ablation) pairsCSV() table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"arm", "minus", "win_diff", "win_lo", "win_hi", "win_p", "win_p_holm", "return_diff", "return_lo", "return_hi", "return_p", "return_p_holm"}
	for _, p := range a.Pairs {
		rows = append(rows, []string{a.Arms[p.X].Name, a.Arms[p.Y].Name, num(p.Win.Diff), num(p.Win.Interval.Lo), num(p.Win.Interval.Hi),
			num(p.Win.P), num(p.HolmWinP), num(p.Return.Mean), num(p.Return.Interval.Lo), num(p.Return.Interval.Hi), num(p.Return.P), num(p.HolmReturnP)})
	}
	return table.Table{Header: head, Rows: rows}
}

// Verdicts are the sentences comparing each further arm with the first:
// the win-rate difference in points with its 95 % interval, Holm p and
// verdict (judge).
func (a *Ablation) Verdicts() []string {
	var out []string
	for _, p := range a.Pairs {
		if p.Y != 0 {
			continue
		}
		out = append(out, fmt.Sprintf("*%s* minus *%s*: %s points of win rate, 95 %% %s, Holm p %s: %s.",
			a.Arms[p.X].Name, a.Arms[0].Name, textfmt.Signed(100*p.Win.Diff, 1), signedIv(p.Win.Interval, 100, 1), pvalRel(p.HolmWinP),
			judge(p.Win.Interval, p.HolmWinP).wins()))
	}
	return out
}
