package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// TestPlayExplainLog: play -explain -log writes MARS's narration into the
// log as explain events (not on stdout), the same lines that -explain
// alone prints, before the events of each decision; the log replays.
func TestPlayExplainLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "g.jsonl")
	args := []string{"play", "-players", "mars,aggressive,random", "-seed", "3", "-rules", "classic"}
	plain, _, err := runCmd(t, args...)
	require.NoError(t, err)
	narrated, _, err := runCmd(t, append(args, "-explain")...)
	require.NoError(t, err)
	logged, _, err := runCmd(t, append(args, "-explain", "-log", log)...)
	require.NoError(t, err)
	assert.Equal(t, plain, logged, "with -log the narration goes into the log only")
	_, events, _, err := sim.ReadLog(mustOpen(t, log))
	require.NoError(t, err)
	var lines []string
	for i, e := range events {
		if e.Kind != sim.EvExplain {
			continue
		}
		lines = append(lines, e.Text)
		assert.Equal(t, 0, e.Player, "only MARS explains")
		if strings.HasPrefix(e.Text, "mars seat 0 round ") && strings.HasSuffix(e.Text, " fortify") {
			assert.Equal(t, sim.PhaseFortify, e.Phase, "event %d", i)
		}
	}
	require.NotEmpty(t, lines)
	// -explain without -log ends with MARS's counts of its auctions, after
	// the summary (play_test.go's TestPlayExplainCounts).
	i := strings.LastIndex(narrated, "seat 0 mars counts: ")
	require.GreaterOrEqual(t, i, 0, "the counts line")
	assert.Equal(t, strings.Join(lines, "\n")+"\n"+plain, narrated[:i], "the log holds the lines -explain prints")
	out, _, err := runCmd(t, "replay", log)
	require.NoError(t, err)
	assert.Contains(t, out, "identical")
}

func mustOpen(t *testing.T, path string) *bytes.Reader {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return bytes.NewReader(b)
}

// TestViewCommand: marslab view writes the page of a log (by default
// beside it), overwrites only its own pages, and refuses bad input with
// the file and line and without writing a page.
func TestViewCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "g.jsonl")
	_, _, err := runCmd(t, "play", "-players", "aggressive,random,pacifist", "-seed", "2", "-rules", "fixedcards", "-log", log)
	require.NoError(t, err)
	out, _, err := runCmd(t, "view", log)
	require.NoError(t, err)
	page := filepath.Join(dir, "g.html")
	assert.Regexp(t, `^`+regexpQuote(log)+`: \d+ events \(and 0 lines of explanation\), \d+ rounds, (winner seat \d \("\w+"\)|stalemate): `+regexpQuote(page)+` \(\d+ KB\)\n$`, out)
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(b), viewMarker)
	_, _, err = runCmd(t, "view", log, "-out", page)
	require.NoError(t, err, "a page of marslab view is overwritten")
	other := filepath.Join(dir, "notes.html")
	require.NoError(t, os.WriteFile(other, []byte("<p>mine</p>"), 0o644))
	_, _, err = runCmd(t, "view", log, "-out", other)
	assert.ErrorContains(t, err, "view: -out "+other+": exists and is not a page of marslab view")

	good, err := os.ReadFile(log)
	require.NoError(t, err)
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	lines[len(lines)-1] += "\n"
	roll := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, `{"e":"roll"`) && strings.Contains(l, `"def_loss":1`) })
	require.Positive(t, roll)
	cases := []struct {
		name, text, want string
	}{
		{"truncated", strings.Join(lines[:len(lines)/2], "") + lines[len(lines)/2][:10],
			fmt.Sprintf("line %d: cut short, and no result line", len(lines)/2+1)},
		{"no result", strings.Join(lines[:len(lines)-1], ""), fmt.Sprintf("line %d: no result line", len(lines))},
		{"tampered", strings.Join(lines[:roll], "") + strings.Replace(lines[roll], `"def_loss":1`, `"def_loss":2`, 1) + strings.Join(lines[roll+1:], ""),
			fmt.Sprintf("line %d: the replay differs", roll+1)},
		{"unknown map", regexp.MustCompile(`"map_toml":"(\\.|[^"\\])*",`).ReplaceAllString(
			strings.Replace(strings.Join(lines, ""), `"map_name":"classic"`, `"map_name":"atlantis"`, 1), ""),
			`line 1 (header): map_toml and rules_toml are required to draw the game`},
		{"other map", strings.Replace(strings.Join(lines, ""), `"map_name":"classic"`, `"map_name":"atlantis"`, 1),
			`line 1 (header): map_name = "atlantis": the map played (map_toml) is named "classic"`},
		{"map changed", strings.Replace(strings.Join(lines, ""), `bonus = 5`, `bonus = 6`, 1), `line 1 (header): map_sha256 = "`},
		{"empty", "", "empty log"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".jsonl")
			require.NoError(t, os.WriteFile(bad, []byte(c.text), 0o644))
			_, _, err := runCmd(t, "view", bad)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "view: "+bad+": ")
			assert.Contains(t, err.Error(), c.want)
			assert.NoFileExists(t, strings.TrimSuffix(bad, ".jsonl")+".html")
		})
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "view: want one game log or directory, have 0 arguments (marslab view -h)"},
		{[]string{log, "-game", "2"}, "view: -game applies to a directory, and " + log + " is a file"},
		{[]string{log, "-game", "0"}, "view: -game applies to a directory, and " + log + " is a file"},
		{[]string{log, "-game", "-3"}, "view: -game -3: invalid: a game index is 0 or more"},
		{[]string{dir, "-game", "-1"}, "view: -game -1: invalid: a game index is 0 or more"},
		{[]string{dir}, "view: " + dir + " is a directory: -game N says which of its games to show"},
		{[]string{filepath.Join(dir, "none.jsonl")}, "no such file"},
	} {
		_, _, err := runCmd(t, append([]string{"view"}, c.args...)...)
		assert.ErrorContains(t, err, c.want, "%v", c.args)
	}
}

