// Package gamebench runs the whole-game benchmarks of the engine and the
// bots and reports their common metrics. It imports nothing of ours, so
// that package sim's own benchmarks can use it.
package gamebench

import "testing"

// Play calls play for the game indexes 0, 1, ... while b.Loop runs and
// reports games/s, player-turns/s and turns/game beside ns/op; play
// returns the game's player turns (sim.Result.Turns). An error fails b.
func Play(b *testing.B, play func(index uint64) (turns int, err error)) {
	b.Helper()
	b.ReportAllocs()
	turns, n := 0, uint64(0)
	for b.Loop() {
		t, err := play(n)
		if err != nil {
			b.Fatal(err)
		}
		turns += t
		n++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(n)/sec, "games/s")
	b.ReportMetric(float64(turns)/sec, "player-turns/s")
	b.ReportMetric(float64(turns)/float64(n), "turns/game")
}
