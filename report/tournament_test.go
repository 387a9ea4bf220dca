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

// tinyTourney is a tournament of 5 bots, 3 per game: 10 games.
const tinyTourney = `bots = ["mars", "angry", "shaft", "pixie", "quo"]
players = 3
replications = 1
rules = "mars2006"
seed = 12
`

func paperRow(label, name, win string) string {
	return `[paper.bots.` + label + `]
name = "` + name + `"
placements = [3, 3, 3]
sm = 1
win_pct = ` + win + `
t_match = 40
turns_per_match = 20
t_turn = 2
win_per_t_turn = 15
`
}

var tinyTournament = `kind = "tournament"
title = "Tournament test"
summary = "A tiny tournament."
question = "Does it run?"
seed = 11
thumbnail = "figure3-wins.png"

[tournament]
config = "tiny.toml"
replications = 2
workers = 1
permutations = 1000
head_to_head = ["mars", "shaft"]

[quick]
bots = 4
players = 3
replications = 1

[paper]
source = "a test"
games = 10
stalemates = 2

[paper.head_to_head]
met = 5
a_won = 3
b_won = 1
last_two = 4
a_won_last_two = 3

` + paperRow("mars", "MARS", "30") + paperRow("angry", "Angry", "1") + paperRow("shaft", "Shaft", "20") +
	paperRow("pixie", "Pixie", "15") + paperRow("quo", "Quo", "25") + `
[notes]
rank = "The order of win % is compared."
`

func writeTournament(t *testing.T, config string) string {
	t.Helper()
	return writeNotebook(t, "tourney", config, file{"tiny.toml", tinyTourney})
}

func TestTournamentNotebook(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeTournament(t, tinyTournament), false)
	assertSameResults(t, a, b)
	assertFiles(t, a, "table5.csv", "table6.csv", "placement.csv", "winrate.csv", "headtohead.csv", "ratings.csv",
		"replicated.csv", timingsFile, "figure3-wins.png", "figure4-time-per-turn.svg", "placements.png", "winrate.svg")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "## Ratings")
	assert.Contains(t, rep, "| rank | bot | mu | sigma | ordinal |")
	assert.Contains(t, rep, "(full size: 5 bots, 3 players per game, 10 games; second run 2 replications per line-up, 20 games; seed 11)")
	assert.Contains(t, rep, "| mars | ours |")
	assert.Contains(t, rep, "|  | paper | 3 | 3 | 3 | 1 | 10 |", "the paper's games are its placements plus its stalemates")
	assert.Contains(t, rep, "exact, over all 120 permutations")
	assert.Contains(t, rep, "> The order of win % is compared.")
	assert.Contains(t, rep, "| paper | 5 | 3 | 1 | — | — | 4 | 3 |")
	assert.Contains(t, rep, "the paper's: 2 of 10")
	assert.Contains(t, rep, timingBegin)

	// Table 5's counts add up: each bot played C(4,2) = 6 games, and the
	// places of every game are taken once.
	rows := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "table5.csv"))), "\n")
	require.Len(t, rows, 1+5)
	assert.Equal(t, "bot,p1,p2,p3,stalemates,games,paper_name,paper_p1,paper_p2,paper_p3,paper_stalemates", rows[0])
	firsts := 0
	for _, r := range rows[1:] {
		f := strings.Split(r, ",")
		assert.Equal(t, "6", f[5], r)
		firsts += atoi(t, f[1])
		assert.Equal(t, 6, atoi(t, f[1])+atoi(t, f[2])+atoi(t, f[3]), r)
	}
	assert.Equal(t, 10, firsts)
	rep2 := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "replicated.csv"))), "\n")
	require.Len(t, rep2, 1+5)
	assert.True(t, strings.HasPrefix(rep2[1], "mars,12,"), rep2[1])
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		require.True(t, c >= '0' && c <= '9', s)
		n = 10*n + int(c-'0')
	}
	return n
}

