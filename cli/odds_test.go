package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/stats"
)

func runOdds(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), append([]string{"odds"}, args...), &out, &errb)
	return out.String(), err
}

// oddsJSON runs marslab odds with args (-json among them), requires
// success and decodes the output into v.
func oddsJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, err := runOdds(t, args...)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(out), v), out)
}

func TestOddsBattleJSON(t *testing.T) {
	t.Parallel()
	var got battleJSON
	oddsJSON(t, &got, "-a", "5", "-d", "5", "-json")
	tab, err := dice.NewTable(dice.Classic, 5)
	require.NoError(t, err)
	assert.Equal(t, 5, got.A)
	assert.Equal(t, 5, got.D)
	assert.InDelta(t, tab.Win(5, 5), got.Win, 1e-15)
	require.Len(t, got.Outcomes, 10, "5 conquests + 5 defeats")
	sum, win := 0.0, 0.0
	for _, o := range got.Outcomes {
		sum += o.P
		if o.DefenderLeft == 0 {
			win += o.P
		}
	}
	assert.InDelta(t, 1, sum, 1e-14, "outcomes")
	assert.InDelta(t, got.Win, win, 1e-14, "conquests")
	// Losses: the mean attacker loss plus the mean attacker army left is 5.
	left := 0.0
	for _, o := range got.Outcomes {
		left += o.P * float64(o.AttackerLeft)
	}
	assert.InDelta(t, 5, left+got.AttackerLossesMean, 1e-13, "attacker losses mean and armies left")
}

func TestOddsBattleText(t *testing.T) {
	t.Parallel()
	out, err := runOdds(t, "-from", "6", "-d", "5")
	require.NoError(t, err)
	for _, want := range []string{"5 attacking armies (a territory of 6) against 5 defenders", "P(attacker conquers) = 0.506203", "attacker left"} {
		assert.Contains(t, out, want)
	}
	out, err = runOdds(t, "-a", "1", "-d", "1", "-exact", "-json")
	require.NoError(t, err)
	assert.Contains(t, out, `"win_exact": "5/12"`)
	assert.Contains(t, out, `"p_exact": "7/12"`)
	// Stop at 2: one roll of 3 dice against 2 decides.
	out, err = runOdds(t, "-a", "3", "-d", "2", "-stop", "2", "-exact")
	require.NoError(t, err)
	for _, want := range []string{"= 1445/3888", "2611/7776", "2275/7776"} {
		assert.Contains(t, out, want)
	}
}

func TestOddsChain(t *testing.T) {
	t.Parallel()
	var got chainJSON
	oddsJSON(t, &got, "-a", "10", "-chain", "3,2,1", "-json")
	tab, err := dice.NewTable(dice.Classic, 10)
	require.NoError(t, err)
	require.Len(t, got.WinFirst, 3)
	assert.Equal(t, got.WinFirst[2], got.Win)
	// The first territory is a plain battle.
	assert.InDelta(t, tab.Win(10, 3), got.WinFirst[0], 1e-15)
	assert.InDelta(t, 0.817051, got.Win, 5e-7)
	// At most 10 - 3 + 1 = 8 armies can reach the third territory.
	assert.Equal(t, 8, got.Survivors[len(got.Survivors)-1].Armies, "largest survivor count")
	// Hand-worked: 2 armies against 1 and 1.
	out, err := runOdds(t, "-a", "2", "-chain", "1,1", "-exact")
	require.NoError(t, err)
	// 125/216 * 15/36 = 625/2592.
	assert.Contains(t, out, "= 625/2592")
}

