package arena

import (
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/marslab-risk/marslab/sim"
)

// Timing holds the measured speed of a batch. Timings are measurements,
// not results: they go to timing.json, never into games.jsonl or
// summary.json, which stay byte-identical from run to run.
type Timing struct {
	// Games is the number of games played (and timed) by the run; after a
	// resume or a merge it adds up every part.
	Games int `json:"games"`
	// WallSeconds is the elapsed time of the run (summed over the parts of
	// a resumed run or of merged shards).
	WallSeconds float64 `json:"wall_seconds"`
	// GamesPerSecond is Games / WallSeconds: the throughput of one machine.
	GamesPerSecond float64 `json:"games_per_second"`
	// Clock is the clock of the decision times in Bots: [ClockThreadCPU]
	// (the CPU time of the worker's thread, where the operating system
	// gives it), clockWall (elapsed time, which grows with the machine's
	// load), [ClockMixed] (parts of a resumed or merged run measured with
	// different clocks), or empty (not timed, or a file written before the
	// field existed).
	Clock string `json:"clock,omitempty"`
	// Bots holds the decision times per bot label; it is empty when the
	// batch ran with [Config.Timing] off.
	Bots []BotTiming `json:"bots,omitempty"`
}

// The clocks of [Timing.Clock].
const (
	// ClockThreadCPU is the CPU time of the thread running the decision
	// (Linux: clock_gettime(CLOCK_THREAD_CPUTIME_ID), the worker's
	// goroutine locked to its thread while it plays): the bot's own work,
	// whatever else the machine runs.
	ClockThreadCPU = "thread-cpu"
	// clockWall is elapsed (monotonic) time, used where the thread's CPU
	// time is not available: it includes the time the thread waits for a
	// core on a loaded machine.
	clockWall = "wall"
	// ClockMixed marks timings added up from parts with different clocks.
	ClockMixed = "mixed"
)

// ClockName returns how tables name the clock of decision times c: "thread
// CPU", "wall", "mixed clocks" or, for an empty c, "unknown clock".
func ClockName(c string) string {
	switch c {
	case ClockThreadCPU:
		return "thread CPU"
	case clockWall:
		return "wall"
	case ClockMixed:
		return "mixed clocks"
	}
	return "unknown clock"
}

// BotTiming is the time one bot label spent deciding.
type BotTiming struct {
	// Bot is the seat label.
	Bot string `json:"bot"`
	// SeatGames is the number of seat-games timed.
	SeatGames int `json:"seat_games"`
	// Turns is the number of the bot's turns (calls of Place, one per turn).
	Turns int `json:"turns"`
	// DecisionSeconds is the time spent in the bot's methods (Start
	// excluded), estimated from one call in 16 (thread CPU time) or 4
	// (wall clock) of each method, on the clock of [Timing.Clock].
	DecisionSeconds float64 `json:"decision_seconds"`
	// SecondsPerTurn is DecisionSeconds / Turns.
	SecondsPerTurn float64 `json:"seconds_per_turn"`
	// SecondsPerGame is DecisionSeconds / SeatGames.
	SecondsPerGame float64 `json:"seconds_per_game"`
}

// finish fills the derived fields.
func (t *Timing) finish() {
	t.GamesPerSecond = 0
	if t.WallSeconds > 0 {
		t.GamesPerSecond = float64(t.Games) / t.WallSeconds
	}
	for i := range t.Bots {
		b := &t.Bots[i]
		b.SecondsPerTurn, b.SecondsPerGame = 0, 0
		if b.Turns > 0 {
			b.SecondsPerTurn = b.DecisionSeconds / float64(b.Turns)
		}
		if b.SeatGames > 0 {
			b.SecondsPerGame = b.DecisionSeconds / float64(b.SeatGames)
		}
	}
}

// add adds the counts of u to t (bots matched by label; new labels are
// appended in u's order).
func (t *Timing) add(u Timing) {
	if len(u.Bots) > 0 {
		switch {
		case len(t.Bots) == 0:
			t.Clock = u.Clock
		case t.Clock != u.Clock:
			t.Clock = ClockMixed
		}
	}
	t.Games += u.Games
	t.WallSeconds += u.WallSeconds
	for _, ub := range u.Bots {
		found := false
		for i := range t.Bots {
			if t.Bots[i].Bot == ub.Bot {
				t.Bots[i].SeatGames += ub.SeatGames
				t.Bots[i].Turns += ub.Turns
				t.Bots[i].DecisionSeconds += ub.DecisionSeconds
				found = true
				break
			}
		}
		if !found {
			t.Bots = append(t.Bots, BotTiming{Bot: ub.Bot, SeatGames: ub.SeatGames, Turns: ub.Turns, DecisionSeconds: ub.DecisionSeconds})
		}
	}
	t.finish()
}

// Methods of [sim.Player] timed by timedPlayer.
const (
	mPlaceInitial = iota
	mTrade
	mPlace
	mAttack
	mOccupy
	mFortify
	numMethods
)

