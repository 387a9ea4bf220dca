//go:build unix

package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/outdir"
)

// marslabProc runs this test binary as the marslab executable (TestMain)
// with args, in a process of its own with the extra environment env, and
// returns its stderr and exit status.
func marslabProc(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "MARSLAB_RUN_MAIN=argv"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stderr.String(), exit.ExitCode()
	}
	require.NoError(t, err, "%v: %s", args, stderr.String())
	return stderr.String(), 0
}

// fakeRepo makes a folder that is the marslab repository for outdir.Check
// (its go.mod names the module) with a notebooks folder, and returns it.
func fakeRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+outdir.Module+"\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "notebooks", "calibration"), 0o755))
	return root
}

// assertText checks that the file path holds want.
func assertText(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want, string(b), path)
}

// TestLockLinksProcess (issue 36, item 1 and the lock FIFO of item 14): a
// folder's lock file, or a sweep shard's, that is a symbolic link (to a
// file, or dangling), a hard link or a named pipe is refused before
// anything is written: the linked file keeps its content, a dangling
// link's target is not created.
func TestLockLinksProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	scfg := sweepConfig(t, t.TempDir(), 1)
	for _, tc := range []struct {
		name, what string
		make       func(p, victim, missing string) error
	}{
		{"symlink", "a symbolic link", func(p, _, _ string) error { return os.Symlink("../victim", p) }},
		{"dangling", "a symbolic link", func(p, _, missing string) error { return os.Symlink(missing, p) }},
		{"hardlink", "a file of 2 hard links", func(p, victim, _ string) error { return os.Link(victim, p) }},
		{"fifo", "a named pipe", func(p, _, _ string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		for _, cmd := range []string{"batch", "sweep -shard"} {
			t.Run(tc.name+"/"+cmd, func(t *testing.T) {
				root := t.TempDir()
				victim, missing := filepath.Join(root, "victim"), filepath.Join(root, "created")
				require.NoError(t, os.WriteFile(victim, []byte("root:x:0:0\n"), 0o644))
				d := filepath.Join(root, "d")
				require.NoError(t, os.Mkdir(d, 0o755))
				lock := filepath.Join(d, outdir.LockName)
				args := []string{"batch", "-players", "pixie,shaft", "-games", "5", "-out", d}
				if cmd != "batch" {
					lock = filepath.Join(d, ".marslab.shard-0-of-2.lock")
					args = []string{"sweep", scfg, "-out", d, "-shard", "0/2"}
				}
				require.NoError(t, tc.make(lock, victim, missing))
				stderr, code := marslabProc(t, nil, args...)
				assert.Equal(t, 1, code, stderr)
				assert.Contains(t, stderr, lock+": "+tc.what+": not a marslab lock file")
				assert.NotContains(t, stderr, "invalid argument")
				assertText(t, victim, "root:x:0:0\n")
				assert.NoFileExists(t, missing)
				entries, err := os.ReadDir(d)
				require.NoError(t, err)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				want := []string{outdir.LockName} // the refused one or, for a shard, the folder's shared one too
				if cmd != "batch" {
					want = append(want, filepath.Base(lock))
				}
				assert.Equal(t, want, names)
			})
		}
	}
}

// TestWriteLinksProcess (item 2): links planted in an output folder at the
// names of the files a command writes are replaced by the new files, and
// what they point to keeps its content: report's README.md and pwin.csv,
// tournament's tables.md and table5.csv. A batch's games.jsonl, appended
// to on -resume, is refused when it is a link.
func TestWriteLinksProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := t.TempDir()
	committed := filepath.Join(root, "committed")
	require.NoError(t, os.Mkdir(committed, 0o755))
	victims := map[string]string{}
	for _, n := range []string{"README.md", "pwin.csv", "tables.md", "table5.csv", "games.jsonl"} {
		victims[n] = filepath.Join(committed, n)
		require.NoError(t, os.WriteFile(victims[n], []byte("committed "+n+"\n"), 0o644))
	}
	plant := func(dir string, names ...string) {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, n := range names {
			require.NoError(t, os.Symlink(victims[n], filepath.Join(dir, n)))
		}
	}
	nb, err := filepath.Abs("../notebooks/dice")
	require.NoError(t, err)

	qs := filepath.Join(root, "qs")
	plant(qs, "README.md", "pwin.csv")
	stderr, code := marslabProc(t, nil, "report", "-quick", "-out", qs, nb)
	require.Equal(t, 0, code, stderr)
	tn := filepath.Join(root, "tn")
	plant(tn, "tables.md", "table5.csv")
	stderr, code = marslabProc(t, nil, "tournament", tournamentConfig(t, root), "-out", tn, "-quiet", "-figures=false")
	require.Equal(t, 0, code, stderr)
	for _, p := range []string{filepath.Join(qs, "README.md"), filepath.Join(qs, "pwin.csv"), filepath.Join(tn, "tables.md"), filepath.Join(tn, "table5.csv")} {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		assert.True(t, fi.Mode().IsRegular(), "%s: %v", p, fi.Mode())
	}

	b := filepath.Join(root, "b")
	args := []string{"batch", "-players", "random,random", "-games", "3", "-quiet", "-out", b}
	_, code = marslabProc(t, nil, args...)
	require.Equal(t, 0, code)
	require.NoError(t, os.Remove(filepath.Join(b, "games.jsonl")))
	plant(b, "games.jsonl")
	stderr, code = marslabProc(t, nil, append(args, "-resume")...)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, filepath.Join(b, "games.jsonl")+": a symbolic link")
	for n, v := range victims {
		assertText(t, v, "committed "+n+"\n")
	}
}

