package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/outdir"
)

// TestOutputLocked: every command that writes a folder refuses one that
// another run holds, naming its process id, and writes nothing into it.
// The lock is held here on a descriptor of its own, as another process's
// would be (flock locks conflict between open files).
func TestOutputLocked(t *testing.T) {
	t.Parallel()
	cases, calls := folderCases(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			l, err := outdir.Acquire(out)
			require.NoError(t, err)
			defer l.Release()
			_, err = runOut(t, tc.args(out)...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), out+" is in use by pid "+strconv.Itoa(os.Getpid())+": wait for it to end, or choose another output directory")
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			require.Len(t, entries, 1, "only the lock file")
			assert.Equal(t, outdir.LockName, entries[0].Name())
		})
	}
	assert.NoFileExists(t, calls, "nothing submitted")
}

// A folderCase is a command line that writes into the folder out, which
// it names by the command's flag.
type folderCase struct {
	name string
	flag string // the flag that names out: "out" or "work"
	args func(out string) []string
}

// folderCases returns a command line of every command that writes a folder,
// each folder flag of it, and the file the fake sbatch of slurm submit
// writes when called.
func folderCases(t *testing.T) (cases []folderCase, sbatchCalls string) {
	t.Helper()
	exe := fakeMarslab(t)
	dir := t.TempDir()
	tcfg := tournamentConfig(t, dir)
	scfg := sweepConfig(t, dir, 1)
	lcfg := writeQConfig(t, dir, 8, 4)
	ucfg := runConfig(t, dir)
	rcfg, err := filepath.Abs("../internal/recognition/testdata/small.toml")
	require.NoError(t, err)
	sbatch, calls := fakeSbatch(t, dir)
	games := filepath.Join(dir, "games")
	_, err = runOut(t, "batch", "-players", "random,random,random", "-games", "3", "-seed", "1", "-quiet", "-out", games)
	require.NoError(t, err)
	return []folderCase{
		{"batch", "out", func(out string) []string {
			return []string{"batch", "-players", "random,random", "-games", "2", "-out", out}
		}},
		{"merge", "out", func(out string) []string { return []string{"merge", "-out", out, dir} }},
		{"tournament", "out", func(out string) []string { return []string{"tournament", tcfg, "-out", out} }},
		{"sweep", "out", func(out string) []string { return []string{"sweep", scfg, "-out", out} }},
		{"sweep -merge", "out", func(out string) []string { return []string{"sweep", scfg, "-out", out, "-merge"} }},
		{"sweep -shard", "out", func(out string) []string { return []string{"sweep", scfg, "-out", out, "-shard", "0/2"} }},
		{"evolve", "out", func(out string) []string { return []string{"evolve", scfg, "-out", out} }},
		{"validate", "out", func(out string) []string {
			return []string{"validate", scfg, "-a", "random(stop=0.5)", "-b", "random", "-blocks", "2", "-out", out}
		}},
		{"recognize", "out", func(out string) []string { return []string{"recognize", rcfg, "-out", out, "-games", "1"} }},
		{"learn", "out", func(out string) []string { return []string{"learn", "-out", out, lcfg} }},
		{"run", "out", func(out string) []string { return []string{"run", ucfg, "-out", out} }},
		{"rate", "out", func(out string) []string { return []string{"rate", "-out", out, games} }},
		{"report", "out", func(out string) []string { return []string{"report", "-quick", "-out", out, "../notebooks/dice"} }},
		{"report -work", "work", func(out string) []string {
			return []string{"report", "-quick", "-out", filepath.Join(t.TempDir(), "o"), "-work", out, "../notebooks/dice"}
		}},
		{"slurm submit", "out", func(out string) []string {
			return []string{"slurm", "submit", "-out", out, "-tasks", "2", "-marslab", exe, "-sbatch", sbatch, "tournament", tcfg}
		}},
	}, calls
}

// TestOutputLockProcesses: two marslab processes on one folder: the
// second fails at once naming the first one's pid; killing the first (a
// crash) releases the folder, and the run resumes.
func TestOutputLockProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	out := filepath.Join(t.TempDir(), "b")
	args := []string{"batch", "-players", "random,random", "-games", "100000000", "-workers", "1", "-quiet", "-out", out}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MARSLAB_RUN_MAIN=1", "MARSLAB_ARGS="+strings.Join(args, " "))
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// Wait until the first holds the folder and has written a game.
	pid := strconv.Itoa(cmd.Process.Pid)
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(out, outdir.LockName))
		g, _ := os.ReadFile(filepath.Join(out, "games.jsonl"))
		if strings.TrimSpace(string(b)) == pid && len(g) > 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the first process never locked %s", out)
		time.Sleep(20 * time.Millisecond)
	}

	second := exec.Command(os.Args[0], "-test.run=^$")
	second.Env = append(os.Environ(), "MARSLAB_RUN_MAIN=1", "MARSLAB_ARGS="+strings.Join(append(args, "-resume"), " "))
	var stderr bytes.Buffer
	second.Stderr = &stderr
	err := second.Run()
	require.Error(t, err)
	assert.Equal(t, "marslab: batch: "+out+" is in use by pid "+pid+": wait for it to end, or choose another output directory\n", stderr.String())

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	// The kernel released the lock: a resumed run takes the folder and
	// goes on (cut short here after a moment).
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var so, se bytes.Buffer
	err = run(ctx, registry.Default(), append(args, "-resume"), &so, &se)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run again with -resume")
	assert.NotContains(t, err.Error(), "in use")
	games, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
	require.NoError(t, err)
	assert.Positive(t, bytes.Count(games, []byte("\n")))
}
