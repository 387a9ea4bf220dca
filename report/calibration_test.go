package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
)

// tinyCalibration is a calibration notebook on 2-player games of MARS
// against Angry, with two-parameter searches, the reference and the
// searches' base mars@paper with goal_paths = shortest (its games cost
// less than half of those under goal_paths = all; the tests are about the
// notebook).
const tinyCalibration = `kind = "calibration"
title = "Tiny calibration"
summary = "A tiny calibration notebook."
question = "Does the calibration notebook run?"
seed = 5
thumbnail = "surface.png"

[calibration]
narrow = "narrow.toml"
cmaes = "cmaes.toml"
against = "mars@paper(goal_paths=shortest)"
validate_blocks = 3
effect_blocks = 2
workers = 2

[quick]
levels = 1
rounds = 1
blocks = 1
points = 2
generations = 1
cmaes_blocks = 1
validate_blocks = 2
effect_blocks = 2

[paper]
source = "a test"
values = { W_p = 0.7375, P_ob = 170 }

[notes]
validation = "The validation is read."
`

const tinySearchHead = `base = "mars@paper(goal_paths=shortest)"
players = 2
opponents = ["angry"]
rules = "mars2006"
seed = 1

[[param]]
name = "W_p"
min = 0.5
max = 0.9
points = 2

[[param]]
name = "P_ob"
min = 10
max = 1000
points = 2
`

// tinyNarrow and tinyCMAES are the tiny calibration's two searches.
const (
	tinyNarrow = "name = \"tiny-narrow\"\n" + tinySearchHead + "\n[narrow]\nlevels = 2\nrounds = 1\nblocks = 2\n"
	tinyCMAES  = "name = \"tiny-cmaes\"\n" + tinySearchHead + "\n[cmaes]\ngenerations = 2\nblocks = 1\nfinal_blocks = 2\nreeval = true\n"
)

func writeCalibration(t *testing.T) string {
	t.Helper()
	return writeNotebook(t, "calibration", tinyCalibration, file{"narrow.toml", tinyNarrow}, file{"cmaes.toml", tinyCMAES})
}

// tinyCalibrationFull is tinyCalibration with a second validation on seed
// 9 and a round robin of the tuned result in the tiny tournament.
var tinyCalibrationFull = strings.Replace(tinyCalibration, "workers = 2\n", "workers = 2\nconfirm_seed = 9\n", 1) + `
[tournament]
notebook = "tourney"
bot = "mars"
seats = ["mars", "mars(hold_unit=percent)"]
tuned = "mars@tinyfield"
replications = 1
`

