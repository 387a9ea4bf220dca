package recognition

import (
	"fmt"

	"github.com/marslab-risk/marslab/stats"
)

// Groups of players: everyone, the game's winner, the others.
const (
	All = iota
	Winners
	Losers
	numGroups
)

// groupNames name the groups in tables.
var groupNames = [numGroups]string{"all", "winners", "losers"}

// Clock is how the sampling points of a game are placed (see Game).
type Clock int

const (
	// ClockPaper counts the setup's steps as turns, as Khan & Rovatsos
	// (2013) did: 25 % of a game may fall in its setup.
	ClockPaper Clock = iota
	// ClockTurns counts player-turns only.
	ClockTurns
)

// TieRule is how a prediction tied between several cards is scored.
type TieRule int

const (
	// TiesWrong scores a tie as incorrect, as the paper did (section
	// 5.3.3: a split is "an incorrect or arguably inconclusive
	// prediction").
	TiesWrong TieRule = iota
	// TiesShare picks one of the tied cards at random: a tie of k cards is
	// right 1/k of the time on average.
	TiesShare
)

// EndRule is which prediction scores the end of a game.
type EndRule int

const (
	// EndTurn takes the prediction at the end of the last turn before the
	// one that ended the game, as Khan & Rovatsos (2013) did: "since
	// sampling is done on a turn by turn basis the plan recognition agent
	// will miss the significant change in probabilities as the system does
	// not register an end of turn but rather a different event which is the
	// end of the game" (section 5.3.3).
	EndTurn EndRule = iota
	// EndGame takes the prediction after the game's last action.
	EndGame
)

// Counting is how Summarize scores the predictions; the zero value is the
// paper's.
type Counting struct {
	Clock Clock
	Ties  TieRule
	End   EndRule
}

// Ours is our counting: player-turns only, ties broken at random, the end
// of the game after its last action.
var Ours = Counting{Clock: ClockTurns, Ties: TiesShare, End: EndGame}

// String describes the counting, e.g. "paper's clock, ties wrong".
func (c Counting) String() string {
	s := "paper's clock (setup steps counted)"
	if c.Clock == ClockTurns {
		s = "turn clock (player-turns only)"
	}
	if c.Ties == TiesShare {
		s += ", ties broken at random"
	} else {
		s += ", ties wrong"
	}
	if c.End == EndGame {
		return s + ", the end after the game's last action"
	}
	return s + ", the end at the last turn's end before it"
}

// ParseCounting parses the names of a clock ("paper" or "turns"), a tie
// rule ("wrong" or "share") and an end rule ("turn" or "game").
func ParseCounting(clock, ties, end string) (Counting, error) {
	var c Counting
	for _, x := range []struct {
		key, v string
		names  [2]string
		dst    *int
	}{
		{"clock", clock, [2]string{"paper", "turns"}, (*int)(&c.Clock)},
		{"ties", ties, [2]string{"wrong", "share"}, (*int)(&c.Ties)},
		{"end", end, [2]string{"turn", "game"}, (*int)(&c.End)},
	} {
		switch x.v {
		case x.names[0]:
		case x.names[1]:
			*x.dst = 1
		default:
			return c, fmt.Errorf("%s %q: want %s or %s", x.key, x.v, x.names[0], x.names[1])
		}
	}
	return c, nil
}

// Tally is a count of correct predictions among N player-games, with the
// accuracy and its 95 % Wilson interval, and the number of predictions
// tied between cards (Ties, scored by the Counting's tie rule).
type Tally struct {
	Correct, N int
	Ties       int
	Acc        float64
	CI         stats.Interval
}

// tieShare returns Ties / N (0 when N is 0).
func (t Tally) tieShare() float64 {
	if t.N == 0 {
		return 0
	}
	return float64(t.Ties) / float64(t.N)
}

// incorrect returns N - Correct.
func (t Tally) incorrect() int { return t.N - t.Correct }

func (t *Tally) add(ok, tie bool) {
	t.N++
	if ok {
		t.Correct++
	}
	if tie {
		t.Ties++
	}
}

