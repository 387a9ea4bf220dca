package tourney

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/stats"
)

// fitRun is a seat run whose bots won the given rates with the given
// Wilson intervals (rate, lo, hi per bot, as fractions).
func fitRun(name string, bots []string, r [][3]float64) SeatRun {
	res := &Results{}
	for i, b := range bots {
		res.Bots = append(res.Bots, BotResult{Bot: b, WinRate: r[i][0], WinLo: r[i][1], WinHi: r[i][2]})
	}
	return SeatRun{Name: name, Results: res}
}

func TestFits(t *testing.T) {
	t.Parallel()
	paper := &Published{Bots: map[string]PublishedBot{"mars": {WinPct: 40}, "a": {WinPct: 30}, "b": {WinPct: 10}}}
	c := &SeatComparison{Bot: "mars", Index: 0, Paper: paper,
		Runs: []SeatRun{
			// The reference: mars first by 5 points, intervals overlapping.
			fitRun("mars@paper", []string{"mars@paper", "a", "b"}, [][3]float64{{0.35, 0.30, 0.40}, {0.30, 0.25, 0.36}, {0.35, 0.30, 0.40}}),
			// mars first by 20 points, clear of the others: the headline.
			fitRun("mars@paper(x=1)", []string{"mars@paper(x=1)", "a", "b"}, [][3]float64{{0.50, 0.45, 0.55}, {0.30, 0.25, 0.35}, {0.20, 0.15, 0.25}}),
			// mars third, 10 points behind.
			fitRun("mars@paper(x=2)", []string{"mars@paper(x=2)", "a", "b"}, [][3]float64{{0.20, 0.15, 0.25}, {0.30, 0.25, 0.35}, {0.25, 0.20, 0.30}}),
		},
		Ranks:  []stats.Spearman{{Rho: 0.5}, {Rho: 1}, {Rho: -0.5}},
		Paired: []stats.PairedProportion{{Diff: 0.15}, {Diff: -0.15}},
	}
	fits := c.Fits()
	require.Len(t, fits, 3)
	for _, tc := range []struct {
		k               int
		rank            int
		lead            float64
		clear, headline bool
		gaps            []float64
		meanGap, maxGap float64
		maxBot          string
		within5         int
		paired          bool
	}{
		{0, 1, 0, false, false, []float64{-5, 0, 25}, 10, 25, "b", 2, false},
		{1, 1, 20, true, true, []float64{10, 0, 10}, 20.0 / 3, 10, "mars", 1, true},
		{2, 3, -10, false, false, []float64{-20, 0, 15}, 35.0 / 3, 20, "mars", 1, true},
	} {
		f := fits[tc.k]
		assert.Equal(t, tc.rank, f.Rank, "run %d", tc.k)
		assert.InDelta(t, tc.lead, f.Lead, 1e-9, "run %d", tc.k)
		assert.Equal(t, tc.clear, f.Clear, "run %d", tc.k)
		assert.Equal(t, tc.headline, f.Headline(), "run %d", tc.k)
		assert.InDeltaSlice(t, tc.gaps, f.Gaps, 1e-9, "run %d", tc.k)
		assert.InDelta(t, tc.meanGap, f.MeanGap, 1e-9, "run %d", tc.k)
		assert.InDelta(t, tc.maxGap, f.MaxGap, 1e-9, "run %d", tc.k)
		assert.Equal(t, tc.maxBot, f.MaxGapBot, "run %d", tc.k)
		assert.Equal(t, tc.within5, f.Within5, "run %d", tc.k)
		assert.Equal(t, tc.paired, f.Paired != nil, "run %d", tc.k)
		assert.Equal(t, 40.0, f.Paper)
	}
	assert.Equal(t, -0.15, fits[2].Paired.Diff)
	assert.Equal(t, []int{1, 0, 2}, RankFits(fits))
	// Ties in the mean gap go to the smaller gap of the seat itself.
	tie := []SeatFit{{MeanGap: 5, Win: 10, Paper: 40}, {MeanGap: 5, Win: 38, Paper: 40}, {MeanGap: math.Inf(1)}}
	assert.Equal(t, []int{1, 0, 2}, RankFits(tie))
}
