//go:build !unix

package outdir

import "os"

// lockFile opens (creating it) the lock file at path. Without flock(2)
// it takes no lock: only Unix systems exclude a second run.
func lockFile(path string, exclusive bool) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
