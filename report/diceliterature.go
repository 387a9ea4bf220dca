package report

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/plots"
)

// diceLiteratureNotes are the note sections of a dice-literature notebook.
var diceLiteratureNotes = []string{"intro", "literature", "variants", "stopping", "defence", "mars", "conclusion"}

// diceLiteratureConfig is the config of a dice-literature notebook: the
// literature's published dice numbers beside exact values, dice variants,
// optimal stopping problems and the defence of a chain.
type diceLiteratureConfig struct {
	Header
	path string // the config file, for errors and relative rule files
	Lit  struct {
		// Sides are the numbers of faces of the dice-variant table;
		// VariantArmies the a = d of its battle column.
		Sides         []int `toml:"sides"`
		VariantArmies int   `toml:"variant_armies"`
		// Stopping are the optimal stopping problems; Figure the index of
		// the one whose policy and threshold losses are drawn.
		Stopping []stoppingProblem `toml:"stopping"`
		Figure   int               `toml:"figure"`
		// DefenceAttackers, DefenceArmies and DefenceTerritories span the
		// grid of defence problems (every combination with at least one
		// army per territory).
		DefenceAttackers   []int `toml:"defence_attackers"`
		DefenceArmies      []int `toml:"defence_armies"`
		DefenceTerritories []int `toml:"defence_territories"`
		// Mars is MARS's stopping rule against the optimal one in games.
		Mars marsStopConfig `toml:"mars"`
	} `toml:"literature"`
	Full  diceLiteratureSize `toml:"full"`
	Quick diceLiteratureSize `toml:"quick"`
}

// stoppingProblem is one optimal stopping problem of the notebook.
type stoppingProblem struct {
	A         int     `toml:"a"`
	Defenders []int   `toml:"defenders"`
	Territory float64 `toml:"territory"`
	Army      float64 `toml:"army"`
	Kill      float64 `toml:"kill"`
	Path      float64 `toml:"path"`
	Goal      int     `toml:"goal"`
	Keep      int     `toml:"keep"`
	// Wp1 and Wp are MARS's thresholds whose rule is evaluated.
	Wp1 float64 `toml:"wp1"`
	Wp  float64 `toml:"wp"`
}

// diceLiteratureSize are the sizes of a run.
type diceLiteratureSize struct {
	// HendelMaxD is the largest defender count of the armies-needed
	// check; LossMaxN the largest of the expected-losses formula's check.
	HendelMaxD int `toml:"hendel_max_d"`
	LossMaxN   int `toml:"loss_max_n"`
	// ExhaustiveMax is the most allocations a defence problem may have to
	// be checked by evaluating every one (0: none).
	ExhaustiveMax int `toml:"exhaustive_max"`
	// MarsGames is the number of games of each of the MARS section's two
	// batches.
	MarsGames int `toml:"mars_games"`
	// TournamentGames is the number of the tournament's games (the first
	// of its schedule) the MARS section replays twice, with
	// literature.mars.tournament (1 to its games), 0 without.
	TournamentGames int `toml:"tournament_games"`
}

