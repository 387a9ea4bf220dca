package learn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/mdtable"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
)

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
// evaluation episodes (at Level), Holm-correcting the win and return
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
			if p.Win, err = stats.PairedProportions(pc, Level); err != nil {
				return nil, fmt.Errorf("ablation %s minus %s: %w", arms[x].Name, arms[y].Name, err)
			}
			if p.Return, err = stats.PairedT(arms[x].Eval.Return, arms[y].Eval.Return, Level); err != nil {
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

// Table is the arms as a Markdown table: name, the Q-table's observation,
// training games and steps, wins, win % with its 95 % Wilson interval,
// mean return, eliminations and stalemates.
func (a *Ablation) Table() mdtable.Table {
	t := mdtable.Table{Header: []string{"arm", "Q-table's observation", "training games", "training steps", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates"}}
	for _, arm := range a.Arms {
		wins, rate, iv, mean := arm.Eval.Winrate()
		t.Add(arm.Name, strings.Join(arm.Features, ", "), strconv.Itoa(arm.Games), strconv.Itoa(arm.Steps),
			strconv.Itoa(wins), pct(rate), wilson(iv), textfmt.Fixed(mean, 1), strconv.Itoa(arm.Eval.Eliminated), strconv.Itoa(arm.Eval.Stalemates))
	}
	return t
}

// CSV returns the header and rows of ablation.csv: the arms' numbers in
// full precision.
func (a *Ablation) CSV() (head []string, rows [][]string) {
	num, itoa := textfmt.Shortest, strconv.Itoa
	head = []string{"arm", "features", "train_games", "train_steps", "eval_games", "wins", "win_rate", "win_lo", "win_hi", "mean_return", "eliminated", "stalemates"}
	for _, arm := range a.Arms {
		wins, rate, iv, mean := arm.Eval.Winrate()
		rows = append(rows, []string{arm.Name, strings.Join(arm.Features, " "), itoa(arm.Games), itoa(arm.Steps), itoa(len(arm.Eval.Won)),
			itoa(wins), num(rate), num(iv.Lo), num(iv.Hi), num(mean), itoa(arm.Eval.Eliminated), itoa(arm.Eval.Stalemates)})
	}
	return head, rows
}

// PairsTable is the paired comparisons as a Markdown table (as
// Result.PairedMarkdown).
func (a *Ablation) PairsTable() mdtable.Table {
	t := mdtable.Table{Header: []string{"arm", "minus", "win points", "95 % interval", "p (Holm)", "return", "95 % interval", "p (Holm)"}}
	for _, p := range a.Pairs {
		t.Add(a.Arms[p.X].Name, a.Arms[p.Y].Name, textfmt.Signed(100*p.Win.Diff, 1), signedIv(p.Win.Interval, 100, 1), pval(p.HolmWinP),
			textfmt.Signed(p.Return.Mean, 1), signedIv(p.Return.Interval, 1, 1), pval(p.HolmReturnP))
	}
	return t
}

// PairsCSV returns the header and rows of ablation-paired.csv.
func (a *Ablation) PairsCSV() (head []string, rows [][]string) {
	num := textfmt.Shortest
	head = []string{"arm", "minus", "win_diff", "win_lo", "win_hi", "win_p", "win_p_holm", "return_diff", "return_lo", "return_hi", "return_p", "return_p_holm"}
	for _, p := range a.Pairs {
		rows = append(rows, []string{a.Arms[p.X].Name, a.Arms[p.Y].Name, num(p.Win.Diff), num(p.Win.Interval.Lo), num(p.Win.Interval.Hi),
			num(p.Win.P), num(p.HolmWinP), num(p.Return.Mean), num(p.Return.Interval.Lo), num(p.Return.Interval.Hi), num(p.Return.P), num(p.HolmReturnP)})
	}
	return head, rows
}

// Verdicts are the sentences comparing each further arm with the first:
// the win-rate difference in points with its 95 % interval, Holm p and
// verdict (Judge).
func (a *Ablation) Verdicts() []string {
	var out []string
	for _, p := range a.Pairs {
		if p.Y != 0 {
			continue
		}
		out = append(out, fmt.Sprintf("*%s* minus *%s*: %s points of win rate, 95 %% %s, Holm p = %s: %s.",
			a.Arms[p.X].Name, a.Arms[0].Name, textfmt.Signed(100*p.Win.Diff, 1), signedIv(p.Win.Interval, 100, 1), pval(p.HolmWinP),
			Judge(p.Win.Interval, p.HolmWinP).wins()))
	}
	return out
}
