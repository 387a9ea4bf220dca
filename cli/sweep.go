package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

// searchFlags are the flags shared by sweep and evolve.
type searchFlags struct {
	out     *string
	workers *int
	shard   *string
	merge   *bool
	steps   *bool
	resume  *bool
	figures *bool
	quiet   *bool
}

func addSearchFlags(fs interface {
	String(string, string, string) *string
	Int(string, int, string) *int
	Bool(string, bool, string) *bool
}) searchFlags {
	return searchFlags{
		out:     fs.String("out", "", "output directory (default results/NAME, NAME the config's name)"),
		workers: fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)"),
		shard:   fs.String("shard", "", "play only shard INDEX/COUNT of the current step into DIR/shards/ (default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS, else the whole search)"),
		merge:   fs.Bool("merge", false, "append the current step's shard files to the log (after the last step: write the report)"),
		steps:   fs.Bool("steps", false, "print the maximum number of steps and exit"),
		resume:  fs.Bool("resume", false, "continue the search (or the shard) in the output directory"),
		figures: fs.Bool("figures", true, "draw the figures (PNG)"),
		quiet:   fs.Bool("quiet", false, "print neither the progress line nor the summary"),
	}
}

// dir returns the -out directory, or results/name if -out is empty.
func (f searchFlags) dir(name string) string {
	if *f.out != "" {
		return *f.out
	}
	return filepath.Join("results", name)
}

// loadSearch parses the arguments of the search command of fs (one CONFIG
// file and the flags) and returns CONFIG loaded and resolved with reg;
// errors are prefixed with the command's name.
func loadSearch(fs *flag.FlagSet, reg *bots.Registry, args []string, stdout io.Writer) (*search.Setup, error) {
	name := commandName(fs)
	path, err := parseConfigArg(fs, args, stdout)
	if err != nil {
		return nil, err
	}
	cfg, err := search.LoadConfig(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	setup, err := cfg.Resolve(reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return setup, nil
}

// runSearch runs the four forms of a search command (local, shard, merge,
// steps) for the search s.
func runSearch[M search.Method](ctx context.Context, name string, f searchFlags, s *search.Search[M], reportFile string, stdout, stderr io.Writer, summary func(st *search.State[M])) error {
	if *f.steps {
		n, err := s.Steps()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintln(stdout, n)
		return nil
	}
	if *f.workers < 0 {
		return fmt.Errorf("%s: -workers %d: must be >= 0 (0 = every core)", name, *f.workers)
	}
	var shard arena.Shard
	sharded := false
	if *f.shard != "" || !*f.merge { // -merge alone ignores the environment
		var err error
		if shard, sharded, err = shardOf(*f.shard); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if *f.merge && sharded {
		return fmt.Errorf("%s: -merge and -shard exclude each other", name)
	}
	if !*f.quiet {
		s.Progress, s.ProgressLines, s.Label = stderr, !isTerminal(stderr), name
	}
	// The whole search and a merge own the folder; the shards of a step
	// share it, each shard once.
	if err := outdir.Check(s.Dir); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var lock *outdir.Lock
	var err error
	if sharded {
		lock, err = outdir.AcquireShard(s.Dir, shardLockName(shard))
	} else {
		lock, err = outdir.Acquire(s.Dir)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer lock.Release()
	switch {
	case *f.merge:
		st, err := s.Merge()
		if err != nil {
			return fmt.Errorf("%s: -merge: %w", name, err)
		}
		if !*f.quiet {
			if st.Complete() {
				fmt.Fprintf(stdout, "%s: complete (%d evaluations); report in %s\n", name, st.Lines, filepath.Join(s.Dir, reportFile))
				summary(st)
			} else {
				fmt.Fprintf(stdout, "%s: merged; next step %d of %d (%d evaluations)\n", name, st.Step, st.Steps, len(st.Evals))
			}
		}
		return nil
	case sharded:
		st, err := s.RunShard(ctx, shard, *f.resume)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !*f.quiet {
			if st.Complete() {
				fmt.Fprintf(stdout, "%s: the search is complete: shard %s has nothing to play\n", name, shard)
			} else {
				fmt.Fprintf(stdout, "%s: step %d shard %s done: %s\n", name, st.Step, shard, st.ShardFile)
			}
		}
		return nil
	}
	st, err := s.Run(ctx, *f.resume)
	if err != nil {
		if st != nil && !*f.quiet {
			fmt.Fprintf(stdout, "%s: stopped at step %d of %d with %d evaluations in %s (-resume continues)\n", name, st.Step, st.Steps, st.Lines, filepath.Join(s.Dir, "log.jsonl"))
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	if !*f.quiet {
		summary(st)
		fmt.Fprintf(stdout, "report in %s\n", filepath.Join(s.Dir, reportFile))
	}
	return nil
}

// cmdSweep runs a narrowing search of a config file.
func cmdSweep(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", `usage: marslab sweep CONFIG [flags]

Searches the parameters of CONFIG (a TOML file, e.g. configs/experiments/narrow-wp-pob.toml:
the bot, the field of opponents, the [[param]] ranges and the [narrow] table) by narrowing:
a grid per level, games allocated by racing (cells a paired test with Holm correction
shows worse than the best are dropped), zooming on the cells left. Every evaluation
(candidate, block) goes to DIR/log.jsonl, byte-identical for any -workers, resumed runs and
shards; DIR/report.md, cells.csv and the surface figures are written at the end.

Forms: marslab sweep CONFIG [-resume]        every remaining step here
       marslab sweep CONFIG -shard i/n        one shard of the current step (or from Slurm's array env)
       marslab sweep CONFIG -merge            join the current step's shards into the log
       marslab sweep CONFIG -steps            print the maximum number of steps`, stderr)
	f := addSearchFlags(fs)
	setup, err := loadSearch(fs, reg, args, stdout)
	if err != nil {
		return err
	}
	cfg := setup.Config
	ncfg, err := setup.NarrowConfig()
	if err != nil {
		return err
	}
	setup.Field.Workers = *f.workers
	dir := f.dir(cfg.Name)
	s := &search.Search[*search.Narrowing]{
		Dir:     dir,
		Config:  setup.Fingerprint("narrow"),
		New:     func() (*search.Narrowing, error) { return search.NewNarrowing(ncfg) },
		Eval:    setup.Field,
		Players: setup.Field.Players,
	}
	s.Report = func(n *search.Narrowing) error {
		return searchreport.WriteNarrow(dir, setup, n, *f.figures)
	}
	return runSearch(ctx, "sweep", f, s, "report.md", stdout, stderr, func(st *search.State[*search.Narrowing]) {
		best, _ := st.Method.Best()
		iv := best.Wilson()
		fmt.Fprintf(stdout, "sweep %s: best %s: win rate %.3f [%.3f, %.3f] over %d games (%d evaluations)\n",
			cfg.Name, setup.Space.Label(best.X), float64(best.Wins)/float64(best.Games), iv.Lo, iv.Hi, best.Games, st.Lines)
	})
}
