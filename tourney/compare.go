package tourney

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/stats"
	"github.com/marslab-risk/marslab/table"
)

// Output is a finished tournament (or batch) output folder read back: its
// config.json and the records of its games.jsonl.
type Output struct {
	// Dir is the folder.
	Dir string
	// Header is its config.json.
	Header arena.Header
	// Records are its games in file order.
	Records []arena.Record
}

// ReadOutput reads the output folder dir of a tournament: config.json
// (arena.ReadHeader) and games.jsonl (ReadGames).
func ReadOutput(dir string) (*Output, error) {
	h, err := arena.ReadHeader(dir)
	if err != nil {
		return nil, fmt.Errorf("tourney: %w", err)
	}
	recs, err := ReadGames(filepath.Join(dir, "games.jsonl"), h.Schedule.Players)
	if err != nil {
		return nil, err
	}
	return &Output{Dir: dir, Header: h, Records: recs}, nil
}

// Plays reports whether a seat of o plays the bot of registered name or
// label bot.
func (o *Output) Plays(bot string) bool {
	for _, s := range o.Header.Seats {
		if s.Bot == bot || s.Label == bot {
			return true
		}
	}
	return false
}

// PairOptions are the choices of ComparePaired.
type PairOptions struct {
	// Paper, when not nil, gives the published win % of Table 6: each
	// run's Spearman ρ against it (bots without a row are left out of ρ
	// and listed in PairedRuns.Unpublished).
	Paper *Published
	// Focus is the registered name (or label) of the bot whose rank by
	// win % is reported in each run (e.g. "mars"); "" reports none. A
	// focus that no seat plays is an error.
	Focus string
	// AllowRules accepts runs played under different rule sets (the
	// same line-ups, seatings and game seeds, each under its own rules),
	// for comparing rule sets; by default the rules must be equal.
	AllowRules bool
	// Permutations is the number of random permutations behind the
	// Spearman p-value when there are more bots than
	// stats.MaxExactSpearman (seeded with 1); 0 means 100,000.
	Permutations int
}

// PairedBot is one bot's line of a paired comparison.
type PairedBot struct {
	// Bot is the seat label in the first run, After its label in the
	// second (the same unless the parameters changed it) and Name the
	// registered bot name.
	Bot, After, Name string
	// Games is the number of games that seated it (the same games in both
	// runs).
	Games int
	// WinsBefore and WinsAfter are its wins in each run.
	WinsBefore, WinsAfter int
	// OnlyBefore and OnlyAfter count the games it won in one run only
	// (the discordant pairs).
	OnlyBefore, OnlyAfter int
	// Diff is the paired difference (won after − won before, each 0 or
	// 1) over its games: the mean, its standard error and the 95 % normal
	// interval mean ± 1.96·s/√n (stats.PairedNormal), as shares (×100 for
	// points).
	Diff stats.Paired
	// PaperWinPct is the paper's win % (Table 6), NaN without a row.
	PaperWinPct float64
}

// winRateBefore is WinsBefore/Games.
func (b *PairedBot) winRateBefore() float64 { return float64(b.WinsBefore) / float64(b.Games) }

// winRateAfter is WinsAfter/Games.
func (b *PairedBot) winRateAfter() float64 { return float64(b.WinsAfter) / float64(b.Games) }

// PairedRuns compares two runs of the same games, bot by bot.
type PairedRuns struct {
	// Before and After are the folders of the two runs.
	Before, After string
	// Games is the number of games of each run; Players the seats per
	// game.
	Games, Players int
	// RulesBefore and RulesAfter name the rule sets (equal unless
	// PairOptions.AllowRules).
	RulesBefore, RulesAfter string
	// StalematesBefore and StalematesAfter count the games that ended at
	// the round limit.
	StalematesBefore, StalematesAfter int
	// Bots holds a line per seat of the field, in the runs' order.
	Bots []PairedBot
	// HasPaper reports that RankBefore and RankAfter hold Spearman's ρ of
	// each run's win % against the paper's over the bots with a paper row
	// (at least 3 of them); Unpublished lists the bots without a row.
	HasPaper              bool
	RankBefore, RankAfter stats.Spearman
	Unpublished           []string
	// Focus is PairOptions.Focus; FocusBot its label (the first seat of
	// that bot, "" when no seat plays it) and FocusRankBefore and
	// FocusRankAfter its rank by win % in each run (1 + the bots with a
	// strictly higher win %).
	Focus, FocusBot                 string
	FocusRankBefore, FocusRankAfter int
}

