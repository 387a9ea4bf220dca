package tourney

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// Published holds a paper's published tournament results (Johansson &
// Olsson 2006, Tables 5 and 6 and the text's head-to-head record), as a
// notebook config's [paper] table gives them.
type Published struct {
	// Source cites the tables.
	Source string `toml:"source"`
	// Games and Stalemates are the paper's totals.
	Games      int `toml:"games"`
	Stalemates int `toml:"stalemates"`
	// Bots are the rows of Tables 5 and 6 by our bot label.
	Bots map[string]PublishedBot `toml:"bots"`
	// HeadToHead is the paper's record of two bots.
	HeadToHead PublishedH2H `toml:"head_to_head"`
}

// PublishedBot is one bot's row of the paper's Tables 5 and 6.
type PublishedBot struct {
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

// PublishedH2H is a paper's head-to-head record of two bots A and B.
type PublishedH2H struct {
	// Met is the games both played; AWon and BWon those each won;
	// LastTwo those where they were the last two; AWonLastTwo those of
	// LastTwo that A won.
	Met         int `toml:"met"`
	AWon        int `toml:"a_won"`
	BWon        int `toml:"b_won"`
	LastTwo     int `toml:"last_two"`
	AWonLastTwo int `toml:"a_won_last_two"`
}

// label returns bot's label with the paper's name where it differs, e.g.
// "vulture (paper: Nefarious)".
func (p *Published) label(bot string) string {
	if b, ok := p.Bots[bot]; ok && !strings.EqualFold(b.Name, bot) {
		return fmt.Sprintf("%s (paper: %s)", bot, b.Name)
	}
	return bot
}

// HeadToHead is the head-to-head record of bots A and B in our games,
// beside the paper's.
type HeadToHead struct {
	A, B                 string
	Met, AWon, BWon      int
	AAhead, BAhead       int
	LastTwo, AWonLastTwo int
	Paper                PublishedH2H
}

// Comparison is a tournament's results beside a paper's: Tables 5 and 6
// with the paper's rows, the rank correlation of win %, the stalemates,
// the turns per match and a head-to-head record.
type Comparison struct {
	Results *Results
	Paper   *Published
	// Rank is Spearman's rank correlation of our win % with the paper's.
	Rank stats.Spearman
	// StalemateCI is the 95 % Wilson interval of our stalemate rate.
	StalemateCI stats.Interval
	// MeanTurns and PaperMeanTurns are the means over the bots of each
	// bot's own turns per match, ours and the paper's.
	MeanTurns, PaperMeanTurns float64
	// H2H is the record of the two bots asked for; HasH2H is false when
	// the run does not seat both.
	H2H    HeadToHead
	HasH2H bool
}

// Compare compares res, the results of the games recs, with the paper's:
// h2h names the two bots of the head-to-head record, permutations the
// random permutations behind the Spearman p-value when there are more bots
// than stats.MaxExactSpearman (seeded with 1).
func Compare(res *Results, recs []arena.Record, paper *Published, h2h [2]string, permutations int) (*Comparison, error) {
	c := &Comparison{Results: res, Paper: paper}
	var err error
	if c.Rank, err = rankAgainst(res, paper, permutations); err != nil {
		return nil, err
	}
	if c.StalemateCI, err = stats.Wilson(res.Stalemates, res.Games, stats.Level); err != nil {
		return nil, fmt.Errorf("tourney: stalemates: %w", err)
	}
	var turns, paperTurns float64
	for _, b := range res.Bots {
		turns += b.TurnsPerMatch
		paperTurns += paper.Bots[b.Bot].TurnsPerMatch
	}
	n := float64(len(res.Bots))
	c.MeanTurns, c.PaperMeanTurns = turns/n, paperTurns/n
	c.H2H, c.HasH2H = headToHead(res, recs, h2h, paper.HeadToHead)
	return c, nil
}

// rankAgainst is Spearman's rank correlation of the win % of res with the
// paper's.
func rankAgainst(res *Results, paper *Published, permutations int) (stats.Spearman, error) {
	var ours, theirs []float64
	for _, b := range res.Bots {
		ours = append(ours, b.WinRate)
		theirs = append(theirs, paper.Bots[b.Bot].WinPct)
	}
	s, err := stats.SpearmanTest(ours, theirs, permutations, 1)
	if err != nil {
		return s, fmt.Errorf("tourney: rank correlation of win %%: %w", err)
	}
	return s, nil
}

// headToHead is the record of bots ab, false if res does not seat both.
func headToHead(res *Results, recs []arena.Record, ab [2]string, paper PublishedH2H) (HeadToHead, bool) {
	a, b := ab[0], ab[1]
	h := HeadToHead{A: a, B: b, Paper: paper}
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

// Table5 is the paper's Table 5 with our rows: per bot our placements,
// stalemates and games, then the paper's, over max(our players, paper
// players) columns.
func (c *Comparison) Table5(paperPlayers int) table.Table {
	res := c.Results
	cols := max(res.Players, paperPlayers)
	t := table.Table{Header: []string{"bot", "source"}}
	for k := 1; k <= cols; k++ {
		t.Header = append(t.Header, textfmt.Ordinal(k))
	}
	t.Header = append(t.Header, "Sm", "games")
	for _, b := range res.Bots {
		p := c.Paper.Bots[b.Bot]
		ours, paper := []string{c.Paper.label(b.Bot), "ours"}, []string{"", "paper"}
		for k := range cols {
			o, q := "", ""
			if k < len(b.Placements) {
				o = strconv.Itoa(b.Placements[k])
			}
			if k < len(p.Placements) {
				q = strconv.Itoa(p.Placements[k])
			}
			ours, paper = append(ours, o), append(paper, q)
		}
		games := p.Sm // the paper places only the games that end with a winner
		for _, n := range p.Placements {
			games += n
		}
		t.Rows = append(t.Rows, append(ours, strconv.Itoa(b.Stalemates), strconv.Itoa(b.Games)), append(paper, strconv.Itoa(p.Sm), strconv.Itoa(games)))
	}
	return t
}

// Table5CSV returns the header and rows of table5.csv: our placements,
// stalemates and games, and the paper's.
func (c *Comparison) Table5CSV(paperPlayers int) table.Table {
	var rows [][]string
	head := []string{"bot"}
	for k := 1; k <= c.Results.Players; k++ {
		head = append(head, fmt.Sprintf("p%d", k))
	}
	head = append(head, "stalemates", "games", "paper_name")
	for k := 1; k <= paperPlayers; k++ {
		head = append(head, fmt.Sprintf("paper_p%d", k))
	}
	head = append(head, "paper_stalemates")
	for _, b := range c.Results.Bots {
		p := c.Paper.Bots[b.Bot]
		row := []string{b.Bot}
		for _, n := range b.Placements {
			row = append(row, strconv.Itoa(n))
		}
		row = append(row, strconv.Itoa(b.Stalemates), strconv.Itoa(b.Games), p.Name)
		for _, n := range p.Placements {
			row = append(row, strconv.Itoa(n))
		}
		rows = append(rows, append(row, strconv.Itoa(p.Sm)))
	}
	return table.Table{Header: head, Rows: rows}
}

// interval formats [lo, hi] with prec decimals.
func interval(lo, hi float64, prec int) string {
	return fmt.Sprintf("[%s, %s]", textfmt.Fixed(lo, prec), textfmt.Fixed(hi, prec))
}

// Table6 is the paper's Table 6 without its times, ours beside the
// paper's: win % with its 95 % Wilson interval, turns per match and our
// games' length.
func (c *Comparison) Table6() table.Table {
	t := table.Table{Header: []string{"bot", "win %", "95 % Wilson", "paper win %", "turns/match", "paper turns/match", "game turns"}}
	for _, b := range c.Results.Bots {
		p := c.Paper.Bots[b.Bot]
		t.Add(c.Paper.label(b.Bot), textfmt.Fixed(100*b.WinRate, 1), interval(100*b.WinLo, 100*b.WinHi, 1), textfmt.Fixed(p.WinPct, 1),
			textfmt.Fixed(b.TurnsPerMatch, 1), textfmt.Fixed(p.TurnsPerMatch, 1), textfmt.Fixed(b.GameTurns, 1))
	}
	return t
}

// Table6CSV returns the header and rows of table6.csv.
func (c *Comparison) Table6CSV() table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"bot", "win_rate", "wilson95_lo", "wilson95_hi", "paper_win_rate", "turns_per_match", "paper_turns_per_match", "game_turns"}
	for _, b := range c.Results.Bots {
		p := c.Paper.Bots[b.Bot]
		rows = append(rows, []string{b.Bot, num(b.WinRate), num(b.WinLo), num(b.WinHi), num(p.WinPct / 100),
			num(b.TurnsPerMatch), num(p.TurnsPerMatch), num(b.GameTurns)})
	}
	return table.Table{Header: head, Rows: rows}
}

