package sim_test

import (
	"bytes"
	"strings"
	"testing"

	"marslab/sim"
)

// writeLog plays one game with a LogWriter and returns the log.
func writeLog(t *testing.T) []byte {
	t.Helper()
	g, err := sim.NewGame(sim.RingMap(2, 3), sim.RulesForTest(sim.FortifySingle), 2)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, sim.LogHeader{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g.Observe(lw)
	res, err := g.Play(sim.NewChaos(2, 0), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := lw.Close(res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadLog: a whole log reads back; a log whose result line is missing,
// cut short or not the last line is an error naming the line.
func TestReadLog(t *testing.T) {
	log := writeLog(t)
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	n := len(lines) // header, events, result
	last := lines[n-1]
	if !strings.HasPrefix(last, `{"result":`) {
		t.Fatalf("last line %q", last)
	}
	h, events, result, err := sim.ReadLog(bytes.NewReader(log))
	if err != nil || h.Seed != 1 || len(events) != n-2 || string(sim.ResultLine(result)) != last {
		t.Fatalf("ReadLog: %d events, result %v, %v", len(events), result, err)
	}
	body := strings.Join(lines[:n-1], "")
	cases := []struct {
		name, log, want string
	}{
		{"trailing blank line", string(log) + "\n", ""},
		{"no result line", body, "no result line: the log is truncated or its game did not end"},
		{"cut in the result line", body + last[:len(last)/2], "truncated or malformed result line"},
		{"cut after the result key", body + `{"result":`, "truncated or malformed result line"},
		{"result line not last", body + last + "\n" + lines[1], "a line after the result line"},
		{"cut in an event line", strings.Join(lines[:n-2], "") + lines[n-2][:5], "no result line"},
		{"header only", lines[0], "line 2: no result line"},
		{"empty", "", "empty log"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := sim.ReadLog(strings.NewReader(c.log))
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("ReadLog: %v, want an error containing %q", err, c.want)
			}
		})
	}
}
