package mars_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

// stopGame plays game index of seed 1 with MARS of the seat spec in seat 0
// against five baseline bots, checking the engine's invariants after every
// event, and returns the game's events, result and MARS's game stats.
func stopGame(t *testing.T, spec string, index uint64) ([]sim.Event, sim.Result, []bots.Stat) {
	t.Helper()
	ps := baseline(t, spec)
	g := newGame(t)
	inv := &invariants{t: t, g: g, name: spec}
	g.Observe(inv)
	rec := &recorder{}
	g.Observe(rec)
	res, err := g.Play(ps, 1, index)
	require.NoError(t, err)
	assert.Equal(t, make([]int, 6), res.Faults, "%s: faults per seat", spec)
	return rec.events, res, ps[0].(bots.StatReporter).GameStats(nil)
}

// recorder keeps every event of a game.
type recorder struct{ events []sim.Event }

func (r *recorder) Observe(e *sim.Event) { r.events = append(r.events, *e) }

// TestStopOption checks the stop options: stop_stats = 1 plays the
// paper's rule move for move and counts its decisions; stop = optimal
// plays legal games and decides otherwise somewhere; without stop_stats
// no stop counts are reported.
func TestStopOption(t *testing.T) {
	p := mars.PaperParams()
	assert.Equal(t, mars.StopThreshold, p.Stop)
	require.NoError(t, p.Set("stop", 1))
	assert.Equal(t, mars.StopOptimal, p.Stop)
	assert.ErrorContains(t, p.Set("stop", 2), "must be one of threshold, optimal")
	require.NoError(t, p.Set("stop_stats", 1))
	assert.Equal(t, 1, p.StopStats)
	assert.ErrorContains(t, p.Set("stop_stats", 2), "must be in [0, 1]")

	for _, index := range []uint64{0, 1} {
		evPaper, resPaper, stPaper := stopGame(t, "mars@paper", index)
		evMeasure, resMeasure, stMeasure := stopGame(t, "mars@paper(stop_stats=1)", index)
		assert.Equal(t, resPaper, resMeasure, "game %d: stop_stats plays the paper's rule", index)
		assert.Equal(t, evPaper, evMeasure, "game %d: the same events", index)
		assert.Len(t, stPaper, 6, "the paper's rule adds no counts")
		require.Len(t, stMeasure, 12)
		c := map[string]int64{}
		names := []string{}
		for _, s := range stMeasure[6:] {
			c[s.Name] = s.Count
			names = append(names, s.Name)
		}
		assert.Equal(t, []string{"stop_decisions", "stop_more", "stop_less", "stop_priced", "stop_loss_micro", "stop_loss_goal_ppm"}, names)
		assert.Positive(t, c["stop_decisions"], "game %d", index)
		assert.LessOrEqual(t, c["stop_more"]+c["stop_less"], c["stop_decisions"])
		assert.LessOrEqual(t, c["stop_priced"], c["stop_decisions"])
		assert.GreaterOrEqual(t, c["stop_loss_micro"], int64(0))
		assert.GreaterOrEqual(t, c["stop_loss_goal_ppm"], int64(0))
		if c["stop_more"]+c["stop_less"] == 0 {
			assert.Zero(t, c["stop_loss_micro"], "no other choice, no loss")
		}

		evOpt, _, stOpt := stopGame(t, "mars@paper(stop=optimal)", index)
		assert.Len(t, stOpt, 6)
		assert.NotEqual(t, evPaper, evOpt, "game %d: the optimal rule decides otherwise somewhere", index)
		// With the counts, the optimal rule plays the same and counts its
		// decisions against the paper's thresholds.
		evOpt2, _, stOpt2 := stopGame(t, "mars@paper(stop=optimal;stop_stats=1)", index)
		assert.Equal(t, evOpt, evOpt2, "game %d: the counts change no move", index)
		require.Len(t, stOpt2, 12)
		assert.Positive(t, stOpt2[6].Count)
	}
}
