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
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/race"
)

// tinyDice is a dice config small enough for a unit test.
const tinyDice = `kind = "dice"
title = "Dice test"
summary = "A tiny dice notebook."
question = "Do the dice agree?"
seed = 7
thumbnail = "pwin-heatmap.png"

[dice]
alpha = 1e-4
table_n = 4
loss_battles = [[1, 1], [3, 2]]
chain_armies = [3, 5]
chain_defenders = 1
chain_max_len = 3

[full]
verify_trials = 2000
heatmap_n = 6

[quick]
verify_trials = 500
heatmap_n = 3

[notes]
table4 = "The paper rounds."
conclusion = "Exact odds."
`

// tinyEngine is an engine config small enough for a unit test.
const tinyEngine = `kind = "engine"
title = "Engine test"
summary = "A tiny engine notebook."
question = "How fast?"
seed = 3
thumbnail = "lengths.png"

[engine]
rules = "mars2006"
workers = [1, 2]
length_rules = ["classic", "fixedcards"]
length_players = "aggressive,random,pacifist"
mars_bot = "mars"
paper_turn_seconds = 2.49

[[engine.lineups]]
name = "random x3"
players = "random,random,random"
games = 6
quick_games = 3

[[engine.lineups]]
name = "mars duel"
players = "mars,aggressive"
games = 2
quick_games = 1

[full]
length_games = 8

[quick]
length_games = 4

[notes]
mars = "Different hardware."
`

// writeNotebook writes a config into a fresh notebook folder named name,
// and the extra files beside it.
func writeNotebook(t *testing.T, name, config string, extra ...file) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, f := range append([]file{{configFile, config}}, extra...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), 0o644))
	}
	return dir
}

// file is a file a test writes: its name and its text.
type file struct{ name, text string }

// assertFiles checks that every named file exists in dir.
func assertFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		assert.FileExists(t, filepath.Join(dir, name))
	}
}

// runOnce runs the notebook into a new folder and returns it.
func runOnce(t *testing.T, dir string, quick bool) string {
	t.Helper()
	nb, err := Load(dir)
	require.NoError(t, err)
	a := filepath.Join(t.TempDir(), "a")
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: a, Quick: quick}))
	return a
}

// runTwice runs the notebook twice into two folders and returns them, for
// assertSameResults. Under the race detector it runs it once and returns
// that folder twice: one run shows a data race, and make test-full checks
// that two runs agree.
func runTwice(t *testing.T, dir string, quick bool) (string, string) {
	t.Helper()
	a := runOnce(t, dir, quick)
	if race.Enabled {
		return a, a
	}
	return a, runOnce(t, dir, quick)
}

// runsFixture is a fixture that tests of the package share: two runs of
// one notebook config into two folders (one under the race detector, as
// in runTwice), played at the first call of get in a folder TestMain
// removes.
type runsFixture struct {
	once sync.Once
	a, b string
	err  error
}

// get returns the fixture's two output folders, playing the notebook of
// config (a notebook folder named name, with the extra files) twice at
// the first call; every call passes the same arguments.
func (f *runsFixture) get(t *testing.T, name, config string, quick bool, extra ...file) (string, string) {
	t.Helper()
	f.once.Do(func() {
		root, err := fixtureDir(name)
		if err != nil {
			f.err = err
			return
		}
		dir := filepath.Join(root, name)
		if f.err = os.MkdirAll(dir, 0o755); f.err != nil {
			return
		}
		for _, x := range append([]file{{configFile, config}}, extra...) {
			if f.err = os.WriteFile(filepath.Join(dir, x.name), []byte(x.text), 0o644); f.err != nil {
				return
			}
		}
		nb, err := Load(dir)
		if err != nil {
			f.err = err
			return
		}
		f.a, f.b = filepath.Join(root, "a"), filepath.Join(root, "b")
		outs := []string{f.a, f.b}
		if race.Enabled { // as in runTwice
			f.b, outs = f.a, outs[:1]
		}
		for _, out := range outs {
			if f.err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: out, Quick: quick}); f.err != nil {
				return
			}
		}
	})
	require.NoError(t, f.err, "the shared runs of %s", name)
	return f.a, f.b
}

