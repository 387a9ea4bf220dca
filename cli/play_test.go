package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestPlaySummary(t *testing.T) {
	t.Parallel()
	out, _, err := runCmd(t, "play", "-players", "aggressive,pacifist,passive,random,aggressive,random", "-seed", "7")
	require.NoError(t, err)
	for _, want := range []string{"seed 7", "rules mars2006 on map classic, 6 players", "seat", "place", "territories"} {
		assert.Contains(t, out, want)
	}
	assert.True(t, strings.Contains(out, "winner: seat") || strings.Contains(out, "stalemate after"),
		"summary names no winner or stalemate:\n%s", out)
	// The same seed prints the same game.
	again, _, err := runCmd(t, "play", "-players", "aggressive,pacifist,passive,random,aggressive,random", "-seed", "7")
	require.NoError(t, err)
	assert.Equal(t, out, again, "same seed")
}

func TestPlayLogReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "game.jsonl")
	for _, rules := range []string{"mars2006", "classic", "fixedcards", "missions"} {
		_, _, err := runCmd(t, "play", "-players", "aggressive,random,pacifist,random", "-seed", "3", "-rules", rules, "-log", log)
		require.NoError(t, err, rules)
		out, _, err := runCmd(t, "replay", log)
		require.NoError(t, err, "%s: replay of an untouched log", rules)
		require.Contains(t, out, "identical", rules)
	}
	// Tamper with one roll: the replay must fail and name the line.
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"e":"roll"`) && strings.Contains(l, `"def_loss":1`) {
			lines[i] = strings.Replace(l, `"def_loss":1`, `"def_loss":2`, 1)
			break
		}
	}
	require.NoError(t, os.WriteFile(log, []byte(strings.Join(lines, "\n")), 0o644))
	_, _, err = runCmd(t, "replay", log)
	require.ErrorContains(t, err, "replay differs", "tampered log")
	assert.ErrorContains(t, err, "line ", "tampered log")
}

func TestPlayErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"play", "-players", "aggressive"}, "2..6"},
		{[]string{"play", "-players", "nosuchbot,random"}, "nosuchbot"},
		{[]string{"play", "-rules", "nosuchrules"}, "nosuchrules"},
		{[]string{"replay"}, "replay: want one log file, have 0 arguments (marslab replay -h)"},
		{[]string{"nosuchcommand"}, "unknown command"},
	}
	for _, c := range cases {
		_, _, err := runCmd(t, c.args...)
		assert.ErrorContains(t, err, c.want, "%v", c.args)
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	a, _, err := runCmd(t, "map", "classic", "-json")
	require.NoError(t, err)
	b, _, err := runCmd(t, "map", "-json", "classic")
	require.NoError(t, err)
	assert.Equal(t, a, b, "map classic -json and map -json classic")
	assert.True(t, strings.HasPrefix(a, `{"territories":[{"name":"Alaska"`), "%.80s", a)
	_, _, err = runCmd(t, "map", "classic", "-nosuchflag")
	assert.ErrorContains(t, err, "flag provided but not defined: -nosuchflag", "an unknown flag after the argument")
}

// TestPlayExplainCounts checks that -explain ends with MARS's counts of
// its placement auctions, and that they add up with the auctions it
// narrated.
func TestPlayExplainCounts(t *testing.T) {
	t.Parallel()
	out, _, err := runCmd(t, "play", "-explain", "-players", "mars(hold_unit=percent),aggressive,random", "-seed", "3")
	require.NoError(t, err)
	i := strings.Index(out, "seat 0 mars(hold_unit=percent) counts:")
	require.GreaterOrEqual(t, i, 0, "no counts line")
	var off, def, zero, aoff, adef, unbid int
	_, err = fmt.Sscanf(out[i:], "seat 0 mars(hold_unit=percent) counts: place_offensive %d place_defensive %d place_zero %d armies_offensive %d armies_defensive %d armies_unbid %d",
		&off, &def, &zero, &aoff, &adef, &unbid)
	require.NoError(t, err)
	assert.Equal(t, strings.Count(out, "(offensive, goal")+strings.Count(out, "(defensive)"), off+def+zero, "one count per narrated auction")
	assert.Equal(t, strings.Count(out, "armies with b_d"), def+zero-strings.Count(out, "wins 0 armies with b_o"))
	assert.Positive(t, def)
	assert.NotContains(t, out, "seat 1 aggressive counts")
}
