package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/report"
)

const reportUsage = `usage: marslab report [flags] NOTEBOOK...

Runs each notebook from its config (NOTEBOOK/config.toml) and writes its
report (README.md), CSV data and figures (PNG and SVG) into its folder, or
into -out. A NOTEBOOK folder without a config.toml stands for every notebook
in it (e.g. "notebooks"): each is run into its own subfolder and the index,
README.md, is written beside them. With -out and more than one notebook,
each goes to its own subfolder of -out. With -index, no notebook is run:
only the index of such a folder is written, from the notebooks' configs.

A transfer notebook shards: -shard INDEX/COUNT with -work DIR plays only
the grid's conditions c with c % COUNT == INDEX into DIR and writes no
report; the shards share DIR (on one machine, or a shared file system),
each shard once. Run again without -shard on the same DIR when every shard
is done: it reads their games back and writes the report, byte-identical
to one run's.

The same config and seed give the same tables and byte-identical CSV files;
timings (timings.csv and the report's blocks marked "(timing, varies)") are
the only numbers that change.

Flags:
`

// workDir is the -work folder of notebook name: work itself for a single
// notebook, its subfolder name for several ("" without -work).
func workDir(work, name string, total int) string {
	if work == "" || total == 1 {
		return work
	}
	return filepath.Join(work, name)
}

// cmdReport regenerates notebooks (see reportUsage).
func cmdReport(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", reportUsage, stderr)
	quick := fs.Bool("quick", false, "run the config's reduced [quick] sizes (for CI); needs -out")
	out := fs.String("out", "", "write into this folder instead of the notebook's own")
	verbose := fs.Bool("v", false, "print every step")
	shardArg := fs.String("shard", "", "play only shard INDEX/COUNT of a transfer notebook's conditions into -work, writing no report (no default from the environment)")
	index := fs.Bool("index", false, "write only the index of each folder of notebooks (e.g. notebooks/README.md), running none")
	work := fs.String("work", "", "keep the intermediate results (searches, validations, tournaments) in this folder and continue from them: an interrupted run started again with the same -work resumes")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return errors.New("give a notebook folder (e.g. notebooks/dice, or notebooks for all)")
	}
	if *index {
		if *quick || *out != "" || *work != "" || *shardArg != "" {
			return errors.New("-index writes only the index in the folder given: it takes none of -quick, -out, -work, -shard")
		}
		return writeIndexes(pos, stdout)
	}
	if *quick && *out == "" {
		return errors.New("-quick needs -out: a quick run must not overwrite a notebook's committed files")
	}
	var shard arena.Shard
	if *shardArg != "" {
		if shard, err = arena.ParseShard(*shardArg); err != nil {
			return fmt.Errorf("-shard: %w", err)
		}
		if *work == "" || len(pos) != 1 {
			return errors.New("-shard plays one notebook's part into -work: give -work DIR and one notebook")
		}
	}
	if *out != "" {
		// A notebook's committed files are written by its own run alone;
		// -out is this command's for the whole run.
		lock, err := ownDir(*out)
		if err != nil {
			return fmt.Errorf("-out: %w", err)
		}
		defer lock.Release()
	}
	if *work != "" && !sameDir(*work, *out) {
		// The intermediate results are this command's for the whole run,
		// as -out is: checked and locked alike; the shards of a run share
		// the folder, each shard once.
		lock, err := ownWork(*work, shard)
		if err != nil {
			return fmt.Errorf("-work: %w", err)
		}
		defer lock.Release()
	}
	var log io.Writer
	if *verbose {
		log = stderr
	}
	type job struct {
		nbs  []*report.Notebook
		root string
		all  bool
	}
	var jobs []job
	total := 0
	for _, p := range pos {
		nbs, all, err := report.Find(p)
		if err != nil {
			return err
		}
		jobs = append(jobs, job{nbs, p, all})
		total += len(nbs)
	}
	for _, j := range jobs {
		for _, nb := range j.nbs {
			dir := ""
			if *out != "" {
				dir = *out
				if j.all || total > 1 {
					dir = filepath.Join(*out, nb.Name)
				}
			}
			wd := workDir(*work, nb.Name, total)
			if wd != *work {
				// A folder of its own inside -work, which is held: it must
				// not lead (by a link) where -work may not be.
				if err := outdir.Check(wd); err != nil {
					return fmt.Errorf("-work: %w", err)
				}
			}
			if err := runNotebook(ctx, nb, dir, *out, report.Options{Out: dir, Quick: *quick, Registry: reg, Log: log, Work: wd,
				Progress: stderr, ProgressLines: !isTerminal(stderr), Shard: shard}); err != nil {
				return err
			}
			if shard.Count > 1 {
				fmt.Fprintf(stdout, "report: %s shard %s played into %s; once every shard is done, run again without -shard to write the report\n", nb.Name, shard, wd)
				continue
			}
			where := dir
			if where == "" {
				where = nb.Dir
			}
			fmt.Fprintf(stdout, "report: %s written to %s\n", nb.Name, filepath.Join(where, report.ReportFile))
		}
		if j.all && shard.Count <= 1 {
			root := j.root
			if *out != "" {
				root = *out
			}
			if err := writeIndex(root, *out, j.nbs); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "report: index written to %s\n", filepath.Join(root, report.ReportFile))
		}
	}
	return nil
}

