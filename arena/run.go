package arena

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"marslab/bots"
	"marslab/sim"
)

// Config is a batch of games.
type Config struct {
	// Map and Rules are the board and rule set of every game.
	Map   *sim.Map
	Rules *sim.Rules
	// Seats are the players, 2..6. Game g seats them rotated by g mod n:
	// seat i of game g is Seats[(i+g) % n], so every bot plays every seat
	// equally often over n consecutive games.
	Seats []bots.Seat
	// Games is the number of games of the whole batch (all shards), >= 1.
	Games int
	// Seed is the experiment seed: game g is played with the random streams
	// of sim.GameSeed(Seed, g), whatever the worker or shard.
	Seed uint64
	// Workers is the number of goroutines playing games, each with its own
	// sim.Game and players; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Shard restricts the batch to the game indices g with
	// g % Shard.Count == Shard.Index; the zero Shard plays every game.
	Shard Shard
	// Out is the output directory (created if needed): config.json,
	// games.jsonl, summary.json and timing.json. With Out == "" nothing is
	// written and only the Report is returned.
	Out string
	// Resume continues the games.jsonl in Out: the games already there are
	// kept (after checking that config.json matches this Config), a torn
	// last line is cut off, and only the missing games are played. Without
	// Resume, Run refuses an Out that already holds a batch. Resume with an
	// empty Out directory starts afresh.
	Resume bool
	// Progress, when not nil, receives a one-line progress display
	// (carriage-return updated, a few times per second).
	Progress io.Writer
	// Timing measures the bots' decision times (Report.Timing.Bots); it
	// costs two clock reads per decision.
	Timing bool
	// OnRecord, when not nil, is called with each game in index order,
	// after its line has been written (to the buffer that is flushed at
	// least every 0.2 s). Calls never overlap, but they come from the
	// worker goroutines, so OnRecord must not block for long.
	OnRecord func(Record)
}

// Report is what Run and Merge return.
type Report struct {
	// Header describes the batch (config.json).
	Header Header
	// Summary holds one entry per bot label, in the configured seat order.
	Summary []BotSummary
	// Timing is the measured speed (timing.json).
	Timing Timing
	// Done is the number of games of the shard that are complete (on disk
	// when Out is set), Total the number the shard has.
	Done, Total int
	// Played is the number of games this call played.
	Played int
}

// ErrInterrupted is wrapped by the error Run returns when its context is
// cancelled before the shard is complete.
var ErrInterrupted = errors.New("batch interrupted")

// maxSeats bounds the seats of a game (sim.NewGame allows 2..6).
const maxSeats = 6

