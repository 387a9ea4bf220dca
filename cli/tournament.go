package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

// cmdTournament plays a round-robin tournament described by a TOML file
// and writes its tables and figures.
func cmdTournament(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tournament", `usage: marslab tournament CONFIG [flags]

Plays every PLAYERS-subset of the bots of CONFIG (a TOML file, e.g.
configs/experiments/paper-tournament.toml) REPLICATIONS times, seating and deal random per
game, on every core, and writes to the output directory the batch files of marslab batch
(config.json, games.jsonl, summary.json, timing.json: byte-identical for any number of
workers or shards), the tables (table5, table6, placement, winrate, headtohead as .md and
.csv, all of them in tables.md) and the figures (.png and .svg). Shards are joined with
marslab merge; running the merged directory with -resume writes its tables.`, stderr)
	out := fs.String("out", "", "output directory (default: the config's out key)")
	workers := fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)")
	shardArg := fs.String("shard", "", "play only shard INDEX/COUNT (games g with g % COUNT == INDEX); default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS, else 0/1")
	resume := fs.Bool("resume", false, "continue the tournament in the output directory: keep its games and play the missing ones")
	drawFigures := fs.Bool("figures", true, "draw the figures (PNG and SVG)")
	quiet := fs.Bool("quiet", false, "print neither the progress bar nor the tables")
	path, err := parseConfigArg(fs, args, stdout)
	if err != nil {
		return err
	}
	if *workers < 0 {
		return fmt.Errorf("-workers %d: must be >= 0 (0 = every core)", *workers)
	}
	shard, _, err := shardOf(*shardArg)
	if err != nil {
		return err
	}
	cfg, err := tourney.Load(path)
	if err != nil {
		return err
	}
	setup, err := cfg.Resolve(reg)
	if err != nil {
		return err
	}
	opt := tourney.Options{Out: *out, Workers: *workers, Shard: shard, Resume: *resume}
	if *drawFigures {
		opt.Figures = figures.WriteTournament
	}
	if opt.Out == "" {
		opt.Out = cfg.Out
	}
	lock, err := ownDir(opt.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	if !*resume {
		if err := refuseRun(opt.Out, "tournament"); err != nil {
			return err
		}
	}
	if !*quiet {
		opt.Progress, opt.ProgressLines = stderr, !isTerminal(stderr)
	}
	if !*quiet {
		fmt.Fprintf(stdout, "tournament %s: %d bots, %d per game, x%d: %d games (shard %s: %d), seed %d, rules %s, out %s\n",
			cfg.Source, len(cfg.Bots), cfg.Players, cfg.Replications, cfg.Games(), shard, shard.Len(cfg.Games()), cfg.Seed, setup.Rules.Name, opt.Out)
	}
	rep, res, err := tourney.Run(ctx, cfg, setup, opt)
	if err != nil {
		if rep != nil && !*quiet {
			fmt.Fprintf(stdout, "partial results (%d of %d games):\n", rep.Done, rep.Total)
			_ = arena.WriteTable(stdout, rep.Summary, &rep.Timing)
		}
		return err
	}
	if !*quiet {
		for _, t := range []table.Table{res.Table5(), res.Table6()} {
			fmt.Fprintln(stdout)
			if err := t.WriteMarkdown(stdout); err != nil {
				return err
			}
		}
		if err := arena.WriteStats(stdout, rep.Summary); err != nil {
			return err
		}
		what := "tables"
		if *drawFigures {
			what = "tables and figures"
		}
		fmt.Fprintf(stdout, "\n%s in %s\n", what, opt.Out)
	}
	return nil
}
