package learn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/marslab-risk/marslab/bots"
)

// Errors of [Env.Step].
var (
	// errNoEpisode: Step before the first Reset.
	errNoEpisode = errors.New("learn: step before reset")
	// errDone: Step after the episode ended; Reset starts the next.
	errDone = errors.New("learn: step after the episode is done")
	// errClosed: Reset or Step after Close.
	errClosed = errors.New("learn: environment closed")
)

// Info describes the state of an episode after Reset or Step.
type Info struct {
	// Seat is the learner's seat; Opponents the labels of the bots in the
	// seats, "" at the learner's.
	Seat      int      `json:"seat"`
	Opponents []string `json:"opponents"`
	// Step is the number of actions taken in the episode so far.
	Step int `json:"step"`
	// Round is the game's round at the observation.
	Round int `json:"round"`
	// End reports that the episode ended; then the fields below are set:
	// how it ended, the learner's rank in territories (0 = most) and its
	// total reward. Info's JSON form holds their keys (won, eliminated,
	// stalemate, rank, return) exactly when End is true, false and 0
	// included.
	End        bool
	Won        bool
	Eliminated bool
	Stalemate  bool
	Rank       int
	Return     float64
}

// MarshalJSON writes seat, opponents, step and round, and at the end (End)
// every one of won, eliminated, stalemate, rank and return.
func (i Info) MarshalJSON() ([]byte, error) {
	type base struct {
		Seat      int      `json:"seat"`
		Opponents []string `json:"opponents"`
		Step      int      `json:"step"`
		Round     int      `json:"round"`
	}
	b := base{i.Seat, i.Opponents, i.Step, i.Round}
	if !i.End {
		return json.Marshal(b)
	}
	return json.Marshal(struct {
		base
		Won        bool    `json:"won"`
		Eliminated bool    `json:"eliminated"`
		Stalemate  bool    `json:"stalemate"`
		Rank       int     `json:"rank"`
		Return     float64 `json:"return"`
	}{b, i.Won, i.Eliminated, i.Stalemate, i.Rank, i.Return})
}

// Env is the Gym-style environment: Reset starts an episode, Step plays
// one of the learner's turns with the chosen action and then the other
// seats' turns up to the learner's next turn (or the end). The game runs on
// a goroutine of its own, which hands over each observation and receives
// each action through two unbuffered channels; Close ends it. An Env is
// used by one goroutine at a time.
type Env struct {
	r       *Runner
	opp     []string
	actCh   chan int
	evCh    chan envEvent
	running bool // an episode goroutine is alive
	started bool // Reset was called
	done    bool
	closed  bool
	step    int
	seed    uint64
	info    Info
}

// envEvent is what the episode goroutine sends: an observation to act on
// (obs valid until the next action is sent), or the end of the episode.
type envEvent struct {
	obs   []float64
	round int
	end   bool
	out   Outcome
	err   error
}

// NewEnv returns an environment for cfg with the bots of reg, which must
// not be nil.
func NewEnv(cfg *Config, reg *bots.Registry) (*Env, error) {
	r, err := NewRunner(cfg, reg)
	if err != nil {
		return nil, err
	}
	return &Env{r: r, opp: r.opponentNames(), actCh: make(chan int), evCh: make(chan envEvent)}, nil
}

// NumActions returns the size of the action space.
func (e *Env) NumActions() int { return e.r.NumActions() }

// observationNames names the observation's values.
func (e *Env) observationNames() []string { return e.r.ObservationNames() }

// ActionNames returns the actions' labels.
func (e *Env) ActionNames() []string { return e.r.ActionNames() }

