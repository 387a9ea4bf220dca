//go:build unix

package mars_test

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time, ok false if unknown.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
