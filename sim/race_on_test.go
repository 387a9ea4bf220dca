//go:build race

package sim

// raceEnabled reports a -race build: the long invariant sweeps play fewer
// games there (the detector slows the engine about tenfold).
const raceEnabled = true
