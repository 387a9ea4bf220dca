package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/slurm"
	"github.com/marslab-risk/marslab/tourney"
)

const slurmUsage = `usage: marslab slurm submit -out DIR -tasks N [flags] COMMAND [CONFIG] [-- FLAGS OF COMMAND]

Runs a marslab command on a Slurm cluster as job arrays of N shard tasks: writes the job
scripts to DIR/slurm, submits them with sbatch --parsable, chained with
--dependency=afterok, and prints the job ids. DIR must be on a file system shared by
every node. COMMAND is one of
  batch -- BATCH FLAGS     marslab batch (-players, -games, -seed, -rules, -map, -param):
                           N shards in DIR/shards, then marslab merge into DIR
  tournament CONFIG        marslab tournament: N shards, then merge and the tables in DIR
  sweep CONFIG, evolve CONFIG, validate CONFIG -- -a SEAT [FLAGS]
                           a search or validation: for each of its steps (marslab sweep
                           CONFIG -steps) N shard tasks, then the step's merge, the next
                           step after it
The plan sets -out, -shard, -resume and -workers (from --cpus-per-task) on every job.
Every job runs with -resume. A DIR that holds a run already (config.json, games.jsonl,
log.jsonl, shards or slurm) is refused before anything is submitted, unless -resume
says that the submitted command is the one that run belongs to. When a task fails or is cancelled, Slurm cancels the jobs
waiting for it; bash DIR/slurm/submit.sh then submits the whole chain again, and every
finished shard and step is kept, so only what is missing is played. -dry-run prints the
scripts and the sbatch commands and submits nothing.`

// slurmFlags are the flags of marslab slurm submit.
type slurmFlags struct {
	out, marslab, sbatch, name, partition, time *string
	tasks, cpus                                 *int
	extra                                       *multiFlag
	dry, resume                                 *bool
}

func slurmFlagSet(fs *flag.FlagSet) *slurmFlags {
	f := &slurmFlags{
		out:       fs.String("out", "", "output directory shared by every node (required)"),
		tasks:     fs.Int("tasks", 0, "shard tasks per job array, >= 1 (required)"),
		marslab:   fs.String("marslab", "", "the marslab executable the jobs run, on a shared file system (default: this one)"),
		sbatch:    fs.String("sbatch", "sbatch", "the sbatch command"),
		name:      fs.String("name", "marslab", "prefix of the job names"),
		partition: fs.String("partition", "", "Slurm partition (default: the cluster's)"),
		time:      fs.String("time", "", "time limit of each job, e.g. 2:00:00 (default: the partition's)"),
		cpus:      fs.Int("cpus", 0, "CPUs per task (--cpus-per-task; the command plays that many games at once), >= 0 (0 = Slurm's default)"),
		extra:     &multiFlag{},
	}
	fs.Var(f.extra, "sbatch-opt", "a further sbatch option for every job, e.g. --account=lab (repeatable)")
	f.dry = fs.Bool("dry-run", false, "print the scripts and the sbatch commands; write and submit nothing")
	f.resume = fs.Bool("resume", false, "submit into a DIR that holds a run of the same command and config (its jobs continue it)")
	return f
}

// cmdSlurm runs marslab slurm submit, the only subcommand: it writes the
// plan's scripts and submits them (-dry-run prints them).
func cmdSlurm(ctx context.Context, in *invocation, f *slurmFlags) error {
	if len(in.args) == 0 || in.args[0] != "submit" {
		return errors.New("want the subcommand submit (marslab slurm -h)")
	}
	pos := in.args[1:]
	o, err := f.options(len(pos))
	if err != nil {
		return err
	}
	plan, err := slurmPlan(ctx, in.reg, o, pos)
	if err != nil {
		return err
	}
	// The checks of the command's own run, before anything is printed or
	// submitted: the cluster time would be spent before the jobs refused
	// the folder.
	if fi, err := os.Stat(o.Marslab); err != nil {
		return fmt.Errorf("-marslab: %w", err)
	} else if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("-marslab: %s is not an executable file", o.Marslab)
	}
	identity := submission(o.Tasks, pos)
	if err := checkSubmission(o.Dir, identity, *f.resume); err != nil {
		return err
	}
	if *f.dry {
		if err := writable(o.Dir); err != nil {
			return err
		}
		for i, s := range plan.Scripts {
			fmt.Fprintf(in.stdout, "==> %s <==\n%s\n", plan.ScriptPath(i), s.Text)
		}
		fmt.Fprintf(in.stdout, "==> %s <==\n%s", filepath.Join(o.Dir, slurm.ScriptDir, slurm.SubmitScript), plan.Shell())
		return nil
	}
	lock, err := ownDir(o.Dir)
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := checkSubmission(o.Dir, identity, *f.resume); err != nil {
		return err // checked again under the lock
	}
	if err := plan.Write(); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(o.Dir, slurm.ScriptDir, submissionFile), []byte(identity), 0o644); err != nil {
		return err
	}
	return f.submit(ctx, in.stdout, plan, o.Dir)
}

