package strategist

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/stats"
)

// handEval is an evaluation of n episodes: the first wins won, the
// return 100 for a win and -100 otherwise, plus ret for every episode.
func handEval(name string, n, wins int, ret float64, share []float64, elim, stale int) Evaluation {
	ev := Evaluation{Name: name, Won: make([]bool, n), Return: make([]float64, n), ActionShare: share, Eliminated: elim, Stalemates: stale}
	for i := range n {
		ev.Won[i] = i < wins
		ev.Return[i] = ret - 100
		if ev.Won[i] {
			ev.Return[i] = ret + 100
		}
		// A spread of returns so that a paired t interval has a width.
		ev.Return[i] += float64(i % 7)
	}
	return ev
}

// handResult is a result of 200 episodes per policy whose comparisons are
// computed as RunWith computes them.
func handResult(t *testing.T, learned, exploring int) *Result {
	t.Helper()
	r := &Result{Actions: []string{"passive", "pacifist", "aggressive"}, Evaluations: []Evaluation{
		handEval("learned", 200, learned, 0, []float64{0.8, 0.1, 0.1}, 20, 150),
		handEval("always passive", 200, 0, -50, []float64{1, 0, 0}, 10, 190),
		handEval("always pacifist", 200, 20, -40, []float64{0, 1, 0}, 60, 120),
		handEval("always aggressive", 200, 30, -30, []float64{0, 0, 1}, 50, 120),
		handEval("uniform random", 200, 80, -20, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 70, 50),
		handEval("learned, exploring", 200, exploring, -10, []float64{0.2, 0.3, 0.5}, 40, 60),
	}}
	require.NoError(t, r.compare())
	return r
}

func TestJudge(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		iv   stats.Interval
		p    float64
		want direction
	}{
		{"above 0, significant", stats.Interval{Lo: 0.01, Hi: 0.05}, 0.01, more},
		{"below 0, significant", stats.Interval{Lo: -0.05, Hi: -0.01}, 0.001, less},
		{"above 0, not significant after Holm", stats.Interval{Lo: 0.01, Hi: 0.05}, 0.2, unclear},
		{"holds 0, significant", stats.Interval{Lo: -0.01, Hi: 0.05}, 0.01, unclear},
		{"touches 0", stats.Interval{Lo: 0, Hi: 0.05}, 0.01, unclear},
		{"p at the level", stats.Interval{Lo: 0.01, Hi: 0.05}, 0.05, unclear},
	} {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, judge(c.iv, c.p)) })
	}
}

func TestVerdicts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name               string
		learned, exploring int
		want               []string
	}{
		{"greedy best", 120, 40, []string{
			"*learned* wins 60.0 % of its games (95 % Wilson [53.1, 66.5]); minus *always aggressive*, the best fixed strategy: +45.0 points [+37.7, +51.5], Holm p = 1.78e-26: wins more often; minus *uniform random*, the uniform choice: +20.0 points [+14.4, +25.3], Holm p = 1.09e-11: wins more often. It wins more often than every fixed strategy.",
			"*learned, exploring* wins 20.0 % of its games (95 % Wilson [15.0, 26.1]); minus *always aggressive*, the best fixed strategy: +5.0 points [+2.0, +8.4], Holm p = 0.00195: wins more often; minus *uniform random*, the uniform choice: -20.0 points [-25.5, -14.4], Holm p = 1.09e-11: wins less often. It wins more often than every fixed strategy.",
		}},
		{"no clear difference", 31, 30, []string{
			"*learned* wins 15.5 % of its games (95 % Wilson [11.1, 21.2]); minus *always aggressive*, the best fixed strategy: +0.5 points [-1.1, +2.2], Holm p = 1: no clear difference; minus *uniform random*, the uniform choice: -24.5 points [-30.4, -18.5], Holm p = 3.55e-14: wins less often. It does not win more often than every fixed strategy.",
			"*learned, exploring* wins 15.0 % of its games (95 % Wilson [10.7, 20.6]); minus *always aggressive*, the best fixed strategy: +0.0 points [-1.3, +1.3], Holm p = 1: no clear difference; minus *uniform random*, the uniform choice: -25.0 points [-31.0, -19.0], Holm p = 1.95e-14: wins less often. It does not win more often than every fixed strategy.",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := handResult(t, c.learned, c.exploring)
			v, err := r.Verdicts()
			require.NoError(t, err)
			assert.Equal(t, c.want, v)
			for _, cm := range r.Comparisons {
				// "More" in a sentence only with the interval above 0.
				assert.Equal(t, cm.Win.Interval.Lo > 0 && cm.HolmWinP < 0.05, cm.WinsMore, "%s minus %s", cm.Policy, cm.Against)
			}
		})
	}
}

func TestEvalAndPairedMarkdown(t *testing.T) {
	t.Parallel()
	r := handResult(t, 120, 40)
	ev, err := r.evalShown()
	require.NoError(t, err)
	assert.Equal(t, []string{"policy", "games", "wins", "win %", "95 % Wilson", "mean return", "eliminated", "stalemates", "passive %", "pacifist %", "aggressive %"}, ev.Header)
	assert.Equal(t, []string{"learned", "200", "120", "60.0", "[53.1, 66.5]", "23.0", "20", "150", "80.0", "10.0", "10.0"}, ev.Rows[0])
	assert.Equal(t, []string{"always passive", "200", "0", "0.0", "[0.0, 1.9]", "-147.0", "10", "190", "100.0", "0.0", "0.0"}, ev.Rows[1])
	p := r.pairedShown()
	require.Len(t, p.Rows, 9)
	assert.Equal(t, []string{"learned", "always aggressive", "+45.0", "[+37.7, +51.5]", "1.78e-26", "+120.0", "[+106.1, +133.9]", "1.85e-39"}, p.Rows[2])
	assert.Equal(t, "learned, exploring", p.Rows[8][1])
	assert.Equal(t, "learned", r.Best())
	assert.Equal(t, []string{
		"*learned* plays passive in 80.0 % of its steps; 75.0 % of its games end at the round limit (stalemate) and 10.0 % in its elimination.",
		"*learned, exploring* plays aggressive in 50.0 % of its steps; 30.0 % of its games end at the round limit (stalemate) and 20.0 % in its elimination.",
	}, r.Behaviour())
}

