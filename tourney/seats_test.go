package tourney

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
)

// seatRun analyses the hand-built games with bot a's place taken by the
// seat name; with lose, c wins game 0 instead of it.
func seatRun(t *testing.T, name string, lose bool, stats map[string]int64) SeatRun {
	recs := handRecords()
	for i := range recs {
		r := &recs[i]
		r.Seating = slices.Clone(r.Seating)
		if s := slices.Index(r.Seating, "a"); s >= 0 {
			r.Seating[s] = name
		}
	}
	if lose {
		recs[0].Winner, recs[0].Placements = 2, []int{2, 3, 1}
	}
	res, err := Analyze([]string{name, "b", "c", "d"}, 3, recs, nil)
	require.NoError(t, err)
	return SeatRun{Name: name, Results: res, Records: recs, Summary: []arena.BotSummary{{Bot: name, Stats: stats}}}
}

func TestCompareSeats(t *testing.T) {
	t.Parallel()
	paper := &Published{Bots: map[string]PublishedBot{"mars": {Name: "MARS", WinPct: 30}, "b": {WinPct: 25}, "c": {WinPct: 20}, "d": {WinPct: 10}}}
	runs := []SeatRun{
		seatRun(t, "mars@paper", false, map[string]int64{"place_offensive": 3, "place_defensive": 1, "armies_offensive": 30, "armies_defensive": 10}),
		seatRun(t, "mars@tuned", true, nil),
	}
	c, err := CompareSeats(runs, "mars", 0, paper, 1000)
	require.NoError(t, err)
	require.Len(t, c.Paired, 1)
	// Game 0: the reference won, the tuned seat did not; game 1 is a
	// stalemate and game 2 a loss for both.
	assert.Equal(t, 3, c.Paired[0].N)
	assert.InDelta(t, -1.0/3, c.Paired[0].Diff, 1e-12)
	wins, ct := c.WinsTables()
	assert.Equal(t, []string{"bot", "with mars@paper", "with mars@tuned", "paper win %"}, wins.Header)
	assert.Equal(t, "mars (the seat)", wins.Rows[0][0])
	assert.Equal(t, "30.0", wins.Rows[0][3])
	head, rows := ct.Header, ct.Rows
	assert.Len(t, rows, 8)
	assert.Len(t, rows[0], len(head))
	assert.Equal(t, []string{"mars@paper", "mars", "3", "1"}, rows[0][:4])
	v := c.Verdicts()
	require.Len(t, v, 2)
	assert.Contains(t, v[1], "with `mars@tuned` in mars's place, it wins 0.0 % of its games")
	assert.Contains(t, v[1], "ranks 4th of 4")
	assert.Contains(t, v[0], "ranks 1st of 4, its interval overlapping another bot's")
	assert.NotContains(t, v[1], "above every other bot's")
	bal, _ := c.BalanceTables()
	require.Len(t, bal.Rows, 1, "the tuned run reports no counts")
	assert.Equal(t, []string{"`mars@paper`", "3", "1", "0", "25.0 %", "30", "10", "0", "25.0 %"}, bal.Rows[0])
	_, err = CompareSeats(nil, "mars", 0, paper, 1000)
	assert.Error(t, err)
}
