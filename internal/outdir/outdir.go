// Package outdir is the ownership of an output folder, shared by every
// marslab command that writes one (batch, merge, tournament, sweep, evolve,
// validate, recognize, learn, report, slurm submit):
//
//   - Acquire takes an exclusive operating-system lock (flock(2)) on the lock
//     file LockName inside the folder for the whole run; the kernel releases
//     it when the process exits or crashes. A second run into the same
//     folder fails at once with an *InUseError naming the holder's pid.
//     AcquireShard lets the shards of one run write into a shared folder
//     together: each holds a shared lock on the folder and an exclusive one
//     on its own shard. A lock file is opened without following a link and
//     must be a regular file of one link holding nothing but a process id
//     (ErrNotLock): a lock never writes outside its folder. A folder that
//     holds a symbolic link to a folder is refused (ErrLinkedFolder): the
//     files a run writes stay under the folder it names.
//   - Check refuses a folder inside a notebook folder (notebooks/ at the
//     root of the repository: committed results), links resolved, or one
//     holding files that git tracks; when git cannot tell, it refuses too
//     (ErrGit).
//   - Refuse is the rule that a run is not written over another one: it
//     returns a *HeldError (ErrHoldsRun) naming the first file of an earlier
//     run it finds.
package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// LockName is the lock file inside a locked folder. An exclusive holder
// writes its process id into it and removes it when it is done; a crash
// leaves it behind, unlocked and harmless.
const LockName = ".marslab.lock"

// shardLockName is the lock file of shard name inside a folder.
func shardLockName(name string) string { return ".marslab.shard-" + name + ".lock" }

// InUseError is the error of a lock held by another process.
type InUseError struct {
	// Dir is the folder.
	Dir string
	// Holders describe the processes holding it ("pid 123", "pid 124
	// (shard 1-of-4)"); empty when unknown.
	Holders []string
}

func (e *InUseError) Error() string {
	if len(e.Holders) == 0 {
		return fmt.Sprintf("%s is in use by another process (it holds the lock %s): wait for it to end, or choose another output directory", e.Dir, LockName)
	}
	return fmt.Sprintf("%s is in use by %s: wait for it to end, or choose another output directory", e.Dir, strings.Join(e.Holders, ", "))
}

// Lock is a held lock on an output folder. Release it when the run ends;
// the process's exit releases it too.
type Lock struct {
	dir     string
	created bool     // the folder did not exist before the lock
	main    *os.File // the folder's lock file, exclusive or shared
	shard   *os.File // the shard's lock file (AcquireShard only)
}

// Acquire creates dir (and its parents) if needed and takes an exclusive lock
// on it: no other Acquire or [AcquireShard] on dir succeeds until Release. It does
// not wait: a folder in use gives an *InUseError naming the holder's
// process id.
func Acquire(dir string) (*Lock, error) {
	created := !exists(dir)
	f, err := lockIn(dir, LockName, true)
	if err != nil {
		return nil, err
	}
	if err := writePID(f); err != nil {
		unlock(f, true)
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, LockName), err)
	}
	l := &Lock{dir: dir, created: created, main: f}
	if !created {
		if err := checkLinks(dir); err != nil {
			l.Release()
			return nil, err
		}
	}
	return l, nil
}

// AcquireShard creates dir if needed and takes a shared lock on it and an
// exclusive lock on its shard name (e.g. "2-of-8"): the shards of one run
// hold dir together, each shard once, and Acquire on dir fails while any
// of them runs.
func AcquireShard(dir, name string) (*Lock, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("outdir: shard name %q: want a non-empty name without slashes", name)
	}
	main, err := lockIn(dir, LockName, false)
	if err != nil {
		return nil, err
	}
	// The folder's lock file names exclusive holders only: empty it of
	// the process id a crashed one may have left.
	_ = main.Truncate(0)
	sf, err := lockFile(filepath.Join(dir, shardLockName(name)), true)
	if err != nil {
		unlock(main, false)
		return nil, inUse(dir, err)
	}
	if err := writePID(sf); err != nil {
		unlock(sf, true)
		unlock(main, false)
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, shardLockName(name)), err)
	}
	l := &Lock{dir: dir, main: main, shard: sf}
	if err := checkLinks(dir); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// ErrLinkedFolder is the error ([errors.Is]) of an output folder that holds
