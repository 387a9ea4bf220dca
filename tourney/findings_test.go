package tourney

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/stats"
)

// bot is a bot's line with a win rate in [lo, hi], a mean placement and
// placements.
func bot(name string, rate, lo, hi, place float64, placements ...int) BotResult {
	return BotResult{Bot: name, Games: 100, Wins: int(100 * rate), WinRate: rate, WinLo: lo, WinHi: hi, MeanPlacement: place,
		PlacementLo: place - 0.1, PlacementHi: place + 0.1, Placements: placements}
}

func TestFindingsLeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		bots []BotResult
		want string
	}{
		{"separated", []BotResult{bot("mars", 0.6, 0.5, 0.7, 1.5, 60, 20, 20), bot("shaft", 0.3, 0.2, 0.4, 1.9, 30, 50, 20), bot("angry", 0.1, 0.05, 0.18, 2.6, 10, 30, 60)},
			"mars wins most often, 60.0 % of its games (95 % Wilson [50.0, 70.0]), its interval above every other bot's"},
		{"overlapping", []BotResult{bot("mars", 0.45, 0.35, 0.55, 1.5, 45, 35, 20), bot("shaft", 0.4, 0.3, 0.5, 1.9, 40, 40, 20), bot("angry", 0.15, 0.05, 0.18, 2.6, 15, 25, 60)},
			"mars wins most often, 45.0 % of its games (95 % Wilson [35.0, 55.0]), its interval overlapping shaft's (40.0 %, [30.0, 50.0]): the order of the two is not settled"},
		{"tie", []BotResult{bot("mars", 0.4, 0.3, 0.5, 1.5, 40, 40, 20), bot("shaft", 0.4, 0.3, 0.5, 1.9, 40, 40, 20), bot("angry", 0.2, 0.1, 0.3, 2.6, 20, 20, 60)},
			"mars and shaft win equally often, 40.0 % of their games (95 % Wilson [30.0, 50.0])"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Results{Players: 3, Games: 100, Stalemates: 0, Bots: tc.bots}
			f := r.Findings()
			require.Len(t, f, 6)
			assert.Equal(t, tc.want, f[0])
		})
	}
}

func TestFindingsRest(t *testing.T) {
	t.Parallel()
	r := &Results{Players: 3, Games: 100, Stalemates: 2, Bots: []BotResult{
		bot("mars", 0.6, 0.5, 0.7, 1.7, 60, 10, 30), bot("shaft", 0.3, 0.2, 0.4, 1.6, 30, 80, 10), bot("angry", 0.1, 0.05, 0.18, 2.7, 10, 10, 80)}}
	f := r.Findings()
	assert.Equal(t, []string{
		"mars wins most often, 60.0 % of its games (95 % Wilson [50.0, 70.0]), its interval above every other bot's",
		"angry wins least: 10.0 % (95 % Wilson [5.0, 18.0])",
		"shaft has the best mean placement, 1.60 (95 % interval [1.50, 1.70])",
		"shaft finishes 2nd most often (80 of its 100 games)",
		"angry finishes last most often (80 of its 100 games)",
		"2 of the 100 games ended at the round limit (2.0 %, 95 % Wilson [0.6, 7.0])",
	}, f)
	two := &Results{Players: 2, Games: 10, Bots: []BotResult{bot("a", 0.7, 0.4, 0.9, 1.3, 7, 3), bot("b", 0.3, 0.1, 0.6, 1.7, 3, 7)}}
	f = two.Findings()
	assert.Contains(t, f, "b finishes last most often (7 of its 100 games)")
	assert.Len(t, f, 5, "two players: no separate runner-up sentence")
	assert.Nil(t, (&Results{}).Findings())
}

func TestWinFindings(t *testing.T) {
	t.Parallel()
	res := &Results{Players: 3, Games: 100, Bots: []BotResult{
		bot("mars", 0.5, 0.4, 0.6, 1.5), bot("shaft", 0.1, 0.05, 0.2, 2), bot("pixie", 0.4, 0.3, 0.5, 1.8)}}
	for _, tc := range []struct {
		name  string
		paper map[string]float64
		rank  stats.Spearman
		want  []string
	}{
		{"all inside, order agrees", map[string]float64{"mars": 45, "shaft": 10, "pixie": 35}, stats.Spearman{Rho: 1, P: 0.01},
			[]string{"The paper's win % lies inside our 95 % interval for 3 of the 3 bots",
				"The order of win % agrees with the paper's (Spearman's ρ = 1.00, p = 0.010)",
				"The same bot comes first here and in the paper: mars",
				// mars and pixie 5 points above the paper: within.
				"Win % within 5 points of the paper's: 3 of the 3 bots; mean |ours − paper| over the 3 bots 3.33 points"}},
		{"above and below", map[string]float64{"mars": 45, "shaft": 40, "pixie": 5}, stats.Spearman{Rho: 0.5, P: 0.6},
			[]string{"The paper's win % lies inside our 95 % interval for 1 of the 3 bots (mars); above it for shaft (40.0 % against our 10.0 %); below it for pixie (5.0 % against our 40.0 %)",
				"The order of win % is not shown to agree with the paper's (Spearman's ρ = 0.50, p = 0.600)",
				"The same bot comes first here and in the paper: mars",
				"Win % within 5 points of the paper's: 1 of the 3 bots (not: shaft -30.0, pixie +35.0); mean |ours − paper| over the 3 bots 23.33 points"}},
		{"another leader", map[string]float64{"mars": 30, "shaft": 50, "pixie": 35}, stats.Spearman{Rho: -0.5, P: 0.001},
			[]string{"The paper's win % lies inside our 95 % interval for 1 of the 3 bots (pixie); above it for shaft (50.0 % against our 10.0 %); below it for mars (30.0 % against our 50.0 %)",
				"The order of win % is not shown to agree with the paper's (Spearman's ρ = -0.50, p = 0.001)",
				"Different bots come first: mars here, shaft in the paper, which wins 10.0 % (95 % Wilson [5.0, 20.0]) of its games here against 50.0 % there",
				"Win % within 5 points of the paper's: 1 of the 3 bots (not: mars +20.0, shaft -40.0); mean |ours − paper| over the 3 bots 21.67 points"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Published{Bots: map[string]PublishedBot{}}
			for b, w := range tc.paper {
				p.Bots[b] = PublishedBot{Name: b, WinPct: w}
			}
			c := &Comparison{Results: res, Paper: p, Rank: tc.rank}
			assert.Equal(t, tc.want, c.WinFindings())
		})
	}
}

