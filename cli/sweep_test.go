package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sweepConfig writes a small sweep config (the random bot's stop
// probability against two baseline bots) into dir.
func sweepConfig(t *testing.T, dir string, seed int) string {
	t.Helper()
	path := filepath.Join(dir, "s"+strconv.Itoa(seed)+".toml")
	text := `name = "tiny"
base = "random"
players = 3
opponents = ["aggressive", "pacifist"]
rules = "mars2006"
seed = ` + strconv.Itoa(seed) + `

[[param]]
name = "stop"
min = 0.05
max = 0.95
points = 3

[narrow]
levels = 2
rounds = 2
blocks = 2

[cmaes]
generations = 2
lambda = 4
blocks = 1
max_blocks = 2
reeval = true
final_blocks = 3
`
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// The four forms of the Slurm contract: -steps, shards from the array
// environment, -merge after each step, and the local run, which give the
// same log.
func TestSweepCommandContract(t *testing.T) {
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	local := filepath.Join(dir, "local")
	out, err := runOut(t, "sweep", cfg, "-out", local, "-workers", "2", "-figures=false")
	require.NoError(t, err, out)
	assert.Contains(t, out, "sweep tiny: best stop=")
	assert.FileExists(t, filepath.Join(local, "report.md"))
	assert.FileExists(t, filepath.Join(local, "cells.csv"))

	out, err = runOut(t, "sweep", "-steps", cfg)
	require.NoError(t, err, out)
	require.Equal(t, "4\n", out)
	steps := 4

	sharded := filepath.Join(dir, "sharded")
	for s := 0; s < steps; s++ {
		for _, id := range []string{"1", "2", "3"} {
			t.Setenv("SLURM_ARRAY_TASK_ID", id)
			t.Setenv("SLURM_ARRAY_TASK_COUNT", "3")
			t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
			out, err := runOut(t, "sweep", cfg, "-out", sharded, "-resume", "-workers", "1")
			require.NoError(t, err, out)
		}
		os.Unsetenv("SLURM_ARRAY_TASK_ID")
		out, err := runOut(t, "sweep", cfg, "-out", sharded, "-merge", "-figures=false")
		require.NoError(t, err, out)
		if s < steps-1 {
			assert.Contains(t, out, "merged; next step")
		} else {
			assert.Contains(t, out, "complete")
		}
	}
	assert.Equal(t, readText(t, filepath.Join(local, "log.jsonl")), readText(t, filepath.Join(sharded, "log.jsonl")))
	assert.Equal(t, readText(t, filepath.Join(local, "cells.csv")), readText(t, filepath.Join(sharded, "cells.csv")))

	// A shard of a complete search has nothing to play; a finished search
	// run again without -resume is refused, with it re-written.
	out, err = runOut(t, "sweep", cfg, "-out", sharded, "-shard", "0/2", "-resume")
	require.NoError(t, err, out)
	assert.Contains(t, out, "nothing to play")
	out, err = runOut(t, "sweep", cfg, "-out", local)
	require.ErrorContains(t, err, "holds this search, complete (")
	require.ErrorContains(t, err, "evaluations): choose another -out for a new run (-resume writes its report again)")
	// Issue 25, item 14: no "stopped at step 4 of 4 ... (-resume continues)".
	assert.NotContains(t, out, "stopped at")
	out, err = runOut(t, "sweep", cfg, "-out", local, "-resume", "-figures=false")
	require.NoError(t, err, out)

	// Another config in the same directory is refused.
	_, err = runOut(t, "sweep", sweepConfig(t, dir, 4), "-out", local, "-resume")
	require.ErrorContains(t, err, "config.json: written by a different search config (")
	require.ErrorContains(t, err, "seed: 3 vs 4: file vs this run): start a new -out directory, or restore the config")
}

func TestSweepCommandErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	bad := filepath.Join(dir, "bad.toml")
	text := strings.Replace(readText(t, cfg), `name = "stop"`, `name = "W_p"`, 1)
	require.NoError(t, os.WriteFile(bad, []byte(text), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep"}, "sweep: want one CONFIG file, have 0 arguments (marslab sweep -h)"},
		{[]string{"evolve", cfg, cfg}, "evolve: want one CONFIG file, have 2 arguments (marslab evolve -h)"},
		{[]string{"validate"}, "validate: want one CONFIG file, have 0 arguments (marslab validate -h)"},
		{[]string{"evolve", bad}, `evolve: ` + bad + `: key param[0].name: bot random has no parameter "W_p" (it has stop)`},
		{[]string{"validate", bad}, `validate: ` + bad + `: key param[0].name`},
		{[]string{"sweep", cfg, "-workers", "-1"}, "-workers -1"},
		{[]string{"sweep", cfg, "-shard", "2/2"}, "-shard"},
		{[]string{"sweep", cfg, "-shard", "0/2", "-merge"}, "exclude each other"},
		{[]string{"sweep", bad}, `bad.toml: key param[0].name: bot random has no parameter "W_p" (it has stop)`},
		{[]string{"sweep", filepath.Join(dir, "none.toml")}, "none.toml"},
	} {
		_, err := runOut(t, tc.args...)
		assert.ErrorContains(t, err, tc.want, "%v", tc.args)
	}
}

func TestValidateCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	out := filepath.Join(dir, "val")
	o, err := runOut(t, "validate", cfg, "-a", "random(stop=0.9)", "-b", "random(stop=0.1)", "-blocks", "6", "-chunk", "4", "-out", out, "-workers", "2")
	require.NoError(t, err, o)
	assert.Contains(t, o, "over 18 games each")
	assert.Contains(t, o, "(6 blocks)")
	text := readText(t, filepath.Join(out, "validation.md"))
	assert.Contains(t, text, "# Validation: random(stop=0.9) against random(stop=0.1)")
	assert.Contains(t, text, "**Verdict:**")
	// The header, and 2 steps x 2 candidates: 12 evaluations.
	assert.Equal(t, 13, strings.Count(readText(t, filepath.Join(out, "log.jsonl")), "\n"))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", cfg, "-b", "random"}, "-a: want the candidate's seat"},
		{[]string{"validate", cfg, "-a", "random"}, "-b: want the reference seat"},
		{[]string{"validate", cfg, "-a", "random", "-b", "random", "-blocks", "1"}, "-blocks 1"},
		{[]string{"validate", cfg, "-a", "aggressive", "-b", "random", "-blocks", "4"}, "a aggressive seat, but"},
		{[]string{"validate", cfg, "-a", "random", "-b", "random", "-blocks", "4", "-sprt", "-p1", "0.4"}, "sprt p1 0.4"},
	} {
		_, err := runOut(t, tc.args...)
		assert.ErrorContains(t, err, tc.want, "%v", tc.args)
	}
}

func TestEvolveCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	out, err := runOut(t, "evolve", "-steps", cfg)
	require.NoError(t, err, out)
	require.Equal(t, "3\n", out)
	local := filepath.Join(dir, "local")
	out, err = runOut(t, "evolve", cfg, "-out", local, "-workers", "2")
	require.NoError(t, err, out)
	assert.Contains(t, out, "evolve tiny: final mean stop=")
	assert.Contains(t, out, "over 9 games")
	for _, f := range []string{"report.md", "generations.csv", "best.toml", "convergence.png", "traces.png"} {
		assert.FileExists(t, filepath.Join(local, f))
	}
	assert.Contains(t, readText(t, filepath.Join(local, "best.toml")), "bot = \"random\"")
	sharded := filepath.Join(dir, "sharded")
	for s := 0; s < 3; s++ {
		for _, sh := range []string{"0/2", "1/2"} {
			out, err := runOut(t, "evolve", cfg, "-out", sharded, "-shard", sh, "-resume", "-workers", "1")
			require.NoError(t, err, out)
		}
		out, err := runOut(t, "evolve", cfg, "-out", sharded, "-merge", "-figures=false")
		require.NoError(t, err, out)
	}
	assert.Equal(t, readText(t, filepath.Join(local, "log.jsonl")), readText(t, filepath.Join(sharded, "log.jsonl")))
	assert.Equal(t, readText(t, filepath.Join(local, "generations.csv")), readText(t, filepath.Join(sharded, "generations.csv")))
}

// marslab evolve -method runs SPSA, the surrogate and successive halving of
// a config's tables: one piece and shards give the same log, and the result
// is a parameter file.
func TestEvolveMethods(t *testing.T) {
	dir := t.TempDir()
	cfg := sweepConfig(t, dir, 3)
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\n[spsa]\niterations = 3\nblocks = 2\na = 0.5\nc = 0.1\naverage = 0.5\nfinal_blocks = 2\n\n" +
		"[surrogate]\ninit = 3\nbatch = 2\nrounds = 1\nblocks = 1\ncandidates = 20\nfinal_blocks = 2\n\n" +
		"[halving]\nbrackets = 1\ncandidates = 4\nblocks = 1\nfinal_blocks = 2\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	_, err = runOut(t, "evolve", cfg, "-method", "nelder", "-out", filepath.Join(dir, "x"))
	assert.ErrorContains(t, err, `method "nelder": want one of cmaes, spsa, surrogate, halving`)
	for _, tc := range []struct {
		method string
		steps  int
	}{{"spsa", 4}, {"surrogate", 3}, {"halving", 4}} {
		out, err := runOut(t, "evolve", "-steps", "-method", tc.method, cfg)
		require.NoError(t, err, out)
		require.Equal(t, strconv.Itoa(tc.steps)+"\n", out, tc.method)
		local := filepath.Join(dir, tc.method)
		out, err = runOut(t, "evolve", cfg, "-method", tc.method, "-out", local, "-workers", "2")
		require.NoError(t, err, out)
		assert.Contains(t, out, "evolve tiny ("+tc.method+"): recommendation stop=")
		assert.Contains(t, readText(t, filepath.Join(local, "best.toml")), "bot = \"random\"")
		assert.Contains(t, readText(t, filepath.Join(local, "report.md")), "# Search tiny: "+tc.method)
		sharded := filepath.Join(dir, tc.method+"-sharded")
		for s := 0; s < tc.steps; s++ {
			for _, sh := range []string{"0/2", "1/2"} {
				out, err := runOut(t, "evolve", cfg, "-method", tc.method, "-out", sharded, "-shard", sh, "-resume", "-workers", "1")
				require.NoError(t, err, out)
			}
			out, err := runOut(t, "evolve", cfg, "-method", tc.method, "-out", sharded, "-merge")
			require.NoError(t, err, out)
		}
		assert.Equal(t, readText(t, filepath.Join(local, "log.jsonl")), readText(t, filepath.Join(sharded, "log.jsonl")), tc.method)
		assert.Equal(t, readText(t, filepath.Join(local, "best.toml")), readText(t, filepath.Join(sharded, "best.toml")), tc.method)
	}
}
