// Package atomicfile is the one way marslab writes a file into an output
// folder, so that nothing outside the folder is written through it:
//
//   - WriteFile and Create write a new file beside the target, flush it to
//     the disk and rename it over the target's name: a reader sees either
//     the old content or the new one, never a part, and a symbolic or hard
//     link at that name is replaced, never written through.
//   - OpenLog opens a log that grows by appending across runs (a batch's
//     games, a search's evaluations) without following a symbolic link and
//     refuses anything but a regular file of one link (ErrNotRegular).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is the error of a file that is not a regular file with
// exactly one link (a symbolic link, a hard link to another name, a named
// pipe, a device, a folder): writing into it would write somewhere else
// than the name says, or block.
var ErrNotRegular = errors.New("not a regular file of one link")

// WriteFile writes data to path with permissions perm (as given: the
// process's umask does not apply): to a temporary file of a unique name in
// path's directory, synced to the disk, then renamed to path. Processes writing the same path at once each
// rename a complete file. The temporary file is removed on every error,
// which names path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// File is a file being written in place of path: its data goes to a
// temporary file beside path, which Commit renames over path and Abort
// removes. Write through the embedded *os.File; do not Close it.
type File struct {
	*os.File
	path string
	done bool
}

// Create starts writing the file path with permissions perm (as given: the
// process's umask does not apply) into a new temporary file of a unique
// name in path's directory. Nothing at path changes until Commit.
func Create(path string, perm os.FileMode) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &File{File: tmp, path: path}, nil
}

// Path is the file's final name.
func (f *File) Path() string { return f.path }

// Commit syncs the data to the disk, closes the temporary file and renames
// it over path. On an error the temporary file is removed and path is left
// unchanged; the error names path. Commit after Commit or Abort does
// nothing.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Abort closes and removes the temporary file, leaving path unchanged. It
// does nothing after Commit or Abort, so that it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// OpenLog opens the log file path for reading and appending, creating it
// with permissions perm (less the umask) when it does not exist. It does
// not follow a symbolic link at path and refuses, with an error wrapping
// [ErrNotRegular] that names path, anything but a regular file of one link:
// the log's writes land in the folder that holds its name, and a named
// pipe does not block the caller. Truncate the returned file (not its
// name) to cut a torn last line.
func OpenLog(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, perm)
	if err != nil {
		if isLinkErr(err) {
			return nil, fmt.Errorf("%s: a symbolic link: %w", path, ErrNotRegular)
		}
		return nil, err
	}
	if err := CheckRegular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckRegular returns an error wrapping [ErrNotRegular], naming f and what
// it is, unless f is a regular file with exactly one link.
func CheckRegular(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if what := NotRegular(st); what != "" {
		return fmt.Errorf("%s: %s: %w", f.Name(), what, ErrNotRegular)
	}
	return nil
}

// NotRegular describes a file that is not a regular file of one link ("a
// symbolic link", "a named pipe", "a file of 2 hard links"), "" for one
// that is.
func NotRegular(st fs.FileInfo) string {
	m := st.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	case !m.IsRegular():
		return "not a regular file"
	}
	if n := links(st); n > 1 {
		return fmt.Sprintf("a file of %d hard links", n)
	}
	return ""
}
