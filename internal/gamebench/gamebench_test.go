package gamebench

import (
	"errors"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shortBenchmarks makes testing.Benchmark run 100 iterations, not a
// second's worth, for the rest of t.
func shortBenchmarks(t *testing.T) {
	f := flag.Lookup("test.benchtime")
	old := f.Value.String()
	require.NoError(t, f.Value.Set("100x"))
	t.Cleanup(func() { require.NoError(t, f.Value.Set(old)) })
}

func TestPlayCountsGames(t *testing.T) {
	shortBenchmarks(t)
	var calls []uint64
	res := testing.Benchmark(func(b *testing.B) {
		calls = calls[:0]
		Play(b, func(i uint64) (int, error) {
			calls = append(calls, i)
			return 10, nil
		})
	})
	assert.Equal(t, 100, res.N)
	assert.Len(t, calls, res.N)
	for i, c := range calls {
		assert.Equal(t, uint64(i), c)
	}
	assert.InDelta(t, 10, res.Extra["turns/game"], 1e-9)
	assert.Positive(t, res.Extra["games/s"])
}

func TestPlayFails(t *testing.T) {
	shortBenchmarks(t)
	res := testing.Benchmark(func(b *testing.B) {
		Play(b, func(uint64) (int, error) { return 0, errors.New("boom") })
	})
	assert.Zero(t, res.N, "a failed benchmark reports no result")
}
