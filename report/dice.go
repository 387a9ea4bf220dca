package report

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/dice/dicetest"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
)

// diceNotes are the note sections of a dice notebook.
var diceNotes = []string{"intro", "table4", "osborne", "heatmap", "losses", "chains", "verify", "conclusion"}

// diceConfig is the config of a dice notebook.
type diceConfig struct {
	Header
	Dice struct {
		// Alpha is the significance level of the test of the engine's dice.
		Alpha float64 `toml:"alpha"`
		// TableN is the size of the printed P(win) table (Osborne's is 10).
		TableN int `toml:"table_n"`
		// LossBattles are the (a, d) battles whose expected losses the
		// report prints; losses.csv holds every a, d <= TableN.
		LossBattles [][]int `toml:"loss_battles"`
		// ChainArmies are the attacking armies of the rows of the chain
		// table; ChainDefenders the defenders of every territory of a
		// path; ChainMaxLen the longest path.
		ChainArmies    []int `toml:"chain_armies"`
		ChainDefenders int   `toml:"chain_defenders"`
		ChainMaxLen    int   `toml:"chain_max_len"`
	} `toml:"dice"`
	Full  diceSize `toml:"full"`
	Quick diceSize `toml:"quick"`
}

// diceSize are the sizes of a dice run.
type diceSize struct {
	// VerifyTrials is the rolls, or battles, of each test of the engine's
	// dice.
	VerifyTrials int `toml:"verify_trials"`
	// HeatMapN is the size of the heat map and of pwin.csv.
	HeatMapN int `toml:"heatmap_n"`
}

// Bounds of the dice config.
const (
	maxDiceTable  = 30
	maxHeatMap    = 200
	maxChainLen   = 10
	maxChainArmy  = 200
	maxLossArmies = 200
)

