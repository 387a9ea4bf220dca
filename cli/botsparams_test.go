package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// TestBotsParamsEmbedded lists an embedded parameter set from a directory
// holding no configuration files.
func TestBotsParamsEmbedded(t *testing.T) {
	t.Chdir(t.TempDir())
	out, _, err := runBots(t, "-params", "mars@paper")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 23)
	assert.Equal(t, "embedded parameter sets (mars@SET): paper, paperfield, robust, strong, tuned", lines[22])
	assert.True(t, strings.HasPrefix(lines[0], "mars@paper: "), lines[0])
	assert.Equal(t, []string{"PARAM", "VALUE", "DEFAULT", "RANGE", "SCALE", "CHOICES", "MEANING"}, strings.Fields(lines[1]))
	assert.Equal(t, []string{"P_db", "3.5", "3.5", "[0.01,", "10000]", "log", "-"}, strings.Fields(lines[2])[:7])
	assert.Equal(t, []string{"W_p", "0.7375", "0.7375", "[0,", "1]", "linear", "-"}, strings.Fields(lines[4])[:7])
	assert.Equal(t, []string{"goal_paths", "all", "all", "[0,", "1]", "integer", "choice", "all|shortest"}, strings.Fields(lines[16])[:8])
	assert.Equal(t, []string{"attack_targets", "goals", "goals", "[0,", "1]", "integer", "choice", "any|goals"}, strings.Fields(lines[19])[:8])
	assert.Equal(t, []string{"stop", "threshold", "threshold", "[0,", "1]", "integer", "choice", "threshold|optimal"}, strings.Fields(lines[20])[:8])
	assert.Equal(t, []string{"stop_stats", "0", "0", "[0,", "1]", "integer", "linear", "-"}, strings.Fields(lines[21])[:8])

	// An embedded set lists its own values beside the defaults.
	set, err := registry.Default().ParseSeat("mars@paperfield", nil)
	require.NoError(t, err)
	out, _, err = runBots(t, "-params", "mars@paperfield")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^W_p +`+regexp.QuoteMeta(bots.FormatNum(set.Params["W_p"]))+` +0\.7375 `, out)
	assert.Regexp(t, `(?m)^P_ob +`+regexp.QuoteMeta(bots.FormatNum(set.Params["P_ob"]))+` +170 `, out)
}

// TestBotsParamsChoices lists a parameter with named choices by name.
func TestBotsParamsChoices(t *testing.T) {
	t.Parallel()
	reg := bots.NewRegistry()
	require.NoError(t, reg.Register(bots.Factory{
		Name: "choosy",
		Doc:  "test bot",
		Params: []bots.Param{{Name: "goal_value", Min: 0, Max: 1, Integer: true,
			Choices: []string{"sum", "target"}, Doc: "goal valuation"}},
		New: func(bots.Values) (sim.Player, error) { return &sim.BasePlayer{}, nil },
	}))
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), reg, []string{"bots", "-params", "choosy(goal_value=target)"}, &stdout, &stderr)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, "choosy(goal_value=target): test bot", lines[0])
	assert.Equal(t, []string{"goal_value", "target", "sum", "[0,", "1]", "integer", "choice", "sum|target", "goal", "valuation"}, strings.Fields(lines[2]))

	err = run(context.Background(), reg, []string{"bots", "-params", "choosy", "-param", "choosy.goal_value=best"}, &stdout, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `parameter override choosy.goal_value = best: "best" is not a choice: must be one of sum, target`)
}