// options checks the flags of slurm submit, given args positional
// arguments after submit, and returns the plan's options.
func (f *slurmFlags) options(args int) (slurm.Options, error) {
	switch {
	case *f.out == "":
		return slurm.Options{}, errors.New("-out is required: a directory shared by every node")
	case *f.tasks < 1:
		return slurm.Options{}, checkMin("tasks", *f.tasks, 1)
	case args == 0:
		return slurm.Options{}, errors.New("want a COMMAND: batch, tournament, sweep, evolve or validate (marslab slurm -h)")
	}
	dir, err := filepath.Abs(*f.out)
	if err != nil {
		return slurm.Options{}, fmt.Errorf("-out: %w", err)
	}
	exe := *f.marslab
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return slurm.Options{}, fmt.Errorf("finding this executable (pass -marslab): %w", err)
		}
		if strings.Contains(exe, "go-build") {
			return slurm.Options{}, fmt.Errorf("this executable %s is a temporary one of go run: build marslab (make build) and pass -marslab PATH", exe)
		}
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return slurm.Options{}, fmt.Errorf("-marslab: %w", err)
	}

	return slurm.Options{Marslab: exe, Dir: dir, Tasks: *f.tasks, Name: *f.name, Partition: *f.partition,
		Time: *f.time, CPUs: *f.cpus, Extra: *f.extra}, nil
}

// submit submits the jobs of plan with -sbatch and prints their ids.
func (f *slurmFlags) submit(ctx context.Context, stdout io.Writer, plan *slurm.Plan, dir string) error {
	sbatch := *f.sbatch
	ids, err := plan.Submit(func(a []string) (string, error) {
		var o, e bytes.Buffer
		cmd := exec.CommandContext(ctx, sbatch, a...)
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s %s: %w: %s", sbatch, strings.Join(a, " "), err, strings.TrimSpace(e.String()))
		}
		return o.String(), nil
	})
	for j, id := range ids {
		job := plan.Jobs[j]
		what := "job " + id
		if job.Array > 0 {
			what += fmt.Sprintf(" (array 0-%d)", job.Array-1)
		}
		if job.After >= 0 {
			what += " after job " + ids[job.After]
		}
		fmt.Fprintf(stdout, "%s: %s: %s\n", job.Label, plan.Scripts[job.Script].File, what)
	}
	if err != nil {
		if len(ids) > 0 {
			err = fmt.Errorf("%w (the jobs above were submitted: scancel %s)", err, strings.Join(ids, " "))
		}
		return err
	}
	fmt.Fprintf(stdout, "scripts and job output in %s; results in %s\n", filepath.Join(dir, slurm.ScriptDir), dir)
	fmt.Fprintf(stdout, "after a failed or cancelled task: bash %s (submits the chain again; what is done is kept)\n",
		filepath.Join(dir, slurm.ScriptDir, slurm.SubmitScript))
	return nil
}

// slurmPlan checks the command line pos (COMMAND [CONFIG] [FLAGS]) as the
// command itself would and returns its plan.
func slurmPlan(ctx context.Context, reg *bots.Registry, o slurm.Options, pos []string) (*slurm.Plan, error) {
	command, rest := pos[0], pos[1:]
	switch command {
	case "batch":
		// The batch's own flag parsing checks the flags, seats, rules and map.
		games, err := batchGames(reg, append(append([]string(nil), rest...), "-shard", "0/"+strconv.Itoa(o.Tasks)))
		if err != nil {
			return nil, fmt.Errorf("batch: %w", err)
		}
		if games < o.Tasks {
			return nil, fmt.Errorf("-tasks %d: more tasks than the batch's %d games", o.Tasks, games)
		}
		return slurm.Batch(o, rest)
	case "tournament":
		cfgPath, flags, err := configArg(command, rest)
		if err != nil {
			return nil, err
		}
		cfg, err := tourney.Load(cfgPath)
		if err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		if _, err := cfg.Resolve(reg); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		if cfg.Games() < o.Tasks {
			return nil, fmt.Errorf("-tasks %d: more tasks than the tournament's %d games", o.Tasks, cfg.Games())
		}
		return slurm.Tournament(o, cfgPath, flags)
	case "sweep", "evolve", "validate":
		cfgPath, flags, err := configArg(command, rest)
		if err != nil {
			return nil, err
		}
		// The search command reads its config and says how many steps it has.
		var sout, serr bytes.Buffer
		if err := Run(ctx, reg, append([]string{command, cfgPath, "-steps"}, flags...), nil, &sout, &serr); err != nil {
			return nil, err
		}
		steps, err := strconv.Atoi(strings.TrimSpace(sout.String()))
		if err != nil {
			return nil, fmt.Errorf("marslab %s %s -steps printed %q: want the number of steps", command, cfgPath, sout.String())
		}
		return slurm.Search(o, command, cfgPath, steps, flags)
	}
	return nil, fmt.Errorf("command %q: want batch, tournament, sweep, evolve or validate", command)
}