// assertSameResults checks that two runs wrote byte-identical CSV files
// (timings.csv aside) and the same report apart from its timing blocks.
func assertSameResults(t *testing.T, a, b string) {
	t.Helper()
	csvs, err := filepath.Glob(filepath.Join(a, "*.csv"))
	require.NoError(t, err)
	require.NotEmpty(t, csvs)
	for _, f := range csvs {
		name := filepath.Base(f)
		if name == timingsFile {
			continue
		}
		x, err := os.ReadFile(f)
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b, name))
		require.NoError(t, err)
		assert.Equal(t, string(x), string(y), name)
	}
	x, err := os.ReadFile(filepath.Join(a, ReportFile))
	require.NoError(t, err)
	y, err := os.ReadFile(filepath.Join(b, ReportFile))
	require.NoError(t, err)
	assert.Equal(t, string(StripTimings(x)), string(StripTimings(y)))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestDiceNotebook(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeNotebook(t, "dice", tinyDice), false)
	assertSameResults(t, a, b)

	t4 := readFile(t, filepath.Join(a, "table4.csv"))
	assert.Contains(t, t4, "attacker_dice,defender_dice,result,count,total,p_exact,paper_percent\n")
	assert.Contains(t, t4, "\n3,2,attacker wins,2890,7776,")
	assert.Contains(t, t4, ",37\n")
	assert.Contains(t, t4, "\n1,1,attacker wins,15,36,0.4166666666666667,42\n")

	pwin := readFile(t, filepath.Join(a, "pwin.csv"))
	assert.Equal(t, 1+6*6, strings.Count(pwin, "\n"), "pwin.csv holds every a, d <= heatmap_n")
	assert.Contains(t, pwin, "\n1,1,0.4166666666666667\n")

	chains := readFile(t, filepath.Join(a, "chains.csv"))
	assert.Equal(t, 1+3*5, strings.Count(chains, "\n"), "a = 1..5 for k = 1..3")
	assert.Contains(t, chains, "\n1,2,1,0\n", "one army cannot conquer two territories")

	verify := readFile(t, filepath.Join(a, "verify.csv"))
	assert.Equal(t, 1+11, strings.Count(verify, "\n"), "6 single rolls and 5 battles")

	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "| 3v2 | attacker wins | 2890 / 7776 | 37.166 % | 37 % | yes |")
	assert.Contains(t, rep, "14 of 14 entries of Table 4")
	assert.Contains(t, rep, "> The paper rounds.")
	assert.Contains(t, rep, "## Conclusion\n\nExact odds.")
	assert.Contains(t, rep, "`marslab report notebooks/dice` (full size: verify_trials = 2000, heatmap_n = 6; seed 7)")
	assert.Contains(t, rep, "| **1** | 0.417 | 0.106 | 0.027 | 0.007 |")
	for _, f := range []string{"pwin-heatmap.png", "pwin-heatmap.svg", "chains.png", "chains.svg"} {
		st, err := os.Stat(filepath.Join(a, f))
		require.NoError(t, err, f)
		assert.Positive(t, st.Size(), f)
	}
}

// sharedDiceQuick holds two quick runs of tinyDice, shared by
// TestDiceNotebookQuick and TestDiceSeedChangesVerify.
var sharedDiceQuick runsFixture

func TestDiceNotebookQuick(t *testing.T) {
	t.Parallel()
	a, b := sharedDiceQuick.get(t, "dice", tinyDice, true)
	assertSameResults(t, a, b)
	pwin := readFile(t, filepath.Join(a, "pwin.csv"))
	assert.Equal(t, 1+4*4, strings.Count(pwin, "\n"), "the quick heat map (3) is widened to table_n (4)")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "`marslab report -quick -out DIR notebooks/dice` (quick size: verify_trials = 500, heatmap_n = 3; seed 7)")
	assert.Contains(t, rep, "500 rolls (or battles) per test")
}

func TestDiceSeedChangesVerify(t *testing.T) {
	t.Parallel()
	a, _ := sharedDiceQuick.get(t, "dice", tinyDice, true)
	other := strings.Replace(tinyDice, "seed = 7", "seed = 8", 1)
	require.NotEqual(t, tinyDice, other)
	nb, err := Load(writeNotebook(t, "dice", other))
	require.NoError(t, err)
	c := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: c, Quick: true}))
	assert.NotEqual(t, readFile(t, filepath.Join(a, "verify.csv")), readFile(t, filepath.Join(c, "verify.csv")))
	assert.Equal(t, readFile(t, filepath.Join(a, "table4.csv")), readFile(t, filepath.Join(c, "table4.csv")))
}

