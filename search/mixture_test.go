package search

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
)

// tinyMixture resolves testdata/tiny-mixture.toml on workers.
func tinyMixture(t *testing.T, workers int) *Setup {
	t.Helper()
	return tinyMixtureOf(t, workers, "")
}

// tinyMixtureOf is tinyMixture with base, when not "", in place of the
// file's base seat.
func tinyMixtureOf(t *testing.T, workers int, base string) *Setup {
	t.Helper()
	cfg, err := LoadConfig("testdata/tiny-mixture.toml")
	require.NoError(t, err)
	if base != "" {
		cfg.Base = base
	}
	s, err := cfg.Resolve(registry.Default())
	require.NoError(t, err)
	s.Field.Workers = workers
	return s
}

func TestMixtureConfig(t *testing.T) {
	t.Parallel()
	s := tinyMixture(t, 1)
	c := s.Config
	require.Len(t, c.Conditions, 2)
	assert.Equal(t, ConditionSection{Name: "mars2006/3p", Rules: "mars2006", Players: 3, Opponents: []string{"aggressive", "pacifist"}, Weight: 2}, c.Conditions[0])
	assert.Equal(t, "classic-four", c.Conditions[1].Name)
	assert.Equal(t, 1.0, c.Conditions[1].Weight)
	assert.Equal(t, 4, c.Players, "the most seats of any condition")
	g := s.Field
	require.True(t, g.mixed())
	assert.Equal(t, []string{"mars2006/3p", "classic-four"}, g.conditionNames())
	assert.Equal(t, "classic", g.Mixture[1].Rules.Name)
	assert.True(t, g.Mixture[1].Sample)
	fp := string(s.Fingerprint("narrow"))
	assert.Contains(t, fp, `"conditions": [`)
	assert.Contains(t, fp, `"name": "classic-four"`)

	// A field of one condition keeps its fingerprint free of conditions.
	one, err := LoadConfig("testdata/tiny-calibration.toml")
	require.NoError(t, err)
	os, err := one.Resolve(registry.Default())
	require.NoError(t, err)
	assert.NotContains(t, string(os.Fingerprint("narrow")), "conditions")
	assert.Equal(t, []string{""}, os.Field.conditionNames())
	assert.Equal(t, 0, os.Field.condition(12345))
}