// ComparePaired compares two tournament outputs that played the same
// games: the same seed, schedule, number of games and map, the same rule
// set unless o.AllowRules, and the same seats in the same order, each seat
// the same registered bot (its parameters and code may differ, and so may
// its label). Both runs must hold the same games, each with the same game
// seed and seating. Anything else is refused with an error naming the
// first difference. For every bot it reports the wins in each run and the
// paired difference of winning over the games that seated it.
func ComparePaired(before, after *Output, o PairOptions) (*PairedRuns, error) {
	if err := checkPaired(before, after, o.AllowRules); err != nil {
		return nil, fmt.Errorf("tourney: %s and %s are not paired runs: %w", before.Dir, after.Dir, err)
	}
	hb := &before.Header
	n := len(hb.Seats)
	players := hb.Schedule.Players
	c := &PairedRuns{Before: before.Dir, After: after.Dir, Games: len(before.Records), Players: players,
		RulesBefore: hb.Rules, RulesAfter: after.Header.Rules, Focus: o.Focus}
	index := make(map[string]int, n)
	for i, s := range hb.Seats {
		index[s.Label] = i
	}
	afterLabel := make([]string, n)
	for i, s := range after.Header.Seats {
		afterLabel[i] = s.Label
	}
	won := make([][2][]float64, n)
	for gi := range before.Records {
		rb, ra := &before.Records[gi], &after.Records[gi]
		if rb.Stalemate {
			c.StalematesBefore++
		}
		if ra.Stalemate {
			c.StalematesAfter++
		}
		for s, l := range rb.Seating {
			b := index[l]
			won[b][0] = append(won[b][0], b2f(rb.Winner == s))
			won[b][1] = append(won[b][1], b2f(ra.Winner == s))
		}
	}
	perms := o.Permutations
	if perms == 0 {
		perms = 100_000
	}
	var ranked []int
	for i, s := range hb.Seats {
		pb := PairedBot{Bot: s.Label, After: afterLabel[i], Name: s.Bot, Games: len(won[i][0])}
		for g := range won[i][0] {
			x, y := won[i][0][g], won[i][1][g]
			pb.WinsBefore += int(x)
			pb.WinsAfter += int(y)
			switch {
			case x > y:
				pb.OnlyBefore++
			case y > x:
				pb.OnlyAfter++
			}
		}
		var err error
		if pb.Diff, err = stats.PairedNormal(won[i][1], won[i][0], stats.Level); err != nil {
			return nil, fmt.Errorf("tourney: bot %q: %w", s.Label, err)
		}
		pb.PaperWinPct = math.NaN()
		if o.Paper != nil {
			if row, ok := paperRow(o.Paper, s); ok {
				pb.PaperWinPct = row.WinPct
				ranked = append(ranked, i)
			} else {
				c.Unpublished = append(c.Unpublished, s.Label)
			}
		}
		c.Bots = append(c.Bots, pb)
	}
	if o.Paper != nil && len(ranked) >= 3 {
		var bw, aw, pw []float64
		for _, i := range ranked {
			bw = append(bw, c.Bots[i].winRateBefore())
			aw = append(aw, c.Bots[i].winRateAfter())
			pw = append(pw, c.Bots[i].PaperWinPct)
		}
		var err error
		if c.RankBefore, err = stats.SpearmanTest(bw, pw, perms, 1); err != nil {
			return nil, fmt.Errorf("tourney: rank correlation of %s with the paper: %w", before.Dir, err)
		}
		if c.RankAfter, err = stats.SpearmanTest(aw, pw, perms, 1); err != nil {
			return nil, fmt.Errorf("tourney: rank correlation of %s with the paper: %w", after.Dir, err)
		}
		c.HasPaper = true
	}
	if o.Focus != "" {
		for i, s := range hb.Seats {
			if s.Bot == o.Focus || s.Label == o.Focus {
				c.FocusBot = s.Label
				c.FocusRankBefore, c.FocusRankAfter = 1, 1
				for j := range c.Bots {
					if c.Bots[j].winRateBefore() > c.Bots[i].winRateBefore() {
						c.FocusRankBefore++
					}
					if c.Bots[j].winRateAfter() > c.Bots[i].winRateAfter() {
						c.FocusRankAfter++
					}
				}
				break
			}
		}
		if c.FocusBot == "" {
			return nil, fmt.Errorf("tourney: focus %q: no seat of %s plays it (seats %s)", o.Focus, before.Dir, strings.Join(hb.Labels(), ", "))
		}
	}
	return c, nil
}

