package report

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/tourney"
)

// tinyDiceLiterature is a dice-literature config small enough for a unit
// test.
const tinyDiceLiterature = `kind = "dice-literature"
title = "Dice literature test"
summary = "A tiny dice-literature notebook."
question = "Does the literature agree?"
seed = 3
thumbnail = "stopping-policy.png"

[literature]
sides = [4, 6]
variant_armies = 5
figure = 0
defence_attackers = [8]
defence_armies = [6]
defence_territories = [2, 3]

[[literature.stopping]]
a = 10
defenders = [3, 2, 1]
territory = 1
army = 0.3
wp1 = 0.25
wp = 0.7375

[literature.mars]
mars = "mars@paper"
opponents = ["aggressive", "random"]
rules = "mars2006"
tournament = "tourney.toml"
tournament_bot = "mars"

[full]
hendel_max_d = 20
loss_max_n = 5
exhaustive_max = 100
mars_games = 6
tournament_games = 3

[quick]
hendel_max_d = 10
loss_max_n = 3
exhaustive_max = 0
mars_games = 4
tournament_games = 1
`

// tinyStopTourney returns the tournament of tinyDiceLiterature's MARS
// section, C(3,2) = 3 games, 2 of them seating mars, and its rules:
// mars2006 stopped at round 12, so that a game of MARS stopping optimally
// stays short under the race detector.
func tinyStopTourney(t *testing.T) []file {
	rules, err := os.ReadFile(filepath.Join("..", "configs", "rules", "mars2006.toml"))
	require.NoError(t, err)
	short := strings.Replace(string(rules), "round_limit = 100", "round_limit = 12", 1)
	require.NotEqual(t, string(rules), short)
	short = strings.Replace(short, `name = "mars2006"`, `name = "mars2006-short"`, 1)
	return []file{{"tourney.toml", `bots = ["mars", "aggressive", "random"]
players = 2
replications = 1
rules = "short.toml"
seed = 7
`}, {"short.toml", short}}
}

