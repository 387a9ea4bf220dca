package arena

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// settledGoroutines waits until the number of goroutines falls to at most
// n and returns it (or the last count after a few seconds).
func settledGoroutines(n int) int {
	var got int
	for range 200 {
		if got = runtime.NumGoroutine(); got <= n {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
	return got
}

func TestOrderedEmitsInOrder(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{1, 2, 7} {
		var got []int
		n, err := Ordered(context.Background(), workers, 500, func(_ context.Context, w, k int) (int, error) {
			if k%7 == 3 {
				time.Sleep(time.Millisecond) // finish out of order
			}
			return k * k, nil
		}, func(k int, v *int) error {
			require.Equal(t, k*k, *v)
			got = append(got, k)
			return nil
		})
		require.NoError(t, err)
		assert.Equal(t, 500, n)
		for i, k := range got {
			require.Equal(t, i, k, "workers %d", workers)
		}
	}
	n, err := Ordered(context.Background(), 3, 0, func(context.Context, int, int) (int, error) { return 0, nil },
		func(int, *int) error { return nil })
	assert.NoError(t, err)
	assert.Zero(t, n)
}

// TestOrderedFailingWorkerStopsOthers: a job's error cancels the jobs of
// the other workers, which block until their context is done, and Ordered
// returns that error with every goroutine it started gone.
func TestOrderedFailingWorkerStopsOthers(t *testing.T) {
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	var started atomic.Int32
	done := make(chan struct{})
	var n int
	var err error
	go func() {
		defer close(done)
		n, err = Ordered(context.Background(), 4, 1000, func(ctx context.Context, w, k int) (int, error) {
			started.Add(1)
			if k == 5 {
				return 0, boom
			}
			if k > 5 {
				<-ctx.Done() // runs until stopped
			}
			return k, nil
		}, func(int, *int) error { return nil })
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		require.FailNow(t, "Ordered still running 10 s after a job failed")
	}
	require.ErrorIs(t, err, boom)
	assert.LessOrEqual(t, n, 5)
	assert.Less(t, int(started.Load()), 1000, "jobs started after the failure")
	assert.LessOrEqual(t, settledGoroutines(before), before, "goroutines left running")
}

func TestOrderedEmitErrorAndCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	stop := errors.New("enough")
	n, err := Ordered(context.Background(), 3, 100, func(_ context.Context, w, k int) (int, error) { return k, nil },
		func(k int, _ *int) error {
			if k == 10 {
				return stop
			}
			return nil
		})
	require.ErrorIs(t, err, stop)
	assert.Equal(t, 10, n)

	ctx, cancel := context.WithCancel(context.Background())
	n, err = Ordered(ctx, 2, 100, func(ctx context.Context, w, k int) (int, error) {
		if k == 20 {
			cancel()
		}
		return k, nil
	}, func(int, *int) error { return nil })
	require.ErrorIs(t, err, ErrInterrupted)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, n, 100)
	assert.LessOrEqual(t, settledGoroutines(before), before, "goroutines left running")
}
