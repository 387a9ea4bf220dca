package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logGame plays one game of chaos players (a share bad of illegal answers)
// with a LogWriter whose header carries the TOML of m and r, and returns
// the log.
func logGame(t testing.TB, m *Map, r *Rules, n int, bad float64, seed, index uint64) []byte {
	t.Helper()
	var rt, mt bytes.Buffer
	require.NoError(t, EncodeRules(&rt, r))
	require.NoError(t, EncodeMap(&mt, m))
	g, err := NewGame(m, r, n)
	require.NoError(t, err)
	var buf bytes.Buffer
	h := LogHeader{Seed: seed, Index: index, RulesName: "rules.toml", MapName: "map.toml",
		RulesTOML: rt.String(), MapTOML: mt.String()}
	for i := range n {
		h.Seats = append(h.Seats, LogSeat{Label: fmt.Sprintf("chaos%d", i), Bot: "chaos"})
	}
	lw, err := NewLogWriter(&buf, h)
	require.NoError(t, err)
	g.Observe(lw)
	res, err := g.Play(newChaos(n, bad), seed, index)
	require.NoError(t, err)
	require.NoError(t, lw.Close(res))
	return buf.Bytes()
}

// encodeLog writes a decoded log back as LogWriter writes it.
func encodeLog(t testing.TB, h LogHeader, events []Event, res Result) []byte {
	t.Helper()
	var out bytes.Buffer
	b, err := json.Marshal(h)
	require.NoError(t, err)
	out.Write(b)
	out.WriteByte('\n')
	var line []byte
	for i := range events {
		line = events[i].AppendJSON(line[:0])
		out.Write(line)
		out.WriteByte('\n')
	}
	out.Write(ResultLine(res))
	out.WriteByte('\n')
	return out.Bytes()
}

// TestLogRoundTrip: whole games, under every fortify rule and with faults,
// read back (ReadLog) and written again give the same bytes, and together
// they hold every kind of event (explanations in a game whose bots narrate
// their placements), so a kind the reader cannot decode fails.
func TestLogRoundTrip(t *testing.T) {
	t.Parallel()
	seen := make(map[EventKind]int)
	for _, mode := range []FortifyMode{FortifySingle, FortifyOneStep, FortifyConnected} {
		for i, n := range []int{2, 3, 5, 0} {
			var log []byte
			if n == 0 {
				n, log = 3, logNarrated(t, 3)
			} else {
				log = logGame(t, ringMap(3, 4), testRules(mode), n, 0.05, 11, uint64(i))
			}
			h, events, res, err := ReadLog(bytes.NewReader(log))
			require.NoError(t, err, "%s, %d players", mode, n)
			assert.Equal(t, string(log), string(encodeLog(t, h, events, res)), "%s, %d players", mode, n)
			assert.Len(t, h.RulesSHA256, 64)
			assert.Len(t, h.MapSHA256, 64)
			for _, e := range events {
				seen[e.Kind]++
			}
		}
	}
	for k := range numEventKinds {
		assert.Positive(t, seen[k], "no %q event in the games: add a game that has one", k)
	}
}

// TestLogReaderStreams: the reader gives the events one at a time with
// their line numbers, then the result.
func TestLogReaderStreams(t *testing.T) {
	t.Parallel()
	log := logGame(t, ringMap(2, 3), testRules(FortifySingle), 2, 0, 1, 0)
	lines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
	lr, err := NewLogReader(bytes.NewReader(log))
	require.NoError(t, err)
	assert.Equal(t, uint64(1), lr.Header().Seed)
	_, err = lr.Result()
	require.ErrorContains(t, err, "the result line has not been read yet")
	n := 0
	for lr.Next() {
		n++
		require.Equal(t, n+1, lr.Line())
		require.Equal(t, lines[n], string(lr.Raw()))
		require.Equal(t, lines[n], string(lr.Event().AppendJSON(nil)))
	}
	require.NoError(t, lr.Err())
	res, err := lr.Result()
	require.NoError(t, err)
	assert.Equal(t, len(lines)-2, n)
	assert.Equal(t, lines[len(lines)-1], string(ResultLine(res)))
	assert.False(t, lr.Next(), "Next after the result line")
}

