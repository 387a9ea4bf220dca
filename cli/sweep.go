package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

// searchFlags are the flags shared by sweep, evolve and validate.
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

func addSearchFlags(fs *flag.FlagSet) searchFlags {
	return searchFlags{
		out:     fs.String("out", "", "output directory (default results/NAME, NAME the config's name)"),
		workers: workersFlag(fs),
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

// loadSearch returns the one CONFIG file of a search command loaded and
// resolved with the registry.
func loadSearch(in *invocation) (*search.Setup, error) {
	path, err := in.config()
	if err != nil {
		return nil, err
	}
	cfg, err := search.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	return cfg.Resolve(in.reg)
}

// runSearch runs the four forms of a search command (local, shard, merge,
// steps) for the search s; summary prints the result of a complete one.
func runSearch[M search.Method](ctx context.Context, in *invocation, f searchFlags, s *search.Search[M], reportFile string, summary func(st *search.State[M])) error {
	if *f.steps {
		n, err := s.Steps()
		if err != nil {
			return err
		}
		fmt.Fprintln(in.stdout, n)
		return nil
	}
	shard, sharded, err := f.shardOf()
	if err != nil {
		return err
	}
	if !*f.quiet {
		s.Progress, s.ProgressLines, s.Label = in.stderr, !isTerminal(in.stderr), in.name
	}
	lock, err := lockSearch(s.Dir, shard, sharded)
	if err != nil {
		return err
	}
	defer lock.Release()
	out := in.stdout
	if *f.quiet {
		out = io.Discard
	}
	switch {
	case *f.merge:
		return mergeSearch(in.name, s, reportFile, out, summary)
	case sharded:
		return runSearchShard(ctx, in.name, s, shard, *f.resume, out)
	}
	st, err := s.Run(ctx, *f.resume)
	if err != nil {
		if st != nil {
			fmt.Fprintf(out, "%s: stopped at step %d of %d with %d evaluations in %s (-resume continues)\n", in.name, st.Step, st.Steps, st.Lines, filepath.Join(s.Dir, "log.jsonl"))
		}
		return err
	}
	if !*f.quiet {
		summary(st)
		fmt.Fprintf(out, "report in %s\n", filepath.Join(s.Dir, reportFile))
	}
	return nil
}

// shardOf checks -workers, -shard and -merge and returns the shard to
// play; sharded is false for the whole search or a merge.
func (f searchFlags) shardOf() (shard arena.Shard, sharded bool, err error) {
	if err := checkWorkers(*f.workers); err != nil {
		return shard, false, err
	}
	if *f.shard != "" || !*f.merge { // -merge alone ignores the environment
		if shard, sharded, err = shardOf(*f.shard); err != nil {
			return shard, false, err
		}
	}
	if *f.merge && sharded {
		return shard, false, fmt.Errorf("-merge and -shard exclude each other")
	}
	return shard, sharded, nil
}

// lockSearch checks the search's folder dir and locks it: the whole
// search and a merge own the folder; the shards of a step share it, each
// shard once.
func lockSearch(dir string, shard arena.Shard, sharded bool) (*outdir.Lock, error) {
	if err := outdir.Check(dir); err != nil {
		return nil, err
	}
	if err := outdir.CheckAncestors(dir); err != nil {
		return nil, err
	}
	if sharded {
		return outdir.AcquireShard(dir, shardLockName(shard))
	}
	return outdir.Acquire(dir)
}

// mergeSearch appends the current step's shard files of s to its log and
// says what is next on out.
func mergeSearch[M search.Method](name string, s *search.Search[M], reportFile string, out io.Writer, summary func(st *search.State[M])) error {
	st, err := s.Merge()
	if err != nil {
		return fmt.Errorf("-merge: %w", err)
	}
	if out == io.Discard {
		return nil
	}
	if st.Complete() {
		fmt.Fprintf(out, "%s: complete (%d evaluations); report in %s\n", name, st.Lines, filepath.Join(s.Dir, reportFile))
		summary(st)
	} else {
		fmt.Fprintf(out, "%s: merged; next step %d of %d (%d evaluations)\n", name, st.Step, st.Steps, len(st.Evals))
	}
	return nil
}

// runSearchShard plays shard of the current step of s.
func runSearchShard[M search.Method](ctx context.Context, name string, s *search.Search[M], shard arena.Shard, resume bool, out io.Writer) error {
	st, err := s.RunShard(ctx, shard, resume)
	if err != nil {
		return err
	}
	if st.Complete() {
		fmt.Fprintf(out, "%s: the search is complete: shard %s has nothing to play\n", name, shard)
	} else {
		fmt.Fprintf(out, "%s: step %d shard %s done: %s\n", name, st.Step, shard, st.ShardFile)
	}
	return nil
}

const sweepUsage = `usage: marslab sweep CONFIG [flags]

Searches the parameters of CONFIG (a TOML file, e.g. configs/experiments/narrow-wp-pob.toml:
the bot, the field of opponents, the [[param]] ranges and the [narrow] table) by narrowing:
a grid per level, games allocated by racing (cells a paired test with Holm correction
shows worse than the best are dropped), zooming on the cells left. Every evaluation
(candidate, block) goes to DIR/log.jsonl, byte-identical for any -workers, resumed runs and
shards; DIR/report.md, cells.csv and the surface figures are written at the end.

Forms: marslab sweep CONFIG [-resume]        every remaining step here
       marslab sweep CONFIG -shard i/n        one shard of the current step (or from Slurm's array env)
       marslab sweep CONFIG -merge            join the current step's shards into the log
       marslab sweep CONFIG -steps            print the maximum number of steps`

// cmdSweep runs a narrowing search of a config file.
func cmdSweep(ctx context.Context, in *invocation, f searchFlags) error {
	setup, err := loadSearch(in)
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
	return runSearch(ctx, in, f, s, "report.md", func(st *search.State[*search.Narrowing]) {
		best, _ := st.Method.Best()
		iv := best.Wilson()
		fmt.Fprintf(in.stdout, "sweep %s: best %s: win rate %.3f [%.3f, %.3f] over %d games (%d evaluations)\n",
			cfg.Name, setup.Space.Label(best.X), float64(best.Wins)/float64(best.Games), iv.Lo, iv.Hi, best.Games, st.Lines)
	})
}