// paperRow is the paper's row of seat s: by its label, else by its
// registered bot name.
func paperRow(p *Published, s arena.SeatInfo) (PublishedBot, bool) {
	if row, ok := p.Bots[s.Label]; ok {
		return row, true
	}
	row, ok := p.Bots[s.Bot]
	return row, ok
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// checkPaired returns the first reason why a and b did not play the same
// games, nil when they did.
func checkPaired(a, b *Output, allowRules bool) error {
	ha, hb := &a.Header, &b.Header
	switch {
	case ha.Seed != hb.Seed:
		return fmt.Errorf("seed %d vs %d", ha.Seed, hb.Seed)
	case ha.Schedule != hb.Schedule:
		return fmt.Errorf("schedule %s vs %s", ha.Schedule, hb.Schedule)
	case ha.Games != hb.Games:
		return fmt.Errorf("games %d vs %d", ha.Games, hb.Games)
	case ha.Map != hb.Map || ha.MapSHA256 != hb.MapSHA256:
		return fmt.Errorf("map %q (map_sha256 %.12s) vs %q (%.12s)", ha.Map, ha.MapSHA256, hb.Map, hb.MapSHA256)
	case !allowRules && (ha.Rules != hb.Rules || ha.RulesSHA256 != hb.RulesSHA256 || ha.RoundLimit != hb.RoundLimit):
		return fmt.Errorf("rules %q (rules_sha256 %.12s) vs %q (%.12s): to compare rule sets, allow different rules", ha.Rules, ha.RulesSHA256, hb.Rules, hb.RulesSHA256)
	case len(ha.Seats) != len(hb.Seats):
		return fmt.Errorf("%d seats vs %d", len(ha.Seats), len(hb.Seats))
	}
	for _, o := range []*Output{a, b} {
		if o.Header.Shard.Count > 1 {
			return fmt.Errorf("%s holds shard %s of the run: merge the shards first (marslab merge)", o.Dir, o.Header.Shard)
		}
		if len(o.Records) != o.Header.Games {
			return fmt.Errorf("%s holds %d of the run's %d games: want complete runs (resume it first)", o.Dir, len(o.Records), o.Header.Games)
		}
	}
	for i := range ha.Seats {
		sa, sb := &ha.Seats[i], &hb.Seats[i]
		if sa.Bot != sb.Bot {
			return fmt.Errorf("seat %d: bot %q (%s) vs %q (%s): only a bot's parameters or code may differ", i, sa.Bot, sa.Label, sb.Bot, sb.Label)
		}
	}
	for _, h := range []*arena.Header{ha, hb} {
		for i, l := range h.Labels() {
			if j := slices.Index(h.Labels()[:i], l); j >= 0 {
				return fmt.Errorf("seats %d and %d share the label %q", j, i, l)
			}
		}
	}
	if len(a.Records) == 0 {
		return errors.New("no games played")
	}
	ib := make(map[string]string, len(hb.Seats))
	for i, s := range ha.Seats {
		ib[s.Label] = hb.Seats[i].Label
	}
	own := make(map[string]bool, len(hb.Seats)) // b's labels
	for _, s := range hb.Seats {
		own[s.Label] = true
	}
	for g := range a.Records {
		ra, rb := &a.Records[g], &b.Records[g]
		if ra.Game != rb.Game {
			return fmt.Errorf("line %d: game %d vs %d", g+1, ra.Game, rb.Game)
		}
		if ra.Seed != rb.Seed {
			return fmt.Errorf("game %d: seed %d vs %d", ra.Game, ra.Seed, rb.Seed)
		}
		for s := range ra.Seating {
			lb, ok := ib[ra.Seating[s]]
			if j := slices.Index(ra.Seating[:s], ra.Seating[s]); j >= 0 {
				return fmt.Errorf("game %d: bot %q seated twice (seats %d and %d)", ra.Game, ra.Seating[s], j, s)
			}
			if !ok {
				return fmt.Errorf("game %d: seat %d: bot %q is not a seat of %s's config.json", ra.Game, s, ra.Seating[s], a.Dir)
			}
			if !own[rb.Seating[s]] {
				return fmt.Errorf("game %d: seat %d: bot %q is not a seat of %s's config.json", rb.Game, s, rb.Seating[s], b.Dir)
			}
			if lb != rb.Seating[s] {
				return fmt.Errorf("game %d: seating [%s] vs [%s]", ra.Game, strings.Join(ra.Seating, ","), strings.Join(rb.Seating, ","))
			}
		}
	}
	return nil
}

// Table is the paired comparison bot by bot: games, win % in each run,
// the paired difference in points with its 95 % interval, the games won
// in one run only, and the paper's win % when a paper was given.
func (c *PairedRuns) Table() table.Table {
	t := table.Table{Name: "compare", Title: fmt.Sprintf("Paired comparison: %s (before) and %s (after), %d games", c.Before, c.After, c.Games),
		Header: []string{"bot", "games", "win % before", "win % after", "difference (points)", "95 % interval", "won only before", "won only after"}}
	if c.HasPaper {
		t.Header = append(t.Header, "paper win %")
	}
	for i := range c.Bots {
		b := &c.Bots[i]
		name := b.Bot
		if b.After != b.Bot {
			name += " → " + b.After
		}
		row := []string{name, strconv.Itoa(b.Games), textfmt.Fixed(100*b.winRateBefore(), 1), textfmt.Fixed(100*b.winRateAfter(), 1),
			textfmt.Signed(100*b.Diff.Mean, 1), signedInterval(100*b.Diff.Interval.Lo, 100*b.Diff.Interval.Hi, 1),
			strconv.Itoa(b.OnlyBefore), strconv.Itoa(b.OnlyAfter)}
		if c.HasPaper {
			p := "—"
			if !math.IsNaN(b.PaperWinPct) {
				p = textfmt.Fixed(b.PaperWinPct, 1)
			}
			row = append(row, p)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Summary is the comparison's run-level measures: rules, stalemates,
// Spearman's ρ against the paper's Table 6 and the focus bot's rank.
func (c *PairedRuns) Summary() table.Table {
	t := table.Table{Name: "compare-summary", Title: "Runs", Header: []string{"measure", "before", "after"}}
	t.Rows = append(t.Rows, []string{"rules", c.RulesBefore, c.RulesAfter},
		[]string{"stalemates", strconv.Itoa(c.StalematesBefore), strconv.Itoa(c.StalematesAfter)})
	if c.HasPaper {
		label := "Spearman's ρ of win % with the paper"
		if len(c.Unpublished) > 0 {
			label += " (without " + strings.Join(c.Unpublished, ", ") + ")"
		}
		t.Rows = append(t.Rows, []string{label, rhoText(c.RankBefore), rhoText(c.RankAfter)})
	}
	if c.FocusBot != "" {
		t.Rows = append(t.Rows, []string{c.FocusBot + "'s rank by win %",
			fmt.Sprintf("%s of %d", textfmt.Ordinal(c.FocusRankBefore), len(c.Bots)),
			fmt.Sprintf("%s of %d", textfmt.Ordinal(c.FocusRankAfter), len(c.Bots))})
	}
	return t
}

// CSV is the comparison as one CSV table at full precision: a row per
// bot, shares as fractions, and the run-level measures repeated on every
// row (rho_* empty without a paper, focus_rank_* empty without a focus
// bot).
func (c *PairedRuns) CSV() table.Table {
	num := textfmt.Shortest
	t := table.Table{Name: "compare", Header: []string{"bot", "bot_after", "name", "games", "wins_before", "wins_after",
		"win_rate_before", "win_rate_after", "only_before", "only_after", "diff", "diff_se", "diff95_lo", "diff95_hi", "diff_p",
		"paper_win_rate", "rho_before", "rho_after", "focus_rank_before", "focus_rank_after"}}
	rb, ra, fb, fa := "", "", "", ""
	if c.HasPaper {
		rb, ra = num(c.RankBefore.Rho), num(c.RankAfter.Rho)
	}
	if c.FocusBot != "" {
		fb, fa = strconv.Itoa(c.FocusRankBefore), strconv.Itoa(c.FocusRankAfter)
	}
	for i := range c.Bots {
		b := &c.Bots[i]
		p := ""
		if !math.IsNaN(b.PaperWinPct) {
			p = num(b.PaperWinPct / 100)
		}
		t.Rows = append(t.Rows, []string{b.Bot, b.After, b.Name, strconv.Itoa(b.Games), strconv.Itoa(b.WinsBefore), strconv.Itoa(b.WinsAfter),
			num(b.winRateBefore()), num(b.winRateAfter()), strconv.Itoa(b.OnlyBefore), strconv.Itoa(b.OnlyAfter),
			num(b.Diff.Mean), num(b.Diff.SE), num(b.Diff.Interval.Lo), num(b.Diff.Interval.Hi), num(b.Diff.P), p, rb, ra, fb, fa})
	}
	return t
}

func rhoText(s stats.Spearman) string {
	return textfmt.Fixed(s.Rho, 3) + " (p " + textfmt.PRel(s.P) + ")"
}

// signedInterval formats [lo, hi] with signs and prec decimals.
func signedInterval(lo, hi float64, prec int) string {
	return "[" + textfmt.Signed(lo, prec) + ", " + textfmt.Signed(hi, prec) + "]"
}

// LoadPublished reads a paper's published tournament results from the
// [paper] table of a TOML file (a tournament notebook's config, e.g.
// notebooks/paper-tournament/config.toml); the file's other keys are not
// read. Unknown keys inside [paper], a missing table, a bot row without a
// name or a win % outside 0..100 are errors naming the file and the key.
func LoadPublished(path string) (*Published, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("tourney: %w", err)
	}
	var f struct {
		Paper *Published `toml:"paper"`
	}
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("tourney: %s: %w", path, err)
	}
	var unknown []toml.Key
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "paper" {
			unknown = append(unknown, k)
		}
	}
	if err := configs.UnknownKey(path, data, unknown, &f); err != nil {
		return nil, fmt.Errorf("tourney: %w", err)
	}
	if f.Paper == nil || len(f.Paper.Bots) == 0 {
		return nil, fmt.Errorf("tourney: %s: key paper.bots: missing: want a [paper.bots.NAME] table per bot", path)
	}
	for _, name := range slices.Sorted(maps.Keys(f.Paper.Bots)) {
		b := f.Paper.Bots[name]
		if strings.TrimSpace(b.Name) == "" {
			return nil, fmt.Errorf("tourney: %s: key paper.bots.%s.name: missing", path, name)
		}
		if !(b.WinPct >= 0 && b.WinPct <= 100) {
			return nil, fmt.Errorf("tourney: %s: key paper.bots.%s.win_pct: %v: want 0..100", path, name, b.WinPct)
		}
	}
	return f.Paper, nil
}
