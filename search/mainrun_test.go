package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/stats"
)

// synthRun returns a finished narrowing of synthSpace (optimum near a =
// 0.3, b = 100) as a MainRun with the reference point ref and no
// candidates.
func synthRun(t *testing.T, ref []float64) *MainRun {
	t.Helper()
	sp := synthSpace()
	n, err := NewNarrowing(NarrowConfig{Space: sp, Points: []int{5, 5}, Levels: 3, Rounds: 2, Blocks: 6, Alpha: 0.05, Margin: 1, Zoom: 0.5})
	require.NoError(t, err)
	q := &Quadratic{Space: sp, Opt: sp.units([]float64{0.3, 100}), Peak: 0.5, Curv: 10}
	runMethod(t, n, &Bernoulli{Games: 4, Seed: 1, P: q.P})
	return &MainRun{Narrowing: n, Reference: "bot@paper", RefNarrow: ref}
}

// diffCand is a candidate with a mean difference and its interval.
func diffCand(name string, mean, lo, hi, sd float64) Candidate {
	return Candidate{Name: name, Comparison: Comparison{Blocks: 300, Diff: stats.Paired{Mean: mean, SD: sd, Interval: stats.Interval{Lo: lo, Hi: hi}}}}
}

// The verdict sentences follow the numbers: the reference's point inside
// or outside the last window (per parameter), each candidate better, worse
// or not shown different by its sign and Holm-adjusted p, and the
// detectable difference from the blocks and the largest SD.
func TestMainRunVerdicts(t *testing.T) {
	r := synthRun(t, nil)
	_, last := r.Narrowing.Best()
	sp := r.Narrowing.cfg.Space
	inside := []float64{sp[0].value((last.Lo[0] + last.Hi[0]) / 2), sp[1].value((last.Lo[1] + last.Hi[1]) / 2)}
	for _, tc := range []struct {
		name string
		ref  []float64
		want string
	}{
		{"inside", inside, "The paper's values of a and b lie inside the narrowing's last window"},
		{"outside", []float64{0.99, 9000}, "The paper's values of a and b lie outside the narrowing's last window"},
		{"a inside, b outside", []float64{inside[0], 9000}, "The paper's value of a lies inside the narrowing's last window, its value of b lies outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.RefNarrow = tc.ref
			assert.Contains(t, r.windowText(), tc.want)
			assert.Contains(t, r.windowText(), "; the last window is a [")
		})
	}

	r.Candidates = []Candidate{
		diffCand("better", 0.06, 0.03, 0.09, 0.2),
		diffCand("worse", -0.05, -0.08, -0.02, 0.25),
		diffCand("positive, not shown", 0.02, -0.01, 0.05, 0.2),
		diffCand("negative, not shown", -0.02, -0.05, 0.01, 0.2),
	}
	r.Holm = []float64{0.001, 0.004, 0.2, 0.06}
	want := []string{
		"`better` is better than `bot@paper`: +6.0 points of win rate (95 % interval [+3.0, +9.0], Holm-adjusted p = 0.001, 300 blocks).",
		"`worse` is worse than `bot@paper`: -5.0 points of win rate (95 % interval [-8.0, -2.0], Holm-adjusted p = 0.004, 300 blocks).",
		"`positive, not shown` is not shown different from `bot@paper`: +2.0 points of win rate (95 % interval [-1.0, +5.0], Holm-adjusted p = 0.200, 300 blocks).",
		"`negative, not shown` is not shown different from `bot@paper`: -2.0 points of win rate (95 % interval [-5.0, +1.0], Holm-adjusted p = 0.060, 300 blocks).",
	}
	for i, w := range want {
		assert.Equal(t, w, r.candidateText(i))
	}
	// (z_{1-0.0125/2} + z_0.8) · 0.25 / √300 = (2.4977 + 0.8416) · 0.25 / 17.32 = 0.0482.
	d, err := r.detect()
	require.NoError(t, err)
	assert.InDelta(t, 0.0482, d.Diff, 0.0001)
	assert.Equal(t, 0.0125, d.Alpha)
	assert.Equal(t, "The validation's 300 blocks detect a difference of 4.8 points with 80 % power at Holm's strictest level 0.0125 (the largest per-block standard deviation of the differences, 0.250).", r.detectText())
	v := r.Verdicts()
	assert.Len(t, v, 6)
	assert.Equal(t, r.windowText(), v[0])
	assert.Equal(t, r.detectText(), v[5])
}

func TestDetectableDiff(t *testing.T) {
	d, err := detectableDiff(0.2, 100, 0.05, 0.8)
	require.NoError(t, err)
	assert.InDelta(t, (1.959964+0.841621)*0.02, d, 1e-5)
	for _, bad := range []struct {
		sd           float64
		blocks       int
		alpha, power float64
	}{{-1, 100, 0.05, 0.8}, {0.2, 1, 0.05, 0.8}, {0.2, 100, 0, 0.8}, {0.2, 100, 0.05, 0.5}} {
		_, err := detectableDiff(bad.sd, bad.blocks, bad.alpha, bad.power)
		assert.Error(t, err, "%+v", bad)
	}
}

// The validation of several candidates plays the reference once per block
// and gives each candidate the comparison of a Validation of it alone.
func TestValidationSetMatchesValidation(t *testing.T) {
	a, b, ref := []float64{0.9}, []float64{0.2}, []float64{0.5}
	ev := &Bernoulli{Games: 6, Seed: 3, P: func(x []float64) float64 { return x[0] / 2 }}
	set, err := NewValidationSet([][]float64{a, b}, ref, 40, 7)
	require.NoError(t, err)
	evals, err := set.Next()
	require.NoError(t, err)
	assert.Len(t, evals, 3*7, "two candidates and the reference on 7 blocks")
	set, _ = NewValidationSet([][]float64{a, b}, ref, 40, 7)
	runMethod(t, set, ev)
	cs, holm, err := set.Compare([]string{"a", "b"})
	require.NoError(t, err)
	for i, x := range [][]float64{a, b} {
		v, err := NewValidation(ValidateConfig{A: x, B: ref, Blocks: 40, Chunk: 7})
		require.NoError(t, err)
		runMethod(t, v, ev)
		c, err := v.Compare()
		require.NoError(t, err)
		assert.Equal(t, c, cs[i].Comparison)
	}
	want, err := stats.Holm([]float64{cs[0].Diff.P, cs[1].Diff.P})
	require.NoError(t, err)
	assert.Equal(t, want, holm)
	assert.Greater(t, cs[0].Diff.Mean, 0.0)
	assert.Less(t, cs[1].Diff.Mean, 0.0)
	_, _, err = set.Compare([]string{"a"})
	assert.Error(t, err)
	_, err = NewValidationSet(nil, ref, 40, 7)
	assert.Error(t, err)
}
