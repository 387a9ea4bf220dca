package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"marslab/dice"
	"marslab/dice/dicetest"
	"marslab/plots"
	"marslab/sim"
)

const oddsUsage = `usage: marslab odds [flags] MODE

Exact Risk dice odds from the absorbing Markov chain of a battle.
Conventions: a = attacking armies, not counting the army that must stay
behind (a territory with T armies attacks with a = T-1; -from T says so);
d = defending armies. Each roll: attacker min(3, a) dice, defender
min(2, d); dice compared highest first; ties go to the defender.
In a chain, the s survivors of a conquest move in, one stays, and the
next battle starts with s-1 attacking armies.

Modes (exactly one):
  -a A -d D          one battle: P(win), expected losses, end states
                     (-stop K: the attacker stops when its armies fall to K)
  -a A -chain D1,D2  a path of territories attacked in order
  -table N           P(win) for all 1 <= a, d <= N (-plot FILE draws it)
  -rolls             single-roll odds, exact, beside the MARS paper's Table 4
  -verify            roll with the engine's dice (sim.RollDice) and compare
                     frequencies to the exact odds; exits with an error if a
                     p-value is below -alpha, so scripts can rely on it
  -verify -a A -d D [-stop K]
  -verify -a A -chain D1,D2
                     test one hypothesis instead: the win frequency of that
                     battle or chain, fought -games times with the engine's
                     dice, against its exact P(win) (two-sided binomial z)

A flag that does not apply to the chosen mode is an error.

Flags:
`

// maxExact bounds the armies (and -table) for -exact: exact fractions
// grow long and slow beyond it.
const maxExact = 300

// oddsOptions are the parsed flags of marslab odds.
type oddsOptions struct {
	a, d, from, stop int
	chain            string
	table            int
	plot             string
	rolls, verify    bool
	games            int
	seed             uint64
	alpha            float64
	json, exact      bool
	rulesName        string
	attDice, defDice int
	ties             bool
}

// cmdOdds prints exact dice odds (see oddsUsage).
func cmdOdds(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o oddsOptions
	fs := newFlagSet("odds", oddsUsage, stderr)
	fs.IntVar(&o.a, "a", 0, "attacking armies (not counting the one that stays behind)")
	fs.IntVar(&o.from, "from", 0, "armies in the attacking territory (a = from-1)")
	fs.IntVar(&o.d, "d", 0, "defending armies")
	fs.IntVar(&o.stop, "stop", 0, "the attacker stops when its attacking armies fall to this many")
	fs.StringVar(&o.chain, "chain", "", "defenders along a path, comma-separated, attacked in order")
	fs.IntVar(&o.table, "table", 0, "print P(win) for 1 <= a, d <= N")
	fs.StringVar(&o.plot, "plot", "", "with -table: draw the table as a heat map (.png, .svg or .pdf)")
	fs.BoolVar(&o.rolls, "rolls", false, "print the single-roll odds beside the MARS paper's Table 4")
	fs.BoolVar(&o.verify, "verify", false, "check the engine's dice against the exact odds")
	fs.IntVar(&o.games, "games", 200000, "with -verify: rolls and battles per test")
	fs.Uint64Var(&o.seed, "seed", 1, "with -verify: random seed")
	fs.Float64Var(&o.alpha, "alpha", 1e-4, "with -verify: fail if a p-value is below this")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.BoolVar(&o.exact, "exact", false, "also print exact fractions (math/big)")
	fs.StringVar(&o.rulesName, "rules", "", "take the dice rules from a rule set (name or TOML path)")
	fs.IntVar(&o.attDice, "attacker-dice", 3, "most attacking dice per roll (1-3)")
	fs.IntVar(&o.defDice, "defender-dice", 2, "most defending dice per roll (1-3)")
	fs.BoolVar(&o.ties, "ties-attacker", false, "ties go to the attacker")
	if err := parseNoArgs(fs, args, stdout); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		// A boolean flag given as false (-json=false) changes nothing.
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && f.Value.String() == "false" {
			return
		}
		set[f.Name] = true
	})
	mode, err := oddsModeOf(set)
	if err != nil {
		fs.Usage()
		return err
	}
	if err := mode.check(set); err != nil {
		return err
	}
	r := dice.Rules{AttackerDice: o.attDice, DefenderDice: o.defDice, TiesToAttacker: o.ties}
	if o.rulesName != "" {
		sr, err := sim.LoadRules(o.rulesName)
		if err != nil {
			return fmt.Errorf("odds: -rules: %w", err)
		}
		r = dice.Rules{AttackerDice: sr.Attack.AttackerDice, DefenderDice: sr.Attack.DefenderDice,
			TiesToAttacker: sr.Attack.TiesToAttacker}
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("odds: %w", err)
	}
	if set["from"] {
		if set["a"] {
			return errors.New("odds: give -a or -from, not both")
		}
		if o.from < 1 {
			return fmt.Errorf("odds: -from %d: a territory holds at least 1 army", o.from)
		}
		o.a = o.from - 1
	}
	if (set["d"] || set["chain"]) && !set["a"] && !set["from"] {
		return errors.New("odds: -d and -chain need -a (or -from)")
	}
	var defs []int
	if set["chain"] {
		if defs, err = parseDefenders(o.chain); err != nil {
			return fmt.Errorf("odds: -chain: %w", err)
		}
	}
	if o.exact {
		most := max(o.a, o.d, o.table)
		for _, v := range defs {
			most = max(most, v)
		}
		if most > maxExact {
			return fmt.Errorf("odds: -exact supports armies and tables up to %d, not %d", maxExact, most)
		}
	}
	switch mode.kind {
	case modeBattle:
		return oddsBattle(ctx, stdout, r, o)
	case modeChain:
		return oddsChain(ctx, stdout, r, o, defs)
	case modeTable:
		return oddsTable(ctx, stdout, r, o)
	case modeRolls:
		return oddsRolls(stdout, r, o)
	case modeVerify:
		return oddsVerify(ctx, stdout, r, o)
	default:
		return oddsVerifyHypothesis(ctx, stdout, r, o, defs)
	}
}

