package searchreport

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

func TestTraceRows(t *testing.T) {
	for _, tc := range []struct {
		m, n int
		want []int
	}{
		{0, 10, nil},
		{1, 10, []int{0}},
		{4, 10, []int{0, 1, 2, 3}},
		{11, 5, []int{0, 2, 4, 6, 8, 10}},
		{10, 3, []int{0, 3, 6, 9}},
		{1460, 100, nil}, // checked below
	} {
		got := traceRows(tc.m, tc.n)
		if tc.m == 1460 {
			assert.Len(t, got, 101)
			assert.Equal(t, 0, got[0])
			assert.Equal(t, 1459, got[100])
			continue
		}
		assert.Equal(t, tc.want, got, "m %d n %d", tc.m, tc.n)
	}
}

// calCand is a candidate whose comparison has the given win rates and paired
// difference, on 400 blocks of 6 games.
func calCand(name string, winA, winB, mean, lo, hi, p float64) search.Candidate {
	c := search.Candidate{Name: name}
	c.Blocks, c.Games, c.WinA, c.WinB = 400, 2400, winA, winB
	c.WilsonA = stats.Interval{Lo: winA - 0.02, Hi: winA + 0.02}
	c.Diff = stats.Paired{N: 400, Mean: mean, Interval: stats.Interval{Lo: lo, Hi: hi}, P: p}
	return c
}

func TestCalibrationSearchSentences(t *testing.T) {
	c := &search.Calibration{Reference: "mars@robust", Reading: -1, ConfirmSeed: 41,
		Validations:   []search.Candidate{calCand("SPSA recommendation", 0.383, 0.276, 0.106, 0.081, 0.132, 1e-9)},
		Holm:          []float64{1e-9},
		Confirmations: []search.Candidate{calCand("SPSA recommendation", 0.386, 0.251, 0.135, 0.11, 0.159, 1e-9)},
		ConfirmHolm:   []float64{1e-9},
		Readings: []search.Candidate{calCand("goal_value=sum", 0.421, 0.401, 0.02, -0.021, 0.061, 0.332),
			calCand("stop=optimal", 0, 0.4, -0.4, -0.433, -0.367, 1e-9)},
		ReadingsHolm: []float64{0.664, 2e-9},
		Versus:       []search.Candidate{calCand("mars@paperfield", 0.386, 0.265, 0.121, 0.095, 0.146, 1e-9), calCand("mars@tuned", 0.386, 0.37, 0.016, -0.01, 0.042, 0.2)},
	}
	assert.Equal(t, "None of the 2 other readings is shown better than the SPSA recommendation (Holm-adjusted p < 0.05 with a difference above 0), "+
		"so it keeps its readings; the largest difference, `goal_value=sum`'s, is +2.0 points (95 % interval [-2.1, +6.1], Holm-adjusted p = 0.664)", ReadingsText(c))
	assert.Equal(t, "The SPSA recommendation wins 38.3 % of its 2400 games on the validation's fresh blocks (95 % Wilson interval [36.3, 40.3]; "+
		"`mars@robust` 27.6 %), and 38.6 % of 2400 games on seed 41 ([36.6, 40.6]; `mars@robust` 25.1 %)", TunedWinText(c))
	assert.Equal(t, []string{
		"against `mars@paperfield` on the same 400 blocks of seed 41 the SPSA recommendation is shown better: +12.1 points (95 % interval [+9.5, +14.6], p < 0.001; 38.6 % against 26.5 %)",
		"against `mars@tuned` on the same 400 blocks of seed 41 the SPSA recommendation is not shown different: +1.6 points (95 % interval [-1.0, +4.2], p = 0.200; 38.6 % against 37.0 %)",
	}, VersusText(c))
	shown, csv := VersusTables(c)
	assert.Equal(t, []string{"`mars@paperfield`", "2400", "0.386", "0.265", "+0.121", "[+0.095, +0.146]", "< 0.001"}, shown.Rows[0])
	assert.Equal(t, []string{"mars@tuned", "400", "2400", "0.386", "0.37", "0.016", "-0.01", "0.042", "0.2"}, csv.Rows[1])

	// A reading shown better is named, with the candidate it makes.
	c.Readings[1] = calCand("hold_unit=fraction", 0.45, 0.40, 0.05, 0.02, 0.08, 0.001)
	c.ReadingsHolm[1], c.Reading = 0.002, 1
	assert.Equal(t, "Of the 2 other readings, `hold_unit=fraction` is shown better than the SPSA recommendation by the most: +5.0 points "+
		"(95 % interval [+2.0, +8.0], Holm-adjusted p = 0.002), so the SPSA recommendation with `hold_unit=fraction` is validated beside it", ReadingsText(c))
	rs, _ := ReadingsTables(c)
	assert.Equal(t, "SPSA recommendation", rs.Header[4], "the readings' reference is the search's result")
	// Without a confirmation, the versus seats met the validation's blocks.
	c.Confirmations, c.ConfirmHolm = nil, nil
	assert.Contains(t, VersusText(c)[0], "on the same 400 blocks the SPSA recommendation")
	assert.NotContains(t, TunedWinText(c), "seed")
}
