package arena

import (
	"fmt"
	"maps"

	"github.com/marslab-risk/marslab/stats"
)

// BotSummary is the result of one bot label over a batch: one element of
// summary.json. A label seated several times in the same game counts once
// per seat ("seat-games").
type BotSummary struct {
	// Bot is the seat label (e.g. "aggressive" or "mars(W_p=0.8)").
	Bot string `json:"bot"`
	// Games is the number of seat-games the bot played: with a pool larger
	// than a game (Subsets), only the games its schedule seats it in.
	Games int `json:"games"`
	// Wins is the number of those seat-games it won.
	Wins int `json:"wins"`
	// WinRate is Wins/Games (0 when Games is 0).
	WinRate float64 `json:"win_rate"`
	// WilsonLo and WilsonHi bound the 95 % Wilson score interval of
	// WinRate ([stats.Wilson]).
	WilsonLo float64 `json:"wilson_lo"`
	WilsonHi float64 `json:"wilson_hi"`
	// Placements[k] counts the seat-games finished in position k+1.
	Placements []int `json:"placements"`
	// Stalemates counts the seat-games that ended at the round limit.
	Stalemates int `json:"stalemates"`
	// Faults is the total number of the bot's illegal answers and panics.
	Faults int `json:"faults"`
	// MeanRounds is the mean number of rounds of the bot's seat-games.
	MeanRounds float64 `json:"mean_rounds"`
	// Stats sums, over the bot's seat-games, the counts its bot reported
	// about its own play ([Record.Stats]; e.g. MARS's placement auctions by
	// winning bid); absent for a bot that reports none.
	Stats map[string]int64 `json:"stats,omitempty"`
}

// tally accumulates [BotSummary] counts from records, in integers only, so
// that the result does not depend on the order of the records.
type tally struct {
	labels  []string
	index   map[string]int
	players int
	games   []int
	wins    []int
	place   [][]int
	stale   []int
	faults  []int
	rounds  []int64
	stats   []map[string]int64
}

func newTally(labels []string, players int) *tally {
	t := &tally{players: players, index: make(map[string]int, len(labels))}
	for _, l := range labels {
		if _, ok := t.index[l]; ok {
			continue
		}
		t.index[l] = len(t.labels)
		t.labels = append(t.labels, l)
	}
	k := len(t.labels)
	t.games, t.wins, t.stale, t.faults = make([]int, k), make([]int, k), make([]int, k), make([]int, k)
	t.rounds = make([]int64, k)
	t.stats = make([]map[string]int64, k)
	t.place = make([][]int, k)
	for i := range t.place {
		t.place[i] = make([]int, players)
	}
	return t
}

func (t *tally) add(r *Record) error {
	if len(r.Seating) != t.players || len(r.Placements) != t.players || len(r.Faults) != t.players {
		return fmt.Errorf("game %d: %d seats, want %d", r.Game, len(r.Seating), t.players)
	}
	for seat, l := range r.Seating {
		b, ok := t.index[l]
		if !ok {
			return fmt.Errorf("game %d: seat %d: bot %q is not in the batch", r.Game, seat, l)
		}
		pl := r.Placements[seat]
		if pl < 1 || pl > t.players {
			return fmt.Errorf("game %d: seat %d: placement %d out of 1..%d", r.Game, seat, pl, t.players)
		}
		t.games[b]++
		if r.Winner == seat {
			t.wins[b]++
		}
		t.place[b][pl-1]++
		if r.Stalemate {
			t.stale[b]++
		}
		t.faults[b] += r.Faults[seat]
		t.rounds[b] += int64(r.Rounds)
		if seat < len(r.Stats) && len(r.Stats[seat]) > 0 {
			if t.stats[b] == nil {
				t.stats[b] = make(map[string]int64, len(r.Stats[seat]))
			}
			for k, v := range r.Stats[seat] {
				t.stats[b][k] += v
			}
		}
	}
	return nil
}

func (t *tally) summary() ([]BotSummary, error) {
	out := make([]BotSummary, len(t.labels))
	for b, l := range t.labels {
		s := BotSummary{Bot: l, Games: t.games[b], Wins: t.wins[b], Stalemates: t.stale[b], Faults: t.faults[b],
			Placements: append([]int(nil), t.place[b]...), Stats: maps.Clone(t.stats[b])}
		if s.Games > 0 {
			s.WinRate = float64(s.Wins) / float64(s.Games)
			s.MeanRounds = float64(t.rounds[b]) / float64(s.Games)
		}
		iv, err := stats.Wilson(s.Wins, s.Games, stats.Level)
		if err != nil {
			return nil, fmt.Errorf("bot %q: %w", l, err)
		}
		s.WilsonLo, s.WilsonHi = iv.Lo, iv.Hi
		out[b] = s
	}
	return out, nil
}