// writeCalibrationFull writes the notebook of config (tinyCalibrationFull
// or a variant), its searches and the tiny tournament notebook it names
// into a new folder under root and returns the notebook's folder.
func writeCalibrationFull(root, config string) (string, error) {
	dir := filepath.Join(root, "calibration")
	tdir := filepath.Join(dir, "tourney")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return "", err
	}
	for _, f := range []file{{filepath.Join(dir, configFile), config}, {filepath.Join(dir, "narrow.toml"), tinyNarrow},
		{filepath.Join(dir, "cmaes.toml"), tinyCMAES}, {filepath.Join(tdir, configFile), tinyTournament},
		{filepath.Join(tdir, "tiny.toml"), tinyTourney}} {
		if err := os.WriteFile(f.name, []byte(f.text), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// calibrationRuns are three runs of tinyCalibrationFull, the package's
// most expensive fixture, shared by TestCalibrationNotebook and
// TestCalibrationConfirmAndTournament: A without a work folder, B with
// the work folder Work, and C with the same Work again (reading every
// search back), whose log is Log. Under the race detector A is B.
type calibrationRuns struct {
	A, B, C, Work string
	Log           string
	Err           error
}

// sharedCalibration plays calibrationRuns once per test binary, in a
// folder TestMain removes.
var sharedCalibration struct {
	once sync.Once
	runs calibrationRuns
}

// calibrationFixture returns the shared runs of tinyCalibrationFull,
// playing them at the first call.
func calibrationFixture(t *testing.T) calibrationRuns {
	t.Helper()
	sharedCalibration.once.Do(func() {
		r := &sharedCalibration.runs
		root, err := fixtureDir("calibration")
		if err != nil {
			r.Err = err
			return
		}
		dir, err := writeCalibrationFull(filepath.Join(root, "nb"), tinyCalibrationFull)
		if err != nil {
			r.Err = err
			return
		}
		nb, err := Load(dir)
		if err != nil {
			r.Err = err
			return
		}
		r.A, r.B, r.C, r.Work = filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c"), filepath.Join(root, "work")
		var log strings.Builder
		opts := []Options{{Out: r.A}, {Out: r.B, Work: r.Work}, {Out: r.C, Work: r.Work, Log: &log}}
		if race.Enabled { // as in runTwice: B, which plays every game too, stands for A
			r.A, opts = r.B, opts[1:]
		}
		for _, o := range opts {
			o.Registry = registry.Default()
			if r.Err = nb.Run(context.Background(), o); r.Err != nil {
				return
			}
		}
		r.Log = log.String()
	})
	require.NoError(t, sharedCalibration.runs.Err, "the shared calibration runs")
	return sharedCalibration.runs
}

// TestCalibrationNotebook checks two runs of the tiny calibration (the
// shared runs, with a confirmation and a round robin that this test does
// not read) and the files and tables of the searches, validations and
// effects.
func TestCalibrationNotebook(t *testing.T) {
	t.Parallel()
	runs := calibrationFixture(t)
	a, b := runs.A, runs.B
	assertSameResults(t, a, b)
	assertFiles(t, a, "narrow-cells.csv", "cmaes-generations.csv", "validation.csv", "effects.csv", timingsFile, "tuned.toml",
		"surface.png", "surface.svg", "surface-level-2.png", "halfwidth.png", "cmaes-convergence.png", "cmaes-traces.png", "effects.png")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "## Narrowing over two parameters")
	assert.Contains(t, rep, "| W_p | 0.7375 | 0.7375 |")
	assert.Contains(t, rep, "**Verdict:**")
	assert.Contains(t, rep, "> The validation is read.")
	assert.Contains(t, rep, "`goal_paths=all`")
	// Two validations of 3 blocks, six options of 2 blocks.
	val := readFile(t, filepath.Join(a, "validation.csv"))
	assert.Equal(t, 3, strings.Count(val, "\n"))
	assert.Contains(t, val, ",3,6,", "3 blocks, 6 games of the 2-player field")
	eff := readFile(t, filepath.Join(a, "effects.csv"))
	assert.Equal(t, 7, strings.Count(eff, "\n"))
	assert.Contains(t, eff, "attack_targets=any,")
	assert.Contains(t, eff, "stop=optimal,")
	tuned := readFile(t, filepath.Join(a, "tuned.toml"))
	assert.Contains(t, tuned, "bot = \"mars\"")
	assert.Contains(t, tuned, "goal_paths = \"shortest\"")
}

func TestCalibrationNotebookQuick(t *testing.T) {
	t.Parallel()
	nb, err := Load(writeCalibration(t))
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: out, Quick: true}))
	rep := readFile(t, filepath.Join(out, ReportFile))
	assert.Contains(t, rep, "quick size: narrowing 1 level(s) x 1 round(s) x 1 block(s), 2 points per parameter")
	assert.NotContains(t, rep, "surface-level-2")
}

func TestCalibrationParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`cmaes = "cmaes.toml"`, `cmaes = ""`, "key calibration.search: missing"},
		{`cmaes = "cmaes.toml"`, "cmaes = \"cmaes.toml\"\nmethod = \"spsa\"", `key calibration.method: "spsa": calibration.cmaes searches by cmaes`},
		{`cmaes = "cmaes.toml"`, `cmaes = "narrow.toml"`, "needs a [cmaes] table"},
		{`effect_blocks = 2`, `effect_blocks = 1`, "key calibration.effect_blocks: 1 outside [2, 1048576]"},
		{`validate_blocks = 3`, `validate_blocks = 1`, "key calibration.validate_blocks: 1 outside [2, 1048576]"},
		{`narrow = "narrow.toml"`, `narrow = "none.toml"`, "key calibration.narrow:"},
		{`narrow = "narrow.toml"`, `narrow = "cmaes.toml"`, "needs a [narrow] table"},
		{`points = 2`, `points = 0`, "key quick.points: 0 outside [1, 10]"},
	} {
		dir := writeCalibration(t)
		cfg := strings.Replace(tinyCalibration, tc.from, tc.to, 1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, configFile), []byte(cfg), 0o644))
		_, err := Load(dir)
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}