func TestDiceLiteratureNotebook(t *testing.T) {
	t.Parallel()
	dir := writeNotebook(t, "dice-literature", tinyDiceLiterature, tinyStopTourney(t)...)
	a, b := runTwice(t, dir, false)
	assertSameResults(t, a, b)
	lit := readFile(t, filepath.Join(a, "literature.csv"))
	for _, want := range []string{
		`"Johansson & Olsson 2006, Table 4",3v2 roll: attacker wins,2890/7776 = 37.166 %,37 %,true,`,
		`"Wikipedia, quoted on Mathematics Stack Exchange",3v2 roll: each loses 1,2611/7776 = 0.33578,0.3358,true,`,
		"3 dice against 2 + bonus die: defender wins both,22218/46656,22218/46656,true,0",
		"3 dice against 1 + bonus die: defender wins,4109/7776,4109/7776,true,0",
		"attacker's losses per 3v2 roll,2387/2592 = 0.92091,0.922,false,",
		`"P(win), a territory of 10 against 10",0.4799352564776802,0.47993525647768026,true,`,
		`"Höhle (2025), blog",equal armies a = d: the attacker is favoured from a = (checked to 20),5,5,true,0`,
		"OEIS A371949,\"3v2 roll: defender loses 2, of 7776\",2890/7776,2890/7776,true,0",
		"OEIS A371949,\"3v2 roll: attacker loses 2, of 7776\",2275/7776,2275/7776,true,0",
		"OEIS A371949,\"P(win), 1 attacking against 1, numerator over 6^5\",3240,3240,true,0",
		"OEIS A371949,\"P(win), 3 attacking against 3, numerator over 6^25\",13369373984761528320,13369373984761528320,true,0",
		"OEIS A371949,\"P(win), 5 attacking against 1, numerator over 6^25\",28155000551019598080,28155000551019598080,true,0",
		`"Norvig, pytudes risk.ipynb","P(win), a territory of 32 against 30",0.7194339370737596,0.7194339370737594,true,`,
		`"Norvig, pytudes risk.ipynb","P(win), a territory of 60 against 60",73.235 %,73 %,true,`,
		`"Norvig, pytudes risk.ipynb",a territory of A against A: P(win) ≥ 50 % from A = (checked to 60),12,12,true,0`,
	} {
		assert.Contains(t, lit, want)
	}
	oeis := 0
	for _, line := range strings.Split(lit, "\n") {
		if strings.HasPrefix(line, "OEIS A371949,") {
			assert.Contains(t, line, ",true,", "every term of OEIS A371949 agrees exactly")
			oeis++
		}
	}
	assert.Equal(t, 3+len(oeisA371949), oeis, "the comment's three counts and the data line's 15 terms")
	stop := readFile(t, filepath.Join(a, "stopping.csv"))
	assert.Contains(t, stop, "1,10,\"3,2,1\",\"territory 1, army 0.3, kill 0\",4.4253")
	def := readFile(t, filepath.Join(a, "defence.csv"))
	assert.Contains(t, def, "8,6,3,\"2,2,2\",")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "In 2 of the 2 problems with D ≥ 2k − 1, two armies on every territory but the last")
	assert.Contains(t, rep, "2 problems were also solved by evaluating every allocation, 2 of them with the same")
	assert.Contains(t, rep, "![policy of problem 1](stopping-policy.png)")
	assert.Contains(t, rep, "With 4-sided dice, 5 attacking armies win against 5 with probability")
	mars := readFile(t, filepath.Join(a, "mars-stop.csv"))
	assert.Equal(t, 7, strings.Count(mars, "\n"), "6 games and the header")
	assert.Contains(t, rep, "Two batches of 6 games on the same\nseeds, `mars@paper(stop_stats=1),aggressive,random`")
	assert.Contains(t, rep, "**In the tournament's games.** The first 3 games of `tourney.toml` (whose schedule plays every\n2-bot line-up of mars, aggressive, random; seed 7)")
	assert.Contains(t, rep, "2 of them seat MARS (data: `mars-stop-tournament.csv`), who wins")
	// The paper's rule, counted, replays the tournament's own games: MARS
	// wins the same games as the tournament's plain mars.
	tc, err := tourney.Load(filepath.Join(dir, "tourney.toml"))
	require.NoError(t, err)
	setup, err := tc.Resolve(registry.Default())
	require.NoError(t, err)
	sched, err := arena.NewSubsets(3, 2, 1, 7)
	require.NoError(t, err)
	var want []string
	_, err = arena.Run(context.Background(), arena.Config{Map: setup.Map, Rules: setup.Rules, Seats: setup.Seats, Schedule: sched,
		Games: 3, Seed: 7, Workers: 1, OnRecord: func(r arena.Record) {
			if i := slices.Index(r.Seating, "mars"); i >= 0 {
				want = append(want, fmt.Sprintf("%d,%v", r.Game, r.Winner == i))
			}
		}})
	require.NoError(t, err)
	require.Len(t, want, 2)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "mars-stop-tournament.csv"))), "\n")[1:] {
		f := strings.Split(line, ",")
		got = append(got, f[0]+","+f[7])
	}
	assert.Equal(t, want, got, "game and MARS's win with the paper's rule")
	for _, f := range []string{"stopping-policy.png", "stopping-thresholds.svg", "hendel.csv", "losses-formula.csv", "variants.csv", "thresholds.csv"} {
		assert.FileExists(t, filepath.Join(a, f))
	}
	hendel := readFile(t, filepath.Join(a, "hendel.csv"))
	assert.Equal(t, 21, strings.Count(hendel, "\n"), "d = 1..20 and the header")
	assert.Contains(t, hendel, "\n10,11,10.6,true\n")
}

func TestDiceLiteratureQuick(t *testing.T) {
	t.Parallel()
	a := runOnce(t, writeNotebook(t, "dice-literature", tinyDiceLiterature, tinyStopTourney(t)...), true)
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "(quick size: hendel_max_d = 10, loss_max_n = 3, exhaustive_max = 0, mars_games = 4, tournament_games = 1; seed 3)")
	assert.Contains(t, rep, "0 problems were also solved by evaluating every allocation")
}

// TestBonusRoll checks the bonus-die enumeration against a count by
// maxima: with one defending die and the bonus die, the attacker wins when
// the best of its three dice beats the best of the defender's two.
func TestBonusRoll(t *testing.T) {
	t.Parallel()
	for _, sides := range []int{2, 6, 8} {
		c, total := bonusRoll(3, 1, sides)
		var win int64
		for k := 1; k <= sides; k++ {
			k3, k1 := int64(k*k*k), int64((k-1)*(k-1)*(k-1))
			win += (k3 - k1) * int64((k-1)*(k-1)) // max of 3 is k, max of 2 below k
		}
		assert.Equal(t, win, c[1], "d%d", sides)
		assert.Equal(t, total, c[0]+c[1])
	}
	c, total := bonusRoll(3, 2, 6)
	assert.Equal(t, int64(46656), total)
	assert.Equal(t, total, c[0]+c[1]+c[2])
	// The bonus die only helps the defender: fewer double losses than the
	// plain roll's 2890 of 7776 (scaled by the bonus die's 6 faces).
	o, err := dice.Roll(dice.Classic, 3, 2)
	require.NoError(t, err)
	assert.Less(t, c[2], 6*o.Count[2])
}

