// Package atomicfile writes a file so that a reader sees either its old
// content or the new one, never a part: the data goes to a temporary file
// beside it, is flushed to the disk and renamed over it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to path with permissions perm (as given: the
// process's umask does not apply): to a temporary file of a unique name in
// path's directory, synced to the disk, then renamed to path. Processes writing the same path at once each
// rename a complete file. The temporary file is removed on every error,
// which names path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = tmp.Chmod(perm)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