// Timing6 is Table 6's times, ours (a measurement on this machine, on
// the clock of Results.Clock) beside the paper's.
func (c *Comparison) Timing6() table.Table {
	clock := arena.ClockName(c.Results.Clock)
	t := table.Table{Header: []string{"bot", "t_match (ms, " + clock + ")", "paper t_match (s)", "t_turn (µs, " + clock + ")",
		"paper t_turn (s)", "win % per ms t_turn", "paper win % per s t_turn"}}
	for _, b := range c.Results.Bots {
		p := c.Paper.Bots[b.Bot]
		t.Add(c.Paper.label(b.Bot), textfmt.Fixed(1000*b.SecondsPerMatch, 3), textfmt.Fixed(p.TMatch, 2), textfmt.Fixed(1e6*b.SecondsPerTurn, 1),
			textfmt.Fixed(p.TTurn, 2), textfmt.Fixed(b.WinPerMsTurn, 1), textfmt.Fixed(p.WinPerTTurn, 2))
	}
	return t
}

// TimingRows returns the rows (measure, subject, value, unit) of
// Table 6's times for a timings.csv file.
func (c *Comparison) TimingRows() [][]string {
	clock := arena.ClockName(c.Results.Clock)
	num := textfmt.Shortest
	var rows [][]string
	for _, b := range c.Results.Bots {
		rows = append(rows, []string{"t_match", b.Bot, num(b.SecondsPerMatch), "s/match (" + clock + ")"},
			[]string{"t_turn", b.Bot, num(b.SecondsPerTurn), "s/turn (" + clock + ")"},
			[]string{"win_pct_per_ms_t_turn", b.Bot, num(b.WinPerMsTurn), "%/ms"})
	}
	return rows
}

