package report

import (
	"bytes"
	"context"
	"fmt"

	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/tourney"
)

// tournamentNotes are the note sections of a tournament notebook.
var tournamentNotes = []string{"intro", "table5", "table6", "rank", "stalemates", "turns", "placement",
	"headtohead", "figures", "timing", "replicated", "conclusion"}

// tournamentConfig is the config of a tournament notebook: a round-robin
// tournament of package tourney compared with a paper's Tables 5 and 6.
type tournamentConfig struct {
	Header
	Tournament struct {
		// Config is the tournament's config file (package tourney's
		// format), relative to the notebook's folder.
		Config string `toml:"config"`
		// Replications is the replications per line-up of the second run.
		Replications int `toml:"replications"`
		// Workers is the worker count of both runs; 0 means every core.
		Workers int `toml:"workers"`
		// Permutations is the number of random permutations behind the
		// Spearman p-value when there are more bots than
		// stats.MaxExactSpearman.
		Permutations int `toml:"permutations"`
		// HeadToHead names the two bots whose head-to-head record is
		// compared with the paper's.
		HeadToHead []string `toml:"head_to_head"`
	} `toml:"tournament"`
	// Quick is the reduced size: the first Bots bots of the tournament,
	// Players per game, Replications per line-up in the second run.
	Quick struct {
		Bots         int `toml:"bots"`
		Players      int `toml:"players"`
		Replications int `toml:"replications"`
	} `toml:"quick"`
	Paper paperTournament `toml:"paper"`
	path  string
	tc    *tourney.Config
}

// paperTournament holds a paper's published tournament results.
type paperTournament struct {
	// Source cites the tables.
	Source string `toml:"source"`
	// Games and Stalemates are the paper's totals.
	Games      int `toml:"games"`
	Stalemates int `toml:"stalemates"`
	// Bots are the rows of Tables 5 and 6 by our bot label.
	Bots map[string]paperBot `toml:"bots"`
	// HeadToHead is the paper's record of the two bots of
	// tournament.head_to_head.
	HeadToHead paperH2H `toml:"head_to_head"`
}

// paperBot is one bot's row of the paper's Tables 5 and 6.
type paperBot struct {
	// Name is the paper's name of the bot.
	Name string `toml:"name"`
	// Placements are the games finished 1st, 2nd, ...; Sm the stalemates.
	Placements []int `toml:"placements"`
	Sm         int   `toml:"sm"`
	// WinPct is the win percentage; TMatch and TTurn seconds per match and
	// per turn; TurnsPerMatch the bot's turns per match; WinPerTTurn the
	// paper's Win%/t_turn.
	WinPct        float64 `toml:"win_pct"`
	TMatch        float64 `toml:"t_match"`
	TurnsPerMatch float64 `toml:"turns_per_match"`
	TTurn         float64 `toml:"t_turn"`
	WinPerTTurn   float64 `toml:"win_per_t_turn"`
}

// paperH2H is a paper's head-to-head record of two bots A and B.
type paperH2H struct {
	// Met is the games both played; AWon and BWon those each won;
	// LastTwo those where they were the last two; AWonLastTwo those of
	// LastTwo that A won.
	Met         int `toml:"met"`
	AWon        int `toml:"a_won"`
	BWon        int `toml:"b_won"`
	LastTwo     int `toml:"last_two"`
	AWonLastTwo int `toml:"a_won_last_two"`
}

// Bounds of the tournament config.
const (
	maxReplications = 1000
	maxPermutations = 10_000_000
)