// a symbolic link to a folder: what a run writes under it would land
// outside the output folder.
var ErrLinkedFolder = errors.New("a symbolic link to a folder: what is written under it lands outside the output folder")

// maxScan bounds the entries checkLinks looks at.
const maxScan = 100_000

// checkLinks returns an error wrapping [ErrLinkedFolder] that names the
// first symbolic link to a folder found under dir (the links of dir's own
// path resolved first), among its first maxScan entries.
func checkLinks(dir string) error {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = Resolve(abs)
	}
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	n := 0
	return filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == abs {
				return fmt.Errorf("output directory %s: %w", dir, err)
			}
			return nil // an unreadable entry: nothing is written through it either
		}
		if n++; n > maxScan {
			return filepath.SkipAll
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			rel, err := filepath.Rel(abs, p)
			if err != nil {
				rel = p
			}
			return fmt.Errorf("output directory %s: %s: %w", dir, filepath.Join(dir, rel), ErrLinkedFolder)
		}
		return nil
	})
}

// lockIn creates dir if needed and locks the file name in it. The folder
// is created again if the previous holder removed it (empty) in between.
func lockIn(dir, name string, exclusive bool) (*os.File, error) {
	for i := 0; ; i++ {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		f, err := lockFile(filepath.Join(dir, name), exclusive)
		if errors.Is(err, fs.ErrNotExist) && i < 10 {
			continue
		}
		if err != nil {
			return nil, inUse(dir, err)
		}
		return f, nil
	}
}

// Dir returns the locked folder.
func (l *Lock) Dir() string { return l.dir }

// Release removes the exclusive lock files and releases the locks, and
// removes the folder if Acquire created it and it is left empty (a run
// that failed before writing anything). It may be called more than once.
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	var err error
	if l.shard != nil {
		err = unlock(l.shard, true)
		l.shard = nil
		if l.main != nil {
			err = errors.Join(err, unlock(l.main, false))
			l.main = nil
		}
	}
	if l.main != nil {
		err = unlock(l.main, true)
		l.main = nil
		if l.created {
			_ = os.Remove(l.dir) // fails, as it should, unless empty
		}
	}
	return err
}

// writePID replaces the content of the held lock file f by the process id.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// unlock releases the lock of f; an exclusive holder first removes the
// file, when its name still names it (no other process holds it then, and one that opened it
// before the removal sees a removed file after locking it and opens the
// new one: see lockFile).
func unlock(f *os.File, exclusive bool) error {
	var err error
	if exclusive && same(f, f.Name()) {
		err = os.Remove(f.Name())
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	}
	return errors.Join(err, f.Close()) // closing the last descriptor releases the flock
}

// ErrNotLock is the error ([errors.Is]) of a lock file that is not one: a
// symbolic link, a hard link to another name, a named pipe, a device, or
// a file holding more than a process id. It is never written to.
var ErrNotLock = errors.New("not a marslab lock file (a regular file of one link holding a process id)")

// checkLock returns an error wrapping [ErrNotLock], naming f and what it is,
// unless f is a regular file of one link whose content, if any, is a
// process id (a lock file a crashed run left behind).
func checkLock(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if what := atomicfile.NotRegular(st); what != "" {
		return fmt.Errorf("%s: %s: %w", f.Name(), what, ErrNotLock)
	}
	b := make([]byte, 33)
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	if s := strings.TrimSuffix(string(b[:n]), "\n"); n > 32 || strings.Trim(s, "0123456789") != "" {
		return fmt.Errorf("%s: a file holding other data: %w", f.Name(), ErrNotLock)
	}
	return nil
}

