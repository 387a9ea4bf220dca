package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// checkRecognizeCSV checks the CSV files marslab recognize wrote into dir
// for the run of TestRecognize (4 games of each of two six-player arms)
// against the tables it printed (out).
func checkRecognizeCSV(t *testing.T, dir, out string) {
	t.Helper()
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		require.NoError(t, err, name)
		require.NotEmpty(t, rows, name)
		return rows
	}
	for _, tc := range []struct {
		name   string
		header string
	}{
		{"accuracy.csv", "counting,recogniser,arm,players,percent_of_game,correct,n,ties,accuracy,wilson_lo,wilson_hi"},
		{"length.csv", "arm,min_turns,correct,n,ties,accuracy,wilson_lo,wilson_hi"},
		{"missions.csv", "recogniser,arm,players,mission,correct,n,ties,accuracy,wilson_lo,wilson_hi"},
		{"pairs.csv", "arm,x,y,both,only_x,only_y,neither,diff,lo,hi,p_mcnemar,p_holm"},
	} {
		assert.Equal(t, tc.header, strings.Join(read(tc.name)[0], ","), tc.name)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	seen := map[string]bool{}
	for _, row := range read("accuracy.csv")[1:] {
		require.Len(t, row, 11)
		key := strings.Join(row[:5], ",")
		assert.False(t, seen[key], "row %s twice", key)
		seen[key] = true
		correct, n := num(row[5]), num(row[6])
		// Every player of the four six-player games of an arm, one winner each.
		want := map[string]float64{"all": 24, "winners": 4, "losers": 20}[row[3]]
		assert.Equal(t, want, n, key)
		assert.InDelta(t, correct/n, num(row[8]), 1e-12, key)
		assert.LessOrEqual(t, num(row[9]), num(row[8]), key)
		assert.GreaterOrEqual(t, num(row[10]), num(row[8]), key)
		// The paper's counting's end of the game is the printed table's
		// 100 % column: "correct/incorrect acc [lo, hi]".
		if row[0] == "paper" && row[1] == "phatt" && row[3] == "all" && row[4] == "100" {
			cell := fmt.Sprintf("%d/%d %.1f [%.1f, %.1f]", int(correct), int(n-correct), 100*num(row[8]), 100*num(row[9]), 100*num(row[10]))
			assert.Contains(t, out, "| "+row[2]+" | ours | ", key)
			assert.Regexp(t, `\| `+row[2]+` \| ours \| [^\n]*\| `+regexp.QuoteMeta(cell)+` \| [^|]+ \| [^|]+ \|\n`, out, key)
		}
	}
	for _, arm := range []string{"w4", "constrained"} {
		for _, c := range []string{"paper", "ours"} {
			assert.True(t, seen[c+",phatt,"+arm+",all,100"], "%s %s", c, arm)
			assert.True(t, seen[c+",phatt-state,"+arm+",winners,5"], "%s %s", c, arm)
		}
	}
	assert.Len(t, seen, 4*2*3*2*20, "recognisers that ran × arms × player groups × countings × 5 %% steps")
	pairs := read("pairs.csv")
	assert.Equal(t, []string{"w4", "phatt", "phatt-state"}, pairs[1][:3])
	for _, row := range pairs[1:] {
		// both + only_x + only_y + neither: every player-game of the arm (or of both arms, pooled).
		total := num(row[3]) + num(row[4]) + num(row[5]) + num(row[6])
		assert.Contains(t, []float64{24, 48}, total, row)
	}
}

