package search

import (
	"bytes"
	"testing"
)

// FuzzParseLine: a line that parses re-encodes to itself, and parsing
// never panics.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"step":0,"cand":2,"block":5,"x":[0.7375,170],"games":4,"wins":1,"stalemates":0,"place":[1,3,2,4],"won":[1,0,0,0]}`))
	f.Add([]byte(`{"step":1,"cand":0,"block":0,"x":[],"games":2,"wins":0,"stalemates":1,"place":[1,2],"won":[0,0]}`))
	f.Add([]byte(`{"step":-1}`))
	f.Add([]byte("{\"step\":1,\"cand\":0,\"block\":0,\"x\":[],\"games\":2,\"wins\":0,\"stalemates\":1,\"place\":[1,2],\"won\":[0,0]}\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLine(data)
		if err != nil {
			return
		}
		if got := l.AppendJSON(nil); !bytes.Equal(got, data) {
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
		c, err := ParseConfig("fuzz.toml", data)
		if err != nil {
			return
		}
		if c.Players < 2 || c.Players > 6 || len(c.Params) == 0 {
			t.Fatalf("bad config accepted: %+v", c)
		}
	})
}
