//go:build unix

package outdir

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile opens (creating it) the lock file at path, without following a
// symbolic link and without blocking on a named pipe, checks that it is a
// lock file (checkLock) and takes an exclusive or shared flock on it
// without waiting: errBusy when another process holds a conflicting lock.
// A file removed by its previous holder between the open and the lock is
// opened again, so that two processes never hold locks on two different
// files of one path.
func lockFile(path string, exclusive bool) (*os.File, error) {
	how := syscall.LOCK_SH | syscall.LOCK_NB
	if exclusive {
		how = syscall.LOCK_EX | syscall.LOCK_NB
	}
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s: a symbolic link: %w", path, ErrNotLock)
		}
		if err != nil {
			return nil, err
		}
		if err := checkLock(f); err != nil {
			f.Close()
			return nil, err
		}
		for {
			err = syscall.Flock(int(f.Fd()), how)
			if !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		if err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, errBusy
			}
			return nil, err
		}
		if same(f, path) {
			return f, nil
		}
		f.Close() // the holder before us removed it: lock the new file
	}
	return nil, errBusy
}

// same reports whether path names the open file f (not following a link
// at path).
func same(f *os.File, path string) bool {
	held, err1 := f.Stat()
	now, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(held, now)
}

// heldByOther reports whether another open file description holds an
// exclusive flock on the lock file at path (a run holding that folder, or
// one of its shards). It never creates, writes or removes the file; a
// missing file, or one that is not a lock file, is not held.
func heldByOther(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}
