package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tournamentConfig writes a small tournament config (every 3-subset of 4
// baseline bots, twice: 8 games) into dir.
func tournamentConfig(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "t.toml")
	text := `bots = ["aggressive", "cautious", "random", "pacifist"]
players = 3
replications = 2
rules = "mars2006"
seed = 5
out = "` + filepath.ToSlash(filepath.Join(dir, "default-out")) + `"
`
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestTournamentCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	out, err := runOut(t, "tournament", cfg, "-figures=false")
	require.NoError(t, err, out)
	assert.Contains(t, out, "4 bots, 3 per game, x2: 8 games")
	assert.Contains(t, out, "## Table 5: placements per bot (8 games")
	assert.Contains(t, out, "| bot | 1st | 2nd | 3rd | Sm | games |")
	assert.Contains(t, out, "## Table 6")
	assert.Contains(t, out, "\ntables in "+filepath.Join(dir, "default-out"))
	assert.NotContains(t, out, "bots' own counts", "no baseline bot counts its play")
	def := filepath.Join(dir, "default-out")
	assert.Equal(t, 8, strings.Count(readText(t, filepath.Join(def, "games.jsonl")), "\n"))
	assert.FileExists(t, filepath.Join(def, "headtohead.csv"))
	assert.NoFileExists(t, filepath.Join(def, "figure3-wins.png"))

	// Shards, merged with marslab merge, then resumed for the tables, give
	// the files of the one-piece run.
	var shards []string
	for _, s := range []string{"0/2", "1/2"} {
		d := filepath.Join(dir, "s"+s[:1])
		out, err := runOut(t, "tournament", "-quiet", "-shard", s, "-workers", "1", "-out", d, cfg)
		require.NoError(t, err, out)
		shards = append(shards, d)
	}
	merged := filepath.Join(dir, "merged")
	out, err = runOut(t, append([]string{"merge", "-quiet", "-out", merged}, shards...)...)
	require.NoError(t, err, out)
	out, err = runOut(t, "tournament", cfg, "-quiet", "-resume", "-figures=false", "-out", merged)
	require.NoError(t, err, out)
	sameResults(t, def, merged)
	for _, f := range []string{"table5.md", "headtohead.md", "winrate.csv"} {
		assert.Equal(t, readText(t, filepath.Join(def, f)), readText(t, filepath.Join(merged, f)), f)
	}
}

func TestTournamentErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte(`bots = ["aggressive", "nosuch", "random"]
players = 3
replications = 1
rules = "mars2006"
seed = 1
out = "x"
`), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{nil, "tournament: want one CONFIG file, have 0 arguments"},
		{[]string{cfg, cfg}, "have 2 arguments"},
		{[]string{cfg, "-workers", "-1"}, "-workers -1: must be >= 0"},
		{[]string{cfg, "-shard", "3/2"}, "tournament: -shard: "},
		{[]string{filepath.Join(dir, "none.toml")}, "none.toml"},
		{[]string{bad}, `bad.toml: key bots: entry 1: seat "nosuch": unknown bot "nosuch" (registered: `},
	}
	for _, tt := range tests {
		_, err := runOut(t, append([]string{"tournament"}, tt.args...)...)
		assert.ErrorContains(t, err, tt.want, "tournament %v", tt.args)
	}
}

// TestTournamentBotCounts checks that the tournament prints MARS's own
// counts under its tables.
func TestTournamentBotCounts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.toml")
	require.NoError(t, os.WriteFile(path, []byte(`bots = ["mars", "aggressive", "random"]
players = 2
replications = 1
rules = "mars2006"
seed = 5
out = "`+filepath.ToSlash(filepath.Join(dir, "out"))+`"
`), 0o644))
	out, err := runOut(t, "tournament", path, "-figures=false")
	require.NoError(t, err, out)
	assert.Regexp(t, `bots' own counts: sum over their seat-games \(mean per seat-game\)\nbot +armies_defensive +armies_offensive +armies_unbid +place_defensive +place_offensive +place_zero\nmars +\d+ \(`, out)
	assert.Contains(t, readText(t, filepath.Join(dir, "out", "summary.json")), `"stats":{"armies_defensive":`)
}

// A tournament resumed under another config is refused as a tournament,
// naming the first key that differs.
func TestTournamentResumeOtherConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := tournamentConfig(t, dir)
	out := filepath.Join(dir, "o")
	_, err := runOut(t, "tournament", cfg, "-quiet", "-figures=false", "-out", out)
	require.NoError(t, err)
	b, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(string(b), "seed = 5", "seed = 6", 1)), 0o644))
	_, err = runOut(t, "tournament", cfg, "-quiet", "-figures=false", "-out", out, "-resume")
	assert.ErrorContains(t, err, filepath.Join(out, "config.json")+" was written by a different tournament (seed 5 vs 6; file vs this run): use the same settings or another output directory")
}
