package arena

import (
	"math/rand/v2"
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
	// Bots holds the decision times per bot label; it is empty when the
	// batch ran with Config.Timing off.
	Bots []BotTiming `json:"bots,omitempty"`
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
	// excluded), estimated from one call in sampleEvery (4) of each method.
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

// Methods of sim.Player timed by timedPlayer.
const (
	mPlaceInitial = iota
	mTrade
	mPlace
	mAttack
	mOccupy
	mFortify
	numMethods
)

// sampleEvery is the sampling period of timedPlayer: one call in
// sampleEvery of each method is timed (two reads of the monotonic clock,
// about 70 ns), so that timing costs a few per cent of a fast bot's game.
const sampleEvery = 4

// timedPlayer is a sim.Player decorator that measures the time spent in
// the wrapped player's decisions. It times every sampleEvery-th call of each
// method and scales the sum by the method's calls over its timed calls. It
// belongs to one worker.
type timedPlayer struct {
	p     sim.Player
	base  time.Time // clock origin: time.Since(base) reads only the monotonic clock
	games int       // calls of Start
	turns int       // calls of Place
	calls [numMethods]int64
	timed [numMethods]int64
	ns    [numMethods]int64
}

var _ sim.Player = (*timedPlayer)(nil)

func newTimedPlayer(p sim.Player) *timedPlayer { return &timedPlayer{p: p, base: time.Now()} }

// begin counts a call of method m and returns the clock if it is sampled.
func (t *timedPlayer) begin(m int) (time.Duration, bool) {
	c := t.calls[m]
	t.calls[m]++
	if c%sampleEvery != 0 {
		return 0, false
	}
	return time.Since(t.base), true
}

// end adds a sampled call of method m that began at t0.
func (t *timedPlayer) end(m int, t0 time.Duration) {
	t.timed[m]++
	t.ns[m] += int64(time.Since(t.base) - t0)
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
