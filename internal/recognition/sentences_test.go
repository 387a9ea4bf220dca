package recognition

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/stats"
)

// tally builds a Tally of correct of n with its 95 % Wilson interval (the
// zero Tally when n is 0).
func tally(t *testing.T, correct, n int) Tally {
	t.Helper()
	if n == 0 {
		return Tally{CI: stats.Interval{Lo: 0, Hi: 1}}
	}
	ci, err := stats.Wilson(correct, n, stats.Level)
	require.NoError(t, err)
	return Tally{Correct: correct, N: n, Acc: float64(correct) / float64(n), CI: ci}
}

// handSummary is a summary of one recogniser ("phatt") on the arms named,
// with every table empty.
func handSummary(arms ...string) *Summary {
	sum := &Summary{Arms: arms, Recognisers: []string{"phatt"}, Cards: []int{0, 1, 2},
		CardNames: []string{"Asia", "Africa", "Europe"}, Ran: []bool{true}}
	sum.Curve = make([][][numGroups][steps]Tally, 1)
	sum.Curve[0] = make([][numGroups][steps]Tally, len(arms))
	sum.PerMission = make([][][numGroups][]Tally, 1)
	sum.PerMission[0] = make([][numGroups][]Tally, len(arms))
	sum.ByLength = [][][]Tally{make([][]Tally, len(arms))}
	for a := range arms {
		for g := range numGroups {
			sum.PerMission[0][a][g] = make([]Tally, len(sum.Cards))
		}
		sum.ByLength[0][a] = make([]Tally, len(lengthBins))
	}
	return sum
}

func TestTrendOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		from, to [2]int
		want     trend
		text     string
	}{
		{"apart, up", [2]int{10, 100}, [2]int{50, 100}, rises, "rises"},
		{"apart, down", [2]int{50, 100}, [2]int{10, 100}, falls, "falls"},
		{"overlapping, up", [2]int{48, 100}, [2]int{52, 100}, unclear, "changes by less than the intervals can tell"},
		{"overlapping, down", [2]int{52, 100}, [2]int{48, 100}, unclear, "changes by less than the intervals can tell"},
		{"equal", [2]int{5, 10}, [2]int{50, 100}, unclear, "changes by less than the intervals can tell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := trendOf(tally(t, tc.from[0], tc.from[1]), tally(t, tc.to[0], tc.to[1]))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.text, got.String())
		})
	}
}

func TestLengthSentence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		bins [][2]int // correct, n per lengthBins bin
		want string
	}{
		{"rises", [][2]int{{10, 100}, {30, 100}, {0, 0}, {60, 100}, {0, 0}},
			"On a, phatt's accuracy at the end rises from games of 0-19 turns (10.0 % [5.5, 17.4]) to games of 40-49 turns (60.0 % [50.2, 69.1])."},
		{"falls", [][2]int{{0, 0}, {60, 100}, {30, 100}, {0, 0}, {10, 100}},
			"On a, phatt's accuracy at the end falls from games of 20-29 turns (60.0 % [50.2, 69.1]) to games of 50+ turns (10.0 % [5.5, 17.4])."},
		{"overlapping", [][2]int{{45, 100}, {0, 0}, {0, 0}, {0, 0}, {50, 100}},
			"On a, phatt's accuracy at the end changes by less than the intervals can tell from games of 0-19 turns (45.0 % [35.6, 54.8]) to games of 50+ turns (50.0 % [40.4, 59.6])."},
		{"one bin", [][2]int{{0, 0}, {0, 0}, {5, 10}, {0, 0}, {0, 0}}, ""},
		{"no games", [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := handSummary("a")
			for b, v := range tc.bins {
				sum.ByLength[0][0][b] = tally(t, v[0], v[1])
			}
			assert.Equal(t, tc.want, sum.LengthSentence(0, 0))
		})
	}
}

func TestMissionSentence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		cards [][2]int // correct, n per card
		want  string
	}{
		{"apart", [][2]int{{80, 100}, {20, 100}, {50, 100}},
			`On a, phatt names "Asia" best at the end of the game, 80.0 % [71.1, 86.7], and "Africa" worst, 20.0 % [13.3, 28.9] (intervals apart).`},
		{"overlapping", [][2]int{{48, 100}, {0, 0}, {52, 100}},
			`On a, phatt names "Europe" best at the end of the game, 52.0 % [42.3, 61.5], and "Asia" worst, 48.0 % [38.5, 57.7] (intervals overlapping).`},
		{"one card", [][2]int{{0, 0}, {5, 10}, {0, 0}}, ""},
		{"all equal", [][2]int{{5, 10}, {5, 10}, {5, 10}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := handSummary("a")
			for c, v := range tc.cards {
				sum.PerMission[0][0][All][c] = tally(t, v[0], v[1])
			}
			assert.Equal(t, tc.want, sum.MissionSentence(0, 0))
		})
	}
}

