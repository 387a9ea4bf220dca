package learn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// streamEpisode names the random stream that draws an episode's seat and
// opponents from its game seed (sim.GameSeed(seed, index)).
const streamEpisode = 0x6c6561726e // "learn"

// ErrAborted is wrapped by the error of a Run whose decide function
// answered Abort.
var ErrAborted = errors.New("learn: episode aborted")

// Abort is the answer of a decide function that ends the episode: the
// learner's turn is played on with action 0 and the game stops before the
// next turn (Run returns an error wrapping [ErrAborted]).
const Abort = -1

// Outcome is the result of one episode, from the learner's seat.
type Outcome struct {
	// Seat is the learner's seat; Opponents[seat] the index into
	// [Config.Opponents] of the bot in each other seat (-1 at the learner's).
	Seat      int
	Opponents []int
	// Steps is the number of decisions the learner made (its turns).
	Steps int
	// Final is the reward of the last step: [Rewards.PerTurn] plus the end
	// reward ([Rewards.Win], Loss, Eliminated or Placement[Rank]).
	Final float64
	// Return is the episode's total reward: PerTurn·(Steps-1) + Final
	// (0 when the learner made no decision).
	Return float64
	// Won, Eliminated and Stalemate say how the episode ended for the
	// learner; Rank is the number of seats owning more territories than it
	// at the end (the index into [Rewards.Placement] at a stalemate).
	Won, Eliminated, Stalemate bool
	Rank                       int
	// Rounds is the round the episode ended in.
	Rounds int
	// PerTurn is the reward of every step but the last ([Rewards.PerTurn]).
	PerTurn float64
}

// Runner plays episodes on the game's own goroutine, calling a decide
// function at each of the learner's turns. A Runner plays one episode at
// a time; make one per goroutine. Nothing is allocated per step.
type Runner struct {
	s       *setup
	game    *sim.Game
	obs     *observer
	learner *switcher
	opp     [][]sim.Player // opp[seat][option]
	players []sim.Player
	buf     []float64
}

// NewRunner builds a Runner for cfg with the bots of reg, which must not
// be nil.
func NewRunner(cfg *Config, reg *bots.Registry) (*Runner, error) {
	s, err := cfg.resolve(reg)
	if err != nil {
		return nil, err
	}
	g, err := sim.NewGame(s.m, s.rules, cfg.Players)
	if err != nil {
		return nil, fmt.Errorf("env config: %w", err)
	}
	r := &Runner{s: s, game: g, players: make([]sim.Player, cfg.Players)}
	r.obs = newObserver(s.m, s.rules, s.features, len(s.names))
	r.buf = make([]float64, 0, len(s.names))
	r.learner = &switcher{r: r}
	for _, a := range s.actions {
		p, err := a.New()
		if err != nil {
			return nil, fmt.Errorf("env config: action %s: %w", a.Label, err)
		}
		r.learner.acts = append(r.learner.acts, p)
	}
	r.opp = make([][]sim.Player, cfg.Players)
	for seat := range r.opp {
		for _, o := range s.opponents {
			p, err := o.New()
			if err != nil {
				return nil, fmt.Errorf("env config: opponent %s: %w", o.Label, err)
			}
			r.opp[seat] = append(r.opp[seat], p)
		}
	}
	return r, nil
}

// NumActions returns the size of the action space.
func (r *Runner) NumActions() int { return len(r.s.actions) }

// NumObservations is the length of an observation (ObservationNames).
func (r *Runner) NumObservations() int { return len(r.s.names) }

// ObservationNames names the observation's values, in order.
func (r *Runner) ObservationNames() []string { return append([]string(nil), r.s.names...) }

// ActionNames returns the actions' labels, in order.
func (r *Runner) ActionNames() []string {
	out := make([]string, len(r.s.actions))
	for i, a := range r.s.actions {
		out[i] = a.Label
	}
	return out
}

// opponentNames returns the opponents' labels, in order.
func (r *Runner) opponentNames() []string {
	out := make([]string, len(r.s.opponents))
	for i, a := range r.s.opponents {
		out[i] = a.Label
	}
	return out
}