func (cfg *Config) validate() error {
	switch {
	case cfg.Map == nil || cfg.Rules == nil:
		return errors.New("arena: Config needs a Map and Rules")
	case len(cfg.Seats) < 2 || len(cfg.Seats) > maxSeats:
		return fmt.Errorf("arena: %d seats: want 2..%d", len(cfg.Seats), maxSeats)
	case cfg.Games < 1:
		return fmt.Errorf("arena: games %d: want >= 1", cfg.Games)
	case cfg.Workers < 0:
		return fmt.Errorf("arena: workers %d: want >= 0 (0 = every core)", cfg.Workers)
	case cfg.Resume && cfg.Out == "":
		return errors.New("arena: Resume needs an output directory")
	}
	if err := cfg.Shard.Validate(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for i, s := range cfg.Seats {
		if s.Factory == nil || s.Label == "" {
			return fmt.Errorf("arena: seat %d: needs a bot factory and a label", i)
		}
	}
	return nil
}

// Run plays the configured batch (or its shard) on Workers goroutines and
// writes the results to cfg.Out. Games are handed out in index order and
// their records collected by index, never by completion order, so the
// output is byte-identical for any number of workers.
//
// When ctx is cancelled Run stops handing out games, lets the games in
// flight finish, keeps every game before the first unfinished one on disk
// (whole lines, in order), writes timing.json and returns an error wrapping
// ErrInterrupted and ctx's error; Config.Resume then plays the rest. The
// Report is returned in every case where the batch could start.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Shard = cfg.Shard.norm()
	h, err := cfg.header()
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	n := len(cfg.Seats)
	rep := &Report{Header: h, Total: cfg.Shard.Len(cfg.Games)}
	tal := newTally(h.Labels(), n)
	var prior Timing // timing of earlier parts of a resumed run

	// Workers (games and players) first: a bad seat fails before any file
	// is written.
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, rep.Total))
	ws := make([]*worker, workers)
	for i := range ws {
		if ws[i], err = newWorker(&cfg); err != nil {
			return nil, err
		}
	}

	var out *os.File
	if cfg.Out != "" {
		if out, rep.Done, prior, err = openOut(&cfg, &h, tal); err != nil {
			return nil, err
		}
		defer out.Close()
	}
	pending := rep.Total - rep.Done

	// The seating of each rotation, in labels.
	seating := make([][]string, n)
	for r := range seating {
		seating[r] = make([]string, n)
		for i := range seating[r] {
			seating[r][i] = cfg.Seats[(i+r)%n].Label
		}
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	c := &collector{
		cfg:    &cfg,
		tal:    tal,
		pr:     newProgress(cfg.Progress, rep.Total, rep.Done, start),
		done0:  rep.Done,
		total:  pending,
		window: 64 * workers,
		cancel: cancel,
		last:   start,
	}
	c.slots = make([]Record, c.window)
	c.full = make([]bool, c.window)
	c.cond = sync.NewCond(&c.mu)
	if out != nil {
		c.bw = bufio.NewWriterSize(out, 1<<16)
		c.path = filepath.Join(cfg.Out, gamesFile)
	}
	// When the run is cancelled (Ctrl-C, or a worker's error), wake the
	// workers waiting for room and stop the games in flight: they are not
	// complete, so they are not kept, and a game with no round limit
	// cannot hold the run up.
	stopWake := context.AfterFunc(runCtx, func() {
		for _, w := range ws {
			w.game.Interrupt()
		}
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stopWake()

	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, ok := c.take(runCtx)
				if !ok {
					return
				}
				g := cfg.Shard.Game(rep.Done + k)
				rec, err := w.play(g, seating[g%n])
				if errors.Is(err, sim.ErrInterrupted) {
					return // the run was cancelled during the game
				}
				if err != nil {
					cancel(err)
					return
				}
				c.put(k, rec)
			}
		}()
	}
	wg.Wait()

	werr := c.err
	if c.bw != nil && werr == nil {
		if err := c.bw.Flush(); err != nil {
			werr = fmt.Errorf("arena: %s: %w", c.path, err)
		}
	}
	if out != nil {
		if err := out.Close(); err != nil && werr == nil {
			werr = fmt.Errorf("arena: %s: %w", c.path, err)
		}
	}
	next := c.next
	c.pr.update(rep.Done+next, true)

	rep.Played = next
	rep.Done += next
	rep.Summary = tal.summary()
	rep.Timing = Timing{Games: next, WallSeconds: time.Since(start).Seconds()}
	if cfg.Timing {
		rep.Timing.Bots = mergeWorkerTimings(ws, cfg.Seats, h.Labels())
	}
	prior.add(rep.Timing)
	rep.Timing = prior

	cause := context.Cause(runCtx)
	if werr != nil {
		return rep, werr
	}
	if cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return rep, fmt.Errorf("arena: %w", cause) // a worker or tally error
	}
	if cfg.Out != "" {
		if err := writeJSON(cfg.Out, timingFile, rep.Timing); err != nil {
			return rep, fmt.Errorf("arena: %w", err)
		}
	}
	if rep.Done < rep.Total {
		where := ""
		if cfg.Out != "" {
			where = " in " + cfg.Out
		}
		return rep, fmt.Errorf("arena: %w: %d of %d games of shard %s done%s; run again with -resume to play the other %d: %w",
			ErrInterrupted, rep.Done, rep.Total, cfg.Shard, where, rep.Total-rep.Done, ctx.Err())
	}
	if cfg.Out != "" {
		if err := writeSummary(cfg.Out, rep.Summary); err != nil {
			return rep, fmt.Errorf("arena: %w", err)
		}
	}
	return rep, nil
}

// collector hands out the shard's pending games in order and writes their
// records in order. Workers call take and put; whichever worker completes
// the next game in line writes it (and any that were waiting behind it), so
// no goroutine hand-off is needed per game. At most window games are in
// flight or waiting, which bounds the reorder buffer.
type collector struct {
	cfg    *Config
	tal    *tally
	pr     *progress
	cancel context.CancelCauseFunc
	done0  int // games done before this run
	total  int // games to play in this run
	window int

	mu     sync.Mutex
	cond   *sync.Cond // signalled when next advances or the run stops
	issued int        // games handed out
	next   int        // games written
	slots  []Record   // slots[k % window]: finished game k waiting for its turn
	full   []bool
	bw     *bufio.Writer
	path   string
	line   []byte
	last   time.Time // last flush
	err    error     // first write or tally error
}

