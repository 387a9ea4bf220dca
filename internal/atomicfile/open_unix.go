//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"syscall"
)

// noFollow makes an open fail on a symbolic link (O_NOFOLLOW); nonBlock
// makes it return at once on a named pipe (O_NONBLOCK), whose type the
// caller then refuses.
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)

// isLinkErr reports whether an open with noFollow failed on a symbolic
// link.
func isLinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }

// links returns the number of hard links of a file.
func links(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}
