package searchreport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// cand is a candidate with a paired difference mean in [lo, hi] and p.
func cand(name string, mean, lo, hi, p float64) search.Candidate {
	return search.Candidate{Name: name, Comparison: search.Comparison{Blocks: 100, Games: 400, WinA: 0.3 + mean, WinB: 0.3,
		Diff: stats.Paired{N: 100, Mean: mean, Interval: stats.Interval{Lo: lo, Hi: hi}, P: p}}}
}

func TestCalibrationVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		vals   []search.Candidate
		holm   []float64
		better bool
		want   string
	}{
		{"better", []search.Candidate{cand("narrowing optimum", 0.05, 0.02, 0.08, 0.001), cand("CMA-ES final mean", 0.01, -0.02, 0.04, 0.5)}, []float64{0.002, 0.5}, true,
			"the narrowing optimum beats mars@paper on 100 fresh blocks by 5.0 points of win rate (95 % interval [2.0, 8.0], Holm-adjusted p = 0.002)"},
		{"interval above 0 but Holm p too large", []search.Candidate{cand("narrowing optimum", 0.03, 0.001, 0.06, 0.04), cand("CMA-ES final mean", 0.01, -0.02, 0.04, 0.03)}, []float64{0.08, 0.08}, false,
			"no candidate is shown better than mars@paper on 100 fresh blocks: the best difference, the narrowing optimum's, is 3.0 points (95 % interval [0.1, 6.0], Holm-adjusted p = 0.080)"},
		{"both worse", []search.Candidate{cand("narrowing optimum", -0.05, -0.08, -0.02, 0.001), cand("CMA-ES final mean", -0.01, -0.04, 0.02, 0.5)}, []float64{0.002, 0.5}, false,
			"no candidate is shown better than mars@paper on 100 fresh blocks: the best difference, the CMA-ES final mean's, is -1.0 points (95 % interval [-4.0, 2.0], Holm-adjusted p = 0.500)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &search.Calibration{Reference: "mars@paper", Validations: tc.vals, Holm: tc.holm}
			for i, v := range c.Validations {
				if v.Diff.Mean > c.Validations[c.Pick].Diff.Mean {
					c.Pick = i
				}
			}
			assert.Equal(t, tc.want, Verdict(c))
			assert.Equal(t, tc.better, c.ShownBetter())
			assert.Equal(t, "", ConfirmedText(c))
		})
	}
}

func TestCalibrationConfirmation(t *testing.T) {
	t.Parallel()
	v := []search.Candidate{cand("narrowing optimum", 0.05, 0.02, 0.08, 0.001), cand("CMA-ES final mean", 0.01, -0.02, 0.04, 0.5)}
	for _, tc := range []struct {
		name   string
		conf   search.Candidate
		holm   float64
		better bool
		text   string
	}{
		{"again better", cand("narrowing optimum", 0.04, 0.01, 0.07, 0.01), 0.02, true,
			"on seed 7 (100 blocks) the narrowing optimum is again shown better: +4.0 points (95 % interval [+1.0, +7.0], Holm-adjusted p = 0.020)"},
		{"not again", cand("narrowing optimum", 0.01, -0.02, 0.04, 0.4), 0.6, false,
			"on seed 7 (100 blocks) the narrowing optimum is not shown better: +1.0 points (95 % interval [-2.0, +4.0], Holm-adjusted p = 0.600)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &search.Calibration{Reference: "mars@paper", Validations: v, Holm: []float64{0.002, 0.5}, ConfirmSeed: 7,
				Confirmations: []search.Candidate{tc.conf, v[1]}, ConfirmHolm: []float64{tc.holm, 0.6}}
			assert.Equal(t, tc.text, ConfirmedText(c))
			assert.Equal(t, tc.better, c.ShownBetter())
		})
	}
}

func TestEffectsText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		es   []search.Candidate
		want string
	}{
		{"none", nil, "No option has another choice"},
		{"one each", []search.Candidate{cand("a=x", 0.05, 0.01, 0.09, 0.01), cand("b=y", -0.1, -0.15, -0.05, 0.001), cand("c=z", 0.01, -0.02, 0.04, 0.5)},
			"Of 3 options, 1 raises the win rate (95 % interval above 0): `a=x` (+5.0 points); 1 lowers it (interval below 0): `b=y` (-10.0 points); 1 is not shown to change it (interval across 0)"},
		{"all across 0", []search.Candidate{cand("a=x", 0.05, -0.01, 0.09, 0.1), cand("b=y", -0.02, -0.05, 0.01, 0.2)},
			"Of 2 options, 0 raise the win rate (95 % interval above 0); 0 lower it (interval below 0); 2 are not shown to change it (interval across 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, EffectsText(tc.es)) })
	}
}

