//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenLog: a log is created, reopened for appending and truncated
// through its descriptor; a symbolic link (dangling or not), a hard link,
// and a named pipe are refused with ErrNotRegular naming the
// path, and what they point to is left untouched.
func TestOpenLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	f, err := OpenLog(path, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString("one\ntw")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	f, err = OpenLog(path, 0o644)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(4))
	_, err = f.WriteString("two\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\n", string(got))

	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
	for _, tc := range []struct {
		name, what string
		make       func(p string) error
	}{
		{"symlink", "a symbolic link", func(p string) error { return os.Symlink(victim, p) }},
		{"dangling", "a symbolic link", func(p string) error { return os.Symlink(filepath.Join(dir, "created"), p) }},
		{"hardlink", "a file of 2 hard links", func(p string) error { return os.Link(victim, p) }},
		{"fifo", "a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			require.NoError(t, tc.make(p))
			_, err := OpenLog(p, 0o644)
			require.ErrorIs(t, err, ErrNotRegular)
			assert.EqualError(t, err, p+": "+tc.what+": "+ErrNotRegular.Error())
			got, err := os.ReadFile(victim)
			require.NoError(t, err)
			assert.Equal(t, "precious\n", string(got))
			assert.NoFileExists(t, filepath.Join(dir, "created"))
		})
	}
}