// Run plays episode index of the experiment seed: the game
// sim.GameSeed(seed, index), its seat and opponents drawn from that seed
// too, so an episode depends on (seed, index) and the decisions alone.
// decide is called at the start of each of the learner's turns with the
// observation (valid during the call) and returns the action, 0 ..
// NumActions()-1, or Abort. The final observation, from the learner's
// seat, is left in the slice Final returns. Run stops when ctx is done
// (the error wraps [sim.ErrInterrupted]).
func (r *Runner) Run(ctx context.Context, seed, index uint64, decide func(obs []float64) int) (Outcome, error) {
	cfg := r.s.cfg
	seat, opp := r.draw(seed, index)
	out := Outcome{Seat: seat, Opponents: opp}
	for p := range cfg.Players {
		if p == seat {
			r.players[p] = r.learner
		} else {
			r.players[p] = r.opp[p][opp[p]]
		}
	}
	sw := r.learner
	var res sim.Result
	var err error
	for try := 0; try < 2; try++ {
		sw.reset(seat, decide)
		res, err = r.game.PlayContext(ctx, r.players, seed, index)
		// A stop requested in a game that then ended on its own turn is
		// left pending and stops the next game before its first turn:
		// play that game again.
		if err == nil || sw.requested || ctx.Err() != nil || !errors.Is(err, sim.ErrInterrupted) || sw.steps > 0 {
			break
		}
	}
	out.Steps = sw.steps
	switch {
	case sw.badAction != nil:
		return out, sw.badAction
	case sw.aborted:
		return out, fmt.Errorf("%w after %d steps", ErrAborted, sw.steps)
	case err != nil && !sw.eliminated:
		return out, err
	}
	st := r.game.State()
	if !sw.ended {
		// Interrupted after the learner's elimination: the observation from
		// the public board (every feature is public).
		r.buf = r.obs.observe(st, seat, r.buf)
	}
	out.Rounds = st.Round()
	for p := range cfg.Players {
		if st.TerritoryCount(p) > st.TerritoryCount(seat) {
			out.Rank++
		}
	}
	rw := &cfg.Rewards
	out.PerTurn = rw.PerTurn
	var end float64
	switch {
	case sw.eliminated:
		out.Eliminated = true
		end = rw.Eliminated
	case err == nil && res.Winner == seat:
		out.Won = true
		end = rw.Win
	case err == nil && res.Stalemate:
		out.Stalemate = true
		end = rw.Placement[out.Rank]
	default:
		end = rw.Loss
	}
	if out.Steps > 0 {
		out.Final = rw.PerTurn + end
		out.Return = rw.PerTurn*float64(out.Steps-1) + out.Final
	}
	return out, nil
}

// Final returns the last episode's final observation, from the learner's
// seat (valid until the next Run).
func (r *Runner) Final() []float64 { return r.buf }

// switcher is the learner's seat: it asks for an action at the start of
// each of its turns and lets that action's bot play the turn.
type switcher struct {
	r      *Runner
	acts   []sim.Player
	decide func([]float64) int

	seat, cur, round, steps int
	stopped, requested      bool
	eliminated, ended       bool
	aborted                 bool
	badAction               error
}

func (w *switcher) reset(seat int, decide func([]float64) int) {
	w.seat, w.decide = seat, decide
	w.cur, w.round, w.steps = 0, -1, 0
	w.stopped, w.requested, w.eliminated, w.ended, w.aborted = false, false, false, false, false
	w.badAction = nil
}

func (w *switcher) stop() {
	w.stopped, w.requested = true, true
	w.r.game.Interrupt()
}

// turn asks for the action at the first call of each of its turns.
func (w *switcher) turn(s *sim.State) sim.Player {
	if !w.stopped && s.Round() != w.round {
		w.round = s.Round()
		obs := w.r.obs.observe(s, w.seat, w.r.buf)
		w.r.buf = obs
		a := w.decide(obs)
		switch {
		case a == Abort:
			w.aborted = true
			w.stop()
			a = 0
		case a < 0 || a >= len(w.acts):
			w.badAction = fmt.Errorf("learn: action %d out of range: want 0..%d", a, len(w.acts)-1)
			w.stop()
			a = 0
		default:
			w.steps++
		}
		w.cur = a
	}
	return w.acts[w.cur]
}

func (w *switcher) Start(s *sim.State, seat int, rng *rand.Rand) {
	for _, a := range w.acts {
		a.Start(s, seat, rng)
	}
}

// PlaceInitial lets action 0 place the starting armies (only under rules
// where the bots place them).
func (w *switcher) PlaceInitial(s *sim.State) int { return w.acts[0].PlaceInitial(s) }

func (w *switcher) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return w.turn(s).Trade(s, forced)
}

func (w *switcher) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return w.turn(s).Place(s, armies, buf)
}

func (w *switcher) Attack(s *sim.State) (sim.AttackOrder, bool) { return w.turn(s).Attack(s) }

func (w *switcher) Occupy(s *sim.State, from, to, lo, hi int) int {
	return w.turn(s).Occupy(s, from, to, lo, hi)
}

func (w *switcher) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	return w.turn(s).Fortify(s, buf)
}

// Watch notices the learner's elimination (and ends the episode there)
// and passes every event on to the actions that watch.
func (w *switcher) Watch(e *sim.Event) {
	if e.Kind == sim.EvElimination && e.Other == w.seat && !w.eliminated {
		w.eliminated = true
		if !w.stopped {
			w.stop()
		}
	}
	for _, a := range w.acts {
		if wa, ok := a.(sim.Watcher); ok {
			wa.Watch(e)
		}
	}
}

// End records the final observation from the learner's seat.
func (w *switcher) End(s *sim.State, res sim.Result) {
	w.ended = true
	w.r.buf = w.r.obs.observe(s, w.seat, w.r.buf)
	for _, a := range w.acts {
		if ea, ok := a.(sim.Ender); ok {
			ea.End(s, res)
		}
	}
}

// draw returns the seat and opponents of episode (seed, index), as Run
// draws them.
func (r *Runner) draw(seed, index uint64) (int, []int) {
	cfg := r.s.cfg
	rng := rand.New(rand.NewPCG(sim.GameSeed(seed, index), streamEpisode))
	seat := cfg.Seat
	if seat < 0 {
		seat = rng.IntN(cfg.Players)
	}
	opp := make([]int, cfg.Players)
	for p := range cfg.Players {
		if p == seat {
			opp[p] = -1
			continue
		}
		opp[p] = rng.IntN(len(r.opp[p]))
	}
	return seat, opp
}
