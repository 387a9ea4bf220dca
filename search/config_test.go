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
	t.Parallel()
	files, err := filepath.Glob("../configs/experiments/*.toml")
	require.NoError(t, err)
	more, err := filepath.Glob("../configs/experiments/tuners/*.toml")
	require.NoError(t, err)
	files = append(files, more...)
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
		for _, m := range c.methods() {
			if m != "narrow" {
				_, _, err := s.Recommender(m)
				assert.NoError(t, err, f)
			}
		}
		assert.NotEmpty(t, c.methods(), "%s has no method table", f)
	}
	assert.GreaterOrEqual(t, n, 4)
}

func TestParseConfigErrors(t *testing.T) {
	t.Parallel()
	good := "name = \"x\"\nbase = \"mars\"\nplayers = 3\nopponents = [\"angry\", \"shaft\"]\nrules = \"mars2006\"\nseed = 1\n[[param]]\nname = \"W_p\"\n"
	_, err := parseConfig("x.toml", []byte(good))
	require.NoError(t, err)
	// A fixed line-up may seat a bot twice; a pool may not hold it twice
	// (below).
	_, err = parseConfig("x.toml", []byte(strings.Replace(good, `["angry", "shaft"]`, `["angry", "angry"]`, 1)))
	require.NoError(t, err)
	for _, tc := range []struct{ from, to, want string }{
		{"players = 3", "players = 7", "x.toml: key players: 7: want 2..6"},
		{"seed = 1", "seed = -1", "key seed: -1"},
		{`name = "x"`, `name = "a b"`, "key name"},
		{`opponents = ["angry", "shaft"]`, `opponents = ["angry"]`, "key opponents: 1 seats: a fixed line-up needs players-1 = 2"},
		{`opponents = ["angry", "shaft"]`, "opponents = [\"angry\", \"shaft\", \"angry\"]\nsample = true", `x.toml: key opponents[2]: "angry" repeats entry 0: a pool (sample = true) wants distinct seats`},
		{"[[param]]\nname = \"W_p\"\n", "", "key param: missing"},
		{"seed = 1", "seed = 1\nbogus = 2", `x.toml:7: unknown key "bogus" (allowed: name, base, players, opponents, sample, rules, map, seed, param, condition, narrow, cmaes, spsa, surrogate, halving, validate)`},
		{"[[param]]", "[narrow]\nlevels = 0\n[[param]]", "key narrow.levels: 0: want 1..100"},
		// Issue 25, item 9: sizes without an upper bound ended in "fatal error: out of memory".
		{"[[param]]", "[narrow]\nlevels = 1\nrounds = 1\nblocks = 1000000000000\n[[param]]", "x.toml: key narrow.blocks: 1000000000000: want 1..100000"},
		{"[[param]]", "[narrow]\nlevels = 1\nrounds = 1\nblocks = 100000\npoints = 100\n[[param]]", "x.toml: key narrow.blocks: 100000 blocks on 100 cells make 10000000 per round: want at most 4194304"},
		{"[[param]]", "[narrow]\nlevels = 1000\nrounds = 1\nblocks = 1\n[[param]]", "x.toml: key narrow.levels: 1000: want 1..100"},
		{"[[param]]", "[narrow]\nlevels = 1\nrounds = 1\nblocks = 1\npoints = 1000\n[[param]]\nname = \"W_d\"\n[[param]]", "x.toml: key narrow.points: a grid of 1000 x 1000 points has more than 100000 cells"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nlambda = 100000000\n[[param]]", "x.toml: key cmaes.lambda: 100000000: want 4..10000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nlambda = 2\n[[param]]", "x.toml: key cmaes.lambda: 2: want 4..10000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nfinal_blocks = 10000000000\n[[param]]", "x.toml: key cmaes.final_blocks: 10000000000: want 1..100000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 30000\n[[param]]", "x.toml: key cmaes.max_blocks: 0 = 4 x blocks = 120000: want at most 100000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 20000\n[[param]]", "x.toml: key cmaes.final_blocks: 0 = 10 x blocks = 200000: want at most 100000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 1000\nmax_blocks = 1000\nfinal_blocks = 1\nlambda = 10000\n[[param]]", "x.toml: key cmaes.lambda: 10000 candidates of up to 2 x 1000 blocks and the mean's 1000 make 20001000 blocks per generation: want at most 4194304"},
		{"[[param]]", "[cmaes]\ngenerations = 1000000\nblocks = 4\n[[param]]", "x.toml: key cmaes.generations: 1000000: want 1..100000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nmax_blocks = 2\n[[param]]", "key cmaes.max_blocks: 2: want 4..100000 (at least blocks = 4; 0 = 4 x blocks)"},
		{"[[param]]", "[validate]\nagainst = \"mars\"\nblocks = 1\n[[param]]", "key validate.blocks: 1: want 2..100000"},
		{"[[param]]", "[cmaes]\ngenerations = 2\nblocks = 4\nnoise = \"up\"\n[[param]]", `key cmaes.noise: "up": want "sigma" (UH-CMA-ES), "evals" or "decay"`},
		{"[[param]]", "[spsa]\niterations = 0\nblocks = 1\na = 1\nc = 0.1\n[[param]]", "key spsa.iterations: 0: want 1..100000"},
		{"[[param]]", "[spsa]\niterations = 5\nblocks = 1\na = 1\nc = 0.7\n[[param]]", "key spsa.c: 0.7: want in (0, 0.5]"},
		{"[[param]]", "[spsa]\niterations = 5\nblocks = 1\na = 0\nc = 0.1\n[[param]]", "key spsa.a: 0: want in (0, 1e6]"},
		{"[[param]]", "[spsa]\niterations = 5\nblocks = 1\na = 1\nc = 0.1\naverage = 2\n[[param]]", "key spsa.average: 2: want in [0, 1]"},
		{"[[param]]", "[surrogate]\ninit = 1\nbatch = 1\nrounds = 1\nblocks = 1\n[[param]]", "key surrogate.init: 1: want 2..10000"},
		{"[[param]]", "[surrogate]\ninit = 4\nbatch = 1\nrounds = 1\nblocks = 1\nwindow = 2\n[[param]]", "key surrogate.window: 2: want 4..2000 (0 = 200)"},
		{"[[param]]", "[halving]\nbrackets = 2\ncandidates = 3\nblocks = 1\n[[param]]", "key halving.candidates: 3: the cmaes proposer wants 4..10000"},
		{"[[param]]", "[halving]\nbrackets = 2\ncandidates = 3\nblocks = 1\nproposer = \"grid\"\n[[param]]", `key halving.proposer: "grid": want one of cmaes, random`},
		{"[[param]]", "[validate]\nagainst = \"mars\"\nblocks = 1000000\n[[param]]", "key validate.blocks: 1000000: want 2..100000"},
	} {
		_, err := parseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
	// Resolve names the key of an unknown bot, parameter or range.
	for _, tc := range []struct{ from, to, want string }{
		{`base = "mars"`, `base = "nobot"`, "x.toml: key base:"},
		{`"shaft"]`, `"nobot"]`, "x.toml: key opponents: entry 1:"},
		{`name = "W_p"`, `name = "nope"`, `key param[0].name: bot mars has no parameter "nope"`},
		{`name = "W_p"`, "name = \"W_p\"\nmax = 2", "key param[0] (min, max): parameter W_p: range [0, 2]: want inside the parameter's bounds [0, 1]"},
	} {
		c, err := parseConfig("x.toml", []byte(strings.Replace(good, tc.from, tc.to, 1)))
		require.NoError(t, err, tc.to)
		_, err = c.Resolve(registry.Default())
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}
