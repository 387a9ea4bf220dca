//go:build unix

package outdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLockRefusesNonLocks: a lock file (the folder's or a shard's) that is
// a symbolic link, dangling or not, a hard link, a named pipe or a file of
// other data is refused with ErrNotLock naming it and what it is; the file
// a link points to keeps its content, a dangling link's target is not
// created, and the folder keeps its files.
func TestLockRefusesNonLocks(t *testing.T) {
	for _, tc := range []struct {
		name, what string
		make       func(p, victim, missing string) error
	}{
		{"symlink", "a symbolic link", func(p, victim, _ string) error { return os.Symlink(victim, p) }},
		{"relative symlink", "a symbolic link", func(p, _, _ string) error { return os.Symlink("../victim", p) }},
		{"dangling", "a symbolic link", func(p, _, missing string) error { return os.Symlink(missing, p) }},
		{"hardlink", "a file of 2 hard links", func(p, victim, _ string) error { return os.Link(victim, p) }},
		{"fifo", "a named pipe", func(p, _, _ string) error { return syscall.Mkfifo(p, 0o644) }},
		{"data", "a file holding other data", func(p, _, _ string) error { return os.WriteFile(p, []byte("root:x:0:0\n"), 0o644) }},
		{"long", "a file holding other data", func(p, _, _ string) error {
			return os.WriteFile(p, []byte("123456789012345678901234567890123\n"), 0o644)
		}},
	} {
		for _, shard := range []string{"", "main", "shard"} {
			t.Run(tc.name+"/"+shard, func(t *testing.T) {
				root := t.TempDir()
				victim := filepath.Join(root, "victim")
				require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
				missing := filepath.Join(root, "created")
				dir := filepath.Join(root, "d")
				require.NoError(t, os.Mkdir(dir, 0o755))
				name := LockName
				if shard == "shard" {
					name = shardLockName("0-of-2")
				}
				p := filepath.Join(dir, name)
				require.NoError(t, tc.make(p, victim, missing))
				var err error
				if shard == "" {
					_, err = Acquire(dir)
				} else {
					_, err = AcquireShard(dir, "0-of-2")
				}
				require.ErrorIs(t, err, ErrNotLock)
				assert.Contains(t, err.Error(), p+": "+tc.what+": "+ErrNotLock.Error())
				got, err := os.ReadFile(victim)
				require.NoError(t, err)
				assert.Equal(t, "precious\n", string(got))
				assert.NoFileExists(t, missing)
				_, err = os.Lstat(p)
				require.NoError(t, err, "the refused file stays")
				if tc.name == "data" {
					got, err := os.ReadFile(p)
					require.NoError(t, err)
					assert.Equal(t, "root:x:0:0\n", string(got), "not truncated")
				}
			})
		}
	}
}

// TestLockLeftBehind: a lock file a crashed run left (empty, or holding
// its process id) is taken over.
func TestLockLeftBehind(t *testing.T) {
	for _, content := range []string{"", "12345\n", "12345"} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, LockName), []byte(content), 0o644))
		l, err := Acquire(dir)
		require.NoError(t, err, "%q", content)
		b, err := os.ReadFile(filepath.Join(dir, LockName))
		require.NoError(t, err)
		assert.Equal(t, strconv.Itoa(os.Getpid())+"\n", string(b))
		require.NoError(t, l.Release())
	}
}

