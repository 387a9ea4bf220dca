package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	before, after, other := filepath.Join(dir, "before"), filepath.Join(dir, "after"), filepath.Join(dir, "other")
	out, err := runOut(t, "tournament", cfg, "-quiet", "-figures=false", "-out", before)
	require.NoError(t, err, out)
	// The same games with cautious's ratio changed.
	text := readText(t, cfg)
	changed := filepath.Join(dir, "t2.toml")
	require.NoError(t, os.WriteFile(changed, []byte(strings.Replace(text, `"cautious"`, `"cautious(ratio=1.1)"`, 1)), 0o644))
	out, err = runOut(t, "tournament", changed, "-quiet", "-figures=false", "-out", after)
	require.NoError(t, err, out)

	out, err = runOut(t, "compare", before, after, "-paper", "")
	require.NoError(t, err, out)
	assert.Contains(t, out, "## Paired comparison: "+before+" (before) and "+after+" (after), 8 games")
	assert.Contains(t, out, "| bot | games | win % before | win % after | difference (points) | 95 % interval | won only before | won only after |")
	assert.Contains(t, out, "| cautious → cautious(ratio=1.1) | 6 |")
	assert.Contains(t, out, "| rules | mars2006 | mars2006 |")

	// Comparing a run with itself: every difference is zero.
	out, err = runOut(t, "compare", before, before, "-paper", "", "-csv")
	require.NoError(t, err, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasPrefix(lines[0], "bot,bot_after,name,games,wins_before,"))
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		assert.Equal(t, "0", f[10], l)
	}

	// The paper's file gives ρ only over bots with a row: none here.
	out, err = runOut(t, "compare", before, after, "-paper", "../notebooks/paper-tournament/config.toml")
	require.NoError(t, err, out)
	assert.NotContains(t, out, "Spearman")

	// The default -paper is the repository's file from any folder in it
	// (the tests run in cli/); the default focus, mars, seats nothing here
	// and is dropped, while a -focus no seat plays is refused.
	out, err = runOut(t, "compare", before, after)
	require.NoError(t, err, out)
	_, err = runOut(t, "compare", before, after, "-paper", "", "-focus", "nosuchbot")
	assert.ErrorContains(t, err, `compare: tourney: focus "nosuchbot": no seat of `+before+` plays it`)
	t.Run("outside the repository", func(t *testing.T) {
		t.Chdir(t.TempDir())
		_, err := runOut(t, "compare", before, after)
		assert.ErrorContains(t, err, "-paper: the default notebooks/paper-tournament/config.toml is a file of the marslab repository, and the working directory is outside one")
	})

	// Another seed is not the same games.
	require.NoError(t, os.WriteFile(changed, []byte(strings.Replace(text, "seed = 5", "seed = 6", 1)), 0o644))
	out, err = runOut(t, "tournament", changed, "-quiet", "-figures=false", "-out", other)
	require.NoError(t, err, out)
	_, err = runOut(t, "compare", before, other, "-paper", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "compare: tourney: "+before+" and "+other+" are not paired runs: seed 5 vs 6")

	type badCase struct {
		name string
		args []string
		want string
	}
	for _, tc := range []badCase{
		{"one folder", []string{before}, "compare: want two output folders BEFORE AFTER, have 1 arguments"},
		{"missing folder", []string{before, filepath.Join(dir, "nope"), "-paper", ""}, "nope"},
		{"bad paper", []string{before, after, "-paper", cfg}, "compare: -paper: tourney: " + cfg + ": key paper.bots: missing"},
		{"permutations", []string{before, after, "-permutations", "10"}, "compare: -permutations 10: must be >= 1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runOut(t, append([]string{"compare"}, tc.args...)...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
