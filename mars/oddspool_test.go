package mars

import (
	"runtime"
	"testing"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// poolGame plays game index of seed 1 under mars2006 with players.
func poolGame(t *testing.T, players []sim.Player, index uint64) sim.Result {
	t.Helper()
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	g, err := sim.NewGame(m, r, len(players))
	require.NoError(t, err)
	res, err := g.Play(players, 1, index)
	require.NoError(t, err)
	return res
}

// sixBots makes six MARS bots (the paper's parameters) with f.
func sixBots(t *testing.T, f bots.Factory) []sim.Player {
	t.Helper()
	ps := make([]sim.Player, 6)
	for i := range ps {
		p, err := f.New(bots.Values{})
		require.NoError(t, err)
		ps[i] = p
	}
	return ps
}

// TestOddsPoolSameGames checks that bots of one factory take the odds of
// the collected bots before them, chain-odds stores already filled by other
// games, and play the same game as bots with new odds.
func TestOddsPoolSameGames(t *testing.T) {
	cold := poolGame(t, sixBots(t, Factory()), 7)

	f := Factory()
	spare := func() *oddsPool {
		b, err := f.New(bots.Values{})
		require.NoError(t, err)
		return b.(*Bot).spare
	}()
	warm := sixBots(t, f)
	for i := range uint64(3) {
		poolGame(t, warm, i)
	}
	stored := 0
	for _, p := range warm {
		stored += len(p.(*Bot).o.store.nodes)
	}
	require.Positive(t, stored, "the warming games fill the stores")
	warm = nil
	for range 20 {
		runtime.GC()
		spare.mu.Lock()
		n := len(spare.free)
		spare.mu.Unlock()
		if n == 6 {
			break
		}
	}
	spare.mu.Lock()
	require.Len(t, spare.free, 6, "the collected bots left their odds to the pool")
	spare.mu.Unlock()

	again := sixBots(t, f)
	res := poolGame(t, again, 7)
	assert.Equal(t, cold, res, "bots with filled stores play the same game")
	spare.mu.Lock()
	assert.Empty(t, spare.free, "the new bots took the pool's odds")
	spare.mu.Unlock()
	for _, p := range again {
		assert.NotNil(t, p.(*Bot).lease.o)
	}
}
