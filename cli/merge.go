package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/marslab-risk/marslab/arena"
)

const mergeUsage = `usage: marslab merge -out DIR SHARD_DIR...

Joins the output directories of the shards of one batch (marslab batch -shard i/n) into
DIR. The shards must be complete, of the same batch (config.json), and cover every
shard 0..n-1 exactly once; DIR's games.jsonl and summary.json are then byte-identical
to those of the batch played in one piece.`

// mergeFlags are the flags of marslab merge.
type mergeFlags struct {
	out   *string
	quiet *bool
}

func mergeFlagSet(fs *flag.FlagSet) *mergeFlags {
	return &mergeFlags{
		out:   fs.String("out", "", "output directory for the merged config.json, games.jsonl, summary.json, timing.json (required)"),
		quiet: fs.Bool("quiet", false, "do not print the summary table"),
	}
}

// cmdMerge joins the output directories of a batch's shards.
func cmdMerge(ctx context.Context, in *invocation, f *mergeFlags) error {
	dirs := in.args
	if *f.out == "" {
		in.fs.Usage()
		return errors.New("-out is required")
	}
	if len(dirs) == 0 {
		in.fs.Usage()
		return errors.New("no shard directories given")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	lock, err := ownDir(*f.out)
	if err != nil {
		return err
	}
	defer lock.Release()
	rep, err := arena.Merge(*f.out, dirs)
	if err != nil {
		return err
	}
	if !*f.quiet {
		fmt.Fprintf(in.stdout, "merged %d shards: %d games into %s\n", len(dirs), rep.Done, *f.out)
		return arena.WriteTable(in.stdout, rep.Summary, &rep.Timing)
	}
	return nil
}