// TestGitRefusesProcess (item 3): when git fails in the work tree of the
// output folder, the folder is refused with git's message and its files
// are kept: with a stand-in git that fails as on a repository of another
// owner, and, as root, with real git on a repository chowned to another
// user.
func TestGitRefusesProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	nb, err := filepath.Abs("../notebooks/dice")
	require.NoError(t, err)
	repo := func(t *testing.T) string {
		root := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "README.md"), []byte("committed\n"), 0o644))
		return root
	}
	check := func(t *testing.T, root string, env []string) {
		docs := filepath.Join(root, "docs")
		stderr, code := marslabProc(t, env, "report", "-quick", "-out", docs, nb)
		assert.Equal(t, 1, code)
		assert.Contains(t, stderr, "marslab: report: -out: output directory "+docs+": git cannot tell which files it tracks (git ls-files in "+docs+": exit status 128: fatal: detected dubious ownership")
		assertText(t, filepath.Join(docs, "README.md"), "committed\n")
		entries, err := os.ReadDir(docs)
		require.NoError(t, err)
		assert.Len(t, entries, 1)
	}
	t.Run("stand-in git", func(t *testing.T) {
		root := repo(t)
		require.NoError(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
		bin := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\nexit 128\n"), 0o755))
		check(t, root, []string{"PATH=" + bin})
	})
	t.Run("another owner", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("changes a file's owner: needs root")
		}
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("no git")
		}
		root := repo(t)
		env := []string{"HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
		for _, args := range [][]string{{"init", "-q"}, {"add", "docs"}} {
			cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
		}
		require.NoError(t, filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 4242, 4242)
		}))
		check(t, root, env)
	})
}

// TestReportWorkProcess (item 4): report -work is checked like -out (not
// inside the notebook folder, not holding tracked files, links resolved)
// and locked: a second report on the same -work is refused naming the
// holder's pid, and nothing is created in a refused folder.
func TestReportWorkProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	nb, err := filepath.Abs("../notebooks/dice")
	require.NoError(t, err)
	root := fakeRepo(t)
	cal := filepath.Join(root, "notebooks", "calibration")
	out := filepath.Join(t.TempDir(), "out")
	stderr, code := marslabProc(t, nil, "report", "-quick", "-out", out, "-work", cal, nb)
	assert.Equal(t, 1, code)
	assert.Equal(t, "marslab: report: -work: output directory "+cal+" is inside the notebook folder "+filepath.Join(root, "notebooks")+
		", whose files are committed results: choose a folder outside it (e.g. under results/)\n", stderr)
	entries, err := os.ReadDir(cal)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing created in the notebook folder")

	link := filepath.Join(t.TempDir(), "w")
	require.NoError(t, os.Symlink(cal, link))
	stderr, code = marslabProc(t, nil, "report", "-quick", "-out", out, "-work", link, nb)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "is inside the notebook folder")

	w := filepath.Join(t.TempDir(), "w")
	l, err := outdir.Acquire(w)
	require.NoError(t, err)
	defer l.Release()
	stderr, code = marslabProc(t, nil, "report", "-quick", "-out", out, "-work", w, nb)
	assert.Equal(t, 1, code)
	assert.Equal(t, "marslab: report: -work: "+w+" is in use by pid "+strconv.Itoa(os.Getpid())+": wait for it to end, or choose another output directory\n", stderr)
	assert.NoDirExists(t, out, "the refused run left nothing")
}