func parseDice(path string, data []byte) (experiment, error) {
	var c diceConfig
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	d := &c.Dice
	ck.floatOpen("dice.alpha", d.Alpha, 0, 1)
	ck.intIn("dice.table_n", d.TableN, 1, maxDiceTable)
	if len(d.LossBattles) == 0 {
		ck.fail("dice.loss_battles", "missing (a list of [a, d] pairs)")
	}
	pairs := make([][2]int, 0, len(d.LossBattles))
	for i, b := range d.LossBattles {
		key := fmt.Sprintf("dice.loss_battles[%d]", i)
		if len(b) != 2 {
			ck.fail(key, "%d values, want a pair [a, d]", len(b))
			continue
		}
		ck.ints(key, b, 2, 2, 1, maxLossArmies)
		pairs = append(pairs, [2]int{b[0], b[1]})
	}
	if ck.err == nil {
		distinct(ck, "dice.loss_battles", pairs)
	}
	ck.ints("dice.chain_armies", d.ChainArmies, 1, 20, 1, maxChainArmy)
	distinct(ck, "dice.chain_armies", d.ChainArmies)
	ck.intIn("dice.chain_defenders", d.ChainDefenders, 1, 20)
	ck.intIn("dice.chain_max_len", d.ChainMaxLen, 1, maxChainLen)
	for _, s := range []struct {
		name string
		size diceSize
	}{{"full", c.Full}, {"quick", c.Quick}} {
		ck.intIn(s.name+".verify_trials", s.size.VerifyTrials, dicetest.MinTrials, dicetest.MaxTrials)
		ck.intIn(s.name+".heatmap_n", s.size.HeatMapN, 2, maxHeatMap)
	}
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

func (c *diceConfig) template() string { return "dice.md.tmpl" }

func (c *diceConfig) size(quick bool) diceSize {
	if quick {
		return c.Quick
	}
	return c.Full
}

func (c *diceConfig) sizes(quick bool) string {
	s := c.size(quick)
	return fmt.Sprintf("verify_trials = %d, heatmap_n = %d", s.VerifyTrials, s.HeatMapN)
}

// diceData is the template data of a dice notebook.
type diceData struct {
	Alpha       float64
	Table4      []table4Line
	Table4Agree int
	TableN      int
	Table       [][]float64 // Table[a-1][d-1]
	Cols        []int       // 1..TableN
	Favoured    []int       // Favoured[d-1]: the fewest a with P(win) >= 0.5
	HeatMapN    int
	// FavouredAtMax is the fewest a with P(win) >= 0.5 against d = HeatMapN.
	FavouredAtMax  int
	Losses         []lossLine
	ChainDefenders int
	ChainLens      []int
	Chains         []chainLine
	VerifyTrials   int
	Verify         []verifyLine
	Failed         int
	MinP           float64
	MinPHolm       float64
}

// table4Line is one result of a single roll beside the paper's Table 4.
type table4Line struct {
	Dice, Result string
	Count, Total int64
	P            float64
	Paper        int // -1: the paper has no entry
	Agrees       bool
}

// lossLine is the expected losses of one battle.
type lossLine struct {
	A, D                           int
	Win                            float64
	AttMean, AttSD, DefMean, DefSD float64
}

// chainLine is P(conquering paths of 1..ChainMaxLen territories) for A armies.
type chainLine struct {
	A   int
	Win []float64
}

// verifyLine is one test of the engine's dice.
type verifyLine struct {
	Name     string
	Observed string
	Expected string
	Stat     float64
	DF       int
	P, PHolm float64
	Below    bool
}

func (c *diceConfig) run(ctx context.Context, w *writer) (any, error) {
	r := dice.Classic
	size := c.size(w.quick)
	d := &diceData{Alpha: c.Dice.Alpha, TableN: c.Dice.TableN, HeatMapN: size.HeatMapN,
		ChainDefenders: c.Dice.ChainDefenders, VerifyTrials: size.VerifyTrials}

	w.logf("dice: Table 4")
	if err := c.table4(w, r, d); err != nil {
		return nil, err
	}
	w.logf("dice: P(win) table and heat map")
	if err := c.winTable(w, r, d, size.HeatMapN); err != nil {
		return nil, err
	}
	w.logf("dice: expected losses")
	if err := c.losses(w, r, d); err != nil {
		return nil, err
	}
	w.logf("dice: chains")
	if err := c.chains(w, r, d); err != nil {
		return nil, err
	}
	w.logf("dice: the engine's dice, %d trials per test", size.VerifyTrials)
	if err := c.verify(ctx, w, r, d, size.VerifyTrials); err != nil {
		return nil, err
	}
	return d, nil
}

// table4 writes table4.csv: every single roll's exact odds beside Table 4.
func (c *diceConfig) table4(w *writer, r dice.Rules, d *diceData) error {
	rolls, err := dice.CompareTable4(r)
	if err != nil {
		return fmt.Errorf("table 4: %w", err)
	}
	var rows [][]string
	for _, rv := range rolls {
		na, nd, odds := rv.AttackerDice, rv.DefenderDice, rv.Odds
		if rv.Paper == nil {
			return fmt.Errorf("table 4: no entry for %dv%d", na, nd)
		}
		m := odds.Pairs()
		for j := m; j >= 0; j-- {
			what := "one each"
			switch {
			case j == m:
				what = "attacker wins"
			case j == 0:
				what = "defender wins"
			}
			paperPct := rv.Paper[j]
			l := table4Line{Dice: fmt.Sprintf("%dv%d", na, nd), Result: what, Count: odds.Count[j],
				Total: odds.Total, P: odds.P(j), Paper: paperPct}
			l.Agrees = paperPct >= 0 && int(math.Round(100*l.P)) == paperPct
			if l.Agrees {
				d.Table4Agree++
			}
			d.Table4 = append(d.Table4, l)
			rows = append(rows, []string{strconv.Itoa(na), strconv.Itoa(nd), what, fmt.Sprint(l.Count), fmt.Sprint(l.Total),
				num(l.P), strconv.Itoa(paperPct)})
		}
	}
	return w.csv("table4.csv", []string{"attacker_dice", "defender_dice", "result", "count", "total",
		"p_exact", "paper_percent"}, rows)
}

// winTable writes pwin.csv and the heat map, and fills the printed table.
func (c *diceConfig) winTable(w *writer, r dice.Rules, d *diceData, n int) error {
	n = max(n, c.Dice.TableN)
	t, err := dice.NewTable(r, n)
	if err != nil {
		return fmt.Errorf("P(win) table: %w", err)
	}
	var rows [][]string
	for a := 1; a <= n; a++ {
		for dd := 1; dd <= n; dd++ {
			rows = append(rows, []string{strconv.Itoa(a), strconv.Itoa(dd), num(t.Win(a, dd))})
		}
	}
	if err := w.csv("pwin.csv", []string{"a", "d", "p_win"}, rows); err != nil {
		return err
	}
	for a := 1; a <= c.Dice.TableN; a++ {
		row := make([]float64, c.Dice.TableN)
		for dd := range row {
			row[dd] = t.Win(a, dd+1)
		}
		d.Table = append(d.Table, row)
	}
	for dd := 1; dd <= c.Dice.TableN; dd++ {
		d.Cols = append(d.Cols, dd)
		a := 1
		for a < n && t.Win(a, dd) < 0.5 {
			a++
		}
		d.Favoured = append(d.Favoured, a)
	}
	d.FavouredAtMax = 1
	for d.FavouredAtMax < n && t.Win(d.FavouredAtMax, d.HeatMapN) < 0.5 {
		d.FavouredAtMax++
	}
	axis := make([]float64, d.HeatMapN)
	for i := range axis {
		axis[i] = float64(i + 1)
	}
	h := &plots.HeatMap{
		Grid:       plots.NewGrid(axis, axis, func(x, y float64) float64 { return t.Win(int(y), int(x)) }),
		Title:      fmt.Sprintf("P(attacker conquers), dice %s", r),
		XLabel:     "defending armies d",
		YLabel:     "attacking armies a",
		ColorLabel: "P(win)",
		Max:        1,
		Contours:   []float64{0.5},
	}
	return w.figure("pwin-heatmap", h)
}

// losses writes losses.csv for every a, d <= TableN and fills the
// configured battles.
func (c *diceConfig) losses(w *writer, r dice.Rules, d *diceData) error {
	line := func(a, dd int) (lossLine, error) {
		res, err := dice.Battle(r, a, dd)
		if err != nil {
			return lossLine{}, fmt.Errorf("losses: %w", err)
		}
		return lossLine{A: a, D: dd, Win: res.Win, AttMean: res.AttackerLossMean, AttSD: res.AttackerLossSD(),
			DefMean: res.DefenderLossMean, DefSD: res.DefenderLossSD()}, nil
	}
	var rows [][]string
	for a := 1; a <= c.Dice.TableN; a++ {
		for dd := 1; dd <= c.Dice.TableN; dd++ {
			l, err := line(a, dd)
			if err != nil {
				return err
			}
			rows = append(rows, []string{strconv.Itoa(a), strconv.Itoa(dd), num(l.Win), num(l.AttMean), num(l.AttSD),
				num(l.DefMean), num(l.DefSD)})
		}
	}
	for _, b := range c.Dice.LossBattles {
		l, err := line(b[0], b[1])
		if err != nil {
			return err
		}
		d.Losses = append(d.Losses, l)
	}
	return w.csv("losses.csv", []string{"a", "d", "p_win", "attacker_loss_mean", "attacker_loss_sd",
		"defender_loss_mean", "defender_loss_sd"}, rows)
}

// chains writes chains.csv and the chain figure: P(conquering a path of k
// territories of ChainDefenders each) for every a up to the largest of
// ChainArmies.
func (c *diceConfig) chains(w *writer, r dice.Rules, d *diceData) error {
	amax := 0
	for _, a := range c.Dice.ChainArmies {
		amax = max(amax, a)
	}
	ch := dice.NewChainer(r, amax)
	win := make([][]float64, c.Dice.ChainMaxLen) // win[k-1][a]
	var rows [][]string
	lc := &plots.LineChart{
		Title:  fmt.Sprintf("P(conquering a path of k territories, each defended by %d), dice %s", c.Dice.ChainDefenders, r),
		XLabel: "attacking armies a", YLabel: "P(win)", YMin: 0, YMax: 1,
	}
	for k := 1; k <= c.Dice.ChainMaxLen; k++ {
		d.ChainLens = append(d.ChainLens, k)
		defs := make([]int, k)
		for i := range defs {
			defs[i] = c.Dice.ChainDefenders
		}
		win[k-1] = ch.WinAll(nil, amax, defs)
		if err := ch.Err(); err != nil {
			return fmt.Errorf("chains: %w", err)
		}
		s := plots.Series{Name: fmt.Sprintf("k = %d", k)}
		for a := 1; a <= amax; a++ {
			rows = append(rows, []string{strconv.Itoa(a), strconv.Itoa(k), strconv.Itoa(c.Dice.ChainDefenders), num(win[k-1][a])})
			s.X = append(s.X, float64(a))
			s.Y = append(s.Y, win[k-1][a])
		}
		lc.Series = append(lc.Series, s)
	}
	for _, a := range c.Dice.ChainArmies {
		l := chainLine{A: a}
		for k := range win {
			l.Win = append(l.Win, win[k][a])
		}
		d.Chains = append(d.Chains, l)
	}
	if err := w.csv("chains.csv", []string{"a", "territories", "defenders_each", "p_win"}, rows); err != nil {
		return err
	}
	return w.figure("chains", lc)
}

// verify tests the engine's dice against the exact odds and writes
// verify.csv.
func (c *diceConfig) verify(ctx context.Context, w *writer, r dice.Rules, d *diceData, trials int) error {
	tests, err := dicetest.Suite(ctx, dicetest.Config{Rules: r, Trials: trials, Seed: w.seed})
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	ps := make([]float64, len(tests))
	for i, t := range tests {
		ps[i] = t.P
	}
	holm, err := stats.Holm(ps)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	d.Failed = dicetest.Failed(tests, c.Dice.Alpha)
	d.MinP, d.MinPHolm = 1, 1
	var rows [][]string
	for i, t := range tests {
		obs := make([]string, len(t.Observed))
		exp := make([]string, len(t.Expected))
		expCSV := make([]string, len(t.Expected))
		for j := range t.Observed {
			obs[j] = strconv.Itoa(t.Observed[j])
			exp[j] = textfmt.Fixed(t.Expected[j], 1)
			expCSV[j] = num(t.Expected[j])
		}
		l := verifyLine{Name: t.Name, Observed: strings.Join(obs, " / "), Expected: strings.Join(exp, " / "),
			Stat: t.Stat, DF: t.DF, P: t.P, PHolm: holm[i], Below: t.P < c.Dice.Alpha}
		d.MinP, d.MinPHolm = min(d.MinP, t.P), min(d.MinPHolm, holm[i])
		d.Verify = append(d.Verify, l)
		rows = append(rows, []string{t.Name, strings.Join(obs, ";"), strings.Join(expCSV, ";"), num(t.Stat),
			strconv.Itoa(t.DF), num(t.P), num(holm[i])})
	}
	return w.csv("verify.csv", []string{"test", "observed", "expected", "statistic", "df", "p_value",
		"p_holm"}, rows)
}
