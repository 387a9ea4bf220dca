//go:build race

package plots

// raceEnabled reports a -race build: TestSaveDeterministic draws each
// figure twice there, not three times (the detector slows drawing many
// times over and has nothing to detect in a figure drawn on one goroutine).
const raceEnabled = true
