package recognition

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParallelStops: a maker that fails starts no game; a failing game
// stops the others; neither leaves a goroutine running.
func TestParallelStops(t *testing.T) {
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	made := 0
	mk := func() (playFunc[int], error) {
		made++
		if made == 2 {
			return nil, boom
		}
		return func(a, i int) (int, error) { return i, nil }, nil
	}
	played := 0
	err := parallel(context.Background(), 3, 0, 50, mk, func(k int) (int, int) { return 0, k },
		func(int) error { played++; return nil })
	require.ErrorIs(t, err, boom)
	assert.Zero(t, played)

	err = parallel(context.Background(), 3, 0, 1000, func() (playFunc[int], error) {
		return func(a, i int) (int, error) {
			if i == 7 {
				return 0, boom
			}
			return i, nil
		}, nil
	}, func(k int) (int, int) { return 0, k }, func(int) error { played++; return nil })
	require.ErrorIs(t, err, boom)
	assert.LessOrEqual(t, played, 7)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = parallel(ctx, 2, 3, 10, func() (playFunc[int], error) {
		return func(a, i int) (int, error) { return i, nil }, nil
	}, func(k int) (int, int) { return 0, k }, func(int) error { return nil })
	require.ErrorIs(t, err, context.Canceled)
	assert.ErrorContains(t, err, "recognition experiment interrupted after 3 of 10 games")

	for range 200 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left running")
}
