package tourney

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/fuzzfile"
)

// smallConfig is a 20-game tournament of fast baseline bots: every
// 3-subset of 5 bots, twice.
const smallConfig = `
bots = ["aggressive", "cautious", "pacifist", "random", "passive"]
players = 3
replications = 2
rules = "mars2006"
seed = 11
`

func smallSetup(t testing.TB) (*Config, *Setup) {
	t.Helper()
	c, err := Parse("small.toml", []byte(smallConfig))
	require.NoError(t, err)
	s, err := c.Resolve(registry.Default())
	require.NoError(t, err)
	return c, s
}

// deterministic are the output files that must not depend on workers or
// shards (table6 and tables.md hold timings, timing.json is one).
var deterministic = []string{"games.jsonl", "summary.json", "table5.md", "table5.csv", "placement.csv", "winrate.md", "headtohead.csv", "headtohead.md", "ratings.csv", "ratings.md"}

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, f := range deterministic {
		b, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err, f)
		m[f] = string(b)
	}
	return m
}

func TestRunDeterministic(t *testing.T) {
	t.Parallel()
	c, s := smallSetup(t)
	ctx := context.Background()
	base := t.TempDir()

	one := filepath.Join(base, "one")
	var drawn []string
	figs := func(dir string, r *Results) error {
		drawn = append(drawn, dir)
		assert.Equal(t, 20, r.Games, "the hook sees the results")
		assert.FileExists(t, filepath.Join(dir, "table5.md"), "after the tables")
		return nil
	}
	rep, res, err := Run(ctx, c, s, Options{Out: one, Workers: 1, Figures: figs})
	require.NoError(t, err)
	assert.Equal(t, 20, rep.Done)
	require.NotNil(t, res)
	assert.Equal(t, 20, res.Games)
	for _, b := range res.Bots {
		// C(4,2) x 2 = 12 games for each bot.
		assert.Equal(t, 12, b.Games, b.Bot)
		sum := 0
		for _, p := range b.Placements {
			sum += p
		}
		assert.Equal(t, 12, sum, b.Bot)
	}
	for _, p := range res.Pairs {
		// Two bots share C(3,1) x 2 = 6 games.
		assert.Equal(t, 6, p.Met)
		assert.Equal(t, p.Met, p.AheadA+p.AheadB)
		assert.Equal(t, p.LastTwo, p.WonA+p.WonB)
	}
	assert.True(t, res.Timed)
	assert.Equal(t, []string{one}, drawn, "the figures are drawn once, into the output directory")
	want := readAll(t, one)

	many := filepath.Join(base, "many")
	_, _, err = Run(ctx, c, s, Options{Out: many, Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, want, readAll(t, many), "3 workers")

	var shards []string
	for i := range 3 {
		d := filepath.Join(base, "shard", string(rune('0'+i)))
		_, sres, err := Run(ctx, c, s, Options{Out: d, Workers: 2, Shard: arena.Shard{Index: i, Count: 3}})
		require.NoError(t, err)
		assert.Less(t, sres.Games, 20)
		shards = append(shards, d)
	}
	merged := filepath.Join(base, "merged")
	_, err = arena.Merge(merged, shards)
	require.NoError(t, err)
	// The merged batch, resumed, plays nothing and writes the tables.
	rep, _, err = Run(ctx, c, s, Options{Out: merged, Resume: true})
	require.NoError(t, err)
	assert.Equal(t, 0, rep.Played)
	assert.Equal(t, want, readAll(t, merged), "3 shards merged")

	// Without -resume an existing tournament is refused.
	_, _, err = Run(ctx, c, s, Options{Out: one})
	assert.ErrorContains(t, err, "already holds a batch")
}

func TestRunInterruptedResumes(t *testing.T) {
	t.Parallel()
	c, s := smallSetup(t)
	dir := t.TempDir()
	want := filepath.Join(dir, "want")
	_, _, err := Run(context.Background(), c, s, Options{Out: want, Workers: 2})
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	part := filepath.Join(dir, "part")
	_, res, err := Run(ctx, c, s, Options{Out: part, Workers: 2})
	require.ErrorIs(t, err, arena.ErrInterrupted)
	assert.Nil(t, res)
	assert.NoFileExists(t, filepath.Join(part, "table5.md"))
	rep, res, err := Run(context.Background(), c, s, Options{Out: part, Workers: 2, Resume: true})
	require.NoError(t, err)
	assert.Equal(t, 20, rep.Done)
	assert.Equal(t, 20, res.Games)
	assert.Equal(t, readAll(t, want), readAll(t, part))
}

func TestRunNeedsOut(t *testing.T) {
	t.Parallel()
	c, s := smallSetup(t)
	_, _, err := Run(context.Background(), c, s, Options{})
	assert.ErrorContains(t, err, "small.toml: no output directory")
}

// TestRunEmptyShard: a shard with no game is refused and writes nothing
// (issue 25, item 15: it wrote all-zero tables and succeeded).
func TestRunEmptyShard(t *testing.T) {
	t.Parallel()
	c, s := smallSetup(t)
	n := c.Games()
	out := filepath.Join(t.TempDir(), "out")
	_, _, err := Run(context.Background(), c, s, Options{Out: out, Shard: arena.Shard{Index: n, Count: n + 1}})
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("tourney: small.toml: shard %d/%d holds none of the %d games: want at most %d shards", n, n+1, n, n), err.Error())
	assert.NoDirExists(t, out)
}

func TestReadGamesErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "games.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"game":0}`+"\n"), 0o644))
	_, err := ReadGames(path, 3)
	assert.ErrorContains(t, err, "games.jsonl: line 1: ")
	require.NoError(t, os.WriteFile(path, []byte(`{"game":0`), 0o644))
	_, err = ReadGames(path, 3)
	assert.ErrorContains(t, err, "line 1 is torn")
}

// FuzzReadGames: a games.jsonl of any bytes (sparse, one byte over the
// log cap, when over): ReadGames never panics, refuses a file over the cap
// unread, names the file in every error, and every record it accepts has
// one place per seat.
func FuzzReadGames(f *testing.F) {
	c, s := smallSetup(f)
	out := filepath.Join(f.TempDir(), "out")
	_, _, err := Run(context.Background(), c, s, Options{Out: out, Workers: 1})
	require.NoError(f, err)
	data, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
	require.NoError(f, err)
	f.Add(data, false)
	f.Add(data[:len(data)/3], false)
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, data []byte, over bool) {
		path := fuzzfile.Write(t, t.TempDir(), "games.jsonl", data, over, fileread.Log)
		recs, err := ReadGames(path, c.Players)
		if fuzzfile.Refused(t, err, over, path) {
			return
		}
		for _, r := range recs {
			require.Len(t, r.Placements, c.Players)
		}
	})
}