func TestOddsTable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	png := filepath.Join(dir, "odds.png")
	out, err := runOdds(t, "-table", "30", "-json", "-plot", png)
	require.NoError(t, err)
	var got struct {
		N   int         `json:"n"`
		Win [][]float64 `json:"win"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 30, got.N)
	require.Len(t, got.Win, 30)
	require.Len(t, got.Win[29], 30)
	// [a-1][d-1]: 1 vs 1 is 15/36; 2 vs 1 is 125/216 + 91/216 * 15/36.
	assert.InDelta(t, 15.0/36, got.Win[0][0], 1e-15)
	assert.InDelta(t, 125.0/216+91.0/216*15/36, got.Win[1][0], 1e-15)
	fi, err := os.Stat(png)
	require.NoError(t, err)
	assert.Greater(t, fi.Size(), int64(10000), "plot size")
	out, err = runOdds(t, "-table", "3")
	require.NoError(t, err)
	assert.Contains(t, out, "   1 0.417 0.106 0.027")
}

func TestOddsRolls(t *testing.T) {
	t.Parallel()
	out, err := runOdds(t, "-rolls")
	require.NoError(t, err)
	for _, want := range []string{
		"3v2   attacker wins all 2    2890/7776      37.166%     37%",
		"3v2   one each               2611/7776      33.578%     34%",
		"1v1   attacker wins          15/36          41.667%     42%",
	} {
		assert.Contains(t, out, want)
	}
	var rows []rollJSON
	oddsJSON(t, &rows, "-rolls", "-json")
	require.Len(t, rows, 6)
	assert.Equal(t, int64(7776), rows[5].Total)
	assert.Equal(t, int64(2275), rows[5].Counts[0])
	assert.Equal(t, 29, rows[5].Paper[0])
	// A variant with ties to the attacker has no paper column.
	out, err = runOdds(t, "-rolls", "-ties-attacker")
	require.NoError(t, err)
	assert.NotContains(t, out, "%     4")
	assert.Contains(t, out, "21/36")
}

func TestOddsVerify(t *testing.T) {
	t.Parallel()
	out, err := runOdds(t, "-verify", "-games", "20000", "-seed", "3")
	require.NoError(t, err, out)
	for _, want := range []string{"roll 3v2", "battle 10 vs 10", "all 11 p-values >= 0.0001"} {
		assert.Contains(t, out, want)
	}
	again, err := runOdds(t, "-verify", "-games", "20000", "-seed", "3")
	require.NoError(t, err)
	assert.Equal(t, out, again, "same seed")
	// The exit status: at -alpha 0.5, eleven tests of fair dice all pass
	// with probability 2^-11 only; seed 1 has failures, which must make
	// the command return an error (and report them in the JSON).
	out, err = runOdds(t, "-verify", "-games", "2000", "-seed", "1", "-alpha", "0.5", "-json")
	require.ErrorContains(t, err, "below alpha 0.5")
	var jout struct {
		Failed int `json:"failed"`
		Tests  []struct {
			P float64 `json:"p_value"`
		} `json:"tests"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &jout))
	assert.NotZero(t, jout.Failed)
	assert.Len(t, jout.Tests, 11)
}

func TestOddsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string
	}{
		{nil, "give exactly one of"},
		{[]string{"-rolls", "-table", "3"}, "give exactly one of"},
		{[]string{"-verify", "-table", "3"}, "give exactly one of"},
		{[]string{"-verify", "-a", "3", "-d", "1", "-chain", "1"}, "give exactly one of"},
		{[]string{"-verify", "-d", "3"}, "need -a"},
		{[]string{"-verify", "-a", "3", "-chain", "3,x"}, `territory 2: "x" is not a whole number`},
		{[]string{"-verify", "-a", "3", "-d", "2", "-stop", "-1"}, "stop level -1 is negative"},
		{[]string{"-verify", "-a", "3", "-d", "1", "-games", "5"}, "-games 5 outside"},
		{[]string{"-d", "3"}, "need -a"},
		{[]string{"-a", "3", "-from", "4", "-d", "1"}, "give -a or -from, not both"},
		{[]string{"-from", "0", "-d", "1"}, "-from 0: a territory holds at least 1 army"},
		{[]string{"-a", "3", "-chain", "3,x"}, `territory 2: "x" is not a whole number`},
		{[]string{"-a", "3", "-chain", "3,-1"}, "territory 2: -1 defenders outside [0, 2000]"},
		{[]string{"-table", "500"}, "-table 500 outside [1, 200]"},
		{[]string{"-table", "0"}, "-table 0 outside [1, 200]"},
		{[]string{"-a", "400", "-d", "3", "-exact"}, "-exact supports armies and tables up to 300, not 400"},
		{[]string{"-a", "4", "-chain", "3,301", "-exact"}, "not 301"},
		{[]string{"-a", "-2", "-d", "1"}, "attacking armies -2 outside [0, 2000]"},
		{[]string{"-rolls", "-attacker-dice", "4"}, "attacker dice 4 outside [1, 3]"},
		{[]string{"-rolls", "-plot", "x.png"}, "-plot does not apply to -rolls"},
		{[]string{"-table", "3", "-plot", filepath.Join(t.TempDir(), "x.gif")}, `unsupported figure format "gif"`},
		{[]string{"-verify", "-games", "5"}, "-games 5 outside [10, 100000000]"},
		{[]string{"-verify", "-alpha", "0"}, "-alpha 0 outside (0, 1)"},
		{[]string{"-verify", "-defender-dice", "3"}, "the engine rolls at most 2 defending dice"},
		{[]string{"-a", "2", "-d", "2", "-stop", "-1"}, "stop level -1 is negative"},
		{[]string{"-rolls", "extra"}, `unexpected argument "extra"`},
		{[]string{"-rolls", "-rules", "no-such-rules.toml"}, "-rules"},
	}
	for _, tt := range tests {
		_, err := runOdds(t, tt.args...)
		assert.ErrorContains(t, err, tt.msg, "odds %v", tt.args)
	}
}

// TestOddsFlagsNotApplicable checks that every flag that does not apply
// to the chosen mode is an error naming the flag and the mode.
func TestOddsFlagsNotApplicable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"-a", "5", "-chain", "3,2", "-stop", "2"}, "-stop does not apply to a chain (-chain)"},
		{[]string{"-table", "3", "-stop", "2"}, "-stop does not apply to -table"},
		{[]string{"-table", "3", "-a", "2"}, "-a does not apply to -table"},
		{[]string{"-table", "3", "-from", "2"}, "-from does not apply to -table"},
		{[]string{"-rolls", "-a", "2"}, "-a does not apply to -rolls"},
		{[]string{"-rolls", "-from", "3"}, "-from does not apply to -rolls"},
		{[]string{"-rolls", "-stop", "1"}, "-stop does not apply to -rolls"},
		{[]string{"-rolls", "-seed", "2"}, "-seed does not apply to -rolls"},
		{[]string{"-a", "3", "-d", "2", "-plot", "x.png"}, "-plot does not apply to a battle (-d)"},
		{[]string{"-a", "3", "-d", "2", "-games", "10"}, "-games does not apply to a battle (-d)"},
		{[]string{"-a", "3", "-d", "2", "-alpha", "0.1"}, "-alpha does not apply to a battle (-d)"},
		{[]string{"-a", "3", "-chain", "2", "-seed", "4"}, "-seed does not apply to a chain (-chain)"},
		{[]string{"-a", "3", "-chain", "2", "-plot", "x.svg"}, "-plot does not apply to a chain (-chain)"},
		{[]string{"-table", "3", "-games", "100"}, "-games does not apply to -table"},
		{[]string{"-verify", "-exact"}, "-exact does not apply to -verify"},
		{[]string{"-verify", "-a", "3", "-d", "2", "-exact"}, "-exact does not apply to -verify -d"},
		{[]string{"-verify", "-a", "3", "-chain", "2", "-exact"}, "-exact does not apply to -verify -chain"},
		{[]string{"-verify", "-a", "3", "-chain", "2", "-stop", "1"}, "-stop does not apply to -verify -chain"},
		{[]string{"-verify", "-table", "3", "-plot", "x.png"}, "give exactly one of"},
		{[]string{"-verify", "-plot", "x.png"}, "-plot does not apply to -verify"},
		{[]string{"-verify", "-a", "3"}, "-a does not apply to -verify without -d or -chain"},
		{[]string{"-verify", "-from", "3"}, "-from does not apply to -verify without -d or -chain"},
		{[]string{"-verify", "-stop", "3"}, "-stop does not apply to -verify without -d or -chain"},
		{[]string{"-rolls", "-rules", "classic", "-attacker-dice", "2"}, "-attacker-dice does not apply with -rules"},
		{[]string{"-rolls", "-rules", "classic", "-ties-attacker"}, "-ties-attacker does not apply with -rules"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, err := runOdds(t, tt.args...)
			assert.ErrorContains(t, err, tt.msg)
			assert.Empty(t, out, "output before the error")
		})
	}
	// A boolean flag given as false is no flag at all; the flags that do
	// apply are accepted.
	for _, args := range [][]string{
		{"-rolls", "-exact=false", "-json=false"},
		{"-verify=false", "-table", "2", "-exact", "-json"},
		{"-from", "4", "-d", "2", "-stop", "1", "-exact", "-json", "-attacker-dice", "2", "-ties-attacker"},
		{"-a", "4", "-chain", "2,1", "-exact", "-rules", "classic"},
		{"-verify", "-games", "20", "-seed", "2", "-alpha", "1e-9", "-json"},
		{"-verify", "-from", "4", "-d", "2", "-stop", "1", "-games", "20", "-seed", "2", "-alpha", "1e-9"},
	} {
		_, err := runOdds(t, args...)
		assert.NoError(t, err, "odds %v", args)
	}
}