// errBusy is the error of a lock another process holds.
var errBusy = errors.New("locked by another process")

// inUse turns errBusy into an *InUseError naming the holders read from
// dir's lock files.
func inUse(dir string, err error) error {
	if !errors.Is(err, errBusy) {
		return fmt.Errorf("output directory %s: lock: %w", dir, err)
	}
	e := &InUseError{Dir: dir}
	if pid := readPID(filepath.Join(dir, LockName)); pid != "" {
		e.Holders = append(e.Holders, "pid "+pid)
	}
	shards, _ := filepath.Glob(filepath.Join(dir, shardLockName("*")))
	for _, p := range shards {
		if pid := readPID(p); pid != "" {
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), ".marslab.shard-"), ".lock")
			e.Holders = append(e.Holders, fmt.Sprintf("pid %s (shard %s)", pid, name))
		}
	}
	return e
}

// readPID returns the process id written in a lock file, "" if none.
func readPID(path string) string {
	b, err := fileread.ReadFile(path, fileread.Record)
	if err != nil || len(b) > 32 {
		return ""
	}
	s := string(bytes.TrimSpace(b))
	if _, err := strconv.Atoi(s); err != nil {
		return ""
	}
	return s
}

// ErrHoldsRun is the error ([errors.Is]) of a folder that holds an earlier
// run (Refuse, *HeldError).
var ErrHoldsRun = errors.New("the folder holds an earlier run")

// HeldError is Refuse's error: folder Dir holds File, a mark of an earlier
// run of kind Holds ("batch", "recognition run"). Asked, when not "", is
// the kind of run asked for, when it differs.
type HeldError struct {
	Dir, Holds, File, Asked string
}

func (e *HeldError) Error() string {
	if e.Asked != "" && e.Asked != e.Holds {
		return fmt.Sprintf("%s already holds a %s (%s), not a %s", e.Dir, e.Holds, e.File, e.Asked)
	}
	return fmt.Sprintf("%s already holds a %s (%s)", e.Dir, e.Holds, e.File)
}

// Is makes errors.Is(err, [ErrHoldsRun]) true.
func (e *HeldError) Is(target error) bool { return target == ErrHoldsRun }

// Refuse returns a *HeldError when dir holds one of the files names, the
// marks of an earlier run of kind what ("batch", "recognition run"): a run
// is not written over another one unless it resumes it. It returns nil
// when dir does not exist.
func Refuse(dir, what string, names ...string) error {
	n, err := Holds(dir, names...)
	if err != nil || n == "" {
		return err
	}
	return &HeldError{Dir: dir, Holds: what, File: n}
}

// Holds returns the first of the files names that exists in dir, "" when
// none does (or dir does not exist).
func Holds(dir string, names ...string) (string, error) {
	for _, n := range names {
		_, err := os.Lstat(filepath.Join(dir, n))
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("output directory: %w", err)
		}
	}
	return "", nil
}

// ErrGit is the error ([errors.Is]) of Check and Tracked when git fails in a
// git work tree (a repository of another owner, a damaged index): which
// files it tracks is unknown, and the folder is refused.
var ErrGit = errors.New("git cannot tell which files it tracks")

// Check refuses dir as an output folder when it lies inside the notebook
// folder of the marslab repository (the folder notebooks beside the go.mod
// of module Module: committed results, written only by marslab report
// into each notebook's own folder), symbolic links in its path resolved,
// or when it holds files that git tracks (Tracked).
func Check(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	real, err := Resolve(abs)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	for d := real; ; {
		parent := filepath.Dir(d)
		if filepath.Base(d) == "notebooks" && isRepo(parent) {
			return fmt.Errorf("output directory %s is inside the notebook folder %s, whose files are committed results: choose a folder outside it (e.g. under results/)", dir, d)
		}
		if parent == d {
			break
		}
		d = parent
	}
	files, err := Tracked(real)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if len(files) > 0 {
		more := ""
		if len(files) > 3 {
			more = fmt.Sprintf(" and %d more", len(files)-3)
			files = files[:3]
		}
		return fmt.Errorf("output directory %s holds files git tracks (%s%s): choose a folder without committed files (e.g. under results/)", dir, strings.Join(files, ", "), more)
	}
	return nil
}