// TestCalibrationConfirmAndTournament checks the second validation on its
// own seed and the round robin with the tuned result, and that a run with
// a work folder gives the same results as one without, and again when it
// is started a second time and reads everything back from that folder.
func TestCalibrationConfirmAndTournament(t *testing.T) {
	t.Parallel()
	runs := calibrationFixture(t)
	a, b, c, work := runs.A, runs.B, runs.C, runs.Work
	assertSameResults(t, a, b)
	assertSameResults(t, a, c)
	for _, sub := range []string{"narrow", "cmaes", "validate-1", "confirm-2", "effect-hold_unit=fraction", "tournament-3"} {
		assert.DirExists(t, filepath.Join(work, sub))
	}
	assert.Contains(t, runs.Log, "narrow: ")
	assert.Contains(t, runs.Log, "evaluations in "+filepath.Join(work, "narrow"))
	assert.Contains(t, readFile(t, filepath.Join(c, ReportFile)), "\n0 games in ", "the second run with -work plays nothing")
	assert.Contains(t, readFile(t, filepath.Join(c, ReportFile)), "more\ngames were read back from the `-work` folder")
	assert.NotContains(t, readFile(t, filepath.Join(a, ReportFile)), "read back")
	assert.Contains(t, readFile(t, filepath.Join(a, ReportFile)), "shipped as `mars@tinyfield`")

	assertFiles(t, a, "confirmation.csv", "tournament.csv", "tournament-paired.csv", "tournament-balance.csv", "tournament-paired.png")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "### Once more on a seed no search used")
	assert.Contains(t, rep, "blocks of seed 9")
	assert.Contains(t, rep, "## The round robin with the tuned mars")
	assert.Contains(t, rep, "with `mars@tinyfield` in mars's place, it wins")
	assert.Contains(t, rep, "Spearman's rho of win % against the paper's is")
	// Three runs of the 10-game round robin, 6 games with mars each; two
	// paired comparisons.
	tour := readFile(t, filepath.Join(a, "tournament.csv"))
	assert.Equal(t, 1+3*5, strings.Count(tour, "\n"))
	assert.Contains(t, tour, "mars@tinyfield,mars,6,")
	paired := readFile(t, filepath.Join(a, "tournament-paired.csv"))
	assert.Equal(t, 3, strings.Count(paired, "\n"))
	assert.Contains(t, paired, "mars(hold_unit=percent),6,")
	bal := readFile(t, filepath.Join(a, "tournament-balance.csv"))
	assert.Equal(t, 4, strings.Count(bal, "\n"))

	for _, tc := range []struct{ from, to, want string }{
		{`bot = "mars"`, `bot = "nobody"`, `key tournament.bot: "nobody" is not a bot of`},
		{`notebook = "tourney"`, `notebook = "none"`, "key tournament.notebook:"},
		{`seats = ["mars", "mars(hold_unit=percent)"]`, `seats = []`, "key tournament.seats: empty"},
		{"confirm_seed = 9", "confirm_seed = 5", "key calibration.confirm_seed: 5: want 0 (none) or a positive seed other than the notebook's seed 5"},
	} {
		cfg := strings.Replace(tinyCalibrationFull, tc.from, tc.to, 1)
		require.NotEqual(t, tinyCalibrationFull, cfg, tc.from)
		dir, err := writeCalibrationFull(t.TempDir(), cfg)
		require.NoError(t, err)
		_, err = Load(dir)
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}