func parseTournament(path string, data []byte) (experiment, error) {
	c := tournamentConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	t := &c.Tournament
	ck.nonEmpty("tournament.config", t.Config)
	if ck.err != nil {
		return nil, ck.err
	}
	tc, err := tourney.Load(notebookPath(filepath.Dir(path), t.Config))
	if err != nil {
		return nil, fmt.Errorf("%s: key tournament.config: %w", path, err)
	}
	c.tc = tc
	ck.intIn("tournament.replications", t.Replications, 1, maxReplications)
	ck.intIn("tournament.workers", t.Workers, 0, maxWorkers)
	ck.intIn("tournament.permutations", t.Permutations, 1000, maxPermutations)
	if len(t.HeadToHead) != 2 || t.HeadToHead[0] == t.HeadToHead[1] {
		ck.fail("tournament.head_to_head", "%q: want two different bots of the tournament", t.HeadToHead)
	}
	for i, b := range t.HeadToHead {
		if !slices.Contains(tc.Bots, b) {
			ck.fail(fmt.Sprintf("tournament.head_to_head[%d]", i), "%q is not a bot of %s (%s)", b, tc.Source,
				strings.Join(tc.Bots, ", "))
		}
	}
	q := &c.Quick
	ck.intIn("quick.players", q.Players, 2, 6)
	ck.intIn("quick.bots", q.Bots, max(q.Players, 2), len(tc.Bots))
	ck.intIn("quick.replications", q.Replications, 1, maxReplications)
	p := &c.Paper
	ck.nonEmpty("paper.source", p.Source)
	ck.intIn("paper.games", p.Games, 1, maxEngineGames)
	ck.intIn("paper.stalemates", p.Stalemates, 0, p.Games)
	for _, b := range tc.Bots {
		if _, ok := p.Bots[b]; !ok {
			ck.fail("paper.bots."+b, "missing: the paper's row of bot %q (every bot of %s needs one)", b, tc.Source)
		}
	}
	for _, label := range sortedKeys(p.Bots) {
		b, key := p.Bots[label], "paper.bots."+label
		if !slices.Contains(tc.Bots, label) {
			ck.fail(key, "%q is not a bot of %s (%s)", label, tc.Source, strings.Join(tc.Bots, ", "))
		}
		ck.nonEmpty(key+".name", b.Name)
		ck.ints(key+".placements", b.Placements, tc.Players, tc.Players, 0, p.Games)
		ck.intIn(key+".sm", b.Sm, 0, p.Stalemates)
		ck.floatIn(key+".win_pct", b.WinPct, 0, 100)
		ck.floatOpen(key+".t_match", b.TMatch, 0, 1e6)
		ck.floatOpen(key+".turns_per_match", b.TurnsPerMatch, 0, 1e6)
		ck.floatOpen(key+".t_turn", b.TTurn, 0, 1e6)
		ck.floatIn(key+".win_per_t_turn", b.WinPerTTurn, 0, 1e6)
	}
	h := &p.HeadToHead
	ck.intIn("paper.head_to_head.met", h.Met, 0, p.Games)
	ck.intIn("paper.head_to_head.a_won", h.AWon, 0, h.Met)
	ck.intIn("paper.head_to_head.b_won", h.BWon, 0, h.Met-h.AWon)
	ck.intIn("paper.head_to_head.last_two", h.LastTwo, 0, h.Met)
	ck.intIn("paper.head_to_head.a_won_last_two", h.AWonLastTwo, 0, h.LastTwo)
	if ck.err != nil {
		return nil, ck.err
	}
	return &c, nil
}

// floatIn checks lo <= v <= hi.
func (c *checker) floatIn(key string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) {
		c.fail(key, "%v outside [%v, %v]", v, lo, hi)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (c *tournamentConfig) template() string { return "tournament.md.tmpl" }

// sized returns the tournament config of the first run and the
// replications of the second at the full or quick size.
func (c *tournamentConfig) sized(quick bool) (tourney.Config, int) {
	tc := *c.tc
	if !quick {
		return tc, c.Tournament.Replications
	}
	tc.Bots = tc.Bots[:c.Quick.Bots]
	tc.Players = c.Quick.Players
	return tc, c.Quick.Replications
}

func (c *tournamentConfig) sizes(quick bool) string {
	tc, r2 := c.sized(quick)
	g1 := tc.Games()
	tc.Replications = r2
	return fmt.Sprintf("%d bots, %d players per game, %d games; second run %d replications per line-up, %d games",
		len(tc.Bots), tc.Players, g1, r2, tc.Games())
}

// tournamentData is the template data of a tournament notebook.
type tournamentData struct {
	// Config is the tournament config's path as the notebook names it.
	Config             string
	Bots               []string
	Players, Games     int
	Rules              string
	Paper              *paperTournament
	PaperPlayers       int
	Table5, Table6     mdTable
	Timing6            mdTable
	Placement          mdTable
	Stalemates         int
	StalemateRate      float64
	StalemateCI        stats.Interval
	PaperStalemateRate float64
	// MeanTurns is our mean of the bots' turns per match; PaperMeanTurns
	// the paper's over the same bots.
	MeanTurns, PaperMeanTurns float64
	GameTurns, GameRounds     float64
	Rank                      stats.Spearman
	H2H                       h2hResult
	HasH2H                    bool
	Second                    runSummary
	SecondTable               mdTable
	SecondRank                stats.Spearman
	First                     runSummary
}

// runSummary is one run's size and speed.
type runSummary struct {
	Replications, Games, Stalemates int
	Seconds, GamesPerSecond         float64
}

// h2hResult is the head-to-head record of two bots, ours beside the paper's.
type h2hResult struct {
	A, B                 string
	Met, AWon, BWon      int
	AAhead, BAhead       int
	LastTwo, AWonLastTwo int
	Paper                paperH2H
}

// play runs the tournament tc into a temporary folder and returns the
// results, the records and the run's size and speed.
func (c *tournamentConfig) play(ctx context.Context, w *writer, tc *tourney.Config) (*tourney.Results, []arena.Record, runSummary, error) {
	var sum runSummary
	setup, err := tc.Resolve(w.reg)
	if err != nil {
		return nil, nil, sum, err
	}
	tmp, err := os.MkdirTemp("", "marslab-tournament-")
	if err != nil {
		return nil, nil, sum, err
	}
	defer os.RemoveAll(tmp)
	w.logf("tournament: %d bots, %d players, %d replications, %d games", len(tc.Bots), tc.Players,
		tc.Replications, tc.Games())
	rep, res, err := tourney.Run(ctx, tc, setup, tourney.Options{Out: tmp, Workers: c.Tournament.Workers})
	if err != nil {
		return nil, nil, sum, fmt.Errorf("tournament %s: %w", tc.Source, err)
	}
	recs, err := tourney.ReadGames(filepath.Join(tmp, "games.jsonl"), tc.Players)
	if err != nil {
		return nil, nil, sum, err
	}
	sum = runSummary{Replications: tc.Replications, Games: res.Games, Stalemates: res.Stalemates,
		Seconds: rep.Timing.WallSeconds}
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(res.Games) / sum.Seconds
	}
	return res, recs, sum, nil
}

