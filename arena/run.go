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
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/progress"
	"github.com/marslab-risk/marslab/sim"
)

// Config is a batch of games.
type Config struct {
	// Map and Rules are the board and rule set of every game.
	Map   *sim.Map
	Rules *sim.Rules
	// Seats are the entries of the batch, the bots its schedule seats.
	// With the default schedule, rotation, they are the players of every
	// game, 2..6, rotated by the game index, so that every bot plays every
	// seat equally often over n consecutive games.
	Seats []bots.Seat
	// Schedule gives each game's line-up (indices into Seats) and random
	// stream; nil means rotation{Seats: len(Seats)}. config.json records
	// it, so that resume and merge refuse a different one.
	Schedule Schedule
	// Games is the number of games of the whole batch (all shards), >= 1;
	// at most Schedule.Games() when the schedule has that method.
	Games int
	// Seed is the experiment seed: game g is played with the random streams
	// of sim.GameSeed(Seed, Schedule.Stream(g)), whatever the worker or
	// shard.
	Seed uint64
	// Workers is the number of goroutines playing games, each with its own
	// [sim.Game] and players; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Shard restricts the batch to the game indices g with
	// g % Shard.Count == Shard.Index; the zero Shard plays every game.
	Shard Shard
	// Out is the output directory (created if needed): config.json,
	// games.jsonl, summary.json and timing.json. With Out == "" nothing is
	// written and only the Report is returned.
	Out string
	// Resume continues the games.jsonl in Out: the games already there are
	// kept (after checking that config.json matches this Config and that
	// every record is a possible game of it), a torn last line is cut off,
	// and only the missing games are played. Without Resume, Run refuses an
	// Out that already holds a batch. Resume with an empty Out directory
	// starts afresh.
	Resume bool
	// Progress, when not nil, receives the progress display (package
	// internal/progress): a bar redrawn in place, or plain lines when
	// ProgressLines is set (stderr is not a terminal). ProgressStep names
	// the run in it ("" = "batch").
	Progress      io.Writer
	ProgressLines bool
	ProgressStep  string
	// Timing measures the bots' decision times (Report.Timing.Bots); it
	// costs two clock reads per sampled decision.
	Timing bool
	// Observers, when not nil, gives each worker its game observers (see
	// [PoolConfig.Observers]); their results reach OnObserved.
	Observers func(worker int) []GameObserver
	// OnRecord, when not nil, is called with each game played, in index
	// order, after its line has been written (to the buffer that is flushed
	// at least every 0.2 s). Calls never overlap, but they come from the
	// worker goroutines, so OnRecord must not block for long.
	OnRecord func(Record)
	// OnObserved, when not nil, is called with each game played and the
	// results of the worker's observers for it ([Outcome.Observed]), in index
	// order, after OnRecord, under the same conditions.
	OnObserved func(g int, results []any)
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

// ErrInterrupted is wrapped by the error Run and [Pool.Play] return when
// their context is cancelled before every game is played.
var ErrInterrupted = errors.New("batch interrupted")

// ErrNoShardCount is wrapped by the refusal of an array job's environment
// that gives a task's index but not the number of tasks ([ShardFromEnv]).
var ErrNoShardCount = errors.New("no shard count")

// maxSeats bounds the seats of a game ([sim.NewGame] allows 2..6).
const maxSeats = sim.MaxPlayers

func (cfg *Config) pool() PoolConfig {
	return PoolConfig{Map: cfg.Map, Rules: cfg.Rules, Seats: cfg.Seats, Schedule: cfg.Schedule, Seed: cfg.Seed,
		Workers: cfg.Workers, Timing: cfg.Timing, Observers: cfg.Observers}
}

// gameCounter is implemented by schedules with a fixed number of games.
type gameCounter interface{ Games() int }

func (cfg *Config) validate() error {
	pc := cfg.pool()
	if err := pc.validate(); err != nil {
		return err
	}
	switch {
	case cfg.Games < 1:
		return fmt.Errorf("arena: games %d: want >= 1", cfg.Games)
	case cfg.Resume && cfg.Out == "":
		return errors.New("arena: Resume needs an output directory")
	}
	if gc, ok := pc.schedule().(gameCounter); ok && cfg.Games > gc.Games() {
		return fmt.Errorf("arena: games %d: schedule %s has %d games", cfg.Games, pc.schedule().Spec().Kind, gc.Games())
	}
	if err := cfg.Shard.Validate(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// Run plays the configured batch (or its shard) on a Pool of Workers
// goroutines and writes the results to cfg.Out. Games are handed out in
// index order and their records collected by index, never by completion
// order, so the output is byte-identical for any number of workers.
//
// When ctx is cancelled Run stops handing out games, stops the games in
// flight, keeps every game before the first unfinished one on disk (whole
// lines, in order), writes timing.json and returns an error wrapping
// [ErrInterrupted] and ctx's error; [Config.Resume] then plays the rest. The
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
	rep := &Report{Header: h, Total: cfg.Shard.Len(cfg.Games)}
	tal := newTally(h.Labels(), h.Schedule.Players)
	var prior Timing // timing of earlier parts of a resumed run

	// Workers (games and players) first: a bad seat fails before any file
	// is written.
	pc := cfg.pool()
	if pc.Workers == 0 {
		pc.Workers = runtime.GOMAXPROCS(0)
	}
	pc.Workers = max(1, min(pc.Workers, rep.Total))
	pool, err := NewPool(pc)
	if err != nil {
		return nil, err
	}

	var out *os.File
	if cfg.Out != "" {
		if out, rep.Done, prior, err = openOut(&cfg, &h, tal); err != nil {
			return nil, err
		}
		defer out.Close()
	}

	step := cfg.ProgressStep
	if step == "" {
		step = "batch"
	}
	var pr *progress.Meter
	if cfg.Progress != nil {
		pr = progress.New(cfg.Progress, !cfg.ProgressLines)
		pr.Start(step, rep.Done, rep.Total)
	}
	o := &output{cfg: &cfg, tal: tal, pr: pr, done0: rep.Done, last: start}
	if out != nil {
		o.bw = bufio.NewWriterSize(out, 1<<16)
		o.path = filepath.Join(cfg.Out, gamesFile)
	}
	done0 := rep.Done
	played, perr := pool.Play(ctx, rep.Total-rep.Done, func(k int) int { return cfg.Shard.Game(done0 + k) }, o.emit)

	var werr error
	if o.bw != nil {
		if err := o.bw.Flush(); err != nil {
			werr = fmt.Errorf("arena: %s: %w", o.path, err)
		}
	}
	if out != nil {
		if err := out.Close(); err != nil && werr == nil {
			werr = fmt.Errorf("arena: %s: %w", o.path, err)
		}
	}
	o.pr.Update(rep.Done + played)
	o.pr.Finish()

	rep.Played = played
	rep.Done += played
	sum, serr := tal.summary()
	rep.Summary = sum
	rep.Timing = Timing{Games: played, WallSeconds: time.Since(start).Seconds(), Clock: pool.clock(), Bots: pool.timing()}
	prior.add(rep.Timing)
	rep.Timing = prior

	if perr != nil && !errors.Is(perr, ErrInterrupted) {
		return rep, perr // a write, tally or game error
	}
	if werr != nil {
		return rep, werr
	}
	if serr != nil {
		return rep, fmt.Errorf("arena: %w", serr)
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
		return rep, fmt.Errorf("arena: %w: %d of %d games of shard %s done%s, %d to play: %w",
			ErrInterrupted, rep.Done, rep.Total, cfg.Shard, where, rep.Total-rep.Done, ctx.Err())
	}
	if cfg.Out != "" {
		if err := writeSummary(cfg.Out, rep.Summary); err != nil {
			return rep, fmt.Errorf("arena: %w", err)
		}
	}
	return rep, nil
}

// output is Run's output layer: it tallies, writes and reports each
// outcome the pool emits (in index order, one call at a time).
type output struct {
	cfg   *Config
	tal   *tally
	pr    *progress.Meter
	done0 int // games done before this run
	bw    *bufio.Writer
	path  string
	line  []byte
	last  time.Time // last flush
}

// flushEvery bounds how long a finished game may wait in memory before it
// reaches the file (a hard kill loses at most that much work).
const flushEvery = 200 * time.Millisecond

func (o *output) emit(k int, oc *Outcome) error {
	r := &oc.Record
	if err := o.tal.add(r); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if o.bw != nil {
		o.line = append(r.AppendJSON(o.line[:0]), '\n')
		if _, err := o.bw.Write(o.line); err != nil {
			return fmt.Errorf("arena: %s: %w", o.path, err)
		}
	}
	if o.cfg.OnRecord != nil {
		o.cfg.OnRecord(*r)
	}
	if o.cfg.OnObserved != nil {
		o.cfg.OnObserved(r.Game, oc.Observed)
	}
	now := time.Now()
	if o.bw != nil && now.Sub(o.last) >= flushEvery {
		o.last = now
		if err := o.bw.Flush(); err != nil {
			return fmt.Errorf("arena: %s: %w", o.path, err)
		}
	}
	o.pr.Update(o.done0 + k + 1)
	return nil
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
	if !cfg.Resume {
		if err := outdir.Refuse(dir, "batch", configFile, gamesFile); err != nil {
			return nil, 0, prior, fmt.Errorf("arena: %w", err)
		}
	}
	if !exists {
		if err := writeJSON(dir, configFile, h); err != nil {
			return nil, 0, prior, fmt.Errorf("arena: %w", err)
		}
		f, err := atomicfile.OpenLog(gpath, 0o644)
		if err == nil {
			err = f.Truncate(0)
		}
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
		kind := "batch"
		if old.Schedule.Kind == KindSubsets {
			kind = "tournament"
		}
		return nil, 0, prior, fmt.Errorf("arena: resume: %s was written by a different %s (%s; file vs this run): use the same settings or another output directory", cpath, kind, d)
	}
	if _, err := fileread.Check(gpath, fileread.Log); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, 0, prior, fmt.Errorf("arena: resume: %w", err)
	}
	f, err := atomicfile.OpenLog(gpath, 0o644)
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
	if b, err := fileread.ReadFile(filepath.Join(dir, timingFile), fileread.Record); err == nil {
		// Earlier timings are kept when readable; they are measurements
		// only, so an unreadable file is simply restarted.
		if json.Unmarshal(b, &prior) != nil {
			prior = Timing{}
		}
	}
	return f, done, prior, nil
}

// scanGames reads games.jsonl from r, checks that its lines are the
// shard's first games in order, each a possible game of h (see
// lineChecker), and adds them to tal. It returns the number of whole lines
// and their size in bytes; a last line without its newline (torn by a
// kill) is not counted. With want >= 0 the file must hold exactly want
// games and no torn line.
func scanGames(r io.Reader, path string, h *Header, tal *tally, want int) (done int, size int64, err error) {
	lc, err := newLineChecker(h)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	lr := fileread.NewLineReader(r, path, fileread.MaxRecordLine)
	for lineNo := 1; ; lineNo++ {
		line, rerr := lr.Next()
		if rerr == io.EOF {
			break
		}
		if errors.Is(rerr, fileread.ErrTorn) {
			if want >= 0 {
				return done, size, fmt.Errorf("%w: resume this shard first", rerr)
			}
			break
		}
		if rerr != nil {
			return done, size, rerr
		}
		if done >= h.Shard.Len(h.Games) {
			return done, size, fmt.Errorf("%s: line %d: more games than shard %s of %d games has (%d)", path, lineNo, h.Shard, h.Games, h.Shard.Len(h.Games))
		}
		rec, err := lc.check(line, h.Shard.Game(done))
		if err == nil {
			err = tal.add(&rec)
		}
		if err != nil {
			return done, size, fmt.Errorf("%s: line %d: %w", path, lineNo, err)
		}
		done++
		size += int64(len(line)) + 1
	}
	if want >= 0 && done != want {
		return done, size, fmt.Errorf("%s: %d of the %d games of shard %s: resume this shard first", path, done, want, h.Shard)
	}
	return done, size, nil
}

// lineChecker checks the lines of a games.jsonl against its header.
type lineChecker struct {
	h      *Header
	sched  Schedule
	lineup []int
	canon  []byte
}

func newLineChecker(h *Header) (*lineChecker, error) {
	sched, err := h.Schedule.Schedule()
	if err != nil {
		return nil, fmt.Errorf("%s: schedule: %w", configFile, err)
	}
	return &lineChecker{h: h, sched: sched}, nil
}

// check parses line (without its newline), which must be game g of the
// batch: in the canonical form [Record.AppendJSON] writes (so that copies
// stay byte-identical), with the game's seed and line-up, and a possible
// result under the header's rules (Record.checkRules).
func (c *lineChecker) check(line []byte, g int) (Record, error) {
	if bytes.HasSuffix(line, []byte{'\r'}) {
		return Record{}, errors.New("ends in CRLF (\\r\\n): games.jsonl lines end in \\n alone (was the file converted to DOS line endings?)")
	}
	h := c.h
	rec, err := ParseRecord(line, c.sched.Players())
	if err != nil {
		return rec, err
	}
	if rec.Game != g {
		return rec, fmt.Errorf("game %d where game %d was expected (lines must be the shard's games in index order)", rec.Game, g)
	}
	if c.canon = rec.AppendJSON(c.canon[:0]); !bytes.Equal(c.canon, line) {
		return rec, fmt.Errorf("game %d is not written in the canonical form (want %s)", g, c.canon)
	}
	if want := sim.GameSeed(h.Seed, c.sched.Stream(g)); rec.Seed != want {
		return rec, fmt.Errorf("game %d has seed %d, but seed %d gives %d", g, rec.Seed, h.Seed, want)
	}
	c.lineup = c.sched.Lineup(g, c.lineup)
	for i, l := range rec.Seating {
		if want := h.Seats[c.lineup[i]].Label; l != want {
			return rec, fmt.Errorf("game %d seat %d is %q, want %q (schedule %s)", g, i, l, want, h.Schedule)
		}
	}
	if err := rec.checkRules(h.RoundLimit); err != nil {
		return rec, fmt.Errorf("game %d: %w", g, err)
	}
	return rec, nil
}
