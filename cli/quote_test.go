package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A parameter file's key holding an escape sequence reaches the terminal
// as text: Main prints errorLine, whose control characters are escaped.
func TestErrorLineQuotesControls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.toml")
	require.NoError(t, os.WriteFile(path, []byte("bot = \"mars\"\n[params]\n\"W\\u001b[31m_p\" = 0.5\n"), 0o644))
	_, _, err := runCmd(t, "play", "-players", "mars@"+path+",random")
	require.Error(t, err)
	require.Contains(t, err.Error(), "\x1b", "the error holds the raw key")
	line := errorLine(err)
	assert.NotContains(t, line, "\x1b")
	assert.Contains(t, line, `W\x1b[31m_p`)
	assert.True(t, strings.HasPrefix(line, "marslab: play: "), line)
}

// A -explain -log file whose explanations were edited is refused by replay
// and view, as an edited game event is (the header lists the narrating
// seats and the replay narrates again).
func TestReplayRefusesForgedExplanations(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "g.jsonl")
	_, _, err := runCmd(t, "play", "-players", "mars,aggressive,random", "-seed", "4", "-explain", "-log", log)
	require.NoError(t, err)
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	require.Contains(t, string(data), `"explain":[0]`, "the header names MARS's seat")
	out, _, err := runCmd(t, "replay", log)
	require.NoError(t, err)
	require.Contains(t, out, "identical")

	lines := strings.SplitAfter(string(data), "\n")
	k := -1
	for i, l := range lines {
		if strings.Contains(l, `"e":"explain"`) && strings.Contains(l, "attack:") {
			k = i
			break
		}
	}
	require.Positive(t, k)
	for name, forged := range map[string][]string{
		"edited":     append(append(slices.Clone(lines[:k]), strings.Replace(lines[k], "attack:", "retreat:", 1)), lines[k+1:]...),
		"removed":    append(slices.Clone(lines[:k]), lines[k+1:]...),
		"other seat": append(append(slices.Clone(lines[:k]), strings.Replace(lines[k], `"player":0`, `"player":1`, 1)), lines[k+1:]...),
	} {
		path := filepath.Join(dir, name+".jsonl")
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(forged, "")), 0o644))
		_, _, err := runCmd(t, "replay", path)
		assert.ErrorContains(t, err, fmt.Sprintf("line %d: the replay differs", k+1), name)
		_, _, err = runCmd(t, "view", path, "-out", filepath.Join(dir, name+".html"))
		assert.ErrorContains(t, err, "the replay differs", name)
		assert.NoFileExists(t, filepath.Join(dir, name+".html"))
	}
}
