package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// endless returns a game without a round limit whose two players never
// attack: left alone, it would never end.
func endless(t *testing.T) (*sim.Game, []sim.Player) {
	t.Helper()
	r := sim.RulesForTest(sim.FortifySingle)
	r.End.RoundLimit = 0
	g, err := sim.NewGame(sim.RingMap(2, 3), r, 2)
	require.NoError(t, err)
	return g, []sim.Player{&sim.BasePlayer{}, &sim.BasePlayer{}}
}

// TestInterruptFromAnotherGoroutine stops an endless game from another
// goroutine, as Ctrl-C does.
func TestInterruptFromAnotherGoroutine(t *testing.T) {
	t.Parallel()
	g, players := endless(t)
	turns := make(chan int, 1)
	n := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvTurn {
			if n++; n == 1000 {
				turns <- n
			}
		}
	}))
	done := make(chan error, 1)
	go func() {
		_, err := g.Play(players, 1, 0)
		done <- err
	}()
	select {
	case <-turns:
	case <-time.After(time.Minute):
		require.FailNow(t, "the game did not start")
	}
	g.Interrupt()
	select {
	case err := <-done:
		require.ErrorIs(t, err, sim.ErrInterrupted)
		t.Log(err)
	case <-time.After(time.Minute):
		require.FailNow(t, "Interrupt did not stop the game")
	}
}

func TestPlayContext(t *testing.T) {
	t.Parallel()
	g, players := endless(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := g.PlayContext(ctx, players, 1, 0)
	assert.ErrorIs(t, err, sim.ErrInterrupted)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	// A context that is already done plays nothing.
	_, err = g.PlayContext(ctx, players, 1, 1)
	assert.ErrorIs(t, err, sim.ErrInterrupted)
	assert.ErrorContains(t, err, "before it started")
}

// TestInterruptLeavesTheGameUsable: after an interrupted game, the next
// game is the same as on a fresh Game, and a context that ends after its
// game does not stop the next one.
func TestInterruptLeavesTheGameUsable(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(3, 4)
	r := sim.RulesForTest(sim.FortifyOneStep)
	fresh, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	want, err := fresh.Play(sim.NewChaos(3, 0.02), 5, 1)
	require.NoError(t, err)
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	armed := true
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if armed && e.Kind == sim.EvTurn && e.Round == 3 {
			armed = false
			g.Interrupt()
		}
	}))
	_, err = g.Play(sim.NewChaos(3, 0.02), 5, 0)
	require.ErrorIs(t, err, sim.ErrInterrupted)
	ctx, cancel := context.WithCancel(context.Background())
	got, err := g.PlayContext(ctx, sim.NewChaos(3, 0.02), 5, 1)
	cancel()
	require.NoError(t, err)
	assert.Equal(t, want, got, "after an interrupted game")
	// Interrupt before Play stops the next game at once; only that one.
	g2, players := endless(t)
	g2.Interrupt()
	res, err := g2.Play(players, 1, 0)
	assert.ErrorIs(t, err, sim.ErrInterrupted)
	assert.Zero(t, res.Turns)
}
