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

// batchArgs are the flags of a small, fast batch.
var batchArgs = []string{"-players", "aggressive,random,aggressive", "-games", "30", "-seed", "3", "-quiet"}

func runOut(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), registry.Default(), args, &stdout, &stderr)
	return stdout.String() + stderr.String(), err
}

func batchIn(t *testing.T, dir string, extra ...string) {
	t.Helper()
	args := append([]string{"batch"}, batchArgs...)
	args = append(args, "-out", dir)
	out, err := runOut(t, append(args, extra...)...)
	require.NoError(t, err, "batch %v\n%s", extra, out)
}

func sameResults(t *testing.T, a, b string) {
	t.Helper()
	for _, name := range []string{"config.json", "games.jsonl", "summary.json"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b, name))
		require.NoError(t, err)
		assert.Equal(t, string(x), string(y), "%s differs between %s and %s", name, a, b)
	}
}

func TestBatchWorkersAndShards(t *testing.T) {
	base := t.TempDir()
	one := filepath.Join(base, "one")
	batchIn(t, one, "-workers", "1")
	lines := strings.Count(readText(t, filepath.Join(one, "games.jsonl")), "\n")
	require.Equal(t, 30, lines, "games.jsonl lines")
	two := filepath.Join(base, "two")
	batchIn(t, two, "-workers", "2")
	sameResults(t, one, two)

	// Shards from a Slurm array (--array=1-3), merged.
	var dirs []string
	for _, id := range []string{"1", "2", "3"} {
		t.Setenv("SLURM_ARRAY_TASK_ID", id)
		t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
		t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
		d := filepath.Join(base, "s"+id)
		batchIn(t, d)
		dirs = append(dirs, d)
	}
	assert.Contains(t, readText(t, filepath.Join(dirs[1], "config.json")), `"index": 1,`,
		"SLURM_ARRAY_TASK_ID=2 of 1-3 is shard 1/3")
	// An explicit -shard wins over the environment.
	t.Setenv("SLURM_ARRAY_TASK_ID", "junk")
	explicit := filepath.Join(base, "explicit")
	batchIn(t, explicit, "-shard", "1/3")
	sameResults(t, dirs[1], explicit)

	merged := filepath.Join(base, "merged")
	out, err := runOut(t, append([]string{"merge", "-out", merged}, dirs...)...)
	require.NoError(t, err, "merge\n%s", out)
	for _, want := range []string{"merged 3 shards: 30 games into " + merged, "aggressive  60", "random      30", "ms/turn"} {
		assert.Contains(t, out, want)
	}
	sameResults(t, one, merged)
}

func TestBatchTable(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "b")
	args := []string{"batch", "-players", "aggressive,random", "-games", "10", "-out", dir}
	out, err := runOut(t, args...)
	require.NoError(t, err, out)
	for _, want := range []string{
		"batch: 10 games (shard 0/1: 10), seed 1, rules mars2006 on map classic, 2 seats, out " + dir,
		"bot         games  wins  win rate  95% CI",
		"1st  2nd  stalemates  faults  rounds  ms/turn",
		"aggressive  10",
		"random      10",
		"10 games played in",
	} {
		assert.Contains(t, out, want)
	}
	// The same command again is refused; with -resume it plays nothing.
	_, err = runOut(t, args...)
	assert.ErrorContains(t, err, "use -resume", "rerun into a full directory")
	out, err = runOut(t, append(args, "-resume")...)
	require.NoError(t, err)
	assert.Contains(t, out, "resumed: 10 of 10 games were done, played 0")
}

func TestBatchFlagErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"-games", "0"}, nil, "-games 0: must be >= 1"},
		{[]string{"-workers", "-2"}, nil, "-workers -2: must be >= 0"},
		{[]string{"-shard", "3/3"}, nil, "-shard: shard \"3/3\": want 0 <= INDEX < COUNT"},
		{[]string{"-shard", "x"}, nil, "-shard: shard \"x\": want INDEX/COUNT"},
		{nil, map[string]string{"JOB_COMPLETION_INDEX": "2"}, "JOB_COMPLETIONS is not set"},
		{[]string{"-players", "aggressive"}, nil, "-players: 1 seats: must be 2..6"},
		{[]string{"-out", ""}, nil, "-out: an output directory is required"},
		{[]string{"extra"}, nil, `unexpected argument "extra"`},
		{[]string{"-rules", filepath.Join(dir, "nope.toml")}, nil, "-rules"},
	}
	for _, tt := range tests {
		for k, v := range tt.env {
			t.Setenv(k, v)
		}
		args := append([]string{"batch", "-quiet", "-games", "2", "-players", "random,random", "-out", filepath.Join(dir, "x")}, tt.args...)
		_, err := runOut(t, args...)
		assert.ErrorContains(t, err, tt.want, "%v", tt.args)
		for k := range tt.env {
			t.Setenv(k, "")
		}
	}
}

func TestBatchInterrupted(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "b")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C before the first game
	var stdout, stderr bytes.Buffer
	err := run(ctx, registry.Default(), []string{"batch", "-players", "random,random", "-games", "5", "-out", dir}, &stdout, &stderr)
	require.ErrorContains(t, err, "0 of 5 games")
	assert.ErrorContains(t, err, "-resume")
	assert.Contains(t, stdout.String(), "partial results (0 of 5 games)")
	_, err = runOut(t, "batch", "-quiet", "-players", "random,random", "-games", "5", "-out", dir, "-resume")
	require.NoError(t, err)
	assert.Equal(t, 5, strings.Count(readText(t, filepath.Join(dir, "games.jsonl")), "\n"), "games after resume")
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
