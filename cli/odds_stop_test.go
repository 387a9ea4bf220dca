package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOddsOptimal(t *testing.T) {
	out, err := runOdds(t, "-optimal", "-a", "1", "-d", "1", "-territory", "2", "-army", "1", "-exact")
	require.NoError(t, err)
	// One roll of 1 against 1 wins 15/36: rolling is worth 15/36 · 3 = 5/4
	// against 1 for stopping.
	assert.Contains(t, out, "optimal expected utility = 1.250000\n                         = 5/4\n")
	assert.Contains(t, out, "never attacking:           1.000000")
	assert.Contains(t, out, "territory 1 (1 defenders)\n x\\y  1\n   1  R\n")

	var j optimalJSON
	dir := t.TempDir()
	png, svg := filepath.Join(dir, "policy.png"), filepath.Join(dir, "loss.svg")
	oddsJSON(t, &j, "-optimal", "-a", "10", "-chain", "3,2,1", "-territory", "1", "-army", "0.3",
		"-wp1", "0.25", "-wp", "0.7375", "-json", "-plot", png, "-plot-loss", svg)
	assert.Equal(t, []int{3, 2, 1}, j.Defenders)
	assert.InDelta(t, 4.425327, j.Value, 1e-6)
	assert.InDelta(t, 3, j.Never, 1e-12)
	require.NotNil(t, j.MARS)
	assert.InDelta(t, j.Value-j.MARS.Value, j.MARS.Loss, 1e-12)
	assert.Greater(t, j.MARS.Loss, 0.0)
	assert.GreaterOrEqual(t, j.BestWLoss, 0.0)
	assert.Equal(t, 2.0, j.Thresholds[len(j.Thresholds)-1].W, "never rolling comes last")
	assert.NotEmpty(t, j.Policy)
	for _, f := range []string{png, svg} {
		fi, err := os.Stat(f)
		require.NoError(t, err)
		assert.Greater(t, fi.Size(), int64(1000), f)
	}

	// The probability target.
	oddsJSON(t, &j, "-optimal", "-a", "8", "-d", "5", "-goal", "1", "-keep", "3", "-json")
	assert.InDelta(t, 0.628716, j.Value, 1e-6)
	assert.True(t, j.IsThresh)
}

func TestOddsDefend(t *testing.T) {
	out, err := runOdds(t, "-defend", "12", "-k", "4", "-a", "20")
	require.NoError(t, err)
	assert.Contains(t, out, "optimal allocation (first attacked first): 2,2,2,6\n")
	assert.Contains(t, out, "P(attacker conquers the whole path) = 0.895363\n")
	assert.Contains(t, out, "165 allocations; branch and bound")
	var j defendJSON
	oddsJSON(t, &j, "-defend", "12", "-k", "4", "-a", "20", "-exhaustive", "-json")
	assert.Equal(t, 165, j.Leaves)
	assert.InDelta(t, 0.895363, j.Win, 1e-6)
	require.Len(t, j.Others, 4)
	for _, o := range j.Others {
		assert.GreaterOrEqual(t, o.Win, j.Win-1e-15, o.Name)
	}
}

func TestOddsOptimalErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-optimal", "-a", "3"}, "-optimal needs a battle (-d) or a chain (-chain)"},
		{[]string{"-optimal", "-a", "3", "-d", "2"}, "-optimal needs a utility"},
		{[]string{"-optimal", "-a", "3", "-d", "2", "-territory", "1", "-wp1", "0.2"}, "-wp1 and -wp go together"},
		{[]string{"-optimal", "-a", "3", "-d", "2", "-territory", "1", "-wp1", "2", "-wp", "0.5"}, "thresholds are probabilities"},
		{[]string{"-optimal", "-a", "3", "-d", "2", "-goal", "2"}, "goal 2 territories outside [0, 1]"},
		{[]string{"-optimal", "-a", "3", "-chain", "2,0", "-territory", "1"}, "defenders of territory 2: 0 outside [1, 2000]"},
		{[]string{"-optimal", "-a", "50", "-d", "2", "-territory", "1", "-exact"}, "up to 40 attacking armies"},
		{[]string{"-optimal", "-a", "3", "-d", "2", "-territory", "1", "-stop", "1"}, "-stop does not apply to -optimal"},
		{[]string{"-a", "3", "-d", "2", "-territory", "1"}, "-territory does not apply to a battle (-d)"},
		{[]string{"-defend", "3", "-k", "4", "-a", "5"}, "defending armies 3 outside [4, 200]"},
		{[]string{"-defend", "3", "-k", "2"}, "need -a"},
		{[]string{"-defend", "60", "-k", "10", "-a", "5", "-exhaustive"}, "more than 2e+06 allocations"},
		{[]string{"-defend", "6", "-k", "2", "-a", "5", "-d", "3"}, "give exactly one of"},
		{[]string{"-defend", "6", "-k", "2", "-a", "5", "-territory", "1"}, "-territory does not apply to -defend"},
	} {
		_, err := runOdds(t, tt.args...)
		assert.ErrorContains(t, err, tt.msg, "odds %v", tt.args)
	}
}

func TestOddsSides(t *testing.T) {
	out, err := runOdds(t, "-rolls", "-sides", "8")
	require.NoError(t, err)
	assert.Contains(t, out, "single rolls, dice 3v2 d8: exact counts over 8^n")
	assert.Contains(t, out, "1v1   attacker wins          28/64 ")
	out, err = runOdds(t, "-a", "1", "-d", "1", "-sides", "2", "-exact")
	require.NoError(t, err)
	assert.Contains(t, out, "= 1/4\n", "a coin against a coin: the attacker needs 2 against 1")
	_, err = runOdds(t, "-rolls", "-sides", "13")
	assert.ErrorContains(t, err, "13-sided dice outside [2, 12]")
	_, err = runOdds(t, "-verify", "-sides", "8", "-games", "10")
	assert.ErrorContains(t, err, "the engine rolls six-sided dice")
	_, err = runOdds(t, "-rolls", "-rules", "classic", "-sides", "8")
	assert.ErrorContains(t, err, "-sides does not apply with -rules")
}

func TestOddsOptimalPath(t *testing.T) {
	// The whole path of one territory worth 2 beside an army worth 1: as
	// -territory 2 (15/36 · 3 = 5/4 against 1).
	out, err := runOdds(t, "-optimal", "-a", "1", "-d", "1", "-path", "2", "-army", "1", "-exact")
	require.NoError(t, err)
	assert.Contains(t, out, "utility: territory 0, army 1, kill 0, path 2\n")
	assert.Contains(t, out, "= 5/4\n")
}
