//go:build !unix

package outdir

import "os"

// lockFile opens (creating it) the lock file at path and checks that it is
// a lock file (checkLock). Without flock(2) it takes no lock: only Unix
// systems exclude a second run.
func lockFile(path string, exclusive bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := checkLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// same reports whether path names the open file f.
func same(f *os.File, path string) bool {
	held, err1 := f.Stat()
	now, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(held, now)
}

// heldByOther reports whether another run holds the lock file at path:
// without flock(2) nothing is known to be held.
func heldByOther(string) bool { return false }