// TestAttackerLosses checks the exact expected losses: one defender costs
// 441/855 (a geometric number of failed 3v1 rolls), and the recurrence's
// first two-defender value by hand.
func TestAttackerLosses(t *testing.T) {
	t.Parallel()
	e, err := attackerLosses(2)
	require.NoError(t, err)
	assert.Equal(t, "0", e[0].RatString())
	assert.Equal(t, big.NewRat(441, 855).RatString(), e[1].RatString())
	// E(2) = (2·2275 + 2611 + 2611·E(1)) / (7776 - 2275).
	want := new(big.Rat).Mul(big.NewRat(2611, 1), e[1])
	want.Add(want, big.NewRat(2*2275+2611, 1))
	want.Quo(want, big.NewRat(7776-2275, 1))
	assert.Equal(t, want.RatString(), e[2].RatString())
}

func TestDiceLiteratureParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`sides = [4, 6]`, `sides = [4, 13]`, "key literature.sides[1]: 13 outside [2, 12]"},
		{`variant_armies = 5`, `variant_armies = 0`, "key literature.variant_armies: 0 outside [1, 100]"},
		{`figure = 0`, `figure = 3`, "key literature.figure: 3 outside [0, 0]"},
		{`defence_armies = [6]`, `defence_armies = [61]`, "key literature.defence_armies[0]: 61 outside [1, 60]"},
		{`wp = 0.7375`, `wp = 1.5`, "key literature.stopping[0].wp: 1.5 outside [0, 1]"},
		{`army = 0.3`, "army = 0.3\ngoal = 1", "key literature.stopping[0]: dice: utility: a goal (probability target) excludes the linear values"},
		{`defenders = [3, 2, 1]`, `defenders = [3, 0]`, "key literature.stopping[0].defenders[1]: 0 outside [1, 30]"},
		{`hendel_max_d = 10`, `hendel_max_d = 5`, "key quick.hendel_max_d: 5 outside [10, 500]"},
		{`exhaustive_max = 100`, `exhaustive_max = -1`, "key full.exhaustive_max: -1 outside [0, 10000000]"},
		{`mars_games = 4`, `mars_games = 1`, "key quick.mars_games: 1 outside [2, 1000000]"},
		{`mars = "mars@paper"`, `mars = "mars@paper(stop=optimal)"`, "key literature.mars.mars: \"mars@paper(stop=optimal)\": a seat without options"},
		{`opponents = ["aggressive", "random"]`, `opponents = []`, "key literature.mars.opponents: 0 seats, want 1 to 5"},
		{`tournament_bot = "mars"`, `tournament_bot = "shaft"`, "key literature.mars.tournament_bot: \"shaft\" is not a bot of"},
		{`tournament = "tourney.toml"`, `tournament = "missing.toml"`, "key literature.mars.tournament:"},
		{`tournament = "tourney.toml"`, ``, "key literature.mars.tournament_bot: \"mars\" without literature.mars.tournament"},
		{`tournament_games = 3`, `tournament_games = 4`, "key full.tournament_games: 4 outside [1, 3]"},
		{"tournament_games = 1\n", "tournament_games = 0\n", "key quick.tournament_games: 0 outside [1, 3]"},
	} {
		cfg := strings.Replace(tinyDiceLiterature, tc.from, tc.to, 1)
		require.NotEqual(t, tinyDiceLiterature, cfg, tc.from)
		_, err := Load(writeNotebook(t, "dice-literature", cfg, tinyStopTourney(t)...))
		assert.ErrorContains(t, err, tc.want)
	}
}

// TestRatio checks the ratio estimator and its cluster interval by hand:
// y = (1, 3), x = (1, 1) gives R = 2, residuals (-1, 1), se =
// sqrt(2/(2·1))/1 = 1.
func TestRatio(t *testing.T) {
	t.Parallel()
	r := ratio([]float64{1, 3}, []float64{1, 1})
	assert.Equal(t, 2.0, r.R)
	assert.InDelta(t, 2-1.959963984540054, r.Lo, 1e-12)
	assert.InDelta(t, 2+1.959963984540054, r.Hi, 1e-12)
	r = ratio([]float64{2, 4}, []float64{1, 2})
	assert.Equal(t, 2.0, r.R)
	assert.Equal(t, r.R, r.Lo, "no residual, no width")
	assert.True(t, math.IsNaN(ratio([]float64{1}, []float64{0}).R))
}
