// Package fileread reads marslab's input files with a size cap per kind of
// file, and only regular files: a path naming a device (/dev/zero,
// /dev/urandom), a FIFO, a socket or a directory is refused after an
// [os.Stat] and before it is opened, so a FIFO never blocks and a device
// never fills memory. A symbolic link is followed: a link to a regular file
// is read, a link to /dev/zero is refused.
//
// Every error names the file; a file over its cap is refused with the cap
// and the kind, e.g.
//
//	big.toml: 104857600 bytes: over the 1 MiB cap of a parameter file
package fileread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Kind is a kind of input file; it sets the size cap (Kind.Max).
type Kind int

// The kinds of file and their caps. A cap is far above what a valid file of
// its kind holds, and low enough that reading it cannot exhaust memory.
const (
	// Config is a TOML configuration: a rule set, a map, a position, an
	// experiment, tournament, search, learn or notebook config. Cap 16 MiB
	// (a map at the engine's most territories, 10000, is about 2 MiB).
	Config Kind = iota
	// Params is a bot parameter file (the FILE of mars@FILE). Cap 1 MiB.
	Params
	// Record is a small JSON file a run writes beside its results
	// (config.json, timing.json). Cap 64 MiB.
	Record
	// Policy is a trained policy (policy.json). Cap 1 GiB (the largest
	// Q-table, 2^22 states, is about 0.5 GiB of JSON).
	Policy
	// Checkpoint is a learn checkpoint (checkpoint.bin). Cap 4 GiB: a
	// reader checks its header lines before the rest and streams the rest
	// (learn holds the decoded state, about the file's size, in memory).
	Checkpoint
	// Log is a JSONL log read a line at a time (NewLineReader, or sim's
	// capped reader), never whole: a game log replayed, games.jsonl, a
	// search log or shard. Cap 4 GiB.
	Log
	// GameLog is one game's JSONL log read whole and drawn as a page
	// (marslab view holds about ten times the log in memory while it
	// builds the page). Cap 256 MiB: a game of six seats over 55 rounds,
	// with MARS's explanations, logs 0.8 MiB.
	GameLog
	// Page is a web page of marslab view, of which only the head is read
	// (to check that the file it would overwrite is such a page). Cap 1 GiB.
	Page
)

var kinds = [...]struct {
	name string
	max  int64
}{
	Config:     {"config file", 16 << 20},
	Params:     {"parameter file", 1 << 20},
	Record:     {"run record", 64 << 20},
	Policy:     {"policy file", 1 << 30},
	Checkpoint: {"checkpoint", 4 << 30},
	Log:        {"log", 4 << 30},
	GameLog:    {"game log", 256 << 20},
	Page:       {"page", 1 << 30},
}

// String returns the kind's name, e.g. "parameter file".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kinds) {
		return fmt.Sprintf("fileread.Kind(%d)", int(k))
	}
	return kinds[k].name
}

// Max returns the kind's size cap in bytes.
func (k Kind) Max() int64 {
	if k < 0 || int(k) >= len(kinds) {
		return 0
	}
	return kinds[k].max
}

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file; [ErrTooBig] by the error for a file over its kind's cap.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooBig     = errors.New("over the size cap")
)

// Check stats path (following symbolic links) and returns its FileInfo if it
// is a regular file within k's cap. It never opens path.
func Check(path string, k Kind) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		// Reported as os.Open reports it: "open PATH: no such file or
		// directory".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open"
		}
		return nil, err
	}
	return fi, check(path, fi, k)
}

func check(path string, fi fs.FileInfo, k Kind) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s): a %s must be a regular file", path, ErrNotRegular, describe(fi.Mode()), k)
	}
	if fi.Size() > k.Max() {
		return fmt.Errorf("%s: %d bytes: %w: the cap of a %s is %s", path, fi.Size(), ErrTooBig, k, Size(k.Max()))
	}
	return nil
}

// describe names a non-regular file mode.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "mode " + m.String()
}

// Size formats a byte count as the caps are written: "16 MiB", "1 GiB",
// or bytes when it is not a whole number of KiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// File is an open input file: reads stop with an error naming the file
// past its kind's cap, even if the file grows after it was opened.
type File struct {
	f    *os.File
	r    io.LimitedReader
	path string
	kind Kind
}

// Open checks path as Check does, opens it, and checks that the opened
// file is the one checked (a path swapped for a FIFO or a device between
// the two is refused).
func Open(path string, k Kind) (*File, error) {
	fi, err := Check(path, k)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ofi, err := f.Stat()
	if err == nil && !os.SameFile(fi, ofi) {
		err = fmt.Errorf("%s: changed while it was opened", path)
	}
	if err == nil {
		err = check(path, ofi, k)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	rf := &File{f: f, path: path, kind: k}
	rf.r = io.LimitedReader{R: f, N: k.Max() + 1}
	return rf, nil
}

// Read reads from the file; past the cap it returns an error wrapping
// [ErrTooBig].
func (f *File) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if f.r.N <= 0 {
		return n, fmt.Errorf("%s: %w: it grew past the %s cap of a %s", f.path, ErrTooBig, Size(f.kind.Max()), f.kind)
	}
	return n, err
}

// Rewind goes back to the start of the file, for a second pass (a
// checksum over the file, then a decoding of it).
func (f *File) Rewind() error {
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	f.r = io.LimitedReader{R: f.f, N: f.kind.Max() + 1}
	return nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Name returns the path the file was opened with.
func (f *File) Name() string { return f.path }

// ReadFile reads the whole file at path, a regular file within k's cap.
// Errors name path; a missing file's error wraps [fs.ErrNotExist], as
// [os.ReadFile]'s does.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