// Placement is each bot's mean placement with its interval.
func (c *Comparison) Placement() table.Table {
	t := table.Table{Header: []string{"bot", "games", "mean placement", "95 % interval"}}
	for _, b := range c.Results.Bots {
		t.Add(c.Paper.label(b.Bot), strconv.Itoa(b.Games), textfmt.Fixed(b.MeanPlacement, 2), interval(b.PlacementLo, b.PlacementHi, 2))
	}
	return t
}

// Replicated is the summary table of a replicated run: games, wins, win %
// with its interval beside the paper's, mean placement with its interval.
func (c *Comparison) Replicated() table.Table {
	t := table.Table{Header: []string{"bot", "games", "wins", "win %", "95 % Wilson", "paper win %", "mean placement", "95 % interval"}}
	for _, b := range c.Results.Bots {
		t.Add(c.Paper.label(b.Bot), strconv.Itoa(b.Games), strconv.Itoa(b.Wins), textfmt.Fixed(100*b.WinRate, 1), interval(100*b.WinLo, 100*b.WinHi, 1),
			textfmt.Fixed(c.Paper.Bots[b.Bot].WinPct, 1), textfmt.Fixed(b.MeanPlacement, 2), interval(b.PlacementLo, b.PlacementHi, 2))
	}
	return t
}