func TestCurveSentence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		arms map[string][2][2]int // (correct, n) at 25 % and at 100 %
		want string
	}{
		{"both rise", map[string][2][2]int{"a": {{10, 100}, {40, 100}}, "b": {{10, 100}, {70, 100}}},
			"At the end of the game phatt ranks the arms b 70.0 %, a 40.0 %. From 25 % to 100 % of the game its accuracy rises on a, b."},
		{"one falls, one unclear", map[string][2][2]int{"a": {{60, 100}, {20, 100}}, "b": {{48, 100}, {52, 100}}},
			"At the end of the game phatt ranks the arms b 52.0 %, a 20.0 %. From 25 % to 100 % of the game its accuracy falls on a; changes by less than the intervals can tell on b."},
		{"an arm without games", map[string][2][2]int{"a": {{0, 0}, {0, 0}}, "b": {{10, 100}, {40, 100}}},
			"At the end of the game phatt ranks the arms b 40.0 %. From 25 % to 100 % of the game its accuracy rises on b."},
		{"no games", map[string][2][2]int{"a": {{0, 0}, {0, 0}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var names []string
			for _, n := range []string{"a", "b"} {
				if _, ok := tc.arms[n]; ok {
					names = append(names, n)
				}
			}
			sum := handSummary(names...)
			for a, n := range names {
				v := tc.arms[n]
				sum.Curve[0][a][All][Step(25)] = tally(t, v[0][0], v[0][1])
				sum.Curve[0][a][All][Step(100)] = tally(t, v[1][0], v[1][1])
			}
			assert.Equal(t, tc.want, sum.CurveSentence(0))
		})
	}
}

// TestPaperTables: the tables beside the paper carry its rows, and the gaps
// are ours minus the paper's.
func TestPaperTables(t *testing.T) {
	t.Parallel()
	sum := handSummary("a", "b")
	sum.PChance = [][]float64{{0.01, 1}}
	for a := range sum.Arms {
		for k, s := range PaperSteps {
			sum.Curve[0][a][All][Step(s)] = tally(t, 10*(k+1), 100)
			sum.Curve[0][a][Winners][Step(s)] = tally(t, 4*(k+1), 20)
			sum.Curve[0][a][Losers][Step(s)] = tally(t, 2*(k+1), 80)
		}
	}
	for c := range sum.Cards {
		sum.PerMission[0][0][All][c] = tally(t, c, 10)
	}
	paper := Paper{"a": {Name: "P",
		Winners:  [][]int{{1, 9}, {2, 8}, {3, 7}, {5, 5}},
		Losers:   [][]int{{1, 39}, {2, 38}, {3, 37}, {5, 35}},
		Missions: [][]int{{1, 1}, {2, 0}, {0, 2}}}}
	k, n := paper["a"].end()
	assert.Equal(t, [2]int{10, 50}, [2]int{k, n})

	gen := GeneralTable(0, []Scored{{Label: "ours", Sum: sum}}, paper)
	assert.Equal(t, []string{"arm", "source", "25 %", "50 %", "75 %", "100 %", "ties at 25/50/75/100 %", "p vs guess"}, gen.Header)
	require.Len(t, gen.Rows, 3, "a, the paper's a, b")
	assert.Equal(t, []string{"a", "ours", "10/90 10.0 [5.5, 17.4]", "20/80 20.0 [13.3, 28.9]", "30/70 30.0 [21.9, 39.6]", "40/60 40.0 [30.9, 49.8]", "0.0 / 0.0 / 0.0 / 0.0", "0.01"}, gen.Rows[0])
	assert.Equal(t, []string{"", "paper: P", "2/48 4.0", "4/46 8.0", "6/44 12.0", "10/40 20.0", "—", "—"}, gen.Rows[1])
	assert.Equal(t, "b", gen.Rows[2][0])

	wl := sum.WinLoseTable(0, paper)
	require.Len(t, wl.Rows, 6, "a winners, paper, a losers, paper, b winners, b losers")
	assert.Equal(t, []string{"", "", "paper", "1/39 2.5", "2/38 5.0", "3/37 7.5", "5/35 12.5", "—"}, wl.Rows[3])
	assert.Equal(t, []string{"b", "losers"}, wl.Rows[5][:2])

	ms := sum.MissionsTable(0, paper)
	assert.Equal(t, []string{"mission", "a", "paper: P", "b"}, ms.Header)
	assert.Equal(t, []string{"Africa", "1/9 10.0 [1.8, 40.4]", "2/0 100.0", "—"}, ms.Rows[1])

	gaps, err := sum.PaperGaps(0, paper, 15)
	require.NoError(t, err)
	require.Len(t, gaps, 1)
	assert.Equal(t, "a", gaps[0].Arm)
	assert.InDelta(t, 20, gaps[0].Diff, 1e-9, "40 % against 20 %")
	assert.Less(t, gaps[0].Lo, 20.0)
	assert.Greater(t, gaps[0].Hi, 20.0)
	assert.False(t, gaps[0].Close)
	head := HeadlineTable(0, sum, sum, gaps, 25)
	assert.Equal(t, "within 25 pts", head.Header[7])
	assert.Equal(t, []string{"10/40 20.0", "+20.0"}, head.Rows[0][4:6])
	assert.Equal(t, "yes", head.Rows[0][7], "20 points is within 25")
	assert.Equal(t, []string{"—", "—", "—", "—"}, head.Rows[1][4:])

	wg, err := sum.WinnerGaps(0, paper)
	require.NoError(t, err)
	require.Len(t, wg, 2)
	assert.InDelta(t, 80-10, wg[0].Diff, 1e-9)
	assert.True(t, wg[0].HasPaper)
	assert.InDelta(t, 50-12.5, wg[0].Paper, 1e-9)
	assert.False(t, wg[1].HasPaper)
}
