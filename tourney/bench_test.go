package tourney

import (
	"fmt"
	"testing"

	"github.com/marslab-risk/marslab/arena"
)

// BenchmarkAnalyze measures the analysis of the paper's tournament: 1716
// six-player games of 13 bots.
func BenchmarkAnalyze(b *testing.B) {
	labels := make([]string, 13)
	for i := range labels {
		labels[i] = fmt.Sprintf("bot%d", i)
	}
	sched, err := arena.NewSubsets(13, 6, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	recs := make([]arena.Record, sched.Games())
	var lineup []int
	for g := range recs {
		lineup = sched.Lineup(g, lineup)
		r := arena.Record{Game: g, Winner: g % 6, Rounds: 40, Turns: 150, Faults: make([]int, 6)}
		for s, e := range lineup {
			r.Seating = append(r.Seating, labels[e])
			r.Placements = append(r.Placements, (s-g%6+6)%6+1)
		}
		recs[g] = r
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(labels, 6, recs, nil); err != nil {
			b.Fatal(err)
		}
	}
}
