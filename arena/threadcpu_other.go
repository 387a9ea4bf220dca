//go:build !linux

package arena

import "time"

// threadCPU is not measured on this platform: decision times use the wall
// clock ([Timing.Clock] "wall").
func threadCPU() (time.Duration, bool) { return 0, false }
