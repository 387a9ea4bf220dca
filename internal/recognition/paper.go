package recognition

import (
	"fmt"
	"math"
	"strconv"

	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// This file holds the tables that set a run beside Khan & Rovatsos
// (2013)'s appendix: their result values and one renderer each, used by
// marslab recognize's tables.txt (without the paper's rows) and by
// notebooks/recognition (with them).

// PaperArm is the paper's counts for one kind of play, printed beside the
// arm of ours that stands for it.
type PaperArm struct {
	// Name is the paper's name of the kind of play.
	Name string `toml:"name"`
	// Winners and Losers are [correct, incorrect] at 25, 50, 75 and 100 %
	// of the game (PaperSteps; the paper's Table 7.1).
	Winners [][]int `toml:"winners"`
	Losers  [][]int `toml:"losers"`
	// Missions are [correct, incorrect] at the end of the game per card,
	// in the order of the rules' continent cards (Tables 7.6, 7.9, 7.12);
	// empty when the paper has none.
	Missions [][]int `toml:"missions"`
}

// Paper is the paper's rows by the name of the arm they stand beside; nil
// for a run without them.
type Paper map[string]PaperArm

// end returns the paper's correct predictions and player-games at the end
// of the game, winners and losers together.
func (p PaperArm) end() (correct, n int) {
	last := len(p.Winners) - 1
	correct = p.Winners[last][0] + p.Losers[last][0]
	return correct, correct + p.Winners[last][1] + p.Losers[last][1]
}

// EndAcc returns End's accuracy in percent.
func (p PaperArm) EndAcc() float64 {
	k, n := p.end()
	return 100 * float64(k) / float64(n)
}

// paperCell formats a paper's [correct, incorrect] as "correct/incorrect
// accuracy" in percent with one decimal (the paper gives no interval).
func paperCell(ci []int) string {
	n := ci[0] + ci[1]
	if n == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d %s", ci[0], ci[1], textfmt.Fixed(100*float64(ci[0])/float64(n), 1))
}

// Scored is a summary with the label its rows carry in a table, e.g.
// "ours (paper's counting)".
type Scored struct {
	Label string
	Sum   *Summary
}

// paperHead is the first columns of the tables at PaperSteps: "arm",
// "source" and one column per step.
func paperHead(lead ...string) []string {
	h := append([]string{"arm"}, lead...)
	for _, s := range PaperSteps {
		h = append(h, strconv.Itoa(s)+" %")
	}
	return h
}

// GeneralTable is the paper's Table 7.2 for recogniser r: every player's
// predictions at 25, 50, 75 and 100 % of the game, one row per arm and
// summary in scored (the first names the arms; all have the same arms),
// the share of predictions tied between cards, and the exact binomial
// test's p-value at the end against a random guess; the paper's row
// follows an arm that has one.
func GeneralTable(r int, scored []Scored, paper Paper) table.Table {
	t := table.Table{Header: append(paperHead("source"), "ties at 25/50/75/100 %", "p vs guess")}
	for a, arm := range scored[0].Sum.Arms {
		for i, sc := range scored {
			row := []string{arm, sc.Label}
			if i > 0 {
				row[0] = ""
			}
			ties := ""
			for j, s := range PaperSteps {
				tl := sc.Sum.Curve[r][a][All][Step(s)]
				row = append(row, Cell(tl))
				if j > 0 {
					ties += " / "
				}
				ties += textfmt.Fixed(100*tl.tieShare(), 1)
			}
			t.Add(append(row, ties, fmt.Sprintf("%.3g", sc.Sum.PChance[r][a]))...)
		}
		if p, ok := paper[arm]; ok {
			row := []string{"", "paper: " + p.Name}
			for i := range PaperSteps {
				row = append(row, paperCell([]int{p.Winners[i][0] + p.Losers[i][0], p.Winners[i][1] + p.Losers[i][1]}))
			}
			t.Add(append(row, "—", "—")...)
		}
	}
	return t
}

// WinLoseTable is the paper's Table 7.1 for recogniser r: the winners'
// and the losers' predictions at 25, 50, 75 and 100 % of the game and
// their share of ties at the end, each row of ours followed by the paper's
// when it has the arm.
func (sum *Summary) WinLoseTable(r int, paper Paper) table.Table {
	t := table.Table{Header: append(paperHead("players", "source"), "ties at 100 %")}
	for a, arm := range sum.Arms {
		p, hasPaper := paper[arm]
		for _, g := range []int{Winners, Losers} {
			row := []string{arm, groupNames[g], "ours"}
			for _, s := range PaperSteps {
				row = append(row, Cell(sum.Curve[r][a][g][Step(s)]))
			}
			t.Add(append(row, textfmt.Fixed(100*sum.Curve[r][a][g][steps-1].tieShare(), 1))...)
			if hasPaper {
				rows := p.Winners
				if g == Losers {
					rows = p.Losers
				}
				row := []string{"", "", "paper"}
				for i := range PaperSteps {
					row = append(row, paperCell(rows[i]))
				}
				t.Add(append(row, "—")...)
			}
		}
	}
	return t
}

// MissionsTable is the paper's Tables 7.6, 7.9 and 7.12 for recogniser r:
// every player's predictions at the end of the game per card, one column
// per arm, followed by the paper's column when it has the arm's missions.
func (sum *Summary) MissionsTable(r int, paper Paper) table.Table {
	t := table.Table{Header: []string{"mission"}}
	has := func(arm string) (PaperArm, bool) {
		p, ok := paper[arm]
		return p, ok && len(p.Missions) == len(sum.Cards)
	}
	for _, arm := range sum.Arms {
		t.Header = append(t.Header, arm)
		if p, ok := has(arm); ok {
			t.Header = append(t.Header, "paper: "+p.Name)
		}
	}
	for c, name := range sum.CardNames {
		row := []string{name}
		for a, arm := range sum.Arms {
			row = append(row, Cell(sum.PerMission[r][a][All][c]))
			if p, ok := has(arm); ok {
				row = append(row, paperCell(p.Missions[c]))
			}
		}
		t.Add(row...)
	}
	return t
}

// PaperGap is one arm's end-of-game accuracy against the paper's: ours
// minus the paper's in points with Newcombe's 95 % interval (independent
// samples), and whether it is within the tolerance.
type PaperGap struct {
	Arm string
	// Ours and Paper are the accuracies in percent, PaperCorrect and
	// PaperN the paper's counts.
	Ours, Paper          float64
	PaperCorrect, PaperN int
	// Diff, Lo and Hi are ours − paper and its interval, in points.
	Diff, Lo, Hi float64
	// Close reports |Diff| <= the tolerance.
	Close bool
}

// PaperGaps compares recogniser r's end-of-game accuracy on every arm that
// has a paper row (and games) with the paper's; tolerance is in points.
func (sum *Summary) PaperGaps(r int, paper Paper, tolerance float64) ([]PaperGap, error) {
	var gaps []PaperGap
	for a, arm := range sum.Arms {
		t := sum.Curve[r][a][All][steps-1]
		p, ok := paper[arm]
		if !ok || t.N == 0 {
			continue
		}
		k, n := p.end()
		diff, iv, err := stats.DiffWilson(t.Correct, t.N, k, n, stats.Level)
		if err != nil {
			return nil, fmt.Errorf("arm %s against the paper: %w", arm, err)
		}
		gaps = append(gaps, PaperGap{Arm: arm, Ours: 100 * t.Acc, Paper: 100 * float64(k) / float64(n), PaperCorrect: k, PaperN: n,
			Diff: 100 * diff, Lo: 100 * iv.Lo, Hi: 100 * iv.Hi, Close: math.Abs(100*diff) <= tolerance})
	}
	return gaps, nil
}

// HeadlineTable is recogniser r's end-of-game accuracy per arm by the
// paper's counting (sum) and by ours (ours), with the gaps to the paper
// (PaperGaps; "—" for an arm without one) and whether each is within
// tolerance points (which decides here, whatever PaperGap.Close says).
func HeadlineTable(r int, sum, ours *Summary, gaps []PaperGap, tolerance float64) table.Table {
	t := table.Table{Header: []string{"arm", "ours (paper's counting)", "ties", "ours (our counting)", "paper", "ours − paper (pts)", "95 % interval", "within " + textfmt.Fixed(tolerance, 0) + " pts"}}
	byArm := map[string]PaperGap{}
	for _, g := range gaps {
		byArm[g.Arm] = g
	}
	for a, arm := range sum.Arms {
		tl := sum.Curve[r][a][All][steps-1]
		row := []string{arm, Cell(tl), textfmt.Fixed(100*tl.tieShare(), 1) + " %", Cell(ours.Curve[r][a][All][steps-1])}
		g, ok := byArm[arm]
		if !ok {
			t.Add(append(row, "—", "—", "—", "—")...)
			continue
		}
		close := "no"
		if math.Abs(g.Diff) <= tolerance {
			close = "yes"
		}
		t.Add(append(row, paperCell([]int{g.PaperCorrect, g.PaperN - g.PaperCorrect}), textfmt.Signed(g.Diff, 1),
			"["+textfmt.Signed(g.Lo, 1)+", "+textfmt.Signed(g.Hi, 1)+"]", close)...)
	}
	return t
}

// WinnerGap is one arm's end-of-game accuracy for its winners minus its
// losers, in points with Newcombe's 95 % interval (independent samples),
// and the paper's difference when it has the arm.
type WinnerGap struct {
	Arm          string
	Diff, Lo, Hi float64
	HasPaper     bool
	Paper        float64
}

// WinnerGaps compares recogniser r's winners with its losers at the end of
// the game on every arm that has both.
func (sum *Summary) WinnerGaps(r int, paper Paper) ([]WinnerGap, error) {
	var gaps []WinnerGap
	for a, arm := range sum.Arms {
		wt, lt := sum.Curve[r][a][Winners][steps-1], sum.Curve[r][a][Losers][steps-1]
		if wt.N == 0 || lt.N == 0 {
			continue
		}
		diff, iv, err := stats.DiffWilson(wt.Correct, wt.N, lt.Correct, lt.N, stats.Level)
		if err != nil {
			return nil, fmt.Errorf("arm %s, winners against losers: %w", arm, err)
		}
		g := WinnerGap{Arm: arm, Diff: 100 * diff, Lo: 100 * iv.Lo, Hi: 100 * iv.Hi}
		if p, ok := paper[arm]; ok {
			last := len(p.Winners) - 1
			pw, pl := p.Winners[last], p.Losers[last]
			g.HasPaper = true
			g.Paper = 100 * (float64(pw[0])/float64(pw[0]+pw[1]) - float64(pl[0])/float64(pl[0]+pl[1]))
		}
		gaps = append(gaps, g)
	}
	return gaps, nil
}
