package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func TestParseRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want request
		err  string
	}{
		{`{"cmd":"reset","seed":7}`, request{Cmd: "reset", Seed: 7}, ""},
		{` {"seed":18446744073709551615,"cmd":"reset"} ` + "\n", request{Cmd: "reset", Seed: 1<<64 - 1}, ""},
		{`{"cmd":"step","action":1}`, request{Cmd: "step", Action: 1}, ""},
		{`{"cmd":"step","action":-3}`, request{Cmd: "step", Action: -3}, ""},
		{`{"cmd":"close"}`, request{Cmd: "close"}, ""},
		{``, request{}, "empty line"},
		{`{"cmd":"reset","seed":7`, request{}, "malformed request"},
		{`{"cmd":"reset","seed":7} {}`, request{}, "data after the JSON object"},
		{`[1]`, request{}, "malformed request"},
		{`{"cmd":"jump"}`, request{}, `unknown cmd "jump"`},
		{`{"seed":1}`, request{}, `missing key "cmd"`},
		{`{"cmd":"reset"}`, request{}, `reset: missing key "seed"`},
		{`{"cmd":"reset","seed":-1}`, request{}, "reset: seed -1: want an integer 0..18446744073709551615"},
		{`{"cmd":"reset","seed":1.5}`, request{}, "reset: seed 1.5"},
		{`{"cmd":"reset","seed":"7"}`, request{}, `reset: seed "7"`},
		{`{"cmd":"reset","seed":1,"action":2}`, request{}, `reset: unexpected key "action"`},
		{`{"cmd":"step"}`, request{}, `step: missing key "action"`},
		{`{"cmd":"step","action":1e3}`, request{}, "step: action 1e3: want an integer"},
		{`{"cmd":"step","action":1,"seed":2}`, request{}, `step: unexpected key "seed"`},
		{`{"cmd":"step","action":1,"colour":2}`, request{}, `unknown key "colour"`},
		// Issue 25, item 12: keys are spelt exactly, once each.
		{`{"CMD":"reset","seed":7}`, request{}, `malformed request: unknown key "CMD": want "cmd", "seed" or "action" (spelt so)`},
		{`{"cmd":"reset","Seed":7}`, request{}, `unknown key "Seed"`},
		{`{"cmd":"step","ACTION":1}`, request{}, `unknown key "ACTION"`},
		{`{"cmd":"reset","seed":7,"seed":8}`, request{}, `malformed request: key "seed" given twice`},
		{`{"cmd":1}`, request{}, `key "cmd" 1: want "reset", "step" or "close"`},
		{`{"cmd":"Reset","seed":1}`, request{}, `unknown cmd "Reset"`},
		{`"cmd"`, request{}, "malformed request: want a JSON object"},
		{`{"cmd":"close"}]`, request{}, "data after the JSON object"},
		{`{"cmd":"close","seed":2}`, request{}, "close: takes no other key"},
		{`{"cmd":"step","action":2147483648}`, request{}, `step: action 2147483648: out of range: want 0..actions-1 (the "actions" of the reset reply)`},
		{`{"cmd":"step","action":-99999999999999999999}`, request{}, `step: action -99999999999999999999: out of range`},
		{`{"cmd":"step","action":1.5}`, request{}, `step: action 1.5: want an integer`},
	} {
		got, err := parseRequest([]byte(tc.line))
		if tc.err != "" {
			require.Error(t, err, tc.line)
			assert.Contains(t, err.Error(), tc.err, tc.line)
			continue
		}
		require.NoError(t, err, tc.line)
		assert.Equal(t, tc.want, got, tc.line)
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{`{"cmd":"reset","seed":7}`, `{"cmd":"step","action":1}`, `{"cmd":"close"}`, `{`, `{"cmd":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := parseRequest(line)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		// An accepted request is one of the three and survives re-encoding.
		var again []byte
		switch req.Cmd {
		case "reset":
			again, _ = json.Marshal(map[string]any{"cmd": "reset", "seed": req.Seed})
		case "step":
			again, _ = json.Marshal(map[string]any{"cmd": "step", "action": req.Action})
		case "close":
			again = []byte(`{"cmd":"close"}`)
		default:
			t.Fatalf("accepted cmd %q", req.Cmd)
		}
		back, err := parseRequest(again)
		require.NoError(t, err)
		require.Equal(t, req, back)
	})
}

// serve runs Serve over the given lines and returns the answer lines.
func serve(t *testing.T, lines ...string) []map[string]any {
	t.Helper()
	e, err := NewEnv(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, Serve(context.Background(), e, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out))
	var res []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		res = append(res, m)
	}
	return res
}

func TestServe(t *testing.T) {
	t.Parallel()
	got := serve(t,
		`{"cmd":"step","action":0}`,
		`not json`,
		`{"cmd":"reset","seed":7}`,
		`{"cmd":"step","action":3}`,
		`{"cmd":"step","action":2}`,
		`{"cmd":"fly"}`,
		`{"cmd":"close"}`,
		`{"cmd":"step","action":2}`,
	)
	require.Len(t, got, 7)
	assert.Contains(t, got[0]["error"], "step before reset")
	assert.Contains(t, got[1]["error"], "malformed request")
	assert.Equal(t, 3.0, got[2]["actions"])
	assert.Len(t, got[2]["obs"], 11)
	assert.Equal(t, []any{"passive", "pacifist", "aggressive"}, got[2]["action_names"])
	assert.Equal(t, 0.0, got[2]["info"].(map[string]any)["seat"])
	assert.Contains(t, got[3]["error"], "action 3 out of range: want 0..2")
	assert.Equal(t, -1.0, got[4]["reward"])
	assert.Equal(t, false, got[4]["done"])
	assert.Equal(t, 1.0, got[4]["info"].(map[string]any)["step"])
	assert.Contains(t, got[5]["error"], `unknown cmd "fly"`)
	assert.Equal(t, true, got[6]["closed"])

	// A whole episode over the protocol gives the Runner's return; a step
	// after done is an error and the exchange goes on.
	r, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	_, out := trace(t, r, 5, 0, func(int) int { return 2 })
	lines := []string{`{"cmd":"reset","seed":5}`}
	for range out.Steps + 1 {
		lines = append(lines, `{"cmd":"step","action":2}`)
	}
	lines = append(lines, `{"cmd":"reset","seed":5}`)
	got = serve(t, lines...)
	require.Len(t, got, out.Steps+3)
	total := 0.0
	for _, m := range got[1 : out.Steps+1] {
		total += m["reward"].(float64)
	}
	last := got[out.Steps]
	assert.Equal(t, true, last["done"])
	assert.InDelta(t, out.Return, total, 1e-9)
	info := last["info"].(map[string]any)
	assert.InDelta(t, out.Return, info["return"], 1e-9)
	// Issue 25, item 12: the final info holds every end key, false and 0
	// included; an earlier one holds none.
	assert.Equal(t, map[string]any{"won": out.Won, "eliminated": out.Eliminated, "stalemate": out.Stalemate, "rank": float64(out.Rank)},
		map[string]any{"won": info["won"], "eliminated": info["eliminated"], "stalemate": info["stalemate"], "rank": info["rank"]})
	for _, k := range []string{"won", "eliminated", "stalemate", "rank", "return"} {
		assert.Contains(t, info, k)
		assert.NotContains(t, got[1]["info"], k)
	}
	assert.Contains(t, got[out.Steps+1]["error"], "after the episode is done")
	assert.Equal(t, got[0], got[out.Steps+2])
}

// TestInfoJSON: the end keys are written exactly at the end, zero values
// included.
func TestInfoJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Info{Seat: 1, Opponents: []string{"a", ""}, Step: 3, Round: 2})
	require.NoError(t, err)
	assert.Equal(t, `{"seat":1,"opponents":["a",""],"step":3,"round":2}`, string(b))
	b, err = json.Marshal(Info{Seat: 0, Opponents: []string{"", "b"}, Step: 9, Round: 4, End: true})
	require.NoError(t, err)
	assert.Equal(t, `{"seat":0,"opponents":["","b"],"step":9,"round":4,"won":false,"eliminated":false,"stalemate":false,"rank":0,"return":0}`, string(b))
	b, err = json.Marshal(Info{End: true, Won: true, Rank: 0, Return: 480})
	require.NoError(t, err)
	assert.Equal(t, `{"seat":0,"opponents":null,"step":0,"round":0,"won":true,"eliminated":false,"stalemate":false,"rank":0,"return":480}`, string(b))
}

func TestServeLongLine(t *testing.T) {
	t.Parallel()
	got := serve(t, strings.Repeat("x", maxLine+10), `{"cmd":"reset","seed":1}`)
	require.Len(t, got, 2)
	assert.Contains(t, got[0]["error"], "line longer than")
	assert.Equal(t, 3.0, got[1]["actions"])
}
