package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// tinyRecognition is a recognition notebook over the small experiment of
// package internal/recognition's tests.
const tinyRecognition = `kind = "recognition"
title = "Recognition"
summary = "A tiny recognition run."
question = "Are the tables right?"
seed = 3
thumbnail = "accuracy.png"

[recognition]
config = "small.toml"
games = 4
train_games = 2
workers = 2
compare = ["constrained", "w4"]
tolerance = 15
differences = [{name = "Constrained play", base = "w4", variant = "constrained"}]

[quick]
games = 2
train_games = 1

[paper]
source = "the paper"

[paper.arms.w4]
name = "A.I. weight 4"
winners = [[35, 132], [43, 124], [37, 130], [37, 130]]
losers = [[176, 659], [203, 632], [189, 646], [198, 637]]
missions = [[34, 133], [88, 79], [28, 139], [49, 118], [27, 140], [9, 158]]

[notes]
general = "PHATT beats a guess."
`

func writeRecognition(t *testing.T, config string) string {
	t.Helper()
	small, err := os.ReadFile("../internal/recognition/testdata/small.toml")
	require.NoError(t, err)
	rules, err := filepath.Abs("../configs/experiments/phatt-missions.toml")
	require.NoError(t, err)
	text := strings.Replace(string(small), `"../../../configs/experiments/phatt-missions.toml"`, `"`+filepath.ToSlash(rules)+`"`, 1)
	return writeNotebook(t, "recognition", config, file{"small.toml", text})
}

func TestRecognitionNotebook(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeRecognition(t, tinyRecognition), false)
	assertSameResults(t, a, b)
	assertFiles(t, a, "accuracy.csv", "missions.csv", "pairs.csv", "paper.csv", "accuracy.png",
		"winners-losers.svg", "recognisers-w4.png", "recognisers-constrained.svg", "convergence.png", "length.csv")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "(full size: 2 arms, 4 test games and 2 training games per arm; seed 3)")
	assert.Contains(t, rep, "|  | paper: A.I. weight 4 | 211/791 21.1 | 246/756 24.6 | 226/776 22.6 | 235/767 23.5 | — |")
	assert.Contains(t, rep, "The tables count as the paper did: paper's clock (setup steps counted), ties wrong, the end at the last turn's end before it.")
	assert.Contains(t, rep, "| arm | ours (paper's counting) | ties | ours (our counting) | paper | ours − paper (pts) | 95 % interval | within 15 pts |")
	assert.Contains(t, rep, "w4 minus constrained: ")
	assert.Contains(t, rep, "| Occupy Asia and Africa |")
	assert.Contains(t, rep, "> PHATT beats a guess.")
	assert.Contains(t, rep, "right 16.67 % of the time")
	// The generated sentences carry the tables' numbers.
	assert.Contains(t, rep, "| last turn's end | after the last action | w4 | ")
	assert.Contains(t, rep, "| tie wrong | tie broken at random | constrained | ")
	assert.Contains(t, rep, "- The end at the last turn's end before the final turn moves the end-of-game accuracy by w4 ")
	assert.Contains(t, rep, "| Constrained play | w4 | constrained | ")
	assert.Contains(t, rep, "- Constrained play moves w4 by ")
	assert.Contains(t, rep, "Constrained play moves w4's distance from the paper from ")
	assert.Contains(t, rep, "w4 lands ")
	assert.Contains(t, rep, "winners minus losers (points, Newcombe's 95 % interval): w4 ")
	assert.Contains(t, rep, "Most often right at the end of the game (the paper's counting): w4 ")
	assert.Contains(t, rep, "(game 0 of arm w4: seat ")
	// accuracy.csv: 2 countings x 4 recognisers x 2 arms x 3 groups x 20
	// points; every "all" row counts the 4 games' 24 players.
	rows := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "accuracy.csv"))), "\n")
	require.Len(t, rows, 1+2*4*2*3*20)
	assert.Equal(t, "counting,recogniser,arm,players,percent_of_game,correct,n,ties,accuracy,wilson_lo,wilson_hi", rows[0])
	for _, r := range rows[1:] {
		f := strings.Split(r, ",")
		switch f[3] {
		case "all":
			assert.Equal(t, "24", f[6], r)
		case "winners":
			assert.Equal(t, "4", f[6], r)
		}
	}
}

// TestRecognitionNotebookQuick runs the quick size once (the full test
// checks that two runs agree).
func TestRecognitionNotebookQuick(t *testing.T) {
	t.Parallel()
	nb, err := Load(writeRecognition(t, tinyRecognition))
	require.NoError(t, err)
	a := t.TempDir()
	require.NoError(t, nb.Run(context.Background(), Options{Registry: registry.Default(), Out: a, Quick: true}))
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "(quick size: 2 arms, 2 test games and 1 training games per arm; seed 3)")
}

// A paper row per card is checked once the rules' cards are known.
func TestRecognitionPaperMissions(t *testing.T) {
	t.Parallel()
	cfg := strings.Replace(tinyRecognition, "missions = [[34, 133], [88, 79],", "missions = [", 1)
	nb, err := Load(writeRecognition(t, cfg))
	require.NoError(t, err)
	err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: t.TempDir(), Quick: true})
	assert.ErrorContains(t, err, "key paper.arms.w4.missions: 4 rows, want one per continent card (6)")
}

func TestRecognitionParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to, want string }{
		{`config = "small.toml"`, `config = ""`, "key recognition.config: missing"},
		{`config = "small.toml"`, `config = "none.toml"`, "key recognition.config: open"},
		{"games = 4", "games = 0", "key recognition.games: 0 outside [1, 1000000]"},
		{"tolerance = 15", "tolerance = 0", "key recognition.tolerance: 0 outside (0, 100] (points)"},
		{`compare = ["constrained", "w4"]`, `compare = ["w4"]`, "key recognition.compare: 1 arms, want 2 (low, high) or none"},
		{`compare = ["constrained", "w4"]`, `compare = ["w4", "w9"]`, `key recognition.compare[1]: "w9" is not an arm`},
		{"[quick]\ngames = 2", "[quick]\ngames = 5", "key quick.games: 5 outside [1, 4]"},
		{`base = "w4"`, `base = "w9"`, `key recognition.differences[0].base: "w9" is not an arm`},
		{`variant = "constrained"`, `variant = "w4"`, `key recognition.differences[0].variant: "w4": must differ from base`},
		{`name = "Constrained play", `, `name = "", `, `key recognition.differences[0].name: missing`},
		{"[paper.arms.w4]", "[paper.arms.w5]", `key paper.arms.w5: "w5" is not an arm`},
		{"winners = [[35, 132], [43, 124], [37, 130], [37, 130]]", "winners = [[35, 132]]", "key paper.arms.w4.winners: 1 rows, want 4"},
		{"[[34, 133], [88, 79]", "[[34, -1], [88, 79]", "key paper.arms.w4.missions[0][1]"},
	} {
		cfg := strings.Replace(tinyRecognition, tc.from, tc.to, 1)
		require.NotEqual(t, tinyRecognition, cfg, tc.from)
		_, err := Load(writeRecognition(t, cfg))
		assert.ErrorContains(t, err, tc.want)
	}
}
