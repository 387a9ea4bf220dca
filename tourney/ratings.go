package tourney

import (
	"fmt"
	"strconv"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/rating"
	"github.com/marslab-risk/marslab/table"
)

// RatingGames returns the games of recs as package rating rates them:
// each seat's bot label and its placement as the engine records it (at a
// stalemate the survivors are ranked by territories, then armies, and
// the eliminated by elimination, latest first, so no two seats tie).
func RatingGames(recs []arena.Record) []rating.Game {
	out := make([]rating.Game, len(recs))
	for i, r := range recs {
		out[i] = rating.Game{Players: r.Seating, Ranks: r.Placements}
	}
	return out
}

// RatingTable is the table of the ratings entries (rating.Model.Fit):
// per bot, by descending ordinal, μ, σ, the ordinal μ − 3σ, the interval
// μ ± 1.96σ (the central 95 % of the belief), seats played, wins and mean
// placement.
func RatingTable(m rating.Model, entries []rating.Entry, games int) table.Table {
	t := table.Table{Name: "ratings",
		Title:  fmt.Sprintf("Ratings (Weng-Lin %v, %d games; ordinal = mu - 3 sigma; interval mu ± 1.96 sigma)", m.Kind, games),
		Header: []string{"rank", "bot", "mu", "sigma", "ordinal", "lo", "hi", "games", "wins", "win %", "mean place"}}
	for i, e := range entries {
		t.Add(strconv.Itoa(i+1), e.Name, textfmt.Fixed(e.Mu, 3), textfmt.Fixed(e.Sigma, 3), textfmt.Fixed(e.Ordinal(), 3),
			textfmt.Fixed(e.Mu-1.959964*e.Sigma, 3), textfmt.Fixed(e.Mu+1.959964*e.Sigma, 3),
			strconv.Itoa(e.Games), strconv.Itoa(e.Wins), textfmt.Fixed(100*float64(e.Wins)/float64(e.Games), 2), textfmt.Fixed(e.MeanRank, 3))
	}
	return t
}

// HoldoutTable is the held-out comparison h as a table: the mean
// log-likelihood per held-out game of each prediction with its standard
// error, and the paired differences of the ratings from the other two.
func HoldoutTable(h rating.Holdout) table.Table {
	t := table.Table{Name: "holdout",
		Title:  fmt.Sprintf("Held-out placements: mean log-likelihood per game (nats) of %d games after fitting on %d", h.Test, h.Train),
		Header: []string{"prediction", "log-likelihood", "se", "ratings minus it", "se of the difference"}}
	t.Add("ratings", textfmt.Fixed(h.Rated, 4), textfmt.Fixed(h.RatedSE, 4), "-", "-")
	t.Add("win % alone", textfmt.Fixed(h.WinRate, 4), textfmt.Fixed(h.WinSE, 4), textfmt.Fixed(h.BeatsWinRate, 4), textfmt.Fixed(h.DiffWinSE, 4))
	t.Add("equal players", textfmt.Fixed(h.Equal, 4), textfmt.Fixed(h.EqualSE, 4), textfmt.Fixed(h.BeatsEqual, 4), textfmt.Fixed(h.DiffEqualSE, 4))
	return t
}
