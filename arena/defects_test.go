package arena

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewriteLine replaces line no (1-based) of dir/games.jsonl by the
// canonical encoding of the record change makes of it.
func rewriteLine(t *testing.T, dir string, no int, change func(r *Record)) {
	t.Helper()
	path := filepath.Join(dir, gamesFile)
	lines := bytes.SplitAfter(readFile(t, dir, gamesFile), []byte{'\n'})
	r, err := ParseRecord(bytes.TrimSuffix(lines[no-1], []byte{'\n'}), len(testSeats))
	require.NoError(t, err)
	change(&r)
	lines[no-1] = append(r.AppendJSON(nil), '\n')
	require.NoError(t, os.WriteFile(path, bytes.Join(lines, nil), 0o644))
}

var testSeats = []string{"aggressive", "random", "aggressive", "random"}

// copyDir copies the regular files of src to a new directory dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dst, 0o755))
	ents, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range ents {
		require.NoError(t, os.WriteFile(filepath.Join(dst, e.Name()), readFile(t, src, e.Name()), 0o644))
	}
}

// impossible are records no game under the test rules (round limit 100, 4
// seats) can produce, each with the error that must name it.
var impossible = []struct {
	name   string
	change func(r *Record)
	err    string
}{
	{"rounds above the limit", func(r *Record) { r.Rounds, r.Turns = 101, 300 }, "rounds 101: above the rules' round limit 100"},
	{"no turns", func(r *Record) { r.Turns = 0 }, "turns 0 in"},
	{"no rounds", func(r *Record) { r.Rounds = 0 }, "rounds 0: a game has at least one round"},
	{"more turns than seats play", func(r *Record) { r.Turns = 4*r.Rounds + 1 }, "rounds of 4 seats"},
	{"stalemate before the limit", func(r *Record) {
		r.Winner, r.Stalemate, r.Rounds, r.Turns = -1, true, 99, 300
	}, "stalemate in round 99: the round limit is 100"},
	{"winner not a seat", func(r *Record) { r.Winner = 4 }, "winner 4: want -1..3"},
	{"placements not a permutation", func(r *Record) { r.Placements = []int{1, 1, 2, 3} }, "want a permutation of 1..4"},
	{"seat of another bot", func(r *Record) { r.Seating[0], r.Seating[1] = r.Seating[1], r.Seating[0] }, "seat 0 is"},
	{"seed of another game", func(r *Record) { r.Seed++ }, "has seed"},
}

// TestResumeChecksRecords: -resume refuses a games.jsonl holding an
// impossible record and leaves summary.json as it was.
func TestResumeChecksRecords(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 8)
	require.Equal(t, 100, cfg.Rules.End.RoundLimit)
	ref := filepath.Join(base, "ref")
	runTo(t, cfg, ref)
	for _, tt := range impossible {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(base, tt.name)
			copyDir(t, ref, dir)
			rewriteLine(t, dir, 2, tt.change)
			c := withOut(cfg, dir)
			c.Resume = true
			_, err := Run(context.Background(), c)
			assert.ErrorContains(t, err, filepath.Join(dir, gamesFile)+": line 2: ")
			assert.ErrorContains(t, err, tt.err)
			assert.Equal(t, readFile(t, ref, summaryFile), readFile(t, dir, summaryFile))
		})
	}
}

// TestMergeChecksRecords: merge refuses a shard holding an impossible
// record and writes nothing.
func TestMergeChecksRecords(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 8)
	shards := runShards(t, cfg, base, 2)
	for _, tt := range impossible {
		t.Run(tt.name, func(t *testing.T) {
			bad := filepath.Join(base, tt.name)
			copyDir(t, shards[1], bad)
			rewriteLine(t, bad, 2, tt.change)
			out := filepath.Join(base, "out-"+tt.name)
			_, err := Merge(out, []string{shards[0], bad})
			assert.ErrorContains(t, err, filepath.Join(bad, gamesFile)+": line 2: ")
			assert.ErrorContains(t, err, tt.err)
			assert.NoDirExists(t, out)
		})
	}
}

// TestLineEndings: CRLF line endings and non-canonical lines are refused
// by resume and merge with the file and the line.
func TestLineEndings(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 6)
	cfg.Shard = Shard{Index: 0, Count: 2}
	s0 := filepath.Join(base, "s0")
	runTo(t, cfg, s0)
	cfg.Shard = Shard{Index: 1, Count: 2}
	s1 := filepath.Join(base, "s1")
	runTo(t, cfg, s1)

	tests := []struct {
		name   string
		change func(b []byte) []byte
		line   int
		err    string
	}{
		{"crlf", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }, 1, "ends in CRLF"},
		{"crlf last line", func(b []byte) []byte {
			return append(b[:len(b)-1], '\r', '\n')
		}, 3, "ends in CRLF"},
		{"spaces", func(b []byte) []byte { return bytes.Replace(b, []byte(`"game":2,`), []byte(`"game": 2,`), 1) }, 2, "not written in the canonical form"},
		{"key order", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`{"game":0,"seed":`), []byte(`{"seed":`), 1)
		}, 1, "game 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(base, tt.name)
			copyDir(t, s0, dir)
			path := filepath.Join(dir, gamesFile)
			require.NoError(t, os.WriteFile(path, tt.change(readFile(t, s0, gamesFile)), 0o644))
			want := path + ": line " + string(rune('0'+tt.line)) + ": "

			c := cfg
			c.Shard = Shard{Index: 0, Count: 2}
			c.Out, c.Resume = dir, true
			_, err := Run(context.Background(), c)
			assert.ErrorContains(t, err, want)
			assert.ErrorContains(t, err, tt.err)

			out := filepath.Join(base, "out-"+tt.name)
			_, err = Merge(out, []string{dir, s1})
			assert.ErrorContains(t, err, want)
			assert.ErrorContains(t, err, tt.err)
			assert.NoDirExists(t, out)
		})
	}
}

