package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
)

// tinyTransfer is a transfer notebook of two sets against mars@paper on a
// grid of two rule sets, two player counts and one field of fast bots,
// every MARS seat with goal_paths = shortest (its games cost less than half
// of those under mars@paper's goal_paths = all; the test is about the
// notebook).
const tinyTransfer = `kind = "transfer"
title = "Tiny transfer"
summary = "A tiny transfer notebook."
question = "Does the transfer notebook run?"
seed = 5
thumbnail = "transfer.png"

[transfer]
reference = "mars@paper(goal_paths=shortest)"
sets = ["mars(W_p=0.5;goal_paths=shortest)", "mars@paperfield(goal_paths=shortest)"]
rules = ["mars2006", "classic"]
players = [2, 3]
blocks = 3
workers = 2

[[transfer.field]]
name = "fast"
opponents = ["angry", "aggressive"]

[quick]
blocks = 2
`

func writeTransfer(t *testing.T, cfg string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "transfer")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, configFile), []byte(cfg), 0o644))
	return dir
}

func TestTransferNotebook(t *testing.T) {
	t.Parallel()
	nb, err := Load(writeTransfer(t, tinyTransfer))
	require.NoError(t, err)
	a, b, c := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "c")
	work := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: a}))
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: b, Work: work}))
	require.NoError(t, nb.Run(t.Context(), Options{Registry: registry.Default(), Out: c, Work: work}))
	assertSameResults(t, a, b)
	assertSameResults(t, a, c)
	assert.DirExists(t, filepath.Join(work, "cell-classic-3p-fast"))
	assert.Contains(t, readFile(t, filepath.Join(c, ReportFile)), "\n0 games in ", "the second run with -work plays nothing")
	assertFiles(t, a, "transfer.csv", "transfer-overall.csv", "transfer.png", "transfer.svg", "where.txt")

	f, err := os.Open(filepath.Join(a, "transfer.csv"))
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 1+4*2, "two sets in four conditions")
	assert.Equal(t, []string{"set", "reference", "condition", "blocks", "games", "win_set", "win_reference", "diff", "lo", "hi", "p", "p_holm", "shown"}, rows[0])
	assert.Equal(t, []string{"mars(W_p=0.5;goal_paths=shortest)", "mars@paper(goal_paths=shortest)", "mars2006/2p/fast", "3", "6"}, rows[1][:5])
	assert.Equal(t, []string{"mars@paperfield(goal_paths=shortest)", "mars@paper(goal_paths=shortest)", "classic/3p/fast", "3", "9"}, rows[8][:5])
	fl := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	refs := map[string]string{}
	for _, r := range rows[1:] {
		ws, wr, d := fl(r[5]), fl(r[6]), fl(r[7])
		assert.InDelta(t, ws-wr, d, 1e-12, "equal games per block: the mean block difference is the difference of win rates")
		assert.GreaterOrEqual(t, fl(r[11]), fl(r[10]), "Holm never lowers a p-value")
		assert.LessOrEqual(t, fl(r[8]), d)
		assert.GreaterOrEqual(t, fl(r[9]), d)
		// The reference is played once per condition: both sets see the
		// same reference win rate.
		if w, ok := refs[r[2]]; ok {
			assert.Equal(t, w, r[6], r[2])
		}
		refs[r[2]] = r[6]
	}
	where := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "where.txt"))), "\n")
	require.Len(t, where, 2)
	assert.Regexp(t, `^# mars@paperfield\(goal_paths=shortest\) against mars@paper\(goal_paths=shortest\) \(notebooks/transfer, 3 fresh blocks per condition, Holm over 8 cells\): over the grid's conditions, equally weighted, [+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\]; shown better in .*; shown worse in .*; no difference shown in \d conditions\.$`, where[1])
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "| condition | mars(W_p=0.5;goal_paths=shortest) | mars@paperfield(goal_paths=shortest) |")
	assert.Contains(t, rep, "![differences from the reference](transfer.png)")
}

func TestTransferParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`reference = "mars@paper(goal_paths=shortest)"`, `reference = ""`, "key transfer.reference: missing"},
		{`sets = ["mars(W_p=0.5;goal_paths=shortest)", "mars@paperfield(goal_paths=shortest)"]`, `sets = []`, "key transfer.sets: 0 seats"},
		{`rules = ["mars2006", "classic"]`, `rules = []`, "key transfer.rules: missing"},
		{`players = [2, 3]`, `players = [2, 7]`, "key transfer.players[1]: 7 outside [2, 6]"},
		{`players = [2, 3]`, `players = [2, 4]`, "key transfer.field[0].opponents: a pool of 2 seats: want at least 3"},
		{`name = "fast"`, `name = "a b"`, "key transfer.field[0].name"},
		{"blocks = 3", "blocks = 1", "key transfer.blocks: 1 outside [2, 1048576]"},
		{"blocks = 2\n", "blocks = 0\n", "key quick.blocks: 0 outside [2, 1000]"},
		{"workers = 2", "workers = 2\nbogus = 1", "bogus"},
		{`name = "fast"`, `name = "` + strings.Repeat("f", 65) + `"`, "key transfer.field[0].name: \"" + strings.Repeat("f", 65) + "\": want a name [A-Za-z_][A-Za-z0-9_-]* of at most 64 bytes"},
		{`rules = ["mars2006", "classic"]`, `rules = ["mars2006", "` + strings.Repeat("r", 260) + `"]`, "key transfer.rules: condition " + strings.Repeat("r", 260) + "/2p/fast: its -work folder name cell-"},
		{`rules = ["mars2006", "classic"]`, `rules = ["mars2006", "mars2006"]`, `key transfer.rules[1]: mars2006 repeats entry 0: want distinct entries`},
		{`players = [2, 3]`, `players = [3, 3]`, `key transfer.players[1]: 3 repeats entry 0`},
		{`sets = ["mars(W_p=0.5;goal_paths=shortest)", "mars@paperfield(goal_paths=shortest)"]`, `sets = ["mars@paperfield(goal_paths=shortest)", "mars@paperfield(goal_paths=shortest)"]`, `key transfer.sets[1]: mars@paperfield(goal_paths=shortest) repeats entry 0`},
	} {
		_, err := Load(writeTransfer(t, strings.Replace(tinyTransfer, tc.from, tc.to, 1)))
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"mars@paperfield(goal_paths=shortest)"]`, `"angry"]`, "key transfer.sets[1]: angry is a angry seat, the reference mars@paper(goal_paths=shortest) a mars seat"},
		{`"mars@paperfield(goal_paths=shortest)"]`, `"mars@nope"]`, "key transfer.sets[1]:"},
		{`rules = ["mars2006", "classic"]`, `rules = ["nope"]`, "key rules"},
	} {
		nb, err := Load(writeTransfer(t, strings.Replace(tinyTransfer, tc.from, tc.to, 1)))
		require.NoError(t, err, tc.to)
		err = nb.Run(t.Context(), Options{Registry: registry.Default(), Out: t.TempDir(), Quick: true})
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}

// A parameter file given relative to the notebook's folder is read from
// there.
func TestSeatFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ spec, want string }{
		{"mars@paper", "mars@paper"},
		{"mars(W_p=0.5)", "mars(W_p=0.5)"},
		{"mars@tuned.toml", filepath.Join("nb", "tuned.toml")},
		{"mars@../x/best.toml(W_p=0.5)", "mars@" + filepath.Join("nb", "../x/best.toml") + "(W_p=0.5)"},
		{"mars@/abs/best.toml", "mars@/abs/best.toml"},
	} {
		want := tc.want
		if strings.HasPrefix(want, "nb") {
			want = "mars@" + want
		}
		assert.Equal(t, want, seatFile("nb", tc.spec), tc.spec)
	}
}

// The shipped transfer and robust-calibration notebooks load: every key
// in range, the search configs they name with their mixtures.
func TestShippedTransferNotebooks(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"../notebooks/transfer", "../notebooks/calibration-robust"} {
		nb, err := Load(dir)
		require.NoError(t, err, dir)
		assert.NotEmpty(t, nb.Title)
	}
	nb, err := Load("../notebooks/transfer")
	require.NoError(t, err)
	tc := nb.exp.(*transferConfig)
	assert.Len(t, tc.conditions(), 27)
	assert.Equal(t, "mars2006-escalating/6p/lux", tc.conditions()[15].Name())
}

// TestTransferShards plays a transfer notebook in two shards into one work
// folder, neither writing a report, then reads them back in a run without a
// shard: its results are those of one run, and it plays no game.
func TestTransferShards(t *testing.T) {
	t.Parallel()
	dir := writeTransfer(t, tinyTransfer)
	nb, err := Load(dir)
	require.NoError(t, err)
	reg := registry.Default()
	one, sharded, work := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "sharded"), t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Registry: reg, Out: one}))
	// Conditions 0 and 2 in shard 0, 1 and 3 in shard 1.
	conds := []string{"mars2006-2p-fast", "mars2006-3p-fast", "classic-2p-fast", "classic-3p-fast"}
	for i := range 2 {
		require.NoError(t, nb.Run(t.Context(), Options{Registry: reg, Out: sharded, Work: work, Shard: arena.Shard{Index: i, Count: 2}}))
		assert.NoFileExists(t, filepath.Join(sharded, ReportFile), "a shard writes no report")
		for c, name := range conds {
			if c%2 <= i {
				assert.DirExists(t, filepath.Join(work, "cell-"+name), "after shard %d", i)
			} else {
				assert.NoDirExists(t, filepath.Join(work, "cell-"+name), "after shard %d", i)
			}
		}
	}
	require.NoError(t, nb.Run(t.Context(), Options{Registry: reg, Out: sharded, Work: work}))
	assertSameResults(t, one, sharded)
	assert.Contains(t, readFile(t, filepath.Join(sharded, ReportFile)), "\n0 games in ", "every game is read back")

	err = nb.Run(t.Context(), Options{Registry: reg, Out: t.TempDir(), Shard: arena.Shard{Index: 0, Count: 2}})
	assert.ErrorContains(t, err, "a shard keeps its part in the work folder, and none is given")
	err = nb.Run(t.Context(), Options{Registry: reg, Out: t.TempDir(), Work: t.TempDir(), Shard: arena.Shard{Index: 2, Count: 2}})
	assert.ErrorContains(t, err, "shard 2/2: want 0 <= index < count")
	dice, err := Load(writeNotebook(t, "dice", tinyDice))
	require.NoError(t, err)
	err = dice.Run(t.Context(), Options{Registry: reg, Out: t.TempDir(), Work: t.TempDir(), Shard: arena.Shard{Index: 0, Count: 2}})
	assert.ErrorIs(t, err, errNoShards)
}

// TestShippedWhereLines checks that every embedded parameter set the
// transfer notebook compares carries, in its file's comments, the line
// the notebook wrote for it (where.txt): the comments say where the set is
// shown better and worse, as the last regeneration measured.
func TestShippedWhereLines(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSpace(readFile(t, "../notebooks/transfer/where.txt")), "\n")
	nb, err := Load("../notebooks/transfer")
	require.NoError(t, err)
	sets := nb.exp.(*transferConfig).Transfer.Sets
	require.Len(t, lines, len(sets), "one line per set")
	for i, set := range sets {
		require.True(t, strings.HasPrefix(lines[i], "# "+set+" against "), "line %d is %s's: %s", i, set, lines[i])
		name, ok := strings.CutPrefix(set, "mars@")
		if !ok || strings.ContainsAny(name, `/\(`) || strings.HasSuffix(name, ".toml") {
			continue // not an embedded set
		}
		shipped := readFile(t, "../configs/bots/mars-"+name+".toml")
		assert.Contains(t, shipped, lines[i]+"\n", "configs/bots/mars-%s.toml lacks the transfer notebook's line", name)
	}
}
