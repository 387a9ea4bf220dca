package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/internal/figures"
	"github.com/marslab-risk/marslab/internal/outdir"
	lexp "github.com/marslab-risk/marslab/internal/strategist"
)

const learnUsage = "usage: marslab learn [-workers N] [-out DIR] [-resume | -policy FILE] CONFIG\n\n" +
	"Trains a learner (Q-learning or DQN) in the environment of CONFIG (docs/learn.md), then evaluates\n" +
	"its greedy policy against every fixed action and a uniformly random choice on the same fresh seeds.\n" +
	"Writes policy.json, curve.csv, eval.csv, paired.csv and figures to the config's out folder, and\n" +
	"checkpoint.bin after each block of training (removed at the end). Flags:"

// learnFlags are the flags of marslab learn.
type learnFlags struct {
	workers     *int
	out, policy *string
	resume      *bool
}

func learnFlagSet(fs *flag.FlagSet) *learnFlags {
	return &learnFlags{
		workers: fs.Int("workers", 0, "goroutines playing episodes (0: one per core); the results do not depend on it"),
		out:     fs.String("out", "", "output folder (default: the config's out)"),
		resume:  fs.Bool("resume", false, "continue an interrupted training from the output folder's checkpoint.bin; the results are those of an uninterrupted run"),
		policy:  fs.String("policy", "", "evaluate the policy in this file (a policy.json written by marslab learn) instead of training one"),
	}
}

// cmdLearn runs "marslab learn CONFIG": the strategist experiment (train a
// learner, evaluate it on fresh seeds against every fixed action and a
// uniformly random choice, paired), written to the config's out folder.
// Training writes a checkpoint after each block of the curve; interrupted
// (ctx done), it writes the completed blocks of the curve and fails, and
// -resume continues from the checkpoint. -policy evaluates a saved policy
// instead of training one.
func cmdLearn(ctx context.Context, in *invocation, f *learnFlags) error {
	if len(in.args) != 1 {
		in.fs.Usage()
		return fmt.Errorf("want one CONFIG, got %q", in.args)
	}
	if err := checkWorkers(*f.workers); err != nil {
		return err
	}
	if *f.resume && *f.policy != "" {
		return fmt.Errorf("-resume and -policy: want at most one (a loaded policy is not trained)")
	}
	e, err := lexp.LoadExperiment(in.args[0])
	if err != nil {
		return err
	}
	if *f.out != "" {
		e.Out = *f.out
	}
	lock, err := ownDir(e.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	opts, err := f.options(in, e)
	if err != nil {
		return err
	}
	checkpointed := 0
	opts.Checkpointed = func(games int) { checkpointed = games }
	res, err := e.RunWith(ctx, in.reg, opts)
	if err != nil {
		return learnStopped(ctx, err, res, e.Out, opts, checkpointed, *f.resume)
	}
	if err := res.Write(e.Out); err != nil {
		return err
	}
	if err := figures.WriteStrategist(e.Out, res); err != nil {
		return err
	}
	if opts.Checkpoint != "" {
		if err := os.Remove(opts.Checkpoint); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := res.Summary(in.stdout); err != nil {
		return err
	}
	fmt.Fprintf(in.stdout, "wrote %s\n", e.Out)
	return nil
}

// options checks the output folder of e for the run the flags ask for
// (a run is not trained over another one without -resume, and -policy
// evaluates into a folder of its own) and returns the run's options.
func (f *learnFlags) options(in *invocation, e *lexp.Experiment) (lexp.RunOptions, error) {
	opts := lexp.RunOptions{Workers: *f.workers, Progress: in.stderr, ProgressLines: !isTerminal(in.stderr), Resume: *f.resume}
	marks := []string{lexp.CheckpointName, lexp.PolicyName, "curve.csv", "eval.csv", "paired.csv"}
	switch {
	case *f.policy != "":
		if n, err := outdir.Holds(e.Out, marks...); err != nil || n != "" {
			if err == nil {
				err = fmt.Errorf("-policy: %s already holds a learning run (%s): evaluate into another output directory (-out)", e.Out, n)
			}
			return opts, err
		}
	case !*f.resume:
		if err := outdir.Refuse(e.Out, "learning run", marks...); err != nil {
			return opts, err
		}
	}
	ckpt := filepath.Join(e.Out, lexp.CheckpointName)
	if *f.policy != "" {
		var err error
		if opts.Policy, err = e.LoadPolicy(*f.policy, in.reg); err != nil {
			return opts, err
		}
		opts.PolicySource = *f.policy
		return opts, nil
	}
	opts.Checkpoint = ckpt
	if *f.resume {
		if _, err := os.Stat(ckpt); errors.Is(err, fs.ErrNotExist) {
			return opts, fmt.Errorf("-resume: no checkpoint %s (none is written before the first block of training ends): run without -resume", ckpt)
		}
	}
	return opts, nil
}

// learnStopped returns the error err of a learning run into out that
// stopped; interrupted, it keeps the completed blocks of the curve (res),
// and the policy if training ended, and says how to go on.
func learnStopped(ctx context.Context, err error, res *lexp.Result, out string, opts lexp.RunOptions, checkpointed int, resumed bool) error {
	ckpt := filepath.Join(out, lexp.CheckpointName)
	if ctx.Err() != nil && res != nil && len(res.Curve) > 0 && res.PolicySource == "" {
		werr := res.WriteCurve(out)
		if werr == nil {
			werr = figures.WriteStrategistCurve(out, res)
		}
		if werr == nil {
			werr = res.WritePolicy(out)
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
				err, lexp.PolicyName, out)
		}
		return fmt.Errorf("%w: wrote the training curve of the first %d games to %s; %s",
			err, games, out, resumeHint(ckpt, checkpointed, resumed))
	}
	if ctx.Err() != nil && opts.Checkpoint != "" {
		return fmt.Errorf("%w; %s", err, resumeHint(ckpt, checkpointed, resumed))
	}
	return err
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
