package arena

import (
	"context"
	"fmt"
	"sync"
)

// Ordered runs job for k = 0..count-1 on workers goroutines and calls emit
// with each result in k order: the one worker pool of marslab ([Pool.Play],
// the recognition experiment and the learners' batches run on it). job
// gets the number w (0..workers-1) of the goroutine that runs it, for state
// of its own (a game, players, a runner), and the context of the run.
//
// Calls of emit never overlap; they come from the worker goroutines, so
// emit must not block for long, and *v is valid only during the call. At
// most 64 results per worker are in flight or waiting for an earlier one,
// which bounds the memory.
//
// Ordered returns the number of results emitted, after every goroutine it
// started has returned. The first error of a job or of emit stops the
// others (their context is cancelled) and is returned; an error a job
// returns after the run was stopped is dropped with its result. When ctx is
// done Ordered stops handing out work and returns an error wrapping
// [ErrInterrupted] and ctx's cause.
func Ordered[T any](ctx context.Context, workers, count int, job func(ctx context.Context, w, k int) (T, error), emit func(k int, v *T) error) (int, error) {
	return ordered(ctx, workers, count, job, emit, nil)
}

// ordered is Ordered; stopped, if not nil, is called once when the run is
// stopped (ctx done, or an error), to interrupt the jobs in flight.
func ordered[T any](ctx context.Context, workers, count int, job func(ctx context.Context, w, k int) (T, error), emit func(k int, v *T) error, stopped func()) (int, error) {
	if count <= 0 {
		return 0, nil
	}
	workers = max(1, min(workers, count))
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c := &collector[T]{emit: emit, total: count, window: 64 * workers, cancel: cancel}
	c.slots = make([]T, c.window)
	c.full = make([]bool, c.window)
	c.cond = sync.NewCond(&c.mu)
	// When the run is cancelled (by ctx, or an error), wake the workers
	// waiting for room and stop the jobs in flight.
	stopWake := context.AfterFunc(runCtx, func() {
		if stopped != nil {
			stopped()
		}
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stopWake()

	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, ok := c.take(runCtx)
				if !ok {
					return
				}
				v, err := job(runCtx, w, k)
				if runCtx.Err() != nil {
					return // stopped during the job: its result is not kept
				}
				if err != nil {
					cancel(err)
					return
				}
				c.put(k, &v)
			}
		}()
	}
	wg.Wait()

	if c.err != nil {
		return c.next, c.err
	}
	if cause := context.Cause(runCtx); cause != nil && ctx.Err() == nil {
		return c.next, cause // a job's error
	}
	if c.next < count {
		return c.next, fmt.Errorf("arena: %w: %w", ErrInterrupted, context.Cause(ctx))
	}
	return c.next, nil
}

// collector hands out the jobs of a run in order and emits their results
// in order. Workers call take and put; whichever worker completes the next
// job in line emits it (and any that were waiting behind it), so no
// goroutine hand-off is needed per job. At most window jobs are in flight
// or waiting, which bounds the reorder buffer.
type collector[T any] struct {
	emit   func(k int, v *T) error
	cancel context.CancelCauseFunc
	total  int // jobs to run
	window int

	mu     sync.Mutex
	cond   *sync.Cond // signalled when next advances or the run stops
	issued int        // jobs handed out
	next   int        // results emitted
	slots  []T        // slots[k % window]: result k waiting for its turn
	full   []bool
	err    error // first error of emit
}

// take returns the next job, waiting while the reorder window is full; ok
// is false when every job is handed out or the run is stopped.
func (c *collector[T]) take(ctx context.Context) (k int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.issued < c.total && c.issued >= c.next+c.window && ctx.Err() == nil && c.err == nil {
		c.cond.Wait()
	}
	if c.issued >= c.total || ctx.Err() != nil || c.err != nil {
		return 0, false
	}
	c.issued++
	return c.issued - 1, true
}

// put stores result k and emits every result now in order.
func (c *collector[T]) put(k int, v *T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	i := k % c.window
	c.slots[i], c.full[i] = *v, true
	advanced := false
	for {
		j := c.next % c.window
		if !c.full[j] {
			break
		}
		if err := c.emit(c.next, &c.slots[j]); err != nil {
			c.err = err
			c.cancel(err)
			c.cond.Broadcast()
			return
		}
		var zero T
		c.full[j] = false
		c.slots[j] = zero
		c.next++
		advanced = true
	}
	if advanced {
		c.cond.Broadcast()
	}
}
