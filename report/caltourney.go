package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/stats"
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
	Wins mdTable
	// Paired compares each seat with the reference, game by game.
	Paired mdTable
	// Balance is the seats' placement auctions by winning bid.
	Balance mdTable
	// Verdicts holds one generated sentence per seat.
	Verdicts []string
}

// check validates the table against the tournament notebook's config.
func (t *calTournament) check(ck *checker, path string) *tournamentConfig {
	ck.nonEmpty("tournament.notebook", t.Notebook)
	ck.nonEmpty("tournament.bot", t.Bot)
	ck.nonEmpty("tournament.tuned", t.Tuned)
	ck.intIn("tournament.replications", t.Replications, 1, maxReplications)
	if len(t.Seats) == 0 {
		ck.fail("tournament.seats", "empty: want at least the reference seat")
	}
	if ck.err != nil {
		return nil
	}
	tpath := filepath.Join(filepath.Dir(path), t.Notebook, ConfigFile)
	data, err := os.ReadFile(tpath)
	if err != nil {
		ck.fail("tournament.notebook", "%v", err)
		return nil
	}
	nb, err := parseTournament(tpath, data)
	if err != nil {
		ck.fail("tournament.notebook", "%v", err)
		return nil
	}
	tn := nb.(*tournamentConfig)
	if !slices.Contains(tn.tc.Bots, t.Bot) {
		ck.fail("tournament.bot", "%q is not a bot of %s (%s)", t.Bot, tn.tc.Source, strings.Join(tn.tc.Bots, ", "))
	}
	return tn
}

// seatRun is one run of the round robin with one seat in the bot's place.
type seatRun struct {
	name string
	res  *tourney.Results
	recs []arena.Record
	sum  []arena.BotSummary
}

// playTournaments plays the round robin once per seat of t and the tuned
// seat last, in the work folder (resumable) or a temporary one, and
// returns the section's data; the games are counted into count.
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
	var runs []seatRun
	for k, seat := range seats {
		st := *setup
		st.Seats = slices.Clone(setup.Seats)
		st.Seats[idx] = seat
		dir := ""
		if w.work != "" {
			dir = filepath.Join(w.work, fmt.Sprintf("tournament-%d", k+1))
		} else {
			tmp, err := os.MkdirTemp("", "marslab-calibration-tournament-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(tmp)
			dir = tmp
		}
		w.logf("calibration: tournament with %s in %s's place, %d games, in %s", seat.Label, t.Bot, tc.Games(), dir)
		rep, res, err := tourney.Run(ctx, &tc, &st, tourney.Options{Out: dir, Workers: tn.Tournament.Workers, Resume: true})
		if err != nil {
			return nil, fmt.Errorf("tournament with %s: %w", seat.Label, err)
		}
		count.games += rep.Played
		w.readBack += rep.Done - rep.Played
		recs, err := tourney.ReadGames(filepath.Join(dir, "games.jsonl"), tc.Players)
		if err != nil {
			return nil, err
		}
		runs = append(runs, seatRun{name: seat.Label, res: res, recs: recs, sum: rep.Summary})
	}
	d := &calTourneyData{Notebook: t.Notebook, Bot: t.Bot, Reference: t.Seats[0], Replications: reps, Games: tc.Games()}
	if err := c.tourneyTables(w, d, tn, runs, idx); err != nil {
		return nil, err
	}
	return d, nil
}