// runNotebook runs nb into dir ("" for its own folder) holding the
// folder's lock, unless dir is out, which the command holds already. A
// folder other than the notebook's own is checked first (outdir.Check).
func runNotebook(ctx context.Context, nb *report.Notebook, dir, out string, opt report.Options) error {
	if opt.Shard.Count > 1 {
		// A shard plays into the work folder (held, and each of its cells
		// locked while played) and writes nothing in dir: the shards of
		// one notebook run beside each other.
		return nb.Run(ctx, opt)
	}
	if dir == "" {
		dir = nb.Dir
	} else if dir != out {
		if err := outdir.Check(dir); err != nil {
			return err
		}
	}
	return lockedUnless(dir, out, func() error { return nb.Run(ctx, opt) })
}

// sameDir reports whether the folders a and b are one (their paths, links
// resolved, are equal); false when either is "".
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, err1 := filepath.Abs(a)
	rb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ra, err1 = outdir.Resolve(ra)
	rb, err2 = outdir.Resolve(rb)
	return err1 == nil && err2 == nil && ra == rb
}

// ownWork checks the -work folder dir and locks it: wholly, or shared with
// the other shards of a run when shard has a Count above 1.
func ownWork(dir string, shard arena.Shard) (*outdir.Lock, error) {
	if shard.Count <= 1 {
		return ownDir(dir)
	}
	if err := outdir.Check(dir); err != nil {
		return nil, err
	}
	return outdir.AcquireShard(dir, shardLockName(shard))
}

// writeIndexes writes the index of each folder of notebooks in roots
// (marslab report -index), running no notebook.
func writeIndexes(roots []string, stdout io.Writer) error {
	for _, root := range roots {
		nbs, all, err := report.Find(root)
		if err != nil {
			return err
		}
		if !all {
			return fmt.Errorf("-index: %s is a notebook, not a folder of notebooks", root)
		}
		if err := writeIndex(root, "", nbs); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "report: index written to %s\n", filepath.Join(root, report.ReportFile))
	}
	return nil
}

// writeIndex writes the index of nbs into root holding root's lock, unless
// root is out, which the command holds already.
func writeIndex(root, out string, nbs []*report.Notebook) error {
	return lockedUnless(root, out, func() error { return report.WriteIndex(root, nbs) })
}

// lockedUnless runs f holding dir's lock (outdir.Acquire), unless dir is
// held, the folder whose lock the command holds already.
func lockedUnless(dir, held string, f func() error) error {
	if dir != held {
		lock, err := outdir.Acquire(dir)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	return f()
}