// Resolve returns the absolute path abs with every symbolic link in it
// replaced by its target, dangling links and the missing rest of the path
// included: the folder a write under abs reaches.
func Resolve(abs string) (string, error) {
	return resolve(filepath.Clean(abs), 0)
}

// resolve is Resolve after depth links followed.
func resolve(path string, depth int) (string, error) {
	if depth > 40 {
		return "", fmt.Errorf("%s: too many levels of symbolic links", path)
	}
	vol := filepath.VolumeName(path)
	parts := strings.Split(strings.TrimPrefix(path[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	for i, part := range parts {
		if part == "" {
			continue
		}
		next := filepath.Join(cur, part)
		st, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...), nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		return resolve(filepath.Join(append([]string{target}, parts[i+1:]...)...), depth+1)
	}
	return filepath.Clean(cur), nil
}

// Tracked returns the files under dir that git tracks, relative to dir
// (git ls-files): none when dir does not exist, is in no git work tree (no
// .git in it or above it) or git is not installed. When git fails in a
// work tree, the error wraps [ErrGit] and quotes git's message.
func Tracked(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, nil
	}
	if !inWorkTree(dir) {
		return nil, nil
	}
	cmd := exec.Command("git", "-C", dir, "ls-files", "-z", "--", ".")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return nil, nil // no git
	}
	if err != nil {
		msg := strings.Join(strings.Fields(stderr.String()), " ")
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		return nil, fmt.Errorf("%w (git ls-files in %s: %v: %s)", ErrGit, dir, err, msg)
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	return files, nil
}

// inWorkTree reports whether dir or a folder above it holds .git (a
// folder, or the file of a linked work tree).
func inWorkTree(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true // let git decide
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// Module is the module path of the marslab repository, whose notebooks
// folder Check refuses.
const Module = "github.com/marslab-risk/marslab"

// RepoRoot returns the folder at or above dir that holds the go.mod of
// Module (dir made absolute), and false when there is none: the root of
// the marslab repository a command runs in.
func RepoRoot(dir string) (string, bool) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if isRepo(d) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// isRepo reports whether dir holds the go.mod of Module.
func isRepo(dir string) bool {
	f, err := fileread.Open(filepath.Join(dir, "go.mod"), fileread.Config)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 512)
	n, _ := io.ReadFull(f, b)
	for _, line := range strings.Split(string(b[:n]), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == Module {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// ErrInsideRun is the error ([errors.Is]) of an output folder inside the
// folder of a run that another marslab process holds: what the command
// wrote there would mix with that run's files.
var ErrInsideRun = errors.New("inside the folder of a run in progress")

// CheckAncestors refuses dir when a folder above it (links resolved) is
// held by a running marslab command, exclusively or by its shards
// (results/run/narrow while marslab run holds results/run). own are folders
// the calling command holds itself, whose locks are not another's.
func CheckAncestors(dir string, own ...string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	real, err := Resolve(abs)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	mine := map[string]bool{}
	for _, o := range own {
		if a, err := filepath.Abs(o); err == nil {
			if r, err := Resolve(a); err == nil {
				mine[r] = true
			}
		}
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		if !mine[d] {
			locks, _ := filepath.Glob(filepath.Join(d, shardLockName("*")))
			for _, l := range append([]string{filepath.Join(d, LockName)}, locks...) {
				if heldByOther(l) {
					holder := ""
					if pid := readPID(l); pid != "" {
						holder = " (pid " + pid + ")"
					}
					return fmt.Errorf("output directory %s: %w: %s is held by another marslab command%s: choose a folder outside it", dir, ErrInsideRun, d, holder)
				}
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
