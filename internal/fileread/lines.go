package fileread

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The caps in bytes on one line of a JSONL file that marslab reads.
const (
	// MaxLine caps a line of a game log or a recognition run's games:
	// 64 MiB. The longest valid line is a game log's header, which holds
	// the rule set and the map as TOML texts (each within the 16 MiB cap
	// of a config file) with JSON's escapes.
	MaxLine = 64 << 20
	// MaxRecordLine caps a line of games.jsonl or of a search log or
	// shard: 1 MiB (a game's record or an evaluation is under a kilobyte).
	MaxRecordLine = 1 << 20
)

// ErrLongLine is wrapped by the error for a line longer than a
// [LineReader]'s cap; [ErrTorn] by the error for a last line without its
// newline (a write cut short by a kill).
var (
	ErrLongLine = errors.New("longer than the line cap")
	ErrTorn     = errors.New("torn (no newline)")
)

// LineReader reads a file a line at a time, holding at most its cap of
// one line in memory: a line longer than the cap is an error as soon as
// cap+1 of its bytes are read, whatever the rest of the file holds (a
// sparse file of gigabytes without a newline costs one cap of memory).
type LineReader struct {
	br   *bufio.Reader
	name string
	max  int
	line int
	buf  []byte
}

// NewLineReader reads r, named name in errors, with lines of at most max
// bytes (newline excluded); max <= 0 means [MaxLine].
func NewLineReader(r io.Reader, name string, max int) *LineReader {
	if max <= 0 {
		max = MaxLine
	}
	return &LineReader{br: bufio.NewReaderSize(r, 1<<16), name: name, max: max}
}

// Line returns the number of the line Next returned last, from 1.
func (lr *LineReader) Line() int { return lr.line }

// Next returns the next line without its newline; the slice is valid until
// the next call. At the end of the file it returns nil and [io.EOF]. A last
// line without its newline is returned with an error wrapping [ErrTorn]; a
// line longer than the cap returns nil and an error wrapping [ErrLongLine].
// Both errors name the file and the line.
func (lr *LineReader) Next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	lr.line++
	for {
		frag, err := lr.br.ReadSlice('\n')
		n := len(lr.buf) + len(frag) // the line's bytes so far
		if err == nil {
			n-- // the newline
		}
		if n > lr.max {
			return nil, fmt.Errorf("%s: line %d: %w of %s", lr.name, lr.line, ErrLongLine, Size(int64(lr.max)))
		}
		lr.buf = append(lr.buf, frag...)
		switch {
		case err == nil:
			return lr.buf[:len(lr.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(lr.buf) == 0 {
				lr.line--
				return nil, io.EOF
			}
			return lr.buf, fmt.Errorf("%s: line %d is %w", lr.name, lr.line, ErrTorn)
		default:
			return nil, fmt.Errorf("%s: line %d: %w", lr.name, lr.line, err)
		}
	}
}
