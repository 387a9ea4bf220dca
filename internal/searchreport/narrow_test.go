package searchreport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
)

// TestLevelCells: a level's cells carry the pooled win rate and the
// half-width of its Wilson interval; counts stats.Wilson refuses are an
// error naming the cell, not a drawn interval.
func TestLevelCells(t *testing.T) {
	t.Parallel()
	sp := search.Space{{Param: bots.Param{Name: "a", Min: 0, Max: 1}, Lo: 0, Hi: 1}, {Param: bots.Param{Name: "b", Min: 0, Max: 1}, Lo: 0, Hi: 1}}
	level := func(wins, games int) *search.Level {
		return &search.Level{Lo: []float64{0, 0}, Hi: []float64{1, 1}, Axes: [][]float64{{0.25, 0.75}, {0.5}},
			Cells: []search.Cell{{Index: []int{0, 0}, Wins: 3, Games: 10}, {Index: []int{1, 0}, Wins: wins, Games: games}}}
	}
	for _, tc := range []struct {
		name        string
		wins, games int
		want        string
	}{
		{"valid", 0, 4, ""},
		{"more wins than games", 5, 4, "cell a=0.75, b=0.5: stats: Wilson: successes k = 5 outside [0, n = 4]"},
		{"negative wins", -1, 4, "cell a=0.75, b=0.5: stats: Wilson: successes k = -1 outside [0, n = 4]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rate, half, err := levelCells(level(tc.wins, tc.games), sp)
			if tc.want != "" {
				assert.EqualError(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			require.Len(t, rate, 2)
			require.Len(t, half, 2)
			assert.InDelta(t, 0.3, rate[0].Z, 1e-12)
			assert.InDelta(t, 0.0, rate[1].Z, 1e-12)
			// 3 of 10: Wilson 95 % [0.1078, 0.6032].
			assert.InDelta(t, (0.6032-0.1078)/2, half[0].Z, 1e-4)
		})
	}
}
