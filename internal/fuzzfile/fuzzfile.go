// Package fuzzfile holds the steps the fuzz tests of every bounded file
// reader (package fileread's kinds) share: write the fuzzed bytes to a
// file, made one byte over the kind's cap when asked, and check the
// reader's refusal.
package fuzzfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marslab-risk/marslab/internal/fileread"
)

// Write writes data to dir/name and returns the path. With over, the file
// is then made sparse to one byte over kind's cap ([fileread.Kind.Max]), so
// a reader must refuse it without reading it. A failure fails tb.
func Write(tb testing.TB, dir, name string, data []byte, over bool, kind fileread.Kind) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if over {
		if err := os.Truncate(path, kind.Max()+1); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// Refused checks a reader's error on a file that Write wrote: with over,
// err must be [fileread.ErrTooBig]; otherwise an error must contain want
// (the file's path, or the reader's prefix). It reports whether the
// reader refused the file, after which the fuzz case has nothing more to
// check.
func Refused(tb testing.TB, err error, over bool, want string) bool {
	tb.Helper()
	if over {
		if !errors.Is(err, fileread.ErrTooBig) {
			tb.Fatalf("a file over the cap: got %v, want %v", err, fileread.ErrTooBig)
		}
		return true
	}
	if err != nil && !strings.Contains(err.Error(), want) {
		tb.Fatalf("error %q does not contain %q", err, want)
	}
	return err != nil
}
