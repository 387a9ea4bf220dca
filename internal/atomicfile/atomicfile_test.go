package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	require.NoError(t, WriteFile(path, []byte("one\n"), 0o644))
	require.NoError(t, WriteFile(path, []byte("two\n"), 0o644))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two\n", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "temporary files left")

	// Writers at once each rename a whole file: the last one wins whole.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, WriteFile(path, []byte(strings.Repeat(string(rune('a'+i)), 1<<16)), 0o644))
		}()
	}
	wg.Wait()
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, got, 1<<16)
	assert.Equal(t, strings.Repeat(string(got[0]), 1<<16), string(got), "a mix of two writes")

	// A missing directory is an error naming the path, and leaves nothing.
	err = WriteFile(filepath.Join(dir, "none", "x.json"), []byte("x"), 0o644)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(dir, "none", "x.json"))
	// A path that is a directory: the rename fails, the temporary file goes.
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sub, "keep"), nil, 0o644))
	require.Error(t, WriteFile(sub, []byte("x"), 0o644))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "temporary files left")
}

// TestWriteReplacesLinks: a symbolic or hard link at the written name is
// replaced by the new file; the file it pointed to keeps its content.
func TestWriteReplacesLinks(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"symlink", "hardlink", "dangling"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim")
			require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
			out := filepath.Join(dir, "out")
			require.NoError(t, os.Mkdir(out, 0o755))
			path := filepath.Join(out, "README.md")
			switch kind {
			case "symlink":
				require.NoError(t, os.Symlink(victim, path))
			case "hardlink":
				require.NoError(t, os.Link(victim, path))
			case "dangling":
				require.NoError(t, os.Symlink(filepath.Join(dir, "created"), path))
			}
			f, err := Create(path, 0o644)
			require.NoError(t, err)
			_, err = f.WriteString("new\n")
			require.NoError(t, err)
			require.NoError(t, f.Commit())
			require.NoError(t, f.Commit(), "a second Commit does nothing")

			got, err := os.ReadFile(victim)
			require.NoError(t, err)
			assert.Equal(t, "precious\n", string(got))
			assert.NoFileExists(t, filepath.Join(dir, "created"))
			fi, err := os.Lstat(path)
			require.NoError(t, err)
			assert.True(t, fi.Mode().IsRegular(), "%v", fi.Mode())
			got, err = os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, "new\n", string(got))
		})
	}
}

// TestCreateAbort: an aborted file leaves the name unchanged and no
// temporary file.
func TestCreateAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tables.md")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	f, err := Create(path, 0o644)
	require.NoError(t, err)
	assert.Equal(t, path, f.Path())
	_, err = f.WriteString("half")
	require.NoError(t, err)
	f.Abort()
	f.Abort()
	require.NoError(t, f.Commit(), "Commit after Abort does nothing")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "temporary files left")
}
