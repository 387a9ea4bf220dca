package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"marslab/bots/registry"
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
	if out, err := runOut(t, append(args, extra...)...); err != nil {
		t.Fatalf("batch %v: %v\n%s", extra, err, out)
	}
}

func sameResults(t *testing.T, a, b string) {
	t.Helper()
	for _, name := range []string{"config.json", "games.jsonl", "summary.json"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
}

func TestBatchWorkersAndShards(t *testing.T) {
	base := t.TempDir()
	one := filepath.Join(base, "one")
	batchIn(t, one, "-workers", "1")
	lines := strings.Count(readText(t, filepath.Join(one, "games.jsonl")), "\n")
	if lines != 30 {
		t.Fatalf("games.jsonl has %d lines, want 30", lines)
	}
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
	if got := readText(t, filepath.Join(dirs[1], "config.json")); !strings.Contains(got, `"index": 1,`) {
		t.Errorf("SLURM_ARRAY_TASK_ID=2 of 1-3 is not shard 1/3:\n%s", got)
	}
	// An explicit -shard wins over the environment.
	t.Setenv("SLURM_ARRAY_TASK_ID", "junk")
	explicit := filepath.Join(base, "explicit")
	batchIn(t, explicit, "-shard", "1/3")
	sameResults(t, dirs[1], explicit)

	merged := filepath.Join(base, "merged")
	out, err := runOut(t, append([]string{"merge", "-out", merged}, dirs...)...)
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	for _, want := range []string{"merged 3 shards: 30 games into " + merged, "aggressive  60", "random      30", "ms/turn"} {
		if !strings.Contains(out, want) {
			t.Errorf("merge output lacks %q:\n%s", want, out)
		}
	}
	sameResults(t, one, merged)
}

func TestBatchTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	args := []string{"batch", "-players", "aggressive,random", "-games", "10", "-out", dir}
	out, err := runOut(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"batch: 10 games (shard 0/1: 10), seed 1, rules mars2006 on map classic, 2 seats, out " + dir,
		"bot         games  wins  win rate  95% CI",
		"1st  2nd  stalemates  faults  rounds  ms/turn",
		"aggressive  10",
		"random      10",
		"10 games played in",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The same command again is refused; with -resume it plays nothing.
	_, err = runOut(t, args...)
	if err == nil || !strings.Contains(err.Error(), "use -resume") {
		t.Errorf("rerun into a full directory: got %v", err)
	}
	out, err = runOut(t, append(args, "-resume")...)
	if err != nil || !strings.Contains(out, "resumed: 10 of 10 games were done, played 0") {
		t.Errorf("resume of a complete batch: %v\n%s", err, out)
	}
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
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: want error containing %q, got %v", tt.args, tt.want, err)
		}
		for k := range tt.env {
			t.Setenv(k, "")
		}
	}
}

func TestBatchInterrupted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C before the first game
	var stdout, stderr bytes.Buffer
	err := run(ctx, registry.Default(), []string{"batch", "-players", "random,random", "-games", "5", "-out", dir}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "0 of 5 games") || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("want an interruption error, got %v", err)
	}
	if !strings.Contains(stdout.String(), "partial results (0 of 5 games)") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	if _, err := runOut(t, "batch", "-quiet", "-players", "random,random", "-games", "5", "-out", dir, "-resume"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(readText(t, filepath.Join(dir, "games.jsonl")), "\n"); n != 5 {
		t.Errorf("after resume: %d games, want 5", n)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