func (t *Tally) finish() error {
	if t.N == 0 {
		t.CI = stats.Interval{Lo: 0, Hi: 1}
		return nil
	}
	t.Acc = float64(t.Correct) / float64(t.N)
	ci, err := stats.Wilson(t.Correct, t.N, stats.Level)
	t.CI = ci
	return err
}

// PairRow compares two recognisers on the same player-games at the end of
// the games: the exact McNemar test and Newcombe's interval of the
// difference of accuracies (X - Y), with the p-value Holm-corrected over
// every row.
type PairRow struct {
	Arm    string
	X, Y   string
	Result stats.PairedProportion
	PHolm  float64
}

// Summary is the scored experiment.
type Summary struct {
	// Counting is how the predictions were scored.
	Counting    Counting
	Arms        []string
	Recognisers []string
	// Cards are the continent cards and CardNames their names.
	Cards     []int
	CardNames []string
	// Chance is the accuracy of a uniform random guess, 1/len(Cards).
	Chance float64
	// Games[a] is arm a's number of games, Turns[a] their mean length in
	// player-turns, WinnerWon[a] the games won (not stalemates).
	Games     []int
	Turns     []float64
	WinnerWon []int
	// Excluded counts player-games whose card no recogniser models (not
	// scored).
	Excluded int
	// Curve[r][a][g][k] scores recogniser r on arm a's group g at sampling
	// point k (after (k+1)*5 % of the game).
	Curve [][][numGroups][steps]Tally
	// PerMission[r][a][g][c] scores card Cards[c] at the end of the game.
	PerMission [][][numGroups][]Tally
	// PChance[r][a] is the exact binomial test's p-value of recogniser r's
	// end-of-game accuracy on arm a against Chance.
	PChance [][]float64
	// Ran[r] reports that recogniser r was run (the data-driven one needs
	// training games).
	Ran []bool
	// Pairs compares the recognisers per arm and over every arm ("all").
	Pairs []PairRow
	// ByLength[r][a][b] scores recogniser r at the end of arm a's games
	// whose length in player-turns falls in lengthBins[b] (the paper's
	// Table 7.16, with bins for our shorter games).
	ByLength [][][]Tally
}

// lengthBins are the game lengths of Summary.ByLength, in player-turns:
// bin b holds the games with lengthBins[b] <= turns < lengthBins[b+1] (the
// last bin has no upper end).
var lengthBins = []int{0, 20, 30, 40, 50}

// Step is the sampling point of percent % of the game (5, 10, ..., 100).
func Step(percent int) int { return percent/5 - 1 }