// Reset ends the current episode, if any, and starts episode 0 of seed
// (Runner.Run(seed, 0)): the observation at the learner's first turn. The
// observation is valid until the next Reset, Step or Close. If the episode
// ends before the learner's first turn, Done reports true and the
// observation is the final one.
func (e *Env) Reset(seed uint64) ([]float64, Info, error) {
	if e.closed {
		return nil, Info{}, errClosed
	}
	e.stop()
	e.started, e.done, e.step, e.seed, e.info = true, false, 0, seed, Info{}
	e.running = true
	go e.episode(seed)
	ev := <-e.evCh
	return e.receive(ev)
}

// episode plays one game, handing each decision to Step.
func (e *Env) episode(seed uint64) {
	out, err := e.r.Run(context.Background(), seed, 0, func(obs []float64) int {
		e.evCh <- envEvent{obs: obs, round: e.r.game.State().Round()}
		return <-e.actCh
	})
	e.evCh <- envEvent{obs: e.r.Final(), end: true, out: out, err: err}
}

// receive turns what the episode goroutine sent into Reset's or Step's
// answer.
func (e *Env) receive(ev envEvent) ([]float64, Info, error) {
	if !ev.end {
		e.info.Step, e.info.Round = e.step, ev.round
		if e.step == 0 {
			e.fillSeats()
		}
		return ev.obs, e.info, nil
	}
	e.running, e.done = false, true
	if ev.err != nil {
		return nil, Info{}, ev.err
	}
	e.fillSeatsFrom(ev.out)
	info := e.info
	info.Step, info.Round = ev.out.Steps, ev.out.Rounds
	info.End, info.Won, info.Eliminated, info.Stalemate = true, ev.out.Won, ev.out.Eliminated, ev.out.Stalemate
	info.Rank, info.Return = ev.out.Rank, ev.out.Return
	e.info = info
	return ev.obs, info, nil
}

// fillSeats records the episode's seat and opponents, which Run draws
// from the seed before the first decision: the same draw is repeated here.
func (e *Env) fillSeats() {
	seat, opp := e.r.draw(e.seed, 0)
	e.fillSeatsFrom(Outcome{Seat: seat, Opponents: opp})
}

func (e *Env) fillSeatsFrom(o Outcome) {
	e.info.Seat = o.Seat
	e.info.Opponents = make([]string, len(o.Opponents))
	for p, k := range o.Opponents {
		if k >= 0 {
			e.info.Opponents[p] = e.opp[k]
		}
	}
}

// Step plays the learner's turn with action (0 .. NumActions()-1) and
// the other seats' turns up to its next one. It returns the next
// observation (valid until the next call), the step's reward, whether the
// episode is done and its Info. An action out of range, a Step before
// Reset or after done is an error and changes nothing.
func (e *Env) Step(action int) ([]float64, float64, bool, Info, error) {
	switch {
	case e.closed:
		return nil, 0, false, Info{}, errClosed
	case !e.started:
		return nil, 0, false, Info{}, errNoEpisode
	case e.done:
		return nil, 0, true, e.info, errDone
	case action < 0 || action >= e.NumActions():
		return nil, 0, false, e.info, fmt.Errorf("learn: action %d out of range: want 0..%d", action, e.NumActions()-1)
	}
	e.actCh <- action
	e.step++
	ev := <-e.evCh
	obs, info, err := e.receive(ev)
	if err != nil {
		return nil, 0, true, info, err
	}
	reward := e.r.s.cfg.Rewards.PerTurn
	if ev.end {
		reward = ev.out.Final
	}
	return obs, reward, ev.end, info, nil
}

// Done reports whether the current episode has ended.
func (e *Env) Done() bool { return e.done }

// stop ends a running episode: its goroutine is told to abort and waited
// for.
func (e *Env) stop() {
	if !e.running {
		return
	}
	e.actCh <- Abort
	for ev := range e.evCh {
		if ev.end {
			break
		}
		e.actCh <- Abort
	}
	e.running = false
}

// Close ends the current episode's goroutine, if any; the Env is unusable
// afterwards. Close is idempotent.
func (e *Env) Close() error {
	if e.closed {
		return nil
	}
	e.stop()
	e.closed = true
	return nil
}
