package tourney

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/rating"
)

// handRecords are four 3-player games of the bots a, b, c, d whose tables
// are worked out by hand in the tests below.
func handRecords() []arena.Record {
	return []arena.Record{
		// a wins, c second (the last two were a and c), b third.
		{Game: 0, Seating: []string{"a", "b", "c"}, Winner: 0, Placements: []int{1, 3, 2}, Rounds: 10, Turns: 25, Faults: []int{0, 0, 0}},
		// a stalemate: c ahead of a ahead of d.
		{Game: 1, Seating: []string{"c", "a", "d"}, Winner: -1, Placements: []int{1, 2, 3}, Rounds: 100, Turns: 300, Stalemate: true, Faults: []int{0, 0, 0}},
		// d wins over b; a out first.
		{Game: 2, Seating: []string{"b", "d", "a"}, Winner: 1, Placements: []int{2, 1, 3}, Rounds: 12, Turns: 30, Faults: []int{0, 0, 0}},
		// b wins over c; d out first.
		{Game: 3, Seating: []string{"d", "c", "b"}, Winner: 2, Placements: []int{3, 2, 1}, Rounds: 8, Turns: 20, Faults: []int{0, 0, 0}},
	}
}

func TestAnalyzeHandBuilt(t *testing.T) {
	t.Parallel()
	res, err := Analyze([]string{"a", "b", "c", "d"}, 3, handRecords(), nil)
	require.NoError(t, err)
	assert.Equal(t, 4, res.Games)
	assert.Equal(t, 1, res.Stalemates)
	assert.InDelta(t, 375.0/4, res.MeanTurns, 1e-12)
	assert.InDelta(t, 130.0/4, res.MeanRounds, 1e-12)
	assert.False(t, res.Timed)

	want := []struct {
		bot              string
		wins, stalemates int
		placements       []int
		meanPlace        float64
	}{
		{"a", 1, 1, []int{1, 1, 1}, 2},
		{"b", 1, 0, []int{1, 1, 1}, 2},
		{"c", 0, 1, []int{1, 2, 0}, 5.0 / 3},
		{"d", 1, 1, []int{1, 0, 2}, 7.0 / 3},
	}
	for i, w := range want {
		b := res.Bots[i]
		assert.Equal(t, w.bot, b.Bot)
		assert.Equal(t, 3, b.Games, w.bot)
		assert.Equal(t, w.wins, b.Wins, w.bot)
		assert.Equal(t, w.stalemates, b.Stalemates, w.bot)
		assert.Equal(t, w.placements, b.Placements, w.bot)
		assert.InDelta(t, w.meanPlace, b.MeanPlacement, 1e-12, w.bot)
	}
	// a: placements 1, 2, 3: s = 1, half-width 1.959964/sqrt(3).
	assert.InDelta(t, 2-1.959964/1.7320508, res.Bots[0].PlacementLo, 1e-6)
	assert.InDelta(t, 2+1.959964/1.7320508, res.Bots[0].PlacementHi, 1e-6)
	// Wilson 95 % interval of 1 win in 3 games: [0.0615, 0.7923].
	assert.InDelta(t, 1.0/3, res.Bots[0].WinRate, 1e-12)
	assert.InDelta(t, 0.06149, res.Bots[0].WinLo, 1e-4)
	assert.InDelta(t, 0.79234, res.Bots[0].WinHi, 1e-4)
	// 0 wins in 3: [0, 0.5615].
	assert.InDelta(t, 0, res.Bots[2].WinLo, 1e-12)
	assert.InDelta(t, 0.56151, res.Bots[2].WinHi, 1e-4)
	// c placed 1st at the stalemate of game 1: a placement, not a win.
	assert.Equal(t, 5.0/3, res.Bots[2].MeanPlacement)
	// Turns per game of the games each bot played.
	assert.InDelta(t, (25+300+30)/3.0, res.Bots[0].GameTurns, 1e-12)

	wantPairs := []Pair{
		{A: 0, B: 1, Met: 2, AheadA: 1, AheadB: 1},
		{A: 0, B: 2, Met: 2, AheadA: 1, AheadB: 1, LastTwo: 1, WonA: 1},
		{A: 0, B: 3, Met: 2, AheadA: 1, AheadB: 1},
		{A: 1, B: 2, Met: 2, AheadA: 1, AheadB: 1, LastTwo: 1, WonA: 1},
		{A: 1, B: 3, Met: 2, AheadA: 1, AheadB: 1, LastTwo: 1, WonB: 1},
		{A: 2, B: 3, Met: 2, AheadA: 2},
	}
	assert.Equal(t, wantPairs, res.Pairs)
}

