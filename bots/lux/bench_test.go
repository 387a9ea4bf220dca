package lux_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// BenchmarkFamilies plays six-seat games of each family of the Lux-style
// bots under mars2006 (the paper tournament's rules) and classic, and
// reports the player-turns per game and the time per player-turn besides
// the time per game: games of different families and rules differ in
// length, so µs/turn compares the bots' cost.
func BenchmarkFamilies(b *testing.B) {
	families := []struct{ name, seats string }{
		{"cluster", clusterSeats},
		{"pixie", "pixie,evilpixie,pixie,evilpixie,pixie,evilpixie"},
		{"simple", "angry,communist,stinky,angry,communist,stinky"},
		{"vulture", "vulture,vulture,vulture,vulture,vulture,vulture"},
		{"paper", "angry,communist,cluster,shaft,evilpixie,yakool"},
	}
	for _, rules := range []string{"mars2006", "classic"} {
		for _, f := range families {
			b.Run(rules+"/"+f.name, func(b *testing.B) {
				tab, err := registry.Default().NewTable(f.seats, rules)
				require.NoError(b, err)
				b.ReportAllocs()
				turns := 0
				for i := 0; b.Loop(); i++ {
					res, err := tab.Play(1, uint64(i))
					if err != nil {
						b.Fatal(err)
					}
					turns += res.Turns
				}
				b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(turns), "µs/turn")
			})
		}
	}
}