// ReplicatedCSV returns the header and rows of replicated.csv.
func (c *Comparison) ReplicatedCSV() table.Table {
	var rows [][]string
	num := textfmt.Shortest
	head := []string{"bot", "games", "wins", "win_rate", "wilson95_lo", "wilson95_hi", "mean_placement", "placement95_lo", "placement95_hi", "stalemates"}
	for _, b := range c.Results.Bots {
		rows = append(rows, []string{b.Bot, strconv.Itoa(b.Games), strconv.Itoa(b.Wins), num(b.WinRate), num(b.WinLo), num(b.WinHi),
			num(b.MeanPlacement), num(b.PlacementLo), num(b.PlacementHi), strconv.Itoa(b.Stalemates)})
	}
	return table.Table{Header: head, Rows: rows}
}

// StalemateRate and PaperStalemateRate are the shares of games that
// ended at the round limit, ours and the paper's.
func (c *Comparison) StalemateRate() float64 {
	return float64(c.Results.Stalemates) / float64(c.Results.Games)
}

// PaperStalemateRate is the paper's share of stalemates.
func (c *Comparison) PaperStalemateRate() float64 {
	return float64(c.Paper.Stalemates) / float64(c.Paper.Games)
}

// WinFindings returns the sentences comparing our win % with the paper's:
// for how many bots the paper's win % lies inside our 95 % interval,
// above it and below it (naming them), whether the order of win % is
// shown to agree (Spearman's ρ > 0 with p < 0.05), who leads in each, and
// how many bots win within 5 points of the paper's win % (|ours − paper|
// ≤ 5, as SeatFit counts them; the others named with their gaps) with the
// mean |ours − paper| over the bots, in points.
func (c *Comparison) WinFindings() []string {
	var in, above, below []string
	for _, b := range c.Results.Bots {
		p := c.Paper.Bots[b.Bot].WinPct / 100
		name := b.Bot
		switch {
		case p > b.WinHi:
			above = append(above, fmt.Sprintf("%s (%s %% against our %s %%)", name, textfmt.Fixed(100*p, 1), textfmt.Fixed(100*b.WinRate, 1)))
		case p < b.WinLo:
			below = append(below, fmt.Sprintf("%s (%s %% against our %s %%)", name, textfmt.Fixed(100*p, 1), textfmt.Fixed(100*b.WinRate, 1)))
		default:
			in = append(in, name)
		}
	}
	n := len(c.Results.Bots)
	s := fmt.Sprintf("The paper's win %% lies inside our 95 %% interval for %d of the %d bots", len(in), n)
	if len(in) > 0 && len(in) < n {
		s += " (" + strings.Join(in, ", ") + ")"
	}
	if len(above) > 0 {
		s += "; above it for " + strings.Join(above, ", ")
	}
	if len(below) > 0 {
		s += "; below it for " + strings.Join(below, ", ")
	}
	out := []string{s}
	agree := "is not shown to agree with the paper's"
	if c.Rank.Rho > 0 && c.Rank.P < 0.05 {
		agree = "agrees with the paper's"
	}
	out = append(out, fmt.Sprintf("The order of win %% %s (Spearman's ρ = %s, p %s)", agree, textfmt.Fixed(c.Rank.Rho, 2), textfmt.PRel(c.Rank.P)))
	lead, _ := c.Results.leader()
	paperLead := 0
	for i, b := range c.Results.Bots {
		if c.Paper.Bots[b.Bot].WinPct > c.Paper.Bots[c.Results.Bots[paperLead].Bot].WinPct {
			paperLead = i
		}
	}
	ours, theirs := c.Results.Bots[lead], c.Results.Bots[paperLead]
	if lead == paperLead {
		out = append(out, fmt.Sprintf("The same bot comes first here and in the paper: %s", ours.Bot))
	} else {
		out = append(out, fmt.Sprintf("Different bots come first: %s here, %s in the paper, which wins %s of its games here against %s %% there",
			ours.Bot, theirs.Bot, winText(theirs), textfmt.Fixed(c.Paper.Bots[theirs.Bot].WinPct, 1)))
	}
	return append(out, c.gapFinding())
}

