package cli

import (
	"errors"
	"fmt"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/slurm"
	lexp "github.com/marslab-risk/marslab/internal/strategist"
	"github.com/marslab-risk/marslab/search"
)

// ownDir makes dir the command's output folder: it refuses a folder inside
// a notebook folder or holding files git tracks (outdir.Check) and takes
// the folder's exclusive lock, which the caller releases when the command
// ends (the process's exit releases it too).
func ownDir(dir string) (*outdir.Lock, error) {
	if err := outdir.Check(dir); err != nil {
		return nil, err
	}
	if err := outdir.CheckAncestors(dir); err != nil {
		return nil, err
	}
	return outdir.Acquire(dir)
}

// runHolds returns what dir holds of a run a notebook report or work
// folder may not be written over, and the file that shows it ("" when
// nothing): a batch or tournament (config.json and games.jsonl, by the
// schedule), a recognition run (config.json and games.jsonl), a search
// (log.jsonl or shards), marslab run's folder (outcome.md, or its narrow
// and validate searches), a learning run (policy.json, checkpoint.bin) or
// a Slurm submission.
func runHolds(dir string) (kind, file string, err error) {
	if err := refuseRun(dir, ""); err != nil {
		var held *outdir.HeldError
		if errors.As(err, &held) {
			if held.Holds == "run" && held.File == "config.json" {
				if g, _ := outdir.Holds(dir, "games.jsonl"); g != "" {
					return "recognition run", held.File, nil
				}
			}
			return held.Holds, held.File, nil
		}
		return "", "", err
	}
	for _, m := range []struct{ kind, file string }{
		{"Slurm submission", slurm.ScriptDir}, {"main run (marslab run)", "outcome.md"}, {"main run (marslab run)", "validate"},
		{"learning run", lexp.PolicyName}, {"learning run", lexp.CheckpointName},
	} {
		if f, err := outdir.Holds(dir, m.file); err != nil || f != "" {
			return m.kind, f, err
		}
	}
	return "", "", nil
}

// runMarks are the files of a folder that holds a run of batch,
// tournament, merge, sweep, evolve or validate (and their shards' folder).
var runMarks = []string{"config.json", "games.jsonl", "log.jsonl", "shards"}

// refuseRun refuses the folder dir for a new run of kind asked ("batch",
// "tournament"; "" for any) when it holds a run (runMarks, or one of the
// files more), with an *outdir.HeldError naming what it holds: a batch or
// a tournament (by the schedule of its config.json), a search (log.jsonl),
// else a run.
func refuseRun(dir, asked string, more ...string) error {
	n, err := outdir.Holds(dir, append(runMarks[:len(runMarks):len(runMarks)], more...)...)
	if err != nil || n == "" {
		return err
	}
	kind := "run"
	if h, err := arena.ReadHeader(dir); err == nil {
		kind = "batch"
		if h.Schedule.Kind == arena.KindSubsets {
			kind = "tournament"
		}
	} else if m, _ := outdir.Holds(dir, "log.jsonl"); m != "" {
		kind = "search"
	}
	return &outdir.HeldError{Dir: dir, Holds: kind, File: n, Asked: asked}
}

// resumable are the commands that continue a run in their folder with
// -resume.
var resumable = map[string]bool{"batch": true, "tournament": true, "sweep": true, "evolve": true,
	"validate": true, "run": true, "recognize": true, "learn": true, "slurm": true}

// advise adds to a refusal of the libraries (a folder holding another run,
// a file that is not a regular file of one link, git failing) the advice
// of the command line for command cmd.
func advise(cmd string, err error) error {
	var held *outdir.HeldError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &held) && held.Asked != "" && held.Asked != held.Holds:
		return fmt.Errorf("%w: choose another output directory", err)
	case errors.Is(err, outdir.ErrHoldsRun) && resumable[cmd]:
		return fmt.Errorf("%w: use -resume to continue it, or another output directory", err)
	case errors.Is(err, outdir.ErrHoldsRun):
		return fmt.Errorf("%w: choose another output directory", err)
	case errors.Is(err, outdir.ErrNotLock):
		return fmt.Errorf("%w: marslab writes nothing through it; remove it if it is not yours, or choose another output directory", err)
	case errors.Is(err, outdir.ErrLinkedFolder):
		return fmt.Errorf("%w: remove the link, or choose another output directory", err)
	case errors.Is(err, atomicfile.ErrNotRegular):
		return fmt.Errorf("%w: marslab writes nothing through it; remove it, or choose another output directory", err)
	case errors.Is(err, search.ErrOtherConfig) && cmd == "report":
		return fmt.Errorf("%w: start a new -work directory, or restore the config", err)
	case errors.Is(err, search.ErrOtherConfig):
		return fmt.Errorf("%w: start a new -out directory, or restore the config", err)
	case errors.Is(err, search.ErrComplete):
		return fmt.Errorf("%w: choose another -out for a new run (-resume writes its report again)", err)
	case errors.Is(err, search.ErrShardIncomplete):
		return fmt.Errorf("%w: run the shard again with -resume", err)
	case errors.Is(err, arena.ErrInterrupted) && resumable[cmd]:
		return fmt.Errorf("%w: run again with -resume to continue", err)
	case errors.Is(err, bots.ErrOverride):
		return fmt.Errorf("%w (set with -param)", err)
	case errors.Is(err, lexp.ErrDamaged):
		return fmt.Errorf("%w: delete it and train again without -resume", err)
	case errors.Is(err, lexp.ErrOtherConfig):
		return fmt.Errorf("%w: use the config it was written with, or another -out", err)
	case errors.Is(err, arena.ErrNoShardCount):
		return fmt.Errorf("%w: pass -shard INDEX/COUNT", err)
	case errors.Is(err, outdir.ErrGit):
		return fmt.Errorf("%w: until git can list the folder's tracked files it is refused; fix what git says (for another owner's repository: git config --global --add safe.directory PATH), or choose a folder outside the work tree", err)
	}
	return err
}
