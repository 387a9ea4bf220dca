package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/sim"
)

const oddsUsage = `usage: marslab odds [flags] MODE

Exact Risk dice odds from the absorbing Markov chain of a battle.
Conventions: a = attacking armies, not counting the army that must stay
behind (a territory with T armies attacks with a = T-1; -from T says so);
d = defending armies. Each roll: attacker min(3, a) dice, defender
min(2, d); dice compared highest first; ties go to the defender (the
caps and ties from -attacker-dice, -defender-dice, -ties-attacker or a
rule set's -rules; -sides N rolls N-sided dice, which the engine cannot).
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
  -optimal -a A -d D | -optimal -a A -chain D1,D2
                     optimal stopping: when to stop attacking to maximise
                     the expected utility -territory V per territory taken
                     + -army V per army kept + -kill V per defender
                     destroyed + -path V for the whole path (or, with -goal K [-keep S], P(at least K
                     territories taken with at least S armies left)); the
                     policy table and the loss of every threshold rule
                     "attack while P(conquering the rest) >= W" (-wp1, -wp:
                     MARS's two thresholds); -plot FILE draws the policy,
                     -plot-loss FILE the threshold rules' loss
  -defend D -k K -a A
                     the allocation of D defending armies over a path of K
                     territories (at least one each) that minimises the
                     attacker's P(conquering it all) (branch and bound;
                     -exhaustive evaluates every allocation)
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
	sides            int
	// -optimal and -defend.
	optimal               bool
	territory, army, kill float64
	pathValue             float64
	goal, keep            int
	wp1, wp               float64
	plotLoss              string
	defend, k             int
	exhaustive            bool
}

func oddsFlagSet(fs *flag.FlagSet) *oddsOptions {
	var o oddsOptions
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
	fs.IntVar(&o.sides, "sides", 6, "faces of every die (2-12; the engine's dice have 6)")
	fs.BoolVar(&o.optimal, "optimal", false, "optimal stopping of the battle (-d) or chain (-chain)")
	fs.Float64Var(&o.territory, "territory", 0, "with -optimal: utility of each territory taken")
	fs.Float64Var(&o.army, "army", 0, "with -optimal: utility of each attacking army kept")
	fs.Float64Var(&o.kill, "kill", 0, "with -optimal: utility of each defending army destroyed")
	fs.Float64Var(&o.pathValue, "path", 0, "with -optimal: utility of taking the whole path")
	fs.IntVar(&o.goal, "goal", 0, "with -optimal: maximise P(at least this many territories taken ...)")
	fs.IntVar(&o.keep, "keep", 0, "with -optimal -goal: ... with at least this many attacking armies left)")
	fs.Float64Var(&o.wp1, "wp1", -1, "with -optimal: also evaluate MARS's rule, this threshold before the first conquest")
	fs.Float64Var(&o.wp, "wp", -1, "with -optimal: also evaluate MARS's rule, this threshold after the first conquest")
	fs.StringVar(&o.plotLoss, "plot-loss", "", "with -optimal: draw the threshold rules' loss against W")
	fs.IntVar(&o.defend, "defend", 0, "defending armies to spread over -k territories against -a")
	fs.IntVar(&o.k, "k", 0, "with -defend: territories of the path")
	fs.BoolVar(&o.exhaustive, "exhaustive", false, "with -defend: evaluate every allocation")
	return &o
}

// cmdOdds prints exact dice odds (see oddsUsage).
func cmdOdds(ctx context.Context, in *invocation, o *oddsOptions) error {
	if err := in.noArgs(); err != nil {
		return err
	}
	// A boolean flag given as false (-json=false) changes nothing.
	set := in.set(true)
	mode, err := oddsModeOf(set)
	if err != nil {
		in.fs.Usage()
		return err
	}
	if err := mode.check(set); err != nil {
		return err
	}
	r, err := o.rules()
	if err != nil {
		return err
	}
	defs, err := o.armies(set)
	if err != nil {
		return err
	}
	w := in.stdout
	switch mode.kind {
	case modeBattle:
		return oddsBattle(ctx, w, r, *o)
	case modeChain:
		return oddsChain(ctx, w, r, *o, defs)
	case modeTable:
		return oddsTable(ctx, w, r, *o)
	case modeRolls:
		return oddsRolls(w, r, *o)
	case modeVerify:
		return oddsVerify(ctx, w, r, *o)
	case modeOptimal:
		if !set["chain"] {
			defs = []int{o.d}
		}
		return oddsOptimal(ctx, w, r, *o, defs)
	case modeDefend:
		return oddsDefend(ctx, w, r, *o)
	default:
		return oddsVerifyHypothesis(ctx, w, r, *o, defs)
	}
}

// rules returns the dice rules of -rules, or of the dice flags.
func (o *oddsOptions) rules() (dice.Rules, error) {
	r := dice.Rules{AttackerDice: o.attDice, DefenderDice: o.defDice, TiesToAttacker: o.ties}
	if o.sides != 6 {
		r.Sides = o.sides
	}
	if o.rulesName != "" {
		sr, err := sim.LoadRules(o.rulesName)
		if err != nil {
			return r, fmt.Errorf("-rules: %w", err)
		}
		r = dice.Rules{AttackerDice: sr.Attack.AttackerDice, DefenderDice: sr.Attack.DefenderDice,
			TiesToAttacker: sr.Attack.TiesToAttacker}
	}
	return r, r.Validate()
}

// armies checks -a, -from, -d and -chain (of the flags in set), sets a
// from -from, and returns the defenders of -chain.
func (o *oddsOptions) armies(set map[string]bool) ([]int, error) {
	if set["from"] {
		if set["a"] {
			return nil, errors.New("give -a or -from, not both")
		}
		if o.from < 1 {
			return nil, fmt.Errorf("-from %d: a territory holds at least 1 army", o.from)
		}
		o.a = o.from - 1
	}
	if (set["d"] || set["chain"] || set["defend"]) && !set["a"] && !set["from"] {
		return nil, errors.New("-d, -chain and -defend need -a (or -from)")
	}
	var defs []int
	if set["chain"] {
		var err error
		if defs, err = parseDefenders(o.chain); err != nil {
			return nil, fmt.Errorf("-chain: %w", err)
		}
	}
	if o.exact {
		most := max(o.a, o.d, o.table)
		for _, v := range defs {
			most = max(most, v)
		}
		if most > maxExact {
			return nil, fmt.Errorf("-exact supports armies and tables up to %d, not %d", maxExact, most)
		}
	}
	return defs, nil
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
	modeOptimal
	modeDefend
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
var commonOddsFlags = []string{"json", "rules", "attacker-dice", "defender-dice", "ties-attacker", "sides"}

var oddsModes = [...]oddsMode{
	modeBattle:       {modeBattle, "a battle (-d)", []string{"a", "from", "d", "stop", "exact"}},
	modeChain:        {modeChain, "a chain (-chain)", []string{"a", "from", "chain", "exact"}},
	modeTable:        {modeTable, "-table", []string{"table", "plot", "exact"}},
	modeRolls:        {modeRolls, "-rolls", []string{"rolls", "exact"}},
	modeVerify:       {modeVerify, "-verify", []string{"verify", "games", "seed", "alpha"}},
	modeVerifyBattle: {modeVerifyBattle, "-verify -d", []string{"verify", "a", "from", "d", "stop", "games", "seed", "alpha"}},
	modeVerifyChain:  {modeVerifyChain, "-verify -chain", []string{"verify", "a", "from", "chain", "games", "seed", "alpha"}},
	modeOptimal: {modeOptimal, "-optimal", []string{"optimal", "a", "from", "d", "chain", "territory", "army", "kill", "path",
		"goal", "keep", "wp1", "wp", "plot", "plot-loss", "exact"}},
	modeDefend: {modeDefend, "-defend", []string{"defend", "a", "from", "k", "exhaustive"}},
}

// oddsModeOf returns the mode chosen by the flags that were set.
func oddsModeOf(set map[string]bool) (oddsMode, error) {
	n := 0
	for _, f := range []string{"d", "chain", "table", "rolls", "verify", "optimal", "defend"} {
		if set[f] {
			n++
		}
	}
	switch {
	case set["verify"] && n == 2 && set["d"]:
		return oddsModes[modeVerifyBattle], nil
	case set["verify"] && n == 2 && set["chain"]:
		return oddsModes[modeVerifyChain], nil
	case set["optimal"] && n == 2 && (set["d"] || set["chain"]):
		return oddsModes[modeOptimal], nil
	case set["optimal"] && n == 1:
		return oddsMode{}, errors.New("-optimal needs a battle (-d) or a chain (-chain)")
	case n != 1:
		return oddsMode{}, errors.New("give exactly one of -d, -chain, -table, -rolls, -verify, -defend " +
			"(or -verify or -optimal with -d or -chain)")
	case set["defend"]:
		return oddsModes[modeDefend], nil
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
			return fmt.Errorf("-%s does not apply to -verify without -d or -chain "+
				"(give -d or -chain to test a battle or a chain)", f)
		}
		return fmt.Errorf("-%s does not apply to %s", f, m.name)
	}
	if set["rules"] {
		for _, f := range []string{"attacker-dice", "defender-dice", "ties-attacker", "sides"} {
			if set[f] {
				return fmt.Errorf("-%s does not apply with -rules (the rule set gives the dice)", f)
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
