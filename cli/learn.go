package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/internal/outdir"
	lexp "github.com/marslab-risk/marslab/internal/strategist"
)

// cmdLearn runs "marslab learn CONFIG": the strategist experiment (train a
// learner, evaluate it on fresh seeds against every fixed action and a
// uniformly random choice, paired), written to the config's out folder.
// Training writes a checkpoint after each block of the curve; interrupted
// (ctx done), it writes the completed blocks of the curve and fails, and
// -resume continues from the checkpoint. -policy evaluates a saved policy
// instead of training one.
func cmdLearn(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	flags := newFlagSet("learn", "usage: marslab learn [-workers N] [-out DIR] [-resume | -policy FILE] CONFIG\n\n"+
		"Trains a learner (Q-learning or DQN) in the environment of CONFIG (docs/learn.md), then evaluates\n"+
		"its greedy policy against every fixed action and a uniformly random choice on the same fresh seeds.\n"+
		"Writes policy.json, curve.csv, eval.csv, paired.csv and figures to the config's out folder, and\n"+
		"checkpoint.bin after each block of training (removed at the end). Flags:", stderr)
	workers := flags.Int("workers", 0, "goroutines playing episodes (0: one per core); the results do not depend on it")
	out := flags.String("out", "", "output folder (default: the config's out)")
	resume := flags.Bool("resume", false, "continue an interrupted training from the output folder's checkpoint.bin; the results are those of an uninterrupted run")
	policy := flags.String("policy", "", "evaluate the policy in this file (a policy.json written by marslab learn) instead of training one")
	pos, err := parseArgs(flags, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		flags.Usage()
		return fmt.Errorf("want one CONFIG, got %q", pos)
	}
	if *workers < 0 {
		return fmt.Errorf("-workers %d: want >= 0", *workers)
	}
	if *resume && *policy != "" {
		return fmt.Errorf("-resume and -policy: want at most one (a loaded policy is not trained)")
	}
	e, err := lexp.LoadExperiment(pos[0])
	if err != nil {
		return err
	}
	if *out != "" {
		e.Out = *out
	}
	lock, err := ownDir(e.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	// The files of a run: a run is not trained over another one without
	// -resume, and -policy evaluates into a folder of its own.
	marks := []string{lexp.CheckpointName, lexp.PolicyName, "curve.csv", "eval.csv", "paired.csv"}
	switch {
	case *policy != "":
		if n, err := outdir.Holds(e.Out, marks...); err != nil || n != "" {
			if err == nil {
				err = fmt.Errorf("-policy: %s already holds a learning run (%s): evaluate into another output directory (-out)", e.Out, n)
			}
			return err
		}
	case !*resume:
		if err := outdir.Refuse(e.Out, "learning run", marks...); err != nil {
			return err
		}
	}
	opts := lexp.RunOptions{Workers: *workers, Progress: stderr, ProgressLines: !isTerminal(stderr), Resume: *resume}
	ckpt := filepath.Join(e.Out, lexp.CheckpointName)
	if *policy != "" {
		if opts.Policy, err = e.LoadPolicy(*policy, reg); err != nil {
			return err
		}
		opts.PolicySource = *policy
	} else {
		opts.Checkpoint = ckpt
		if *resume {
			if _, err := os.Stat(ckpt); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("-resume: no checkpoint %s (none is written before the first block of training ends): run without -resume", ckpt)
			}
		}
	}
	checkpointed := 0
	opts.Checkpointed = func(games int) { checkpointed = games }
	res, err := e.RunWith(ctx, reg, opts)
	if err != nil {
		if ctx.Err() != nil && res != nil && len(res.Curve) > 0 && res.PolicySource == "" {
			// Interrupted: keep the completed blocks of the curve, and the
			// policy if training ended.
			werr := res.WriteCurve(e.Out)
			if werr == nil {
				werr = figures.WriteStrategistCurve(e.Out, res)
			}
			if werr == nil {
				werr = res.WritePolicy(e.Out)
			}
			if werr != nil {
				return fmt.Errorf("%w (and writing the curve: %v)", err, werr)
			}
			games := 0
			for _, b := range res.Curve {
				games += b.Games
			}
			if res.Q != nil || res.DQN != nil {
				return fmt.Errorf("%w in the evaluation: wrote the training curve and %s to %s; run again with -resume to evaluate",
					err, lexp.PolicyName, e.Out)
			}
			return fmt.Errorf("%w: wrote the training curve of the first %d games to %s; %s",
				err, games, e.Out, resumeHint(ckpt, checkpointed, *resume))
		}
		if ctx.Err() != nil && opts.Checkpoint != "" {
			return fmt.Errorf("%w; %s", err, resumeHint(ckpt, checkpointed, *resume))
		}
		return err // Run names the command ("learn: ...") once
	}
	if err := res.Write(e.Out); err != nil {
		return err
	}
	if err := figures.WriteStrategist(e.Out, res); err != nil {
		return err
	}
	if opts.Checkpoint != "" {
		if err := os.Remove(ckpt); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := res.Summary(stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", e.Out)
	return nil
}

// resumeHint says how to go on after an interruption.
func resumeHint(ckpt string, games int, resumed bool) string {
	switch {
	case games > 0:
		return fmt.Sprintf("the checkpoint %s holds %d games: run again with -resume to go on", ckpt, games)
	case resumed:
		return fmt.Sprintf("the checkpoint %s is as it was: run again with -resume to go on", ckpt)
	}
	return "no checkpoint yet (none before the first block ends): run again without -resume"
}
