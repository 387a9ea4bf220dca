package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestUnknownKeyEveryConfig: an unknown key in every kind of TOML file the
// project reads, given to the command that reads it, is one error in one
// wording: the file, the line and the key, and the keys allowed there.
func TestUnknownKeyEveryConfig(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..")
	exp := func(name string) string { return filepath.Join(root, "configs", "experiments", name) }
	nb := func(name string) string { return filepath.Join(root, "notebooks", name, "config.toml") }
	for _, tc := range []struct {
		name  string
		src   string // the config the key is added to
		after string // the line the key follows ("": the first line)
		key   string // the key as the error names it
		args  func(path, out string) []string
	}{
		{"map", filepath.Join(root, "configs", "maps", "classic.toml"), "", "bogus", mapArgs},
		{"map continent", filepath.Join(root, "configs", "maps", "classic.toml"), "[[continents]]", "continents[0].bogus", mapArgs},
		{"rules", filepath.Join(root, "configs", "rules", "mars2006.toml"), "[cards]", "cards.bogus",
			func(p, _ string) []string { return []string{"map", "-rules", p} }},
		{"bot parameter file", filepath.Join(root, "configs", "bots", "mars-tuned.toml"), "", "bogus",
			func(p, _ string) []string { return []string{"bots", "-params", "mars@" + p} }},
		{"tournament", exp("demo-tournament.toml"), "", "bogus", configArgs("tournament")},
		{"sweep", exp("narrow-wp-pob.toml"), "[narrow]", "narrow.bogus", configArgs("sweep")},
		{"sweep param", exp("narrow-wp-pob.toml"), "[[param]]", "param[0].bogus", configArgs("sweep")},
		{"mixture condition", exp("calibration-robust-narrow.toml"), "[[condition]]", "condition[0].bogus", configArgs("sweep")},
		{"evolve", exp("cmaes-all.toml"), "[cmaes]", "cmaes.bogus", configArgs("evolve")},
		{"run", exp("paper-run.toml"), "[validate]", "validate.bogus", configArgs("run")},
		{"validate", exp("narrow-wp-pob.toml"), "", "bogus",
			func(p, out string) []string { return []string{"validate", p, "-a", "mars@paper", "-out", out} }},
		{"recognize", exp("phatt.toml"), "[[arms]]", "arms[0].bogus", configArgs("recognize")},
		{"learn", exp("strategist.toml"), "[train]", "train.bogus", configArgs("learn")},
		{"learn env", exp("strategist.toml"), "[env]", "env.bogus", configArgs("learn")},
		{"compare paper", nb("paper-tournament"), "[paper.bots.mars]", "paper.bots.mars.bogus",
			func(p, out string) []string { return []string{"compare", out, out, "-paper", p} }},
		{"notebook header", nb("dice"), "", "bogus", notebookArgs},
		{"notebook calibration", nb("calibration"), "[calibration]", "calibration.bogus", notebookArgs},
		{"notebook dice", nb("dice"), "[dice]", "dice.bogus", notebookArgs},
		{"notebook engine", nb("engine"), "[[engine.lineups]]", "engine.lineups[0].bogus", notebookArgs},
		{"notebook readings", nb("paper-readings"), "[[readings.option]]", "readings.option[0].bogus", notebookArgs},
		{"notebook tournament", nb("paper-tournament"), "[tournament]", "tournament.bogus", notebookArgs},
		{"notebook recognition", nb("recognition"), "[recognition]", "recognition.bogus", notebookArgs},
		{"notebook strategist", nb("strategist"), "[[ablation]]", "ablation[0].bogus", notebookArgs},
		{"notebook transfer", nb("transfer"), "[[transfer.field]]", "transfer.field[0].bogus", notebookArgs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path, line := withKey(t, tc.src, tc.after, dir)
			_, _, err := runCmd(t, tc.args(path, filepath.Join(dir, "out"))...)
			require.Error(t, err)
			want := fmt.Sprintf("%s:%d: unknown key %q (allowed: ", path, line, tc.key)
			assert.Contains(t, err.Error(), want)
			assert.Equal(t, 1, strings.Count(err.Error(), "unknown key"), err.Error())
		})
	}

	// The environment of marslab env serve, and a position (the tests'
	// set-ups, sim.LoadPosition).
	dir := t.TempDir()
	env := filepath.Join(dir, "env.toml")
	require.NoError(t, os.WriteFile(env, []byte("players = 4\nbogus = 1\n"), 0o644))
	_, _, err := runCmd(t, "env", "serve", env)
	require.ErrorContains(t, err, env+`:2: unknown key "bogus" (allowed: rules, players, seat, actions, opponents, features, rewards)`)
	pos, line := withKey(t, filepath.Join(root, "sim", "testdata", "positions", "attack.toml"), "phase =", dir)
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules("classic")
	require.NoError(t, err)
	_, err = sim.LoadPosition(pos, m, r)
	require.ErrorContains(t, err, fmt.Sprintf(`%s:%d: unknown key "bogus" (allowed: players, round, current, phase, `, pos, line))
}

// withKey writes src into dir with the line "bogus = 1" after the first
// line that is after ("" : before the first line), and returns the file
// and the key's line.
func withKey(t *testing.T, src, after, dir string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	at := 0
	if after != "" {
		at = -1
		for i, l := range lines {
			if strings.HasPrefix(l, after) {
				at = i + 1
				break
			}
		}
		require.GreaterOrEqual(t, at, 0, "%s has no line %q", src, after)
	}
	lines = append(lines[:at], append([]string{"bogus = 1\n"}, lines[at:]...)...)
	path := filepath.Join(dir, "config.toml")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644))
	return path, at + 1
}

func mapArgs(p, _ string) []string { return []string{"map", p} }

func notebookArgs(p, _ string) []string { return []string{"report", filepath.Dir(p)} }

func configArgs(cmd string) func(p, out string) []string {
	return func(p, out string) []string { return []string{cmd, p, "-out", out} }
}
