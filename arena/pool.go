package arena

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// PoolConfig configures a Pool.
type PoolConfig struct {
	// Map and Rules are the board and rule set of every game.
	Map   *sim.Map
	Rules *sim.Rules
	// Seats are the entries of the pool, in the order the schedule indexes
	// them; every worker makes one player of each.
	Seats []bots.Seat
	// Schedule gives each game's line-up and random stream; nil means
	// rotation{Seats: len(Seats)}.
	Schedule Schedule
	// Seed is the experiment seed: game g is played with the random streams
	// of sim.GameSeed(Seed, Schedule.Stream(g)).
	Seed uint64
	// Workers is the number of goroutines playing games, each with its own
	// [sim.Game] and players; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Timing measures the bots' decision times (Pool.timing) on the
	// thread's CPU time where the operating system gives it, else on the
	// wall clock (Pool.clock); it costs two clock reads per sampled
	// decision, and each game stays on one OS thread while it is played.
	Timing bool
	// Slots, when not nil, is shared by pools that play at the same time:
	// a game is played only while it holds one of the channel's cap(Slots)
	// places, so that together the pools play at most that many games at
	// once (the conditions of a search's mixture play so, the next
	// condition's games taking a core as soon as a condition's last games
	// leave it idle). The games and their outcomes are the same with or
	// without it.
	Slots chan struct{}
	// Observers, when not nil, is called once per worker (worker = 0, 1,
	// ...) when the pool is made; the observers it returns are attached to
	// that worker's [sim.Game] and see every event of its games. After each
	// completed game, the pool asks each of them for its GameResult, which
	// reaches the caller in [Outcome.Observed].
	Observers func(worker int) []GameObserver
}

// A GameObserver watches the games of one worker: it receives every event
// of every game the worker plays (EvStart opens each game, including a game
// that an interruption ends early, so an observer resets there) and, after
// each completed game g, returns what it gathered from it. Its result must
// depend on game g's events only, so that the results are the same for any
// number of workers or shards.
type GameObserver interface {
	sim.Observer
	// GameResult returns what the observer gathered from game g, which has
	// just ended.
	GameResult(g int) any
}

// Outcome is one game played by a Pool.
type Outcome struct {
	// Record is the game's result.
	Record Record
	// Observed[i] is the GameResult of the worker's i-th observer for this
	// game (nil without observers).
	Observed []any
}

// Pool plays games on worker goroutines, each with its own [sim.Game] and
// players, and delivers their outcomes in the order asked for, whatever
// the order in which they finish. It writes nothing: Run is the output
// layer over it. A Pool plays one Play call at a time.
type Pool struct {
	cfg     PoolConfig
	sched   Schedule
	labels  []string
	workers []*worker
}

func (cfg *PoolConfig) validate() error {
	switch {
	case cfg.Map == nil || cfg.Rules == nil:
		return errors.New("arena: Config needs a Map and Rules")
	case cfg.Workers < 0:
		return fmt.Errorf("arena: workers %d: want >= 0 (0 = every core)", cfg.Workers)
	}
	sched := cfg.schedule()
	switch {
	case cfg.Schedule == nil && (len(cfg.Seats) < sim.MinPlayers || len(cfg.Seats) > maxSeats):
		return fmt.Errorf("arena: %d seats: want %d..%d", len(cfg.Seats), sim.MinPlayers, maxSeats)
	case len(cfg.Seats) != sched.Pool():
		return fmt.Errorf("arena: %d seats for schedule %s: want one seat per entry of its pool (%d)", len(cfg.Seats), sched.Spec(), sched.Pool())
	case sched.Players() < sim.MinPlayers || sched.Players() > maxSeats:
		return fmt.Errorf("arena: schedule %s: %d players per game: want %d..%d", sched.Spec(), sched.Players(), sim.MinPlayers, maxSeats)
	}
	for i, s := range cfg.Seats {
		if s.Factory == nil || s.Label == "" {
			return fmt.Errorf("arena: seat %d: needs a bot factory and a label", i)
		}
	}
	return nil
}

// schedule returns the configured schedule or the default rotation.
func (cfg *PoolConfig) schedule() Schedule {
	if cfg.Schedule == nil {
		return rotation{Seats: len(cfg.Seats)}
	}
	return cfg.Schedule
}

// NewPool makes the workers (their games and players) of cfg: a seat whose
// player cannot be made is an error here, before any game is played.
func NewPool(cfg PoolConfig) (*Pool, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, sched: cfg.schedule(), labels: make([]string, len(cfg.Seats))}
	for i, s := range cfg.Seats {
		p.labels[i] = s.Label
	}
	n := cfg.Workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	p.workers = make([]*worker, n)
	for i := range p.workers {
		w, err := newWorker(&p.cfg, p.sched)
		if err != nil {
			return nil, err
		}
		if cfg.Observers != nil {
			w.obs = cfg.Observers(i)
			for _, o := range w.obs {
				w.game.Observe(o)
			}
		}
		p.workers[i] = w
	}
	return p, nil
}