func parseDiceLiterature(path string, data []byte) (experiment, error) {
	var c diceLiteratureConfig
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	c.path = path
	ck := &checker{path: path}
	l := &c.Lit
	l.Mars.check(ck)
	ck.ints("literature.sides", l.Sides, 1, 11, 2, 12) // the faces dice.Rules.Sides allows
	distinct(ck, "literature.sides", l.Sides)
	ck.intIn("literature.variant_armies", l.VariantArmies, 1, 100)
	if len(l.Stopping) == 0 || len(l.Stopping) > 20 {
		ck.fail("literature.stopping", "%d problems, want 1 to 20", len(l.Stopping))
	}
	for i, p := range l.Stopping {
		key := fmt.Sprintf("literature.stopping[%d]", i)
		ck.intIn(key+".a", p.A, 1, 60)
		ck.ints(key+".defenders", p.Defenders, 1, 6, 1, 30)
		for _, v := range []struct {
			name string
			x    float64
		}{{"wp1", p.Wp1}, {"wp", p.Wp}} {
			if !(v.x >= 0 && v.x <= 1) {
				ck.fail(key+"."+v.name, "%v outside [0, 1]", v.x)
			}
		}
		if ck.err == nil {
			if err := p.utility().Validate(len(p.Defenders), p.A); err != nil {
				ck.fail(key, "%v", err)
			}
		}
	}
	ck.intIn("literature.figure", l.Figure, 0, max(0, len(l.Stopping)-1))
	ck.ints("literature.defence_attackers", l.DefenceAttackers, 1, 10, 1, 100)
	ck.ints("literature.defence_armies", l.DefenceArmies, 1, 10, 1, 60)
	ck.ints("literature.defence_territories", l.DefenceTerritories, 1, 10, 1, 10)
	distinct(ck, "literature.defence_attackers", l.DefenceAttackers)
	distinct(ck, "literature.defence_armies", l.DefenceArmies)
	distinct(ck, "literature.defence_territories", l.DefenceTerritories)
	for _, s := range []struct {
		name string
		size diceLiteratureSize
	}{{"full", c.Full}, {"quick", c.Quick}} {
		ck.intIn(s.name+".hendel_max_d", s.size.HendelMaxD, 10, 500)
		ck.intIn(s.name+".loss_max_n", s.size.LossMaxN, 1, 100)
		ck.intIn(s.name+".exhaustive_max", s.size.ExhaustiveMax, 0, 10000000)
		ck.intIn(s.name+".mars_games", s.size.MarsGames, 2, 1000000)
		l.Mars.checkGames(ck, s.name+".tournament_games", s.size.TournamentGames)
	}
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

func (p stoppingProblem) utility() dice.Utility {
	return dice.Utility{Territory: p.Territory, Army: p.Army, Kill: p.Kill, Path: p.Path, Goal: p.Goal, Keep: p.Keep}
}

func (c *diceLiteratureConfig) template() string { return "dice-literature.md.tmpl" }

func (c *diceLiteratureConfig) size(quick bool) diceLiteratureSize {
	if quick {
		return c.Quick
	}
	return c.Full
}

func (c *diceLiteratureConfig) sizes(quick bool) string {
	s := c.size(quick)
	t := ""
	if c.Lit.Mars.tc != nil {
		t = fmt.Sprintf(", tournament_games = %d", s.TournamentGames)
	}
	return fmt.Sprintf("hendel_max_d = %d, loss_max_n = %d, exhaustive_max = %d, mars_games = %d%s", s.HendelMaxD, s.LossMaxN,
		s.ExhaustiveMax, s.MarsGames, t)
}

// litLine is one published number beside the exact value.
type litLine struct {
	Source, Quantity string
	// Ours is the exact value as text (a fraction where it is rational),
	// Published as printed.
	Ours, Published string
	Agrees          bool
	// Diff is ours minus published (0 for counts that agree).
	Diff float64
}

// variantLine is one dice variant.
type variantLine struct {
	Name                  string
	AttackerBoth, DefBoth float64 // 3 dice against 2: P(defender loses 2), P(attacker loses 2)
	Win                   float64 // P(win) of VariantArmies against VariantArmies
	Needed                int     // fewest armies in the attacking territory for P(win) >= 0.5 against VariantArmies
}

// stoppingLine is one optimal stopping problem's result.
type stoppingLine struct {
	A                     int
	Path, Utility         string
	Value, ToEnd, Never   float64
	BestW, BestLoss       float64
	Wp1, Wp, MARS, MLoss  float64
	IsThreshold           bool
	Rules                 int // distinct threshold rules evaluated
	RollStates, Decisions int // reachable decision states where the optimum rolls, and all of them
}

// defenceLine is one defence problem's result.
type defenceLine struct {
	A, Armies, K      int
	Alloc             string
	Win, Adaptive     float64
	Allocations       float64
	Leaves, Nodes     int
	Twos              bool // the optimum is 2 on every territory but the last
	First, Last, Even float64
	Checked, Same     bool // checked exhaustively, and the same optimum
}

// diceLiteratureData is the template data.
type diceLiteratureData struct {
	Lit                        []litLine
	LitAgree                   int
	HendelMaxD, HendelAgree    int
	HendelMaxDiff, HendelSlope float64
	HendelSlopeFrom            int
	EqualFrom                  int
	LossMaxN                   int
	LossMaxDiff                float64
	VariantArmies              int
	Variants                   []variantLine
	// SidesFirst and SidesLast are the variants of the fewest and the most
	// faces.
	SidesFirst, SidesLast variantLine
	Stopping              []stoppingLine
	StopFigure            int
	// StopThresholds counts the problems whose optimum is a threshold
	// rule; MaxBestLoss is the largest loss of the best threshold rule,
	// MinMARSLoss and MaxMARSLoss the range of the MARS rule's losses.
	StopThresholds                        int
	MaxBestLoss, MinMARSLoss, MaxMARSLoss float64
	Defence                               []defenceLine
	DefenceTwos, DefenceChecked           int
	// DefenceTwosOf counts the problems with at least 2k-1 armies, where
	// two on every territory but the last is an allocation.
	DefenceTwosOf    int
	DefenceSame      int
	DefenceLeafShare float64
	Mars             marsStopData
}

func (c *diceLiteratureConfig) run(ctx context.Context, w *writer) (any, error) {
	size := c.size(w.quick)
	d := &diceLiteratureData{HendelMaxD: size.HendelMaxD, LossMaxN: size.LossMaxN,
		VariantArmies: c.Lit.VariantArmies, StopFigure: c.Lit.Figure + 1}
	w.logf("dice-literature: published numbers")
	if err := c.literature(ctx, w, d, size); err != nil {
		return nil, err
	}
	w.logf("dice-literature: dice variants")
	if err := c.variants(w, d); err != nil {
		return nil, err
	}
	w.logf("dice-literature: optimal stopping")
	if err := c.stopping(w, d); err != nil {
		return nil, err
	}
	w.logf("dice-literature: defending a chain")
	if err := c.defence(ctx, w, d, size); err != nil {
		return nil, err
	}
	w.logf("dice-literature: MARS's attack rule against optimal stopping")
	if err := c.marsStop(ctx, w, d, size); err != nil {
		return nil, err
	}
	return d, nil
}

// ratText formats an exact value as its fraction and decimal.
func ratText(r *big.Rat, digits int) string {
	f, _ := r.Float64()
	if r.IsInt() {
		return r.RatString()
	}
	return fmt.Sprintf("%s = %s", r.RatString(), fixed(f, digits))
}

func fixed(v float64, digits int) string { return fmt.Sprintf("%.*f", digits, v) }

// decimalAgrees reports whether v rounds to the published value printed
// with digits decimals.
func decimalAgrees(v, published float64, digits int) bool {
	return math.Abs(v-published) <= 0.5*math.Pow(10, -float64(digits))*(1+1e-9)
}

// literature fills the published numbers and writes literature.csv,
// hendel.csv and losses-formula.csv.
func (c *diceLiteratureConfig) literature(ctx context.Context, w *writer, d *diceLiteratureData, size diceLiteratureSize) error {
	add := func(l litLine) {
		d.Lit = append(d.Lit, l)
		if l.Agrees {
			d.LitAgree++
		}
	}
	// The MARS paper's Table 4, whole percent.
	rolls, err := dice.CompareTable4(dice.Classic)
	if err != nil {
		return err
	}
	for _, rv := range rolls {
		m := rv.Odds.Pairs()
		for j := m; j >= 0; j-- {
			what := "one each"
			switch {
			case j == m:
				what = "attacker wins"
			case j == 0:
				what = "defender wins"
			}
			p := big.NewRat(rv.Odds.Count[j], rv.Odds.Total)
			f, _ := p.Float64()
			add(litLine{Source: "Johansson & Olsson 2006, Table 4",
				Quantity:  fmt.Sprintf("%dv%d roll: %s", rv.AttackerDice, rv.DefenderDice, what),
				Ours:      fmt.Sprintf("%d/%d = %s %%", rv.Odds.Count[j], rv.Odds.Total, fixed(100*f, 3)),
				Published: fmt.Sprintf("%d %%", rv.Paper[j]), Agrees: int(math.Round(100*f)) == rv.Paper[j],
				Diff: 100*f - float64(rv.Paper[j])})
		}
	}
	r32, err := dice.Roll(dice.Classic, 3, 2)
	if err != nil {
		return err
	}
	t32 := r32.Total
	// Wikipedia's single-roll odds, as a Mathematics Stack Exchange answer
	// quotes them, four decimals.
	for _, x := range []struct {
		what  string
		count int64
		pub   float64
	}{{"attacker loses 2", r32.Count[0], 0.2926}, {"each loses 1", r32.Count[1], 0.3358}, {"defender loses 2", r32.Count[2], 0.3717}} {
		p := big.NewRat(x.count, t32)
		f, _ := p.Float64()
		add(litLine{Source: "Wikipedia, quoted on Mathematics Stack Exchange", Quantity: "3v2 roll: " + x.what,
			Ours: ratText(p, 5), Published: fixed(x.pub, 4), Agrees: decimalAgrees(f, x.pub, 4), Diff: f - x.pub})
	}
	// Expected losses per 3v2 roll (Board & Card Games Stack Exchange).
	defLoss := big.NewRat(r32.Count[1]+2*r32.Count[2], t32)
	attLoss := big.NewRat(r32.Count[1]+2*r32.Count[0], t32)
	net := new(big.Rat).Sub(defLoss, attLoss)
	for _, x := range []struct {
		what   string
		v      *big.Rat
		pub    float64
		digits int
	}{{"defender's losses per 3v2 roll", defLoss, 1.08, 2}, {"attacker's losses per 3v2 roll", attLoss, 0.922, 3},
		{"net attrition per 3v2 roll", net, 0.158, 3}} {
		f, _ := x.v.Float64()
		add(litLine{Source: "Board & Card Games Stack Exchange", Quantity: x.what, Ours: ratText(x.v, 5),
			Published: fixed(x.pub, x.digits), Agrees: decimalAgrees(f, x.pub, x.digits), Diff: f - x.pub})
	}
	// An exact online calculator's 10 armies against 10 (9 attacking).
	w910, err := dice.WinExact(dice.Classic, 9, 10)
	if err != nil {
		return err
	}
	f910, _ := w910.Float64()
	const calc = 0.47993525647768026
	add(litLine{Source: "recreationalmath.com calculator, quoted on MATLAB Cody", Quantity: "P(win), a territory of 10 against 10",
		Ours: num(f910), Published: "0.47993525647768026", Agrees: math.Abs(f910-calc) <= 1e-16, Diff: f910 - calc})
	if err := oeisLines(add, r32); err != nil {
		return err
	}
	if err := norvigLines(add); err != nil {
		return err
	}
	// The 2008 revised edition's bonus defence die (Board & Card Games
	// Stack Exchange): the defender rolls one more die and keeps the best.
	for _, x := range []struct {
		nd   int
		what string
		j    int // defender's losses
		pub  int64
	}{{1, "defender wins", 0, 4109}, {1, "attacker wins", 1, 3667},
		{2, "defender wins both", 0, 22218}, {2, "one each", 1, 13671}, {2, "attacker wins both", 2, 10767}} {
		counts, total := bonusRoll(3, x.nd, 6)
		add(litLine{Source: "Risk 2008 bonus die, Board & Card Games Stack Exchange",
			Quantity: fmt.Sprintf("3 dice against %d + bonus die: %s", x.nd, x.what),
			Ours:     fmt.Sprintf("%d/%d", counts[x.j], total), Published: fmt.Sprintf("%d/%d", x.pub, total),
			Agrees: counts[x.j] == x.pub, Diff: float64(counts[x.j] - x.pub)})
	}
	// Expected attacker losses conquering N defenders with three dice.
	losses, err := attackerLosses(size.LossMaxN)
	if err != nil {
		return err
	}
	var rows [][]string
	for n := 1; n <= size.LossMaxN; n++ {
		f, _ := losses[n].Float64()
		pub := 0.8534144*float64(n) - 0.2213413*(1-math.Pow(-0.525359, float64(n)))
		d.LossMaxDiff = max(d.LossMaxDiff, math.Abs(f-pub))
		rows = append(rows, []string{strconv.Itoa(n), losses[n].RatString(), num(f), num(pub), num(f - pub)})
		if n == 1 || n == 2 || n == 5 || n%10 == 0 {
			add(litLine{Source: "experts123 (a Risk FAQ)", Quantity: fmt.Sprintf("attacker's expected losses taking %d defenders, three dice", n),
				Ours: fixed(f, 7), Published: fixed(pub, 7), Agrees: math.Abs(f-pub) <= 1e-6, Diff: f - pub})
		}
	}
	if err := w.csv("losses-formula.csv", []string{"defenders", "exact", "exact_float", "formula", "difference"}, rows); err != nil {
		return err
	}
	// Hendel, Hoffman, Manack and Wagaman: 0.86·d + 2 armies for 50 %.
	maxD := size.HendelMaxD
	t, err := dice.NewTable(dice.Classic, 2*maxD)
	if err != nil {
		return err
	}
	needed := func(dd int) int {
		a := 1
		for a < t.N() && t.Win(a, dd) < 0.5 {
			a++
		}
		return a + 1 // armies in the attacking territory
	}
	rows = rows[:0]
	var sx, sy, sxx, sxy, n float64
	d.HendelSlopeFrom = maxD / 2
	for dd := 1; dd <= maxD; dd++ {
		need := needed(dd)
		rule := 0.86*float64(dd) + 2
		ok := need == int(math.Ceil(rule-1e-9))
		if ok {
			d.HendelAgree++
		}
		d.HendelMaxDiff = max(d.HendelMaxDiff, math.Abs(float64(need)-rule))
		if dd >= d.HendelSlopeFrom {
			x, y := float64(dd), float64(need)
			sx, sy, sxx, sxy, n = sx+x, sy+y, sxx+x*x, sxy+x*y, n+1
		}
		rows = append(rows, []string{strconv.Itoa(dd), strconv.Itoa(need), num(rule), fmt.Sprint(ok)})
		if dd == 5 || dd == 10 || dd == 20 || dd == 50 || dd == 100 || dd == 200 {
			add(litLine{Source: "Hendel, Hoffman, Manack & Wagaman", Quantity: fmt.Sprintf("armies in the attacking territory for P(win) > 50 %% against %d", dd),
				Ours: strconv.Itoa(need), Published: fmt.Sprintf("0.86·%d + 2 = %s", dd, fixed(rule, 2)), Agrees: ok, Diff: float64(need) - rule})
		}
	}
	d.HendelSlope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	if err := w.csv("hendel.csv", []string{"defenders", "territory_armies_needed", "rule_0.86d_plus_2", "rule_agrees"}, rows); err != nil {
		return err
	}
	// Equal armies: the attacker is favoured from 5 on.
	d.EqualFrom = maxD + 1
	for a := maxD; a >= 1 && t.Win(a, a) >= 0.5; a-- {
		d.EqualFrom = a
	}
	add(litLine{Source: "Höhle (2025), blog", Quantity: fmt.Sprintf("equal armies a = d: the attacker is favoured from a = (checked to %d)", maxD),
		Ours: strconv.Itoa(d.EqualFrom), Published: "5", Agrees: d.EqualFrom == 5, Diff: float64(d.EqualFrom - 5)})

	rows = rows[:0]
	for _, l := range d.Lit {
		rows = append(rows, []string{l.Source, l.Quantity, l.Ours, l.Published, fmt.Sprint(l.Agrees), num(l.Diff)})
	}
	return w.csv("literature.csv", []string{"source", "quantity", "exact", "published", "agrees", "difference"}, rows)
}

// oeisA371949 is the data line of OEIS A371949: T(n, k), the numerator of
// P(n attacking armies conquer k defenders) over the denominator
// 6^(5(n+k-1)) (a battle lasts at most n+k-1 rolls of at most five dice),
// read by antidiagonals n + k = 2, 3, ..., n ascending within each.
var oeisA371949 = []string{"3240", "6415200", "45606240", "12702096000", "170514616320", "430865593920",
	"25150150080000", "753411576268800", "2398271752673280", "3552119332387200", "49797297158400000",
	"2595785508222566400", "13369373984761528320", "22330692411407861760", "28155000551019598080"}

// oeisLines adds OEIS A371949: its comment's counts of one roll of three
// dice against two (r32), and its data line's battle odds, compared
// exactly.
func oeisLines(add func(litLine), r32 dice.RollOdds) error {
	const src = "OEIS A371949"
	for _, x := range []struct {
		what  string
		count int64
		pub   int64
	}{{"defender loses 2", r32.Count[2], 2890}, {"each loses 1", r32.Count[1], 2611}, {"attacker loses 2", r32.Count[0], 2275}} {
		add(litLine{Source: src, Quantity: "3v2 roll: " + x.what + ", of 7776",
			Ours: fmt.Sprintf("%d/%d", x.count, r32.Total), Published: fmt.Sprintf("%d/7776", x.pub),
			Agrees: x.count == x.pub && r32.Total == 7776, Diff: float64(x.count - x.pub)})
	}
	i := 0
	for s := 2; i < len(oeisA371949); s++ {
		den := new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(5*(s-1))), nil)
		for n := 1; n < s && i < len(oeisA371949); n++ {
			k := s - n
			w, err := dice.WinExact(dice.Classic, n, k)
			if err != nil {
				return err
			}
			ours := new(big.Rat).Mul(w, new(big.Rat).SetInt(den))
			pub, ok := new(big.Int).SetString(oeisA371949[i], 10)
			if !ok {
				return fmt.Errorf("OEIS A371949: bad term %q", oeisA371949[i])
			}
			agrees := ours.IsInt() && ours.Num().Cmp(pub) == 0
			diff, _ := new(big.Rat).Sub(w, new(big.Rat).SetFrac(pub, den)).Float64()
			add(litLine{Source: src, Quantity: fmt.Sprintf("P(win), %d attacking against %d, numerator over 6^%d", n, k, 5*(s-1)),
				Ours: ours.RatString(), Published: oeisA371949[i], Agrees: agrees, Diff: diff})
			i++
		}
	}
	return nil
}