// The modes of marslab odds.
const (
	modeBattle = iota
	modeChain
	modeTable
	modeRolls
	modeVerify
	modeVerifyBattle
	modeVerifyChain
)

// oddsMode is a mode of marslab odds and the flags that apply to it.
type oddsMode struct {
	kind int
	// name names the mode in error messages.
	name string
	// flags apply to the mode besides commonOddsFlags.
	flags []string
}

// commonOddsFlags apply to every mode.
var commonOddsFlags = []string{"json", "rules", "attacker-dice", "defender-dice", "ties-attacker"}

var oddsModes = [...]oddsMode{
	modeBattle:       {modeBattle, "a battle (-d)", []string{"a", "from", "d", "stop", "exact"}},
	modeChain:        {modeChain, "a chain (-chain)", []string{"a", "from", "chain", "exact"}},
	modeTable:        {modeTable, "-table", []string{"table", "plot", "exact"}},
	modeRolls:        {modeRolls, "-rolls", []string{"rolls", "exact"}},
	modeVerify:       {modeVerify, "-verify", []string{"verify", "games", "seed", "alpha"}},
	modeVerifyBattle: {modeVerifyBattle, "-verify -d", []string{"verify", "a", "from", "d", "stop", "games", "seed", "alpha"}},
	modeVerifyChain:  {modeVerifyChain, "-verify -chain", []string{"verify", "a", "from", "chain", "games", "seed", "alpha"}},
}

// oddsModeOf returns the mode chosen by the flags that were set.
func oddsModeOf(set map[string]bool) (oddsMode, error) {
	n := 0
	for _, f := range []string{"d", "chain", "table", "rolls", "verify"} {
		if set[f] {
			n++
		}
	}
	switch {
	case set["verify"] && n == 2 && set["d"]:
		return oddsModes[modeVerifyBattle], nil
	case set["verify"] && n == 2 && set["chain"]:
		return oddsModes[modeVerifyChain], nil
	case n != 1:
		return oddsMode{}, errors.New("odds: give exactly one of -d, -chain, -table, -rolls, -verify " +
			"(or -verify with -d or -chain)")
	case set["d"]:
		return oddsModes[modeBattle], nil
	case set["chain"]:
		return oddsModes[modeChain], nil
	case set["table"]:
		return oddsModes[modeTable], nil
	case set["rolls"]:
		return oddsModes[modeRolls], nil
	}
	return oddsModes[modeVerify], nil
}