// Play plays count games, the k-th (k = 0..count-1) being game index
// game(k), and calls emit with each outcome in k order. Calls of emit never
// overlap, but they come from the worker goroutines, so emit must not block
// for long; the Outcome is valid only during the call (its Record may be
// kept). At most 64 games per worker are in flight or waiting for an
// earlier one, which bounds the memory.
//
// Play returns the number of outcomes emitted. An error of emit or of a
// game stops the play and is returned. When ctx is done Play stops handing
// out games, interrupts the games in flight (they are not emitted) and
// returns an error wrapping [ErrInterrupted] and ctx's cause.
func (p *Pool) Play(ctx context.Context, count int, game func(k int) int, emit func(k int, o *Outcome) error) (int, error) {
	ws := p.workers[:min(len(p.workers), max(count, 0))]
	// A cancelled play stops the games in flight: they are not complete, so
	// they are not kept, and a game with no round limit cannot hold the
	// play up.
	stop := func() {
		for _, w := range ws {
			w.game.Interrupt()
		}
	}
	return ordered(ctx, len(ws), count, func(ctx context.Context, w, k int) (Outcome, error) {
		if p.cfg.Timing {
			// A decision's two readings of the thread's CPU time must be
			// of the same thread.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
		}
		if s := p.cfg.Slots; s != nil {
			select {
			case s <- struct{}{}:
				defer func() { <-s }()
			case <-ctx.Done():
				return Outcome{}, context.Cause(ctx)
			}
		}
		var o Outcome
		if err := ws[w].play(ctx, game(k), &o); err != nil {
			return o, fmt.Errorf("arena: %w", err)
		}
		return o, nil
	}, emit, stop)
}

// clock returns the clock of the decision times of Timing ([ClockThreadCPU]
// or clockWall; [ClockMixed] if the workers' players differ), or "" unless
// [PoolConfig.Timing] is set.
func (p *Pool) clock() string {
	c := ""
	for _, w := range p.workers {
		for _, tp := range w.timed {
			switch k := tp.clock(); {
			case c == "":
				c = k
			case c != k:
				c = ClockMixed
			}
		}
	}
	return c
}

// timing returns the decision times of every Play so far, summed over the
// workers by label in the order of the seats' first labels; nil unless
// [PoolConfig.Timing] is set.
func (p *Pool) timing() []BotTiming {
	if !p.cfg.Timing {
		return nil
	}
	var out []BotTiming
	idx := map[string]int{}
	for _, l := range p.labels {
		if _, ok := idx[l]; !ok {
			idx[l] = len(out)
			out = append(out, BotTiming{Bot: l})
		}
	}
	for _, w := range p.workers {
		for j, tp := range w.timed {
			b := &out[idx[p.labels[j]]]
			b.SeatGames += tp.games
			b.Turns += tp.turns
			b.DecisionSeconds += tp.seconds()
		}
	}
	return out
}

// worker plays games with its own [sim.Game] and players.
type worker struct {
	game    *sim.Game
	sched   Schedule
	seed    uint64
	labels  []string
	players []sim.Player        // players[j] plays entry j
	stats   []bots.StatReporter // stats[j]: entry j's player, if it reports counts
	sbuf    []bots.Stat
	timed   []*timedPlayer // when timing, the decorators of players
	seated  []sim.Player
	lineup  []int
	obs     []GameObserver
	last    sim.Result // the result of the last game played
}

func newWorker(cfg *PoolConfig, sched Schedule) (*worker, error) {
	k := sched.Players()
	g, err := sim.NewGame(cfg.Map, cfg.Rules, k)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	w := &worker{game: g, sched: sched, seed: cfg.Seed, labels: make([]string, len(cfg.Seats)),
		players: make([]sim.Player, len(cfg.Seats)), seated: make([]sim.Player, k), lineup: make([]int, 0, k)}
	for j, s := range cfg.Seats {
		w.labels[j] = s.Label
		p, err := s.New()
		if err != nil {
			return nil, fmt.Errorf("arena: seat %d (%s): %w", j, s.Label, err)
		}
		sr, _ := p.(bots.StatReporter)
		w.stats = append(w.stats, sr)
		if cfg.Timing {
			tp := newTimedPlayer(p)
			w.timed = append(w.timed, tp)
			p = tp
		}
		w.players[j] = p
	}
	return w, nil
}

// play plays game g into o. A game interrupted while ctx is not done was
// stopped by an interruption left over from an earlier cancelled Play (see
// [sim.Game.Interrupt]) and is played again.
func (w *worker) play(ctx context.Context, g int, o *Outcome) error {
	w.lineup = w.sched.Lineup(g, w.lineup)
	if err := checkLineup(w.sched, g, w.lineup); err != nil {
		return err
	}
	seating := make([]string, len(w.lineup))
	for i, e := range w.lineup {
		w.seated[i] = w.players[e]
		seating[i] = w.labels[e]
	}
	stream := w.sched.Stream(g)
	var res sim.Result
	var err error
	for {
		res, err = w.game.Play(w.seated, w.seed, stream)
		if !errors.Is(err, sim.ErrInterrupted) || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("game %d: %w", g, err)
	}
	w.last = res
	o.Record = Record{Game: g, Seed: sim.GameSeed(w.seed, stream), Seating: seating, Winner: res.Winner,
		Placements: res.Placement, Rounds: res.Rounds, Turns: res.Turns, Stalemate: res.Stalemate, Faults: res.Faults}
	for i, e := range w.lineup {
		sr := w.stats[e]
		if sr == nil {
			continue
		}
		if o.Record.Stats == nil {
			o.Record.Stats = make([]map[string]int64, len(w.lineup))
		}
		w.sbuf = sr.GameStats(w.sbuf[:0])
		m := make(map[string]int64, len(w.sbuf))
		for _, st := range w.sbuf {
			m[st.Name] = st.Count
		}
		o.Record.Stats[i] = m
	}
	if len(w.obs) > 0 {
		o.Observed = make([]any, len(w.obs))
		for i, ob := range w.obs {
			o.Observed[i] = ob.GameResult(g)
		}
	}
	return nil
}