// norvigLines adds the battle odds of Norvig's notebook "The Unfinished
// Game ... of Risk" (pytudes), whose winP(A, D) counts the armies in the
// attacking territory (A − 1 attack).
func norvigLines(add func(litLine)) error {
	const src = "Norvig, pytudes risk.ipynb"
	w, err := dice.WinExact(dice.Classic, 31, 30)
	if err != nil {
		return err
	}
	f, _ := w.Float64()
	const pub = 0.7194339370737594
	add(litLine{Source: src, Quantity: "P(win), a territory of 32 against 30", Ours: num(f),
		Published: "0.7194339370737594", Agrees: math.Abs(f-pub) <= 4e-16, Diff: f - pub})
	t, err := dice.NewTable(dice.Classic, 60)
	if err != nil {
		return err
	}
	for _, x := range []struct{ a, d, pct int }{{60, 60, 73}, {55, 60, 57}} {
		p := t.Win(x.a-1, x.d)
		add(litLine{Source: src, Quantity: fmt.Sprintf("P(win), a territory of %d against %d", x.a, x.d),
			Ours: fixed(100*p, 3) + " %", Published: fmt.Sprintf("%d %%", x.pct),
			Agrees: int(math.Round(100*p)) == x.pct, Diff: 100*p - float64(x.pct)})
	}
	// "reaches 50 % for 12-on-12": the fewest armies A in the attacking
	// territory against as many defenders with P(win) >= 50 %.
	from := 0
	for a := 60; a >= 2 && t.Win(a-1, a) >= 0.5; a-- {
		from = a
	}
	add(litLine{Source: src, Quantity: "a territory of A against A: P(win) ≥ 50 % from A = (checked to 60)",
		Ours: strconv.Itoa(from), Published: "12", Agrees: from == 12, Diff: float64(from - 12)})
	return nil
}

