package tourney

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

const okConfig = `
bots = ["mars", "aggressive", "cautious", "pacifist", "passive", "random", "mars@paper"]
players = 4
replications = 2
rules = "mars2006"
seed = 7
out = "results/t"
`

func TestParse(t *testing.T) {
	t.Parallel()
	c, err := Parse("t.toml", []byte(okConfig))
	require.NoError(t, err)
	assert.Equal(t, 7, len(c.Bots))
	assert.Equal(t, 4, c.Players)
	assert.Equal(t, 2, c.Replications)
	assert.Equal(t, uint64(7), c.Seed)
	assert.Equal(t, "results/t", c.Out)
	assert.Equal(t, 35*2, c.Games(), "C(7,4) x 2")
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	const rest = "\nrules = \"mars2006\"\nseed = 1\n"
	tests := []struct {
		name, text, err string
	}{
		{"syntax", "bots = [", "t.toml: "},
		{"unknown key", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 1\nround = 3" + rest, `t.toml:4: unknown key "round" (allowed: bots, players, replications, rules, map, seed, out)`},
		{"no players", `bots = ["a", "b"]` + "\nreplications = 1" + rest, "t.toml: key players: missing: want the players per game, 2..6"},
		{"players", `bots = ["a", "b"]` + "\nplayers = 7\nreplications = 1" + rest, "t.toml: key players: 7: want 2..6"},
		{"no replications", `bots = ["a", "b"]` + "\nplayers = 2" + rest, "t.toml: key replications: missing"},
		{"replications", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 0" + rest, "t.toml: key replications: 0: want 1..10000000"},
		{"replications huge", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 1000000000000" + rest, "t.toml: key replications: 1000000000000: want 1..10000000"},
		{"games", `bots = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]` + "\nplayers = 4\nreplications = 100000" + rest, "t.toml: keys bots, players, replications: C(10,4) line-ups x 100000 replications = 21000000 games: want at most 10000000"},
		{"no seed", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 1\nrules = \"classic\"", "t.toml: key seed: missing"},
		{"seed", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 1\nrules = \"classic\"\nseed = -1", "t.toml: key seed: -1: want >= 0"},
		{"no rules", `bots = ["a", "b"]` + "\nplayers = 2\nreplications = 1\nseed = 1", "t.toml: key rules: missing: want an embedded rule set (classic, fixedcards, lux, lux-escalating, mars2006, mars2006-escalating, missions)"},
		{"too few bots", `bots = ["a", "b"]` + "\nplayers = 3\nreplications = 1" + rest, "t.toml: key bots: 2 bots: want 3..64 (at least players = 3)"},
		{"twice", `bots = ["a", "b", "a"]` + "\nplayers = 2\nreplications = 1" + rest, `t.toml: key bots: "a" listed twice (entries 0 and 2)`},
		{"empty", `bots = ["a", " "]` + "\nplayers = 2\nreplications = 1" + rest, "t.toml: key bots: entry 1 is empty"},
		{"wrong type", `bots = "a"` + "\nplayers = 2\nreplications = 1" + rest, `t.toml:1: bots = "a": must be an array (TOML value has type string)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(tt.text))
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	c, err := Parse("t.toml", []byte(okConfig))
	require.NoError(t, err)
	s, err := c.Resolve(reg)
	require.NoError(t, err)
	require.Len(t, s.Seats, 7)
	assert.Equal(t, "mars@paper", s.Seats[6].Label)
	assert.Equal(t, "mars2006", s.Rules.Name)

	c.Bots[1] = "angryy"
	_, err = c.Resolve(reg)
	assert.ErrorContains(t, err, `t.toml: key bots: entry 1: `)
	assert.ErrorContains(t, err, `unknown bot "angryy" (registered: aggressive, angry, `)

	c.Bots[1] = "aggressive"
	c.Rules = "nosuch"
	_, err = c.Resolve(reg)
	assert.ErrorContains(t, err, "t.toml: key rules: ")

	c.Rules = "mars2006"
	c.Map = "atlantis"
	_, err = c.Resolve(reg)
	assert.ErrorContains(t, err, "t.toml: key map: ")
}

func TestLoadRelativeRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rules, err := os.ReadFile("../configs/rules/classic.toml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "my-rules.toml"), rules, 0o644))
	text := `bots = ["aggressive", "random"]
players = 2
replications = 1
rules = "my-rules.toml"
map = "classic"
seed = 3
`
	path := filepath.Join(dir, "t.toml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	c, err := Load(path)
	require.NoError(t, err)
	s, err := c.Resolve(registry.Default())
	require.NoError(t, err, "rules relative to the config file")
	assert.Equal(t, "classic", s.Map.Name)

	_, err = Load(filepath.Join(dir, "missing.toml"))
	assert.ErrorContains(t, err, "missing.toml")
}

// The shipped tournament configs (configs/experiments/*tournament*.toml
// with a key bots; the other files there belong to other commands) parse;
// the full paper field needs the Lux-style bots, so only the names are checked
// against the registry's.
func TestShippedConfigs(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../configs/experiments/*tournament*.toml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	reg := registry.Default()
	tournaments := 0
	for _, f := range files {
		var keys map[string]any
		_, err := toml.DecodeFile(f, &keys)
		require.NoError(t, err, f)
		if _, ok := keys["bots"]; !ok {
			continue
		}
		tournaments++
		c, err := Load(f)
		require.NoError(t, err, f)
		missing := 0
		for _, b := range c.Bots {
			if _, ok := reg.Lookup(botName(b)); !ok {
				missing++
			}
		}
		if missing == 0 {
			_, err := c.Resolve(reg)
			assert.NoError(t, err, f)
		}
	}
	assert.GreaterOrEqual(t, tournaments, 2, "demo-tournament.toml and paper-tournament.toml")
}

// botName is the registered name of a seat spec (before '@' or '(').
func botName(spec string) string {
	for i, r := range spec {
		if r == '@' || r == '(' {
			return spec[:i]
		}
	}
	return spec
}
