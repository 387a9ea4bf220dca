package sim_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// writeLog plays one game with a LogWriter and returns the log.
func writeLog(t *testing.T) []byte {
	t.Helper()
	g, err := sim.NewGame(sim.RingMap(2, 3), sim.RulesForTest(sim.FortifySingle), 2)
	require.NoError(t, err)
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, sim.LogHeader{Seed: 1})
	require.NoError(t, err)
	g.Observe(lw)
	res, err := g.Play(sim.NewChaos(2, 0), 1, 0)
	require.NoError(t, err)
	require.NoError(t, lw.Close(res))
	return buf.Bytes()
}

// TestReadLog: a whole log reads back; a log whose result line is missing,
// cut short or not the last line is an error naming the line.
func TestReadLog(t *testing.T) {
	t.Parallel()
	log := writeLog(t)
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	n := len(lines) // header, events, result
	last := lines[n-1]
	require.True(t, strings.HasPrefix(last, `{"result":`), "last line %q", last)
	h, events, result, err := sim.ReadLog(bytes.NewReader(log))
	require.NoError(t, err)
	assert.Equal(t, uint64(1), h.Seed)
	assert.Len(t, events, n-2)
	assert.Equal(t, last, string(sim.ResultLine(result)))
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
			if c.want == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, c.want)
			}
		})
	}
}
