package report

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// tinyLearn is an experiment of 30 training and 8 evaluation episodes.
const tinyLearn = `seed = 5
out = "unused"
[train]
games = 30
batch = 10
block = 15
[q]
features = ["territories", "front", "round"]
bins = 3
alpha = 0.1
gamma = 0.9
epsilon = 0.2
[eval]
seed = 6
games = 8
[env]
features = ["territories", "front", "round"]
`

const tinyStrategist = `kind = "strategist"
title = "A tiny strategist notebook"
summary = "A tiny strategist notebook."
question = "Does it run?"
seed = 5
thumbnail = "eval-win.png"
[strategist]
config = "tiny.toml"
workers = 2
[quick]
games = 10
batch = 5
block = 5
eval_games = 6
[notes]
intro = "The intro."
why = "The why."
`

func writeStrategist(t *testing.T, config string) string {
	t.Helper()
	return writeNotebook(t, "strategist", config, file{"tiny.toml", tinyLearn},
		file{"tiny-front.toml", strings.Replace(tinyLearn, `features = ["territories", "front", "round"]
bins`, `features = ["front"]
bins`, 1)},
		file{"tiny-seed.toml", strings.Replace(tinyLearn, "seed = 5", "seed = 7", 1)})
}

// tinyAblation is tinyStrategist with an ablation arm.
var tinyAblation = strings.Replace(tinyStrategist, "workers = 2\n", `workers = 2
name = "three"
[[ablation]]
name = "front only"
config = "tiny-front.toml"
`, 1)

func TestStrategistAblation(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeStrategist(t, tinyAblation), true)
	assertSameResults(t, a, b)
	assertFiles(t, a, "ablation.csv", "ablation-paired.csv")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "## What each added feature buys")
	assert.Contains(t, rep, "| three | territories, front, round | 10 | ")
	assert.Contains(t, rep, "| front only | front | 10 | ")
	assert.Contains(t, rep, "| front only | three | ")
	assert.Contains(t, rep, "- *front only* minus *three*: ")
	// The section leads with the experiment's own result against the
	// fixed strategies and the uniform choice.
	assert.Regexp(t, "## What each added feature buys\n\nOn the thesis's set-up \\(`three`\\): \\*learned\\* wins ", rep)
	assert.Contains(t, rep, "p-values Holm-corrected over all 2\n")
	rows := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "ablation.csv"))), "\n")
	require.Len(t, rows, 3)
	assert.True(t, strings.HasPrefix(rows[1], "three,territories front round,10,"), rows[1])
	// Each arm's greedy policy plays the 6 quick evaluation episodes.
	assert.Equal(t, "6", strings.Split(rows[2], ",")[4])
}

func TestStrategistAblationErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`name = "three"`, `name = ""`, "key strategist.name: missing"},
		{`config = "tiny-front.toml"`, `config = "tiny-seed.toml"`, "key ablation[0].config: tiny-seed.toml: differs from"},
		{`name = "front only"`, `name = "three"`, `key ablation[0].name: "three": used twice`},
	} {
		cfg := strings.Replace(tinyAblation, tc.from, tc.to, 1)
		require.NotEqual(t, tinyAblation, cfg, tc.from)
		_, err := Load(writeStrategist(t, cfg))
		assert.ErrorContains(t, err, tc.want)
	}
}

func TestStrategistNotebook(t *testing.T) {
	t.Parallel()
	for _, quick := range []bool{false, true} {
		a, b := runTwice(t, writeStrategist(t, tinyStrategist), quick)
		assertSameResults(t, a, b)
		assertFiles(t, a, "curve.csv", "eval.csv", "paired.csv", "curve-win.png", "curve-return.svg", "eval-win.png")
		rep := readFile(t, filepath.Join(a, ReportFile))
		games, eval := 30, 8
		if quick {
			games, eval = 10, 6
			assert.Contains(t, rep, "(quick size: train.games = 10, train.batch = 5, train.block = 5, eval.games = 6; seed 5)")
		}
		assert.Contains(t, rep, "| always aggressive | "+strconv.Itoa(eval)+" |")
		assert.Contains(t, rep, "| policy | minus | win points |")
		assert.Contains(t, rep, "p-values Holm-corrected over all 18.")
		assert.Contains(t, rep, "**Does the learner win more often than every fixed strategy?**")
		assert.Regexp(t, `\n- \*learned, exploring\* wins \d+\.\d % of its games \(95 % Wilson \[`, rep)
		assert.Contains(t, rep, ", the best fixed strategy: ")
		assert.Regexp(t, `\n- \*learned\* plays (passive|pacifist|aggressive) in \d+\.\d % of its steps; `, rep)
		assert.Regexp(t, `First block: win \d+\.\d % \[\d+\.\d %, \d+\.\d %\], mean return -?\d+\.\d; last block: `, rep)
		assert.Contains(t, rep, "| learned | learned, exploring | ")
		assert.Contains(t, rep, "| front bin | training visits |")
		assert.Contains(t, rep, "> The why.")
		// Issue 24: the intro note is printed once, in the head.
		assert.Equal(t, 1, strings.Count(rep, "The intro."), rep)
		assert.Contains(t, rep, strconv.Itoa(games)+" training episodes (games) of seed 5")
		assert.Contains(t, rep, "steps of the learner (its turns, one choice each)")
		assert.NotContains(t, rep, "What each added feature buys")
		rows := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "curve.csv"))), "\n")
		assert.Len(t, rows, 1+games/map[bool]int{false: 15, true: 5}[quick])
	}
}

func TestStrategistParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`config = "tiny.toml"`, `config = ""`, "key strategist.config: missing"},
		{`config = "tiny.toml"`, `config = "none.toml"`, "key strategist.config:"},
		{"seed = 5", "seed = 4", "key seed: 4: want the experiment's seed 5"},
		{"eval_games = 6", "eval_games = 0", "key quick.eval_games"},
		{"workers = 2", "workers = -1", "key strategist.workers"},
	} {
		dir := writeStrategist(t, strings.Replace(tinyStrategist, tc.from, tc.to, 1))
		_, err := Load(dir)
		require.Error(t, err, tc.want)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestStrategistCancelled(t *testing.T) {
	t.Parallel()
	nb, err := Load(writeStrategist(t, tinyStrategist))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, nb.Run(ctx, Options{Registry: registry.Default(), Out: t.TempDir(), Quick: true}))
}