func TestEngineNotebook(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeNotebook(t, "engine", tinyEngine), false)
	assertSameResults(t, a, b)

	lineups := readFile(t, filepath.Join(a, "lineups.csv"))
	assert.True(t, strings.HasPrefix(lineups, "lineup,players,games,turns_per_game,rounds_per_game,stalemates\n"))
	assert.Contains(t, lineups, "\nrandom x3,\"random,random,random\",6,")
	assert.Contains(t, lineups, "\nmars duel,\"mars,aggressive\",2,")

	lengths := readFile(t, filepath.Join(a, "lengths.csv"))
	lines := strings.Split(strings.TrimSpace(lengths), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[1], "classic,500,8,"), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "fixedcards,200,8,"), lines[2])

	timings := readFile(t, filepath.Join(a, timingsFile))
	assert.True(t, strings.HasPrefix(timings, "measure,subject,workers,value,unit\n"))
	for _, want := range []string{"games_per_second,random x3,1,", "games_per_second,random x3,2,",
		"player_turns_per_second,mars duel,2,", "bot_seconds_per_turn,mars in mars duel,1,",
		"heap_bytes_per_game,random x3,1,", "mars_paper_ratio,mars,1,"} {
		assert.Contains(t, timings, "\n"+want)
	}

	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, timingBegin)
	assert.Contains(t, rep, "## Speed "+timingMarker)
	assert.Contains(t, rep, "t_turn = 2.49 s per turn")
	stripped := string(StripTimings([]byte(rep)))
	for _, line := range strings.Split(stripped, "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") {
			assert.NotContains(t, line, timingMarker, "every timing heading and table lies inside a timing block")
		}
	}
	assert.NotContains(t, stripped, "games/s", "no speed outside the timing blocks")
	assert.Contains(t, stripped, "| classic | 500 | 8 |")
	assert.Contains(t, stripped, "The longest games are played under `classic`")
}

func TestEngineNotebookQuick(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeNotebook(t, "engine", tinyEngine), true)
	assertSameResults(t, a, b)
	assert.Contains(t, readFile(t, filepath.Join(a, "lineups.csv")), "\nrandom x3,\"random,random,random\",3,")
}

func TestStripTimings(t *testing.T) {
	t.Parallel()
	in := "a\n" + timingBegin + "\n## Speed " + timingMarker + "\n1.5 s\n" + timingEnd + "\nb\n"
	assert.Equal(t, "a\nb\n", string(StripTimings([]byte(in))))
	assert.Equal(t, "no blocks\n", string(StripTimings([]byte("no blocks\n"))))
}

func TestFindAndIndex(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, cfg := range map[string]string{"dice": tinyDice, "engine": tinyEngine} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name, configFile), []byte(cfg), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "no-config"), 0o755))
	nbs, all, err := Find(root)
	require.NoError(t, err)
	assert.True(t, all)
	require.Len(t, nbs, 2)
	assert.Equal(t, "dice", nbs[0].Name)
	assert.Equal(t, "engine", nbs[1].Name)

	one, all, err := Find(filepath.Join(root, "dice"))
	require.NoError(t, err)
	assert.False(t, all)
	require.Len(t, one, 1)
	assert.Equal(t, "dice", one[0].Kind)

	// A notebook whose report is written is linked; one not run yet is
	// named with the command that runs it.
	require.NoError(t, os.WriteFile(filepath.Join(root, "dice", ReportFile), []byte("# Dice\n"), 0o644))
	require.NoError(t, WriteIndex(root, nbs))
	idx := readFile(t, filepath.Join(root, ReportFile))
	assert.Contains(t, idx, "| [dice](dice/README.md) | A tiny dice notebook. | <img src=\"dice/pwin-heatmap.png\"")
	assert.Contains(t, idx, "| engine (not run yet: `marslab report notebooks/engine`) | A tiny engine notebook. | |")

	_, _, err = Find(filepath.Join(root, "no-config"))
	assert.ErrorContains(t, err, "holds no config.toml")
}

