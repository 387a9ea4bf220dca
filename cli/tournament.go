package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/table"
	"github.com/marslab-risk/marslab/tourney"
)

const tournamentUsage = `usage: marslab tournament CONFIG [flags]

Plays every PLAYERS-subset of the bots of CONFIG (a TOML file, e.g.
configs/experiments/paper-tournament.toml) REPLICATIONS times, seating and deal random per
game, on every core, and writes to the output directory the batch files of marslab batch
(config.json, games.jsonl, summary.json, timing.json: byte-identical for any number of
workers or shards), the tables (table5, table6, placement, winrate, headtohead, ratings as .md and
.csv, all of them in tables.md) and the figures (.png and .svg). Shards are joined with
marslab merge; running the merged directory with -resume writes its tables.`

// tournamentFlags are the flags of marslab tournament.
type tournamentFlags struct {
	out, shard             *string
	workers                *int
	resume, figures, quiet *bool
}

func tournamentFlagSet(fs *flag.FlagSet) *tournamentFlags {
	return &tournamentFlags{
		out:     fs.String("out", "", "output directory (default: the config's out key)"),
		workers: workersFlag(fs),
		shard:   shardFlag(fs, "games g with g % COUNT == INDEX"),
		resume:  fs.Bool("resume", false, "continue the tournament in the output directory: keep its games and play the missing ones"),
		figures: fs.Bool("figures", true, "draw the figures (PNG and SVG)"),
		quiet:   fs.Bool("quiet", false, "print neither the progress bar nor the tables"),
	}
}

// cmdTournament plays a round-robin tournament described by a TOML file
// and writes its tables and figures.
func cmdTournament(ctx context.Context, in *invocation, f *tournamentFlags) error {
	path, err := in.config()
	if err != nil {
		return err
	}
	if err := checkWorkers(*f.workers); err != nil {
		return err
	}
	shard, _, err := shardOf(*f.shard)
	if err != nil {
		return err
	}
	cfg, err := tourney.Load(path)
	if err != nil {
		return err
	}
	setup, err := cfg.Resolve(in.reg)
	if err != nil {
		return err
	}
	opt := tourney.Options{Out: *f.out, Workers: *f.workers, Shard: shard, Resume: *f.resume}
	if *f.figures {
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
	if !*f.resume {
		if err := refuseRun(opt.Out, "tournament"); err != nil {
			return err
		}
	}
	if !*f.quiet {
		opt.Progress, opt.ProgressLines = in.stderr, !isTerminal(in.stderr)
		fmt.Fprintf(in.stdout, "tournament %s: %d bots, %d per game, x%d: %d games (shard %s: %d), seed %d, rules %s, out %s\n",
			cfg.Source, len(cfg.Bots), cfg.Players, cfg.Replications, cfg.Games(), shard, shard.Len(cfg.Games()), cfg.Seed, setup.Rules.Name, opt.Out)
	}
	rep, res, err := tourney.Run(ctx, cfg, setup, opt)
	if err != nil {
		if rep != nil && !*f.quiet {
			fmt.Fprintf(in.stdout, "partial results (%d of %d games):\n", rep.Done, rep.Total)
			_ = arena.WriteTable(in.stdout, rep.Summary, &rep.Timing)
		}
		return err
	}
	if *f.quiet {
		return nil
	}
	return printTournament(in, res, rep, *f.figures, opt.Out)
}

// printTournament prints Tables 5 and 6 and the statistics of a complete
// tournament, and where its tables (and figures) are.
func printTournament(in *invocation, res *tourney.Results, rep *arena.Report, drawn bool, out string) error {
	for _, t := range []table.Table{res.Table5(), res.Table6()} {
		fmt.Fprintln(in.stdout)
		if err := t.WriteMarkdown(in.stdout); err != nil {
			return err
		}
	}
	if err := arena.WriteStats(in.stdout, rep.Summary); err != nil {
		return err
	}
	what := "tables"
	if drawn {
		what = "tables and figures"
	}
	fmt.Fprintf(in.stdout, "\n%s in %s\n", what, out)
	return nil
}