// bonusRoll counts the outcomes of na attacking dice against nd defending
// dice and a bonus defence die (the defender keeps its nd best of nd+1),
// s-sided, ties to the defender: counts[j] is the number of ordered
// outcomes in which the defender loses j armies, of total.
func bonusRoll(na, nd, s int) (counts [4]int64, total int64) {
	total = 1
	for range na + nd + 1 {
		total *= int64(s)
	}
	var att, def [4]int
	for x := int64(0); x < total; x++ {
		y := x
		for i := range na {
			att[i] = int(y%int64(s)) + 1
			y /= int64(s)
		}
		for i := range nd + 1 {
			def[i] = int(y%int64(s)) + 1
			y /= int64(s)
		}
		sortDown(att[:na])
		sortDown(def[:nd+1])
		lost := 0
		for i := range min(na, nd) {
			if att[i] > def[i] {
				lost++
			}
		}
		counts[lost]++
	}
	return counts, total
}

func sortDown(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] > v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// attackerLosses returns E[attacker's losses] conquering n = 0..maxN
// defenders when the attacker always rolls three dice (it never runs
// short), exactly:
//
//	E(0) = 0, E(1) = c/(1-c) with c = P(3v1 costs the attacker),
//	E(n) = (2·p0 + p1 + p1·E(n-1) + p2·E(n-2)) / (1 - p0) for n >= 2,
//
// where p0, p1, p2 are the 3v2 roll's odds of the defender losing 0, 1, 2.
func attackerLosses(maxN int) ([]*big.Rat, error) {
	r31, err := dice.Roll(dice.Classic, 3, 1)
	if err != nil {
		return nil, err
	}
	r32, err := dice.Roll(dice.Classic, 3, 2)
	if err != nil {
		return nil, err
	}
	e := make([]*big.Rat, maxN+1)
	e[0] = new(big.Rat)
	c := big.NewRat(r31.Count[0], r31.Total)
	e1 := new(big.Rat).Sub(big.NewRat(1, 1), c)
	e1.Quo(c, e1)
	if maxN >= 1 {
		e[1] = e1
	}
	p0, p1, p2 := big.NewRat(r32.Count[0], r32.Total), big.NewRat(r32.Count[1], r32.Total), big.NewRat(r32.Count[2], r32.Total)
	den := new(big.Rat).Sub(big.NewRat(1, 1), p0)
	for n := 2; n <= maxN; n++ {
		v := new(big.Rat).Mul(p0, big.NewRat(2, 1))
		v.Add(v, p1)
		v.Add(v, new(big.Rat).Mul(p1, e[n-1]))
		v.Add(v, new(big.Rat).Mul(p2, e[n-2]))
		e[n] = v.Quo(v, den)
	}
	return e, nil
}

