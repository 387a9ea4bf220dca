package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func TestRecognize(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), []string{"recognize", "../recog/experiment/testdata/small.toml",
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

	// Two shards merged give the whole run's games and tables.
	s0, s1, merged := t.TempDir(), t.TempDir(), t.TempDir()
	for i, d := range []string{s0, s1} {
		err := run(context.Background(), registry.Default(), []string{"recognize", "../recog/experiment/testdata/small.toml",
			"-out", d, "-games", "4", "-train-games", "2", "-shard", []string{"0/2", "1/2"}[i], "-quiet"}, &bytes.Buffer{}, &errb)
		require.NoError(t, err)
	}
	var mout bytes.Buffer
	// The shards trained on 2 games per arm, not the config's 3.
	err = run(context.Background(), registry.Default(), []string{"recognize", "../recog/experiment/testdata/small.toml",
		"-out", merged, "-games", "4", "-merge", s0 + "," + s1, "-quiet"}, &mout, &errb)
	assert.ErrorContains(t, err, "recognize: merge: "+filepath.Join(s0, "config.json")+" was written by another config (train_games: 2 vs 3;")
	err = run(context.Background(), registry.Default(), []string{"recognize", "../recog/experiment/testdata/small.toml",
		"-out", merged, "-games", "4", "-train-games", "2", "-merge", s0 + "," + s1, "-quiet"}, &mout, &errb)
	require.NoError(t, err)
	mg, err := os.ReadFile(filepath.Join(merged, "games.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, string(games), string(mg))
	assert.Equal(t, out.String(), mout.String())
	err = run(context.Background(), registry.Default(), []string{"recognize", "../recog/experiment/testdata/small.toml",
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
	dir := t.TempDir()
	cfg := filepath.Join(dir, "r.toml")
	small, err := os.ReadFile("../recog/experiment/testdata/small.toml")
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
