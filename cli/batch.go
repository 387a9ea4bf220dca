package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
)

const batchUsage = `usage: marslab batch [flags]

Plays -games games on every core with the seats rotated, writes one line per game to
OUT/games.jsonl and the per-bot results to OUT/summary.json (byte-identical for any
number of workers or shards), the measured speed to OUT/timing.json, and prints the
summary table. Ctrl-C keeps every finished game; -resume plays the rest.`

// batchFlags are the flags of marslab batch.
type batchFlags struct {
	game    *gameFlags
	games   *int
	seed    *uint64
	out     *string
	workers *int
	shard   *string
	resume  *bool
	quiet   *bool
}

func batchFlagSet(fs *flag.FlagSet) *batchFlags {
	return &batchFlags{
		game:    addGameFlags(fs, "game g seats them rotated by g"),
		games:   fs.Int("games", 1000, "number of games of the whole batch (all shards), >= 1"),
		seed:    fs.Uint64("seed", 1, "experiment seed: game g uses the random streams of (seed, g)"),
		out:     fs.String("out", "results/batch", "output directory for config.json, games.jsonl, summary.json, timing.json"),
		workers: workersFlag(fs),
		shard:   shardFlag(fs, "games g with g % COUNT == INDEX"),
		resume:  fs.Bool("resume", false, "continue the batch in -out: keep its games and play the missing ones"),
		quiet:   fs.Bool("quiet", false, "print neither the progress bar nor the summary table"),
	}
}

// cmdBatch plays many games on every core and writes games.jsonl,
// summary.json, timing.json and config.json.
func cmdBatch(ctx context.Context, in *invocation, f *batchFlags) error {
	if err := in.noArgs(); err != nil {
		return err
	}
	ac, cfg, err := f.config(in.reg)
	if err != nil {
		return err
	}
	lock, err := ownDir(ac.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	if !*f.resume {
		if err := refuseRun(ac.Out, "batch"); err != nil {
			return err
		}
	}
	if !*f.quiet {
		ac.Progress, ac.ProgressLines = in.stderr, !isTerminal(in.stderr)
		fmt.Fprintf(in.stdout, "batch: %d games (shard %s: %d), seed %d, rules %s on map %s, %d seats, out %s\n",
			ac.Games, ac.Shard.String(), ac.Shard.Len(ac.Games), ac.Seed, cfg.Rules.Name, cfg.Map.Name, len(ac.Seats), ac.Out)
	}
	rep, err := arena.Run(ctx, ac)
	if rep != nil && !*f.quiet {
		if err != nil {
			fmt.Fprintf(in.stdout, "partial results (%d of %d games):\n", rep.Done, rep.Total)
		}
		if terr := arena.WriteTable(in.stdout, rep.Summary, &rep.Timing); terr != nil && err == nil {
			err = terr
		}
		if *f.resume && rep.Done > rep.Played {
			fmt.Fprintf(in.stdout, "resumed: %d of %d games were done, played %d\n", rep.Done-rep.Played, rep.Total, rep.Played)
		}
	}
	return err
}

// config checks the flags of marslab batch and loads the rules, map and
// seats they name.
func (f *batchFlags) config(reg *bots.Registry) (arena.Config, *gameConfig, error) {
	if err := firstError(checkMin("games", *f.games, 1), checkWorkers(*f.workers)); err != nil {
		return arena.Config{}, nil, err
	}
	if *f.out == "" {
		return arena.Config{}, nil, errors.New("-out: an output directory is required")
	}
	shard, _, err := shardOf(*f.shard)
	if err != nil {
		return arena.Config{}, nil, err
	}
	cfg, seats, err := f.game.load(reg)
	if err != nil {
		return arena.Config{}, nil, err
	}
	return arena.Config{Map: cfg.Map, Rules: cfg.Rules, Seats: seats, Games: *f.games, Seed: *f.seed,
		Workers: *f.workers, Shard: shard, Out: *f.out, Resume: *f.resume, Timing: true}, cfg, nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