// variants writes variants.csv: dice with other numbers of sides, three
// defending dice and ties to the attacker.
func (c *diceLiteratureConfig) variants(w *writer, d *diceLiteratureData) error {
	n := c.Lit.VariantArmies
	line := func(name string, r dice.Rules) error {
		o, err := dice.Roll(r, 3, 2)
		if err != nil {
			return err
		}
		t, err := dice.NewTable(r, 4*n+4)
		if err != nil {
			return err
		}
		a := 1
		for a < 4*n+4 && t.Win(a, n) < 0.5 {
			a++
		}
		d.Variants = append(d.Variants, variantLine{Name: name, AttackerBoth: o.P(2), DefBoth: o.P(0), Win: t.Win(n, n), Needed: a + 1})
		return nil
	}
	for _, s := range c.Lit.Sides {
		name := fmt.Sprintf("%d-sided dice", s)
		if s == 6 {
			name = "6-sided dice (classic)"
		}
		if err := line(name, dice.Rules{AttackerDice: 3, DefenderDice: 2, Sides: s}); err != nil {
			return err
		}
	}
	d.SidesFirst, d.SidesLast = d.Variants[0], d.Variants[len(d.Variants)-1]
	if err := line("3 defending dice (6-sided)", dice.Rules{AttackerDice: 3, DefenderDice: 3}); err != nil {
		return err
	}
	if err := line("ties to the attacker (6-sided)", dice.Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}); err != nil {
		return err
	}
	var rows [][]string
	for _, v := range d.Variants {
		rows = append(rows, []string{v.Name, num(v.AttackerBoth), num(v.DefBoth), num(v.Win), strconv.Itoa(v.Needed)})
	}
	return w.csv("variants.csv", []string{"variant", "p_3v2_defender_loses_2", "p_3v2_attacker_loses_2",
		fmt.Sprintf("p_win_%d_vs_%d", n, n), fmt.Sprintf("territory_armies_needed_vs_%d", n)}, rows)
}