// Summarize scores the results by the counting c (the zero Counting is the
// paper's).
func Summarize(res *Results, c Counting) (*Summary, error) {
	s := res.Setup
	nr, na := len(recognisers), len(res.Config.Arms)
	sum := &Summary{Counting: c, Recognisers: recognisers, Cards: s.Cards, Chance: 1 / float64(len(s.Cards)),
		Games: make([]int, na), Turns: make([]float64, na), WinnerWon: make([]int, na), Ran: make([]bool, nr)}
	for _, a := range res.Config.Arms {
		sum.Arms = append(sum.Arms, a.Name)
	}
	for _, c := range s.Cards {
		sum.CardNames = append(sum.CardNames, s.Rules.Missions[c].Name)
	}
	cardIdx := map[int]int{}
	for i, c := range s.Cards {
		cardIdx[c] = i
	}
	sum.ByLength = make([][][]Tally, nr)
	for r := range nr {
		sum.ByLength[r] = make([][]Tally, na)
		for a := range na {
			sum.ByLength[r][a] = make([]Tally, len(lengthBins))
		}
	}
	sum.Curve = make([][][numGroups][steps]Tally, nr)
	sum.PerMission = make([][][numGroups][]Tally, nr)
	for r := range nr {
		sum.Curve[r] = make([][numGroups][steps]Tally, na)
		sum.PerMission[r] = make([][numGroups][]Tally, na)
		for a := range na {
			for g := range numGroups {
				sum.PerMission[r][a][g] = make([]Tally, len(s.Cards))
			}
		}
	}
	// Paired outcomes at the end: per arm, per recogniser.
	ends := make([][][]bool, na)
	for a := range ends {
		ends[a] = make([][]bool, nr)
	}
	for _, g := range res.Games {
		a := g.Arm
		sum.Games[a]++
		sum.Turns[a] += float64(g.Turns)
		if g.Winner >= 0 {
			sum.WinnerWon[a]++
		}
		for p, card := range g.Missions {
			ci, ok := cardIdx[card]
			if !ok {
				sum.Excluded++
				continue
			}
			grp := Losers
			if p == g.Winner {
				grp = Winners
			}
			right := func(r, k int) (ok, tie bool) {
				return c.right(&g, r, p, k)
			}
			for r := range nr {
				if g.Pred[r][p][steps-1] < 0 {
					continue
				}
				sum.Ran[r] = true
				for k := range steps {
					ok, tie := right(r, k)
					sum.Curve[r][a][All][k].add(ok, tie)
					sum.Curve[r][a][grp][k].add(ok, tie)
				}
				ok, tie := right(r, steps-1)
				sum.ByLength[r][a][lengthBin(g.Turns)].add(ok, tie)
				sum.PerMission[r][a][All][ci].add(ok, tie)
				sum.PerMission[r][a][grp][ci].add(ok, tie)
				ends[a][r] = append(ends[a][r], ok)
			}
		}
	}
	for a := range na {
		if sum.Games[a] > 0 {
			sum.Turns[a] /= float64(sum.Games[a])
		}
	}
	sum.PChance = make([][]float64, nr)
	for r := range nr {
		sum.PChance[r] = make([]float64, na)
		for a := range na {
			for g := range numGroups {
				for k := range steps {
					if err := sum.Curve[r][a][g][k].finish(); err != nil {
						return nil, err
					}
				}
				if g == All {
					for b := range sum.ByLength[r][a] {
						if err := sum.ByLength[r][a][b].finish(); err != nil {
							return nil, err
						}
					}
				}
				for c := range sum.PerMission[r][a][g] {
					if err := sum.PerMission[r][a][g][c].finish(); err != nil {
						return nil, err
					}
				}
			}
			t := sum.Curve[r][a][All][steps-1]
			sum.PChance[r][a] = 1
			if t.N > 0 {
				p, err := stats.BinomialTest(t.Correct, t.N, sum.Chance)
				if err != nil {
					return nil, err
				}
				sum.PChance[r][a] = p
			}
		}
	}
	if err := sum.pairs(ends); err != nil {
		return nil, err
	}
	return sum, nil
}

// right scores recogniser r's prediction for seat p of g at sampling point
// k: whether it is right, and whether it is tied between cards.
func (c Counting) right(g *Game, r, p, k int) (ok, tie bool) {
	pred, tied := g.PaperPred[r][p][k], g.PaperTied[r][p][k]
	if c.Clock == ClockTurns {
		pred, tied = g.Pred[r][p][k], g.Tied[r][p][k]
	}
	if k == steps-1 && c.End == EndTurn {
		pred, tied = g.TurnEnd[r][p], g.TurnEndTied[r][p]
	}
	tie = tied > 1
	return pred == g.Missions[p] && (!tie || c.Ties == TiesShare), tie
}

// countingEffect compares two countings of the same player-games: recogniser
// r's end-of-game accuracy by x minus that by y, per arm, paired (exact
// McNemar test, Newcombe's interval), with the arms' p-values
// Holm-corrected together. Player-games whose card no recogniser models are
// left out.
func countingEffect(res *Results, r int, x, y Counting) ([]PairRow, error) {
	if r < 0 || r >= len(recognisers) {
		return nil, fmt.Errorf("counting effect: recogniser %d: want 0 to %d", r, len(recognisers)-1)
	}
	cards := map[int]bool{}
	for _, c := range res.Setup.Cards {
		cards[c] = true
	}
	na := len(res.Config.Arms)
	xs, ys := make([][]bool, na), make([][]bool, na)
	for i := range res.Games {
		g := &res.Games[i]
		for p, card := range g.Missions {
			if !cards[card] || g.Pred[r][p][steps-1] < 0 {
				continue
			}
			okx, _ := x.right(g, r, p, steps-1)
			oky, _ := y.right(g, r, p, steps-1)
			xs[g.Arm], ys[g.Arm] = append(xs[g.Arm], okx), append(ys[g.Arm], oky)
		}
	}
	var rows []PairRow
	var ps []float64
	for a, arm := range res.Config.Arms {
		if len(xs[a]) == 0 {
			continue
		}
		c, err := stats.CountPairs(xs[a], ys[a])
		if err != nil {
			return nil, err
		}
		pp, err := stats.PairedProportions(c, stats.Level)
		if err != nil {
			return nil, err
		}
		rows = append(rows, PairRow{Arm: arm.Name, X: x.String(), Y: y.String(), Result: pp})
		ps = append(ps, pp.P)
	}
	if len(ps) == 0 {
		return rows, nil
	}
	h, err := stats.Holm(ps)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].PHolm = h[i]
	}
	return rows, nil
}

