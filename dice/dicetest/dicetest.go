// Package dicetest checks a Risk dice roller, by default the engine's own
// ([sim.RollDice]), against the exact odds of package dice: it rolls single
// rolls and fights whole battles and chains with the roller and tests the
// observed frequencies against the exact probabilities (Pearson's
// chi-square for the losses of a roll, the two-sided binomial z-test for the
// wins of a battle or chain).
//
// It sits above both dice (the exact odds) and sim (the engine's dice),
// which import nothing of each other, much as testing/fstest sits above
// io/fs. Every test draws from its own PCG stream, seeded with
// sim.GameSeed([Config.Seed], i) for the i-th test, so the same Config gives
// the same tests, count for count.
package dicetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/stats"
)

// Roller rolls na attacking and nd defending dice with rng, compares them
// highest first and returns the armies lost by each side, storing the dice
// in att and def; ties go to the defender unless tiesToAttacker. It is the
// signature of [sim.RollDice].
type Roller func(rng *rand.Rand, na, nd int, tiesToAttacker bool, att *[3]uint8, def *[2]uint8) (attLoss, defLoss int)

// MaxTrials bounds [Config.Trials].
const MaxTrials = 100_000_000

// MinTrials is the fewest trials per test.
const MinTrials = 10

// Config says what to roll and how often.
type Config struct {
	// Rules are the dice rules; the roller rolls at most 2 defending dice.
	Rules dice.Rules
	// Trials is the number of rolls, battles or chains per test, in
	// [MinTrials, MaxTrials].
	Trials int
	// Seed is the experiment seed of the tests' random streams.
	Seed uint64
	// Roll is the roller under test; nil means [sim.RollDice].
	Roll Roller
}

// Test is one statistical test of observed counts against exact odds.
type Test struct {
	// Name names the test, e.g. "roll 3v2" or "battle 5 vs 5".
	Name string `json:"name"`
	// Observed are the counts: of defender losses 0..m for a roll; of
	// wins and losses for a battle or chain.
	Observed []int `json:"observed"`
	// Expected are the expected counts under the exact odds, in the
	// order of Observed.
	Expected []float64 `json:"expected"`
	// Stat is the chi-square statistic of a roll or the z of a battle.
	Stat float64 `json:"stat"`
	// DF is the chi-square test's degrees of freedom (0 for a z-test).
	DF int `json:"df,omitempty"`
	// P is the p-value.
	P float64 `json:"p_value"`
}

// Failed counts the tests with a p-value below alpha.
func Failed(tests []Test, alpha float64) int {
	n := 0
	for _, t := range tests {
		if t.P < alpha {
			n++
		}
	}
	return n
}

// suiteBattles are the battles (a, d) whose win frequency Suite tests.
var suiteBattles = [...][2]int{{1, 1}, {3, 2}, {5, 5}, {10, 10}, {15, 8}}

// roller holds the state of one run of tests.
type roller struct {
	c      Config
	roll   Roller
	stream uint64
	att    [3]uint8
	def    [2]uint8
}

func newRoller(c Config) (*roller, error) {
	if err := c.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("dicetest: %w", err)
	}
	if c.Rules.Sides != 0 && c.Rules.Sides != 6 {
		return nil, fmt.Errorf("dicetest: the engine rolls six-sided dice, not %d-sided", c.Rules.Sides)
	}
	if c.Rules.DefenderDice > 2 {
		return nil, fmt.Errorf("dicetest: the engine rolls at most 2 defending dice, not %d", c.Rules.DefenderDice)
	}
	if c.Trials < MinTrials || c.Trials > MaxTrials {
		return nil, fmt.Errorf("dicetest: trials %d outside [%d, %d]", c.Trials, MinTrials, MaxTrials)
	}
	v := &roller{c: c, roll: c.Roll}
	if v.roll == nil {
		v.roll = sim.RollDice
	}
	return v, nil
}

// rng returns the random stream of the next test.
func (v *roller) rng() *rand.Rand {
	s := sim.GameSeed(v.c.Seed, v.stream)
	v.stream++
	return rand.New(rand.NewPCG(s, 0xda3e39cb94b95bdb))
}

// battle fights a battle roll by roll until the defender has no armies
// left or the attacker has at most stop, and returns the armies left on
// each side.
func (v *roller) battle(rng *rand.Rand, a, d, stop int) (int, int) {
	r := v.c.Rules
	for a > stop && d > 0 {
		al, dl := v.roll(rng, min(r.AttackerDice, a), min(r.DefenderDice, d), r.TiesToAttacker, &v.att, &v.def)
		a -= al
		d -= dl
	}
	return a, d
}

// chain attacks the territories in order, as package dice defines a chain:
// after each conquest the s surviving attacking armies move in, one stays,
// and the next battle starts with s-1. It reports whether the whole path
// was conquered.
func (v *roller) chain(rng *rand.Rand, a int, defs []int) bool {
	for _, d := range defs {
		s, left := v.battle(rng, a, d, 0)
		if left > 0 {
			return false
		}
		a = max(s-1, 0)
	}
	return true
}

// wins counts the successes of Trials trials, checking ctx every 4096.
func (v *roller) wins(ctx context.Context, trial func() bool) (int, error) {
	n := 0
	for i := range v.c.Trials {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, fmt.Errorf("dicetest: %w", err)
			}
		}
		if trial() {
			n++
		}
	}
	return n, nil
}

