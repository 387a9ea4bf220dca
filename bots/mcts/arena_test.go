package mcts_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/cputime"
	"github.com/marslab-risk/marslab/sim"
)

// TestWorkers: a batch seating mcts gives the same games with one worker
// and with three: the bot draws only from its seat's stream.
func TestWorkers(t *testing.T) {
	seats, err := registry.Default().ParseSeats("mcts(playouts=3;depth=2),mcts(playouts=2;depth=1;policy=random),stinky", nil)
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	play := func(workers int) []arena.Record {
		var recs []arena.Record
		_, err := arena.Run(context.Background(), arena.Config{Map: m, Rules: r, Seats: seats, Games: 6, Seed: 46, Workers: workers,
			OnRecord: func(rec arena.Record) { recs = append(recs, rec) }})
		require.NoError(t, err)
		return recs
	}
	one := play(1)
	require.Len(t, one, 6)
	for _, rec := range one {
		for seat, label := range rec.Seating {
			if label != "stinky" {
				assert.Positive(t, rec.Stats[seat]["playouts"], "game %d seat %d (%s)", rec.Game, seat, label)
			}
		}
	}
	assert.Equal(t, one, play(3))
}

// BenchmarkGame plays six-player games under the rules mars2006 of mcts at
// its default budget against the five strongest Lux bots (EvilPixie, Bort,
// Boscoe, Quo, Yakool), the seats rotated by game as a batch rotates them,
// and reports the process's CPU seconds per game (cpu-s/game: mostly the
// search's, the Lux bots and the engine taking a few ms), the searched
// decisions per game and the CPU milliseconds per searched decision.
func BenchmarkGame(b *testing.B) {
	const specs = "mcts,evilpixie,bort,boscoe,quo,yakool"
	seats, err := registry.Default().ParseSeats(specs, nil)
	if err != nil {
		b.Fatal(err)
	}
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		b.Fatal(err)
	}
	m, err := r.LoadMap()
	if err != nil {
		b.Fatal(err)
	}
	g, err := sim.NewGame(m, r, len(seats))
	if err != nil {
		b.Fatal(err)
	}
	players := make([]sim.Player, len(seats))
	for i, st := range seats {
		if players[i], err = st.New(); err != nil {
			b.Fatal(err)
		}
	}
	search := players[0].(bots.StatReporter)
	var decisions, n int64
	seating := make([]sim.Player, len(players))
	cpu0, ok := cputime.Process()
	for b.Loop() {
		for i := range seating {
			seating[(i+int(n))%len(seating)] = players[i]
		}
		if _, err := g.Play(seating, 99, uint64(n)); err != nil {
			b.Fatal(err)
		}
		for _, st := range search.GameStats(nil) {
			if st.Name == "decisions" {
				decisions += st.Count
			}
		}
		n++
	}
	b.ReportMetric(float64(decisions)/float64(n), "decisions/game")
	if cpu1, ok1 := cputime.Process(); ok && ok1 {
		cpu := (cpu1 - cpu0).Seconds()
		b.ReportMetric(cpu/float64(n), "cpu-s/game")
		b.ReportMetric(1000*cpu/float64(decisions), "cpu-ms/decision")
	}
}