// TestViewQuotesLabels: a label read from a log is printed Go-quoted, so
// that terminal escapes in it (ESC, BEL, CR) reach the terminal as text.
func TestViewQuotesLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "g.jsonl")
	_, _, err := runCmd(t, "play", "-players", "aggressive,random,pacifist", "-seed", "2", "-rules", "fixedcards", "-log", log)
	require.NoError(t, err)
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	b = bytes.ReplaceAll(b, []byte(`"label":"`), []byte(`"label":"\u001b]0;pwned\u0007\r`))
	require.NoError(t, os.WriteFile(log, b, 0o644))
	out, _, err := runCmd(t, "view", log)
	require.NoError(t, err)
	assert.Regexp(t, `winner seat \d \("\\x1b\]0;pwned\\a\\r\w+"\)`, out)
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\a")
	assert.NotContains(t, out, "\r")
}

func regexpQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `.`, `\.`, `(`, `\(`, `)`, `\)`, `+`, `\+`).Replace(s)
}

// TestViewDirectory: a game of a tournament directory is played again from
// its config.json (seed, line-up, stream) and drawn; its log equals the
// one play writes for the same seats, seed and index, with MARS's
// explanations; its result matches games.jsonl.
func TestViewDirectory(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "t.toml")
	out := filepath.Join(dir, "t")
	require.NoError(t, os.WriteFile(cfg, []byte(`bots = ["mars", "aggressive", "random", "pacifist"]
players = 3
replications = 1
rules = "classic"
seed = 11
out = "`+filepath.ToSlash(out)+`"
`), 0o644))
	_, err := runOut(t, "tournament", cfg, "-quiet", "-figures=false", "-workers", "1")
	require.NoError(t, err)
	msg, _, err := runCmd(t, "view", out, "-game", "1")
	require.NoError(t, err)
	page := out + "-game1.html"
	assert.Contains(t, msg, page)
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"explain":[{`, "MARS explains")

	// The same game through the library: regenerate's log replays.
	log, err := regenerate(context.Background(), registry.Default(), out, 1, "", "")
	require.NoError(t, err)
	rep, err := sim.Replay(context.Background(), bytes.NewReader(log), registry.Default().ReplayPlayers)
	require.NoError(t, err)
	assert.Equal(t, uint64(11), rep.Header.Seed)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{out, "-game", "4"}, "view: -game 4: " + filepath.Join(out, "config.json") + " has games 0..3"},
		{[]string{out, "-game", "0", "-map", "configs/maps/none.toml"}, "view: " + filepath.Join(out, "config.json") + `: rules "classic", map "classic": -map: `},
	} {
		_, _, err := runCmd(t, append([]string{"view"}, c.args...)...)
		assert.ErrorContains(t, err, c.want, "%v", c.args)
	}
	// "." is named by its absolute path, not as a hidden ".-game1.html".
	require.NoError(t, os.Remove(page))
	t.Chdir(out)
	msg, _, err = runCmd(t, "view", ".", "-game", "1")
	require.NoError(t, err)
	assert.Contains(t, msg, page)
	assert.FileExists(t, page)
	assert.NoFileExists(t, filepath.Join(out, ".-game1.html"))

	// A recognition experiment's folder is not a batch or a tournament.
	rec := filepath.Join(dir, "rec")
	require.NoError(t, os.Mkdir(rec, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(rec, "config.json"), []byte(`{"format":"marslab-recognize/1","rules":"classic"}`), 0o644))
	_, _, err = runCmd(t, "view", rec, "-game", "0")
	assert.EqualError(t, err, "view: "+filepath.Join(rec, "config.json")+`: format "marslab-recognize/1": want "marslab-batch/2" (the record of a batch or a tournament)`)

	// An edited seed is named as a cause of a game that differs from its
	// record.
	cfgJSON := filepath.Join(out, "config.json")
	orig, err := os.ReadFile(cfgJSON)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfgJSON, bytes.Replace(orig, []byte(`"seed": 11,`), []byte(`"seed": 12,`), 1), 0o644))
	_, _, err = runCmd(t, "view", out, "-game", "0", "-out", filepath.Join(dir, "x.html"))
	assert.ErrorContains(t, err, "the seed, seats or schedule of config.json were edited, or the bots have changed since the games were played")
	require.NoError(t, os.WriteFile(cfgJSON, orig, 0o644))

	// A parameter of config.json out of its range is named once, by file,
	// seat and key.
	var hdr map[string]any
	require.NoError(t, json.Unmarshal(orig, &hdr))
	seat0 := hdr["seats"].([]any)[0].(map[string]any)
	require.Equal(t, "mars", seat0["bot"])
	seat0["params"] = map[string]any{"W_p": 5}
	edited, err := json.Marshal(hdr)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfgJSON, edited, 0o644))
	_, _, err = runCmd(t, "view", out, "-game", "0", "-out", filepath.Join(dir, "x.html"))
	assert.EqualError(t, err, "view: "+cfgJSON+": seat 0 (mars): params.W_p = 5: must be in [0, 1]")
	seat0["params"] = map[string]any{"W_q": 5}
	edited, err = json.Marshal(hdr)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfgJSON, edited, 0o644))
	_, _, err = runCmd(t, "view", out, "-game", "0", "-out", filepath.Join(dir, "x.html"))
	assert.ErrorContains(t, err, "view: "+cfgJSON+": seat 0 (mars): params.W_q: bot mars has no such parameter (parameters: P_db, P_ob, W_p, ")
	require.NoError(t, os.WriteFile(cfgJSON, orig, 0o644))

	// A changed record is noticed.
	games := filepath.Join(out, "games.jsonl")
	recs, err := os.ReadFile(games)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(recs), "\n")
	lines[2] = strings.Replace(lines[2], `"rounds":`, `"rounds":1`, 1)
	require.NoError(t, os.WriteFile(games, []byte(strings.Join(lines, "")), 0o644))
	_, _, err = runCmd(t, "view", out, "-game", "2", "-out", filepath.Join(dir, "x.html"))
	assert.ErrorContains(t, err, games+": line 3: game 2 played again gives winner")
	assert.NoFileExists(t, filepath.Join(dir, "x.html"))

	// A line too long to be a record is an error naming the file.
	require.NoError(t, os.WriteFile(games, append(bytes.Repeat([]byte{'x'}, 17<<20), '\n'), 0o644))
	_, _, err = runCmd(t, "view", out, "-game", "2", "-out", filepath.Join(dir, "x.html"))
	assert.EqualError(t, err, "view: "+games+": line 1: longer than the line cap of 1 MiB")
}
