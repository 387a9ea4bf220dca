//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens (creating it) the lock file at path and takes an
// exclusive or shared flock on it without waiting: errBusy when another
// process holds a conflicting lock. A file removed by its previous holder
// between the open and the lock is opened again, so that two processes
// never hold locks on two different files of one path.
func lockFile(path string, exclusive bool) (*os.File, error) {
	how := syscall.LOCK_SH | syscall.LOCK_NB
	if exclusive {
		how = syscall.LOCK_EX | syscall.LOCK_NB
	}
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
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
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close() // the holder before us removed it: lock the new file
	}
	return nil, errBusy
}
