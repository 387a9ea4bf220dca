package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/internal/fileread"
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

// reportFlags are the flags of marslab report.
type reportFlags struct {
	quick, verbose, index *bool
	out, shard, work      *string
}

func reportFlagSet(fs *flag.FlagSet) *reportFlags {
	return &reportFlags{
		quick:   fs.Bool("quick", false, "run the config's reduced [quick] sizes (for CI); needs -out"),
		out:     fs.String("out", "", "write into this folder instead of the notebook's own"),
		verbose: fs.Bool("v", false, "print every step"),
		shard:   fs.String("shard", "", "play only shard INDEX/COUNT of a transfer notebook's conditions into -work, writing no report (no default from the environment)"),
		index:   fs.Bool("index", false, "write only the index of each folder of notebooks (e.g. notebooks/README.md), running none"),
		work:    fs.String("work", "", "keep the intermediate results (searches, validations, tournaments) in this folder and continue from them: an interrupted run started again with the same -work resumes"),
	}
}

// cmdReport regenerates notebooks (see reportUsage).
func cmdReport(ctx context.Context, in *invocation, f *reportFlags) error {
	pos := in.args
	if len(pos) == 0 {
		return errors.New("give a notebook folder (e.g. notebooks/dice, or notebooks for all)")
	}
	if *f.index {
		if *f.quick || *f.out != "" || *f.work != "" || *f.shard != "" {
			return errors.New("-index writes only the index in the folder given: it takes none of -quick, -out, -work, -shard")
		}
		return writeIndexes(pos, in.stdout)
	}
	shard, err := f.check(len(pos))
	if err != nil {
		return err
	}
	release, err := f.lock(shard)
	if err != nil {
		return err
	}
	defer release()
	var jobs []reportJob
	total := 0
	for _, p := range pos {
		nbs, all, err := report.Find(p)
		if err != nil {
			return err
		}
		jobs = append(jobs, reportJob{nbs, p, all})
		total += len(nbs)
	}
	for _, j := range jobs {
		if err := f.runJob(ctx, in, j, total, shard); err != nil {
			return err
		}
	}
	return nil
}

// reportJob is one NOTEBOOK argument of marslab report: its notebooks,
// and whether it is a folder of them (then root gets the index).
type reportJob struct {
	nbs  []*report.Notebook
	root string
	all  bool
}

// check checks -quick and -shard (of notebooks arguments) and returns the
// shard.
func (f *reportFlags) check(notebooks int) (arena.Shard, error) {
	var shard arena.Shard
	if *f.quick && *f.out == "" {
		return shard, errors.New("-quick needs -out: a quick run must not overwrite a notebook's committed files")
	}
	if *f.shard != "" {
		var err error
		if shard, err = arena.ParseShard(*f.shard); err != nil {
			return shard, fmt.Errorf("-shard: %w", err)
		}
		if *f.work == "" || notebooks != 1 {
			return shard, errors.New("-shard plays one notebook's part into -work: give -work DIR and one notebook")
		}
	}
	return shard, nil
}

// lock checks and locks -out and -work for the whole run; release
// releases both.
func (f *reportFlags) lock(shard arena.Shard) (release func(), err error) {
	var locks []*outdir.Lock
	release = func() {
		for _, l := range locks {
			l.Release()
		}
	}
	if *f.out != "" {
		// A notebook's committed files are written by its own run alone;
		// -out is this command's for the whole run.
		lock, err := ownDir(*f.out)
		if err == nil {
			locks = append(locks, lock)
			err = f.checkOut(*f.out)
		}
		if err != nil {
			release()
			return func() {}, fmt.Errorf("-out: %w", err)
		}
	}
	if *f.work != "" && !sameDir(*f.work, *f.out) {
		// The intermediate results are this command's for the whole run,
		// as -out is: checked and locked alike; the shards of a run share
		// the folder, each shard once.
		lock, err := ownWork(*f.work, shard)
		if err == nil {
			locks = append(locks, lock)
			err = checkWork(*f.work)
		}
		if err != nil {
			release()
			return func() {}, fmt.Errorf("-work: %w", err)
		}
	}
	return release, nil
}

