package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/fileread"
)

// A log whose last line is longer than the line cap (a sparse file of
// zeros, say) is refused on resume, never cut as a torn line; a short
// torn line is cut and the search goes on.
func TestResumeLongLine(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	s, _ := tinySearch(t, t.TempDir(), 1)
	eval := s.Eval
	s.Eval = &cancelAfter{Evaluator: eval, n: 3, cancel: cancel}
	_, err := s.Run(ctx, false)
	require.Error(t, err)
	path := filepath.Join(s.Dir, "log.jsonl")
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, fi.Size()+int64(fileread.MaxRecordLine)+1))
	s.Eval = eval
	_, err = s.Run(context.Background(), true)
	require.ErrorIs(t, err, fileread.ErrLongLine)
	assert.ErrorContains(t, err, path+": line 5: longer than the line cap of 1 MiB") // the header and 3 evaluations before it
	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fi.Size()+int64(fileread.MaxRecordLine)+1, after.Size(), "the log is left as it was")

	require.NoError(t, os.Truncate(path, fi.Size()+100))
	st, err := s.Run(context.Background(), true)
	require.NoError(t, err)
	assert.True(t, st.Complete())
}

// A folder whose log lost its config.json is refused: its evaluations
// cannot be tied to a config (a log copied from another run would pass
// the line checks when the methods ask the same points).
func TestLogWithoutConfigRefused(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	s, _ := tinySearch(t, t.TempDir(), 1)
	eval := s.Eval
	s.Eval = &cancelAfter{Evaluator: eval, n: 3, cancel: cancel}
	_, err := s.Run(ctx, false)
	require.Error(t, err)
	require.NoError(t, os.Remove(filepath.Join(s.Dir, "config.json")))
	s.Eval = eval
	_, err = s.Run(context.Background(), true)
	assert.EqualError(t, err, "search: "+s.Dir+" holds log.jsonl but no config.json: its evaluations cannot be tied to a config (remove the folder to play it again)")
	assert.NoFileExists(t, filepath.Join(s.Dir, "config.json"), "no config is written for foreign games")
}

func TestJSONDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b, want string }{
		{`{"seed":100,"field":{"players":6}}`, `{"seed":101,"field":{"players":6}}`, "seed: 100 vs 101"},
		{`{"field":{"players":6,"rules":"a"}}`, `{"field":{"players":4,"rules":"a"}}`, "field.players: 6 vs 4"},
		{`{"sets":["a","b"]}`, `{"sets":["a","c"]}`, `sets[1]: "b" vs "c"`},
		{`{"sets":["a"]}`, `{"sets":["a","c"]}`, "sets: 1 entries vs 2"},
		{`{"a":1}`, `{"a":1,"b":2}`, "b: absent vs 2"},
		{`{"a":1}`, `{"a":1}`, "the texts differ"},
		{`{"a":1`, `{"a":1}`, "the texts differ"},
	} {
		assert.Equal(t, tc.want, jsonDiff([]byte(tc.a), []byte(tc.b)), tc.a)
	}
}

// A log moved beside another search's config.json (the same search on
// another seed) is refused by its header before an evaluation is read; a
// log without a header (an older marslab's) is read as before.
func TestLogHeaderTiesLogToConfig(t *testing.T) {
	t.Parallel()
	interrupted := func(s *Search[*Narrowing]) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		eval := s.Eval
		s.Eval = &cancelAfter{Evaluator: eval, n: 3, cancel: cancel}
		_, err := s.Run(ctx, false)
		require.Error(t, err)
		s.Eval = eval
	}
	a, _ := tinySearch(t, t.TempDir(), 1)
	interrupted(a)
	b, setup := tinySearch(t, t.TempDir(), 1)
	setup.Field.Seed += 100
	b.Config, b.Eval = setup.Fingerprint("narrow"), setup.Field
	interrupted(b)
	log := readLog(t, a.Dir)
	require.True(t, strings.HasPrefix(log, `{"config":"`), log)
	require.NotEqual(t, log, readLog(t, b.Dir))
	require.NoError(t, os.WriteFile(filepath.Join(b.Dir, "log.jsonl"), []byte(log), 0o644))
	_, err := b.Run(context.Background(), true)
	require.ErrorIs(t, err, ErrOtherConfig)
	assert.ErrorContains(t, err, "a log moved from another search?")
	assert.Equal(t, log, readLog(t, b.Dir), "the log is left as it was")

	legacy := log[strings.IndexByte(log, '\n')+1:]
	require.NoError(t, os.WriteFile(filepath.Join(a.Dir, "log.jsonl"), []byte(legacy), 0o644))
	st, err := a.Run(context.Background(), true)
	require.NoError(t, err)
	assert.True(t, st.Complete())
	assert.True(t, strings.HasPrefix(readLog(t, a.Dir), legacy), "a log without a header is continued as it is")
}
