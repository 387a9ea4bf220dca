// Package race tells the module's tests whether they run under the race
// detector (go test -race), in which the invariant sweeps and whole-game
// tests play fewer games, and the notebook tests run each notebook once
// where they otherwise compare two runs: the detector slows the engine
// about tenfold, and a game played on the test's goroutine has no race to
// detect. make test runs them so, make test-full at full size (docs/cli.md).
package race
