//go:build !race

package simtest

// RaceEnabled reports a -race build, in which invariant sweeps may play
// fewer games (the detector slows the engine about tenfold).
const RaceEnabled = false