// CountingRule is one rule of the paper's counting, changed alone in
// Changed.
type CountingRule struct {
	// Name says what the paper's counting does, Paper and Other name the
	// paper's way and the other one.
	Name, Paper, Other string
	// Changed is the paper's counting with this rule alone changed.
	Changed Counting
}

// countingRules are the rules of the paper's counting whose effect the
// experiment measures at the end of the game (the clock leaves the end
// where it is).
var countingRules = []CountingRule{
	{"The end at the last turn's end before the final turn", "last turn's end", "after the last action", Counting{End: EndGame}},
	{"A tie scored wrong", "tie wrong", "tie broken at random", Counting{Ties: TiesShare}},
}

// RuleEffect is the effect of one counting rule, per arm: the paper's
// counting (X) against the counting with the rule changed (Y).
type RuleEffect struct {
	Rule CountingRule
	Arms []PairRow
}

// CountingEffects measures every rule of countingRules for recogniser r
// (countingEffect of the paper's counting against Rule.Changed).
func CountingEffects(res *Results, r int) ([]RuleEffect, error) {
	var out []RuleEffect
	for _, rule := range countingRules {
		rows, err := countingEffect(res, r, Counting{}, rule.Changed)
		if err != nil {
			return nil, err
		}
		out = append(out, RuleEffect{Rule: rule, Arms: rows})
	}
	return out, nil
}

// lengthBin returns the bin of lengthBins that turns falls in.
func lengthBin(turns int) int {
	b := 0
	for i, lo := range lengthBins {
		if turns >= lo {
			b = i
		}
	}
	return b
}

// pairs fills Pairs: every two recognisers that ran, per arm and pooled.
func (sum *Summary) pairs(ends [][][]bool) error {
	nr := len(sum.Recognisers)
	var ps []float64
	add := func(arm string, x, y []bool, rx, ry int) error {
		if len(x) == 0 {
			return nil
		}
		c, err := stats.CountPairs(x, y)
		if err != nil {
			return err
		}
		pp, err := stats.PairedProportions(c, stats.Level)
		if err != nil {
			return err
		}
		sum.Pairs = append(sum.Pairs, PairRow{Arm: arm, X: sum.Recognisers[rx], Y: sum.Recognisers[ry], Result: pp})
		ps = append(ps, pp.P)
		return nil
	}
	for rx := range nr {
		for ry := rx + 1; ry < nr; ry++ {
			if !sum.Ran[rx] || !sum.Ran[ry] {
				continue
			}
			var allX, allY []bool
			arms := 0
			for a := range sum.Arms {
				x, y := ends[a][rx], ends[a][ry]
				if len(x) > 0 {
					arms++
				}
				if err := add(sum.Arms[a], x, y, rx, ry); err != nil {
					return err
				}
				allX, allY = append(allX, x...), append(allY, y...)
			}
			if arms > 1 {
				if err := add("all", allX, allY, rx, ry); err != nil {
					return err
				}
			}
		}
	}
	if len(ps) == 0 {
		return nil
	}
	h, err := stats.Holm(ps)
	if err != nil {
		return err
	}
	for i := range sum.Pairs {
		sum.Pairs[i].PHolm = h[i]
	}
	return nil
}

// PaperSteps are the sampling points of the paper's tables: 25, 50, 75 and
// 100 % of the game.
var PaperSteps = []int{25, 50, 75, 100}
