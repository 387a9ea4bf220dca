package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"marslab/bots/registry"
)

func TestLearnCommand(t *testing.T) {
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
bins = 3
alpha = 0.1
gamma = 0.9
epsilon = 0.2
[eval]
seed = 2
games = 12
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
	for _, f := range []string{"curve.csv", "eval.csv", "paired.csv", "curve-win.png", "curve-return.png", "eval-win.png", "README.md"} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	data, err := os.ReadFile(filepath.Join(out, "eval.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 7)
	assert.True(t, strings.HasPrefix(lines[2], "always passive,12,"), lines[2])
	curve, err := os.ReadFile(filepath.Join(out, "curve.csv"))
	require.NoError(t, err)
	assert.Len(t, strings.Split(strings.TrimSpace(string(curve)), "\n"), 3)

	// One worker gives the same files.
	out1 := filepath.Join(dir, "out1")
	require.NoError(t, run(context.Background(), registry.Default(), []string{"learn", "-workers", "1", "-out", out1, cfg}, &so, &se))
	for _, f := range []string{"curve.csv", "eval.csv", "paired.csv"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(out1, f))
		assert.Equal(t, string(a), string(b), f)
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

func TestStrategistConfigParses(t *testing.T) {
	var so, se bytes.Buffer
	// A bad -workers fails before any work; the embedded experiment parses.
	err := run(context.Background(), registry.Default(), []string{"learn", "-workers", "-1", "../../configs/experiments/strategist.toml"}, &so, &se)
	require.ErrorContains(t, err, "-workers -1")
}

func TestLearnInterrupted(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "s.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(`seed = 1
out = "unused"
[train]
games = 100000
batch = 4
block = 4
[q]
features = ["territories"]
bins = 3
alpha = 0.1
gamma = 0.9
epsilon = 0.2
[eval]
seed = 2
games = 10
`), 0o644))
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	go func() {
		// Cancel once the progress line shows a completed block.
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