// winTest is the two-sided binomial z-test of wins in Trials trials
// against the exact P(win) p.
func (v *roller) winTest(name string, wins int, p float64) (Test, error) {
	n := v.c.Trials
	fn := float64(n)
	z, err := stats.BinomialZTest(wins, n, p)
	if err != nil {
		return Test{}, fmt.Errorf("dicetest: %s: %w", name, err)
	}
	return Test{Name: name, Observed: []int{wins, n - wins}, Expected: []float64{fn * p, fn * (1 - p)},
		Stat: z.Z, P: z.P}, nil
}

// Suite runs the standard tests. First, for every single roll of
// 1..AttackerDice against 1..DefenderDice dice (defender dice in the outer
// loop), Trials rolls and a chi-square test of the defender's losses 0..m
// against the exact odds (m = the dice compared, DF = m). Then, for each of
// the battles 1 vs 1, 3 vs 2, 5 vs 5, 10 vs 10 and 15 vs 8, Trials battles to
// the end and a binomial z-test of the attacker's wins against the exact
// P(win). The tests use streams 0, 1, ... in that order. It stops with
// ctx's error when ctx is done.
func Suite(ctx context.Context, c Config) ([]Test, error) {
	v, err := newRoller(c)
	if err != nil {
		return nil, err
	}
	r := c.Rules
	var tests []Test
	for nd := 1; nd <= r.DefenderDice; nd++ {
		for na := 1; na <= r.AttackerDice; na++ {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("dicetest: %w", err)
			}
			odds, err := dice.Roll(r, na, nd)
			if err != nil {
				return nil, fmt.Errorf("dicetest: %w", err)
			}
			m := odds.Pairs()
			obs := make([]int, m+1)
			rng := v.rng()
			for range c.Trials {
				_, dl := v.roll(rng, na, nd, r.TiesToAttacker, &v.att, &v.def)
				obs[dl]++
			}
			exp := make([]float64, m+1)
			for j := range exp {
				exp[j] = float64(c.Trials) * odds.P(j)
			}
			name := fmt.Sprintf("roll %dv%d", na, nd)
			chi, err := stats.ChiSquareGOF(obs, exp)
			if err != nil {
				return nil, fmt.Errorf("dicetest: %s: %w", name, err)
			}
			tests = append(tests, Test{Name: name, Observed: obs, Expected: exp, Stat: chi.Stat, DF: chi.DF, P: chi.P})
		}
	}
	tab, err := dice.NewTable(r, 20)
	if err != nil {
		return nil, fmt.Errorf("dicetest: %w", err)
	}
	for _, b := range suiteBattles {
		rng := v.rng()
		n, err := v.wins(ctx, func() bool {
			_, d := v.battle(rng, b[0], b[1], 0)
			return d == 0
		})
		if err != nil {
			return nil, err
		}
		t, err := v.winTest(fmt.Sprintf("battle %d vs %d", b[0], b[1]), n, tab.Win(b[0], b[1]))
		if err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// Battle tests one hypothesis: that a attacking armies against d
// defenders, the attacker stopping when its armies fall to stop, win with
// the exact probability of [dice.BattleStop]. It fights Trials battles on
// stream 0 and returns the binomial z-test, named "battle A vs D" (with
// " stop K" for stop > 0), and the exact P(win) tested against.
func Battle(ctx context.Context, c Config, a, d, stop int) (Test, float64, error) {
	v, err := newRoller(c)
	if err != nil {
		return Test{}, 0, err
	}
	res, err := dice.BattleStop(c.Rules, a, d, stop)
	if err != nil {
		return Test{}, 0, fmt.Errorf("dicetest: %w", err)
	}
	name := fmt.Sprintf("battle %d vs %d", a, d)
	if stop > 0 {
		name += fmt.Sprintf(" stop %d", stop)
	}
	rng := v.rng()
	n, err := v.wins(ctx, func() bool {
		_, left := v.battle(rng, a, d, stop)
		return left == 0
	})
	if err != nil {
		return Test{}, 0, err
	}
	t, err := v.winTest(name, n, res.Win)
	return t, res.Win, err
}

// Chain tests one hypothesis: that a attacking armies conquer the whole
// path of territories with defs defenders with the exact probability of
// [dice.Chain]. It fights Trials chains on stream 0 and returns the binomial
// z-test, named "chain A vs D1,D2,...", and the exact P(win).
func Chain(ctx context.Context, c Config, a int, defs []int) (Test, float64, error) {
	v, err := newRoller(c)
	if err != nil {
		return Test{}, 0, err
	}
	res, err := dice.Chain(c.Rules, a, defs)
	if err != nil {
		return Test{}, 0, fmt.Errorf("dicetest: %w", err)
	}
	name := fmt.Sprintf("chain %d vs %s", a, joinInts(defs))
	rng := v.rng()
	n, err := v.wins(ctx, func() bool { return v.chain(rng, a, defs) })
	if err != nil {
		return Test{}, 0, err
	}
	t, err := v.winTest(name, n, res.Win)
	return t, res.Win, err
}

// joinInts formats defender counts as "3,2,1".
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