// tourneyTables fills the win table, the paired comparisons, the balance
// of the placement auctions and the verdicts of d from the runs, and
// writes their CSV files and the paired chart.
func (c *calibrationConfig) tourneyTables(w *writer, d *calTourneyData, tn *tournamentConfig, runs []seatRun, idx int) error {
	bot := c.Tournament.Bot
	label := func(r seatRun, b string) string { // the paper's key of label b
		if b == r.name {
			return bot
		}
		return b
	}
	// Win % of every bot in every run, beside the paper's.
	d.Wins = mdTable{Header: []string{"bot"}}
	for _, r := range runs {
		d.Wins.Header = append(d.Wins.Header, "with "+r.name)
	}
	d.Wins.Header = append(d.Wins.Header, "paper win %")
	var wrows [][]string
	for i, b := range runs[0].res.Bots {
		name := b.Bot
		if i == idx {
			name = bot + " (the seat)"
		}
		row := []string{name}
		for _, r := range runs {
			x := r.res.Bots[i]
			row = append(row, fmt.Sprintf("%s [%s, %s]", textfmt.Fixed(100*x.WinRate, 1), textfmt.Fixed(100*x.WinLo, 1), textfmt.Fixed(100*x.WinHi, 1)))
			wrows = append(wrows, []string{r.name, label(r, x.Bot), itoa(x.Games), itoa(x.Wins), num(x.WinRate), num(x.WinLo), num(x.WinHi),
				num(tn.Paper.Bots[label(r, x.Bot)].WinPct / 100)})
		}
		row = append(row, textfmt.Fixed(tn.Paper.Bots[label(runs[0], b.Bot)].WinPct, 1))
		d.Wins.Rows = append(d.Wins.Rows, row)
	}
	if err := w.csv("tournament.csv", []string{"seat", "bot", "games", "wins", "win_rate", "wilson95_lo", "wilson95_hi", "paper_win_rate"}, wrows); err != nil {
		return err
	}
	// Verdicts: rank, separation and Spearman against the paper.
	for _, r := range runs {
		me := r.res.Bots[idx]
		rank, sep := 1, true
		var ours, paper []float64
		for i, x := range r.res.Bots {
			ours = append(ours, x.WinRate)
			paper = append(paper, tn.Paper.Bots[label(r, x.Bot)].WinPct)
			if i == idx {
				continue
			}
			if x.WinRate > me.WinRate {
				rank++
			}
			if x.WinHi >= me.WinLo {
				sep = false
			}
		}
		sp, err := stats.SpearmanTest(ours, paper, tn.Tournament.Permutations, 1)
		if err != nil {
			return fmt.Errorf("rank correlation of win %%: %w", err)
		}
		pw := tn.Paper.Bots[bot].WinPct
		v := fmt.Sprintf("with `%s` in %s's place, it wins %s %% of its games (95 %% Wilson [%s, %s]; the paper's %s: %s %%) and ranks %s of %d",
			r.name, bot, textfmt.Fixed(100*me.WinRate, 1), textfmt.Fixed(100*me.WinLo, 1), textfmt.Fixed(100*me.WinHi, 1), bot, textfmt.Fixed(pw, 1),
			textfmt.Ordinal(rank), len(r.res.Bots))
		if rank == 1 && sep {
			v += ", its interval above every other bot's"
		} else if rank == 1 {
			v += ", its interval overlapping another bot's"
		}
		v += fmt.Sprintf("; Spearman's rho of win %% against the paper's is %s (p %s)", textfmt.Fixed(sp.Rho, 2), pRel(sp.P))
		d.Verdicts = append(d.Verdicts, v)
	}
	// Paired, game by game, against the reference seat.
	d.Paired = mdTable{Header: []string{"seat", "games", "win %", d.Reference + " win %", "difference (points)", "95 % interval", "McNemar p"}}
	chart := &plots.EffectChart{Title: "win rate against " + d.Reference + ", same games", YLabel: "change in win rate", SlantLabels: true}
	var prows [][]string
	ref := wins(runs[0])
	for _, r := range runs[1:] {
		pp, err := stats.PairedProportions(mustPairs(wins(r), ref), 0.95)
		if err != nil {
			return fmt.Errorf("paired comparison of %s: %w", r.name, err)
		}
		d.Paired.Rows = append(d.Paired.Rows, []string{"`" + r.name + "`", itoa(pp.N), textfmt.Fixed(100*pp.PX, 1), textfmt.Fixed(100*pp.PY, 1),
			signed(100*pp.Diff, 1), fmt.Sprintf("[%s, %s]", signed(100*pp.Interval.Lo, 1), signed(100*pp.Interval.Hi, 1)), fmtP(pp.P)})
		prows = append(prows, []string{r.name, itoa(pp.N), num(pp.PX), num(pp.PY), num(pp.Diff), num(pp.Interval.Lo), num(pp.Interval.Hi), num(pp.P)})
		chart.Categories = append(chart.Categories, r.name)
		chart.Values = append(chart.Values, pp.Diff)
		chart.Lo = append(chart.Lo, pp.Interval.Lo)
		chart.Hi = append(chart.Hi, pp.Interval.Hi)
	}
	if err := w.csv("tournament-paired.csv", []string{"seat", "games", "win_rate", "reference_win_rate", "difference", "diff95_lo", "diff95_hi", "p"}, prows); err != nil {
		return err
	}
	if len(prows) > 0 {
		if err := w.figure("tournament-paired", chart); err != nil {
			return err
		}
	}
	// The balance of the placement auctions (the seat's own counts).
	names := []string{"place_offensive", "place_defensive", "place_zero", "armies_offensive", "armies_defensive", "armies_unbid"}
	d.Balance = mdTable{Header: []string{"seat", "auctions won: offensive", "defensive", "zero-army", "defensive share", "armies: offensive", "defensive", "unbid", "defensive share"}}
	var brows [][]string
	for _, r := range runs {
		var st map[string]int64
		for _, s := range r.sum {
			if s.Bot == r.name {
				st = s.Stats
			}
		}
		if st == nil {
			continue
		}
		auctions := st["place_offensive"] + st["place_defensive"] + st["place_zero"]
		armies := st["armies_offensive"] + st["armies_defensive"] + st["armies_unbid"]
		d.Balance.Rows = append(d.Balance.Rows, []string{"`" + r.name + "`", i64(st["place_offensive"]), i64(st["place_defensive"]), i64(st["place_zero"]),
			pct(st["place_defensive"], auctions), i64(st["armies_offensive"]), i64(st["armies_defensive"]), i64(st["armies_unbid"]),
			pct(st["armies_defensive"], armies)})
		row := []string{r.name}
		for _, n := range names {
			row = append(row, i64(st[n]))
		}
		brows = append(brows, row)
	}
	return w.csv("tournament-balance.csv", append([]string{"seat"}, names...), brows)
}

// wins returns, for every game of run r that seats r's seat, whether it
// won.
func wins(r seatRun) []bool {
	var out []bool
	for _, rec := range r.recs {
		s := slices.Index(rec.Seating, r.name)
		if s >= 0 {
			out = append(out, rec.Winner == s)
		}
	}
	return out
}

// mustPairs counts the pairs of x and y, which have the same length (the
// runs play the same schedule); a length mismatch gives no pairs, which
// PairedProportions reports as an error.
func mustPairs(x, y []bool) stats.PairCounts {
	c, err := stats.CountPairs(x, y)
	if err != nil {
		return stats.PairCounts{}
	}
	return c
}

func i64(v int64) string { return fmt.Sprint(v) }

// pct returns 100·k/n with one decimal and a percent sign ("-" for n = 0).
func pct(k, n int64) string {
	if n == 0 {
		return "-"
	}
	return textfmt.Fixed(100*float64(k)/float64(n), 1) + " %"
}