// TestShippedIndex checks that notebooks/README.md is the index of the
// notebooks' configs as they are (marslab report -index notebooks
// rewrites it).
func TestShippedIndex(t *testing.T) {
	t.Parallel()
	nbs, all, err := Find("../notebooks")
	require.NoError(t, err)
	require.True(t, all)
	dir := t.TempDir()
	require.NoError(t, WriteIndex(dir, nbs))
	assert.Equal(t, readFile(t, "../notebooks/"+ReportFile), readFile(t, filepath.Join(dir, ReportFile)),
		"notebooks/README.md is stale: run marslab report -index notebooks")
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, config, from, to string
		want                   string
	}{
		{"unknown kind", tinyDice, `kind = "dice"`, `kind = "poker"`, `key kind: "poker" is not a notebook kind (allowed: calibration, dice, dice-literature, engine, ladder, readings, recognition, strategist, tournament, transfer, tuners)`},
		{"missing title", tinyDice, `title = "Dice test"`, ``, "key title: missing"},
		{"two-line summary", tinyDice, `summary = "A tiny dice notebook."`, `summary = "a\nb"`, "key summary: must be one line"},
		{"thumbnail not png", tinyDice, `thumbnail = "pwin-heatmap.png"`, `thumbnail = "x.svg"`, `key thumbnail: "x.svg" must be the file name of a PNG`},
		{"thumbnail path", tinyDice, `thumbnail = "pwin-heatmap.png"`, `thumbnail = "../x.png"`, "key thumbnail"},
		{"unknown note", tinyDice, `table4 = "The paper rounds."`, `tabel4 = "x"`, "key notes.tabel4: not a section of this kind (allowed: intro, table4,"},
		{"unknown key", tinyDice, `chain_max_len = 3`, "chain_max_len = 3\nchain_min_len = 1", `:15: unknown key "dice.chain_min_len" (allowed: alpha, table_n, loss_battles, chain_armies, chain_defenders, chain_max_len)`},
		{"alpha", tinyDice, `alpha = 1e-4`, `alpha = 1.5`, "key dice.alpha: 1.5 outside (0, 1)"},
		{"table_n", tinyDice, `table_n = 4`, `table_n = 0`, "key dice.table_n: 0 outside [1, 30]"},
		{"loss pair", tinyDice, `[[1, 1], [3, 2]]`, `[[1, 1], [3]]`, "key dice.loss_battles[1]: 1 values, want a pair [a, d]"},
		{"loss range", tinyDice, `[[1, 1], [3, 2]]`, `[[1, 1], [3, 0]]`, "key dice.loss_battles[1][1]: 0 outside [1, 200]"},
		{"chain armies", tinyDice, `chain_armies = [3, 5]`, `chain_armies = [3, 500]`, "key dice.chain_armies[1]: 500 outside [1, 200]"},
		{"chain len", tinyDice, `chain_max_len = 3`, `chain_max_len = 11`, "key dice.chain_max_len: 11 outside [1, 10]"},
		{"verify trials", tinyDice, `verify_trials = 500`, `verify_trials = 5`, "key quick.verify_trials: 5 outside [10, 100000000]"},
		{"heatmap", tinyDice, `heatmap_n = 6`, `heatmap_n = 1`, "key full.heatmap_n: 1 outside [2, 200]"},
		{"missing full", tinyDice, "[full]\nverify_trials = 2000\nheatmap_n = 6", "", "key full.verify_trials: 0 outside"},
		{"bad toml", tinyDice, `seed = 7`, `seed = `, "config.toml: toml:"},
		{"engine workers", tinyEngine, `workers = [1, 2]`, `workers = [0]`, "key engine.workers[0]: 0 outside [1, 256]"},
		{"engine no workers", tinyEngine, `workers = [1, 2]`, `workers = []`, "key engine.workers: 0 values, want 1 to 8"},
		{"engine games", tinyEngine, `games = 6`, `games = 0`, "key engine.lineups[0].games: 0 outside [1, 1000000]"},
		{"engine players", tinyEngine, `players = "random,random,random"`, `players = ""`, "key engine.lineups[0].players: missing"},
		{"engine rules", tinyEngine, `rules = "mars2006"`, `rules = ""`, "key engine.rules: missing"},
		{"engine paper", tinyEngine, `paper_turn_seconds = 2.49`, `paper_turn_seconds = -1`, "key engine.paper_turn_seconds: -1 outside (0, 3600)"},
		{"engine length games", tinyEngine, "[quick]\nlength_games = 4", "[quick]\nlength_games = 1", "key quick.length_games: 1 outside [2, 1000000]"},
		{"engine unknown key", tinyEngine, `mars_bot = "mars"`, "mars_bot = \"mars\"\nbots = 3", `:14: unknown key "engine.bots" (allowed: rules, workers, lineups, length_rules, length_players, mars_bot, paper_turn_seconds)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := strings.Replace(tc.config, tc.from, tc.to, 1)
			require.NotEqual(t, tc.config, cfg, "the replacement must change the config")
			path := filepath.Join("notebooks", "x", configFile)
			_, err := Parse(path, []byte(cfg))
			require.Error(t, err)
			assert.Contains(t, err.Error(), path+":")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	// A line-up naming an unknown bot or rule set fails at run time, naming
	// the file and the key.
	for _, tc := range []struct{ from, to, key string }{
		{`players = "random,random,random"`, `players = "random,nobot"`, `key engine.lineups[0].players: "random,nobot": `},
		{`players = "random,random,random"`, `players = "random"`, `key engine.lineups[0].players: "random": 1 seats, must be 2..6`},
		{`rules = "mars2006"`, `rules = "nosuchrules"`, `key engine.rules: "nosuchrules": `},
		{`length_rules = ["classic", "fixedcards"]`, `length_rules = ["classic", "rules/none.toml"]`, `key engine.length_rules[1]: "rules/none.toml": `},
	} {
		dir := writeNotebook(t, "engine", strings.Replace(tinyEngine, tc.from, tc.to, 1))
		nb, err := Load(dir)
		require.NoError(t, err)
		err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: t.TempDir(), Quick: true})
		require.Error(t, err)
		assert.Contains(t, err.Error(), filepath.Join(dir, configFile)+": "+tc.key)
	}

	_, err := Load(t.TempDir())
	assert.ErrorContains(t, err, "config.toml")

	// A cancelled run stops with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	nb, err := Load(writeNotebook(t, "dice", tinyDice))
	require.NoError(t, err)
	assert.ErrorIs(t, nb.Run(ctx, Options{Registry: registry.Default(), Out: t.TempDir()}), context.Canceled)
	// The registry is the caller's: none is an error, not a default.
	assert.ErrorContains(t, nb.Run(context.Background(), Options{Out: t.TempDir()}), "no bot registry (Options.Registry is nil)")
}

func FuzzParse(f *testing.F) {
	f.Add(tinyDice)
	f.Add(tinyEngine)
	f.Add("kind = \"dice\"\n[dice]\ntable_n = -1")
	f.Fuzz(func(t *testing.T, cfg string) {
		nb, err := Parse(filepath.Join("nb", configFile), []byte(cfg))
		if err != nil {
			assert.Contains(t, err.Error(), filepath.Join("nb", configFile))
			return
		}
		assert.Contains(t, kindNames(), nb.Kind)
		assert.NotEmpty(t, nb.Title)
	})
}

// BenchmarkDiceQuick measures a quick run of the tiny dice notebook.
func BenchmarkDiceQuick(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "dice")
	require.NoError(b, os.MkdirAll(dir, 0o755))
	require.NoError(b, os.WriteFile(filepath.Join(dir, configFile), []byte(tinyDice), 0o644))
	nb, err := Load(dir)
	require.NoError(b, err)
	out := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := nb.Run(context.Background(), Options{Registry: registry.Default(), Out: out, Quick: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEngineRulesFile runs a rule set given as a file beside the config.
func TestEngineRulesFile(t *testing.T) {
	t.Parallel()
	dir := writeNotebook(t, "engine", strings.Replace(tinyEngine, `length_rules = ["classic", "fixedcards"]`,
		`length_rules = ["classic", "house.toml"]`, 1))
	rules, err := configs.Rules("fixedcards")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "house.toml"), rules, 0o644))
	nb, err := Load(dir)
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: out, Quick: true}))
	assert.Contains(t, readFile(t, filepath.Join(out, "lengths.csv")), "\nfixedcards,200,4,")
}

// fixtureDirs are the folders of the fixtures that tests share (written
// once per test binary, so not under one test's TempDir); TestMain removes
// them after the tests. The tests run in parallel: fixtureDir adds to them
// under fixtureMu.
var (
	fixtureMu   sync.Mutex
	fixtureDirs []string
)

// fixtureDir makes a new folder for a shared fixture, removed by TestMain.
func fixtureDir(name string) (string, error) {
	root, err := os.MkdirTemp("", "report-"+name+"-")
	if err != nil {
		return "", err
	}
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	fixtureDirs = append(fixtureDirs, root)
	return root, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range fixtureDirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
