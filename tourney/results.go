package tourney

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/rating"
	"github.com/marslab-risk/marslab/stats"
)

// BotResult is one bot's line of the tournament tables.
type BotResult struct {
	// Bot is the seat label.
	Bot string
	// Games is the number of games the bot played.
	Games int
	// Wins is the number of games it won.
	Wins int
	// Placements[k] counts the games it finished in position k+1
	// (Table 5's columns 1st..6th).
	Placements []int
	// Stalemates counts its games that ended at the round limit (Table 5's
	// Sm).
	Stalemates int
	// WinRate is Wins/Games; WinLo and WinHi bound its Wilson score
	// interval at stats.Level (stats.Wilson).
	WinRate, WinLo, WinHi float64
	// MeanPlacement is the mean finishing position (1 = won);
	// PlacementLo and PlacementHi bound its normal interval at stats.Level,
	// mean ± z·s/√Games with s the sample standard deviation (the mean
	// itself when Games < 2).
	MeanPlacement, PlacementLo, PlacementHi float64
	// GameTurns is the mean number of player-turns (all seats) of the
	// games it played.
	GameTurns float64
	// The fields below come from arena.Timing and are zero when the run
	// was not timed (Results.Timed false).
	//
	// TurnsPerMatch is the mean number of the bot's own turns per game.
	TurnsPerMatch float64
	// SecondsPerMatch is the bot's mean decision time per game (Table 6's
	// t_match), in seconds.
	SecondsPerMatch float64
	// SecondsPerTurn is its mean decision time per own turn (t_turn).
	SecondsPerTurn float64
	// WinPerMsTurn is the win percentage divided by t_turn in
	// milliseconds: Table 6's "win % per time per turn".
	WinPerMsTurn float64
	// WinsPerHour is the number of wins per hour of the bot's decision
	// time.
	WinsPerHour float64
}

// Pair is the head-to-head record of bots A and B (indices into
// Results.Bots, A < B).
type Pair struct {
	A, B int
	// Met is the number of games that seated both.
	Met int
	// AheadA and AheadB count the games of Met where A (B) finished in the
	// better position.
	AheadA, AheadB int
	// LastTwo is the number of games that ended with A and B the last two
	// left (placed 1st and 2nd in a game that was won, not stalemated);
	// WonA and WonB split them by the winner.
	LastTwo, WonA, WonB int
}

// Results are the tournament's tables in numbers.
type Results struct {
	// Players is the number of players per game.
	Players int
	// Games is the number of games; Stalemates how many of them ended at
	// the round limit.
	Games, Stalemates int
	// MeanTurns and MeanRounds are the mean player-turns and rounds per
	// game.
	MeanTurns, MeanRounds float64
	// Timed reports whether the per-bot timing fields are filled.
	Timed bool
	// Clock is the clock of the timing fields (arena.Timing.Clock:
	// arena.ClockThreadCPU, arena.ClockWall, ...), "" when not timed.
	Clock string
	// Bots holds one line per bot in the configured order.
	Bots []BotResult
	// Pairs holds every pair of bots, (0,1), (0,2), ..., (1,2), ...
	Pairs []Pair
	// Ratings rates every bot from the placements of the games in index
	// order (rating.Default, Weng-Lin Plackett-Luce), by descending
	// ordinal μ − 3σ.
	Ratings []rating.Entry
}

