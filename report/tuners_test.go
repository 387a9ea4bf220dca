package report

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
)

// tinyTuners is a tuners notebook on 2-player games of MARS against Angry,
// two parameters, every method at budgets of 16 and 32 games.
const tinyTuners = `kind = "tuners"
title = "Tiny tuners"
summary = "A tiny tuners notebook."
question = "Does the tuners notebook run?"
seed = 5
thumbnail = "curves.png"

[tuners]
checkpoints = [16, 32]
seeds = 2
long_seeds = 1
short_budget = 16
against = "mars@paper(goal_paths=shortest)"
validate_blocks = 3
thresholds = [4]
workers = 2

[[tuners.method]]
name = "cmaes"
config = "m.toml"
method = "cmaes"

[[tuners.method]]
name = "spsa"
config = "m.toml"
method = "spsa"

[[tuners.method]]
name = "surrogate"
config = "m.toml"
method = "surrogate"

[[tuners.method]]
name = "halving"
config = "m.toml"
method = "halving"

[quick]
checkpoints = [8]
seeds = 1
validate_blocks = 2
blocks = 1
`

const tinyTunerSearch = "name = \"tiny-tuners\"\n" + tinySearchHead + `
[cmaes]
generations = 50
lambda = 4
blocks = 1
max_blocks = 1
final_blocks = 1

[spsa]
iterations = 50
blocks = 1
a = 0.5
c = 0.1
final_blocks = 1

[surrogate]
init = 3
batch = 2
rounds = 50
blocks = 1
candidates = 30
final_blocks = 1

[halving]
brackets = 50
candidates = 4
blocks = 1
final_blocks = 1
`

// The tuners notebook validates every run's recommendation at each
// checkpoint it reached (the long seed at both, the short one at the first)
// on common blocks; the same config gives the same CSV with or without a
// work folder.
func TestTunersNotebook(t *testing.T) {
	t.Parallel()
	dir := writeNotebook(t, "tuners", tinyTuners, file{"m.toml", tinyTunerSearch})
	nb, err := Load(dir)
	require.NoError(t, err)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	work := filepath.Join(t.TempDir(), "work")
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: b, Work: work}))
	if race.Enabled { // as in runTwice: make test-full compares the run without a work folder
		a = b
	} else {
		require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: a}))
	}
	assertFiles(t, a, "README.md", "tuners.csv", "curves.png", "curves.svg", "timings.csv")
	csv := readFile(t, filepath.Join(a, "tuners.csv"))
	assert.Equal(t, csv, readFile(t, filepath.Join(b, "tuners.csv")))
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	// 4 methods x (long seed: 2 checkpoints + short seed: 1).
	require.Len(t, lines, 1+4*3)
	assert.Equal(t, "method,seed,checkpoint,games,W_p,P_ob,blocks,win_rate,reference_win_rate,diff,diff_lo,diff_hi,p", lines[0])
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		assert.Equal(t, "3", f[6], l)
		assert.LessOrEqual(t, len(f[3]), 2, l) // at most 32 games spent
	}
	assert.True(t, strings.HasPrefix(lines[1], "cmaes,5,16,"), lines[1])
	assert.True(t, strings.HasPrefix(lines[3], "cmaes,6,16,"), lines[3])
	rep := readFile(t, filepath.Join(a, "README.md"))
	assert.Contains(t, rep, "| spsa | 32 | 1 |")
	assert.Contains(t, rep, "seeds reach a validated gain of at least +7 points with the interval's lower end above +4 within 16 games.")
	dirs, err := filepath.Glob(filepath.Join(work, "*"))
	require.NoError(t, err)
	assert.Len(t, dirs, 9) // 4 methods x 2 seeds and the validation

	// A work folder grows with the budget: the runs of a notebook cut at 16
	// games continue to 32, and the result is the same.
	small := writeNotebook(t, "tuners", strings.Replace(tinyTuners, "checkpoints = [16, 32]", "checkpoints = [16]", 1), file{"m.toml", tinyTunerSearch})
	nbs, err := Load(small)
	require.NoError(t, err)
	grow := filepath.Join(t.TempDir(), "grow")
	require.NoError(t, nbs.Run(context.Background(), Options{Registry: registry.Default(), Out: filepath.Join(t.TempDir(), "c"), Work: grow}))
	d := filepath.Join(t.TempDir(), "d")
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: d, Work: grow}))
	assert.Equal(t, csv, readFile(t, filepath.Join(d, "tuners.csv")))
}

func TestTunersConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ old, new, want string }{
		{`method = "spsa"`, `method = "nelder"`, `key tuners.method[1].method: "nelder": want cmaes, spsa, surrogate or halving`},
		{`checkpoints = [16, 32]`, `checkpoints = [32, 16]`, `key tuners.checkpoints: [32 16]: want ascending budgets`},
		{`long_seeds = 1`, `long_seeds = 3`, `key tuners.long_seeds`},
		{`name = "spsa"`, `name = "cmaes"`, `key tuners.method[1].name: "cmaes" names two methods`},
	} {
		dir := writeNotebook(t, "tuners", strings.Replace(tinyTuners, tc.old, tc.new, 1), file{"m.toml", tinyTunerSearch})
		_, err := Load(dir)
		assert.ErrorContains(t, err, tc.want, tc.new)
	}
	dir := writeNotebook(t, "tuners", strings.Replace(tinyTuners, `config = "m.toml"
method = "spsa"`, `config = "o.toml"
method = "spsa"`, 1), file{"m.toml", tinyTunerSearch}, file{"o.toml", strings.Replace(tinyTunerSearch, "max = 1000", "max = 2000", 1)})
	_, err := Load(dir)
	assert.ErrorContains(t, err, "o.toml describes another field or parameters than m.toml")
}

func TestGrouped(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 70000: "70,000", 1234567: "1,234,567", -1000: "-1,000", -100: "-100"} {
		assert.Equal(t, want, grouped(n), "%d", n)
	}
}