func TestMixtureConfigErrors(t *testing.T) {
	t.Parallel()
	good := "name = \"x\"\nbase = \"mars\"\nseed = 1\n[[condition]]\nrules = \"mars2006\"\nplayers = 3\nopponents = [\"angry\", \"shaft\"]\nweight = 2\n[[condition]]\nrules = \"classic\"\nplayers = 4\nopponents = [\"angry\", \"shaft\", \"bort\"]\n[[param]]\nname = \"W_p\"\n"
	_, err := parseConfig("x.toml", []byte(good))
	require.NoError(t, err)
	for _, tc := range []struct{ from, to, want string }{
		{"seed = 1", "seed = 1\nplayers = 3", "x.toml: key players: set beside [[condition]] tables"},
		{"seed = 1", "seed = 1\nrules = \"classic\"", "x.toml: key rules: set beside [[condition]] tables"},
		{"seed = 1", "seed = 1\nsample = false", "x.toml: key sample: set beside [[condition]] tables"},
		{"seed = 1", "seed = 1\nopponents = []", "x.toml: key opponents: set beside [[condition]] tables"},
		{"seed = 1\n", "", "x.toml: key seed: missing"},
		{"rules = \"classic\"\n", "", "x.toml: key condition[1].rules: missing"},
		{"players = 4", "players = 7", "x.toml: key condition[1].players: 7: want 2..6"},
		{"players = 4\n", "", "x.toml: key condition[1].players: missing"},
		{"weight = 2", "weight = 0", "x.toml: key condition[0].weight: 0: want a number in (0, 1e6]"},
		{"weight = 2", "weight = -1", "x.toml: key condition[0].weight: -1"},
		{`["angry", "shaft", "bort"]`, `["angry"]`, "x.toml: key condition[1].opponents: 1 seats: a fixed line-up needs players-1 = 3"},
		{`["angry", "shaft", "bort"]`, "[\"angry\", \"shaft\", \"bort\", \"shaft\"]\nsample = true", `x.toml: key condition[1].opponents[3]: "shaft" repeats entry 1: a pool (sample = true) wants distinct seats`},
		{"rules = \"classic\"", "rules = \"mars2006\"\nname = \"mars2006/3p\"", `x.toml: key condition[1].name: "mars2006/3p" names conditions 0 and 1`},
		{"weight = 2", "weight = 2\nbogus = 1", `x.toml:9: unknown key "condition[0].bogus" (allowed: name, rules, map, players, opponents, sample, weight)`},
		{"weight = 2", "weight = 2\nname = \"red\\u001b[31m\"", `x.toml: key condition[0].name: "red\x1b[31m": want at most 100 bytes of printable text`},
		{"weight = 2", "weight = 2\nname = \"two\\nlines\"", `x.toml: key condition[0].name: "two\nlines": want at most 100 bytes`},
		{"weight = 2", "weight = 2\nname = \"" + strings.Repeat("n", 101) + "\"", `: want at most 100 bytes of printable text`},
	} {
		_, err := parseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"bort"]`, `"nobot"]`, "x.toml: key condition[1].opponents: entry 2:"},
		{`rules = "classic"`, `rules = "nope"`, "condition 1: x.toml: key rules:"},
	} {
		c, err := parseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		require.NoError(t, err, tc.to)
		_, err = c.Resolve(registry.Default())
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}

// The draw of a block's condition depends on the seed and block alone and
// follows the weights.
func TestMixtureConditionDraw(t *testing.T) {
	t.Parallel()
	g := &Games{Seed: 5, Mixture: []Condition{{Weight: 1}, {Weight: 3}, {Weight: 0.5}, {Weight: 0.5}}}
	const n = 40000
	counts := make([]int, len(g.Mixture))
	for b := 0; b < n; b++ {
		counts[g.condition(b)]++
	}
	for i, want := range []float64{0.2, 0.6, 0.1, 0.1} {
		got := float64(counts[i]) / n
		assert.InDelta(t, want, got, 4*math.Sqrt(want*(1-want)/n), "condition %d", i)
	}
	h := &Games{Seed: 5, Mixture: g.Mixture, Workers: 7, Stream: 99}
	other := &Games{Seed: 6, Mixture: g.Mixture}
	same, differ := 0, 0
	for b := 0; b < 1000; b++ {
		if g.condition(b) == h.condition(b) {
			same++
		}
		if g.condition(b) != other.condition(b) {
			differ++
		}
	}
	assert.Equal(t, 1000, same)
	assert.Greater(t, differ, 300, "another seed draws other conditions")
}

// Real games on a mixture: each block plays its condition's seats (3 or
// 4 games), the results do not depend on the workers or on the other
// evaluations of the call, and match the condition's own field.
func TestMixtureEvaluate(t *testing.T) {
	t.Parallel()
	var evals []Eval
	x := []float64{0.7375, 170}
	for b := 0; b < 6; b++ {
		evals = append(evals, Eval{Cand: 0, X: x, Block: b}, Eval{Cand: 1, X: []float64{0.5, 40}, Block: b})
	}
	play := func(g *Games, evals []Eval) []Result {
		var out []Result
		n, err := g.Evaluate(context.Background(), evals, func(k int, r Result) error {
			require.Equal(t, len(out), k)
			out = append(out, r)
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, len(evals), n)
		return out
	}
	one := play(tinyMixture(t, 1).Field, evals)
	two := play(tinyMixture(t, 2).Field, evals)
	assert.Equal(t, one, two)
	g := tinyMixture(t, 1).Field
	seen := map[int]bool{}
	for k, e := range evals {
		c := g.condition(e.Block)
		seen[c] = true
		assert.Equal(t, g.Mixture[c].Players, one[k].Games, "block %d", e.Block)
		solo := play(g.sub(c), []Eval{e})
		assert.Equal(t, solo[0], one[k], "block %d alone in its condition", e.Block)
	}
	assert.Len(t, seen, 2, "six blocks meet both conditions")
	bad := tinyMixture(t, 1).Field
	bad.Mixture[1].Weight = 0
	_, err := bad.Evaluate(context.Background(), evals, func(int, Result) error { return nil })
	assert.ErrorContains(t, err, "condition 1 (classic-four): weight 0")
}

// A validation on a mixture compares A and B within each condition: the
// per-condition blocks add up to the whole, and a condition's comparison
// is the one its blocks give alone.
func TestValidationConditions(t *testing.T) {
	t.Parallel()
	mix := &Games{Seed: 3, Mixture: []Condition{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}}}
	cfg := ValidateConfig{A: []float64{0.5}, B: []float64{0.4}, Blocks: 60, Chunk: 25}
	mix.SplitConditions(&cfg)
	require.Equal(t, []string{"a", "b"}, cfg.Conditions)
	v, err := NewValidation(cfg)
	require.NoError(t, err)
	// A condition-dependent synthetic evaluator: condition b's blocks are
	// won far more often by every candidate.
	ev := &condBernoulli{g: mix, games: []int{3, 5}, bonus: []float64{0, 0.4}}
	runMethod(t, v, ev)
	all, err := v.Compare()
	require.NoError(t, err)
	cc := all.Conditions
	require.Len(t, cc, 2)
	require.NoError(t, cc[0].Err)
	require.NoError(t, cc[1].Err)
	assert.Equal(t, all.Blocks, cc[0].Blocks+cc[1].Blocks)
	assert.Equal(t, all.Games, cc[0].Games+cc[1].Games)
	assert.Equal(t, 3*cc[0].Blocks, cc[0].Games)
	assert.Equal(t, 5*cc[1].Blocks, cc[1].Games)
	assert.Greater(t, cc[1].WinB, cc[0].WinB+0.2)
	assert.Equal(t, "a", cc[0].Name)
	assert.Equal(t, "b", cc[1].Name)

	_, err = NewValidation(ValidateConfig{A: []float64{1}, B: []float64{1}, Blocks: 2, Chunk: 1, Conditions: []string{"a"}})
	assert.ErrorContains(t, err, "without the block's condition")
	var plain ValidateConfig
	(&Games{}).SplitConditions(&plain)
	assert.Nil(t, plain.Conditions)
}

// condBernoulli is a synthetic evaluator whose games per block and win
// probability depend on the block's condition in g.
type condBernoulli struct {
	g     *Games
	games []int
	bonus []float64
}

func (c *condBernoulli) Evaluate(ctx context.Context, evals []Eval, emit func(int, Result) error) (int, error) {
	for j, e := range evals {
		k := c.g.condition(e.Block)
		b := &Bernoulli{Games: c.games[k], Seed: c.g.Seed, P: func(x []float64) float64 { return x[0] + c.bonus[k] }}
		if _, err := b.Evaluate(ctx, []Eval{e}, func(_ int, r Result) error { return emit(j, r) }); err != nil {
			return j, err
		}
	}
	return len(evals), nil
}

// A calibration on a mixture runs narrowing, CMA-ES and the validations
// unchanged, and reports each validation per condition. Its MARS reads
// goal_paths = shortest: this calibration's games then cost about a third
// of those under the file's mars@paper (TestMixtureEvaluate keeps
// mars@paper, whose games on its few blocks are the cheaper).
func TestCalibrateMixture(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	const base = "mars@paper(goal_paths=shortest)"
	ref, err := reg.ParseSeat(base, nil)
	require.NoError(t, err)
	run := func(workers int) *Calibration {
		cfg := CalibrateConfig{Narrow: tinyMixtureOf(t, workers, base), CMAES: tinyMixtureOf(t, workers, base), Reference: ref,
			ReferenceName: base, ValidateBlocks: 4, EffectBlocks: 2}
		c, err := Calibrate(context.Background(), cfg)
		require.NoError(t, err)
		return c
	}
	c := run(2)
	require.Len(t, c.Validations, 2)
	for _, v := range c.Validations {
		require.Len(t, v.Conditions, 2)
		assert.Equal(t, 4, v.Blocks)
		assert.Equal(t, v.Blocks, v.Conditions[0].Blocks+v.Conditions[1].Blocks)
		assert.Equal(t, v.Games, v.Conditions[0].Games+v.Conditions[1].Games)
	}
	if !race.Enabled { // under the race detector the two workers alone
		assert.Equal(t, outputs(run(1)), outputs(c))
	}
}

// BenchmarkCondition measures a block's draw of its condition (done once
// per evaluation on a mixture).
func BenchmarkCondition(b *testing.B) {
	g := &Games{Seed: 5, Mixture: make([]Condition, 27)}
	for i := range g.Mixture {
		g.Mixture[i].Weight = 1
	}
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += g.condition(i)
	}
	_ = s
}

func TestMixtureCostOrder(t *testing.T) {
	t.Parallel()
	idx := [][]int{{0, 1}, nil, {2}, {3, 4, 5}}
	var none *mixtureCost
	assert.Equal(t, []int{0, 2, 3}, none.order(idx), "no costs kept: index order")
	mc := &mixtureCost{}
	assert.Equal(t, []int{0, 2, 3}, mc.order(idx), "nothing played yet")
	mc.record(0, 1)   // 2 evaluations: 2 s
	mc.record(3, 0.5) // 3 evaluations: 1.5 s
	assert.Equal(t, []int{2, 0, 3}, mc.order(idx), "the unplayed condition first, then the longest")
	mc.record(2, 3) // 1 evaluation: 3 s
	assert.Equal(t, []int{2, 0, 3}, mc.order(idx))
	mc.record(2, 1)
	assert.Equal(t, []int{0, 3, 2}, mc.order(idx))
	mc.record(3, 2.0/3) // 2 s: a tie with condition 0 keeps the lower index first
	assert.Equal(t, []int{0, 3, 2}, mc.order(idx))
	mc.record(1, 0) // no time: ignored
	assert.Equal(t, 0.0, mc.each[1])
}
