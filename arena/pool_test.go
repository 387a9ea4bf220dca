package arena

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// turnCounter is a GameObserver that counts a game's turns and records its
// winner from the events.
type turnCounter struct {
	turns, winner int
}

func (c *turnCounter) Observe(e *sim.Event) {
	switch e.Kind {
	case sim.EvStart:
		c.turns, c.winner = 0, -2
	case sim.EvTurn:
		c.turns++
	case sim.EvGameEnd:
		c.winner = e.Player
	}
}

func (c *turnCounter) GameResult(int) any { return [2]int{c.turns, c.winner} }

func poolConfig(t testing.TB, workers int) PoolConfig {
	cfg := testConfig(t, testPlayers, 1)
	return PoolConfig{Map: cfg.Map, Rules: cfg.Rules, Seats: cfg.Seats, Seed: cfg.Seed, Workers: workers,
		Observers: func(int) []GameObserver { return []GameObserver{&turnCounter{}} }}
}

// playOdd plays the odd games 1, 3, ..., 2·count-1 and returns their
// outcomes in emit order.
func playOdd(t *testing.T, p *Pool, count int) []Outcome {
	t.Helper()
	var got []Outcome
	n, err := p.Play(context.Background(), count, func(k int) int { return 2*k + 1 }, func(k int, o *Outcome) error {
		require.Equal(t, len(got), k, "emit order")
		got = append(got, *o)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, count, n)
	return got
}

func TestPoolObservers(t *testing.T) {
	t.Parallel()
	const count = 25
	p1, err := NewPool(poolConfig(t, 1))
	require.NoError(t, err)
	assert.Equal(t, 1, len(p1.workers))
	one := playOdd(t, p1, count)
	for k, o := range one {
		assert.Equal(t, 2*k+1, o.Record.Game)
		require.Len(t, o.Observed, 1)
		assert.Equal(t, [2]int{o.Record.Turns, o.Record.Winner}, o.Observed[0], "game %d: observed turns and winner", o.Record.Game)
	}

	// Three workers give the same outcomes, observations included.
	p3, err := NewPool(poolConfig(t, 3))
	require.NoError(t, err)
	assert.Equal(t, one, playOdd(t, p3, count))

	// The records are those of a batch of the same seed.
	cfg := testConfig(t, testPlayers, 2*count)
	var recs []Record
	cfg.OnRecord = func(r Record) { recs = append(recs, r) }
	var observed [][]any
	cfg.Observers = poolConfig(t, 0).Observers
	cfg.OnObserved = func(g int, res []any) {
		assert.Equal(t, len(observed), g)
		observed = append(observed, res)
	}
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	for k, o := range one {
		assert.Equal(t, recs[2*k+1], o.Record)
		assert.Equal(t, observed[2*k+1], o.Observed)
	}
}

// TestPoolReuseAfterCancel plays again on a pool whose last Play was
// cancelled: the interruptions of the cancelled play must not cut the
// games of the next one short.
func TestPoolReuseAfterCancel(t *testing.T) {
	t.Parallel()
	cfg := poolConfig(t, 3)
	p, err := NewPool(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	n, err := p.Play(ctx, 40, func(k int) int { return k }, func(k int, _ *Outcome) error {
		if k == 2 {
			cancel()
		}
		return nil
	})
	cancel()
	require.ErrorIs(t, err, ErrInterrupted)
	require.ErrorIs(t, err, context.Canceled)
	assert.GreaterOrEqual(t, n, 3)
	assert.Less(t, n, 40)

	again := playOdd(t, p, 12)
	fresh, err := NewPool(cfg)
	require.NoError(t, err)
	assert.Equal(t, playOdd(t, fresh, 12), again)
}

func TestPoolEmitError(t *testing.T) {
	t.Parallel()
	p, err := NewPool(poolConfig(t, 2))
	require.NoError(t, err)
	stop := errors.New("disk full")
	n, err := p.Play(context.Background(), 30, func(k int) int { return k }, func(k int, _ *Outcome) error {
		if k == 3 {
			return stop
		}
		return nil
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 3, n)

	// A line-up the schedule gets wrong is an error naming the game.
	cfg := poolConfig(t, 1)
	cfg.Schedule = badSchedule{rotation{Seats: 4}}
	p, err = NewPool(cfg)
	require.NoError(t, err)
	_, err = p.Play(context.Background(), 5, func(k int) int { return k }, func(int, *Outcome) error { return nil })
	assert.ErrorContains(t, err, "game 0: entry 0 seated twice")
}

// badSchedule seats entry 0 everywhere.
type badSchedule struct{ rotation }

func (badSchedule) Lineup(_ int, dst []int) []int { return append(dst[:0], 0, 0, 0, 0) }

// TestRunSubsets plays a pool of five bots three at a time: each bot plays
// only the games of the subsets it is in, and the summary counts those.
func TestRunSubsets(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, "aggressive,pacifist,passive,random,random(stop=0.5)", 0)
	sched, err := NewSubsets(5, 3, 2, 5)
	require.NoError(t, err)
	cfg.Schedule = sched
	cfg.Games = sched.Games()
	ref := filepath.Join(base, "ref")
	rep := runTo(t, cfg, ref)
	require.Len(t, rep.Summary, 5)
	for _, s := range rep.Summary {
		// C(4,2) subsets hold a given bot, each played twice.
		assert.Equal(t, 12, s.Games, s.Bot)
		assert.Len(t, s.Placements, 3, s.Bot)
		sum := 0
		for _, c := range s.Placements {
			sum += c
		}
		assert.Equal(t, 12, sum, s.Bot)
	}
	h, err := ReadHeader(ref)
	require.NoError(t, err)
	assert.Equal(t, sched.Spec(), h.Schedule)
	assert.Equal(t, cfg.Rules.End.RoundLimit, h.RoundLimit)
	// config.json's rules_sha256 is a game log's (sim.RulesDigest).
	digest, err := sim.RulesDigest(cfg.Rules)
	require.NoError(t, err)
	assert.Equal(t, digest, h.RulesSHA256)

	// Workers and shards do not change the results.
	c := cfg
	c.Workers = 3
	dir := filepath.Join(base, "w3")
	runTo(t, c, dir)
	sameFiles(t, ref, dir)
	dirs := runShards(t, cfg, base, 2)
	merged := filepath.Join(base, "merged")
	_, err = Merge(merged, dirs)
	require.NoError(t, err)
	sameFiles(t, ref, merged)

	// Resume refuses another schedule.
	other, err := NewSubsets(5, 3, 2, 6)
	require.NoError(t, err)
	c = withOut(cfg, ref)
	c.Resume = true
	c.Schedule = other
	_, err = Run(context.Background(), c)
	assert.ErrorContains(t, err, "schedule subsets(3 of 5, x2, seed 5) vs subsets(3 of 5, x2, seed 6)")

	invalid := []struct {
		change func(c *Config)
		err    string
	}{
		{func(c *Config) { c.Games = 21 }, "games 21: schedule subsets has 20 games"},
		{func(c *Config) { c.Seats = c.Seats[:4] }, "4 seats for schedule subsets(3 of 5, x2, seed 5): want one seat per entry of its pool (5)"},
	}
	for _, tt := range invalid {
		c := cfg
		tt.change(&c)
		_, err := Run(context.Background(), c)
		assert.ErrorContains(t, err, tt.err)
	}
}

func ExamplePool() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("mars2006")
	seats, _ := registry.Default().ParseSeats("aggressive,pacifist,passive,random", nil)
	// Every 3-subset of the four bots, once, on two workers; an observer
	// counts each game's attacks.
	sched, _ := NewSubsets(len(seats), 3, 1, 1)
	p, err := NewPool(PoolConfig{Map: m, Rules: r, Seats: seats, Schedule: sched, Seed: 1, Workers: 2,
		Observers: func(int) []GameObserver { return []GameObserver{&rollCounter{}} }})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = p.Play(context.Background(), sched.Games(), func(k int) int { return k }, func(k int, o *Outcome) error {
		fmt.Printf("game %d: %d seats, dice rolled: %v\n", o.Record.Game, len(o.Record.Seating), o.Observed[0].(int) > 0)
		return nil
	})
	fmt.Println(err)
	// Output:
	// game 0: 3 seats, dice rolled: true
	// game 1: 3 seats, dice rolled: true
	// game 2: 3 seats, dice rolled: true
	// game 3: 3 seats, dice rolled: true
	// <nil>
}

// rollCounter counts the dice rolls of each game.
type rollCounter struct{ rolls int }

func (c *rollCounter) Observe(e *sim.Event) {
	switch e.Kind {
	case sim.EvStart:
		c.rolls = 0
	case sim.EvRoll:
		c.rolls++
	}
}

func (c *rollCounter) GameResult(int) any { return c.rolls }

// flightCounter is a GameObserver that counts the games in flight across
// the workers of every pool it watches and keeps the most at once.
type flightCounter struct {
	turnCounter
	now, most *atomic.Int32
}

func (c *flightCounter) Observe(e *sim.Event) {
	if e.Kind == sim.EvStart {
		n := c.now.Add(1)
		for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
		}
	}
	c.turnCounter.Observe(e)
}

