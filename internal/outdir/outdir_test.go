package outdir

import (
	"bufio"
	"errors"
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
)

// TestMain holds a lock as a process of its own when OUTDIR_HOLD is set
// (the folder; OUTDIR_SHARD the shard name for AcquireShard): it prints
// "locked" and waits to be killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("OUTDIR_HOLD"); dir != "" {
		var err error
		if shard := os.Getenv("OUTDIR_SHARD"); shard != "" {
			_, err = AcquireShard(dir, shard)
		} else {
			_, err = Acquire(dir)
		}
		if err != nil {
			os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hold starts a process holding a lock on dir (on its shard if shard is
// not "") and returns it once it holds it.
func hold(t *testing.T, dir, shard string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OUTDIR_HOLD="+dir, "OUTDIR_SHARD="+shard)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)
	return cmd
}

// TestLockProcesses: a folder locked by another process is refused with
// its pid; killing that process (a crash) releases the lock.
func TestLockProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := filepath.Join(t.TempDir(), "run")
	cmd := hold(t, dir, "")
	_, err := Acquire(dir)
	var iu *InUseError
	require.True(t, errors.As(err, &iu), "%v", err)
	assert.EqualError(t, err, dir+" is in use by pid "+strconv.Itoa(cmd.Process.Pid)+": wait for it to end, or choose another output directory")
	_, err = AcquireShard(dir, "0-of-2")
	assert.ErrorContains(t, err, "is in use by pid "+strconv.Itoa(cmd.Process.Pid))

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	l, err := Acquire(dir)
	require.NoError(t, err, "the kernel releases the lock of a killed process")
	b, err := os.ReadFile(filepath.Join(dir, LockName))
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(os.Getpid())+"\n", string(b))
	require.NoError(t, l.Release())
	assert.NoFileExists(t, filepath.Join(dir, LockName))
}

// TestShardProcesses: shards of one run hold a folder together, each
// shard once; the whole run is refused while they run.
func TestShardProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	a := hold(t, dir, "0-of-2")
	l, err := AcquireShard(dir, "1-of-2")
	require.NoError(t, err, "another shard")
	_, err = AcquireShard(dir, "0-of-2")
	assert.EqualError(t, err, dir+" is in use by pid "+strconv.Itoa(a.Process.Pid)+" (shard 0-of-2), pid "+strconv.Itoa(os.Getpid())+" (shard 1-of-2): wait for it to end, or choose another output directory")
	_, err = Acquire(dir)
	assert.ErrorContains(t, err, "(shard 0-of-2)")
	require.NoError(t, l.Release())
	require.NoError(t, a.Process.Signal(syscall.SIGKILL))
	_ = a.Wait()
	l, err = Acquire(dir)
	require.NoError(t, err)
	require.NoError(t, l.Release())
}

func TestLockInProcess(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	require.NoError(t, err)
	_, err = Acquire(dir)
	assert.EqualError(t, err, dir+" is in use by pid "+strconv.Itoa(os.Getpid())+": wait for it to end, or choose another output directory")
	require.NoError(t, l.Release())
	require.NoError(t, l.Release(), "twice")
	assert.DirExists(t, dir, "not created by the lock")

	// A folder the lock created is removed when it is left empty.
	fresh := filepath.Join(dir, "a", "fresh")
	l, err = Acquire(fresh)
	require.NoError(t, err)
	require.NoError(t, l.Release())
	assert.NoDirExists(t, fresh)
	l, err = Acquire(fresh)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(fresh, "x"), nil, 0o644))
	require.NoError(t, l.Release())
	assert.FileExists(t, filepath.Join(fresh, "x"))
	_, err = AcquireShard(dir, "a/b")
	assert.ErrorContains(t, err, `shard name "a/b"`)
}

func TestRefuse(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Refuse(filepath.Join(dir, "none"), "batch", "config.json"))
	require.NoError(t, Refuse(dir, "batch", "config.json", "games.jsonl"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "games.jsonl"), nil, 0o644))
	err := Refuse(dir, "batch", "config.json", "games.jsonl")
	assert.EqualError(t, err, dir+" already holds a batch (games.jsonl)")
	require.ErrorIs(t, err, ErrHoldsRun)
	var held *HeldError
	require.ErrorAs(t, err, &held)
	held.Asked = "tournament"
	assert.EqualError(t, held, dir+" already holds a batch (games.jsonl), not a tournament")
	// A link at a mark's name is a mark too.
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "config.json")))
	assert.EqualError(t, Refuse(dir, "batch", "config.json", "games.jsonl"), dir+" already holds a batch (config.json)")
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/marslab-risk/marslab\n"), 0o644))
	nb := filepath.Join(root, "notebooks", "dice")
	require.NoError(t, os.MkdirAll(nb, 0o755))
	for _, d := range []string{nb, filepath.Join(root, "notebooks"), filepath.Join(nb, "new", "deeper")} {
		assert.ErrorContains(t, Check(d), "is inside the notebook folder "+filepath.Join(root, "notebooks"), d)
	}
	assert.NoError(t, Check(filepath.Join(root, "results", "x")))
	assert.NoError(t, Check(root), "no git: nothing tracked")
	// A folder named notebooks in another project is not marslab's.
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644))
	assert.NoError(t, Check(filepath.Join(other, "notebooks", "x")))

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("init", "-q")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	for _, f := range []string{"README.md", "docs/a.md", "docs/b.md", "docs/c.md", "docs/d.md"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "results", "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "results", "x", "untracked"), nil, 0o644))
	git("add", "go.mod", "README.md", "docs")
	assert.EqualError(t, Check(filepath.Join(root, "docs")), "output directory "+filepath.Join(root, "docs")+
		" holds files git tracks (a.md, b.md, c.md and 1 more): choose a folder without committed files (e.g. under results/)")
	assert.ErrorContains(t, Check(root), "holds files git tracks (README.md, docs/a.md, docs/b.md and 3 more)")
	assert.NoError(t, Check(filepath.Join(root, "results", "x")), "untracked files only")
	files, err := Tracked(filepath.Join(root, "nothing"))
	require.NoError(t, err)
	assert.Empty(t, files)
	assert.True(t, strings.HasPrefix(LockName, "."))
}

// A folder inside one a run holds (exclusively, or by a shard) is refused
// naming the holder; the caller's own folder is not another's, and a
// released folder no longer holds anything below it.
func TestCheckAncestors(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "run")
	child := filepath.Join(run, "narrow", "x")
	require.NoError(t, CheckAncestors(child))
	l, err := Acquire(run)
	require.NoError(t, err)
	err = CheckAncestors(child)
	require.ErrorIs(t, err, ErrInsideRun)
	assert.ErrorContains(t, err, "output directory "+child+": inside the folder of a run in progress: "+run+" is held by another marslab command (pid ")
	assert.NoError(t, CheckAncestors(child, run), "the caller's own folder")
	require.NoError(t, l.Release())
	require.NoError(t, os.MkdirAll(run, 0o755))
	require.NoError(t, CheckAncestors(child))
	s, err := AcquireShard(run, "0-of-2")
	require.NoError(t, err)
	require.ErrorIs(t, CheckAncestors(child), ErrInsideRun)
	require.NoError(t, s.Release())
	require.NoError(t, CheckAncestors(child))
	assert.NoFileExists(t, filepath.Join(run, LockName+".x"), "nothing is created")
}
