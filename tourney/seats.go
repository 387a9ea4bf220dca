package tourney

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// SeatRun is one run of a round robin with one seat in a bot's place.
type SeatRun struct {
	// Name is the seat's label.
	Name    string
	Results *Results
	Records []arena.Record
	// Summary holds the bots' summaries of the run (their own counts).
	Summary []arena.BotSummary
	// Played and Done count the games played by this call and the games
	// done in all (Done - Played were read back from an earlier run).
	Played, Done int
}

// RunSeats plays the tournament c once per seat of seats, each time with
// that seat in the place of the bot at index idx of s.Seats, in the folder
// dir(k) of the k-th seat (resumed if it holds games of an earlier run),
// with the options o (o.Out is ignored). Every run has the same line-ups,
// deals and dice streams, so the runs differ only in that seat.
func RunSeats(ctx context.Context, c *Config, s *Setup, idx int, seats []bots.Seat, dir func(k int) string, o Options) ([]SeatRun, error) {
	if idx < 0 || idx >= len(s.Seats) {
		return nil, fmt.Errorf("tourney: seat index %d: want 0..%d", idx, len(s.Seats)-1)
	}
	var runs []SeatRun
	for k, seat := range seats {
		st := *s
		st.Seats = slices.Clone(s.Seats)
		st.Seats[idx] = seat
		ok := o
		ok.Out, ok.Resume = dir(k), true
		rep, res, err := Run(ctx, c, &st, ok)
		if err != nil {
			return nil, fmt.Errorf("tournament with %s: %w", seat.Label, err)
		}
		recs, err := ReadGames(filepath.Join(ok.Out, "games.jsonl"), c.Players)
		if err != nil {
			return nil, err
		}
		runs = append(runs, SeatRun{Name: seat.Label, Results: res, Records: recs, Summary: rep.Summary, Played: rep.Played, Done: rep.Done})
	}
	return runs, nil
}

// SeatComparison compares the runs of RunSeats: every bot's win % in
// every run beside the paper's, each seat against the first run's seat
// game by game, and the seats' placement auctions.
type SeatComparison struct {
	// Bot is the name of the bot whose place the seats take, Index its
	// index among the tournament's bots; Reference the first seat.
	Bot       string
	Index     int
	Reference string
	Runs      []SeatRun
	Paper     *Published
	// Ranks are Spearman's ρ of each run's win % against the paper's.
	Ranks []stats.Spearman
	// Paired compares each run after the first with the first, game by
	// game (McNemar's test, Newcombe's interval).
	Paired []stats.PairedProportion
}

// CompareSeats compares the runs (the first is the reference) of the bot
// named bot at index idx with each other and with the paper's win %
// (permutations as in Compare).
func CompareSeats(runs []SeatRun, bot string, idx int, paper *Published, permutations int) (*SeatComparison, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("tourney: no seat runs to compare")
	}
	c := &SeatComparison{Bot: bot, Index: idx, Reference: runs[0].Name, Runs: runs, Paper: paper}
	for _, r := range runs {
		var ours, theirs []float64
		for _, x := range r.Results.Bots {
			ours = append(ours, x.WinRate)
			theirs = append(theirs, paper.Bots[c.paperKey(r, x.Bot)].WinPct)
		}
		sp, err := stats.SpearmanTest(ours, theirs, permutations, 1)
		if err != nil {
			return nil, fmt.Errorf("tourney: rank correlation of win %%: %w", err)
		}
		c.Ranks = append(c.Ranks, sp)
	}
	ref := seatWins(runs[0])
	for _, r := range runs[1:] {
		pairs, err := stats.CountPairs(seatWins(r), ref)
		if err != nil {
			return nil, fmt.Errorf("tourney: paired comparison of %s: %w", r.Name, err)
		}
		pp, err := stats.PairedProportions(pairs, stats.Level)
		if err != nil {
			return nil, fmt.Errorf("tourney: paired comparison of %s: %w", r.Name, err)
		}
		c.Paired = append(c.Paired, pp)
	}
	return c, nil
}