// Analyze computes the tournament's results from its records. labels are
// the bots in table order; every record must seat players distinct labels
// from it. timing, when not nil and holding bot timings, fills the timing
// fields.
func Analyze(labels []string, players int, records []arena.Record, timing *arena.Timing) (*Results, error) {
	n := len(labels)
	index := make(map[string]int, n)
	for i, l := range labels {
		if _, ok := index[l]; ok {
			return nil, fmt.Errorf("tourney: label %q listed twice", l)
		}
		index[l] = i
	}
	z, err := stats.NormalQuantile(stats.Level)
	if err != nil {
		return nil, err
	}
	res := &Results{Players: players, Games: len(records), Bots: make([]BotResult, n)}
	for i := range res.Bots {
		res.Bots[i] = BotResult{Bot: labels[i], Placements: make([]int, players)}
	}
	pairIdx := func(a, b int) int { return a*n - a*(a+1)/2 + (b - a - 1) }
	for a := range n {
		for b := a + 1; b < n; b++ {
			res.Pairs = append(res.Pairs, Pair{A: a, B: b})
		}
	}
	sumPl, sumSq := make([]int64, n), make([]int64, n)
	turns := make([]int64, n)
	var allTurns, allRounds int64
	who := make([]int, players)
	for ri := range records {
		r := &records[ri]
		if err := checkRecord(r, players); err != nil {
			return nil, fmt.Errorf("tourney: game %d: %w", r.Game, err)
		}
		for s, l := range r.Seating {
			b, ok := index[l]
			if !ok {
				return nil, fmt.Errorf("tourney: game %d: seat %d: bot %q is not in the tournament", r.Game, s, l)
			}
			for _, prev := range who[:s] {
				if prev == b {
					return nil, fmt.Errorf("tourney: game %d: bot %q seated twice", r.Game, l)
				}
			}
			who[s] = b
		}
		if r.Stalemate {
			res.Stalemates++
		}
		allTurns += int64(r.Turns)
		allRounds += int64(r.Rounds)
		for s, b := range who {
			br := &res.Bots[b]
			pl := r.Placements[s]
			br.Games++
			br.Placements[pl-1]++
			if r.Winner == s {
				br.Wins++
			}
			if r.Stalemate {
				br.Stalemates++
			}
			sumPl[b] += int64(pl)
			sumSq[b] += int64(pl * pl)
			turns[b] += int64(r.Turns)
			for t := s + 1; t < players; t++ {
				c := who[t]
				sa, sb, a, bb := s, t, b, c
				if a > bb {
					sa, sb, a, bb = t, s, c, b
				}
				p := &res.Pairs[pairIdx(a, bb)]
				p.Met++
				pa, pb := r.Placements[sa], r.Placements[sb]
				if pa < pb {
					p.AheadA++
				} else {
					p.AheadB++
				}
				if !r.Stalemate && pa+pb == 3 {
					p.LastTwo++
					if pa == 1 {
						p.WonA++
					} else {
						p.WonB++
					}
				}
			}
		}
	}
	if res.Games > 0 {
		res.MeanTurns = float64(allTurns) / float64(res.Games)
		res.MeanRounds = float64(allRounds) / float64(res.Games)
	}
	for b := range res.Bots {
		br := &res.Bots[b]
		iv, err := stats.Wilson(br.Wins, br.Games, stats.Level)
		if err != nil {
			return nil, fmt.Errorf("tourney: bot %q: %w", br.Bot, err)
		}
		br.WinLo, br.WinHi = iv.Lo, iv.Hi
		if br.Games == 0 {
			continue
		}
		g := float64(br.Games)
		br.WinRate = float64(br.Wins) / g
		br.GameTurns = float64(turns[b]) / g
		br.MeanPlacement = float64(sumPl[b]) / g
		br.PlacementLo, br.PlacementHi = br.MeanPlacement, br.MeanPlacement
		if br.Games > 1 {
			v := (float64(sumSq[b]) - g*br.MeanPlacement*br.MeanPlacement) / (g - 1)
			h := z * math.Sqrt(max(v, 0)/g)
			br.PlacementLo, br.PlacementHi = br.MeanPlacement-h, br.MeanPlacement+h
		}
	}
	if len(records) > 0 {
		if res.Ratings, err = rating.Default().Fit(RatingGames(records)); err != nil {
			return nil, fmt.Errorf("tourney: %w", err)
		}
	}
	if timing != nil && len(timing.Bots) > 0 {
		res.Timed = true
		res.Clock = timing.Clock
		for _, bt := range timing.Bots {
			b, ok := index[bt.Bot]
			if !ok {
				return nil, fmt.Errorf("tourney: timing of bot %q, which is not in the tournament", bt.Bot)
			}
			br := &res.Bots[b]
			if bt.SeatGames > 0 {
				br.TurnsPerMatch = float64(bt.Turns) / float64(bt.SeatGames)
				br.SecondsPerMatch = bt.DecisionSeconds / float64(bt.SeatGames)
			}
			if bt.Turns > 0 {
				br.SecondsPerTurn = bt.DecisionSeconds / float64(bt.Turns)
			}
			if br.SecondsPerTurn > 0 {
				br.WinPerMsTurn = 100 * br.WinRate / (1000 * br.SecondsPerTurn)
			}
			if bt.DecisionSeconds > 0 {
				br.WinsPerHour = float64(br.Wins) / (bt.DecisionSeconds / 3600)
			}
		}
	}
	return res, nil
}

// checkRecord checks the parts of a record Analyze relies on.
func checkRecord(r *arena.Record, players int) error {
	if len(r.Seating) != players || len(r.Placements) != players {
		return fmt.Errorf("%d seats and %d placements, want %d", len(r.Seating), len(r.Placements), players)
	}
	seen := make([]bool, players+1)
	for _, p := range r.Placements {
		if p < 1 || p > players || seen[p] {
			return fmt.Errorf("placements %v: want a permutation of 1..%d", r.Placements, players)
		}
		seen[p] = true
	}
	if r.Stalemate != (r.Winner < 0) || r.Winner >= players || (r.Winner >= 0 && r.Placements[r.Winner] != 1) {
		return fmt.Errorf("winner %d with stalemate %v and placements %v", r.Winner, r.Stalemate, r.Placements)
	}
	return nil
}
