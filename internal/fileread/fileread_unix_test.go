//go:build unix

package fileread

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFIFONeverOpened makes a real FIFO with no writer: opening it would
// block forever, so a read that returns at all shows it was refused first.
func TestFIFONeverOpened(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(path, Params)
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Equal(t, path+": not a regular file (a FIFO): a parameter file must be a regular file", err.Error())
	case <-time.After(10 * time.Second):
		// Unblock the reader so the test ends.
		if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("ReadFile blocked on a FIFO")
	}
}
