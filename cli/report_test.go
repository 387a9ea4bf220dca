package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/report"
)

func runReport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), append([]string{"report"}, args...), &out, &errb)
	return out.String(), err
}

// writeConfig writes cfg as the config.toml of the notebook folder dir,
// which it creates, and returns dir.
func writeConfig(t *testing.T, dir, cfg string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o644))
	return dir
}

// notebookConfigs copies the configs of the named committed notebooks into
// a folder of notebooks of their own (their reports not run) and returns it.
func notebookConfigs(t *testing.T, names ...string) string {
	t.Helper()
	nbs := t.TempDir()
	for _, nb := range names {
		cfg, err := os.ReadFile(filepath.Join("..", "notebooks", nb, "config.toml"))
		require.NoError(t, err)
		writeConfig(t, filepath.Join(nbs, nb), string(cfg))
	}
	return nbs
}

// TestReportQuickAll runs a folder of notebooks (the configs of the dice and
// engine notebooks) at their quick size into a temporary folder, as make
// notebooks-quick does with every committed notebook, and checks the files
// and the index. make notebooks-quick plays all of them in CI, without the
// race detector that makes them slow here; under it, the engine notebook's
// quick line-ups play one game each and its quick length sweep 5.
func TestReportQuickAll(t *testing.T) {
	t.Parallel()
	nbs := notebookConfigs(t, "dice", "engine")
	if race.Enabled {
		path := filepath.Join(nbs, "engine", "config.toml")
		cfg, err := os.ReadFile(path)
		require.NoError(t, err)
		small := regexp.MustCompile(`(?m)^quick_games = \d+$`).ReplaceAllString(string(cfg), "quick_games = 1")
		small = strings.Replace(small, "[quick]\nlength_games = 60\n", "[quick]\nlength_games = 5\n", 1)
		require.NotEqual(t, string(cfg), small)
		require.Contains(t, small, "length_games = 5")
		require.NoError(t, os.WriteFile(path, []byte(small), 0o644))
	}
	out := t.TempDir()
	stdout, err := runReport(t, "-quick", "-out", out, nbs)
	require.NoError(t, err)
	assert.Contains(t, stdout, "report: dice written to "+filepath.Join(out, "dice", "README.md"))
	assert.Contains(t, stdout, "report: engine written to "+filepath.Join(out, "engine", "README.md"))
	assert.Contains(t, stdout, "report: index written to "+filepath.Join(out, "README.md"))
	for _, f := range []string{"README.md", "dice/README.md", "dice/table4.csv", "dice/pwin-heatmap.png",
		"dice/pwin-heatmap.svg", "dice/verify.csv", "engine/README.md", "engine/lineups.csv",
		"engine/lengths.csv", "engine/timings.csv", "engine/lengths.png"} {
		st, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
		assert.Positive(t, st.Size(), f)
	}
	idx, err := os.ReadFile(filepath.Join(out, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(idx), "[dice](dice/README.md)")
	assert.Contains(t, string(idx), "[engine](engine/README.md)")
	rep, err := os.ReadFile(filepath.Join(out, "dice", "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(rep), "`marslab report -quick -out DIR notebooks/dice` (quick size:")
}

// TestReportIndex writes only the index of a folder of notebooks: a line
// for each, and no notebook run.
func TestReportIndex(t *testing.T) {
	t.Parallel()
	nbs := notebookConfigs(t, "dice", "transfer")
	stdout, err := runReport(t, "-index", nbs)
	require.NoError(t, err)
	assert.Equal(t, "report: index written to "+filepath.Join(nbs, "README.md")+"\n", stdout)
	idx, err := os.ReadFile(filepath.Join(nbs, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(idx), "| dice (not run yet: `marslab report notebooks/dice`) |")
	assert.Contains(t, string(idx), "| transfer (not run yet: `marslab report notebooks/transfer`) |")
	assert.NoFileExists(t, filepath.Join(nbs, "dice", "README.md"), "no notebook is run")
}

// TestReportShard plays a transfer notebook in two shards into one -work
// folder, then writes its report from them with a run without -shard.
func TestReportShard(t *testing.T) {
	t.Parallel()
	dir := tinyTransferNotebook(t)
	work, out := filepath.Join(t.TempDir(), "work"), filepath.Join(t.TempDir(), "out")
	for i, want := range []string{"transfer shard 0/2 played into " + work, "transfer shard 1/2 played into " + work} {
		stdout, err := runReport(t, "-work", work, "-out", out, "-shard", []string{"0/2", "1/2"}[i], dir)
		require.NoError(t, err)
		assert.Contains(t, stdout, want)
	}
	assert.DirExists(t, filepath.Join(work, "cell-mars2006-2p-fast"))
	assert.DirExists(t, filepath.Join(work, "cell-mars2006-3p-fast"))
	assert.NoFileExists(t, filepath.Join(out, "README.md"))
	stdout, err := runReport(t, "-work", work, "-out", out, dir)
	require.NoError(t, err)
	assert.Equal(t, "report: transfer written to "+filepath.Join(out, "README.md")+"\n", stdout)
	rep, err := os.ReadFile(filepath.Join(out, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(rep), "\n0 games in ", "the shards' games are read back")

	_, err = runReport(t, "-shard", "0/2", dir)
	assert.ErrorContains(t, err, "-shard plays one notebook's part into -work")
	_, err = runReport(t, "-work", work, "-shard", "2/2", dir)
	assert.ErrorContains(t, err, "-shard")
}

// TestReportOne runs one notebook into -out without a subfolder, twice,
// and compares the results.
func TestReportOne(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	nb := filepath.Join("..", "notebooks", "dice")
	for _, dir := range []string{a, b} {
		stdout, err := runReport(t, "-quick", "-out", dir, nb)
		require.NoError(t, err)
		assert.Equal(t, "report: dice written to "+filepath.Join(dir, "README.md")+"\n", stdout)
	}
	for _, f := range []string{"table4.csv", "pwin.csv", "losses.csv", "chains.csv", "verify.csv"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b, f))
		require.NoError(t, err)
		assert.Equal(t, string(x), string(y), f)
	}
	x, err := os.ReadFile(filepath.Join(a, "README.md"))
	require.NoError(t, err)
	y, err := os.ReadFile(filepath.Join(b, "README.md"))
	require.NoError(t, err)
	assert.Equal(t, string(report.StripTimings(x)), string(report.StripTimings(y)))
}

func TestReportErrors(t *testing.T) {
	t.Parallel()
	dir, empty := t.TempDir(), t.TempDir()
	bad := writeConfig(t, filepath.Join(dir, "bad"), `kind = "dice"
title = "t"
summary = "s"
question = "q"
thumbnail = "pwin-heatmap.png"
[dice]
alpha = 2
`)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no notebook", nil, "report: give a notebook folder"},
		{"quick without out", []string{"-quick", "notebooks/dice"}, "report: -quick needs -out"},
		{"no config", []string{"-out", dir, empty}, "holds no config.toml"},
		{"bad config", []string{"-out", dir, bad}, filepath.Join(bad, "config.toml") + ": key dice.alpha: 2 outside (0, 1)"},
		{"bad flag", []string{"-fast"}, "report: flag provided but not defined: -fast"},
		{"index with out", []string{"-index", "-out", dir, "notebooks"}, "report: -index writes only the index"},
		{"index of one notebook", []string{"-index", filepath.Join("..", "notebooks", "dice")}, "is a notebook, not a folder of notebooks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runReport(t, tc.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestReportOutRefused: -out inside a notebook folder (the notebook's own,
// another's, the notebooks folder) or over files git tracks is refused
// before anything is run, and the committed files stay as they were. The
// repository is a copy in a temporary folder.
func TestReportOutRefused(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/marslab-risk/marslab\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "README.md"), []byte("# top\n"), 0o644))
	cfg, err := os.ReadFile(filepath.Join("..", "notebooks", "dice", "config.toml"))
	require.NoError(t, err)
	for _, nb := range []string{"dice", "engine"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, "notebooks", nb), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, "notebooks", nb, "config.toml"), cfg, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(root, "notebooks", nb, "README.md"), []byte("committed\n"), 0o644))
	}
	dice := filepath.Join(root, "notebooks", "dice")
	for _, out := range []string{dice, filepath.Join(root, "notebooks", "engine"), filepath.Join(root, "notebooks"), filepath.Join(dice, "quick")} {
		_, err := runReport(t, "-quick", "-out", out, dice)
		assert.EqualError(t, err, "report: -out: output directory "+out+" is inside the notebook folder "+filepath.Join(root, "notebooks")+
			", whose files are committed results: choose a folder outside it (e.g. under results/)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command("git", "-C", root, "init", "-q")
	require.NoError(t, cmd.Run())
	cmd = exec.Command("git", "-C", root, "add", "go.mod", "README.md", "notebooks")
	require.NoError(t, cmd.Run())
	_, err = runReport(t, "-quick", "-out", root, dice)
	assert.EqualError(t, err, "report: -out: output directory "+root+" holds files git tracks (README.md, go.mod, notebooks/dice/README.md and 3 more): choose a folder without committed files (e.g. under results/)")
	for _, f := range []string{"README.md", "notebooks/dice/README.md", "notebooks/engine/README.md"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "Dice", f)
	}
	assert.NoFileExists(t, filepath.Join(dice, "table4.csv"))
}