// flushEvery bounds how long a finished game may wait in memory before it
// reaches the file (a hard kill loses at most that much work).
const flushEvery = 200 * time.Millisecond

// take returns the next game to play, waiting while the reorder window is
// full; ok is false when every game is handed out or the run is stopped.
func (c *collector) take(ctx context.Context) (k int, ok bool) {
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

// put stores the record of game k and writes every record now in order.
func (c *collector) put(k int, rec Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	i := k % c.window
	c.slots[i], c.full[i] = rec, true
	advanced := false
	for {
		j := c.next % c.window
		if !c.full[j] {
			break
		}
		r := &c.slots[j]
		if err := c.tal.add(r); err != nil {
			c.fail(fmt.Errorf("arena: %w", err))
			return
		}
		if c.bw != nil {
			c.line = append(r.AppendJSON(c.line[:0]), '\n')
			if _, err := c.bw.Write(c.line); err != nil {
				c.fail(fmt.Errorf("arena: %s: %w", c.path, err))
				return
			}
		}
		if c.cfg.OnRecord != nil {
			c.cfg.OnRecord(*r)
		}
		c.full[j] = false
		*r = Record{}
		c.next++
		advanced = true
	}
	if !advanced {
		return
	}
	c.cond.Broadcast()
	now := time.Now()
	if c.bw != nil && now.Sub(c.last) >= flushEvery {
		c.last = now
		if err := c.bw.Flush(); err != nil {
			c.fail(fmt.Errorf("arena: %s: %w", c.path, err))
			return
		}
	}
	c.pr.update(c.done0+c.next, false)
}

// fail records the first error and stops the run (c.mu held).
func (c *collector) fail(err error) {
	c.err = err
	c.cancel(err)
	c.cond.Broadcast()
}

// worker plays games with its own sim.Game and players.
type worker struct {
	game    *sim.Game
	seed    uint64
	players []sim.Player   // players[j] plays Seats[j]
	timed   []*timedPlayer // when timing, the decorators of players
	seated  []sim.Player
}

func newWorker(cfg *Config) (*worker, error) {
	n := len(cfg.Seats)
	g, err := sim.NewGame(cfg.Map, cfg.Rules, n)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	w := &worker{game: g, seed: cfg.Seed, players: make([]sim.Player, n), seated: make([]sim.Player, n)}
	for j, s := range cfg.Seats {
		p, err := s.New()
		if err != nil {
			return nil, fmt.Errorf("arena: seat %d (%s): %w", j, s.Label, err)
		}
		if cfg.Timing {
			tp := newTimedPlayer(p)
			w.timed = append(w.timed, tp)
			p = tp
		}
		w.players[j] = p
	}
	return w, nil
}

// play plays game g with the given seating (labels by seat).
func (w *worker) play(g int, seating []string) (Record, error) {
	n := len(w.players)
	for i := range w.seated {
		w.seated[i] = w.players[(i+g)%n]
	}
	res, err := w.game.Play(w.seated, w.seed, uint64(g))
	if err != nil {
		return Record{}, fmt.Errorf("game %d: %w", g, err)
	}
	return Record{Game: g, Seed: sim.GameSeed(w.seed, uint64(g)), Seating: seating, Winner: res.Winner,
		Placements: res.Placement, Rounds: res.Rounds, Turns: res.Turns, Stalemate: res.Stalemate, Faults: res.Faults}, nil
}

// mergeWorkerTimings sums the workers' decorators by label.
func mergeWorkerTimings(ws []*worker, seats []bots.Seat, labels []string) []BotTiming {
	var out []BotTiming
	idx := map[string]int{}
	for _, l := range labels {
		if _, ok := idx[l]; !ok {
			idx[l] = len(out)
			out = append(out, BotTiming{Bot: l})
		}
	}
	for _, w := range ws {
		for j, tp := range w.timed {
			b := &out[idx[seats[j].Label]]
			b.SeatGames += tp.games
			b.Turns += tp.turns
			b.DecisionSeconds += tp.seconds()
		}
	}
	return out
}

// openOut prepares cfg.Out: a fresh batch (config.json written,
// games.jsonl created) or, with Resume, the existing one checked, repaired
// and tallied. It returns games.jsonl open for appending, the number of
// games already done and the timing of the earlier runs.
func openOut(cfg *Config, h *Header, tal *tally) (*os.File, int, Timing, error) {
	var prior Timing
	dir := cfg.Out
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, prior, fmt.Errorf("arena: %w", err)
	}
	cpath, gpath := filepath.Join(dir, configFile), filepath.Join(dir, gamesFile)
	_, cerr := os.Stat(cpath)
	_, gerr := os.Stat(gpath)
	exists := cerr == nil || gerr == nil
	if exists && !cfg.Resume {
		return nil, 0, prior, fmt.Errorf("arena: %s already holds a batch (%s): use -resume to continue it, or another output directory", dir, configFile)
	}
	if !exists {
		if err := writeJSON(dir, configFile, h); err != nil {
			return nil, 0, prior, fmt.Errorf("arena: %w", err)
		}
		f, err := os.OpenFile(gpath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, 0, prior, fmt.Errorf("arena: %w", err)
		}
		return f, 0, prior, nil
	}
	old, err := ReadHeader(dir)
	if err != nil {
		return nil, 0, prior, fmt.Errorf("arena: resume: %w", err)
	}
	if d := old.diff(h, false); d != "" {
		return nil, 0, prior, fmt.Errorf("arena: resume: %s was written by a different batch (%s; file vs this run): use the same flags or another output directory", cpath, d)
	}
	f, err := os.OpenFile(gpath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, 0, prior, fmt.Errorf("arena: %w", err)
	}
	done, size, err := scanGames(f, gpath, h, tal, -1)
	if err == nil {
		err = f.Truncate(size) // cut a torn last line
	}
	if err == nil {
		_, err = f.Seek(size, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, prior, fmt.Errorf("arena: resume: %w", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, timingFile)); err == nil {
		// Earlier timings are kept when readable; they are measurements
		// only, so an unreadable file is simply restarted.
		if json.Unmarshal(b, &prior) != nil {
			prior = Timing{}
		}
	}
	return f, done, prior, nil
}

// scanGames reads games.jsonl from r, checks that its lines are the
// shard's first games in order, played under h (seed and seating), and adds
// them to tal. It returns the number of whole lines and their size in
// bytes; a last line without its newline (torn by a kill) is not counted.
// With want >= 0 the file must hold exactly want games and no torn line.
func scanGames(r io.Reader, path string, h *Header, tal *tally, want int) (done int, size int64, err error) {
	n := len(h.Seats)
	br := bufio.NewReaderSize(r, 1<<16)
	for lineNo := 1; ; lineNo++ {
		line, rerr := br.ReadBytes('\n')
		if rerr == io.EOF {
			if len(line) > 0 && want >= 0 {
				return done, size, fmt.Errorf("%s: line %d is torn (no newline): resume this shard first", path, lineNo)
			}
			break
		}
		if rerr != nil {
			return done, size, fmt.Errorf("%s: %w", path, rerr)
		}
		rec, err := ParseRecord(bytes.TrimSuffix(line, []byte{'\n'}), n)
		if err != nil {
			return done, size, fmt.Errorf("%s: line %d: %w", path, lineNo, err)
		}
		g := h.Shard.Game(done)
		if done >= h.Shard.Len(h.Games) {
			return done, size, fmt.Errorf("%s: line %d: more games than shard %s of %d games has (%d)", path, lineNo, h.Shard, h.Games, h.Shard.Len(h.Games))
		}
		if rec.Game != g {
			return done, size, fmt.Errorf("%s: line %d is game %d, want game %d (lines must be the shard's games in index order)", path, lineNo, rec.Game, g)
		}
		if rec.Seed != sim.GameSeed(h.Seed, uint64(g)) {
			return done, size, fmt.Errorf("%s: line %d: game %d has seed %d, but seed %d gives %d", path, lineNo, g, rec.Seed, h.Seed, sim.GameSeed(h.Seed, uint64(g)))
		}
		for i, l := range rec.Seating {
			if want := h.Seats[(i+g)%n].Label; l != want {
				return done, size, fmt.Errorf("%s: line %d: game %d seat %d is %q, want %q (seats rotate by game index)", path, lineNo, g, i, l, want)
			}
		}
		if err := tal.add(&rec); err != nil {
			return done, size, fmt.Errorf("%s: line %d: %w", path, lineNo, err)
		}
		done++
		size += int64(len(line))
	}
	if want >= 0 && done != want {
		return done, size, fmt.Errorf("%s: %d of the %d games of shard %s: resume this shard first", path, done, want, h.Shard)
	}
	return done, size, nil
}