func TestCurveText(t *testing.T) {
	t.Parallel()
	r := &Result{}
	text, err := r.CurveText()
	require.NoError(t, err)
	assert.Equal(t, "", text)
	r.Curve = []BlockStats{{First: 0, Games: 100, Wins: 20, MeanReturn: -143.04}, {First: 100, Games: 100, Wins: 45, MeanReturn: 12.35}}
	text, err = r.CurveText()
	require.NoError(t, err)
	assert.Equal(t, "First block: win 20.0 % [13.3 %, 28.9 %], mean return -143.0; last block: win 45.0 % [35.6 %, 54.8 %], mean return 12.3.", text)
}

// TestWilsonErrors: counts stats.Wilson refuses are an error naming the
// block or the evaluation, in every renderer that draws the interval.
func TestWilsonErrors(t *testing.T) {
	t.Parallel()
	bad := &Result{Curve: []BlockStats{{First: 0, Games: 100, Wins: 20}, {First: 100, Games: 100, Wins: 101}}}
	const block = "training block from game 100: stats: Wilson: successes k = 101 outside [0, n = 100]"
	_, err := bad.CurveText()
	assert.EqualError(t, err, block)
	_, err = bad.CurveTable()
	assert.EqualError(t, err, block)
	assert.ErrorContains(t, bad.WriteCurve(t.TempDir()), block)

	// An evaluation with fewer returns than games.
	short := &Result{Evaluations: []Evaluation{{Name: "learned", Won: []bool{true, false}, Return: []float64{1}}}}
	const eval = `evaluation "learned": 1 returns for 2 games`
	for name, f := range map[string]func() error{
		"evalShown": func() error { _, err := short.evalShown(); return err },
		"evalCSV":   func() error { _, err := short.evalCSV(); return err },
		"Verdicts": func() error {
			_, err := (&Result{Evaluations: []Evaluation{{Name: "learned", Won: []bool{true}}}}).Verdicts()
			return err
		},
		"Summary": func() error { return short.Summary(io.Discard) },
	} {
		want := eval
		if name == "Verdicts" {
			want = `evaluation "learned": 0 returns for 1 games`
		}
		assert.EqualError(t, f(), want, name)
	}
	a := &Ablation{Arms: []Arm{{Name: "only", Eval: &short.Evaluations[0]}}}
	_, _, err = a.Tables()
	assert.EqualError(t, err, "arm only: "+eval)
	_, err = a.armsCSV()
	assert.EqualError(t, err, "arm only: "+eval)
}

func TestCompareArms(t *testing.T) {
	t.Parallel()
	lead := handEval("learned", 200, 10, 0, nil, 30, 160)
	front := handEval("learned", 200, 12, 5, nil, 30, 158)
	all := handEval("learned", 200, 100, 50, nil, 20, 80)
	a, err := CompareArms([]Arm{{"thesis observation", []string{"territories"}, 500, 60000, &lead},
		{"+front", []string{"territories", "front"}, 500, 58000, &front}, {"all", []string{"territories", "front", "threat"}, 500, 50000, &all}})
	require.NoError(t, err)
	require.Len(t, a.Pairs, 3)
	assert.Equal(t, []string{
		"*+front* minus *thesis observation*: +1.0 points of win rate, 95 % [-1.0, +3.3], Holm p = 0.5: no clear difference.",
		"*all* minus *thesis observation*: +45.0 points of win rate, 95 % [+37.9, +51.7], Holm p = 6.46e-27: wins more often.",
	}, a.Verdicts())
	tb, ct, err := a.Tables()
	require.NoError(t, err)
	assert.Equal(t, []string{"+front", "territories, front", "500", "58000", "12", "6.0", "[3.5, 10.2]", "-80.0", "30", "158"}, tb.Rows[1])
	head, rows := ct.Header, ct.Rows
	assert.Len(t, head, len(rows[0]))
	assert.Equal(t, []string{"all", "territories front threat", "500", "50000", "200", "100", "0.5"}, rows[2][:7])
	pt, pc := a.PairsTables()
	assert.Equal(t, []string{"all", "+front", "+44.0"}, pt.Rows[2][:3])
	ct = pc
	head, rows = ct.Header, ct.Rows
	assert.Len(t, rows, 3)
	assert.Len(t, head, len(rows[0]))
	assert.Equal(t, "0.44", rows[2][2])

	one, err := CompareArms([]Arm{{"only", nil, 1, 1, &lead}})
	require.NoError(t, err)
	assert.Empty(t, one.Pairs)
	assert.Empty(t, one.Verdicts())
}

func TestPval(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p        float64
		val, rel string
	}{{0.0925, "0.0925", "= 0.0925"}, {7.62e-170, "7.62e-170", "= 7.62e-170"}, {0, "< 1e-300", "< 1e-300"}, {1, "1", "= 1"}} {
		assert.Equal(t, c.val, pval(c.p), "%g", c.p)
		assert.Equal(t, c.rel, pvalRel(c.p), "%g", c.p)
	}
}
