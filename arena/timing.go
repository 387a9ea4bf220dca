package arena

import (
	"math/rand/v2"
	"time"

	"marslab/sim"
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
	// DecisionSeconds is the total time spent in the bot's methods (Start
	// excluded).
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

// timedPlayer is a sim.Player decorator that measures the time spent in
// each decision of the wrapped player. It belongs to one worker.
type timedPlayer struct {
	p     sim.Player
	ns    int64 // nanoseconds in decisions
	games int   // calls of Start
	turns int   // calls of Place
}

var _ sim.Player = (*timedPlayer)(nil)

func (t *timedPlayer) Start(s *sim.State, seat int, rng *rand.Rand) {
	t.games++
	t.p.Start(s, seat, rng)
}

func (t *timedPlayer) PlaceInitial(s *sim.State) int {
	t0 := time.Now()
	v := t.p.PlaceInitial(s)
	t.ns += int64(time.Since(t0))
	return v
}

func (t *timedPlayer) Trade(s *sim.State, forced bool) ([3]int, bool) {
	t0 := time.Now()
	set, ok := t.p.Trade(s, forced)
	t.ns += int64(time.Since(t0))
	return set, ok
}

func (t *timedPlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	t.turns++
	t0 := time.Now()
	buf = t.p.Place(s, armies, buf)
	t.ns += int64(time.Since(t0))
	return buf
}

func (t *timedPlayer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	t0 := time.Now()
	o, ok := t.p.Attack(s)
	t.ns += int64(time.Since(t0))
	return o, ok
}

func (t *timedPlayer) Occupy(s *sim.State, from, to, lo, hi int) int {
	t0 := time.Now()
	k := t.p.Occupy(s, from, to, lo, hi)
	t.ns += int64(time.Since(t0))
	return k
}

func (t *timedPlayer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	t0 := time.Now()
	buf = t.p.Fortify(s, buf)
	t.ns += int64(time.Since(t0))
	return buf
}
