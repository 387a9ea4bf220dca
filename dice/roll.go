package dice

import (
	"fmt"
	"math/big"
	"sync"
)

// RollOdds is the exact outcome table of a single roll of AttackerDice
// against DefenderDice dice: each of the Total = s^(AttackerDice+DefenderDice)
// ordered dice outcomes of s-sided dice (6 in the classic rules) is equally
// likely.
type RollOdds struct {
	// AttackerDice and DefenderDice are the numbers of dice rolled.
	AttackerDice, DefenderDice int
	// Total is s^(AttackerDice+DefenderDice), the number of outcomes.
	Total int64
	// Count[j] is the number of outcomes in which the defender loses j
	// armies and the attacker Pairs()-j, for j = 0..Pairs(); the rest is 0.
	Count [maxDice + 1]int64
}

// Pairs returns min(AttackerDice, DefenderDice), the number of dice
// compared and so of armies lost in the roll.
func (o RollOdds) Pairs() int { return min(o.AttackerDice, o.DefenderDice) }

// P returns the probability that the defender loses defLoss armies (and
// the attacker Pairs()-defLoss); it is 0 outside [0, Pairs()].
func (o RollOdds) P(defLoss int) float64 {
	if defLoss < 0 || defLoss > o.Pairs() {
		return 0
	}
	return float64(o.Count[defLoss]) / float64(o.Total)
}

// rat returns P(defLoss) exactly, in lowest terms.
func (o RollOdds) rat(defLoss int) *big.Rat {
	if defLoss < 0 || defLoss > o.Pairs() {
		return new(big.Rat)
	}
	return big.NewRat(o.Count[defLoss], o.Total)
}

// Roll returns the exact outcome table of one roll of na attacking dice
// against nd defending dice under r, found by enumerating all s^(na+nd)
// ordered outcomes of s-sided dice (once per process and combination). It needs 1 <= na <= r.AttackerDice and 1 <= nd <= r.DefenderDice.
func Roll(r Rules, na, nd int) (RollOdds, error) {
	if err := r.Validate(); err != nil {
		return RollOdds{}, err
	}
	if na < 1 || na > r.AttackerDice {
		return RollOdds{}, fmt.Errorf("dice: %d attacking dice outside [1, %d]", na, r.AttackerDice)
	}
	if nd < 1 || nd > r.DefenderDice {
		return RollOdds{}, fmt.Errorf("dice: %d defending dice outside [1, %d]", nd, r.DefenderDice)
	}
	ties := 0
	if r.TiesToAttacker {
		ties = 1
	}
	return rollsBySides[r.sides()][ties][na][nd](), nil
}

// rollsBySides[s][ties][na][nd]() is the outcome table of na against nd
// s-sided dice (ties to the attacker if ties is 1), enumerated once on
// first use and never modified: each combination apart, so that rules with
// fewer dice never pay for the larger enumerations (12^6 outcomes for three
// twelve-sided dice against three).
var rollsBySides = func() (f [maxSides + 1][2][maxDice + 1][maxDice + 1]func() RollOdds) {
	for s := 2; s <= maxSides; s++ {
		for ties := range 2 {
			for na := 1; na <= maxDice; na++ {
				for nd := 1; nd <= maxDice; nd++ {
					f[s][ties][na][nd] = sync.OnceValue(func() RollOdds { return enumerate(na, nd, ties == 1, s) })
				}
			}
		}
	}
	return f
}()

// enumerate counts the outcomes of na against nd s-sided dice over all
// s^(na+nd) ordered rolls.
func enumerate(na, nd int, tiesToAttacker bool, s int) RollOdds {
	o := RollOdds{AttackerDice: na, DefenderDice: nd, Total: 1}
	for range na + nd {
		o.Total *= int64(s)
	}
	s64 := int64(s)
	m := o.Pairs()
	var att, def [maxDice]int
	for x := int64(0); x < o.Total; x++ {
		y := x
		for i := range na {
			att[i] = int(y%s64) + 1
			y /= s64
		}
		for i := range nd {
			def[i] = int(y%s64) + 1
			y /= s64
		}
		sortDesc(att[:na])
		sortDesc(def[:nd])
		lost := 0
		for i := range m {
			if att[i] > def[i] || (tiesToAttacker && att[i] == def[i]) {
				lost++
			}
		}
		o.Count[lost]++
	}
	return o
}

