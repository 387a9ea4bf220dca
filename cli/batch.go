package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
)

// batchRun is a parsed marslab batch command line.
type batchRun struct {
	ac     arena.Config
	cfg    *gameConfig
	quiet  bool
	resume bool
}

// cmdBatch plays many games on every core and writes games.jsonl,
// summary.json, timing.json and config.json.
func cmdBatch(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	b, err := parseBatch(reg, args, stdout, stderr)
	if err != nil {
		return err
	}
	ac, cfg := b.ac, b.cfg
	lock, err := ownDir(ac.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	if !b.resume {
		if err := refuseRun(ac.Out, "batch"); err != nil {
			return err
		}
	}
	if !b.quiet {
		ac.Progress, ac.ProgressLines = stderr, !isTerminal(stderr)
	}
	if !b.quiet {
		fmt.Fprintf(stdout, "batch: %d games (shard %s: %d), seed %d, rules %s on map %s, %d seats, out %s\n",
			ac.Games, ac.Shard.String(), ac.Shard.Len(ac.Games), ac.Seed, cfg.Rules.Name, cfg.Map.Name, len(ac.Seats), ac.Out)
	}
	rep, err := arena.Run(ctx, ac)
	if rep != nil && !b.quiet {
		if err != nil {
			fmt.Fprintf(stdout, "partial results (%d of %d games):\n", rep.Done, rep.Total)
		}
		if terr := arena.WriteTable(stdout, rep.Summary, &rep.Timing); terr != nil && err == nil {
			err = terr
		}
		if b.resume && rep.Done > rep.Played {
			fmt.Fprintf(stdout, "resumed: %d of %d games were done, played %d\n", rep.Done-rep.Played, rep.Total, rep.Played)
		}
	}
	if err != nil {
		return err
	}
	return nil
}

// parseBatch parses and checks the flags of marslab batch and loads the
// rules, map and seats they name.
func parseBatch(reg *bots.Registry, args []string, stdout, stderr io.Writer) (*batchRun, error) {
	fs := newFlagSet("batch", `usage: marslab batch [flags]

Plays -games games on every core with the seats rotated, writes one line per game to
OUT/games.jsonl and the per-bot results to OUT/summary.json (byte-identical for any
number of workers or shards), the measured speed to OUT/timing.json, and prints the
summary table. Ctrl-C keeps every finished game; -resume plays the rest.`, stderr)
	gf := addGameFlags(fs, "game g seats them rotated by g")
	games := fs.Int("games", 1000, "number of games of the whole batch (all shards), >= 1")
	seed := fs.Uint64("seed", 1, "experiment seed: game g uses the random streams of (seed, g)")
	out := fs.String("out", "results/batch", "output directory for config.json, games.jsonl, summary.json, timing.json")
	workers := fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)")
	shardArg := fs.String("shard", "", "play only shard INDEX/COUNT (games g with g % COUNT == INDEX); default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS, else 0/1")
	resume := fs.Bool("resume", false, "continue the batch in -out: keep its games and play the missing ones")
	quiet := fs.Bool("quiet", false, "print neither the progress bar nor the summary table")
	if err := parseNoArgs(fs, args, stdout); err != nil {
		return nil, err
	}
	if *games < 1 {
		return nil, fmt.Errorf("-games %d: must be >= 1", *games)
	}
	if *workers < 0 {
		return nil, fmt.Errorf("-workers %d: must be >= 0 (0 = every core)", *workers)
	}
	if *out == "" {
		return nil, errors.New("-out: an output directory is required")
	}
	shard, _, err := shardOf(*shardArg)
	if err != nil {
		return nil, err
	}
	cfg, seats, err := gf.load(reg)
	if err != nil {
		return nil, err
	}
	ac := arena.Config{Map: cfg.Map, Rules: cfg.Rules, Seats: seats, Games: *games, Seed: *seed,
		Workers: *workers, Shard: shard, Out: *out, Resume: *resume, Timing: true}
	return &batchRun{ac: ac, cfg: cfg, quiet: *quiet, resume: *resume}, nil
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