func (c *tournamentConfig) run(ctx context.Context, w *writer) (any, error) {
	tc, r2 := c.sized(w.quick)
	d := &tournamentData{Config: c.Tournament.Config, Bots: tc.Bots, Players: tc.Players, Rules: tc.Rules,
		Paper: &c.Paper, PaperPlayers: c.tc.Players}
	res, recs, first, err := c.play(ctx, w, &tc)
	if err != nil {
		return nil, err
	}
	d.First, d.Games = first, res.Games
	var timings [][]string
	timing := func(measure, subject string, v float64, unit string) {
		timings = append(timings, []string{measure, subject, num(v), unit})
	}
	timing("games_per_second", "first run", first.GamesPerSecond, "games/s")
	if err := c.tables(w, d, res, timing); err != nil {
		return nil, err
	}
	if d.Rank, err = c.rank(res); err != nil {
		return nil, err
	}
	d.H2H, d.HasH2H = c.headToHead(res, recs)
	if err := c.figures(w, res); err != nil {
		return nil, err
	}
	tc2 := tc
	tc2.Replications = r2
	res2, _, second, err := c.play(ctx, w, &tc2)
	if err != nil {
		return nil, err
	}
	d.Second = second
	timing("games_per_second", "second run", second.GamesPerSecond, "games/s")
	if d.SecondRank, err = c.rank(res2); err != nil {
		return nil, err
	}
	d.SecondTable = mdTable{Header: []string{"bot", "games", "wins", "win %", "95 % Wilson", "paper win %",
		"mean placement", "95 % interval"}}
	var rows [][]string
	for _, b := range res2.Bots {
		p := c.Paper.Bots[b.Bot]
		d.SecondTable.Rows = append(d.SecondTable.Rows, []string{c.label(b.Bot), itoa(b.Games), itoa(b.Wins),
			textfmt.Fixed(100*b.WinRate, 1), fmt.Sprintf("[%s, %s]", textfmt.Fixed(100*b.WinLo, 1), textfmt.Fixed(100*b.WinHi, 1)),
			textfmt.Fixed(p.WinPct, 1), textfmt.Fixed(b.MeanPlacement, 2),
			fmt.Sprintf("[%s, %s]", textfmt.Fixed(b.PlacementLo, 2), textfmt.Fixed(b.PlacementHi, 2))})
		rows = append(rows, []string{b.Bot, itoa(b.Games), itoa(b.Wins), num(b.WinRate), num(b.WinLo), num(b.WinHi),
			num(b.MeanPlacement), num(b.PlacementLo), num(b.PlacementHi), itoa(b.Stalemates)})
	}
	if err := w.csv("replicated.csv", []string{"bot", "games", "wins", "win_rate", "wilson95_lo", "wilson95_hi",
		"mean_placement", "placement95_lo", "placement95_hi", "stalemates"}, rows); err != nil {
		return nil, err
	}
	if err := w.csv(TimingsFile, []string{"measure", "subject", "value", "unit"}, timings); err != nil {
		return nil, err
	}
	return d, nil
}

