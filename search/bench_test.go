package search

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

// recorder is an Evaluator that keeps the evaluations it is asked for.
type recorder struct {
	Evaluator
	calls [][]Eval
}

func (r *recorder) Evaluate(ctx context.Context, evals []Eval, emit func(int, Result) error) (int, error) {
	r.calls = append(r.calls, append([]Eval(nil), evals...))
	return r.Evaluator.Evaluate(ctx, evals, emit)
}

// cached is an Evaluator that replays the results a recorder saw, call by
// call, at no cost: a search run on it measures the search's own time.
type cached struct {
	res  [][]Result
	call int
}

func (c *cached) Evaluate(ctx context.Context, evals []Eval, emit func(int, Result) error) (int, error) {
	res := c.res[c.call]
	c.call++
	for k := range evals {
		if err := emit(k, res[k]); err != nil {
			return k, err
		}
	}
	return len(evals), nil
}

// BenchmarkSearchOverhead compares the search's own time with the time of
// its games, for a narrowing search of MARS against three Lux-style bots
// (testdata/bench.toml, one worker). Each iteration plays the search's
// evaluations on the evaluator (the games), then runs the whole search
// (log written and replayed, racing tests, reports of progress) on an
// evaluator that replays those results at no cost (the overhead). The
// metric overhead-% is the second time as a percentage of the first.
func BenchmarkSearchOverhead(b *testing.B) {
	cfg, err := LoadConfig("testdata/bench.toml")
	require.NoError(b, err)
	setup, err := cfg.Resolve(registry.Default())
	require.NoError(b, err)
	setup.Field.Workers = 1
	ncfg, err := setup.NarrowConfig()
	require.NoError(b, err)
	ctx := context.Background()
	newSearch := func(ev Evaluator) *Search[*Narrowing] {
		return &Search[*Narrowing]{Dir: b.TempDir(), Config: setup.Fingerprint("narrow"), Eval: ev,
			New: func() (*Narrowing, error) { return NewNarrowing(ncfg) }, Progress: io.Discard}
	}
	rec := &recorder{Evaluator: setup.Field}
	_, err = newSearch(rec).Run(ctx, false)
	require.NoError(b, err)
	var search, games time.Duration
	evals := 0
	for b.Loop() {
		c := &cached{}
		t0 := time.Now()
		for _, ev := range rec.calls {
			var res []Result
			_, err := setup.Field.Evaluate(ctx, ev, func(_ int, r Result) error { res = append(res, r); return nil })
			require.NoError(b, err)
			c.res = append(c.res, res)
			evals += len(ev)
		}
		games += time.Since(t0)
		t1 := time.Now()
		_, err := newSearch(c).Run(ctx, false)
		require.NoError(b, err)
		search += time.Since(t1)
	}
	b.ReportMetric(100*float64(search)/float64(games), "overhead-%")
	b.ReportMetric(float64(evals)/games.Seconds(), "evals/s")
}

// BenchmarkNarrowingTell measures the bookkeeping and racing of one
// narrowing round of 49 cells x 10 blocks (the synthetic evaluator's
// results precomputed).
func BenchmarkNarrowingTell(b *testing.B) {
	sp := synthSpace()
	cfg := NarrowConfig{Space: sp, Points: []int{7, 7}, Levels: 1, Rounds: 1, Blocks: 10, Alpha: 0.05, Margin: 1, Zoom: 0.5}
	q := &Quadratic{Space: sp, Opt: []float64{0.3, 0.6}, Peak: 0.5, Curv: 10}
	n, err := NewNarrowing(cfg)
	require.NoError(b, err)
	evals, err := n.next()
	require.NoError(b, err)
	res := make([]Result, len(evals))
	_, err = (&Bernoulli{Games: 4, Seed: 1, P: q.P}).Evaluate(context.Background(), evals, func(k int, r Result) error { res[k] = r; return nil })
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		n, _ := NewNarrowing(cfg)
		_, _ = n.next()
		if err := n.tell(res); err != nil {
			b.Fatal(err)
		}
	}
}
