package mcts_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
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
