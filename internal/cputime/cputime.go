// Package cputime reads the CPU time the process has used, for the
// benchmarks that report CPU seconds beside wall time (a machine shared
// with other work inflates the one far less than the other).
package cputime

import "time"

// Process returns the process's user plus system CPU time since it
// started, and ok false where the platform does not give it.
func Process() (d time.Duration, ok bool) { return process() }
