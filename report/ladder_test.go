package report

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
)

// tinyLadder is a ladder of five quick bots (mcts at a tiny budget among
// them), three per game, and a field of two challengers against two
// opponents.
func tinyLadder(workers string) string {
	return `kind = "ladder"
title = "Ladder test"
summary = "A tiny ladder."
question = "Does it run?"
seed = 5
thumbnail = "ratings.png"

[ladder]
bots = ["aggressive", "pacifist", "random", "cautious", "mcts(playouts=2;depth=1)"]
rules = "mars2006"
players = 3
games = 60
workers = ` + workers + `
holdout = 0.5

[field]
challengers = ["mcts(playouts=2;depth=1)", "cautious"]
opponents = ["aggressive", "random"]
games = 12
reference = 35
reference_source = "a paper"

[curve]
bot = "mcts"
param = "playouts"
values = [1, 2]

[quick]
games = 10
field_games = 3

[notes]
field = "The challengers play the same deals."
`
}

// TestLadderNotebook: the ladder's CSV files are byte-identical with one
// and with two workers; the report holds the ratings, the held-out check,
// the head-to-head matrix and the field with its generated sentences.
func TestLadderNotebook(t *testing.T) {
	t.Parallel()
	games, config := 60, tinyLadder
	if race.Enabled { // the same checks on a ladder of 30 games, played once
		games = 30
		config = func(workers string) string {
			return strings.Replace(tinyLadder(workers), "games = 60\n", "games = 30\n", 1)
		}
	}
	two := runOnce(t, writeNotebook(t, "ladder", config("2")), false)
	one := two // as in runTwice: make test-full compares one worker with two
	if !race.Enabled {
		one = runOnce(t, writeNotebook(t, "ladder", config("1")), false)
	}
	csvs := []string{"ratings.csv", "holdout.csv", "headtohead.csv", "field.csv", "paired.csv", "curve.csv"}
	assertFiles(t, one, append(csvs, "README.md", "ratings.png", "ratings.svg", "timings.csv")...)
	for _, name := range csvs {
		a, err := os.ReadFile(filepath.Join(one, name))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(two, name))
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), name)
	}
	ratings := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(one, "ratings.csv"))), "\n")
	require.Len(t, ratings, 6, "a header and five bots")
	seats := 0
	for _, row := range ratings[1:] {
		f := strings.Split(row, ",")
		n := 0
		for _, c := range f[7] {
			n = 10*n + int(c-'0')
		}
		seats += n
	}
	assert.Equal(t, games*3, seats, "every seat of every game is rated")
	field := readFile(t, filepath.Join(one, "field.csv"))
	assert.Contains(t, field, "mcts(playouts=2;depth=1),12,")
	assert.Contains(t, field, "cautious,12,")
	// The curve's point at playouts=2 is the first challenger's
	// configuration only if depth matches: it does not (depth=1 there), so
	// both points are played; playouts=1 and 2 on the field's deals.
	curve := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(one, "curve.csv"))), "\n")
	require.Len(t, curve, 3, "a header and two points")
	assert.Equal(t, "playouts,games,wins,win %,lo %,hi %,decisions per game,default", curve[0])
	for i, row := range curve[1:] {
		f := strings.Split(row, ",")
		require.Len(t, f, 8)
		assert.Equal(t, []string{strconv.Itoa(i + 1), "12", "no"}, []string{f[0], f[1], f[7]})
		dec, err := strconv.ParseFloat(f[6], 64)
		require.NoError(t, err)
		assert.Positive(t, dec, "mcts reports its searched decisions")
	}
	timings := readFile(t, filepath.Join(one, timingsFile))
	assert.Contains(t, timings, "ms_per_decision,curve/playouts=1,")
	assert.Contains(t, timings, "s_per_game,curve/playouts=2,")
	rep := readFile(t, filepath.Join(one, ReportFile))
	for _, want := range []string{"## Budget and strength", "`mcts` wins ", "of 12 games each (playouts = value)",
		"## The ladder", "5 bots in random 3-player line-ups", "The ratings predict the held-out placements",
		"## Head to head", "Each challenger plays 12 3-player games against aggressive, random",
		"a paper's 35 % lies", "on the same 12 deals", "> The challengers play the same deals."} {
		assert.Contains(t, rep, want)
	}
}

