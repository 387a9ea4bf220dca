package tourney

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
)

// pairedSeatings are the six games of three bots in 2-player games, two
// replications: each bot plays four of them.
var pairedSeatings = [][]string{{"a", "b"}, {"a", "c"}, {"b", "c"}, {"b", "a"}, {"c", "a"}, {"c", "b"}}

// pairedOutput builds a run of the six games with the winning seats
// winners (-1 = stalemate).
func pairedOutput(dir string, winners []int) *Output {
	h := arena.Header{Format: arena.HeaderFormat, Seed: 7, Games: 6,
		Seats:    []arena.SeatInfo{{Label: "a", Bot: "mars"}, {Label: "b", Bot: "angry"}, {Label: "c", Bot: "stinky"}},
		Schedule: arena.ScheduleSpec{Kind: arena.KindSubsets, Players: 2, Pool: 3, Replications: 2, Seed: 7},
		Rules:    "mars2006", Map: "classic", RulesSHA256: "11aa", MapSHA256: "22bb", RoundLimit: 100, Shard: arena.Shard{Count: 1}}
	o := &Output{Dir: dir, Header: h}
	for g, seating := range pairedSeatings {
		r := arena.Record{Game: g, Seed: uint64(100 + g), Seating: append([]string(nil), seating...), Winner: winners[g],
			Placements: []int{1, 2}, Rounds: 10, Turns: 20, Faults: []int{0, 0}}
		switch winners[g] {
		case 1:
			r.Placements = []int{2, 1}
		case -1:
			r.Stalemate, r.Rounds = true, 100
		}
		o.Records = append(o.Records, r)
	}
	return o
}

var (
	// a wins games 0, 1, 4; b 2, 3; c 5.
	winnersBefore = []int{0, 0, 0, 0, 1, 0}
	// a wins game 1; b 0, 3; c 2, 4; game 5 is a stalemate.
	winnersAfter = []int{1, 0, 1, 0, 0, -1}
)

func pairedPaper() *Published {
	return &Published{Bots: map[string]PublishedBot{"mars": {Name: "MARS", WinPct: 40}, "angry": {Name: "Angry", WinPct: 30}, "stinky": {Name: "Stinky", WinPct: 20}}}
}

