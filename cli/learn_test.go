package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	lexp "github.com/marslab-risk/marslab/internal/strategist"
)

// qLearner is the [q] learner's settings of the test experiments.
const qLearner = "bins = 3\nalpha = 0.1\ngamma = 0.9\nepsilon = 0.2\n"

func TestLearnCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "s.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(`seed = 1
out = "unused"
[env]
[train]
games = 24
batch = 6
block = 12
[q]
features = ["territories", "round"]
`+qLearner+`[eval]
seed = 2
games = 6
`), 0o644))
	out := filepath.Join(dir, "out")
	var so, se bytes.Buffer
	err := run(context.Background(), registry.Default(), []string{"learn", "-workers", "2", "-out", out, cfg}, &so, &se)
	require.NoError(t, err)
	for _, want := range []string{"learned", "always passive", "always pacifist", "always aggressive", "uniform random",
		"learned minus always aggressive", "learned, exploring minus uniform random", "learned wins more often than every fixed strategy: "} {
		assert.Contains(t, so.String(), want)
	}
	assert.Contains(t, se.String(), "train: 24/24 games")
	// Issue 25, item 15: stderr is no terminal here: one plain line per
	// block of 12 games, no carriage return.
	assert.NotContains(t, se.String(), "\r")
	assert.Regexp(t, `^train: 12/24 games, \d+ games/s, last block: mean return -?[\d.]+, win [\d.]+ %\ntrain: 24/24 games, `, se.String())
	assert.Equal(t, 2, strings.Count(se.String(), "\n"), se.String())
	for _, f := range []string{"curve.csv", "eval.csv", "paired.csv", "curve-win.png", "curve-return.png", "eval-win.png", "README.md"} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	data, err := os.ReadFile(filepath.Join(out, "eval.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 7)
	assert.True(t, strings.HasPrefix(lines[2], "always passive,6,"), lines[2])
	// The CSV reads back: "learned, exploring" is one quoted field.
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, "learned, exploring", recs[6][0])
	assert.True(t, strings.HasPrefix(lines[6], `"learned, exploring",6,`), lines[6])
	curve, err := os.ReadFile(filepath.Join(out, "curve.csv"))
	require.NoError(t, err)
	assert.Len(t, strings.Split(strings.TrimSpace(string(curve)), "\n"), 3)

	// One worker gives the same files (a check of determinism, not of
	// races: make test-full runs it).
	if !race.Enabled {
		out1 := filepath.Join(dir, "out1")
		require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-workers", "1", "-out", out1, cfg}, &so, &se))
		for _, f := range []string{"curve.csv", "eval.csv", "paired.csv"} {
			a, _ := os.ReadFile(filepath.Join(out, f))
			b, _ := os.ReadFile(filepath.Join(out1, f))
			assert.Equal(t, string(a), string(b), f)
		}
	}

	// The DQN learner through the same command.
	data, err = os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, append([]byte("learner = \"dqn\"\n"), append(data, []byte("[dqn]\nhidden = [8]\ntrain_every = 4\n")...)...), 0o644))
	outD := filepath.Join(dir, "outd")
	require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-out", outD, cfg}, &so, &se))
	assert.FileExists(t, filepath.Join(outD, "paired.csv"))

	require.NoError(t, os.WriteFile(cfg, []byte("seed = 1\n"), 0o644))
	err = run(context.Background(), registry.Default(), []string{"learn", cfg}, &so, &se)
	require.ErrorContains(t, err, "key train.games: missing")
	err = run(context.Background(), registry.Default(), []string{"learn"}, &so, &se)
	require.ErrorContains(t, err, "learn: want one CONFIG")
}

// TestStrategistConfigParses reads every shipped learning experiment and
// checks its sizes; a bad -workers fails before the config is read.
func TestStrategistConfigParses(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../configs/experiments/strategist*.toml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		e, err := lexp.LoadExperiment(f)
		require.NoError(t, err, f)
		assert.Positive(t, e.Train.Games, f)
		assert.Positive(t, e.EvalGames, f)
		assert.NotEqual(t, e.Train.Seed, e.EvalSeed, "%s: the evaluation plays fresh seeds", f)
		assert.Contains(t, []string{"q", "dqn"}, e.Learner, f)
	}
	var so, se bytes.Buffer
	err = run(context.Background(), registry.Default(), []string{"learn", "-workers", "-1", files[0]}, &so, &se)
	require.ErrorContains(t, err, "-workers -1")
}

// cancelAtFirstBlock returns a writer for marslab learn's progress that
// calls cancel once the progress line shows a completed block; close it
// after the run.
func cancelAtFirstBlock(cancel context.CancelFunc) *io.PipeWriter {
	pr, pw := io.Pipe()
	go func() {
		buf := make([]byte, 4096)
		var seen strings.Builder
		for {
			n, err := pr.Read(buf)
			seen.Write(buf[:n])
			if strings.Contains(seen.String(), "last block") {
				cancel()
				_, _ = io.Copy(io.Discard, pr)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return pw
}

func TestLearnInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := writeQConfig(t, dir, 100000, 4)
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	pw := cancelAtFirstBlock(cancel)
	var so bytes.Buffer
	err := run(ctx, registry.Default(), []string{"learn", "-workers", "1", "-out", out, cfg}, &so, pw)
	pw.Close()
	cancel()
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "wrote the training curve of the first")
	data, rerr := os.ReadFile(filepath.Join(out, "curve.csv"))
	require.NoError(t, rerr)
	assert.GreaterOrEqual(t, len(strings.Split(strings.TrimSpace(string(data)), "\n")), 2)
	assert.NoFileExists(t, filepath.Join(out, "eval.csv"))
}

// Ctrl-C, then -resume, gives the files of an uninterrupted run; -policy
// evaluates the saved policy as the trained one was.
func TestLearnResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// 20 blocks of 8 games (10 under the race detector): the interrupted
	// run is cancelled as its first block ends, 19 (9) blocks before the
	// end (it fails below if it finished).
	games := 160
	if race.Enabled {
		games = 80
	}
	cfg := writeQConfig(t, dir, games, 8)
	full, cut := filepath.Join(dir, "full"), filepath.Join(dir, "cut")
	var so, se bytes.Buffer
	require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-workers", "2", "-out", full, cfg}, &so, &se))
	assert.NoFileExists(t, filepath.Join(full, "checkpoint.bin"))

	err := run(context.Background(), registry.Default(), []string{"learn", "-resume", "-out", cut, cfg}, &so, &se)
	require.ErrorContains(t, err, "no checkpoint "+filepath.Join(cut, "checkpoint.bin"))

	ctx, cancel := context.WithCancel(context.Background())
	pw := cancelAtFirstBlock(cancel)
	err = run(ctx, registry.Default(), []string{"learn", "-workers", "1", "-out", cut, cfg}, &so, pw)
	pw.Close()
	cancel()
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "run again with -resume")
	assert.FileExists(t, filepath.Join(cut, "checkpoint.bin"))
	assert.NoFileExists(t, filepath.Join(cut, "eval.csv"))
	ckpt, err := os.ReadFile(filepath.Join(cut, "checkpoint.bin"))
	require.NoError(t, err)

	// The same command without -resume does not train over the run.
	err = run(context.Background(), registry.Default(), []string{"learn", "-workers", "1", "-out", cut, cfg}, &so, &se)
	assert.EqualError(t, err, "learn: "+cut+" already holds a learning run (checkpoint.bin): use -resume to continue it, or another output directory")
	// A damaged checkpoint (one flipped bit) is refused.
	flipped := bytes.Clone(ckpt)
	flipped[len(flipped)*2/3] ^= 0x04
	require.NoError(t, os.WriteFile(filepath.Join(cut, "checkpoint.bin"), flipped, 0o644))
	err = run(context.Background(), registry.Default(), []string{"learn", "-resume", "-workers", "2", "-out", cut, cfg}, &so, &se)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "learn: checkpoint "+filepath.Join(cut, "checkpoint.bin")+": damaged: the file records SHA-256 "), err.Error())
	require.NoError(t, os.WriteFile(filepath.Join(cut, "checkpoint.bin"), ckpt, 0o644))

	require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-resume", "-workers", "2", "-out", cut, cfg}, &so, &se))
	assert.NoFileExists(t, filepath.Join(cut, "checkpoint.bin"))
	for _, f := range []string{"curve.csv", "policy.json", "eval.csv", "paired.csv"} {
		a, err := os.ReadFile(filepath.Join(full, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(cut, f))
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), f)
	}

	evalOut := filepath.Join(dir, "eval")
	so.Reset()
	require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-policy", filepath.Join(full, "policy.json"), "-out", evalOut, cfg}, &so, &se))
	assert.Contains(t, so.String(), "learned minus always aggressive")
	for _, f := range []string{"eval.csv", "paired.csv"} {
		a, _ := os.ReadFile(filepath.Join(full, f))
		b, _ := os.ReadFile(filepath.Join(evalOut, f))
		assert.Equal(t, string(a), string(b), f)
	}
	assert.NoFileExists(t, filepath.Join(evalOut, "curve.csv"))
	readme, err := os.ReadFile(filepath.Join(evalOut, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), "the policy was loaded from")

	err = run(context.Background(), registry.Default(), []string{"learn", "-resume", "-policy", "x.json", cfg}, &so, &se)
	require.ErrorContains(t, err, "-resume and -policy")
	// -policy does not write over a trained run, nor over an evaluation.
	before, err := os.ReadFile(filepath.Join(full, "eval.csv"))
	require.NoError(t, err)
	for _, tc := range []struct{ out, file string }{{full, "policy.json"}, {evalOut, "eval.csv"}} {
		err = run(context.Background(), registry.Default(), []string{"learn", "-policy", filepath.Join(full, "policy.json"), "-out", tc.out, cfg}, &so, &se)
		assert.EqualError(t, err, "learn: -policy: "+tc.out+" already holds a learning run ("+tc.file+"): evaluate into another output directory (-out)")
	}
	after, err := os.ReadFile(filepath.Join(full, "eval.csv"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	err = run(context.Background(), registry.Default(), []string{"learn", "-policy", filepath.Join(dir, "none.json"), cfg}, &so, &se)
	require.ErrorContains(t, err, "none.json")
	// A policy of another environment is refused, naming the file.
	bad := filepath.Join(dir, "bad.toml")
	data, _ := os.ReadFile(cfg)
	require.NoError(t, os.WriteFile(bad, append(data, []byte("[env]\nactions = [\"passive\", \"aggressive\"]\n")...), 0o644))
	err = run(context.Background(), registry.Default(), []string{"learn", "-policy", filepath.Join(full, "policy.json"), bad}, &so, &se)
	require.ErrorContains(t, err, "policy.json: key actions")
}

// writeQConfig writes a small Q-learning experiment into dir (training
// games in batches of 4, curve blocks of block games, 10 evaluation games)
// and returns its path.
func writeQConfig(t *testing.T, dir string, games, block int) string {
	t.Helper()
	cfg := filepath.Join(dir, "s.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`seed = 1
out = "unused"
[train]
games = %d
batch = 4
block = %d
[q]
features = ["territories"]
`+qLearner+`[eval]
seed = 2
games = 10
`, games, block)), 0o644))
	return cfg
}