// stopping solves the optimal stopping problems and writes stopping.csv,
// thresholds.csv and the figures of one problem.
func (c *diceLiteratureConfig) stopping(w *writer, d *diceLiteratureData) error {
	var rows, trows [][]string
	for i, p := range c.Lit.Stopping {
		st, err := dice.Stop(dice.Classic, p.A, p.Defenders, p.utility())
		if err != nil {
			return fmt.Errorf("stopping problem %d: %w", i+1, err)
		}
		l := stoppingLine{A: p.A, Path: joinDefenders(p.Defenders), Utility: p.utility().String(), Value: st.Value(),
			ToEnd: st.Threshold(0, 0), Never: st.Threshold(2, 2), Wp1: p.Wp1, Wp: p.Wp, BestLoss: math.Inf(1)}
		l.MARS = st.Threshold(p.Wp1, p.Wp)
		l.MLoss = l.Value - l.MARS
		l.IsThreshold, _, _ = st.IsThreshold()
		ths := st.Thresholds()
		l.Rules = len(ths)
		for _, th := range ths {
			if th.Loss < l.BestLoss {
				l.BestW, l.BestLoss = th.W, th.Loss
			}
			trows = append(trows, []string{strconv.Itoa(i + 1), num(th.W), num(th.Value), num(th.Loss)})
		}
		for k, dd := range p.Defenders {
			for x := 1; x <= p.A-k; x++ {
				for y := 1; y <= dd; y++ {
					if !st.Reachable(k, x, y) {
						continue
					}
					l.Decisions++
					if _, roll, _, _ := st.At(k, x, y); roll {
						l.RollStates++
					}
				}
			}
		}
		d.Stopping = append(d.Stopping, l)
		if l.IsThreshold {
			d.StopThresholds++
		}
		d.MaxBestLoss = max(d.MaxBestLoss, l.BestLoss)
		if i == 0 {
			d.MinMARSLoss, d.MaxMARSLoss = l.MLoss, l.MLoss
		}
		d.MinMARSLoss, d.MaxMARSLoss = min(d.MinMARSLoss, l.MLoss), max(d.MaxMARSLoss, l.MLoss)
		rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(p.A), l.Path, l.Utility, num(l.Value), num(l.ToEnd), num(l.Never),
			num(l.BestW), num(l.BestLoss), num(p.Wp1), num(p.Wp), num(l.MARS), num(l.MLoss), fmt.Sprint(l.IsThreshold)})
		if i == c.Lit.Figure {
			heat, loss := StoppingFigures(st, dice.Classic)
			if err := w.figure("stopping-policy", heat); err != nil {
				return err
			}
			if loss == nil {
				return fmt.Errorf("stopping problem %d: no state where a threshold rule could attack", i+1)
			}
			if err := w.figure("stopping-thresholds", loss); err != nil {
				return err
			}
		}
	}
	if err := w.csv("stopping.csv", []string{"problem", "a", "defenders", "utility", "optimum", "attack_to_the_end",
		"never_attack", "best_w", "best_w_loss", "wp1", "wp", "mars_rule", "mars_rule_loss", "optimum_is_threshold"}, rows); err != nil {
		return err
	}
	return w.csv("thresholds.csv", []string{"problem", "w", "value", "loss"}, trows)
}