// paperKey is the paper's key of label b in run r: the bot's name for the
// run's seat.
func (c *SeatComparison) paperKey(r SeatRun, b string) string {
	if b == r.Name {
		return c.Bot
	}
	return b
}

// seatWins returns, for every game of run r that seats r's seat, whether
// it won.
func seatWins(r SeatRun) []bool {
	var out []bool
	for _, rec := range r.Records {
		s := slices.Index(rec.Seating, r.Name)
		if s >= 0 {
			out = append(out, rec.Winner == s)
		}
	}
	return out
}

// WinsTables returns every bot's win % with its 95 % Wilson interval in
// every run, beside the paper's: shown, the report's table, and csv, the
// rows of tournament.csv (per run and bot the games, wins, win rate with
// its interval and the paper's).
func (c *SeatComparison) WinsTables() (shown, csv table.Table) { return c.winsShown(), c.winsCSV() }

// winsShown is the table of WinsTables shown in the report.
func (c *SeatComparison) winsShown() table.Table {
	t := table.Table{Header: []string{"bot"}}
	for _, r := range c.Runs {
		t.Header = append(t.Header, "with "+r.Name)
	}
	t.Header = append(t.Header, "paper win %")
	for i, b := range c.Runs[0].Results.Bots {
		name := b.Bot
		if i == c.Index {
			name = c.Bot + " (the seat)"
		}
		row := []string{name}
		for _, r := range c.Runs {
			x := r.Results.Bots[i]
			row = append(row, textfmt.Fixed(100*x.WinRate, 1)+" "+interval(100*x.WinLo, 100*x.WinHi, 1))
		}
		t.Add(append(row, textfmt.Fixed(c.Paper.Bots[c.paperKey(c.Runs[0], b.Bot)].WinPct, 1))...)
	}
	return t
}

// winsCSV returns the header and rows of tournament.csv.
func (c *SeatComparison) winsCSV() table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"seat", "bot", "games", "wins", "win_rate", "wilson95_lo", "wilson95_hi", "paper_win_rate"}
	for i := range c.Runs[0].Results.Bots {
		for _, r := range c.Runs {
			x := r.Results.Bots[i]
			key := c.paperKey(r, x.Bot)
			rows = append(rows, []string{r.Name, key, strconv.Itoa(x.Games), strconv.Itoa(x.Wins), num(x.WinRate), num(x.WinLo), num(x.WinHi),
				num(c.Paper.Bots[key].WinPct / 100)})
		}
	}
	return table.Table{Header: head, Rows: rows}
}

// Verdicts returns one sentence per run: the seat's win % with its
// interval beside the paper's, its rank among the bots (and whether its
// interval lies above every other bot's when it ranks first), and
// Spearman's ρ of win % against the paper's.
func (c *SeatComparison) Verdicts() []string {
	var out []string
	for k, f := range c.Fits() {
		v := fmt.Sprintf("with `%s` in %s's place, it wins %s %% of its games (95 %% Wilson %s; the paper's %s: %s %%) and ranks %s of %d",
			f.Seat, c.Bot, textfmt.Fixed(f.Win, 1), interval(f.WinLo, f.WinHi, 1), c.Bot, textfmt.Fixed(f.Paper, 1),
			textfmt.Ordinal(f.Rank), len(c.Runs[k].Results.Bots))
		if f.Clear {
			v += ", its interval above every other bot's"
		} else if f.Rank == 1 {
			v += ", its interval overlapping another bot's"
		}
		out = append(out, v+fmt.Sprintf("; Spearman's rho of win %% against the paper's is %s (p %s)", textfmt.Fixed(f.Rho.Rho, 2), textfmt.PRel(f.Rho.P)))
	}
	return out
}

// PairedTables compares each seat after the first with the first, game by
// game: games, both win %, the difference in points with its 95 %
// interval and McNemar's p; shown is the report's table and csv the rows
// of tournament-paired.csv.
func (c *SeatComparison) PairedTables() (shown, csv table.Table) {
	return c.pairedShown(), c.pairedCSV()
}

