package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// Replay plays game g (0..cfg.Games-1) of the batch cfg again, on one
// worker made and run as Run's workers are (the schedule's line-up for g,
// the random streams of sim.GameSeed(cfg.Seed, Schedule.Stream(g))), so
// its Record is the one Run wrote for g: its AppendJSON is byte-identical
// to game g's line of games.jsonl. It also returns the game's log (package
// sim's game-log format): lh gives the log header's rules and map (names
// and TOML texts, which must be those of cfg.Rules and cfg.Map), Replay
// fills in the seed, the stream and the seats; every seat that can
// explain its decisions ([bots.Explainer]) writes them into the log.
//
// cfg's Workers, Shard, Out, Resume, Progress, Timing, Observers,
// OnRecord and OnObserved play no part. A cancelled ctx stops the game and
// Replay returns an error wrapping [ErrInterrupted].
func Replay(ctx context.Context, cfg Config, g int, lh sim.LogHeader) (Record, []byte, error) {
	pc := cfg.pool()
	pc.Workers, pc.Timing, pc.Observers = 1, false, nil
	if err := pc.validate(); err != nil {
		return Record{}, nil, err
	}
	if cfg.Games < 1 || g < 0 || g >= cfg.Games {
		return Record{}, nil, fmt.Errorf("arena: game %d: the batch has games 0..%d", g, cfg.Games-1)
	}
	sched := pc.schedule()
	w, err := newWorker(&pc, sched)
	if err != nil {
		return Record{}, nil, err
	}
	lineup := sched.Lineup(g, nil)
	if err := checkLineup(sched, g, lineup); err != nil {
		return Record{}, nil, fmt.Errorf("arena: %w", err)
	}
	lh.Seed, lh.Index, lh.Seats = cfg.Seed, sched.Stream(g), make([]sim.LogSeat, len(lineup))
	for i, e := range lineup {
		s := cfg.Seats[e]
		lh.Seats[i] = sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params}
	}
	ps := make([]sim.Player, len(lineup))
	for i, e := range lineup {
		ps[i] = w.players[e]
	}
	lh.Explain = sim.ExplainSeats(ps)
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, lh)
	if err != nil {
		return Record{}, nil, fmt.Errorf("arena: game %d: %w", g, err)
	}
	w.game.Observe(lw)
	explainers, err := sim.Narrate(lw, w.game, ps, lh.Explain)
	if err != nil {
		return Record{}, nil, fmt.Errorf("arena: game %d: %w", g, err)
	}
	stop := context.AfterFunc(ctx, w.game.Interrupt)
	defer stop()
	var o Outcome
	if err := w.play(ctx, g, &o); err != nil {
		if errors.Is(err, sim.ErrInterrupted) {
			return Record{}, nil, fmt.Errorf("arena: %w: %w", ErrInterrupted, context.Cause(ctx))
		}
		return Record{}, nil, fmt.Errorf("arena: %w", err)
	}
	for _, ew := range explainers {
		ew.Flush()
	}
	if err := lw.Close(w.last); err != nil {
		return Record{}, nil, fmt.Errorf("arena: game %d: log: %w", g, err)
	}
	return o.Record, buf.Bytes(), nil
}
