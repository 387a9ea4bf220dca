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
)

// tinyReadings varies two of MARS's options in the tiny tournament: four
// combinations of 10 games each.
const tinyReadings = `kind = "readings"
title = "Readings test"
summary = "A tiny readings notebook."
question = "Which reading?"
seed = 11
thumbnail = "readings.png"

[readings]
notebook = "../tourney"
bot = "mars"
base = "mars@paper"
replications = 1

[[readings.option]]
name = "attack_targets"
values = ["goals", "any"]

[[readings.option]]
name = "hold_unit"
values = ["percent", "fraction"]

[notes]
ranking = "The ranking is generated."
`

// writeReadings writes the tiny tournament notebook and a readings
// notebook beside it and returns the readings notebook's folder.
func writeReadings(t *testing.T, config string) string {
	t.Helper()
	tdir := writeTournament(t, tinyTournament)
	dir := filepath.Join(filepath.Dir(tdir), "readings")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, configFile), []byte(config), 0o644))
	return dir
}

func TestReadingsNotebook(t *testing.T) {
	t.Parallel()
	a, b := runTwice(t, writeReadings(t, tinyReadings), false)
	assertSameResults(t, a, b)
	assertFiles(t, a, "readings.csv", "gaps.csv", timingsFile, "readings.png", "readings.svg")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "(full size: 4 combinations of readings, each 5 bots, 3 players per game, 1 replications per line-up, 10 games; seed 11)")
	assert.Contains(t, rep, "> The ranking is generated.")
	assert.Contains(t, rep, "`mars@paper` itself ranks ")
	assert.Contains(t, rep, "- across the combinations mars wins between ")

	rows := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "readings.csv"))), "\n")
	require.Len(t, rows, 1+4)
	assert.True(t, strings.HasPrefix(rows[0], "rank,seat,attack_targets,hold_unit,win_pct,"), rows[0])
	seats := map[string]bool{}
	for i, r := range rows[1:] {
		f := strings.Split(r, ",")
		assert.Equal(t, strconv.Itoa(i+1), f[0])
		seats[f[1]+" "+f[2]+" "+f[3]] = true
	}
	assert.Equal(t, map[string]bool{
		"mars@paper goals percent":                                       true,
		"mars@paper(hold_unit=fraction) goals fraction":                  true,
		"mars@paper(attack_targets=any) any percent":                     true,
		"mars@paper(attack_targets=any;hold_unit=fraction) any fraction": true,
	}, seats)
	gaps := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(a, "gaps.csv"))), "\n")
	assert.Len(t, gaps, 1+4*5)
	assert.Equal(t, "seat,bot,gap", gaps[0])
}

func TestReadingsSpecs(t *testing.T) {
	t.Parallel()
	c := &readingsConfig{}
	c.Readings.Base = "mars@paper"
	c.Readings.Options = []readingOption{{"a", []string{"x", "y"}}, {"b", []string{"p", "q", "r"}}}
	assert.Equal(t, []string{"mars@paper", "mars@paper(b=q)", "mars@paper(b=r)", "mars@paper(a=y)", "mars@paper(a=y;b=q)", "mars@paper(a=y;b=r)"}, c.specs())
	assert.Equal(t, "the base readings", combination("mars@paper", "mars@paper"))
	assert.Equal(t, "a=y;b=q", combination("mars@paper(a=y;b=q)", "mars@paper"))
}

func TestReadingsParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, from, to, want string }{
		{"no notebook", `notebook = "../tourney"`, `notebook = ""`, "key readings.notebook: missing"},
		{"notebook missing", `notebook = "../tourney"`, `notebook = "../nope"`, "key readings.notebook: "},
		{"bot", `bot = "mars"`, `bot = "bort"`, `key readings.bot: "bort" is not a bot of`},
		{"base", `base = "mars@paper"`, `base = ""`, "key readings.base: missing"},
		{"replications", `replications = 1`, `replications = 0`, "key readings.replications: 0 outside [1, 1000]"},
		{"one value", `values = ["goals", "any"]`, `values = ["goals"]`, "key readings.option[0].values: 1 values, want at least 2"},
		{"repeated value", `values = ["goals", "any"]`, `values = ["goals", "goals"]`, `key readings.option[0].values[1]: "goals": want a distinct`},
		{"bad value", `values = ["goals", "any"]`, `values = ["goals", "go;als"]`, `key readings.option[0].values[1]: "go;als"`},
		{"repeated option", `name = "hold_unit"`, `name = "attack_targets"`, `key readings.option[1].name: "attack_targets" repeats readings.option[0]`},
		{"unknown key", `replications = 1`, "replications = 1\nworkers = 2", `:13: unknown key "readings.workers" (allowed: notebook, bot, base, replications, option)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := strings.Replace(tinyReadings, tc.from, tc.to, 1)
			require.NotEqual(t, tinyReadings, cfg)
			_, err := Load(writeReadings(t, cfg))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// An option the bot does not have fails at run time, naming the seat.
	nb, err := Load(writeReadings(t, strings.Replace(tinyReadings, `name = "hold_unit"`, `name = "no_such_option"`, 1)))
	require.NoError(t, err)
	err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: t.TempDir()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `key readings.option[1]: seat "mars@paper(no_such_option=percent)": bot "mars" has no parameter "no_such_option"`)
}

// TestReadingsReferenceIsBase checks that a config whose first values are
// not the base seat's own is refused before any game is played: the
// reference combination is the base seat itself.
func TestReadingsReferenceIsBase(t *testing.T) {
	t.Parallel()
	cfg := strings.Replace(tinyReadings, `values = ["percent", "fraction"]`, `values = ["fraction", "percent"]`, 1)
	require.NotEqual(t, tinyReadings, cfg)
	nb, err := Load(writeReadings(t, cfg))
	require.NoError(t, err)
	err = nb.Run(context.Background(), Options{Registry: registry.Default(), Out: filepath.Join(t.TempDir(), "out")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `key readings.option[1].values[0]: "fraction" is not mars@paper's hold_unit`)
}
