package fileread

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFileRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.toml")
	require.NoError(t, os.WriteFile(path, []byte("x = 1\n"), 0o644))
	data, err := ReadFile(path, Config)
	require.NoError(t, err)
	assert.Equal(t, "x = 1\n", string(data))

	// A link to a regular file is followed.
	link := filepath.Join(dir, "link.toml")
	require.NoError(t, os.Symlink(path, link))
	data, err = ReadFile(link, Config)
	require.NoError(t, err)
	assert.Equal(t, "x = 1\n", string(data))

	// An empty file reads as empty.
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	data, err = ReadFile(empty, Params)
	require.NoError(t, err)
	assert.Empty(t, data)
}

func TestReadFileMissing(t *testing.T) {
	t.Parallel()
	_, err := ReadFile(filepath.Join("testdata", "none.toml"), Config)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrNotExist))
	assert.Equal(t, "open testdata/none.toml: no such file or directory", err.Error())
}

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	linkZero := filepath.Join(dir, "checkpoint.bin")
	require.NoError(t, os.Symlink("/dev/zero", linkZero))
	for _, tc := range []struct {
		path string
		kind Kind
		want string
	}{
		{"/dev/zero", Config, "/dev/zero: not a regular file (a character device): a config file must be a regular file"},
		{"/dev/urandom", Params, "/dev/urandom: not a regular file (a character device): a parameter file must be a regular file"},
		{linkZero, Checkpoint, linkZero + ": not a regular file (a character device): a checkpoint must be a regular file"},
		{dir, Checkpoint, dir + ": not a regular file (a directory): a checkpoint must be a regular file"},
	} {
		_, err := ReadFile(tc.path, tc.kind)
		require.Error(t, err, tc.path)
		assert.Equal(t, tc.want, err.Error())
		assert.True(t, errors.Is(err, ErrNotRegular))
	}
}

func TestSizeCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, k := range []Kind{Config, Params, Record, Policy, Checkpoint, Log, GameLog, Page} {
		// A sparse file one byte over the cap costs no disk.
		path := filepath.Join(dir, k.String())
		f, err := os.Create(path)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(k.Max()+1))
		require.NoError(t, f.Close())
		_, err = ReadFile(path, k)
		require.Error(t, err)
		assert.True(t, errors.Is(err, ErrTooBig))
		assert.Contains(t, err.Error(), path+": ")
		assert.Contains(t, err.Error(), "the cap of a "+k.String()+" is "+Size(k.Max()))

		// At the cap it is read.
		if k == Params {
			require.NoError(t, os.Truncate(path, k.Max()))
			data, err := ReadFile(path, k)
			require.NoError(t, err)
			assert.Len(t, data, int(k.Max()))
		}
	}
	_, err := ReadFile(filepath.Join(dir, Params.String()), Params)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(filepath.Join(dir, Params.String()), 100<<20))
	_, err = ReadFile(filepath.Join(dir, Params.String()), Params)
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, Params.String())+": 104857600 bytes: over the size cap: the cap of a parameter file is 1 MiB", err.Error())
}

// TestGrowsPastCap: a file that grows after it was opened stops at its cap.
func TestGrowsPastCap(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "p.toml")
	require.NoError(t, os.WriteFile(path, []byte("a"), 0o644))
	f, err := Open(path, Params)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, os.Truncate(path, Params.Max()+10))
	_, err = io.ReadAll(f)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrTooBig))
	assert.Contains(t, err.Error(), "grew past the 1 MiB cap of a parameter file")
}

// TestRewind: a second pass reads the file again from its start, within
// the cap again.
func TestRewind(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "p.toml")
	require.NoError(t, os.WriteFile(path, []byte("abc"), 0o644))
	f, err := Open(path, Params)
	require.NoError(t, err)
	defer f.Close()
	for range 2 {
		data, err := io.ReadAll(f)
		require.NoError(t, err)
		assert.Equal(t, "abc", string(data))
		require.NoError(t, f.Rewind())
	}
	require.NoError(t, os.Truncate(path, Params.Max()+1))
	_, err = io.ReadAll(f)
	assert.True(t, errors.Is(err, ErrTooBig))
}

func TestKindNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k    Kind
		name string
		max  string
	}{
		{Config, "config file", "16 MiB"}, {Params, "parameter file", "1 MiB"}, {Record, "run record", "64 MiB"},
		{Policy, "policy file", "1 GiB"}, {Checkpoint, "checkpoint", "4 GiB"}, {Log, "log", "4 GiB"},
		{GameLog, "game log", "256 MiB"}, {Page, "page", "1 GiB"},
	} {
		assert.Equal(t, tc.name, tc.k.String())
		assert.Equal(t, tc.max, Size(tc.k.Max()))
	}
	assert.Equal(t, "fileread.Kind(9)", Kind(9).String())
	assert.Equal(t, int64(0), Kind(-1).Max())
	assert.Equal(t, "1000 bytes", Size(1000))
	assert.Equal(t, "3 KiB", Size(3<<10))
}

// FuzzReadFile: a file within its cap reads back exactly; one over it
// (made sparse, pad bytes past the cap) is refused with ErrTooBig.
func FuzzReadFile(f *testing.F) {
	f.Add([]byte("x = 1\n"), uint8(0), false)
	f.Add([]byte{}, uint8(1), true)
	f.Add([]byte("\x00\xff"), uint8(5), true)
	f.Fuzz(func(t *testing.T, data []byte, kind uint8, over bool) {
		k := Kind(int(kind) % len(kinds))
		path := filepath.Join(t.TempDir(), "f")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		if over {
			require.NoError(t, os.Truncate(path, k.Max()+1))
		}
		got, err := ReadFile(path, k)
		if over {
			require.ErrorIs(t, err, ErrTooBig)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, data, got)
	})
}