func TestComparePaired(t *testing.T) {
	t.Parallel()
	before, after := pairedOutput("before", winnersBefore), pairedOutput("after", winnersAfter)
	c, err := ComparePaired(before, after, PairOptions{Paper: pairedPaper(), Focus: "mars"})
	require.NoError(t, err)
	assert.Equal(t, 6, c.Games)
	assert.Equal(t, 2, c.Players)
	assert.Equal(t, 0, c.StalematesBefore)
	assert.Equal(t, 1, c.StalematesAfter)
	z := 1.959963984540054
	type want struct {
		bot                   string
		winsBefore, winsAfter int
		onlyBefore, onlyAfter int
		mean, se              float64
	}
	// a: differences -1, 0, 0, -1; b: 1, -1, 0, 0; c: 0, 1, 1, -1.
	wants := []want{
		{"a", 3, 1, 2, 0, -0.5, math.Sqrt(1.0/3) / 2},
		{"b", 2, 2, 1, 1, 0, math.Sqrt(2.0/3) / 2},
		{"c", 1, 2, 1, 2, 0.25, math.Sqrt(2.75/3) / 2},
	}
	require.Len(t, c.Bots, 3)
	for i, w := range wants {
		b := c.Bots[i]
		t.Run(w.bot, func(t *testing.T) {
			assert.Equal(t, w.bot, b.Bot)
			assert.Equal(t, 4, b.Games)
			assert.Equal(t, w.winsBefore, b.WinsBefore)
			assert.Equal(t, w.winsAfter, b.WinsAfter)
			assert.Equal(t, w.onlyBefore, b.OnlyBefore)
			assert.Equal(t, w.onlyAfter, b.OnlyAfter)
			assert.InDelta(t, w.mean, b.Diff.Mean, 1e-12)
			assert.InDelta(t, w.se, b.Diff.SE, 1e-12)
			assert.InDelta(t, w.mean-z*w.se, b.Diff.Interval.Lo, 1e-9)
			assert.InDelta(t, w.mean+z*w.se, b.Diff.Interval.Hi, 1e-9)
		})
	}
	require.True(t, c.HasPaper)
	// Before: 75, 50, 25 % against the paper's 40, 30, 20: the same order;
	// exactly 2 of the 3! orderings reach |ρ| = 1.
	assert.InDelta(t, 1, c.RankBefore.Rho, 1e-12)
	assert.InDelta(t, 1.0/3, c.RankBefore.P, 1e-12)
	// After: 25, 50, 50 %: ranks 1, 2.5, 2.5 against 3, 2, 1; 4 of the 6
	// orderings reach |ρ| = 0.866.
	assert.InDelta(t, -1.5/math.Sqrt(3), c.RankAfter.Rho, 1e-12)
	assert.InDelta(t, 2.0/3, c.RankAfter.P, 1e-12)
	assert.Equal(t, "a", c.FocusBot)
	assert.Equal(t, 1, c.FocusRankBefore)
	assert.Equal(t, 3, c.FocusRankAfter)

	tab := c.Table()
	assert.Equal(t, []string{"bot", "games", "win % before", "win % after", "difference (points)", "95 % interval", "won only before", "won only after", "paper win %"}, tab.Header)
	assert.Equal(t, [][]string{
		{"a", "4", "75.0", "25.0", "-50.0", "[-106.6, +6.6]", "2", "0", "40.0"},
		{"b", "4", "50.0", "50.0", "+0.0", "[-80.0, +80.0]", "1", "1", "30.0"},
		{"c", "4", "25.0", "50.0", "+25.0", "[-68.8, +118.8]", "1", "2", "20.0"},
	}, tab.Rows)
	sum := c.Summary()
	assert.Equal(t, [][]string{
		{"rules", "mars2006", "mars2006"},
		{"stalemates", "0", "1"},
		{"Spearman's ρ of win % with the paper", "1.000 (p = 0.333)", "-0.866 (p = 0.667)"},
		{"a's rank by win %", "1st of 3", "3rd of 3"},
	}, sum.Rows)
	csv := c.CSV()
	require.Len(t, csv.Rows, 3)
	assert.Equal(t, []string{"a", "a", "mars", "4", "3", "1", "0.75", "0.25", "2", "0", "-0.5"}, csv.Rows[0][:11])
	assert.Equal(t, []string{"0.4", "1", "-0.8660254037844387", "1", "3"}, csv.Rows[0][15:])
}

func TestComparePairedWithoutPaper(t *testing.T) {
	t.Parallel()
	c, err := ComparePaired(pairedOutput("x", winnersBefore), pairedOutput("y", winnersBefore), PairOptions{})
	require.NoError(t, err)
	assert.False(t, c.HasPaper)
	assert.Empty(t, c.FocusBot)
	for _, b := range c.Bots {
		assert.Zero(t, b.Diff.Mean)
		assert.Equal(t, 0.0, b.Diff.Interval.Lo)
		assert.Equal(t, 0.0, b.Diff.Interval.Hi)
	}
	assert.Len(t, c.Table().Header, 8)
	assert.Equal(t, [][]string{{"rules", "mars2006", "mars2006"}, {"stalemates", "0", "0"}}, c.Summary().Rows)
}

// A bot whose parameters change its label pairs by its seat.
func TestComparePairedRelabelled(t *testing.T) {
	t.Parallel()
	before, after := pairedOutput("before", winnersBefore), pairedOutput("after", winnersAfter)
	after.Header.Seats[0] = arena.SeatInfo{Label: "a2", Bot: "mars", Params: map[string]float64{"W_p": 0.8}}
	for i := range after.Records {
		for s, l := range after.Records[i].Seating {
			if l == "a" {
				after.Records[i].Seating[s] = "a2"
			}
		}
	}
	paper := pairedPaper()
	paper.Bots["b"] = PublishedBot{Name: "B", WinPct: 5} // a row by label comes before one by bot name
	delete(paper.Bots, "stinky")
	c, err := ComparePaired(before, after, PairOptions{Paper: paper, Focus: "mars"})
	require.NoError(t, err)
	assert.Equal(t, "a2", c.Bots[0].After)
	assert.Equal(t, "a → a2", c.Table().Rows[0][0])
	assert.Equal(t, 2, c.Bots[0].OnlyBefore)
	assert.Equal(t, 5.0, c.Bots[1].PaperWinPct)
	assert.True(t, math.IsNaN(c.Bots[2].PaperWinPct))
	assert.Equal(t, []string{"c"}, c.Unpublished)
	assert.False(t, c.HasPaper, "ρ needs at least 3 bots with a paper row")
}

