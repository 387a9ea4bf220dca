package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/outdir"
)

// tinySearch returns the search of testdata/tiny.toml in dir on workers;
// its report, report.md, names the best cell of the narrowing.
func tinySearch(t testing.TB, dir string, workers int) (*Search[*Narrowing], *Setup) {
	t.Helper()
	cfg, err := LoadConfig("testdata/tiny.toml")
	require.NoError(t, err)
	setup, err := cfg.Resolve(registry.Default())
	require.NoError(t, err)
	setup.Field.Workers = workers
	ncfg, err := setup.NarrowConfig()
	require.NoError(t, err)
	s := &Search[*Narrowing]{Dir: dir, Config: setup.Fingerprint("narrow"), Eval: setup.Field,
		New: func() (*Narrowing, error) { return NewNarrowing(ncfg) }}
	s.Report = func(n *Narrowing) error {
		best, _ := n.Best()
		return os.WriteFile(filepath.Join(dir, "report.md"), []byte("Best cell "+ncfg.Space.Label(best.X)+"\n"), 0o644)
	}
	return s, setup
}

func readLog(t testing.TB, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "log.jsonl"))
	require.NoError(t, err)
	return string(b)
}

// cancelAfter wraps an evaluator and cancels the run after n results.
type cancelAfter struct {
	Evaluator
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Evaluate(ctx context.Context, evals []Eval, emit func(int, Result) error) (int, error) {
	return c.Evaluator.Evaluate(ctx, evals, func(k int, r Result) error {
		if c.n == 0 {
			c.cancel()
			return context.Canceled
		}
		c.n--
		return emit(k, r)
	})
}

func TestLogIdenticalWorkersShardsResume(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()

	one, _ := tinySearch(t, filepath.Join(root, "one"), 1)
	st, err := one.Run(ctx, false)
	require.NoError(t, err)
	require.True(t, st.Complete())
	want := readLog(t, one.Dir)
	// 2 levels x 2 rounds; level 1: 3 cells x 2 blocks x 2 rounds = 12 lines at least.
	require.GreaterOrEqual(t, st.Lines, 12)
	report, err := os.ReadFile(filepath.Join(one.Dir, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "Best cell")

	two, _ := tinySearch(t, filepath.Join(root, "two"), 2)
	_, err = two.Run(ctx, false)
	require.NoError(t, err)
	assert.Equal(t, want, readLog(t, two.Dir), "1 vs 2 workers")

	// Shards and merges, three shards per step.
	for _, n := range []int{1, 3} {
		sh, _ := tinySearch(t, filepath.Join(root, "shards", string(rune('0'+n))), 2)
		steps, err := sh.Steps()
		require.NoError(t, err)
		require.Equal(t, 4, steps)
		for s := 0; s < steps; s++ {
			for i := 0; i < n; i++ {
				_, err := sh.RunShard(ctx, arena.Shard{Index: i, Count: n}, true)
				require.NoError(t, err)
			}
			st, err := sh.Merge()
			require.NoError(t, err)
			assert.Equal(t, s == steps-1, st.Complete())
		}
		assert.Equal(t, want, readLog(t, sh.Dir), "%d shards", n)
		assert.FileExists(t, filepath.Join(sh.Dir, "report.md"))
		assert.NoDirExists(t, filepath.Join(sh.Dir, "shards", "step-3"))
	}

	// Interrupted after 5 evaluations, then resumed.
	res, _ := tinySearch(t, filepath.Join(root, "resume"), 2)
	cctx, cancel := context.WithCancel(ctx)
	inner := res.Eval
	res.Eval = &cancelAfter{Evaluator: inner, n: 5, cancel: cancel}
	st, err = res.Run(cctx, false)
	require.Error(t, err)
	require.Equal(t, 5, st.Lines)
	_, err = res.Run(ctx, false)
	require.ErrorIs(t, err, outdir.ErrHoldsRun, "a second run without resume is refused")
	assert.EqualError(t, err, "search: "+res.Dir+" already holds a search (log.jsonl, 5 evaluations)")
	res.Eval = inner
	_, err = res.Run(ctx, true)
	require.NoError(t, err)
	assert.Equal(t, want, readLog(t, res.Dir), "resumed")
}

func TestShardResumeAndRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s, setup := tinySearch(t, dir, 1)
	// A shard interrupted after one evaluation is completed by -resume.
	cctx, cancel := context.WithCancel(ctx)
	inner := s.Eval
	s.Eval = &cancelAfter{Evaluator: inner, n: 1, cancel: cancel}
	_, err := s.RunShard(cctx, arena.Shard{Index: 0, Count: 2}, false)
	require.Error(t, err)
	s.Eval = inner
	_, err = s.RunShard(ctx, arena.Shard{Index: 0, Count: 2}, false)
	require.ErrorIs(t, err, outdir.ErrHoldsRun)
	assert.EqualError(t, err, "search: "+dir+" already holds a search shard ("+filepath.Join("shards", "step-0", "shard-0-of-2.jsonl")+")")
	_, err = s.Merge()
	require.ErrorContains(t, err, "shard-1-of-2.jsonl is missing")
	_, err = s.RunShard(ctx, arena.Shard{Index: 1, Count: 2}, true)
	require.NoError(t, err)
	_, err = s.Merge()
	require.ErrorContains(t, err, "incomplete", "shard 0 was interrupted")
	_, err = s.RunShard(ctx, arena.Shard{Index: 0, Count: 2}, true)
	require.NoError(t, err)

	// A shard file of another config is refused by name.
	other := *setup.Config
	other.Seed = 8
	os2, err := other.Resolve(registry.Default())
	require.NoError(t, err)
	bad := &Search[*Narrowing]{Dir: filepath.Join(t.TempDir()), Config: os2.Fingerprint("narrow"), New: s.New, Eval: os2.Field}
	_, err = bad.RunShard(ctx, arena.Shard{Index: 1, Count: 2}, false)
	require.NoError(t, err)
	data, err := os.ReadFile(bad.shardPath(0, arena.Shard{Index: 1, Count: 2}))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(s.shardPath(0, arena.Shard{Index: 1, Count: 2}), data, 0o644))
	_, err = s.Merge()
	require.ErrorContains(t, err, "shard-1-of-2.jsonl: written by a different search config")
	require.ErrorIs(t, err, ErrOtherConfig, "the advice keyed on it fires for a stale shard too")

	// So is a directory of another config.
	bad.Dir = dir
	_, err = bad.Run(ctx, true)
	require.ErrorContains(t, err, "config.json: written by a different search config")
	require.ErrorIs(t, err, ErrOtherConfig)
}