func TestRecognize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), []string{"recognize", "../internal/recognition/testdata/small.toml",
		"-out", dir, "-games", "4", "-train-games", "2", "-workers", "2"}, &out, &errb)
	require.NoError(t, err, errb.String())
	assert.Contains(t, out.String(), "Random guess: 16.67 % (1 of 6 continent cards).")
	assert.Contains(t, out.String(), "- arm w4: 4 games")
	assert.Contains(t, out.String(), "## phatt-state\n")
	assert.Contains(t, out.String(), "### Accuracy per mission at the end of the game (all players)\n\n| mission | w4 | constrained |")
	assert.Contains(t, out.String(), "| arm | players | source | 25 % | 50 % | 75 % | 100 % | ties at 100 % |")
	assert.Regexp(t, `- On w4, phatt names "[^"]+" best at the end of the game, \d+\.\d % \[`, out.String())
	assert.Regexp(t, `- At the end of the game phatt ranks the arms (w4|constrained) `, out.String())
	assert.Contains(t, out.String(), "## Paired comparisons at the end of the game")
	assert.Contains(t, out.String(), "Counting: paper's clock (setup steps counted), ties wrong, the end at the last turn's end before it.")
	assert.Contains(t, out.String(), "## phatt at the end of the game: the paper's counting (X) against one rule changed (Y), paired")
	assert.Contains(t, out.String(), "| last turn's end | after the last action | w4 |")
	assert.Contains(t, out.String(), "| tie wrong | tie broken at random | constrained |")
	assert.Contains(t, errb.String(), "training the data model on 2 games per arm")
	tables, err := os.ReadFile(filepath.Join(dir, "tables.txt"))
	require.NoError(t, err)
	assert.Equal(t, out.String(), string(tables))
	games, err := os.ReadFile(filepath.Join(dir, "games.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 8, bytes.Count(games, []byte("\n")))
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(md), "Counting: paper's clock (setup steps counted), ties wrong, the end at the last turn's end before it.")
	assert.Contains(t, string(md), "| recogniser | w4 50 % | w4 100 % | constrained 50 % | constrained 100 % |")
	assert.Contains(t, string(md), "| rule (X: the paper's) | Y | arm |")
	assert.Regexp(t, `\| last turn's end \| after the last action \| w4 \| \d+\.\d \| \d+\.\d \| \d+ \| \d+ \| [+-]\d+\.\d \| \[[+-]\d+\.\d, [+-]\d+\.\d\] \|`, string(md))
	checkRecognizeCSV(t, dir, out.String())
	for _, f := range []string{"accuracy", "winners-losers", "recognisers-w4", "recognisers-constrained"} {
		for _, ext := range []string{".png", ".svg"} {
			assert.FileExists(t, filepath.Join(dir, f+ext))
		}
	}

	// Two shards merged give the whole run's games and tables.
	s0, s1, merged := t.TempDir(), t.TempDir(), t.TempDir()
	for i, d := range []string{s0, s1} {
		err := run(context.Background(), registry.Default(), []string{"recognize", "../internal/recognition/testdata/small.toml",
			"-out", d, "-games", "4", "-train-games", "2", "-shard", []string{"0/2", "1/2"}[i], "-quiet", "-figures=false"}, &bytes.Buffer{}, &errb)
		require.NoError(t, err)
		assert.FileExists(t, filepath.Join(d, "accuracy.csv"))
		assert.NoFileExists(t, filepath.Join(d, "accuracy.png"))
	}
	var mout bytes.Buffer
	// The shards trained on 2 games per arm, not the config's 3.
	err = run(context.Background(), registry.Default(), []string{"recognize", "../internal/recognition/testdata/small.toml",
		"-out", merged, "-games", "4", "-merge", s0 + "," + s1, "-quiet"}, &mout, &errb)
	assert.ErrorContains(t, err, "recognize: merge: "+filepath.Join(s0, "config.json")+" was written by another config (train_games: 2 vs 3;")
	err = run(context.Background(), registry.Default(), []string{"recognize", "../internal/recognition/testdata/small.toml",
		"-out", merged, "-games", "4", "-train-games", "2", "-merge", s0 + "," + s1, "-quiet"}, &mout, &errb)
	require.NoError(t, err)
	mg, err := os.ReadFile(filepath.Join(merged, "games.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, string(games), string(mg))
	assert.Equal(t, out.String(), mout.String())
	err = run(context.Background(), registry.Default(), []string{"recognize", "../internal/recognition/testdata/small.toml",
		"-out", t.TempDir(), "-games", "4", "-train-games", "2", "-merge", s0, "-quiet"}, &mout, &errb)
	assert.ErrorContains(t, err, "merge: game 1 of arm w4 is in no shard")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "recognize: want one CONFIG file, have 0 arguments"},
		{[]string{"x.toml", "-workers", "-1"}, "recognize: -workers -1: must be >= 0"},
		{[]string{"x.toml", "-games", "-2"}, "recognize: -games -2: must be in [0, 1000000]"},
		{[]string{"no/such.toml"}, "recognize: open no/such.toml"},
		{[]string{"x.toml", "-shard", "2/2"}, "recognize: -shard"},
		{[]string{"x.toml", "-end", "round"}, `recognize: -end "round": want turn or game`},
	} {
		err := run(context.Background(), registry.Default(), append([]string{"recognize"}, tc.args...), &out, &errb)
		assert.ErrorContains(t, err, tc.want)
	}
}