func TestComparePairedAllowRules(t *testing.T) {
	t.Parallel()
	before, after := pairedOutput("before", winnersBefore), pairedOutput("after", winnersAfter)
	after.Header.Rules, after.Header.RulesSHA256 = "lux", "33cc"
	_, err := ComparePaired(before, after, PairOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `rules "mars2006" (rules_sha256 11aa) vs "lux" (33cc): to compare rule sets, allow different rules`)
	c, err := ComparePaired(before, after, PairOptions{AllowRules: true})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"rules", "mars2006", "lux"}, {"stalemates", "0", "1"}}, c.Summary().Rows)
}

func TestComparePairedRefuses(t *testing.T) {
	t.Parallel()
	type refuseCase struct {
		name   string
		change func(o *Output)
		want   string
	}
	cases := []refuseCase{
		{"seed", func(o *Output) { o.Header.Seed = 8 }, "seed 7 vs 8"},
		{"schedule", func(o *Output) { o.Header.Schedule.Seed = 9 }, "schedule subsets(2 of 3, x2, seed 7) vs subsets(2 of 3, x2, seed 9)"},
		{"games", func(o *Output) { o.Header.Games = 5 }, "games 6 vs 5"},
		{"map", func(o *Output) { o.Header.MapSHA256 = "99ff" }, `map "classic" (map_sha256 22bb) vs "classic" (99ff)`},
		{"rules contents", func(o *Output) { o.Header.RulesSHA256 = "44dd" }, `rules "mars2006" (rules_sha256 11aa) vs "mars2006" (44dd)`},
		{"round limit", func(o *Output) { o.Header.RoundLimit = 50 }, `rules "mars2006"`},
		{"seat count", func(o *Output) { o.Header.Seats = o.Header.Seats[:2] }, "3 seats vs 2"},
		{"other bot", func(o *Output) { o.Header.Seats[1].Bot = "pixie" }, `seat 1: bot "angry" (b) vs "pixie" (b): only a bot's parameters or code may differ`},
		{"shared label", func(o *Output) { o.Header.Seats[1].Label = "a" }, `seats 0 and 1 share the label "a"`},
		{"fewer games", func(o *Output) { o.Records = o.Records[:5] }, "A holds 5 of the run's 6 games: want complete runs (resume it first)"},
		{"a shard", func(o *Output) { o.Header.Shard = arena.Shard{Index: 0, Count: 2} }, "A holds shard 0/2 of the run: merge the shards first (marslab merge)"},
		{"labels edited", func(o *Output) { o.Header.Seats[2].Label = "c2" }, `game 1: seat 1: bot "c" is not a seat of A's config.json`},
		{"game index", func(o *Output) { o.Records[2].Game = 7 }, "line 3: game 2 vs 7"},
		{"game seed", func(o *Output) { o.Records[3].Seed = 1 }, "game 3: seed 103 vs 1"},
		{"seating", func(o *Output) { o.Records[4].Seating = []string{"a", "c"} }, "game 4: seating [c,a] vs [a,c]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after := pairedOutput("B", winnersBefore), pairedOutput("A", winnersAfter)
			tc.change(after)
			_, err := ComparePaired(before, after, PairOptions{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "tourney: B and A are not paired runs: "+tc.want)
		})
	}
	t.Run("unknown bot", func(t *testing.T) {
		before, after := pairedOutput("B", winnersBefore), pairedOutput("A", winnersAfter)
		before.Records[1].Seating[1] = "zz"
		_, err := ComparePaired(before, after, PairOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `game 1: seat 1: bot "zz" is not a seat of B's config.json`)
	})
	t.Run("seated twice", func(t *testing.T) {
		before, after := pairedOutput("B", winnersBefore), pairedOutput("A", winnersAfter)
		before.Records[1].Seating[1] = "a"
		_, err := ComparePaired(before, after, PairOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `game 1: bot "a" seated twice (seats 0 and 1)`)
	})
	t.Run("no games", func(t *testing.T) {
		before, after := pairedOutput("B", winnersBefore), pairedOutput("A", winnersAfter)
		before.Records, after.Records = nil, nil
		_, err := ComparePaired(before, after, PairOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "B holds 0 of the run's 6 games")
	})
	t.Run("half a shard with itself", func(t *testing.T) {
		half := pairedOutput("H", winnersBefore)
		half.Header.Shard = arena.Shard{Index: 1, Count: 2}
		half.Records = half.Records[:3]
		_, err := ComparePaired(half, half, PairOptions{})
		assert.ErrorContains(t, err, "H holds shard 1/2 of the run: merge the shards first")
	})
	t.Run("focus no seat plays", func(t *testing.T) {
		before, after := pairedOutput("B", winnersBefore), pairedOutput("A", winnersAfter)
		_, err := ComparePaired(before, after, PairOptions{Focus: "nosuchbot"})
		assert.EqualError(t, err, `tourney: focus "nosuchbot": no seat of B plays it (seats a, b, c)`)
		assert.True(t, before.Plays("angry"))
		assert.False(t, before.Plays("nosuchbot"))
	})
}