// TestMergeOutHoldsBatch: merge refuses an output directory of another
// batch and accepts re-merging into one of the same batch.
func TestMergeOutHoldsBatch(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 8)
	shards := runShards(t, cfg, base, 2)
	whole := filepath.Join(base, "whole")
	runTo(t, cfg, whole)

	other := cfg
	other.Seed = 99
	otherDir := filepath.Join(base, "other")
	runTo(t, other, otherDir)
	before := readFile(t, otherDir, gamesFile)
	_, err := Merge(otherDir, shards)
	assert.ErrorContains(t, err, otherDir+" holds a different batch (seed 99 vs 7")
	assert.Equal(t, before, readFile(t, otherDir, gamesFile), "a refused merge changed the directory")

	stray := filepath.Join(base, "stray")
	require.NoError(t, os.MkdirAll(stray, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(stray, gamesFile), []byte("x\n"), 0o644))
	_, err = Merge(stray, shards)
	assert.ErrorContains(t, err, "holds a games.jsonl without config.json")

	broken := filepath.Join(base, "broken")
	require.NoError(t, os.MkdirAll(broken, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, configFile), []byte("{"), 0o644))
	_, err = Merge(broken, shards)
	assert.ErrorContains(t, err, broken+" already holds a batch")

	// The same batch: merging again, or into the directory of the batch
	// played in one piece, gives the same files.
	merged := filepath.Join(base, "merged")
	_, err = Merge(merged, shards)
	require.NoError(t, err)
	_, err = Merge(merged, shards)
	require.NoError(t, err)
	sameFiles(t, whole, merged)
	_, err = Merge(whole, shards)
	require.NoError(t, err)
	sameFiles(t, merged, whole)
}

// TestNoTempFilesLeft: a failing write removes its temporary file.
func TestNoTempFilesLeft(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 4)

	// timing.json cannot be replaced (a directory that is not empty).
	dir := filepath.Join(base, "run")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, timingFile, "x"), 0o755))
	_, err := Run(context.Background(), withOut(cfg, dir))
	require.Error(t, err)
	assert.ErrorContains(t, err, timingFile)
	assertNoTemp(t, dir)

	// Merge into a directory of the same batch whose games.jsonl and
	// summary.json cannot be replaced.
	shards := runShards(t, cfg, base, 2)
	for _, name := range []string{gamesFile, summaryFile} {
		out := filepath.Join(base, "merge-"+name)
		whole := filepath.Join(base, "whole-"+name)
		runTo(t, cfg, whole)
		require.NoError(t, os.MkdirAll(filepath.Join(out, name, "x"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, configFile), readFile(t, whole, configFile), 0o644))
		_, err := Merge(out, shards)
		require.Error(t, err, name)
		assertNoTemp(t, out)
	}

	// writeFile itself.
	require.NoError(t, os.MkdirAll(filepath.Join(base, "w", "f", "x"), 0o755))
	require.Error(t, writeFile(filepath.Join(base, "w"), "f", []byte("data")))
	assertNoTemp(t, filepath.Join(base, "w"))
}

// assertNoTemp checks that dir holds no temporary file (a name with .tmp).
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp", "temporary file left in %s", dir)
	}
}

// FuzzLineChecker: a line the checker accepts is the canonical encoding of
// a record of the expected game, possible under the header's rules.
func FuzzLineChecker(f *testing.F) {
	cfg := testConfig(f, testPlayers, 4)
	h, err := cfg.header()
	require.NoError(f, err)
	dir := f.TempDir()
	cfg.Out = dir
	_, err = Run(context.Background(), cfg)
	require.NoError(f, err)
	for i, line := range bytes.Split(bytes.TrimSuffix(readFile(f, dir, gamesFile), []byte{'\n'}), []byte{'\n'}) {
		f.Add(line, i)
		f.Add(append(line, '\r'), i)
	}
	f.Add([]byte(`{"game":1,"seed":1,"seating":["a","b","c","d"],"winner":-1,"placements":[1,2,3,4],"rounds":99,"turns":300,"stalemate":true,"faults":[0,0,0,0]}`), 1)
	f.Fuzz(func(t *testing.T, line []byte, g int) {
		if g < 0 || g >= h.Games {
			return
		}
		lc, err := newLineChecker(&h)
		require.NoError(t, err)
		rec, err := lc.check(line, g)
		if err != nil {
			return
		}
		assert.Equal(t, string(line), string(rec.AppendJSON(nil)))
		assert.Equal(t, g, rec.Game)
		assert.NoError(t, rec.checkRules(h.RoundLimit))
	})
}
