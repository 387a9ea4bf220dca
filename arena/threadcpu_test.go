package arena

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// stubPlayer runs place in its Place method and answers nothing else.
type stubPlayer struct{ place func() }

func (p *stubPlayer) Start(*sim.State, int, *rand.Rand)         {}
func (p *stubPlayer) PlaceInitial(*sim.State) int               { return 0 }
func (p *stubPlayer) Trade(*sim.State, bool) ([3]int, bool)     { return [3]int{}, false }
func (p *stubPlayer) Attack(*sim.State) (sim.AttackOrder, bool) { return sim.AttackOrder{}, false }
func (p *stubPlayer) Occupy(_ *sim.State, _, _, lo, _ int) int  { return lo }
func (p *stubPlayer) Fortify(_ *sim.State, buf []sim.Move) []sim.Move {
	return buf
}
func (p *stubPlayer) Place(_ *sim.State, _ int, buf []sim.Placement) []sim.Placement {
	p.place()
	return buf
}

// TestTimedPlayerClock checks the decision clock: where the thread's CPU
// time is available, a decision that sleeps 30 ms costs (almost) nothing
// and one that computes for 30 ms costs its CPU time, which the wall clock
// would not tell apart.
func TestTimedPlayerClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sleepy := newTimedPlayer(&stubPlayer{place: func() { time.Sleep(30 * time.Millisecond) }})
	x := 1.0
	busy := newTimedPlayer(&stubPlayer{place: func() {
		for t0 := time.Now(); time.Since(t0) < 30*time.Millisecond; {
			x = x*1.0000001 + 1e-9
		}
	}})
	sleepy.Place(nil, 3, nil) // the first call of a method is sampled
	busy.Place(nil, 3, nil)
	require.Positive(t, x)
	if _, ok := threadCPU(); !ok {
		assert.Equal(t, clockWall, sleepy.clock(), "no thread clock: the wall clock")
		assert.GreaterOrEqual(t, sleepy.seconds(), 0.030, "wall time of a 30 ms sleep")
		return
	}
	assert.Equal(t, ClockThreadCPU, sleepy.clock())
	assert.Less(t, sleepy.seconds(), 0.005, "CPU time of a 30 ms sleep")
	// The busy decision's CPU time is at most its 30 ms of wall time (plus
	// the clock's granularity) and more than nothing; on a loaded machine it
	// may get well under 30 ms of a core.
	assert.Positive(t, busy.seconds(), "CPU time of 30 ms of work")
	assert.Less(t, busy.seconds(), 0.040, "CPU time of 30 ms of work")
}
