package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// calTournament is the optional [tournament] table of a calibration
// notebook: the round robin of a tournament notebook played once per seat,
// each time with that seat in the calibrated bot's place, so that the
// runs differ only in that seat (same line-ups, deals and dice streams)
// and are compared game by game with the first seat.
type calTournament struct {
	// Notebook is the folder of a tournament notebook, relative to this
	// notebook's: its tournament config, quick sizes, workers,
	// permutations and the paper's win percentages are used.
	Notebook string `toml:"notebook"`
	// Bot is the name, in that tournament's bots, of the bot whose place
	// the seats take (e.g. "mars").
	Bot string `toml:"bot"`
	// Seats are seat specifications played in Bot's place; the first is
	// the reference of the paired comparisons. The tuned result of the
	// calibration is played last, under the name Tuned.
	Seats []string `toml:"seats"`
	// Tuned names the tuned seat in the tables (e.g. "mars@paperfield",
	// the name it ships under).
	Tuned string `toml:"tuned"`
	// Replications is the number of games per line-up.
	Replications int `toml:"replications"`
}

// calTourneyData is the template data of the tournament section.
type calTourneyData struct {
	Notebook     string
	Bot          string
	Reference    string
	Replications int
	Games        int
	// Wins is every bot's win % in every run beside the paper's.
	Wins table.Table
	// Paired compares each seat with the reference, game by game.
	Paired table.Table
	// Balance is the seats' placement auctions by winning bid.
	Balance table.Table
	// Verdicts holds one generated sentence per seat.
	Verdicts []string
}

// check validates the table against the tournament notebook's config.
func (t *calTournament) check(ck *checker, path string) *tournamentConfig {
	ck.nonEmpty("tournament.tuned", t.Tuned)
	ck.intIn("tournament.replications", t.Replications, 1, maxReplications)
	if len(t.Seats) == 0 {
		ck.fail("tournament.seats", "empty: want at least the reference seat")
	}
	distinct(ck, "tournament.seats", t.Seats)
	return loadTournamentNotebook(ck, path, "tournament", t.Notebook, t.Bot)
}

// playTournaments plays the round robin once per seat of t and the tuned
// seat last (tourney.RunSeats), in the work folder (resumable) or a
// temporary one, and returns the section's data, rendered by
// tourney.CompareSeats; the games are counted into count.
func (c *calibrationConfig) playTournaments(ctx context.Context, w *writer, tuned bots.Seat, count *counter) (*calTourneyData, error) {
	t, tn := c.Tournament, c.tn
	tc, reps := tn.sized(w.quick)
	if !w.quick {
		reps = t.Replications
	}
	tc.Replications = reps
	setup, err := tc.Resolve(w.reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tn.path, err)
	}
	idx := slices.Index(tc.Bots, t.Bot)
	if idx < 0 {
		return nil, fmt.Errorf("%s: key tournament.bot: %q is not among the bots played (%s)", c.path, t.Bot, strings.Join(tc.Bots, ", "))
	}
	var seats []bots.Seat
	for i, spec := range t.Seats {
		s, err := w.reg.ParseSeat(spec, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key tournament.seats[%d]: %w", c.path, i, err)
		}
		s.Label = spec
		seats = append(seats, s)
	}
	tuned.Label = t.Tuned
	seats = append(seats, tuned)
	dirs := make([]string, len(seats))
	for k := range seats {
		if w.work != "" {
			dirs[k] = filepath.Join(w.work, fmt.Sprintf("tournament-%d", k+1))
			continue
		}
		tmp, err := os.MkdirTemp("", "marslab-calibration-tournament-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dirs[k] = tmp
	}
	runs, err := tourney.RunSeats(ctx, &tc, setup, idx, seats, func(k int) string {
		w.logf("calibration: tournament with %s in %s's place, %d games, in %s", seats[k].Label, t.Bot, tc.Games(), dirs[k])
		return dirs[k]
	}, tourney.Options{Workers: tn.Tournament.Workers, Progress: w.progress, ProgressLines: w.progressLines})
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		count.games += r.Played
		w.readBack += r.Done - r.Played
	}
	sc, err := tourney.CompareSeats(runs, t.Bot, idx, &tn.Paper, tn.Tournament.Permutations)
	if err != nil {
		return nil, err
	}
	wins, winsCSV := sc.WinsTables()
	paired, pairedCSV := sc.PairedTables()
	balance, balanceCSV := sc.BalanceTables()
	d := &calTourneyData{Notebook: t.Notebook, Bot: t.Bot, Reference: t.Seats[0], Replications: reps, Games: tc.Games(),
		Wins: wins, Paired: paired, Balance: balance, Verdicts: sc.Verdicts()}
	for _, f := range []struct {
		name string
		csv  table.Table
	}{{"tournament.csv", winsCSV}, {"tournament-paired.csv", pairedCSV}, {"tournament-balance.csv", balanceCSV}} {
		if err := w.table(f.name, f.csv); err != nil {
			return nil, err
		}
		if chart := figures.Paired(sc); f.name == "tournament-paired.csv" && chart != nil {
			if err := w.figure("tournament-paired", chart); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}
