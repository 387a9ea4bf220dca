package figures

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/tourney"
)

// tournament is a timed tournament of three bots in 3-player games.
func tournament() *tourney.Results {
	r := &tourney.Results{Players: 3, Games: 10, Timed: true, Clock: arena.ClockThreadCPU}
	for i, name := range []string{"a", "b", "c"} {
		r.Bots = append(r.Bots, tourney.BotResult{Bot: name, Games: 10, Wins: 5 - 2*i, Placements: []int{5 - 2*i, 3, 2 + 2*i},
			WinRate: float64(5-2*i) / 10, WinLo: 0.1, WinHi: 0.8, SecondsPerTurn: 0.001 * float64(i+1)})
	}
	return r
}

// A timed tournament has the paper's Figures 3 and 4, the placements and
// the win rates, each written as PNG and SVG; an untimed one has no
// Figure 4.
func TestWriteTournament(t *testing.T) {
	t.Parallel()
	r := tournament()
	var names []string
	for _, f := range Tournament(r) {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"figure3-wins", "figure4-time-per-turn", "placements", "winrate"}, names)
	dir := t.TempDir()
	require.NoError(t, WriteTournament(dir, r))
	for _, name := range names {
		for _, ext := range []string{".png", ".svg"} {
			st, err := os.Stat(filepath.Join(dir, name+ext))
			require.NoError(t, err)
			assert.Positive(t, st.Size())
		}
	}
	r.Timed = false
	assert.Len(t, Tournament(r), 3, "no decision times without timing")
}

// The paired chart has one bar per seat after the reference, nil without
// another seat.
func TestPaired(t *testing.T) {
	t.Parallel()
	c := &tourney.SeatComparison{Reference: "mars@paper", Runs: []tourney.SeatRun{{Name: "mars@paper"}, {Name: "mars@tuned"}},
		Paired: []stats.PairedProportion{{N: 30, Diff: -0.1, Interval: stats.Interval{Lo: -0.3, Hi: 0.1}}}}
	ch := Paired(c)
	require.NotNil(t, ch)
	assert.Equal(t, []string{"mars@tuned"}, ch.Categories)
	assert.Equal(t, []float64{-0.1}, ch.Values)
	assert.Equal(t, []float64{-0.3}, ch.Lo)
	assert.Equal(t, []float64{0.1}, ch.Hi)
	assert.Contains(t, ch.Title, "mars@paper")
	c.Paired = nil
	assert.Nil(t, Paired(c))
}
