package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	if race.Enabled { // the same checks on a ladder of 30 games
		games = 30
		config = func(workers string) string {
			return strings.Replace(tinyLadder(workers), "games = 60\n", "games = 30\n", 1)
		}
	}
	one := runOnce(t, writeNotebook(t, "ladder", config("1")), false)
	two := runOnce(t, writeNotebook(t, "ladder", config("2")), false)
	csvs := []string{"ratings.csv", "holdout.csv", "headtohead.csv", "field.csv", "paired.csv"}
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
	rep := readFile(t, filepath.Join(one, ReportFile))
	for _, want := range []string{"## The ladder", "5 bots in random 3-player line-ups", "The ratings predict the held-out placements",
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
	} {
		cfg := strings.Replace(base, c.from, c.to, 1)
		require.NotEqual(t, base, cfg, c.from)
		_, err := Parse(filepath.Join(t.TempDir(), configFile), []byte(cfg))
		assert.ErrorContains(t, err, c.want, c.to)
	}
}

// TestLadderShipped: the shipped ladder notebook's config loads, with the
// MCTS bot at three budgets and every MARS set among its bots.
func TestLadderShipped(t *testing.T) {
	t.Parallel()
	nb, err := Load("../notebooks/ladder")
	require.NoError(t, err)
	c := nb.exp.(*ladderConfig)
	for _, b := range []string{"mcts", "mcts(playouts=25)", "mcts(playouts=300)", "mars@paper", "mars@paperfield", "mars@robust", "mars@tuned"} {
		assert.Contains(t, c.Ladder.Bots, b)
	}
	assert.Equal(t, []string{"evilpixie", "bort", "boscoe", "quo", "yakool"}, c.Field.Opponents)
}