// TestCheckLinks: a path into the notebook folder through a symbolic link
// (a linked parent, a dangling link to a folder yet to be made, a chain of
// links) is refused like the real path.
func TestCheckLinks(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/marslab-risk/marslab\n"), 0o644))
	nbs := filepath.Join(root, "notebooks")
	require.NoError(t, os.MkdirAll(filepath.Join(nbs, "dice"), 0o755))
	work := t.TempDir()
	require.NoError(t, os.Symlink(nbs, filepath.Join(work, "nb")))
	require.NoError(t, os.Symlink(filepath.Join(nbs, "new"), filepath.Join(work, "dangling")))
	require.NoError(t, os.Symlink("nb", filepath.Join(work, "chain")))
	require.NoError(t, os.Symlink("loop", filepath.Join(work, "loop")))
	for _, d := range []string{"nb/sub", "nb", "dangling", "dangling/deeper", "chain/dice/x"} {
		err := Check(filepath.Join(work, d))
		assert.ErrorContains(t, err, "output directory "+filepath.Join(work, d)+" is inside the notebook folder "+nbs, d)
	}
	assert.ErrorContains(t, Check(filepath.Join(work, "loop", "x")), "too many levels of symbolic links")
	assert.NoError(t, Check(filepath.Join(work, "results")))

	got, err := Resolve(filepath.Join(work, "chain", "dice", "x", "y"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(nbs, "dice", "x", "y"), got)
}

// TestTrackedGitFails: when git fails in a work tree, Check refuses the
// folder with ErrGit and git's message (a stand-in git that fails as git
// does on a repository of another owner).
func TestTrackedGitFails(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	docs := filepath.Join(root, "docs")
	require.NoError(t, os.Mkdir(docs, 0o755))
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"fatal: detected dubious ownership in repository at '$PWD'\" >&2\nexit 128\n"), 0o755))
	t.Setenv("PATH", bin)
	_, err := Tracked(docs)
	require.ErrorIs(t, err, ErrGit)
	assert.ErrorContains(t, err, "exit status 128: fatal: detected dubious ownership")
	err = Check(docs)
	require.ErrorIs(t, err, ErrGit)
	assert.ErrorContains(t, err, "output directory "+docs+": "+ErrGit.Error())

	// Outside a work tree git is not asked.
	files, err := Tracked(t.TempDir())
	require.NoError(t, err)
	assert.Empty(t, files)
}

// TestTrackedOtherOwner: as root, real git refuses a repository of another
// owner; Check refuses the folder.
func TestTrackedOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changes a file's owner: needs root")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir()) // no safe.directory of the user's
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.WriteFile(filepath.Join(root, "README.md"), []byte("x\n"), 0o644))
	out, err = exec.Command("git", "-C", root, "add", "README.md").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}))
	err = Check(root)
	require.ErrorIs(t, err, ErrGit)
	assert.ErrorContains(t, err, "dubious ownership")
}

// TestLockLinkedFolder: a folder holding a symbolic link to a folder, at
// any depth, is refused by Acquire and AcquireShard with ErrLinkedFolder
// naming the link, and released; links to files, dangling links and a
// linked output folder itself are accepted.
func TestLockLinkedFolder(t *testing.T) {
	root := t.TempDir()
	elsewhere := filepath.Join(root, "elsewhere")
	require.NoError(t, os.Mkdir(elsewhere, 0o755))
	dir := filepath.Join(root, "d")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(root, "victim"), filepath.Join(dir, "file-link")))
	require.NoError(t, os.Symlink(filepath.Join(root, "none"), filepath.Join(dir, "dangling")))
	require.NoError(t, os.Symlink(dir, filepath.Join(root, "linked-out")))
	for _, d := range []string{dir, filepath.Join(root, "linked-out")} {
		l, err := Acquire(d)
		require.NoError(t, err, d)
		require.NoError(t, l.Release())
	}

	link := filepath.Join(dir, "sub", "narrow")
	require.NoError(t, os.Symlink(elsewhere, link))
	_, err := Acquire(dir)
	require.ErrorIs(t, err, ErrLinkedFolder)
	assert.EqualError(t, err, "output directory "+dir+": "+link+": "+ErrLinkedFolder.Error())
	_, err = AcquireShard(dir, "0-of-2")
	require.ErrorIs(t, err, ErrLinkedFolder)
	_, err = Acquire(filepath.Join(root, "linked-out"))
	assert.ErrorContains(t, err, filepath.Join(root, "linked-out", "sub", "narrow")+": ")
	assert.NoFileExists(t, filepath.Join(dir, LockName), "released")
	entries, err := os.ReadDir(elsewhere)
	require.NoError(t, err)
	assert.Empty(t, entries)
	require.NoError(t, os.Remove(link))
	l, err := Acquire(dir)
	require.NoError(t, err)
	require.NoError(t, l.Release())
}
