package mars_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

// TestHugeArmies plays MARS against random with 100,000 starting armies
// each (testdata/huge.toml, a legal rule set): the odds work is bounded
// (see odds.chainOdds), so the game ends in seconds, and the heap stays
// small.
func TestHugeArmies(t *testing.T) {
	if testing.Short() || race.Enabled {
		// The game runs on one goroutine, so the race detector has nothing
		// to check; it would only slow the battles of 100,000 armies tenfold.
		t.Skip("plays a whole game of 100,000-army stacks")
	}
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules("testdata/huge.toml")
	require.NoError(t, err)
	require.Equal(t, 100000, r.StartingArmies[2])
	g, err := sim.NewGame(m, r, 2)
	require.NoError(t, err)
	bot, err := mars.New(mars.PaperParams())
	require.NoError(t, err)
	seat, err := registry.Default().ParseSeat("random", nil)
	require.NoError(t, err)
	rnd, err := seat.New()
	require.NoError(t, err)
	var peak uint64
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind != sim.EvTurn {
			return
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}))
	res, err := g.Play([]sim.Player{bot, rnd}, 1, 0)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0}, res.Faults[:2])
	assert.Less(t, peak, uint64(256<<20), "heap in use at a turn start")
	t.Logf("%d turns, winner %d, peak heap %d MB", res.Turns, res.Winner, peak>>20)
}