// TestOddsVerifyHypothesis checks -verify with -a/-from and -d (and -stop)
// or -chain: one binomial test of that battle's or chain's win frequency
// with the engine's dice against its exact P(win).
func TestOddsVerifyHypothesis(t *testing.T) {
	t.Parallel()
	classic := dice.NewChainer(dice.Classic, 10)
	stop, err := dice.BattleStop(dice.Classic, 8, 5, 2)
	require.NoError(t, err)
	tests := []struct {
		args []string
		name string  // of the test
		p    float64 // the exact P(win)
		want []string
	}{
		{[]string{"-a", "5", "-d", "5"}, "battle 5 vs 5", classic.Win(5, []int{5}),
			[]string{"P(win) = 0.506203,", "for 5 attacking armies (a territory of 6) against 5 defenders, dice 3v2", "20000 battles"}},
		{[]string{"-from", "9", "-d", "5", "-stop", "2"}, "battle 8 vs 5 stop 2", stop.Win,
			[]string{"P(win) = 0.734190,", "(the attacker stops when its attacking armies fall to 2)"}},
		{[]string{"-a", "10", "-chain", "3,2,1"}, "chain 10 vs 3,2,1", classic.Win(10, []int{3, 2, 1}),
			[]string{"P(win) = 0.817051,", "along 3 territories with 3,2,1 defenders", "one army stays in each conquered territory", "20000 chains"}},
		{[]string{"-a", "2", "-chain", "1,1"}, "chain 2 vs 1,1", 625.0 / 2592, nil},
		// Certain outcomes: P(win) is 1 or 0, and the count must be exact.
		{[]string{"-a", "1", "-chain", "0,0"}, "chain 1 vs 0,0", 1, []string{"p 1.0000"}},
		{[]string{"-a", "1", "-chain", "0,1"}, "chain 1 vs 0,1", 0, []string{"p 1.0000"}},
		{[]string{"-a", "0", "-d", "4"}, "battle 0 vs 4", 0, []string{"p 1.0000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-verify", "-games", "20000", "-seed", "3"}, tt.args...)
			out, err := runOdds(t, args...)
			require.NoError(t, err, out)
			for _, want := range append(tt.want, "verify: H0: the engine's dice win with the exact probability",
				tt.name+" ", "H0 not rejected") {
				assert.Contains(t, out, want)
			}
			again, err := runOdds(t, args...)
			require.NoError(t, err)
			assert.Equal(t, out, again, "same seed")
			var got verifyJSON
			oddsJSON(t, &got, append(args, "-json")...)
			require.Len(t, got.Tests, 1)
			assert.Zero(t, got.Failed)
			assert.Equal(t, tt.name, got.Tests[0].Name)
			assert.True(t, strings.HasPrefix(got.Hypothesis, "P(win) = "), got.Hypothesis)
			assert.InDelta(t, tt.p, got.Tests[0].Expected[0]/20000, 1e-12, "expected win frequency")
		})
	}
}