func TestAnalyzeTiming(t *testing.T) {
	t.Parallel()
	timing := &arena.Timing{Clock: arena.ClockThreadCPU, Bots: []arena.BotTiming{
		{Bot: "a", SeatGames: 3, Turns: 30, DecisionSeconds: 0.003},
		{Bot: "b", SeatGames: 3, Turns: 60, DecisionSeconds: 0.36},
	}}
	res, err := Analyze([]string{"a", "b", "c", "d"}, 3, handRecords(), timing)
	require.NoError(t, err)
	require.True(t, res.Timed)
	a := res.Bots[0]
	assert.InDelta(t, 10, a.TurnsPerMatch, 1e-12)
	assert.InDelta(t, 0.001, a.SecondsPerMatch, 1e-15)
	assert.InDelta(t, 1e-4, a.SecondsPerTurn, 1e-15)
	// win % 33.33 over t_turn 0.1 ms.
	assert.InDelta(t, 100.0/3/0.1, a.WinPerMsTurn, 1e-9)
	// 1 win in 0.003 s of decisions: 1.2 million wins per hour.
	assert.InDelta(t, 1.2e6, a.WinsPerHour, 1e-6)
	assert.InDelta(t, 3600/0.36, res.Bots[1].WinsPerHour, 1e-6)

	assert.Equal(t, arena.ClockThreadCPU, res.Clock)
	tab := res.Table6()
	assert.Equal(t, []string{"bot", "win %", "t_match (ms, thread CPU)", "turns/match", "t_turn (µs, thread CPU)",
		"win % per ms t_turn", "wins per hour", "game turns"}, tab.Header, "the time columns name their clock")
	assert.Equal(t, []string{"a", "33.3", "1.000", "10.0", "100.00", "333.3", "1200000", "118.3"}, tab.Rows[0])
	assert.Equal(t, []string{"c", "0.0", "0.000", "0.0", "0.00", "0.0", "0", "115.0"}, tab.Rows[2])

	_, err = Analyze([]string{"a", "b", "c", "d"}, 3, handRecords(), &arena.Timing{Bots: []arena.BotTiming{{Bot: "zz"}}})
	assert.ErrorContains(t, err, `timing of bot "zz"`)
}

func TestAnalyzeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		labels []string
		edit   func(r []arena.Record)
		err    string
	}{
		{"duplicate label", []string{"a", "a", "c", "d"}, nil, `label "a" listed twice`},
		{"unknown bot", []string{"a", "b", "c"}, nil, `game 1: seat 2: bot "d" is not in the tournament`},
		{"seated twice", []string{"a", "b", "c", "d"}, func(r []arena.Record) { r[0].Seating[1] = "a" }, `game 0: bot "a" seated twice`},
		{"placements", []string{"a", "b", "c", "d"}, func(r []arena.Record) { r[3].Placements[0] = 1 }, "game 3: placements [1 2 1]"},
		{"winner", []string{"a", "b", "c", "d"}, func(r []arena.Record) { r[0].Winner = 2 }, "game 0: winner 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := handRecords()
			if tt.edit != nil {
				tt.edit(r)
			}
			_, err := Analyze(tt.labels, 3, r, nil)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

func TestTables(t *testing.T) {
	t.Parallel()
	res, err := Analyze([]string{"a", "b", "c", "d"}, 3, handRecords(), nil)
	require.NoError(t, err)
	t5 := res.Table5()
	assert.Equal(t, []string{"bot", "1st", "2nd", "3rd", "Sm", "games"}, t5.Header)
	assert.Equal(t, []string{"d", "1", "0", "2", "1", "3"}, t5.Rows[3])
	var md, csv bytes.Buffer
	require.NoError(t, t5.WriteMarkdown(&md))
	assert.Equal(t, "## Table 5: placements per bot (4 games, 1 stalemates; Sm = stalemates)\n\n"+
		"| bot | 1st | 2nd | 3rd | Sm | games |\n|---|---:|---:|---:|---:|---:|\n"+
		"| a | 1 | 1 | 1 | 1 | 3 |\n| b | 1 | 1 | 1 | 0 | 3 |\n| c | 1 | 2 | 0 | 1 | 3 |\n| d | 1 | 0 | 2 | 1 | 3 |\n", md.String())
	h2h := res.HeadToHeadTable()
	require.NoError(t, h2h.WriteCSV(&csv))
	assert.Equal(t, "A,B,met,A ahead,B ahead,last two,A won,B won\n"+
		"a,b,2,1,1,0,0,0\na,c,2,1,1,1,1,0\na,d,2,1,1,0,0,0\nb,c,2,1,1,1,1,0\nb,d,2,1,1,1,0,1\nc,d,2,2,0,0,0,0\n", csv.String())
	assert.Equal(t, []string{"a", "3", "1", "33.33", "6.15", "79.23"}, res.WinRateTable().Rows[0])
	assert.Equal(t, []string{"a", "3", "2.000", "0.868", "3.132"}, res.PlacementTable().Rows[0])
	assert.Equal(t, []string{"a", "33.3", "-", "-", "-", "-", "-", "118.3"}, res.Table6().Rows[0])
	assert.Equal(t, "t_turn (µs)", res.Table6().Header[4], "untimed: no clock")
	assert.Len(t, res.tables(), 6)
	// The ratings: the games rated in order; every bot played 3 seats.
	want, err := rating.Default().Fit(RatingGames(handRecords()))
	require.NoError(t, err)
	assert.Equal(t, want, res.Ratings)
	rt := res.RatingsTable()
	require.Len(t, rt.Rows, 4)
	for i, row := range rt.Rows {
		assert.Equal(t, strconv.Itoa(i+1), row[0])
		assert.Equal(t, "3", row[7], row[1])
	}
	assert.Greater(t, res.Ratings[0].Ordinal(), res.Ratings[3].Ordinal())
}