// sampleEvery and sampleEveryCPU are the sampling periods of
// timedPlayer: one call in sampleEvery (wall clock) or sampleEveryCPU (the
// thread's CPU time) of each method is timed, so that timing costs a few
// per cent of a fast bot's game. Two readings of the monotonic clock cost
// about 70-150 ns; two of the thread's CPU time, a system call each, about
// 1.3 µs of CPU on a virtual machine (0.65 µs a reading), hence the longer
// period.
const (
	sampleEvery    = 4
	sampleEveryCPU = 16
)

// timedPlayer is a [sim.Player] decorator that measures the time spent in
// the wrapped player's decisions: the CPU time of the calling thread where
// the operating system gives it (cpu), else the monotonic wall clock. It
// times every every-th call of each method and scales the sum by the
// method's calls over its timed calls. It belongs to one worker, whose
// goroutine is locked to its OS thread while it plays (see [Pool.Play]), so
// that both readings of a call are of the same thread.
type timedPlayer struct {
	p     sim.Player
	cpu   bool      // the thread's CPU time (threadCPU), else the wall clock
	every int64     // sampling period: sampleEveryCPU or sampleEvery
	bias  int64     // the clock's own cost in a timed call, ns (see newTimedPlayer)
	base  time.Time // wall clock origin: time.Since(base) reads only the monotonic clock
	games int       // calls of Start
	turns int       // calls of Place
	calls [numMethods]int64
	timed [numMethods]int64
	ns    [numMethods]int64
}

var _ sim.Player = (*timedPlayer)(nil)

// newTimedPlayer wraps p, timing it with the thread's CPU time where
// threadCPU works, else with the wall clock. With the thread's CPU time,
// each timed call is charged its readings less the clock's own cost: the
// least difference of biasReadings back-to-back pairs of readings (the
// part of a system call that falls between the two readings), measured
// here.
func newTimedPlayer(p sim.Player) *timedPlayer {
	t := &timedPlayer{p: p, every: sampleEvery, base: time.Now()}
	if _, ok := threadCPU(); ok {
		t.cpu, t.every = true, sampleEveryCPU
		runtime.LockOSThread()
		t.bias = math.MaxInt64
		for range biasReadings {
			a, _ := threadCPU()
			b, _ := threadCPU()
			t.bias = min(t.bias, int64(b-a))
		}
		runtime.UnlockOSThread()
	}
	return t
}

// biasReadings is the number of pairs of readings newTimedPlayer takes to
// measure the thread clock's own cost.
const biasReadings = 32

// clock returns the name of the clock the player is timed with.
func (t *timedPlayer) clock() string {
	if t.cpu {
		return ClockThreadCPU
	}
	return clockWall
}

// now reads the player's clock.
func (t *timedPlayer) now() time.Duration {
	if t.cpu {
		d, _ := threadCPU() // it worked when the player was made
		return d
	}
	return time.Since(t.base)
}

// begin counts a call of method m and returns the clock if it is sampled.
func (t *timedPlayer) begin(m int) (time.Duration, bool) {
	c := t.calls[m]
	t.calls[m]++
	if c%t.every != 0 {
		return 0, false
	}
	return t.now(), true
}

// end adds a sampled call of method m that began at t0.
func (t *timedPlayer) end(m int, t0 time.Duration) {
	t.timed[m]++
	t.ns[m] += max(0, int64(t.now()-t0)-t.bias)
}

// seconds returns the estimated total decision time.
func (t *timedPlayer) seconds() float64 {
	sum := 0.0
	for m := range t.calls {
		if t.timed[m] > 0 {
			sum += float64(t.ns[m]) * float64(t.calls[m]) / float64(t.timed[m])
		}
	}
	return sum / 1e9
}

func (t *timedPlayer) Start(s *sim.State, seat int, rng *rand.Rand) {
	t.games++
	t.p.Start(s, seat, rng)
}

func (t *timedPlayer) PlaceInitial(s *sim.State) int {
	if t0, ok := t.begin(mPlaceInitial); ok {
		v := t.p.PlaceInitial(s)
		t.end(mPlaceInitial, t0)
		return v
	}
	return t.p.PlaceInitial(s)
}

func (t *timedPlayer) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if t0, ok := t.begin(mTrade); ok {
		set, yes := t.p.Trade(s, forced)
		t.end(mTrade, t0)
		return set, yes
	}
	return t.p.Trade(s, forced)
}

func (t *timedPlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	t.turns++
	if t0, ok := t.begin(mPlace); ok {
		buf = t.p.Place(s, armies, buf)
		t.end(mPlace, t0)
		return buf
	}
	return t.p.Place(s, armies, buf)
}

func (t *timedPlayer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if t0, ok := t.begin(mAttack); ok {
		o, yes := t.p.Attack(s)
		t.end(mAttack, t0)
		return o, yes
	}
	return t.p.Attack(s)
}

func (t *timedPlayer) Occupy(s *sim.State, from, to, lo, hi int) int {
	if t0, ok := t.begin(mOccupy); ok {
		k := t.p.Occupy(s, from, to, lo, hi)
		t.end(mOccupy, t0)
		return k
	}
	return t.p.Occupy(s, from, to, lo, hi)
}

func (t *timedPlayer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	if t0, ok := t.begin(mFortify); ok {
		buf = t.p.Fortify(s, buf)
		t.end(mFortify, t0)
		return buf
	}
	return t.p.Fortify(s, buf)
}
