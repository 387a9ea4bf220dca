//go:build linux

package arena

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID: the CPU time
// of the calling thread.
const clockThreadCPUTimeID = 3

// threadCPU returns the calling OS thread's CPU time (user and system),
// ok false if the kernel does not give it. The caller keeps its goroutine
// on one thread ([runtime.LockOSThread]) between two readings it subtracts.
// clock_gettime of this clock is not in the vDSO: it is a system call
// (about 0.2-0.5 µs), made without the scheduler's hand-off as it cannot
// block.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