// label is a bot's label with the paper's name where it differs.
func (c *tournamentConfig) label(bot string) string {
	if p, ok := c.Paper.Bots[bot]; ok && !strings.EqualFold(p.Name, bot) {
		return fmt.Sprintf("%s (paper: %s)", bot, p.Name)
	}
	return bot
}

// tables fills Tables 5 and 6, the placements and stalemates of d and
// writes their CSV files; the timings of Table 6 go to timing.
func (c *tournamentConfig) tables(w *writer, d *tournamentData, res *tourney.Results,
	timing func(measure, subject string, v float64, unit string)) error {
	cols := max(d.Players, d.PaperPlayers)
	d.Table5.Header = []string{"bot", "source"}
	for k := 1; k <= cols; k++ {
		d.Table5.Header = append(d.Table5.Header, textfmt.Ordinal(k))
	}
	d.Table5.Header = append(d.Table5.Header, "Sm", "games")
	d.Table6 = mdTable{Header: []string{"bot", "win %", "95 % Wilson", "paper win %", "turns/match", "paper turns/match",
		"game turns"}}
	clock := arena.ClockName(res.Clock)
	d.Timing6 = mdTable{Header: []string{"bot", "t_match (ms, " + clock + ")", "paper t_match (s)", "t_turn (µs, " + clock + ")",
		"paper t_turn (s)", "win % per ms t_turn", "paper win % per s t_turn"}}
	d.Placement = mdTable{Header: []string{"bot", "games", "mean placement", "95 % interval"}}
	var rows5, rows6 [][]string
	var turns, paperTurns float64
	for _, b := range res.Bots {
		p := c.Paper.Bots[b.Bot]
		ours, paper := []string{c.label(b.Bot), "ours"}, []string{"", "paper"}
		for k := range cols {
			o, q := "", ""
			if k < len(b.Placements) {
				o = itoa(b.Placements[k])
			}
			if k < len(p.Placements) {
				q = itoa(p.Placements[k])
			}
			ours, paper = append(ours, o), append(paper, q)
		}
		games := p.Sm // the paper places only the games that end with a winner
		for _, n := range p.Placements {
			games += n
		}
		d.Table5.Rows = append(d.Table5.Rows, append(ours, itoa(b.Stalemates), itoa(b.Games)),
			append(paper, itoa(p.Sm), itoa(games)))
		row5 := []string{b.Bot}
		for _, n := range b.Placements {
			row5 = append(row5, itoa(n))
		}
		row5 = append(row5, itoa(b.Stalemates), itoa(b.Games), p.Name)
		for _, n := range p.Placements {
			row5 = append(row5, itoa(n))
		}
		rows5 = append(rows5, append(row5, itoa(p.Sm)))
		d.Table6.Rows = append(d.Table6.Rows, []string{c.label(b.Bot), textfmt.Fixed(100*b.WinRate, 1),
			fmt.Sprintf("[%s, %s]", textfmt.Fixed(100*b.WinLo, 1), textfmt.Fixed(100*b.WinHi, 1)), textfmt.Fixed(p.WinPct, 1),
			textfmt.Fixed(b.TurnsPerMatch, 1), textfmt.Fixed(p.TurnsPerMatch, 1), textfmt.Fixed(b.GameTurns, 1)})
		rows6 = append(rows6, []string{b.Bot, num(b.WinRate), num(b.WinLo), num(b.WinHi), num(p.WinPct / 100),
			num(b.TurnsPerMatch), num(p.TurnsPerMatch), num(b.GameTurns)})
		d.Timing6.Rows = append(d.Timing6.Rows, []string{c.label(b.Bot), textfmt.Fixed(1000*b.SecondsPerMatch, 3),
			textfmt.Fixed(p.TMatch, 2), textfmt.Fixed(1e6*b.SecondsPerTurn, 1), textfmt.Fixed(p.TTurn, 2), textfmt.Fixed(b.WinPerMsTurn, 1),
			textfmt.Fixed(p.WinPerTTurn, 2)})
		timing("t_match", b.Bot, b.SecondsPerMatch, "s/match ("+clock+")")
		timing("t_turn", b.Bot, b.SecondsPerTurn, "s/turn ("+clock+")")
		timing("win_pct_per_ms_t_turn", b.Bot, b.WinPerMsTurn, "%/ms")
		d.Placement.Rows = append(d.Placement.Rows, []string{c.label(b.Bot), itoa(b.Games), textfmt.Fixed(b.MeanPlacement, 2),
			fmt.Sprintf("[%s, %s]", textfmt.Fixed(b.PlacementLo, 2), textfmt.Fixed(b.PlacementHi, 2))})
		turns += b.TurnsPerMatch
		paperTurns += p.TurnsPerMatch
	}
	n := float64(len(res.Bots))
	d.MeanTurns, d.PaperMeanTurns = turns/n, paperTurns/n
	d.GameTurns, d.GameRounds = res.MeanTurns, res.MeanRounds
	d.Stalemates = res.Stalemates
	d.StalemateRate = float64(res.Stalemates) / float64(res.Games)
	d.PaperStalemateRate = float64(c.Paper.Stalemates) / float64(c.Paper.Games)
	var err error
	if d.StalemateCI, err = stats.Wilson(res.Stalemates, res.Games, 0.95); err != nil {
		return fmt.Errorf("stalemates: %w", err)
	}
	h5 := []string{"bot"}
	for k := 1; k <= d.Players; k++ {
		h5 = append(h5, fmt.Sprintf("p%d", k))
	}
	h5 = append(h5, "stalemates", "games", "paper_name")
	for k := 1; k <= d.PaperPlayers; k++ {
		h5 = append(h5, fmt.Sprintf("paper_p%d", k))
	}
	if err := w.csv("table5.csv", append(h5, "paper_stalemates"), rows5); err != nil {
		return err
	}
	if err := w.csv("table6.csv", []string{"bot", "win_rate", "wilson95_lo", "wilson95_hi", "paper_win_rate",
		"turns_per_match", "paper_turns_per_match", "game_turns"}, rows6); err != nil {
		return err
	}
	for _, t := range []tourney.Table{res.PlacementTable(), res.WinRateTable(), res.HeadToHeadTable()} {
		var buf bytes.Buffer
		if err := t.WriteCSV(&buf); err != nil {
			return fmt.Errorf("%s.csv: %w", t.Name, err)
		}
		if err := w.file(t.Name+".csv", buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// rank is the Spearman rank correlation of our win % with the paper's.
func (c *tournamentConfig) rank(res *tourney.Results) (stats.Spearman, error) {
	var ours, paper []float64
	for _, b := range res.Bots {
		ours = append(ours, b.WinRate)
		paper = append(paper, c.Paper.Bots[b.Bot].WinPct)
	}
	s, err := stats.SpearmanTest(ours, paper, c.Tournament.Permutations, 1)
	if err != nil {
		return s, fmt.Errorf("rank correlation of win %%: %w", err)
	}
	return s, nil
}

// headToHead is the record of the two bots of tournament.head_to_head,
// false if the run does not seat both.
func (c *tournamentConfig) headToHead(res *tourney.Results, recs []arena.Record) (h2hResult, bool) {
	a, b := c.Tournament.HeadToHead[0], c.Tournament.HeadToHead[1]
	h := h2hResult{A: a, B: b, Paper: c.Paper.HeadToHead}
	ia, ib := -1, -1
	for i, r := range res.Bots {
		switch r.Bot {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	if ia < 0 || ib < 0 {
		return h, false
	}
	for _, p := range res.Pairs {
		switch {
		case p.A == ia && p.B == ib:
			h.Met, h.AAhead, h.BAhead, h.LastTwo, h.AWonLastTwo = p.Met, p.AheadA, p.AheadB, p.LastTwo, p.WonA
		case p.A == ib && p.B == ia:
			h.Met, h.AAhead, h.BAhead, h.LastTwo, h.AWonLastTwo = p.Met, p.AheadB, p.AheadA, p.LastTwo, p.WonB
		}
	}
	for _, r := range recs {
		sa, sb := slices.Index(r.Seating, a), slices.Index(r.Seating, b)
		if sa < 0 || sb < 0 {
			continue
		}
		switch r.Winner {
		case sa:
			h.AWon++
		case sb:
			h.BWon++
		}
	}
	return h, true
}

// figures writes tourney's figures (Figures 3 and 4 of the paper, the
// placements and the win % with intervals) as PNG and SVG.
func (c *tournamentConfig) figures(w *writer, res *tourney.Results) error {
	for _, fig := range res.Figures() {
		for _, ext := range []string{".png", ".svg"} {
			name := fig.Name + ext
			if err := fig.Save(filepath.Join(w.dir, name)); err != nil {
				return fmt.Errorf("figure %s: %w", fig.Name, err)
			}
			w.files = append(w.files, name)
		}
	}
	return nil
}