// TestNotebookLinkProcess (item 5): an output folder reached through a
// symbolic link to the notebook folder (a linked parent, or a dangling
// link to a folder to be made there) is refused, and nothing is created.
func TestNotebookLinkProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := fakeRepo(t)
	nbs := filepath.Join(root, "notebooks")
	dir := t.TempDir()
	require.NoError(t, os.Symlink(nbs, filepath.Join(dir, "nb")))
	require.NoError(t, os.Symlink(filepath.Join(nbs, "new"), filepath.Join(dir, "dangling")))
	for _, out := range []string{filepath.Join(dir, "nb", "sub"), filepath.Join(dir, "dangling")} {
		stderr, code := marslabProc(t, nil, "batch", "-players", "pixie,shaft", "-games", "5", "-out", out)
		assert.Equal(t, 1, code)
		assert.Equal(t, "marslab: batch: output directory "+out+" is inside the notebook folder "+nbs+
			", whose files are committed results: choose a folder outside it (e.g. under results/)\n", stderr)
	}
	entries, err := os.ReadDir(nbs)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "only calibration")
	assert.NoDirExists(t, filepath.Join(nbs, "sub"))
	assert.NoDirExists(t, filepath.Join(nbs, "new"))
}

// TestRefusedRunNames (item 14): a refused tournament or batch names what
// the folder holds and the kind asked for.
func TestRefusedRunNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := filepath.Join(dir, "b")
	batchIn(t, b)
	cfg := tournamentConfig(t, dir)
	_, err := runOut(t, "tournament", cfg, "-out", b, "-quiet")
	require.EqualError(t, err, "tournament: "+b+" already holds a batch (config.json), not a tournament: choose another output directory")
	tn := filepath.Join(dir, "tn")
	_, err = runOut(t, "tournament", cfg, "-out", tn, "-quiet", "-figures=false")
	require.NoError(t, err)
	_, err = runOut(t, "tournament", cfg, "-out", tn, "-quiet")
	require.EqualError(t, err, "tournament: "+tn+" already holds a tournament (config.json): use -resume to continue it, or another output directory")
	_, err = runOut(t, "batch", "-players", "random,random", "-games", "2", "-out", tn)
	require.EqualError(t, err, "batch: "+tn+" already holds a tournament (config.json), not a batch: choose another output directory")
	_, err = runOut(t, "batch", "-players", "random,random", "-games", "2", "-out", b)
	require.EqualError(t, err, "batch: "+b+" already holds a batch (config.json): use -resume to continue it, or another output directory")
	assert.True(t, strings.HasPrefix(outdir.LockName, "."))
}

// TestLinkedFolderProcess: an output folder holding a symbolic link to a
// folder elsewhere (a sweep's shards folder) is refused, and nothing is
// written there.
func TestLinkedFolderProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := t.TempDir()
	scfg := sweepConfig(t, root, 1)
	elsewhere := filepath.Join(root, "elsewhere")
	d := filepath.Join(root, "d")
	require.NoError(t, os.Mkdir(elsewhere, 0o755))
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(d, "shards")))
	for _, args := range [][]string{{"sweep", scfg, "-out", d, "-shard", "0/2", "-resume"}, {"sweep", scfg, "-out", d, "-resume"}} {
		stderr, code := marslabProc(t, nil, args...)
		assert.Equal(t, 1, code)
		assert.Contains(t, stderr, filepath.Join(d, "shards")+": a symbolic link to a folder: what is written under it lands outside the output folder: remove the link, or choose another output directory", args)
	}
	entries, err := os.ReadDir(elsewhere)
	require.NoError(t, err)
	assert.Empty(t, entries)
}