// gapFinding states how many bots win within 5 points of the paper's win
// %, names the others with their gaps (ours − paper, points), and gives
// the mean absolute gap.
func (c *Comparison) gapFinding() string {
	var far []string
	within, sum := 0, 0.0
	for _, b := range c.Results.Bots {
		gap := 100*b.WinRate - c.Paper.Bots[b.Bot].WinPct
		sum += math.Abs(gap)
		if math.Abs(gap) <= 5 {
			within++
			continue
		}
		far = append(far, fmt.Sprintf("%s %s", b.Bot, textfmt.Signed(gap, 1)))
	}
	n := len(c.Results.Bots)
	s := fmt.Sprintf("Win %% within 5 points of the paper's: %d of the %d bots", within, n)
	if len(far) > 0 {
		s += " (not: " + strings.Join(far, ", ") + ")"
	}
	return s + fmt.Sprintf("; mean |ours − paper| over the %d bots %s points", n, textfmt.Fixed(sum/float64(max(n, 1)), 2))
}

// StalemateFinding states how our stalemate rate compares with the
// paper's: the paper's rate inside, above or below our 95 % interval.
func (c *Comparison) StalemateFinding() string {
	p := c.PaperStalemateRate()
	where := "inside"
	switch {
	case p > c.StalemateCI.Hi:
		where = "above"
	case p < c.StalemateCI.Lo:
		where = "below"
	}
	return fmt.Sprintf("The paper's stalemate rate, %s %%, lies %s our 95 %% interval", textfmt.Fixed(100*p, 1), where)
}

// TurnsFinding states the difference of the mean turns per match, ours
// minus the paper's.
func (c *Comparison) TurnsFinding() string {
	d := c.MeanTurns - c.PaperMeanTurns
	return fmt.Sprintf("our bots play %s turns per match on average, %s %s than the paper's %s", textfmt.Fixed(c.MeanTurns, 1),
		textfmt.Fixed(math.Abs(d), 1), map[bool]string{true: "more", false: "fewer"}[d >= 0], textfmt.Fixed(c.PaperMeanTurns, 1))
}

// H2HFinding states the head-to-head record: who won more of the
// meetings and of the games where the two were the last left, ours and
// the paper's ("" when the run does not seat both).
func (c *Comparison) H2HFinding() string {
	if !c.HasH2H {
		return ""
	}
	h := c.H2H
	return fmt.Sprintf("Of their %d meetings here %s won %d and %s %d (the paper: %d and %d of %d); of the games where the two were the last left, %s won %s here and %s in the paper",
		h.Met, h.A, h.AWon, h.B, h.BWon, h.Paper.AWon, h.Paper.BWon, h.Paper.Met, h.A, share(h.AWonLastTwo, h.LastTwo), share(h.Paper.AWonLastTwo, h.Paper.LastTwo))
}

// H2HTable is the head-to-head record, ours and the paper's (which does
// not give who finished ahead: "—").
func (c *Comparison) H2HTable() table.Table {
	h := c.H2H
	t := table.Table{Header: []string{"", "met", h.A + " won", h.B + " won", h.A + " ahead", h.B + " ahead", "last two", h.A + " won of the last two"}}
	t.Add("ours", strconv.Itoa(h.Met), strconv.Itoa(h.AWon), strconv.Itoa(h.BWon), strconv.Itoa(h.AAhead), strconv.Itoa(h.BAhead), strconv.Itoa(h.LastTwo), strconv.Itoa(h.AWonLastTwo))
	t.Add("paper", strconv.Itoa(h.Paper.Met), strconv.Itoa(h.Paper.AWon), strconv.Itoa(h.Paper.BWon), "—", "—", strconv.Itoa(h.Paper.LastTwo), strconv.Itoa(h.Paper.AWonLastTwo))
	return t
}

// share formats k of n with the percentage.
func share(k, n int) string {
	if n == 0 {
		return "0 of 0"
	}
	return strconv.Itoa(k) + " of " + strconv.Itoa(n) + " (" + textfmt.Fixed(100*float64(k)/float64(n), 0) + " %)"
}