func TestStalemateAndTurnsFindings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		paperStalemates int
		want            string
	}{
		{1, "The paper's stalemate rate, 1.0 %, lies below our 95 % interval"},
		{5, "The paper's stalemate rate, 5.0 %, lies inside our 95 % interval"},
		{20, "The paper's stalemate rate, 20.0 %, lies above our 95 % interval"},
	} {
		c := &Comparison{Results: &Results{Games: 100, Stalemates: 5}, Paper: &Published{Games: 100, Stalemates: tc.paperStalemates},
			StalemateCI: stats.Interval{Lo: 0.02, Hi: 0.11}}
		assert.Equal(t, tc.want, c.StalemateFinding())
	}
	c := &Comparison{MeanTurns: 20, PaperMeanTurns: 27.1}
	assert.Equal(t, "our bots play 20.0 turns per match on average, 7.1 fewer than the paper's 27.1", c.TurnsFinding())
	c = &Comparison{MeanTurns: 30, PaperMeanTurns: 27.1}
	assert.Equal(t, "our bots play 30.0 turns per match on average, 2.9 more than the paper's 27.1", c.TurnsFinding())
}

func TestCompareHandBuilt(t *testing.T) {
	t.Parallel()
	res, err := Analyze([]string{"a", "b", "c", "d"}, 3, handRecords(), nil)
	require.NoError(t, err)
	paper := &Published{Games: 10, Stalemates: 1, Bots: map[string]PublishedBot{
		"a": {Name: "Alpha", WinPct: 40, Placements: []int{4, 3, 2}, Sm: 1}, "b": {Name: "b", WinPct: 30, Placements: []int{3, 3, 3}},
		"c": {Name: "c", WinPct: 20, Placements: []int{2, 4, 3}}, "d": {Name: "d", WinPct: 10, Placements: []int{1, 0, 2}}},
		HeadToHead: PublishedH2H{Met: 5, AWon: 3, BWon: 1, LastTwo: 2, AWonLastTwo: 1}}
	c, err := Compare(res, handRecords(), paper, [2]string{"a", "c"}, 1000)
	require.NoError(t, err)
	require.True(t, c.HasH2H)
	// a and c met in games 0 and 1: a won game 0 (c second: the last two).
	assert.Equal(t, HeadToHead{A: "a", B: "c", Met: 2, AWon: 1, BWon: 0, AAhead: 1, BAhead: 1, LastTwo: 1, AWonLastTwo: 1, Paper: paper.HeadToHead}, c.H2H)
	assert.Equal(t, "Of their 2 meetings here a won 1 and c 0 (the paper: 3 and 1 of 5); of the games where the two were the last left, a won 1 of 1 (100 %) here and 1 of 2 (50 %) in the paper", c.H2HFinding())
	h2h := c.H2HTable()
	assert.Equal(t, []string{"", "met", "a won", "c won", "a ahead", "c ahead", "last two", "a won of the last two"}, h2h.Header)
	assert.Equal(t, [][]string{{"ours", "2", "1", "0", "1", "1", "1", "1"}, {"paper", "5", "3", "1", "—", "—", "2", "1"}}, h2h.Rows)
	t5 := c.Table5(3)
	assert.Equal(t, []string{"bot", "source", "1st", "2nd", "3rd", "Sm", "games"}, t5.Header)
	assert.Equal(t, []string{"a (paper: Alpha)", "ours", "1", "1", "1", "1", "3"}, t5.Rows[0])
	assert.Equal(t, []string{"", "paper", "4", "3", "2", "1", "10"}, t5.Rows[1])
	ct := c.Table5CSV(3)
	head, rows := ct.Header, ct.Rows
	assert.Equal(t, []string{"bot", "p1", "p2", "p3", "stalemates", "games", "paper_name", "paper_p1", "paper_p2", "paper_p3", "paper_stalemates"}, head)
	assert.Equal(t, []string{"a", "1", "1", "1", "1", "3", "Alpha", "4", "3", "2", "1"}, rows[0])
	_, none := headToHead(res, handRecords(), [2]string{"a", "zz"}, PublishedH2H{})
	assert.False(t, none)
}