// A calibration on a mixture of conditions validates within each
// condition too: the report's tables and validation-conditions.csv.
func TestCalibrationNotebookMixture(t *testing.T) {
	t.Parallel()
	mix := strings.Replace(tinySearchHead, "players = 2\nopponents = [\"angry\"]\nrules = \"mars2006\"\nseed = 1\n",
		"seed = 1\n[[condition]]\nname = \"two\"\nrules = \"mars2006\"\nplayers = 2\nopponents = [\"angry\"]\n\n[[condition]]\nname = \"three\"\nrules = \"classic\"\nplayers = 3\nopponents = [\"angry\", \"aggressive\"]\n\n", 1)
	require.NotEqual(t, tinySearchHead, mix)
	narrow := "name = \"tiny-narrow\"\n" + mix + "\n[narrow]\nlevels = 1\nrounds = 1\nblocks = 1\n"
	cmaes := "name = \"tiny-cmaes\"\n" + mix + "\n[cmaes]\ngenerations = 1\nblocks = 1\nfinal_blocks = 2\n"
	dir := writeNotebook(t, "calibration", strings.Replace(tinyCalibration, "validate_blocks = 3", "validate_blocks = 8", 1),
		file{"narrow.toml", narrow}, file{"cmaes.toml", cmaes})
	nb, err := Load(dir)
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: out}))
	rep := readFile(t, filepath.Join(out, ReportFile))
	assert.Contains(t, rep, "games of a mixture of 2 conditions, one drawn per block, as a variant of `mars@paper(goal_paths=shortest)`: two (share 0.5: 2 players, rules `mars2006`")
	assert.Contains(t, rep, "Within each condition of the mixture, CMA-ES final mean against `mars@paper(goal_paths=shortest)`")
	cond := readFile(t, filepath.Join(out, "validation-conditions.csv"))
	assert.Equal(t, 1+2*2, strings.Count(cond, "\n"), "two candidates in two conditions")
	assert.Regexp(t, `CMA-ES final mean,three,\d,\d+,`, cond)
}

// TestUnsearched checks the validation's sentence on where a candidate's
// unsearched parameters come from.
func TestUnsearched(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ against, narrow, cmaes, want string }{
		{"mars@paper", "mars@paper", "mars@paper", "`mars@paper`'s"},
		{"mars@paper", "mars@paperfield", "mars@paperfield", "those of the searches' start, `mars@paperfield`"},
		{"mars@paper", "mars@paper", "mars@paperfield", "those of each search's start, `mars@paper` for the narrowing and `mars@paperfield` for CMA-ES"},
	} {
		assert.Equal(t, tc.want, unsearched(tc.against, tc.narrow, tc.cmaes))
	}
}

// tinySPSA is a calibration notebook without a narrowing whose search is
// SPSA, with the other readings at its recommendation, no effects and the
// tuned result against a further seat.
var tinySPSA = strings.NewReplacer("narrow = \"narrow.toml\"\ncmaes = \"cmaes.toml\"\n", "search = \"spsa.toml\"\n",
	"effect_blocks = 2\nworkers = 2\n", "reading_blocks = 2\nversus = [\"mars@paperfield(goal_paths=shortest)\"]\ntuned = \"mars@tinystrong\"\nworkers = 2\nconfirm_seed = 9\n",
	"[paper]\nsource = \"a test\"\nvalues = { W_p = 0.7375, P_ob = 170 }\n", "",
	"effect_blocks = 2\n\n", "reading_blocks = 2\n\n", `thumbnail = "surface.png"`, `thumbnail = "spsa-trace.png"`).Replace(tinyCalibration)

const tinySPSASearch = "name = \"tiny-spsa\"\n" + tinySearchHead + "\n[spsa]\niterations = 3\nblocks = 1\na = 0.5\nc = 0.1\nfinal_blocks = 1\n"

