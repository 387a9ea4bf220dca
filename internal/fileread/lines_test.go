package fileread_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/fileread"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 10)
	for _, tc := range []struct {
		name, in string
		max      int
		lines    []string
		final    error // the error after the lines
		errText  string
	}{
		{"empty", "", 10, nil, io.EOF, ""},
		{"two lines", "a\nbc\n", 10, []string{"a", "bc"}, io.EOF, ""},
		{"empty lines", "\n\n", 10, []string{"", ""}, io.EOF, ""},
		{"at the cap", long + "\n", 10, []string{long}, io.EOF, ""},
		{"over the cap", long + "y\n", 10, nil, fileread.ErrLongLine, "f.jsonl: line 1: longer than the line cap of 10 bytes"},
		{"over the cap, torn", "a\n" + long + "y", 10, []string{"a"}, fileread.ErrLongLine, "f.jsonl: line 2: longer than the line cap"},
		{"torn", "a\nbc", 10, []string{"a"}, fileread.ErrTorn, "f.jsonl: line 2 is torn (no newline)"},
		{"torn at the cap", "a\n" + long, 10, []string{"a"}, fileread.ErrTorn, "line 2 is torn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := fileread.NewLineReader(strings.NewReader(tc.in), "f.jsonl", tc.max)
			var got []string
			var err error
			for {
				var b []byte
				b, err = lr.Next()
				if err != nil {
					break
				}
				got = append(got, string(b))
			}
			assert.Equal(t, tc.lines, got)
			require.ErrorIs(t, err, tc.final)
			if tc.errText != "" {
				assert.ErrorContains(t, err, tc.errText)
			}
		})
	}
}

// A line longer than the cap is refused after cap+1 bytes, whatever the
// buffer's size: a line far longer than bufio's 64 KiB buffer.
func TestLineReaderLongerThanBuffer(t *testing.T) {
	in := strings.Repeat("y", 200<<10) + "\n" + strings.Repeat("z", 300<<10) + "\n"
	lr := fileread.NewLineReader(strings.NewReader(in), "g", 250<<10)
	b, err := lr.Next()
	require.NoError(t, err)
	assert.Len(t, b, 200<<10)
	_, err = lr.Next()
	require.ErrorIs(t, err, fileread.ErrLongLine)
	assert.Equal(t, 2, lr.Line())
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A sparse file of gigabytes without a newline costs one cap of reading:
// the reader stops with ErrLongLine after cap+1 bytes and its buffer.
func TestLineReaderSparseFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o644))
	require.NoError(t, os.Truncate(path, 3<<30))
	f, err := fileread.Open(path, fileread.Log)
	require.NoError(t, err)
	defer f.Close()
	cr := &countingReader{r: f}
	lr := fileread.NewLineReader(cr, path, 1<<20)
	b, err := lr.Next()
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	_, err = lr.Next()
	require.True(t, errors.Is(err, fileread.ErrLongLine), "%v", err)
	assert.Less(t, cr.n, int64(1<<20+2<<16), "bytes read before the refusal")
}
