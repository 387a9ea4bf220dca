package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func runBots(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), registry.Default(), append([]string{"bots"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestBotsList(t *testing.T) {
	t.Parallel()
	out, _, err := runBots(t)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"BOT", "aggressive", "angry", "bort", "boscoe", "cautious", "cluster", "communist", "constrained", "evilpixie", "mars", "mcts", "mission", "mission-greedy", "pacifist", "passive", "pixie", "quo", "random", "shaft", "stinky", "vulture", "yakool"}
	require.Len(t, lines, len(want), out)
	for i, w := range want {
		assert.Equal(t, w, strings.Fields(lines[i])[0], "line %d: %q", i, lines[i])
	}
	// The parameter counts.
	for _, c := range []struct{ line, count string }{{lines[1], "0"}, {lines[5], "1"}, {lines[8], "1"}, {lines[11], "9"}, {lines[12], "2"}, {lines[13], "1"}, {lines[18], "1"}, {lines[20], "3"}} {
		assert.Equal(t, c.count, strings.Fields(c.line)[1], "%q: params", c.line)
	}
}

func TestBotsParams(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "calm.toml")
	require.NoError(t, os.WriteFile(file, []byte("bot = \"random\"\n[params]\nstop = 0.9\n"), 0o644))
	tests := []struct {
		args  []string
		label string
		value string
	}{
		{[]string{"-params", "random"}, "random", "0.2"},
		{[]string{"-params", "random(stop=0.5)"}, "random(stop=0.5)", "0.5"},
		{[]string{"-params", "random(stop=0.5)", "-param", "random.stop=0.75"}, "random(stop=0.75)", "0.75"},
		{[]string{"-params", "random@" + file}, "random@calm", "0.9"},
	}
	for _, tt := range tests {
		out, _, err := runBots(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 3, "%v:\n%s", tt.args, out)
		assert.True(t, strings.HasPrefix(lines[0], tt.label+": "), "%v: first line %q, want label %q", tt.args, lines[0], tt.label)
		f := strings.Fields(lines[2])
		want := []string{"stop", tt.value, "0.2", "[0,", "1]", "linear", "-", "probability"}
		require.GreaterOrEqual(t, len(f), len(want), "%v: parameter line %q", tt.args, lines[2])
		assert.Equal(t, want, f[:len(want)], "%v: parameter line %q", tt.args, lines[2])
	}

	out, _, err := runBots(t, "-params", "aggressive")
	require.NoError(t, err)
	assert.Contains(t, out, "no parameters")
	out, _, err = runBots(t, "-params", "mars")
	require.NoError(t, err)
	assert.Contains(t, out, "W_p ")
	assert.Contains(t, out, "integer")
}

func TestBotsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-params", "lux"}, `unknown bot "lux"`},
		{[]string{"-params", "passive(x=1)"}, `bot "passive" takes no parameters`},
		{[]string{"-params", "random", "-param", "random.stop=2"}, `parameter override random.stop = 2: must be in [0, 1] (set with -param)`},
		{[]string{"-params", "random", "-param", "lux.x=2"}, `unknown bot "lux"`},
		{[]string{"-params", "random", "-param", "stop=2"}, `want bot.K=V`},
		{[]string{"-param", "random.stop=0.5"}, `-param needs -params NAME`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-nosuchflag"}, `flag provided but not defined`},
	}
	for _, tt := range tests {
		_, _, err := runBots(t, tt.args...)
		assert.ErrorContains(t, err, tt.want, "%v", tt.args)
	}
}