func TestComparisonVerdictText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lo, hi, p float64
		want      string
	}{
		{0.01, 0.05, 0.004, "A is better than B: the 95 % interval of the difference excludes 0 (p = 0.004)."},
		{-0.05, -0.01, 0.02, "A is worse than B: the 95 % interval of the difference excludes 0 (p = 0.02)."},
		{-0.01, 0.05, 0.3, "A is not shown better than B at the 5 % level."},
		{0, 0.05, 0.05, "A is not shown better than B at the 5 % level."},
	} {
		c := search.Comparison{Diff: stats.Paired{Interval: stats.Interval{Lo: tc.lo, Hi: tc.hi}, P: tc.p}}
		assert.Equal(t, tc.want, verdictText(c))
	}
}

func TestCandidatesTables(t *testing.T) {
	t.Parallel()
	cs := []search.Candidate{cand("narrowing optimum", 0.05, 0.02, 0.08, 0.0004)}
	cs[0].WilsonA = stats.Interval{Lo: 0.3, Hi: 0.4}
	tb, ct := CandidatesTables("mars@paper", cs, []float64{0.0008})
	assert.Equal(t, []string{"narrowing optimum", "400", "0.350", "[0.300, 0.400]", "0.300", "+0.050", "[+0.020, +0.080]", "< 0.001", "< 0.001"}, tb.Rows[0])
	head, rows := ct.Header, ct.Rows
	assert.Len(t, rows[0], len(head))
	assert.Equal(t, []string{"narrowing optimum", "100", "400", "0.35", "0.3", "0.05", "0.02", "0.08", "0.0004", "0.0008"}, rows[0])
}

func TestList(t *testing.T) {
	t.Parallel()
	for want, items := range map[string][]string{"": nil, "a": {"a"}, "a and b": {"a", "b"}, "a, b and c": {"a", "b", "c"}} {
		assert.Equal(t, want, list(items))
	}
}

func TestPaperText(t *testing.T) {
	t.Parallel()
	space := search.Space{
		{Param: bots.Param{Name: "W_p", Max: 1}, Lo: 0.3, Hi: 0.95},
		{Param: bots.Param{Name: "P_ob", Min: 0.01, Max: 10000, Log: true}, Lo: 5, Hi: 5000},
	}
	q := &quadratic{Space: space, Opt: []float64{0.3, 0.7}, Peak: 0.5, Curv: 10}
	n := narrow(t, search.NarrowConfig{Space: space, Points: []int{7, 7}, Levels: 3, Rounds: 4, Blocks: 10, Alpha: 0.05, Margin: 1, Zoom: 0.5}, q)
	best, last := n.Best()
	c := &search.Calibration{Narrowing: n, RefNarrow: []float64{0.7375, 170}}
	require.Greater(t, space.Values(last.Lo)[1], 5.0, "the last window must exclude P_ob = 5 for this test")
	for _, tc := range []struct {
		name  string
		paper map[string]float64
		want  string
	}{
		{"none", nil, "The paper gives none of the narrowed parameters"},
		{"inside", map[string]float64{"W_p": best.X[0]}, "The paper's value of W_p lies inside the narrowing's last window"},
		{"both inside", map[string]float64{"W_p": best.X[0], "P_ob": best.X[1]}, "The paper's values of W_p and P_ob lie inside the narrowing's last window"},
		{"outside", map[string]float64{"P_ob": 5}, "The paper's value of P_ob lies outside the narrowing's last window"},
		{"mixed", map[string]float64{"W_p": best.X[0], "P_ob": 5}, "The paper's value of W_p lies inside the narrowing's last window, its value of P_ob lies outside"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, PaperText(c, tc.paper)) })
	}
	tb := PaperTable(c, map[string]float64{"W_p": 0.7375})
	assert.Equal(t, []string{"parameter", "paper", "reference seat", "narrowing optimum", "last window"}, tb.Header)
	assert.Equal(t, "0.7375", tb.Rows[0][1])
	assert.Equal(t, "-", tb.Rows[1][1])
	assert.Equal(t, "170", tb.Rows[1][2])
}
