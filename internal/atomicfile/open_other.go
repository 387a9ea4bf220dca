//go:build !unix

package atomicfile

import "io/fs"

// Without O_NOFOLLOW and O_NONBLOCK, [OpenLog] relies on the check of the
// opened file's type alone.
const (
	noFollow = 0
	nonBlock = 0
)

func isLinkErr(error) bool { return false }

// links returns 1: the link count is known on Unix systems only.
func links(fs.FileInfo) uint64 { return 1 }
