package search

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/fuzzfile"
)

// FuzzParseLine: a line that parses re-encodes to itself, and parsing
// never panics.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"step":0,"cand":2,"block":5,"x":[0.7375,170],"games":4,"wins":1,"stalemates":0,"place":[1,3,2,4],"won":[1,0,0,0]}`))
	f.Add([]byte(`{"step":1,"cand":0,"block":0,"x":[],"games":2,"wins":0,"stalemates":1,"place":[1,2],"won":[0,0]}`))
	f.Add([]byte(`{"step":-1}`))
	f.Add([]byte("{\"step\":1,\"cand\":0,\"block\":0,\"x\":[],\"games\":2,\"wins\":0,\"stalemates\":1,\"place\":[1,2],\"won\":[0,0]}\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseLine(data, 6)
		if err != nil {
			return
		}
		if got := l.appendJSON(nil); !bytes.Equal(got, data) {
			t.Fatalf("parsed %q but encodes %q", data, got)
		}
		if l.Wins > l.Games || len(l.Place) != l.Games || len(l.Won) != l.Games {
			t.Fatalf("inconsistent line accepted: %+v", l)
		}
	})
}

// FuzzParseConfig: parsing a config never panics, and an accepted one has
// players in 2..6 and at least one parameter.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("name = \"x\"\nbase = \"mars\"\nplayers = 2\nopponents = [\"angry\"]\nrules = \"mars2006\"\nseed = 1\n[[param]]\nname = \"W_p\"\n[narrow]\nlevels = 1\nrounds = 1\nblocks = 1\n"))
	f.Add([]byte("name = \"x\"\n[cmaes]\ngenerations = 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig("fuzz.toml", data)
		if err != nil {
			return
		}
		if c.Players < 2 || c.Players > 6 || len(c.Params) == 0 {
			t.Fatalf("bad config accepted: %+v", c)
		}
	})
}

// FuzzReplayLog: a search log, any bytes, read from its file (sparse, one
// byte over the log cap, when over): Replay never panics, a file over the
// cap is refused unread, and an accepted log replays to the state its
// lines describe.
func FuzzReplayLog(f *testing.F) {
	cfg := evolveConfig(3)
	cfg.Generations = 2
	q := &Quadratic{Space: cfg.Space, Opt: []float64{0.3, 0.6}, Peak: 0.5, Curv: 10}
	ev := &Bernoulli{Games: 4, Seed: 3, P: q.P}
	mk := func(dir string) *Search[*Evolve] {
		return &Search[*Evolve]{Dir: dir, Config: []byte("fuzz\n"), Eval: ev, Players: 4, New: func() (*Evolve, error) { return NewEvolve(cfg) }}
	}
	good := mk(f.TempDir())
	st, err := good.Run(context.Background(), false)
	require.NoError(f, err)
	require.True(f, st.Complete())
	data, err := os.ReadFile(filepath.Join(good.Dir, logFile))
	require.NoError(f, err)
	f.Add(data, false)
	f.Add(data[:len(data)/2], false)
	f.Add([]byte("   \n"), false)
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, data []byte, over bool) {
		s := mk(t.TempDir())
		require.NoError(t, s.prepare())
		fuzzfile.Write(t, s.Dir, logFile, data, over, fileread.Log)
		st, err := s.replay()
		if fuzzfile.Refused(t, err, over, "search: ") {
			return
		}
		require.LessOrEqual(t, int64(st.valid), int64(len(data)))
	})
}