func (c *flightCounter) GameResult(g int) any {
	c.now.Add(-1)
	return c.turnCounter.GameResult(g)
}

// TestPoolSlots plays two pools of two workers each at the same time on
// one shared slot: never more than one game at once, and the outcomes of
// each pool are those it plays alone.
func TestPoolSlots(t *testing.T) {
	t.Parallel()
	const count = 12
	var now, most atomic.Int32
	slots := make(chan struct{}, 1)
	pools := make([]*Pool, 2)
	for i := range pools {
		cfg := poolConfig(t, 2)
		cfg.Slots = slots
		cfg.Observers = func(int) []GameObserver {
			return []GameObserver{&flightCounter{now: &now, most: &most}}
		}
		var err error
		pools[i], err = NewPool(cfg)
		require.NoError(t, err)
	}
	got := make([][]Outcome, len(pools))
	var wg sync.WaitGroup
	for i, p := range pools {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Play(context.Background(), count, func(k int) int { return 2*k + 1 }, func(k int, o *Outcome) error {
				got[i] = append(got[i], *o)
				return nil
			})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), most.Load(), "games in flight at once")
	alone, err := NewPool(poolConfig(t, 1))
	require.NoError(t, err)
	want := playOdd(t, alone, count)
	for i := range pools {
		assert.Equal(t, want, got[i], "pool %d", i)
	}
}
