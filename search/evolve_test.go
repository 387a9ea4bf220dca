package search

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func evolveConfig(seed uint64) EvolveConfig {
	sp := synthSpace()
	return EvolveConfig{Space: sp, Start: sp.Values([]float64{0.5, 0.5}), Generations: 40, Sigma: 0.3,
		Blocks: 4, MaxBlocks: 16, Reeval: true, MeanBlocks: 4, FinalBlocks: 50, Seed: seed}
}

// CMA-ES with uncertainty handling ends with its distribution mean within
// 0.15 of the optimum of the logistic-quadratic win rate (normalised
// coordinates, where the win rate is 3.4 points below the optimum's 62 %
// at 0.12), for every seed of five; the final mean's estimate covers its true
// win rate.
func TestEvolveFindsOptimum(t *testing.T) {
	t.Parallel()
	sp := synthSpace()
	covered := 0
	for seed := uint64(1); seed <= 5; seed++ {
		opt := []float64{0.2 + 0.1*float64(seed), 0.8 - 0.1*float64(seed)}
		q := &Quadratic{Space: sp, Opt: opt, Peak: 0.5, Curv: 10}
		e, err := NewEvolve(evolveConfig(seed))
		require.NoError(t, err)
		runMethod(t, e, &Bernoulli{Games: 4, Seed: seed, P: q.P})
		f := e.Final()
		require.NotNil(t, f)
		u := sp.units(f.Mean)
		dist := math.Hypot(u[0]-opt[0], u[1]-opt[1])
		assert.Less(t, dist, 0.15, "seed %d: mean %v (unit %v), optimum %v", seed, f.Mean, u, opt)
		assert.Equal(t, 200, f.Games)
		if f.Wilson().Contains(q.P(f.Mean)) {
			covered++
		}
		require.Len(t, e.Generations(), 40)
	}
	assert.GreaterOrEqual(t, covered, 4)
}

// An evolve run through the log is byte-identical when interrupted and
// resumed, and when played as shards and merges.
func TestEvolveLogResumeShards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := evolveConfig(3)
	cfg.Generations = 5
	q := &Quadratic{Space: cfg.Space, Opt: []float64{0.3, 0.6}, Peak: 0.5, Curv: 10}
	ev := &Bernoulli{Games: 4, Seed: 3, P: q.P}
	mk := func(dir string) *Search[*Evolve] {
		return &Search[*Evolve]{Dir: dir, Config: []byte("evolve test\n"), Eval: ev, New: func() (*Evolve, error) { return NewEvolve(cfg) }}
	}
	root := t.TempDir()
	one := mk(filepath.Join(root, "one"))
	st, err := one.Run(ctx, false)
	require.NoError(t, err)
	require.True(t, st.Complete())
	want := readLog(t, one.Dir)

	res := mk(filepath.Join(root, "res"))
	cctx, cancel := context.WithCancel(ctx)
	res.Eval = &cancelAfter{Evaluator: ev, n: 37, cancel: cancel}
	_, err = res.Run(cctx, false)
	require.Error(t, err)
	res.Eval = ev
	_, err = res.Run(ctx, true)
	require.NoError(t, err)
	assert.Equal(t, want, readLog(t, res.Dir))

	sh := mk(filepath.Join(root, "sh"))
	for s := 0; s < 6; s++ {
		for i := 0; i < 4; i++ {
			_, err := sh.RunShard(ctx, arenaShard(i, 4), true)
			require.NoError(t, err)
		}
		_, err := sh.Merge()
		require.NoError(t, err)
	}
	assert.Equal(t, want, readLog(t, sh.Dir))
}

// TestLogMessages: the messages of issue 25, item 14 on a search log: an
// empty line, a place above the players, a complete search run again
// without -resume.
func TestLogMessages(t *testing.T) {
	t.Parallel()
	cfg := evolveConfig(3)
	cfg.Generations = 2
	q := &Quadratic{Space: cfg.Space, Opt: []float64{0.3, 0.6}, Peak: 0.5, Curv: 10}
	ev := &Bernoulli{Games: 4, Seed: 3, P: q.P}
	dir := t.TempDir()
	s := &Search[*Evolve]{Dir: dir, Config: []byte("messages\n"), Eval: ev, Players: 2, New: func() (*Evolve, error) { return NewEvolve(cfg) }}
	st, err := s.Run(context.Background(), false)
	require.NoError(t, err)
	require.True(t, st.Complete())

	_, err = s.Run(context.Background(), false)
	require.Error(t, err)
	assert.Equal(t, "search: "+dir+" holds this search, complete ("+fmt.Sprint(st.Lines)+" evaluations)", err.Error())
	assert.ErrorIs(t, err, ErrComplete)

	path := filepath.Join(dir, "log.jsonl")
	good := readLog(t, dir)
	lines := strings.SplitAfter(good, "\n")
	blank := strings.Join(lines[:4], "") + "   \n" + strings.Join(lines[5:], "")
	require.NoError(t, os.WriteFile(path, []byte(blank), 0o644))
	_, err = s.replay()
	require.Error(t, err)
	assert.Equal(t, "search: "+path+":5: an empty line: want one evaluation, a JSON object", err.Error())

	i := strings.Index(good, `"place":[2`)
	require.GreaterOrEqual(t, i, 0)
	n := strings.Count(good[:i], "\n") + 1
	require.NoError(t, os.WriteFile(path, []byte(good[:i]+`"place":[7`+good[i+len(`"place":[2`):]), 0o644))
	_, err = s.replay()
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("search: %s:%d: place 7: want 1..2 (the players per game)", path, n), err.Error())
}