// writeOutput writes o as an output folder: config.json and games.jsonl.
func writeOutput(t *testing.T, o *Output) {
	t.Helper()
	require.NoError(t, os.MkdirAll(o.Dir, 0o755))
	h, err := json.Marshal(o.Header)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(o.Dir, "config.json"), h, 0o644))
	var buf []byte
	for i := range o.Records {
		buf = append(o.Records[i].AppendJSON(buf), '\n')
	}
	require.NoError(t, os.WriteFile(filepath.Join(o.Dir, "games.jsonl"), buf, 0o644))
}

func TestReadOutput(t *testing.T) {
	t.Parallel()
	want := pairedOutput(filepath.Join(t.TempDir(), "run"), winnersAfter)
	writeOutput(t, want)
	got, err := ReadOutput(want.Dir)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = ReadOutput(filepath.Join(t.TempDir(), "missing"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config.json")

	torn := pairedOutput(filepath.Join(t.TempDir(), "torn"), winnersAfter)
	writeOutput(t, torn)
	p := filepath.Join(torn.Dir, "games.jsonl")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, b[:len(b)-1], 0o644))
	_, err = ReadOutput(torn.Dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 6 is torn")
}

func TestLoadPublished(t *testing.T) {
	t.Parallel()
	type loadCase struct {
		name, text, want string
	}
	cases := []loadCase{
		{"notebook config", "kind = \"tournament\"\n[tournament]\nconfig = \"x\"\n[paper]\nsource = \"s\"\n[paper.bots.mars]\nname = \"MARS\"\nwin_pct = 42.7\n", ""},
		{"no paper", "kind = \"tournament\"\n", "key paper.bots: missing"},
		{"unknown key", "[paper.bots.mars]\nname = \"MARS\"\nwin_pc = 42.7\n", `paper.toml:3: unknown key "paper.bots.mars.win_pc" (allowed: name, placements, sm, win_pct, t_match, turns_per_match, t_turn, win_per_t_turn)`},
		{"no name", "[paper.bots.mars]\nwin_pct = 42.7\n", "key paper.bots.mars.name: missing"},
		{"win % range", "[paper.bots.mars]\nname = \"MARS\"\nwin_pct = 142.7\n", "key paper.bots.mars.win_pct: 142.7: want 0..100"},
		{"syntax", "[paper\n", "paper.toml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "paper.toml")
			require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o644))
			p, err := LoadPublished(path)
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, 42.7, p.Bots["mars"].WinPct)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.Contains(err.Error(), path) || tc.name == "syntax")
		})
	}
	// The shipped paper tournament notebook holds Table 6.
	p, err := LoadPublished("../notebooks/paper-tournament/config.toml")
	require.NoError(t, err)
	assert.Equal(t, 42.7, p.Bots["mars"].WinPct)
	assert.Len(t, p.Bots, 13)
}

// FuzzLoadPublished: any file either loads with every bot row named and
// its win % in 0..100, or is an error; never a panic.
func FuzzLoadPublished(f *testing.F) {
	f.Add([]byte("[paper.bots.mars]\nname = \"MARS\"\nwin_pct = 42.7\n"))
	f.Add([]byte("[paper]\nsource = \"s\"\n[paper.bots.x]\nname = \"\"\n"))
	f.Add([]byte("[paper.bots.mars]\nname = \"MARS\"\nwin_pct = nan\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "p.toml")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		p, err := LoadPublished(path)
		if err != nil {
			return
		}
		require.NotEmpty(t, p.Bots)
		for _, b := range p.Bots {
			assert.NotEmpty(t, strings.TrimSpace(b.Name))
			assert.True(t, b.WinPct >= 0 && b.WinPct <= 100)
		}
	})
}
