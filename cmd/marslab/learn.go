package main

import (
	"context"
	"fmt"
	"io"

	"marslab/bots/registry"
	"marslab/learn"
)

// cmdLearn runs "marslab learn CONFIG": the strategist experiment (train a
// learner, evaluate it on fresh seeds against every fixed action and a
// uniformly random choice, paired), written to the config's out folder.
// Interrupted (ctx done), it writes the completed blocks of the training
// curve and fails.
func cmdLearn(ctx context.Context, reg *registry.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("learn", "usage: marslab learn [-workers N] [-out DIR] CONFIG\n\n"+
		"Trains a tabular Q-learner in the environment of CONFIG (docs/learn.md), then evaluates its\n"+
		"greedy policy against every fixed action and a uniformly random choice on the same fresh seeds.\n"+
		"Writes curve.csv, eval.csv, paired.csv and figures to the config's out folder. Flags:", stderr)
	workers := fs.Int("workers", 0, "goroutines playing episodes (0: one per core); the results do not depend on it")
	out := fs.String("out", "", "output folder (default: the config's out)")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("learn: want one CONFIG, got %q", pos)
	}
	if *workers < 0 {
		return fmt.Errorf("learn: -workers %d: want >= 0", *workers)
	}
	e, err := learn.LoadExperiment(pos[0])
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	if *out != "" {
		e.Out = *out
	}
	res, err := e.Run(ctx, reg, *workers, stderr)
	if err != nil {
		if ctx.Err() != nil && res != nil && len(res.Curve) > 0 {
			// Interrupted: keep the completed blocks of the training curve.
			if werr := res.WriteCurve(e.Out); werr != nil {
				return fmt.Errorf("learn: %w (and writing the curve: %v)", err, werr)
			}
			games := 0
			for _, b := range res.Curve {
				games += b.Games
			}
			return fmt.Errorf("learn: %w: wrote the training curve of the first %d games to %s (there is no -resume: run again to train from the start)", err, games, e.Out)
		}
		return fmt.Errorf("learn: %w", err)
	}
	if err := res.Write(e.Out); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	res.Summary(stdout)
	fmt.Fprintf(stdout, "wrote %s\n", e.Out)
	return nil
}