// pairedShown is the table of PairedTables shown in the report.
func (c *SeatComparison) pairedShown() table.Table {
	t := table.Table{Header: []string{"seat", "games", "win %", c.Reference + " win %", "difference (points)", "95 % interval", "McNemar p"}}
	for k, pp := range c.Paired {
		t.Add("`"+c.Runs[k+1].Name+"`", strconv.Itoa(pp.N), textfmt.Fixed(100*pp.PX, 1), textfmt.Fixed(100*pp.PY, 1), textfmt.Signed(100*pp.Diff, 1),
			fmt.Sprintf("[%s, %s]", textfmt.Signed(100*pp.Interval.Lo, 1), textfmt.Signed(100*pp.Interval.Hi, 1)), textfmt.P(pp.P))
	}
	return t
}

// pairedCSV returns the header and rows of tournament-paired.csv.
func (c *SeatComparison) pairedCSV() table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"seat", "games", "win_rate", "reference_win_rate", "difference", "diff95_lo", "diff95_hi", "p"}
	for k, pp := range c.Paired {
		rows = append(rows, []string{c.Runs[k+1].Name, strconv.Itoa(pp.N), num(pp.PX), num(pp.PY), num(pp.Diff), num(pp.Interval.Lo), num(pp.Interval.Hi), num(pp.P)})
	}
	return table.Table{Header: head, Rows: rows}
}

// auctionStats are the counts of a bot's placement auctions by winning
// bid (MARS's bots.StatReporter counts).
var auctionStats = []string{"place_offensive", "place_defensive", "place_zero", "armies_offensive", "armies_defensive", "armies_unbid"}

// seatStats returns the counts of run r's seat (nil if it reports none).
func seatStats(r SeatRun) map[string]int64 {
	for _, s := range r.Summary {
		if s.Bot == r.Name {
			return s.Stats
		}
	}
	return nil
}

// BalanceTables returns the seats' placement auctions by winning bid and
// the armies bid (the seat's own counts; seats without counts are left
// out): shown, the report's table, and csv, the rows of
// tournament-balance.csv.
func (c *SeatComparison) BalanceTables() (shown, csv table.Table) {
	return c.balanceShown(), c.balanceCSV()
}

// balanceShown is the table of BalanceTables shown in the report.
func (c *SeatComparison) balanceShown() table.Table {
	t := table.Table{Header: []string{"seat", "auctions won: offensive", "defensive", "zero-army", "defensive share", "armies: offensive", "defensive", "unbid", "defensive share"}}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range c.Runs {
		st := seatStats(r)
		if st == nil {
			continue
		}
		auctions := st["place_offensive"] + st["place_defensive"] + st["place_zero"]
		armies := st["armies_offensive"] + st["armies_defensive"] + st["armies_unbid"]
		t.Add("`"+r.Name+"`", i64(st["place_offensive"]), i64(st["place_defensive"]), i64(st["place_zero"]), pct(st["place_defensive"], auctions),
			i64(st["armies_offensive"]), i64(st["armies_defensive"]), i64(st["armies_unbid"]), pct(st["armies_defensive"], armies))
	}
	return t
}

// balanceCSV returns the header and rows of tournament-balance.csv.
func (c *SeatComparison) balanceCSV() table.Table {
	var rows [][]string
	head := append([]string{"seat"}, auctionStats...)
	for _, r := range c.Runs {
		st := seatStats(r)
		if st == nil {
			continue
		}
		row := []string{r.Name}
		for _, n := range auctionStats {
			row = append(row, strconv.FormatInt(st[n], 10))
		}
		rows = append(rows, row)
	}
	return table.Table{Header: head, Rows: rows}
}

// pct returns 100·k/n with one decimal and a percent sign ("-" for n = 0).
func pct(k, n int64) string {
	if n == 0 {
		return "-"
	}
	return textfmt.Fixed(100*float64(k)/float64(n), 1) + " %"
}