func joinDefenders(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// StoppingFigures returns the figures of an optimal stopping problem under
// rules r: the policy as a heat map over the attack's progress (the
// horizontal axis counts the defending armies destroyed so far along the
// path, the vertical one the attacking armies; 1 rolls, 0 stops, blank is
// no state: more armies than are left after the conquests; every state is
// drawn, reachable from the start or not) and the loss of every threshold
// rule "attack while P(conquering the rest) >= W" against W (nil when no
// state can attack). marslab odds -optimal draws the same.
func StoppingFigures(st *dice.Stopping, r dice.Rules) (*plots.HeatMap, *plots.LineChart) {
	defs := st.Defenders
	total := 0
	for _, dd := range defs {
		total += dd
	}
	xs := make([]float64, total)
	for i := range xs {
		xs[i] = float64(i)
	}
	ys := make([]float64, st.A)
	for i := range ys {
		ys[i] = float64(i + 1)
	}
	g := plots.NewGrid(xs, ys, func(killed, armies float64) float64 {
		k, before := 0, 0
		for k < len(defs) && before+defs[k] <= int(killed) {
			before += defs[k]
			k++
		}
		_, roll, _, ok := st.At(k, int(armies), defs[k]-(int(killed)-before))
		switch {
		case !ok:
			return math.NaN()
		case roll:
			return 1
		}
		return 0
	})
	heat := &plots.HeatMap{Grid: g,
		Title:      fmt.Sprintf("roll (1) or stop (0): %s, dice %s", st.Utility, r),
		XLabel:     "defending armies destroyed so far along the path",
		YLabel:     "attacking armies",
		ColorLabel: "roll",
		Min:        0, Max: 1,
	}
	s := plots.Series{Name: "optimum - threshold rule"}
	for _, th := range st.Thresholds() {
		if th.W <= 1 {
			s.X = append(s.X, th.W)
			s.Y = append(s.Y, th.Loss)
		}
	}
	if len(s.X) == 0 {
		return heat, nil
	}
	return heat, &plots.LineChart{Title: fmt.Sprintf("threshold rules against the optimum: %s", st.Utility),
		XLabel: "W (attack while P(conquering the rest) >= W)", YLabel: "loss of expected utility",
		Series: []plots.Series{s}}
}

// DefenceBaselines returns simple allocations of armies (>= k) over a
// path of k territories to compare with the optimum of dice.Defend, and
// their names: all but one army per territory on the first, on the last,
// an even spread (the first territories get the remainder), and, when
// armies >= 2k-1, two on every territory but the last, which holds the
// rest.
func DefenceBaselines(armies, k int) (names []string, allocs [][]int) {
	first, last, even := make([]int, k), make([]int, k), make([]int, k)
	for i := range k {
		first[i], last[i], even[i] = 1, 1, armies/k
		if i < armies%k {
			even[i]++
		}
	}
	first[0] += armies - k
	last[k-1] += armies - k
	names = []string{"all on the first", "all on the last", "even"}
	allocs = [][]int{first, last, even}
	if armies >= 2*k-1 {
		twos := make([]int, k)
		for i := range twos {
			twos[i] = 2
		}
		twos[k-1] = armies - 2*(k-1)
		names = append(names, "2 each, the rest on the last")
		allocs = append(allocs, twos)
	}
	return names, allocs
}

// defence solves the grid of defence problems and writes defence.csv.
func (c *diceLiteratureConfig) defence(ctx context.Context, w *writer, d *diceLiteratureData, size diceLiteratureSize) error {
	var rows [][]string
	var leafShare float64
	for _, a := range c.Lit.DefenceAttackers {
		ch := dice.NewChainer(dice.Classic, a)
		for _, armies := range c.Lit.DefenceArmies {
			for _, k := range c.Lit.DefenceTerritories {
				if armies < k {
					continue
				}
				res, err := dice.Defend(ctx, dice.Classic, a, armies, k, false)
				if err != nil {
					return fmt.Errorf("defence %d armies over %d territories against %d: %w", armies, k, a, err)
				}
				l := defenceLine{A: a, Armies: armies, K: k, Alloc: joinDefenders(res.Alloc), Win: res.Win,
					Adaptive: res.Adaptive, Allocations: res.Allocations, Leaves: res.Leaves, Nodes: res.Nodes}
				_, allocs := DefenceBaselines(armies, k)
				l.First, l.Last, l.Even = ch.Win(a, allocs[0]), ch.Win(a, allocs[1]), ch.Win(a, allocs[2])
				if len(allocs) == 4 {
					d.DefenceTwosOf++
					l.Twos = ch.Win(a, allocs[3]) <= res.Win*(1+1e-12)
				}
				if l.Twos {
					d.DefenceTwos++
				}
				if res.Allocations <= float64(size.ExhaustiveMax) {
					ex, err := dice.Defend(ctx, dice.Classic, a, armies, k, true)
					if err != nil {
						return err
					}
					l.Checked, l.Same = true, math.Abs(ex.Win-res.Win) <= 1e-13
					d.DefenceChecked++
					if l.Same {
						d.DefenceSame++
					}
				}
				leafShare += float64(res.Leaves) / res.Allocations
				d.Defence = append(d.Defence, l)
				rows = append(rows, []string{strconv.Itoa(a), strconv.Itoa(armies), strconv.Itoa(k), l.Alloc, num(l.Win), num(l.Adaptive),
					num(l.First), num(l.Last), num(l.Even), fmt.Sprint(l.Twos), num(l.Allocations), strconv.Itoa(l.Leaves), strconv.Itoa(l.Nodes)})
			}
		}
	}
	if len(d.Defence) == 0 {
		return fmt.Errorf("defence: no problem with at least one army per territory")
	}
	d.DefenceLeafShare = leafShare / float64(len(d.Defence))
	return w.csv("defence.csv", []string{"attackers", "defending_armies", "territories", "optimal_allocation", "p_win",
		"adaptive_bound", "p_win_all_on_first", "p_win_all_on_last", "p_win_even", "two_each_is_optimal", "allocations",
		"leaves", "nodes"}, rows)
}
