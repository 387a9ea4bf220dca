package searchreport

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// synthSpace is a space of a linear and a log-scale parameter.
func synthSpace() search.Space {
	return search.Space{
		{Param: bots.Param{Name: "a", Min: 0, Max: 1, Default: 0.5}, Lo: 0, Hi: 1},
		{Param: bots.Param{Name: "b", Min: 0.01, Max: 10000, Default: 100, Log: true}, Lo: 1, Hi: 10000},
	}
}

// quadratic is a synthetic win probability with a known optimum: the
// logistic of Peak - Curv·|u - Opt|², u the normalised coordinates of x.
type quadratic struct {
	Space      search.Space
	Opt        []float64
	Peak, Curv float64
}

// P returns the win probability of values x.
func (q *quadratic) P(x []float64) float64 {
	var s float64
	for i, d := range q.Space {
		u := d.Unit(x[i]) - q.Opt[i]
		s += u * u
	}
	return 1 / (1 + math.Exp(-(q.Peak - q.Curv*s)))
}

// narrow plays the narrowing of cfg to its end on the synthetic win rate
// q, in memory.
func narrow(t *testing.T, cfg search.NarrowConfig, q *quadratic) *search.Narrowing {
	t.Helper()
	s := &search.Search[*search.Narrowing]{New: func() (*search.Narrowing, error) { return search.NewNarrowing(cfg) },
		Eval: &search.Bernoulli{Games: 4, Seed: 1, P: q.P}}
	st, err := s.Run(context.Background(), false)
	require.NoError(t, err)
	return st.Method
}

// synthRun returns a finished narrowing of synthSpace (optimum near a =
// 0.3, b = 100) as a MainRun with the reference point ref and no
// candidates.
func synthRun(t *testing.T, ref []float64) *MainRun {
	t.Helper()
	sp := synthSpace()
	q := &quadratic{Space: sp, Opt: []float64{sp[0].Unit(0.3), sp[1].Unit(100)}, Peak: 0.5, Curv: 10}
	n := narrow(t, search.NarrowConfig{Space: sp, Points: []int{5, 5}, Levels: 3, Rounds: 2, Blocks: 6, Alpha: 0.05, Margin: 1, Zoom: 0.5}, q)
	return &MainRun{Narrowing: n, Reference: "bot@paper", RefNarrow: ref}
}

// diffCand is a candidate with a mean difference and its interval.
func diffCand(name string, mean, lo, hi, sd float64) search.Candidate {
	return search.Candidate{Name: name, Comparison: search.Comparison{Blocks: 300, Diff: stats.Paired{Mean: mean, SD: sd, Interval: stats.Interval{Lo: lo, Hi: hi}}}}
}

// The verdict sentences follow the numbers: the reference's point inside
// or outside the last window (per parameter), each candidate better, worse
// or not shown different by its sign and Holm-adjusted p, and the
// detectable difference from the blocks and the largest SD.
func TestMainRunVerdicts(t *testing.T) {
	t.Parallel()
	r := synthRun(t, nil)
	_, last := r.Narrowing.Best()
	sp := r.Narrowing.Config().Space
	inside := sp.Values([]float64{(last.Lo[0] + last.Hi[0]) / 2, (last.Lo[1] + last.Hi[1]) / 2})
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

	r.Candidates = []search.Candidate{
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
	t.Parallel()
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