// configArg splits the arguments of a command that takes one CONFIG file
// into its absolute path and the remaining flags.
func configArg(command string, rest []string) (string, []string, error) {
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return "", nil, fmt.Errorf("%s: want a CONFIG file after the command", command)
	}
	p, err := filepath.Abs(rest[0])
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", command, err)
	}
	if _, err := os.Stat(p); err != nil {
		return "", nil, fmt.Errorf("%s: %w", command, err)
	}
	return p, rest[1:], nil
}

// batchGames parses and checks the arguments of marslab batch as batch
// itself does, and returns the games of the whole batch.
func batchGames(reg *bots.Registry, args []string) (int, error) {
	fs := newFlagSet("batch", batchUsage, io.Discard)
	f := batchFlagSet(fs)
	pos, err := parseArgs(fs, args, io.Discard)
	if err != nil {
		return 0, err
	}
	in := &invocation{name: "batch", fs: fs, args: pos}
	if err := in.noArgs(); err != nil {
		return 0, err
	}
	ac, _, err := f.config(reg)
	return ac.Games, err
}

// checkSubmission applies to the folder dir of a Slurm submission the
// checks its jobs would make: a folder inside the notebooks or holding
// committed files, or inside a held run, is refused; without resume a
// folder holding a run of any kind is; with resume the folder must hold
// this submission (the same command line and -tasks, as its
// submission file records them), nothing, or only a shards folder.
func checkSubmission(dir, identity string, resume bool) error {
	if err := outdir.Check(dir); err != nil {
		return err
	}
	if err := outdir.CheckAncestors(dir); err != nil {
		return err
	}
	if !resume {
		return refuseRun(dir, "", slurm.ScriptDir)
	}
	if f, err := outdir.Holds(dir, slurm.ScriptDir); err != nil || f == "" {
		if err != nil {
			return err
		}
		// No scripts: the folder may hold no run yet, or only the shards'
		// folder of a sharded run, whose shard folders each job checks
		// against its own command line before it plays.
		kind, file, err := runHolds(dir)
		if err != nil {
			return err
		}
		if kind != "" && file != "shards" {
			return &outdir.HeldError{Dir: dir, Holds: kind, File: file, Asked: "Slurm submission"}
		}
		return nil
	}
	path := filepath.Join(dir, slurm.ScriptDir, submissionFile)
	old, err := fileread.ReadFile(path, fileread.Config)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil // scripts written before the file was
	case err != nil:
		return err
	case string(old) != identity:
		return fmt.Errorf("%s: the folder holds the submission %q, this one is %q: -resume continues the same command line and -tasks; choose another -out for another run",
			path, strings.TrimSpace(string(old)), strings.TrimSpace(identity))
	}
	return nil
}

// submissionFile, in DIR/slurm, records the command line and -tasks of
// the submission (submission), which -resume must repeat.
const submissionFile = "submission.txt"

// submission is the identity of a submission: -tasks and the command line
// after submit's flags.
func submission(tasks int, pos []string) string {
	return fmt.Sprintf("-tasks %d %s\n", tasks, strings.Join(pos, " "))
}

// writable refuses dir when it, or the nearest folder above it that
// exists, cannot be written (a read-only file system, a folder without
// write permission): what -dry-run checks in place of writing.
func writable(dir string) error {
	d := dir
	for {
		if _, err := os.Stat(d); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	probe, err := os.MkdirTemp(d, ".marslab-probe-")
	if err != nil {
		return fmt.Errorf("output directory %s: cannot write in %s: %w", dir, d, err)
	}
	return os.Remove(probe)
}