func TestTournamentNotebookQuick(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeTournament(t, tinyTournament), true)
	assertSameResults(t, a, b)
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "(quick size: 4 bots, 3 players per game, 4 games; second run 1 replications per line-up, 4 games; seed 11)")
	assert.NotContains(t, rep, "| quo | ours |")
	assert.Contains(t, rep, "exact, over all 24 permutations")
}

func TestTournamentParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, from, to, want string }{
		{"no config", `config = "tiny.toml"`, `config = ""`, "key tournament.config: missing"},
		{"config missing", `config = "tiny.toml"`, `config = "nope.toml"`, "key tournament.config: tourney:"},
		{"replications", `replications = 2`, `replications = 0`, "key tournament.replications: 0 outside [1, 1000]"},
		{"permutations", `permutations = 1000`, `permutations = 10`, "key tournament.permutations: 10 outside [1000, 10000000]"},
		{"h2h same", `head_to_head = ["mars", "shaft"]`, `head_to_head = ["mars", "mars"]`, "key tournament.head_to_head:"},
		{"h2h unknown", `head_to_head = ["mars", "shaft"]`, `head_to_head = ["mars", "bort"]`, `key tournament.head_to_head[1]: "bort" is not a bot of`},
		{"quick bots", "bots = 4\n", "bots = 9\n", "key quick.bots: 9 outside [3, 5]"},
		{"quick players", "players = 3\nreplications = 1", "players = 7\nreplications = 1", "key quick.players: 7 outside [2, 6]"},
		{"paper row missing", `[paper.bots.quo]`, `[paper.bots.bort]`, `key paper.bots.quo: missing`},
		{"paper placements", `placements = [3, 3, 3]`, `placements = [3, 3]`, "key paper.bots.mars.placements: 2 values, want 3 to 3"},
		{"paper win", "win_pct = 30", "win_pct = 130", "key paper.bots.mars.win_pct: 130 outside [0, 100]"},
		{"paper t_turn", "t_turn = 2", "t_turn = 0", "key paper.bots.mars.t_turn: 0 outside (0, 1e+06)"},
		{"paper stalemates", "stalemates = 2", "stalemates = 20", "key paper.stalemates: 20 outside [0, 10]"},
		{"paper h2h", "a_won_last_two = 3", "a_won_last_two = 5", "key paper.head_to_head.a_won_last_two: 5 outside [0, 4]"},
		{"unknown key", "workers = 1", "workers = 1\ncores = 2", `:12: unknown key "tournament.cores" (allowed: config, replications, workers, permutations, head_to_head)`},
		{"unknown note", `rank = "The order`, `rnak = "The order`, "key notes.rnak: not a section of this kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := strings.Replace(tinyTournament, tc.from, tc.to, 1)
			require.NotEqual(t, tinyTournament, cfg, "the replacement must change the config")
			dir := writeTournament(t, cfg)
			_, err := Load(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), filepath.Join(dir, configFile)+":")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestTournamentNotebookCancelled(t *testing.T) {
	t.Parallel()
	nb, err := Load(writeTournament(t, tinyTournament))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, nb.Run(ctx, Options{Registry: registry.Default(), Out: t.TempDir(), Quick: true}))
}

// TestTournamentAbsoluteConfig: an absolute tournament.config is that file,
// not one under the notebook's folder (issue 25, item 15).
func TestTournamentAbsoluteConfig(t *testing.T) {
	t.Parallel()
	abs := filepath.Join(t.TempDir(), "elsewhere.toml")
	require.NoError(t, os.WriteFile(abs, []byte(tinyTourney), 0o644))
	dir := writeTournament(t, strings.Replace(tinyTournament, `config = "tiny.toml"`, `config = "`+abs+`"`, 1))
	_, err := Load(dir)
	require.NoError(t, err)

	dir = writeTournament(t, strings.Replace(tinyTournament, `config = "tiny.toml"`, `config = "/etc/passwd"`, 1))
	_, err = Load(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "key tournament.config: /etc/passwd: toml: line 1")
	assert.NotContains(t, err.Error(), filepath.Join(dir, "etc"))
}