// TestOddsVerifyHypothesisRejects checks that a false hypothesis fails:
// the exit status at a high -alpha, and the power of the test against the
// odds of another rules variant.
func TestOddsVerifyHypothesisRejects(t *testing.T) {
	t.Parallel()
	// At alpha 0.9 a true hypothesis is rejected 90 % of the time; seed 1
	// gives p = 0.42 for this battle.
	out, err := runOdds(t, "-verify", "-from", "9", "-d", "5", "-stop", "2", "-alpha", "0.9")
	assert.ErrorContains(t, err, "H0 rejected, p-value 0.4179 below alpha 0.9: P(win) = 0.734190 for 8 attacking armies")
	assert.Contains(t, out, "BELOW ALPHA")
	assert.NotContains(t, out, "not rejected")
	out, err = runOdds(t, "-verify", "-a", "10", "-chain", "3,2,1", "-alpha", "0.9", "-json")
	assert.ErrorContains(t, err, "H0 rejected", "chain at alpha 0.9")
	var got verifyJSON
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 1, got.Failed)
	// The engine's classic dice against the exact odds of ties to the
	// attacker: a wrong hypothesis, which the frequency must reject.
	ties := dice.Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}
	for _, args := range [][]string{{"-a", "5", "-d", "5"}, {"-a", "10", "-chain", "3,2,1"}} {
		var got verifyJSON
		oddsJSON(t, &got, append([]string{"-verify", "-json", "-games", "20000"}, args...)...)
		c := dice.NewChainer(ties, 10)
		var wrong float64
		if args[2] == "-d" {
			wrong = c.Win(5, []int{5})
		} else {
			wrong = c.Win(10, []int{3, 2, 1})
		}
		tt := got.Tests[0]
		bad, err := stats.BinomialZTest(tt.Observed[0], 20000, wrong)
		require.NoError(t, err)
		assert.Less(t, bad.P, 1e-6, "%v: classic dice told from ties to the attacker (P(win) %v)", args, wrong)
		// With -ties-attacker, the engine rolls the variant and agrees.
		_, err = runOdds(t, append([]string{"-verify", "-ties-attacker", "-games", "20000"}, args...)...)
		assert.NoError(t, err, "%v -ties-attacker", args)
	}
	// Cancelling stops the trials.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	assert.ErrorIs(t, run(ctx, registry.Default(), []string{"odds", "-verify", "-a", "5", "-d", "5"}, &b, &b), context.Canceled)
}

func TestOddsRulesFromSim(t *testing.T) {
	t.Parallel()
	out, err := runOdds(t, "-rules", "classic", "-a", "1", "-d", "1")
	require.NoError(t, err)
	assert.Contains(t, out, "P(attacker conquers) = 0.416667")
}

func FuzzParseDefenders(f *testing.F) {
	for _, s := range []string{"3,2,1", "0", " 4 , 5", "", ",", "1,,2", "-3", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defs, err := parseDefenders(s)
		if err != nil {
			return
		}
		require.NotEmpty(t, defs, "%q", s)
		require.LessOrEqual(t, len(defs), maxChain, "%q", s)
		for _, d := range defs {
			require.True(t, d >= 0 && d <= dice.MaxBattleArmies, "%q parsed to %d defenders", s, d)
		}
	})
}