func TestRunInterruptedKeepsLog(t *testing.T) {
	t.Parallel()
	s, _ := tinySearch(t, t.TempDir(), 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := s.Run(ctx, false)
	require.Error(t, err)
	assert.True(t, errors.Is(err, arena.ErrInterrupted), "%v", err)
	assert.Equal(t, 0, st.Lines)
}

// TestResumeLineEndings: a log with CRLF line endings or white space
// around a line is refused on resume with the file and line, and left as
// it is (a resumed log stays byte-identical to an uninterrupted one).
func TestResumeLineEndings(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	src, _ := tinySearch(t, t.TempDir(), 1)
	src.Eval = &cancelAfter{Evaluator: src.Eval, n: 3, cancel: cancel}
	_, err := src.Run(ctx, false)
	require.Error(t, err)
	log := readLog(t, src.Dir)
	require.Equal(t, 4, strings.Count(log, "\n"), "the header and 3 evaluations")
	for _, tc := range []struct{ name, log, want string }{
		{"crlf", strings.ReplaceAll(log, "\n", "\r\n"), ":1: ends in CRLF"},
		{"crlf last", strings.TrimSuffix(log, "\n") + "\r\n", ":4: ends in CRLF"},
		{"trailing space", strings.Replace(log, "\n", " \n", 1), ":1: leading or trailing white space"},
		{"trailing space evaluation", strings.Replace(log, "]}\n", "]} \n", 1), ":2: leading or trailing white space"},
		{"trailing tab", strings.TrimSuffix(log, "\n") + "\t\n", ":4: leading or trailing white space"},
		{"leading space", " " + log, ":1: leading or trailing white space"},
	} {
		s, _ := tinySearch(t, t.TempDir(), 1)
		require.NoError(t, os.MkdirAll(s.Dir, 0o755))
		config, err := os.ReadFile(filepath.Join(src.Dir, "config.json"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(s.Dir, "config.json"), config, 0o644))
		path := filepath.Join(s.Dir, "log.jsonl")
		require.NoError(t, os.WriteFile(path, []byte(tc.log), 0o644))
		_, err = s.Run(context.Background(), true)
		assert.ErrorContains(t, err, "search: "+path+tc.want, tc.name)
		assert.Equal(t, tc.log, readLog(t, s.Dir), tc.name)
	}
}

func arenaShard(i, n int) arena.Shard { return arena.Shard{Index: i, Count: n} }

func TestProgressLine(t *testing.T) {
	t.Parallel()
	s, _ := tinySearch(t, t.TempDir(), 1)
	var buf strings.Builder
	s.Progress, s.Label = &buf, "sweep"
	_, err := s.Run(context.Background(), false)
	require.NoError(t, err)
	out := buf.String()
	assert.Contains(t, out, "] sweep step 1/4: 3/")
	assert.Contains(t, out, "] sweep step 4/4: ")
	assert.True(t, strings.HasSuffix(out, "\n"), "the line is ended")
}

// A search in memory draws the same progress as a logged one: every step
// named, the games counted, the line ended; it calls Step after each step
// with the method's status, and Report at the end, and writes no file.
func TestPlayInMemoryProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, setup := tinySearch(t, filepath.Join(dir, "unused"), 1)
	s.Dir = ""
	var buf strings.Builder
	var steps []int
	var last string
	s.Step = func(step, n int, status string) {
		assert.Equal(t, 4, n)
		steps, last = append(steps, step), status
	}
	reported := 0
	s.Report = func(*Narrowing) error { reported++; return nil }
	s.Progress, s.Label, s.Players = &buf, "narrow", setup.Field.Players
	st, err := s.Run(context.Background(), false)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3}, steps)
	assert.Equal(t, st.Method.status(), last)
	assert.Contains(t, last, "done: 2 levels")
	assert.True(t, st.Complete())
	assert.GreaterOrEqual(t, st.Lines, 12, "the evaluations played")
	assert.Equal(t, 1, reported)
	assert.NoDirExists(t, filepath.Join(dir, "unused"))
	out := buf.String()
	assert.Contains(t, out, "] narrow step 1/4: ")
	assert.Contains(t, out, "] narrow step 4/4: ")
	assert.True(t, strings.HasSuffix(out, "\n"), "the line is ended")
}