// check reports the first flag in set (in the order of the flag names)
// that does not apply to the mode, and -rules given with the dice flags it
// replaces.
func (m oddsMode) check(set map[string]bool) error {
	names := make([]string, 0, len(set))
	for f := range set {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		if slices.Contains(m.flags, f) || slices.Contains(commonOddsFlags, f) {
			continue
		}
		if m.kind == modeVerify && (f == "a" || f == "from" || f == "stop") {
			return fmt.Errorf("odds: -%s does not apply to -verify without -d or -chain "+
				"(give -d or -chain to test a battle or a chain)", f)
		}
		return fmt.Errorf("odds: -%s does not apply to %s", f, m.name)
	}
	if set["rules"] {
		for _, f := range []string{"attacker-dice", "defender-dice", "ties-attacker"} {
			if set[f] {
				return fmt.Errorf("odds: -%s does not apply with -rules (the rule set gives the dice)", f)
			}
		}
	}
	return nil
}

// maxChain bounds the number of territories in -chain.
const maxChain = 100

// parseDefenders parses "3,2,1" into defender counts in [0, dice.MaxBattleArmies].
func parseDefenders(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > maxChain {
		return nil, fmt.Errorf("%d territories, at most %d", len(parts), maxChain)
	}
	defs := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("territory %d: %q is not a whole number", i+1, p)
		}
		if v < 0 || v > dice.MaxBattleArmies {
			return nil, fmt.Errorf("territory %d: %d defenders outside [0, %d]", i+1, v, dice.MaxBattleArmies)
		}
		defs[i] = v
	}
	return defs, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type outcomeJSON struct {
	AttackerLeft int     `json:"attacker_left"`
	DefenderLeft int     `json:"defender_left"`
	P            float64 `json:"p"`
	Exact        string  `json:"p_exact,omitempty"`
}

type battleJSON struct {
	A                  int           `json:"a"`
	D                  int           `json:"d"`
	Stop               int           `json:"stop,omitempty"`
	Rules              string        `json:"rules"`
	Win                float64       `json:"win"`
	WinExact           string        `json:"win_exact,omitempty"`
	AttackerLossesMean float64       `json:"attacker_losses_mean"`
	AttackerLossesSD   float64       `json:"attacker_losses_sd"`
	DefenderLossesMean float64       `json:"defender_losses_mean"`
	DefenderLossesSD   float64       `json:"defender_losses_sd"`
	Outcomes           []outcomeJSON `json:"outcomes"`
}

func oddsBattle(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	res, err := dice.BattleStop(r, o.a, o.d, o.stop)
	if err != nil {
		return fmt.Errorf("odds: %w", err)
	}
	var ex *dice.BattleResultExact
	if o.exact {
		if ex, err = dice.BattleStopExactContext(ctx, r, o.a, o.d, o.stop); err != nil {
			return fmt.Errorf("odds: %w", err)
		}
	}
	out := battleJSON{A: o.a, D: o.d, Stop: o.stop, Rules: r.String(), Win: res.Win,
		AttackerLossesMean: res.AttackerLossMean, AttackerLossesSD: res.AttackerLossSD(),
		DefenderLossesMean: res.DefenderLossMean, DefenderLossesSD: res.DefenderLossSD()}
	for i, oc := range res.Outcomes {
		j := outcomeJSON{AttackerLeft: oc.AttackerLeft, DefenderLeft: oc.DefenderLeft, P: oc.P}
		if ex != nil {
			j.Exact = ex.Outcomes[i].P.RatString()
		}
		out.Outcomes = append(out.Outcomes, j)
	}
	if ex != nil {
		out.WinExact = ex.Win.RatString()
	}
	if o.json {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "battle: %d attacking armies (a territory of %d) against %d defenders, dice %s\n",
		o.a, o.a+1, o.d, r)
	if o.stop > 0 {
		fmt.Fprintf(w, "the attacker stops when its attacking armies fall to %d\n", o.stop)
	}
	fmt.Fprintf(w, "P(attacker conquers) = %.6f\n", res.Win)
	if ex != nil {
		fmt.Fprintf(w, "                     = %s\n", out.WinExact)
	}
	fmt.Fprintf(w, "attacker losses: mean %.4f, sd %.4f\n", out.AttackerLossesMean, out.AttackerLossesSD)
	fmt.Fprintf(w, "defender losses: mean %.4f, sd %.4f\n", out.DefenderLossesMean, out.DefenderLossesSD)
	fmt.Fprintf(w, "\n%-14s %-14s %10s %11s\n", "attacker left", "defender left", "p", "cumulative")
	cum := 0.0
	for _, oc := range out.Outcomes {
		cum += oc.P
		fmt.Fprintf(w, "%-14d %-14d %10.6f %11.6f", oc.AttackerLeft, oc.DefenderLeft, oc.P, cum)
		if oc.Exact != "" {
			fmt.Fprintf(w, "  %s", oc.Exact)
		}
		fmt.Fprintln(w)
	}
	return nil
}

