package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/outdir"
)

// tinyTransferNotebook writes a transfer notebook of two cells.
func tinyTransferNotebook(t *testing.T) string {
	t.Helper()
	return writeConfig(t, filepath.Join(t.TempDir(), "transfer"), `kind = "transfer"
title = "t"
summary = "s"
question = "q"
seed = 3
thumbnail = "transfer.png"
[transfer]
reference = "mars(goal_paths=shortest)"
sets = ["mars(W_p=0.5;goal_paths=shortest)"]
rules = ["mars2006"]
players = [2, 3]
blocks = 2
[[transfer.field]]
name = "fast"
opponents = ["angry", "aggressive"]
[quick]
blocks = 2
`)
}

// Shards of one transfer notebook run beside each other with one -work on
// one machine: a shard neither locks nor writes the notebook's folder, so
// a shard runs while another process holds that folder.
func TestReportShardsBesideEachOther(t *testing.T) {
	dir := tinyTransferNotebook(t)
	held, err := outdir.Acquire(dir)
	require.NoError(t, err)
	defer held.Release()
	work := filepath.Join(t.TempDir(), "work")
	stdout, err := runReport(t, "-work", work, "-shard", "1/2", dir)
	require.NoError(t, err)
	assert.Contains(t, stdout, "transfer shard 1/2 played into "+work)
	assert.NoFileExists(t, filepath.Join(dir, "README.md"))
}

// A cell being played is locked: a shard of another count that reaches the
// same cell at once is refused with the process that holds it, and plays
// it once the cell is free.
func TestReportShardCellLocked(t *testing.T) {
	dir := tinyTransferNotebook(t)
	work := filepath.Join(t.TempDir(), "work")
	cell := filepath.Join(work, "cell-mars2006-2p-fast")
	lock, err := outdir.Acquire(cell)
	require.NoError(t, err)
	_, err = runReport(t, "-work", work, "-shard", "0/3", dir)
	var inUse *outdir.InUseError
	require.ErrorAs(t, err, &inUse)
	assert.ErrorContains(t, err, cell)
	require.NoError(t, lock.Release())
	_, err = runReport(t, "-work", work, "-shard", "0/3", dir)
	require.NoError(t, err)
	_, err = runReport(t, "-work", work, "-shard", "0/2", dir)
	require.NoError(t, err, "a complete cell is read back by a shard of another count")
}

// A -work cell played under another config is refused naming the first
// key that differs and the flag of the folder, -work.
func TestReportWorkOtherConfig(t *testing.T) {
	dir := tinyTransferNotebook(t)
	work := filepath.Join(t.TempDir(), "work")
	_, err := runReport(t, "-work", work, "-shard", "0/2", dir)
	require.NoError(t, err)
	cfg := filepath.Join(dir, "config.toml")
	b, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, bytes.Replace(b, []byte("blocks = 2\n[["), []byte("blocks = 3\n[["), 1), 0o644))
	_, err = runReport(t, "-work", work, "-shard", "0/2", dir)
	require.Error(t, err)
	assert.Regexp(t, `written by a different search config \([a-z_.\[\]0-9]+: 2 vs 3: file vs this run\): start a new -work directory, or restore the config`, err.Error())
}

// A shard of a folder of notebooks writes no index: the index would link
// to the report each notebook writes only in the run without -shard.
func TestReportShardWritesNoIndex(t *testing.T) {
	t.Parallel()
	root := filepath.Dir(tinyTransferNotebook(t))
	work := filepath.Join(t.TempDir(), "work")
	for _, s := range []string{"0/2", "1/2"} {
		stdout, err := runReport(t, "-work", work, "-shard", s, root)
		require.NoError(t, err)
		assert.NotContains(t, stdout, "index written")
		assert.NoFileExists(t, filepath.Join(root, "README.md"), "shard %s", s)
	}
	stdout, err := runReport(t, "-work", work, root)
	require.NoError(t, err)
	assert.Contains(t, stdout, "report: index written to "+filepath.Join(root, "README.md"))
	assert.FileExists(t, filepath.Join(root, "transfer", "README.md"), "the index links to a report that exists")
}