// TestRecognizeOwnsOut: a second run into the folder of a run is refused
// without -resume and leaves it as it was; -resume with an edited config
// (w_success) is refused before anything is played; negative seeds are
// refused.
func TestRecognizeOwnsOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "r.toml")
	small, err := os.ReadFile("../internal/recognition/testdata/small.toml")
	require.NoError(t, err)
	abs, err := filepath.Abs("../configs/experiments/phatt-missions.toml")
	require.NoError(t, err)
	base := strings.Replace(string(small), `rules = "../../../configs/experiments/phatt-missions.toml"`, "rules = "+strconv.Quote(abs), 1)
	require.NoError(t, os.WriteFile(cfg, []byte(base), 0o644))
	out := filepath.Join(dir, "out")
	args := []string{"recognize", cfg, "-out", out, "-games", "4", "-train-games", "1", "-quiet"}
	require.NoError(t, run(context.Background(), registry.Default(), args, &bytes.Buffer{}, &bytes.Buffer{}))
	games, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
	require.NoError(t, err)

	err = run(context.Background(), registry.Default(), []string{"recognize", cfg, "-out", out, "-games", "2", "-quiet"}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.EqualError(t, err, "recognize: "+out+" already holds a recognition run (config.json): use -resume to continue it, or another output directory")

	require.NoError(t, os.WriteFile(cfg, []byte(base+"[phatt]\nw_success = 0.5\n"), 0o644))
	err = run(context.Background(), registry.Default(), append(args, "-resume"), &bytes.Buffer{}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "recognize: resume: "+filepath.Join(out, "config.json")+" was written by another config (phatt.w_success: 0.02 vs 0.5;")
	got, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, string(games), string(got), "games.jsonl untouched")

	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(base, "seed = 1\n", "seed = -1\n", 1)), 0o644))
	err = run(context.Background(), registry.Default(), []string{"recognize", cfg, "-out", filepath.Join(dir, "neg")}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.EqualError(t, err, "recognize: "+cfg+": key seed: -1: want >= 0")
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(base, "train_seed = 2\n", "train_seed = -3\n", 1)), 0o644))
	err = run(context.Background(), registry.Default(), []string{"recognize", cfg, "-out", filepath.Join(dir, "neg")}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.EqualError(t, err, "recognize: "+cfg+": key train_seed: -3: want >= 0")
	assert.NoDirExists(t, filepath.Join(dir, "neg"))

	require.NoError(t, os.WriteFile(cfg, []byte(base), 0o644))
	err = run(context.Background(), registry.Default(), []string{"recognize", cfg, "-out", filepath.Join(dir, "m"), "-merge", out, "-resume"}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.EqualError(t, err, "recognize: -merge and -resume exclude each other (a merge writes its folder again)")
	require.NoError(t, os.WriteFile(cfg, []byte(strings.Replace(base, `out = "unused"`, "", 1)), 0o644))
	err = run(context.Background(), registry.Default(), []string{"recognize", cfg}, &bytes.Buffer{}, &bytes.Buffer{})
	assert.EqualError(t, err, "recognize: -out: an output directory is required ("+cfg+" has no out key)")
}