type survivorJSON struct {
	Armies int     `json:"armies"`
	P      float64 `json:"p"`
	Exact  string  `json:"p_exact,omitempty"`
}

type chainJSON struct {
	A             int            `json:"a"`
	Defenders     []int          `json:"defenders"`
	Rules         string         `json:"rules"`
	Win           float64        `json:"win"`
	WinExact      string         `json:"win_exact,omitempty"`
	WinFirst      []float64      `json:"win_first"`
	WinFirstExact []string       `json:"win_first_exact,omitempty"`
	Survivors     []survivorJSON `json:"survivors"`
}

func oddsChain(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions, defs []int) error {
	res, err := dice.Chain(r, o.a, defs)
	if err != nil {
		return fmt.Errorf("odds: %w", err)
	}
	out := chainJSON{A: o.a, Defenders: defs, Rules: r.String(), Win: res.Win, WinFirst: res.WinFirst}
	var ex *dice.ChainResultExact
	if o.exact {
		if ex, err = dice.ChainExactContext(ctx, r, o.a, defs); err != nil {
			return fmt.Errorf("odds: %w", err)
		}
		out.WinExact = ex.Win.RatString()
		for _, v := range ex.WinFirst {
			out.WinFirstExact = append(out.WinFirstExact, v.RatString())
		}
	}
	for s, p := range res.Survivors {
		if p == 0 {
			continue
		}
		sj := survivorJSON{Armies: s, P: p}
		if ex != nil {
			sj.Exact = ex.Survivors[s].RatString()
		}
		out.Survivors = append(out.Survivors, sj)
	}
	if o.json {
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "chain: %d attacking armies along %d territories with %s defenders, dice %s\n",
		o.a, len(defs), o.chain, r)
	fmt.Fprintf(w, "P(conquer the whole path) = %.6f\n", res.Win)
	if ex != nil {
		fmt.Fprintf(w, "                          = %s\n", out.WinExact)
	}
	fmt.Fprintf(w, "\n%-10s %-10s %12s\n", "territory", "defenders", "P(reach)")
	for j, p := range res.WinFirst {
		fmt.Fprintf(w, "%-10d %-10d %12.6f", j+1, defs[j], p)
		if ex != nil {
			fmt.Fprintf(w, "  %s", out.WinFirstExact[j])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%-28s %10s\n", "armies in the last territory", "p")
	for _, s := range out.Survivors {
		fmt.Fprintf(w, "%-28d %10.6f", s.Armies, s.P)
		if s.Exact != "" {
			fmt.Fprintf(w, "  %s", s.Exact)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// maxPrintedTable bounds -table: the table is printed in full.
const maxPrintedTable = 200

func oddsTable(ctx context.Context, w io.Writer, r dice.Rules, o oddsOptions) error {
	n := o.table
	if n < 1 || n > maxPrintedTable {
		return fmt.Errorf("odds: -table %d outside [1, %d]", n, maxPrintedTable)
	}
	t, err := dice.NewTable(r, n)
	if err != nil {
		return fmt.Errorf("odds: %w", err)
	}
	var ex *dice.TableExact
	if o.exact {
		if ex, err = dice.NewTableExactContext(ctx, r, n); err != nil {
			return fmt.Errorf("odds: %w", err)
		}
	}
	if o.plot != "" {
		axis := make([]float64, n)
		for i := range axis {
			axis[i] = float64(i + 1)
		}
		h := plots.HeatMap{
			Grid: plots.NewGrid(axis, axis, func(d, a float64) float64 {
				return t.Win(int(a), int(d))
			}),
			Title:      fmt.Sprintf("P(attacker conquers), dice %s", r),
			XLabel:     "defending armies d",
			YLabel:     "attacking armies a",
			ColorLabel: "P(win)",
			Min:        0,
			Max:        1,
			Contours:   []float64{0.5},
		}
		if err := h.Save(o.plot); err != nil {
			return fmt.Errorf("odds: -plot: %w", err)
		}
	}
	if o.json {
		out := struct {
			N        int         `json:"n"`
			Rules    string      `json:"rules"`
			Win      [][]float64 `json:"win"`
			WinExact [][]string  `json:"win_exact,omitempty"`
		}{N: n, Rules: r.String()}
		for a := 1; a <= n; a++ {
			row := make([]float64, n)
			var erow []string
			for d := 1; d <= n; d++ {
				row[d-1] = t.Win(a, d)
				if ex != nil {
					erow = append(erow, ex.Win(a, d).RatString())
				}
			}
			out.Win = append(out.Win, row)
			if ex != nil {
				out.WinExact = append(out.WinExact, erow)
			}
		}
		return writeJSON(w, out)
	}
	fmt.Fprintf(w, "P(attacker conquers), dice %s: rows a = attacking armies, columns d = defending armies\n", r)
	fmt.Fprintf(w, "%4s", "a\\d")
	for d := 1; d <= n; d++ {
		fmt.Fprintf(w, " %5d", d)
	}
	fmt.Fprintln(w)
	for a := 1; a <= n; a++ {
		fmt.Fprintf(w, "%4d", a)
		for d := 1; d <= n; d++ {
			fmt.Fprintf(w, " %.3f", t.Win(a, d))
		}
		fmt.Fprintln(w)
	}
	if ex != nil {
		fmt.Fprintln(w, "\nexact:")
		for a := 1; a <= n; a++ {
			for d := 1; d <= n; d++ {
				fmt.Fprintf(w, "a=%d d=%d %s\n", a, d, ex.Win(a, d).RatString())
			}
		}
	}
	if o.plot != "" {
		fmt.Fprintf(w, "\nheat map written to %s\n", o.plot)
	}
	return nil
}

type rollJSON struct {
	AttackerDice int       `json:"attacker_dice"`
	DefenderDice int       `json:"defender_dice"`
	Total        int64     `json:"total"`
	Counts       []int64   `json:"counts"` // by defender losses 0..m
	P            []float64 `json:"p"`
	Paper        []int     `json:"paper_percent,omitempty"` // Table 4, same order; -1 = "—"
}

// oddsRolls prints every single roll's odds; Table 4 of the MARS paper is
// shown beside them for the classic rules.
func oddsRolls(w io.Writer, r dice.Rules, o oddsOptions) error {
	paper := map[[2]int]dice.Table4Row{}
	if r == dice.Classic {
		for _, row := range dice.Table4() {
			paper[[2]int{row.AttackerDice, row.DefenderDice}] = row
		}
	}
	var rows []rollJSON
	for nd := 1; nd <= r.DefenderDice; nd++ {
		for na := 1; na <= r.AttackerDice; na++ {
			odds, err := dice.Roll(r, na, nd)
			if err != nil {
				return fmt.Errorf("odds: %w", err)
			}
			m := odds.Pairs()
			rj := rollJSON{AttackerDice: na, DefenderDice: nd, Total: odds.Total}
			for j := 0; j <= m; j++ {
				rj.Counts = append(rj.Counts, odds.Count[j])
				rj.P = append(rj.P, odds.P(j))
			}
			if row, ok := paper[[2]int{na, nd}]; ok {
				// Defender losses 0 = "Defender wins", m = "Attacker wins".
				rj.Paper = make([]int, m+1)
				rj.Paper[0], rj.Paper[m] = row.Defender, row.Attacker
				if m == 2 {
					rj.Paper[1] = row.OneEach
				}
			}
			rows = append(rows, rj)
		}
	}
	if o.json {
		return writeJSON(w, rows)
	}
	fmt.Fprintf(w, "single rolls, dice %s: exact counts over 6^n and the MARS paper's Table 4\n\n", r)
	fmt.Fprintf(w, "%-5s %-22s %-12s %9s %7s\n", "dice", "result", "count/total", "exact", "paper")
	for _, rj := range rows {
		m := len(rj.Counts) - 1
		for j := m; j >= 0; j-- {
			var what string
			switch {
			case j == m:
				what = "attacker wins"
				if m > 1 {
					what = fmt.Sprintf("attacker wins all %d", m)
				}
			case j == 0:
				what = "defender wins"
				if m > 1 {
					what = fmt.Sprintf("defender wins all %d", m)
				}
			case m == 2:
				what = "one each"
			default:
				what = fmt.Sprintf("defender loses %d of %d", j, m)
			}
			paperCol := ""
			if rj.Paper != nil {
				paperCol = fmt.Sprintf("%d%%", rj.Paper[j])
			}
			fmt.Fprintf(w, "%-5s %-22s %-12s %8.3f%% %7s\n", fmt.Sprintf("%dv%d", rj.AttackerDice, rj.DefenderDice),
				what, fmt.Sprintf("%d/%d", rj.Counts[j], rj.Total), 100*rj.P[j], paperCol)
		}
	}
	if o.exact {
		fmt.Fprintln(w, "\nin lowest terms:")
		for _, rj := range rows {
			fmt.Fprintf(w, "%dv%d", rj.AttackerDice, rj.DefenderDice)
			for j, c := range rj.Counts {
				fmt.Fprintf(w, "  defender loses %d: %s", j, big.NewRat(c, rj.Total).RatString())
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

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
		return dicetest.Config{}, fmt.Errorf("odds: -games %d outside [%d, %d]", o.games, dicetest.MinTrials, dicetest.MaxTrials)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return dicetest.Config{}, fmt.Errorf("odds: -alpha %v outside (0, 1)", o.alpha)
	}
	if r.DefenderDice > 2 {
		return dicetest.Config{}, fmt.Errorf("odds: -verify: the engine rolls at most 2 defending dice, not %d", r.DefenderDice)
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
		return fmt.Errorf("odds: %w", err)
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
		return fmt.Errorf("odds: verify: %d of %d tests have a p-value below alpha %g", failed, len(tests), o.alpha)
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
			return fmt.Errorf("odds: %w", err)
		}
		what = fmt.Sprintf("%d attacking armies (a territory of %d) against %d defenders", o.a, o.a+1, o.d)
		if o.stop > 0 {
			moves = fmt.Sprintf("the attacker stops when its attacking armies fall to %d", o.stop)
		}
		trials = "battles"
		t, p, err = dicetest.Battle(ctx, c, o.a, o.d, o.stop)
	} else {
		if _, err := dice.Chain(r, o.a, defs); err != nil {
			return fmt.Errorf("odds: %w", err)
		}
		what = fmt.Sprintf("%d attacking armies along %d territories with %s defenders", o.a, len(defs), joinInts(defs))
		moves = "all survivors move on, one army stays in each conquered territory"
		trials = "chains"
		t, p, err = dicetest.Chain(ctx, c, o.a, defs)
	}
	if err != nil {
		return fmt.Errorf("odds: %w", err)
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
		fmt.Fprintf(w, "verify: H0: the engine's dice win with the exact probability, P(win) = %.6f,\n", p)
		fmt.Fprintf(w, "  for %s, dice %s\n", what, r)
		if moves != "" {
			fmt.Fprintf(w, "  (%s)\n", moves)
		}
		fmt.Fprintf(w, "test: %d %s with the engine's dice (sim.RollDice, PCG seed %d), two-sided binomial z, alpha %g\n\n",
			o.games, trials, o.seed, o.alpha)
		printBinomial(w, t, o.alpha)
		if !rejected {
			fmt.Fprintf(w, "\nH0 not rejected: p %.4f >= alpha %g: the engine's win frequency agrees with the exact odds\n",
				t.P, o.alpha)
		}
	}
	if rejected {
		return fmt.Errorf("odds: verify: H0 rejected, p-value %.4g below alpha %g: %s", t.P, o.alpha, hyp)
	}
	return nil
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