func TestLadderConfigErrors(t *testing.T) {
	t.Parallel()
	base := tinyLadder("1")
	for _, c := range []struct{ from, to, want string }{
		{`players = 3`, `players = 7`, "ladder.players: 7 outside [2, 5]"},
		{`games = 60`, `games = 1`, "ladder.games: 1 outside [2, "},
		{`holdout = 0.5`, `holdout = 1`, "ladder.holdout: 1 outside (0, 1)"},
		{`opponents = ["aggressive", "random"]`, `opponents = []`, "field.opponents: 0 opponents: want 1..5"},
		{`reference = 35`, `reference = 135`, "field.reference: 135 outside [0, 100]"},
		{`field_games = 3`, `field_games = 13`, "quick.field_games: 13 outside [1, 12]"},
		{`rules = "mars2006"`, `rules = ""`, "ladder.rules"},
		{`bot = "mcts"`, `bot = "mcts(depth=2)"`, "curve.bot"},
		{`bot = "mcts"`, `bot = ""`, "curve.bot"},
		{`values = [1, 2]`, `values = []`, "curve.values: 0 values"},
	} {
		cfg := strings.Replace(base, c.from, c.to, 1)
		require.NotEqual(t, base, cfg, c.from)
		_, err := Parse(filepath.Join(t.TempDir(), configFile), []byte(cfg))
		assert.ErrorContains(t, err, c.want, c.to)
	}
}

// TestLadderShipped: the shipped ladder notebook's config loads, with the
// MCTS bot at three budgets and every MARS set among its bots, and the
// budget/strength curve of mcts through its default.
func TestLadderShipped(t *testing.T) {
	t.Parallel()
	nb, err := Load("../notebooks/ladder")
	require.NoError(t, err)
	c := nb.exp.(*ladderConfig)
	for _, b := range []string{"mcts", "mcts(playouts=25)", "mcts(playouts=100)", "mars@paper", "mars@paperfield", "mars@robust", "mars@strong", "mars@tuned"} {
		assert.Contains(t, c.Ladder.Bots, b)
	}
	assert.Equal(t, []string{"evilpixie", "bort", "boscoe", "quo", "yakool"}, c.Field.Opponents)
	assert.Equal(t, "mcts", c.Field.Challengers[0])
	assert.Equal(t, "mcts", c.Curve.Bot)
	assert.Equal(t, "playouts", c.Curve.Param)
	assert.Contains(t, c.Curve.Values, 400.0, "the curve holds the default budget")
}

// TestLadderCurveReuse: a point of the curve whose configuration is a
// challenger's reuses the challenger's games (the curve plays none: its
// wall time is 0, and its row is the challenger's); a parameter the bot
// does not have is an error naming the key before any game is played.
func TestLadderCurveReuse(t *testing.T) {
	cfg := strings.Replace(tinyLadder("1"), `challengers = ["mcts(playouts=2;depth=1)", "cautious"]`, `challengers = ["mcts(depth=1;playouts=2)", "cautious"]`, 1)
	cfg = strings.Replace(cfg, `bot = "mcts"`, `bot = "mcts(depth=1)"`, 1)
	_, err := Parse(filepath.Join(t.TempDir(), configFile), []byte(cfg))
	require.ErrorContains(t, err, "curve.bot", "inline parameters are refused")

	cfg = strings.Replace(tinyLadder("1"), `challengers = ["mcts(playouts=2;depth=1)", "cautious"]`, `challengers = ["mcts(playouts=2)", "cautious"]`, 1)
	cfg = strings.Replace(cfg, `values = [1, 2]`, `values = [2]`, 1)
	nb, err := Load(writeNotebook(t, "ladder", cfg))
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: out, Quick: true}))
	field := strings.Split(readFile(t, filepath.Join(out, "field.csv")), "\n")[1]
	curve := strings.Split(readFile(t, filepath.Join(out, "curve.csv")), "\n")[1]
	ff, cf := strings.Split(field, ","), strings.Split(curve, ",")
	assert.Equal(t, "mcts(playouts=2)", ff[0])
	assert.Equal(t, ff[1:6], cf[1:6], "the curve's row is the challenger's")
	assert.Contains(t, readFile(t, filepath.Join(out, timingsFile)), "curve_seconds,curve,0,s")

	bad := strings.Replace(tinyLadder("1"), `param = "playouts"`, `param = "playoutz"`, 1)
	nb, err = Load(writeNotebook(t, "ladder", bad))
	require.NoError(t, err)
	err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: filepath.Join(t.TempDir(), "bad"), Quick: true})
	require.ErrorContains(t, err, "key curve.values[0]")
	assert.ErrorContains(t, err, "playoutz")
}