func TestCalibrationNotebookSPSA(t *testing.T) {
	t.Parallel()
	require.NotContains(t, tinySPSA, "narrow")
	require.NotContains(t, tinySPSA, "effect_blocks")
	dir := writeNotebook(t, "calibration", tinySPSA, file{"spsa.toml", tinySPSASearch})
	nb, err := Load(dir)
	require.NoError(t, err)
	out, work := t.TempDir(), t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: out, Work: work}))
	assertFiles(t, out, "spsa-trace.csv", "spsa-trace.png", "readings.csv", "validation.csv", "versus.csv", "tuned.toml", timingsFile)
	for _, f := range []string{"narrow-cells.csv", "cmaes-generations.csv", "effects.csv", "surface.png"} {
		assert.NoFileExists(t, filepath.Join(out, f))
	}
	for _, sub := range []string{"spsa", "reading-goal_paths=all", "validate-1", "versus-1"} {
		assert.DirExists(t, filepath.Join(work, sub))
	}
	rep := readFile(t, filepath.Join(out, ReportFile))
	assert.Contains(t, rep, "Search: `spsa.toml` (SPSA), with this notebook's seed.")
	assert.Contains(t, rep, "## SPSA over every searched parameter")
	assert.Contains(t, rep, "7 evaluations, 14 games", "3 iterations of 2 x 1 block and the final block, 2 games a block")
	assert.NotContains(t, rep, "## Narrowing")
	assert.NotContains(t, rep, "## CMA-ES")
	assert.NotContains(t, rep, "## The named options\n")
	assert.Contains(t, rep, "## The named options at the search's result")
	assert.Regexp(t, "(None of the 6 other readings is shown better than the SPSA recommendation|Of the 6 other readings, `[a-z_]+=[a-z]+` is shown better)", rep)
	assert.Contains(t, rep, "The SPSA recommendation")
	assert.Regexp(t, `wins \d+\.\d % of its 6 games on the validation's fresh blocks \(95 % Wilson interval \[`, rep)
	assert.Contains(t, rep, "shipped as `mars@tinystrong`")
	assert.Contains(t, rep, "### Against other parameter sets")
	assert.Regexp(t, "against `mars@paperfield\\(goal_paths=shortest\\)` on the same 3 blocks of seed 9 the SPSA recommendation(| with [a-z_=]+) is (not shown different|shown better|shown worse): [+-]", rep)

	// The trace: the start and 4 steps, games 0, 4, 8, 12, 14.
	trace := readFile(t, filepath.Join(out, "spsa-trace.csv"))
	assert.True(t, strings.HasPrefix(trace, "step,games,W_p,P_ob\n0,0,0.7375,170\n1,4,"), trace)
	assert.Contains(t, trace, "\n4,14,")
	assert.Equal(t, 6, strings.Count(trace, "\n"))
	readings := readFile(t, filepath.Join(out, "readings.csv"))
	assert.Equal(t, 7, strings.Count(readings, "\n"), "six other readings")
	assert.Contains(t, readings, "goal_paths=all,2,4,")
	versus := readFile(t, filepath.Join(out, "versus.csv"))
	assert.Contains(t, versus, "mars@paperfield(goal_paths=shortest),3,6,")

	// The same again from the work folder: every search read back.
	out2 := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: out2, Work: work}))
	assertSameResults(t, out, out2)

	// Quick: one iteration of one block.
	out3 := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: out3, Quick: true}))
	assert.Contains(t, readFile(t, filepath.Join(out3, ReportFile)), "quick size: SPSA 1 iteration(s) of 1 block(s); validation 2 blocks, readings 2 blocks")
	assert.Contains(t, readFile(t, filepath.Join(out3, "spsa-trace.csv")), "\n2,6,")
}

func TestCalibrationSearchParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`search = "spsa.toml"`, `search = ""`, "key calibration.search: missing"},
		{`search = "spsa.toml"`, "search = \"spsa.toml\"\ncmaes = \"spsa.toml\"", "key calibration.search: \"spsa.toml\": want either calibration.cmaes or calibration.search, not both"},
		{`search = "spsa.toml"`, "search = \"spsa.toml\"\nmethod = \"sgd\"", `key calibration.method: "sgd": want cmaes, spsa, surrogate or halving`},
		{`search = "spsa.toml"`, "search = \"spsa.toml\"\nmethod = \"halving\"", "spsa.toml needs a [halving] table"},
		{`reading_blocks = 2`, `reading_blocks = 1`, "key calibration.reading_blocks: 1 outside [2, 1048576]"},
		{`versus = ["mars@paperfield(goal_paths=shortest)"]`, `versus = [""]`, "key calibration.versus[0]: missing"},
	} {
		cfg := strings.Replace(tinySPSA, tc.from, tc.to, 1)
		require.NotEqual(t, tinySPSA, cfg, tc.from)
		dir := writeNotebook(t, "calibration", cfg, file{"spsa.toml", tinySPSASearch})
		_, err := Load(dir)
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}