// sortDesc sorts a few values in descending order (insertion sort).
func sortDesc(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] > v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// rollSet holds the outcome tables of every dice combination of a rule set.
type rollSet struct {
	// odds[na][nd] for 1 <= na <= r.AttackerDice, 1 <= nd <= r.DefenderDice.
	odds [maxDice + 1][maxDice + 1]RollOdds
	// p[na][nd][j] is odds[na][nd].P(j) as float64.
	p [maxDice + 1][maxDice + 1][maxDice + 1]float64
}

func newRollSet(r Rules) (*rollSet, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	s := &rollSet{}
	for na := 1; na <= r.AttackerDice; na++ {
		for nd := 1; nd <= r.DefenderDice; nd++ {
			o, err := Roll(r, na, nd)
			if err != nil {
				return nil, err
			}
			s.odds[na][nd] = o
			for j := 0; j <= o.Pairs(); j++ {
				s.p[na][nd][j] = o.P(j)
			}
		}
	}
	return s, nil
}

// table4Row is one column of Table 4 of the MARS paper (Johansson &
// Olsson 2006): the rounded odds, in percent, of one roll.
type table4Row struct {
	// AttackerDice and DefenderDice are the dice rolled.
	AttackerDice, DefenderDice int
	// Attacker is the paper's "Attacker wins" (the defender loses every
	// compared pair), Defender its "Defender wins" (the attacker loses
	// every pair) and OneEach its "One each" (-1 where the paper has "—").
	Attacker, Defender, OneEach int
}

// table4 returns Table 4 of the MARS paper as printed. Every entry is the
// exact value (Roll) rounded to a whole percent; for 3 dice against 2 the
// exact values are 2890/7776 (attacker wins), 2275/7776 (defender wins)
// and 2611/7776 (one each).
func table4() []table4Row {
	return []table4Row{
		{1, 1, 42, 58, -1},
		{2, 1, 58, 42, -1},
		{3, 1, 66, 34, -1},
		{1, 2, 25, 75, -1},
		{2, 2, 23, 45, 32},
		{3, 2, 37, 29, 34},
	}
}

// RollVsPaper is one single roll's exact odds beside the paper's Table 4.
type RollVsPaper struct {
	// AttackerDice and DefenderDice are the dice rolled.
	AttackerDice, DefenderDice int
	// Odds are the roll's exact odds (Roll).
	Odds RollOdds
	// Paper[j] is Table 4's whole percent for the defender losing j pairs
	// (Paper[0] "Defender wins", Paper[m] "Attacker wins", Paper[1] of a
	// two-pair roll "One each"); nil when the rules are not Classic, the
	// rules Table 4 was computed for.
	Paper []int
}

// CompareTable4 returns every single roll of r, defender dice 1.. outer
// and attacker dice 1.. inner, with its exact odds and, for the classic
// rules, Table 4's percentages. Report's dice notebook and marslab odds
// both print this comparison.
func CompareTable4(r Rules) ([]RollVsPaper, error) {
	paper := map[[2]int]table4Row{}
	if r == Classic {
		for _, row := range table4() {
			paper[[2]int{row.AttackerDice, row.DefenderDice}] = row
		}
	}
	var out []RollVsPaper
	for nd := 1; nd <= r.DefenderDice; nd++ {
		for na := 1; na <= r.AttackerDice; na++ {
			odds, err := Roll(r, na, nd)
			if err != nil {
				return nil, err
			}
			rv := RollVsPaper{AttackerDice: na, DefenderDice: nd, Odds: odds}
			if row, ok := paper[[2]int{na, nd}]; ok {
				m := odds.Pairs()
				rv.Paper = make([]int, m+1)
				for j := range rv.Paper {
					rv.Paper[j] = row.OneEach
				}
				rv.Paper[0], rv.Paper[m] = row.Defender, row.Attacker
			}
			out = append(out, rv)
		}
	}
	return out, nil
}
