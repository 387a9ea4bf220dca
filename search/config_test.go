package search

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// The shipped search configs (the files of configs/experiments with
// [[param]] tables; the others belong to other commands) parse and resolve,
// and their methods' tables are usable.
func TestShippedConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/experiments/*.toml")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		var keys map[string]any
		_, err := toml.DecodeFile(f, &keys)
		require.NoError(t, err, f)
		if _, ok := keys["param"]; !ok {
			continue
		}
		n++
		c, err := LoadConfig(f)
		require.NoError(t, err, f)
		s, err := c.Resolve(registry.Default())
		require.NoError(t, err, f)
		if c.Narrow != nil {
			_, err := s.NarrowConfig()
			assert.NoError(t, err, f)
		}
		if c.CMAES != nil {
			_, err := s.EvolveConfig()
			assert.NoError(t, err, f)
		}
		assert.True(t, c.Narrow != nil || c.CMAES != nil, "%s has no method table", f)
	}
	assert.GreaterOrEqual(t, n, 4)
}

func TestParseConfigErrors(t *testing.T) {
	good := "name = \"x\"\nbase = \"mars\"\nplayers = 3\nopponents = [\"angry\", \"shaft\"]\nrules = \"mars2006\"\nseed = 1\n[[param]]\nname = \"W_p\"\n"
	_, err := ParseConfig("x.toml", []byte(good))
	require.NoError(t, err)
	for _, tc := range []struct{ from, to, want string }{
		{"players = 3", "players = 7", "x.toml: key players: 7: want 2..6"},
		{"seed = 1", "seed = -1", "key seed: -1"},
		{`name = "x"`, `name = "a b"`, "key name"},
		{`opponents = ["angry", "shaft"]`, `opponents = ["angry"]`, "key opponents: 1 seats: a fixed line-up needs players-1 = 2"},
		{"[[param]]\nname = \"W_p\"\n", "", "key param: missing"},
		{"seed = 1", "seed = 1\nbogus = 2", "unknown key bogus"},
		{"[[param]]", "[narrow]\nlevels = 0\n[[param]]", "key narrow.levels: 0: want >= 1"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nmax_blocks = 2\n[[param]]", "key cmaes.max_blocks: 2: want >= blocks = 4"},
		{"[[param]]", "[validate]\nagainst = \"mars\"\nblocks = 1\n[[param]]", "key validate.blocks: 1: want >= 2"},
	} {
		_, err := ParseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
	// Resolve names the key of an unknown bot, parameter or range.
	for _, tc := range []struct{ from, to, want string }{
		{`base = "mars"`, `base = "nobot"`, "x.toml: key base:"},
		{`"shaft"]`, `"nobot"]`, "x.toml: key opponents: entry 1:"},
		{`name = "W_p"`, `name = "nope"`, `key param[0].name: bot mars has no parameter "nope"`},
		{`name = "W_p"`, "name = \"W_p\"\nmax = 2", "key param[0] (min, max): parameter W_p: range [0, 2]: want inside the parameter's bounds [0, 1]"},
	} {
		c, err := ParseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		require.NoError(t, err, tc.to)
		_, err = c.Resolve(registry.Default())
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}