// TestLogReaderErrors: a line that is not exactly what the writer writes is
// an error naming the line.
func TestLogReaderErrors(t *testing.T) {
	t.Parallel()
	log := string(logGame(t, ringMap(2, 3), testRules(FortifySingle), 2, 0, 1, 0))
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		t.Fatalf("no line starts with %s", prefix)
		return 0
	}
	roll, card, turn := find(`{"e":"roll"`), find(`{"e":"card"`), find(`{"e":"turn"`)
	cases := []struct {
		name     string
		line     int
		old, new string
		want     string
	}{
		{"unknown kind", turn, `"e":"turn"`, `"e":"nap"`, `unknown event kind "nap"`},
		{"unknown phase", turn, `"phase":"trade"`, `"phase":"lunch"`, `unknown phase "lunch"`},
		{"missing round", turn, `"round":1,`, ``, `"round" missing`},
		{"unknown key", turn, `"e":"turn",`, `"e":"turn","mood":1,`, `unknown key "mood" for event "turn"`},
		{"key of another kind", turn, `"e":"turn",`, `"e":"turn","att_loss":1,`, `unknown key "att_loss" for event "turn"`},
		{"too many dice", roll, `"att":[`, `"att":[1,1,1,`, `attacker and 2 defender dice: at most 3 and 2`},
		{"missing dice", roll, `"def":[`, `"dfn":[`, `"def" missing`},
		{"two cards drawn", card, `"cards":[[`, `"cards":[[1,1],[`, `2 cards, want 1`},
		{"bad symbol", card, lines[card], `{"e":"card","round":1,"phase":"attack","player":0,"cards":[[0,9]]}`, `card "[0 9]": territory must be -1..10000, symbol 0..3`},
		{"wrong type", turn, `"round":1`, `"round":"1"`, `"round": json: cannot unmarshal string`},
		{"not canonical", turn, `"round":1`, `"round": 1`, "not as the log writer writes this event"},
		{"default written", turn, `"round":1,`, `"round":1,"other":-1,`, "not as the log writer writes this event"},
		{"result not canonical", len(lines) - 1, `{"result":{`, `{"result": {`, "not as the log writer writes this result"},
		{"result unknown key", len(lines) - 1, `{"result":{`, `{"result":{"mood":1,`, "truncated or malformed result line"},
		{"result missing key", len(lines) - 1, `"turns":`, `"turnz":`, "truncated or malformed result line"},
		{"header unknown key", 0, `{"format"`, `{"mood":1,"format"`, `line 1 (header): json: unknown field "mood"`},
		{"header format", 0, LogFormat, "marslab-game-log/0", `line 1 (header): format "marslab-game-log/0"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			changed := append([]string(nil), lines...)
			require.Contains(t, changed[c.line], c.old)
			changed[c.line] = strings.Replace(changed[c.line], c.old, c.new, 1)
			_, _, _, err := ReadLog(strings.NewReader(strings.Join(changed, "\n") + "\n"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			if c.line > 0 {
				assert.Contains(t, err.Error(), fmt.Sprintf("line %d: ", c.line+1))
			}
		})
	}
}

// TestLogReaderQuotesLines: an error shows a bad line Go-quoted, so that
// terminal escapes (ESC, BEL, CR) print as text, and cut after 200 bytes.
func TestLogReaderQuotesLines(t *testing.T) {
	t.Parallel()
	log := string(logGame(t, ringMap(2, 3), testRules(FortifySingle), 2, 0, 1, 0))
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	last := len(lines) - 1
	for _, tc := range []struct {
		name, line string
		at         int
		want       string
		max        int
	}{
		{"escapes in an event", "\x1b]0;owned\a\x1b[2J\rjunk", 2, `line 3: invalid character '\x1b' looking for beginning of value: "\x1b]0;owned\a\x1b[2J\rjunk"`, 200},
		{"a long event", `{"e":"turn","x":"` + strings.Repeat("\x1b", 1<<20) + `"}`, 2, `... (1048595 bytes)`, 1200},
		{"escapes in the result", "{\"result\":{\"x\":\"\x1b[31m\"}\r\a", last, `truncated or malformed result line: "{\"result\":{\"x\":\"\x1b[31m\"}\r\a"`, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed := append([]string(nil), lines...)
			changed[tc.at] = tc.line
			_, _, _, err := ReadLog(strings.NewReader(strings.Join(changed, "\n") + "\n"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\x1b")
			assert.NotContains(t, err.Error(), "\r")
			assert.NotContains(t, err.Error(), "\a")
			assert.Less(t, len(err.Error()), tc.max)
		})
	}
}

func BenchmarkReadLog(b *testing.B) {
	log := logGame(b, ringMap(3, 4), testRules(FortifyOneStep), 4, 0, 1, 0)
	b.ReportAllocs()
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if _, _, _, err := ReadLog(bytes.NewReader(log)); err != nil {
			b.Fatal(err)
		}
	}
}