// runJob runs the notebooks of j (of total notebooks in the run) and
// writes the index of a folder of them.
func (f *reportFlags) runJob(ctx context.Context, in *invocation, j reportJob, total int, shard arena.Shard) error {
	var log io.Writer
	if *f.verbose {
		log = in.stderr
	}
	for _, nb := range j.nbs {
		dir := ""
		if *f.out != "" {
			dir = *f.out
			if j.all || total > 1 {
				dir = filepath.Join(*f.out, nb.Name)
			}
		}
		wd := workDir(*f.work, nb.Name, total)
		if wd != *f.work {
			// A folder of its own inside -work, which is held: it must
			// not lead (by a link) where -work may not be.
			if err := outdir.Check(wd); err != nil {
				return fmt.Errorf("-work: %w", err)
			}
		}
		if err := runNotebook(ctx, nb, dir, *f.out, report.Options{Out: dir, Quick: *f.quick, Registry: in.reg, Log: log, Work: wd,
			Progress: in.stderr, ProgressLines: !isTerminal(in.stderr), Shard: shard}); err != nil {
			return err
		}
		printNotebookDone(in.stdout, nb, dir, wd, shard)
	}
	if !j.all || shard.Count > 1 {
		return nil
	}
	root := j.root
	if *f.out != "" {
		root = *f.out
	}
	if err := writeIndex(root, *f.out, j.nbs); err != nil {
		return err
	}
	fmt.Fprintf(in.stdout, "report: index written to %s\n", filepath.Join(root, report.ReportFile))
	return nil
}

// printNotebookDone says where the notebook nb was written (dir, "" for
// its own folder), or, for a shard, what is next.
func printNotebookDone(stdout io.Writer, nb *report.Notebook, dir, wd string, shard arena.Shard) {
	if shard.Count > 1 {
		fmt.Fprintf(stdout, "report: %s shard %s played into %s; once every shard is done, run again without -shard to write the report\n", nb.Name, shard, wd)
		return
	}
	where := dir
	if where == "" {
		where = nb.Dir
	}
	fmt.Fprintf(stdout, "report: %s written to %s\n", nb.Name, filepath.Join(where, report.ReportFile))
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
		if err := outdir.CheckAncestors(dir, out); err != nil {
			return err
		}
	}
	if dir != nb.Dir {
		if err := checkReport(dir, nb.Name); err != nil {
			return err
		}
	}
	return lockedUnless(dir, out, func() error { return nb.Run(ctx, opt) })
}

// checkOut refuses -out when it holds a run of any other command (the
// report of another notebook is refused where each notebook runs:
// runNotebook).
func (f *reportFlags) checkOut(dir string) error {
	if kind, file, err := runHolds(dir); err != nil || kind != "" {
		if err != nil {
			return err
		}
		return &outdir.HeldError{Dir: dir, Holds: kind, File: file, Asked: "notebook report"}
	}
	return nil
}

// checkReport refuses dir, the folder of notebook name's report, when it
// holds a run of another command or the report of another notebook.
func checkReport(dir, name string) error {
	if kind, file, err := runHolds(dir); err != nil || kind != "" {
		if err != nil {
			return err
		}
		return &outdir.HeldError{Dir: dir, Holds: kind, File: file, Asked: "notebook report"}
	}
	if other := reportOf(dir); other != "" && other != name {
		return &outdir.HeldError{Dir: dir, Holds: "report of notebook " + other, File: report.ReportFile, Asked: "report of notebook " + name}
	}
	return nil
}

// reportOf returns the notebook whose report dir holds: the NAME of the
// "notebooks/NAME" its README.md gives as the command that regenerates
// it; "" when there is no such file or line.
func reportOf(dir string) string {
	b, err := fileread.ReadFile(filepath.Join(dir, report.ReportFile), fileread.Config)
	if err != nil {
		return ""
	}
	if m := reportCmd.FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return ""
}

// reportCmd finds the command line a notebook's README.md gives.
var reportCmd = regexp.MustCompile("marslab report [^`\n]*notebooks/([A-Za-z0-9_.-]+)")

// checkWork refuses a -work folder that holds a run of another command (a
// notebook's work folder holds its searches in folders of their own).
func checkWork(dir string) error {
	kind, file, err := runHolds(dir)
	if err == nil && kind == "" {
		if f, e := outdir.Holds(dir, report.ReportFile); e != nil || f != "" {
			kind, file, err = "notebook report", f, e
		}
	}
	if err != nil || kind == "" {
		return err
	}
	return &outdir.HeldError{Dir: dir, Holds: kind, File: file, Asked: "notebook work folder"}
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
	if err := outdir.CheckAncestors(dir); err != nil {
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
