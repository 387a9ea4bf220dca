package tourney

import (
	"fmt"
	"strconv"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/rating"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// Table5 is the paper's Table 5: per bot, the games finished in each
// position and the stalemates (Sm).
func (r *Results) Table5() table.Table {
	t := table.Table{Name: "table5", Title: fmt.Sprintf("Table 5: placements per bot (%d games, %d stalemates; Sm = stalemates)", r.Games, r.Stalemates)}
	t.Header = append(t.Header, "bot")
	for k := 1; k <= r.Players; k++ {
		t.Header = append(t.Header, textfmt.Ordinal(k))
	}
	t.Header = append(t.Header, "Sm", "games")
	for _, b := range r.Bots {
		row := []string{b.Bot}
		for _, c := range b.Placements {
			row = append(row, strconv.Itoa(c))
		}
		t.Rows = append(t.Rows, append(row, strconv.Itoa(b.Stalemates), strconv.Itoa(b.Games)))
	}
	return t
}

// Table6 is the paper's Table 6: win %, decision time per match
// (t_match, ms), the bot's turns per match, decision time per turn
// (t_turn, µs), win % per millisecond of t_turn and wins per hour of decision time.
// The timing columns read "-" when the run was not timed; they are
// measurements and vary from run to run. When timed, the time columns name
// their clock (arena.ClockName of Results.Clock), e.g. "t_turn (µs, thread
// CPU)": the thread's CPU time does not grow with the machine's load, the
// wall clock does.
func (r *Results) Table6() table.Table {
	unit := func(u string) string {
		if !r.Timed {
			return u
		}
		return u + ", " + arena.ClockName(r.Clock)
	}
	t := table.Table{Name: "table6", Title: fmt.Sprintf("Table 6: win %%, time and turns per match (mean game: %.1f turns, %.1f rounds)", r.MeanTurns, r.MeanRounds),
		Header: []string{"bot", "win %", "t_match (" + unit("ms") + ")", "turns/match", "t_turn (" + unit("µs") + ")",
			"win % per ms t_turn", "wins per hour", "game turns"}}
	for _, b := range r.Bots {
		row := []string{b.Bot, textfmt.Fixed(100*b.WinRate, 1)}
		if r.Timed {
			row = append(row, textfmt.Fixed(1000*b.SecondsPerMatch, 3), textfmt.Fixed(b.TurnsPerMatch, 1), textfmt.Fixed(1e6*b.SecondsPerTurn, 2),
				textfmt.Fixed(b.WinPerMsTurn, 1), textfmt.Fixed(b.WinsPerHour, 0))
		} else {
			row = append(row, "-", "-", "-", "-", "-")
		}
		t.Rows = append(t.Rows, append(row, textfmt.Fixed(b.GameTurns, 1)))
	}
	return t
}

// PlacementTable gives each bot's mean placement with its interval.
func (r *Results) PlacementTable() table.Table {
	t := table.Table{Name: "placement", Title: fmt.Sprintf("Mean placement (1 = won) with a %g %% interval", 100*stats.Level),
		Header: []string{"bot", "games", "mean placement", "lo", "hi"}}
	for _, b := range r.Bots {
		t.Rows = append(t.Rows, []string{b.Bot, strconv.Itoa(b.Games), textfmt.Fixed(b.MeanPlacement, 3), textfmt.Fixed(b.PlacementLo, 3), textfmt.Fixed(b.PlacementHi, 3)})
	}
	return t
}

// WinRateTable gives each bot's win % with its Wilson interval.
func (r *Results) WinRateTable() table.Table {
	t := table.Table{Name: "winrate", Title: fmt.Sprintf("Win %% with a %g %% Wilson interval", 100*stats.Level),
		Header: []string{"bot", "games", "wins", "win %", "lo %", "hi %"}}
	for _, b := range r.Bots {
		t.Rows = append(t.Rows, []string{b.Bot, strconv.Itoa(b.Games), strconv.Itoa(b.Wins), textfmt.Fixed(100*b.WinRate, 2), textfmt.Fixed(100*b.WinLo, 2), textfmt.Fixed(100*b.WinHi, 2)})
	}
	return t
}

// HeadToHeadTable gives, for every pair, the games met, who finished
// ahead, and who won when only the two were left.
func (r *Results) HeadToHeadTable() table.Table {
	t := table.Table{Name: "headtohead", Title: "Head to head: games met, finished ahead, won when the last two",
		Header: []string{"A", "B", "met", "A ahead", "B ahead", "last two", "A won", "B won"}}
	for _, p := range r.Pairs {
		t.Rows = append(t.Rows, []string{r.Bots[p.A].Bot, r.Bots[p.B].Bot, strconv.Itoa(p.Met), strconv.Itoa(p.AheadA), strconv.Itoa(p.AheadB),
			strconv.Itoa(p.LastTwo), strconv.Itoa(p.WonA), strconv.Itoa(p.WonB)})
	}
	return t
}

// tables returns every table of the report: Table5, Table6,
// PlacementTable, WinRateTable and HeadToHeadTable.
func (r *Results) tables() []table.Table {
	return []table.Table{r.Table5(), r.Table6(), r.PlacementTable(), r.WinRateTable(), r.HeadToHeadTable(), r.RatingsTable()}
}

// RatingsTable gives each bot's Weng-Lin rating (RatingTable of
// Results.Ratings).
func (r *Results) RatingsTable() table.Table {
	return RatingTable(rating.Default(), r.Ratings, r.Games)
}
