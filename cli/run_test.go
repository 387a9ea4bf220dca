package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runConfig writes a small main-run config (MARS's W_p and P_ob against
// two baseline bots, mars@paperfield validated beside the optimum) into
// dir.
func runConfig(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "run.toml")
	text := `name = "tiny-run"
base = "mars@paper"
players = 3
opponents = ["aggressive", "pacifist"]
rules = "mars2006"
seed = 4

[[param]]
name = "W_p"
min = 0.3
max = 0.95
points = 2

[[param]]
name = "P_ob"
min = 5
max = 5000
points = 2

[narrow]
levels = 2
rounds = 1
blocks = 1

[validate]
against = "mars@paper"
blocks = 4
seats = ["mars@paperfield"]
`
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// marslab run narrows, validates the optimum and the named seat against
// the reference, prints the verdicts and writes the report; a second run
// with -resume plays nothing and writes the same files.
func TestRunCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := runConfig(t, dir)
	out := filepath.Join(dir, "out")
	stdout, err := runOut(t, "run", cfg, "-out", out, "-workers", "2", "-figures=false")
	require.NoError(t, err, stdout)
	assert.Regexp(t, "The paper's values? of (W_p|P_ob)", stdout)
	assert.Contains(t, stdout, "`mars@paperfield` is ")
	assert.Contains(t, stdout, "`narrowing optimum W_p=")
	assert.Contains(t, stdout, "The validation's 4 blocks detect a difference of ")
	files := map[string][]byte{}
	for _, f := range []string{"report.md", "outcome.md", "validation.csv", "narrow/cells.csv", "narrow/log.jsonl", "validate/log.jsonl"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		require.NoError(t, err, f)
		files[f] = data
	}
	report := string(files["report.md"])
	assert.Contains(t, report, "## Verdicts")
	assert.Contains(t, report, "| W_p | 0.7375 | 0.7375 |")

	_, err = runOut(t, "run", cfg, "-out", out, "-workers", "1", "-figures=false")
	require.Error(t, err, "a complete run without -resume")
	stdout2, err := runOut(t, "run", cfg, "-out", out, "-workers", "1", "-figures=false", "-resume")
	require.NoError(t, err)
	verdicts := func(s string) string { return s[:strings.Index(s, "report in ")] }
	assert.Equal(t, verdicts(stdout), verdicts(stdout2))
	assert.NotContains(t, stdout2, "games/s", "nothing left to play")
	for f, want := range files {
		got, err := os.ReadFile(filepath.Join(out, f))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), f)
	}
}

// A config without a [validate] table is refused, naming it.
func TestRunCommandNeedsValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.toml")
	data, err := os.ReadFile(runConfig(t, dir))
	require.NoError(t, err)
	i := len(data) - len("[validate]\nagainst = \"mars@paper\"\nblocks = 4\nseats = [\"mars@paperfield\"]\n")
	require.NoError(t, os.WriteFile(path, data[:i], 0o644))
	_, err = runOut(t, "run", path, "-out", filepath.Join(dir, "o"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no [validate] table")
}

// marslab run searches by SPSA when the config has an [spsa] table and no
// [narrow] one, validates its recommendation and the seat, and -seed
// replaces the config's seed: the same seed gives the same log, another
// another one.
func TestRunCommandMethodSeed(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(runConfig(t, dir))
	require.NoError(t, err)
	text := strings.Replace(string(data), "[narrow]\nlevels = 2\nrounds = 1\nblocks = 1\n",
		"[spsa]\niterations = 2\nblocks = 1\na = 0.5\nc = 0.1\nfinal_blocks = 1\n", 1)
	path := filepath.Join(dir, "spsa.toml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	logs := map[string]string{}
	for _, tc := range []struct{ seed, out string }{{"5", "a"}, {"5", "b"}, {"6", "c"}} {
		out := filepath.Join(dir, tc.out)
		stdout, err := runOut(t, "run", path, "-seed", tc.seed, "-out", out, "-workers", "2", "-figures=false")
		require.NoError(t, err, stdout)
		assert.Contains(t, stdout, "`spsa recommendation` is ")
		assert.Contains(t, stdout, "`mars@paperfield` is ")
		report := readText(t, filepath.Join(out, "report.md"))
		assert.Contains(t, report, "searched by spsa, validated against `mars@paper`")
		assert.Contains(t, report, "seed "+tc.seed+".")
		logs[tc.out] = readText(t, filepath.Join(out, "search", "log.jsonl")) + readText(t, filepath.Join(out, "validate", "log.jsonl"))
		assert.Contains(t, readText(t, filepath.Join(out, "search", "config.json")), `"seed": `+tc.seed+",")
		assert.FileExists(t, filepath.Join(out, "search", "best.toml"))
	}
	assert.Equal(t, logs["a"], logs["b"])
	_, err = runOut(t, "run", path, "-seed", "-3", "-out", filepath.Join(dir, "d"))
	assert.ErrorContains(t, err, "-seed -3: must be >= 0")
}
