package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/marslab-risk/marslab/arena"
)

// cmdMerge joins the output directories of a batch's shards.
func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", `usage: marslab merge -out DIR SHARD_DIR...

Joins the output directories of the shards of one batch (marslab batch -shard i/n) into
DIR. The shards must be complete, of the same batch (config.json), and cover every
shard 0..n-1 exactly once; DIR's games.jsonl and summary.json are then byte-identical
to those of the batch played in one piece.`, stderr)
	out := fs.String("out", "", "output directory for the merged config.json, games.jsonl, summary.json, timing.json (required)")
	quiet := fs.Bool("quiet", false, "do not print the summary table")
	dirs, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return errors.New("-out is required")
	}
	if len(dirs) == 0 {
		fs.Usage()
		return errors.New("no shard directories given")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	lock, err := ownDir(*out)
	if err != nil {
		return err
	}
	defer lock.Release()
	rep, err := arena.Merge(*out, dirs)
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stdout, "merged %d shards: %d games into %s\n", len(dirs), rep.Done, *out)
		return arena.WriteTable(stdout, rep.Summary, &rep.Timing)
	}
	return nil
}
