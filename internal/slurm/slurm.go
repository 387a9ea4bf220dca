// Package slurm writes the Slurm job scripts of a sharded marslab run and
// submits them as a chain of job arrays.
//
// A run is a Plan: one or more steps, each an array of Tasks shard tasks
// followed by a one-task merge job. The shard tasks of a step run with
// --dependency=afterok on the previous step's merge job, its merge job with
// --dependency=afterok on the step's array. Every shard command runs with
// -resume and an explicit -shard INDEX/COUNT taken from SLURM_ARRAY_TASK_ID,
// so a failed or cancelled task is run again by submitting the same script
// with --array=INDEX: the shard keeps its finished games and plays the rest.
// The jobs waiting for a task that failed are cancelled
// (--kill-on-invalid-dep=yes), and the submission script (Plan.Shell)
// submits the whole chain again: every finished shard and step is kept, so
// only what is missing is played.
//
// Three kinds of plans exist:
//   - Batch: marslab batch FLAGS, shards in DIR/shards/shard-I-of-N, merged
//     into DIR by marslab merge;
//   - Tournament: marslab tournament CONFIG, sharded and merged the same way,
//     then resumed in DIR to write the tables;
//   - Search: marslab sweep, evolve or validate CONFIG, one array and one
//     merge per step of the search (the step is read from DIR by the command
//     itself).
//
// The scripts (DIR/slurm/*.sh) are plain bash with #SBATCH lines; a plan
// also renders as a shell script of sbatch commands (Plan.Shell) that
// submits the chain again.
package slurm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/internal/atomicfile"
)

// ScriptDir is the folder, relative to the output directory, that holds the
// job scripts; the jobs' output files go to its subfolder "logs".
const ScriptDir = "slurm"

// Options are the settings shared by every job of a plan.
type Options struct {
	// Marslab is the absolute path of the marslab executable the jobs run;
	// it must be readable on every node.
	Marslab string
	// Dir is the absolute path of the output directory, on a file system
	// shared by every node.
	Dir string
	// Tasks is the number of shard tasks of each array, >= 1.
	Tasks int
	// Name prefixes the job names ("marslab" when empty).
	Name string
	// Partition, Time (e.g. "2:00:00") and CPUs (--cpus-per-task of the
	// shard tasks, 0 = Slurm's default of one; merge jobs get one) set the
	// #SBATCH options of the same names when non-empty or positive.
	Partition string
	Time      string
	CPUs      int
	// Extra are further sbatch options written as #SBATCH lines, each a
	// whole option such as "--account=lab" or "--mem=4G".
	Extra []string
}

// Script is one job script.
type Script struct {
	// File is the script's file name in DIR/slurm.
	File string
	// Text is the script.
	Text string
}

// Job is one submission of a script.
type Job struct {
	// Script is the index of the job's script in Plan.Scripts.
	Script int
	// Array is the number of array tasks (0..Array-1), or 0 for a single
	// task.
	Array int
	// After is the index in Plan.Jobs of the job this one waits for
	// (--dependency=afterok), or -1.
	After int
	// Label says what the job does ("shards of step 2", "merge").
	Label string
}

// Plan is the scripts of a run and the order in which they are submitted.
type Plan struct {
	// Dir is the output directory (absolute).
	Dir string
	// Scripts are the job scripts, written to Dir/slurm.
	Scripts []Script
	// Jobs are the submissions in order; a job only depends on an earlier
	// one.
	Jobs []Job
}

// directiveBad returns a description of the first character of s that
// cannot stand in an #SBATCH line, or "" when there is none. sbatch reads
// an #SBATCH line as words split at white space, with double quotes and
// backslashes of its own and # starting a comment; a value is written
// unquoted, so it must hold none of these, nor a control character or a
// single quote.
func directiveBad(s string) string {
	for _, c := range s {
		switch {
		case c == ' ':
			return "a space"
		case c == '\t':
			return "a tab"
		case c == '\r':
			return "a carriage return"
		case c == '\n':
			return "a line break"
		case c < 0x20 || c == 0x7f:
			return fmt.Sprintf("the control character %U", c)
		case c == '"' || c == '\'':
			return "a quote"
		case c == '\\':
			return "a backslash"
		case c == '#':
			return "a #"
		case c == 0xfffd:
			return "an invalid UTF-8 byte"
		}
	}
	return ""
}

// directiveErr is check's error for a value what that cannot stand in an
// #SBATCH line.
func directiveErr(what, v, bad string) error {
	return fmt.Errorf("%s %q: holds %s, which sbatch's #SBATCH parser cannot take unquoted: want no spaces, tabs, line breaks, control characters, quotes, backslashes or #", what, v, bad)
}

// check validates o.
func (o *Options) check() error {
	switch {
	case o.Marslab == "" || !filepath.IsAbs(o.Marslab):
		return fmt.Errorf("marslab executable %q: want an absolute path", o.Marslab)
	case o.Dir == "" || !filepath.IsAbs(o.Dir):
		return fmt.Errorf("output directory %q: want an absolute path", o.Dir)
	case directiveBad(o.Dir) != "":
		return directiveErr("output directory (in #SBATCH --output)", o.Dir, directiveBad(o.Dir))
	case strings.Contains(o.Dir, "%"):
		return fmt.Errorf("output directory %q: want no %% (in #SBATCH --output, sbatch reads %% as a file name pattern)", o.Dir)
	case o.Tasks < 1:
		return fmt.Errorf("%d tasks: want >= 1", o.Tasks)
	case o.CPUs < 0:
		return fmt.Errorf("%d CPUs per task: want >= 0 (0 = Slurm's default)", o.CPUs)
	case strings.ContainsAny(o.Name, " \t\n'\"$\\"):
		return fmt.Errorf("job name %q: want no spaces, quotes, $ or backslashes", o.Name)
	case directiveBad(o.Name) != "":
		return directiveErr("job name", o.Name, directiveBad(o.Name))
	case directiveBad(o.Partition) != "":
		return directiveErr("partition", o.Partition, directiveBad(o.Partition))
	case directiveBad(o.Time) != "":
		return directiveErr("time", o.Time, directiveBad(o.Time))
	}
	for _, e := range o.Extra {
		if !strings.HasPrefix(e, "-") || strings.ContainsAny(e, "\n") {
			return fmt.Errorf("sbatch option %q: want one option starting with -", e)
		}
		if bad := directiveBad(e); bad != "" {
			return directiveErr("sbatch option", e, bad)
		}
		if k, _, _ := strings.Cut(e, "="); k == "--array" || k == "-a" || k == "--dependency" || k == "-d" || k == "--output" || k == "-o" {
			return fmt.Errorf("sbatch option %q: the plan sets %s itself", e, k)
		}
	}
	return nil
}

// name is the job name of a job of kind what.
func (o *Options) name(what string) string {
	n := o.Name
	if n == "" {
		n = "marslab"
	}
	return n + "-" + what
}

// header returns the script's first lines: the shebang, a comment, the
// #SBATCH options, and bash's strict mode.
func (o *Options) header(comment, what string, array int) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	for _, l := range strings.Split(comment, "\n") {
		b.WriteString("# " + l + "\n")
	}
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", o.name(what))
	logs := filepath.Join(o.Dir, ScriptDir, "logs")
	if array > 0 {
		fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", array-1)
		fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(logs, "%x-%A_%a.out"))
	} else {
		fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(logs, "%x-%j.out"))
	}
	b.WriteString("#SBATCH --ntasks=1\n#SBATCH --kill-on-invalid-dep=yes\n")
	if o.CPUs > 0 && array > 0 {
		// Merge jobs read and write files: one CPU.
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", o.CPUs)
	}
	if o.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", o.Partition)
	}
	if o.Time != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", o.Time)
	}
	for _, e := range o.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", e)
	}
	b.WriteString("set -euo pipefail\n")
	return b.String()
}

// shardDir is the shell word of the output directory of array task
// $SLURM_ARRAY_TASK_ID.
func (o *Options) shardDir() string {
	return Quote(filepath.Join(o.Dir, "shards", "shard-")) + `"${SLURM_ARRAY_TASK_ID}"` + Quote(fmt.Sprintf("-of-%d", o.Tasks))
}

// shardFlags are the flags every shard command ends with: the worker count
// from the allocation (--cpus-per-task, else the one CPU Slurm allocates to
// a task), the task's shard, -resume.
func (o *Options) shardFlags() string {
	return fmt.Sprintf(`-workers "${SLURM_CPUS_PER_TASK:-1}" -shard "${SLURM_ARRAY_TASK_ID}/%d" -resume`, o.Tasks)
}

// shardList is the bash code that fills the array "shards" with the
// directories of every shard.
func (o *Options) shardList() string {
	return fmt.Sprintf("shards=()\nfor ((i = 0; i < %d; i++)); do shards+=(%s\"$i\"%s); done\n",
		o.Tasks, Quote(filepath.Join(o.Dir, "shards", "shard-")), Quote(fmt.Sprintf("-of-%d", o.Tasks)))
}

// reserved are the flags a plan sets itself on the commands it runs.
var reserved = []string{"out", "shard", "resume", "workers", "merge", "steps", "quiet"}

// checkArgs refuses arguments that set a flag the plan sets itself.
func checkArgs(args []string) error {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		name := strings.TrimLeft(a, "-")
		if name == a || strings.HasPrefix(a, "---") {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		for _, r := range reserved {
			if name == r {
				return fmt.Errorf("flag -%s: the plan sets it on every job itself", name)
			}
		}
	}
	return nil
}

// command is the shell words of marslab followed by args.
func (o *Options) command(args ...string) string {
	w := make([]string, 0, len(args)+1)
	w = append(w, Quote(o.Marslab))
	for _, a := range args {
		w = append(w, Quote(a))
	}
	return strings.Join(w, " ")
}

// Batch is the plan of marslab batch with the flags args (-players, -games,
// -seed, -rules, -map, -param): Tasks shard tasks writing
// DIR/shards/shard-I-of-N, and a merge job joining them into DIR with
// marslab merge.
func Batch(o Options, args []string) (*Plan, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	run := o.header(fmt.Sprintf("marslab batch, shard $SLURM_ARRAY_TASK_ID of %d. After a failure, sbatch --array=I THIS_SCRIPT\nruns shard I again: it keeps the shard's finished games and plays the rest.", o.Tasks), "batch", o.Tasks) +
		o.command(append([]string{"batch"}, args...)...) + " -out " + o.shardDir() + " " + o.shardFlags() + "\n"
	merge := o.header(fmt.Sprintf("marslab batch: merges the %d shards into %s", o.Tasks, o.Dir), "batch-merge", 0) +
		o.shardList() + o.command("merge", "-out", o.Dir) + ` "${shards[@]}"` + "\n"
	return &Plan{
		Dir:     o.Dir,
		Scripts: []Script{{"batch-shards.sh", run}, {"batch-merge.sh", merge}},
		Jobs:    []Job{{0, o.Tasks, -1, "shards"}, {1, 0, 0, "merge"}},
	}, nil
}

// Tournament is the plan of marslab tournament CONFIG with the flags args
// (e.g. -figures=false): Tasks shard tasks, then a job that merges them into
// DIR with marslab merge and resumes the tournament there, which plays
// nothing and writes the tables and figures. config must be absolute.
func Tournament(o Options, config string, args []string) (*Plan, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(config) {
		return nil, fmt.Errorf("config %q: want an absolute path", config)
	}
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	run := o.header(fmt.Sprintf("marslab tournament, shard $SLURM_ARRAY_TASK_ID of %d. After a failure, sbatch --array=I THIS_SCRIPT\nruns shard I again: it keeps the shard's finished games and plays the rest.", o.Tasks), "tournament", o.Tasks) +
		o.command(append([]string{"tournament", config, "-figures=false"}, args...)...) + " -out " + o.shardDir() + " " + o.shardFlags() + "\n"
	merge := o.header(fmt.Sprintf("marslab tournament: merges the %d shards into %s and writes the tables", o.Tasks, o.Dir), "tournament-merge", 0) +
		o.shardList() + o.command("merge", "-quiet", "-out", o.Dir) + ` "${shards[@]}"` + "\n" +
		o.command(append([]string{"tournament", config}, args...)...) + " -quiet -out " + Quote(o.Dir) + ` -workers "${SLURM_CPUS_PER_TASK:-1}" -resume` + "\n"
	return &Plan{
		Dir:     o.Dir,
		Scripts: []Script{{"tournament-shards.sh", run}, {"tournament-merge.sh", merge}},
		Jobs:    []Job{{0, o.Tasks, -1, "shards"}, {1, 0, 0, "merge"}},
	}, nil
}

// Search is the plan of a search, marslab COMMAND CONFIG with COMMAND
// "sweep", "evolve" or "validate" and the flags args, of at most steps steps: for each
// step an array of Tasks shard tasks (COMMAND CONFIG -out DIR -shard I/N
// -resume: the command finds the current step in DIR and plays its share
// of it) and a merge job (COMMAND CONFIG -out DIR -merge). config must be
// absolute.
func Search(o Options, command, config string, steps int, args []string) (*Plan, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	switch {
	case command != "sweep" && command != "evolve" && command != "validate":
		return nil, fmt.Errorf("search command %q: want sweep, evolve or validate", command)
	case !filepath.IsAbs(config):
		return nil, fmt.Errorf("config %q: want an absolute path", config)
	case steps < 1:
		return nil, fmt.Errorf("%d steps: want >= 1", steps)
	}
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	base := append([]string{command, config}, args...)
	run := o.header(fmt.Sprintf("marslab %s, shard $SLURM_ARRAY_TASK_ID of %d of the current step (read from the output directory).\nAfter a failure, sbatch --array=I THIS_SCRIPT runs shard I again: it keeps its finished evaluations.", command, o.Tasks), command, o.Tasks) +
		o.command(base...) + " -out " + Quote(o.Dir) + " " + o.shardFlags() + "\n"
	merge := o.header(fmt.Sprintf("marslab %s: merges the %d shards of the current step into %s/log.jsonl", command, o.Tasks, o.Dir), command+"-merge", 0) +
		o.command(base...) + " -out " + Quote(o.Dir) + " -merge\n"
	p := &Plan{Dir: o.Dir, Scripts: []Script{{command + "-shards.sh", run}, {command + "-merge.sh", merge}}}
	for s := 0; s < steps; s++ {
		p.Jobs = append(p.Jobs,
			Job{0, o.Tasks, len(p.Jobs) - 1, fmt.Sprintf("shards of step %d", s)},
			Job{1, 0, len(p.Jobs), fmt.Sprintf("merge of step %d", s)})
	}
	return p, nil
}

// ScriptPath is the absolute path of script i of p.
func (p *Plan) ScriptPath(i int) string {
	return filepath.Join(p.Dir, ScriptDir, p.Scripts[i].File)
}

// Args returns the sbatch arguments of job j, the dependency on the job id
// after (when the job has one).
func (p *Plan) Args(j int, after string) []string {
	args := []string{"--parsable"}
	if p.Jobs[j].After >= 0 {
		args = append(args, "--dependency=afterok:"+after)
	}
	return append(args, p.ScriptPath(p.Jobs[j].Script))
}

// Shell renders p as a bash script that submits every job with sbatch in
// order, each id in a variable job0, job1, ..., and prints them.
func (p *Plan) Shell() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n# Submits the jobs of this marslab run; every job resumes, so what is done is not played again.\nset -euo pipefail\n")
	for j, job := range p.Jobs {
		w := []string{"--parsable"}
		if job.After >= 0 {
			// The job id without the ";CLUSTER" sbatch may add.
			w = append(w, `"--dependency=afterok:${job`+strconv.Itoa(job.After)+`%%;*}"`)
		}
		w = append(w, Quote(p.ScriptPath(job.Script)))
		fmt.Fprintf(&b, "job%d=$(sbatch %s)\necho %s\n", j, strings.Join(w, " "), Quote(job.Label+": job ")+`"$job`+strconv.Itoa(j)+`"`)
	}
	return b.String()
}

// Submit submits the jobs of p in order with sbatch, which runs sbatch with
// the given arguments and returns its output (sbatch --parsable prints
// "ID" or "ID;CLUSTER"), and returns the job ids. On an error it returns the
// ids submitted so far with it.
func (p *Plan) Submit(sbatch func(args []string) (string, error)) ([]string, error) {
	ids := make([]string, 0, len(p.Jobs))
	for j, job := range p.Jobs {
		after := ""
		if job.After >= 0 {
			after = ids[job.After]
		}
		out, err := sbatch(p.Args(j, after))
		if err != nil {
			return ids, fmt.Errorf("submitting %s (%s): %w", job.Label, p.Scripts[job.Script].File, err)
		}
		id, err := ParseJobID(out)
		if err != nil {
			return ids, fmt.Errorf("submitting %s (%s): %w", job.Label, p.Scripts[job.Script].File, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// ParseJobID reads the output of sbatch --parsable: a job id, optionally
// followed by ";CLUSTER", on one line.
func ParseJobID(out string) (string, error) {
	line := strings.TrimSpace(out)
	id, _, _ := strings.Cut(line, ";")
	if id == "" || strings.ContainsAny(line, "\n") {
		return "", fmt.Errorf("sbatch --parsable printed %q: want a job id", out)
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("sbatch --parsable printed %q: want a job id", out)
		}
	}
	return id, nil
}

// Quote returns s as one bash word: unchanged when it holds only
// characters that need no quoting, else in single quotes.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./=,:@+%", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Write creates DIR/slurm and DIR/slurm/logs and writes the job scripts of
// p and the submission script submit.sh (Plan.Shell) there, executable.
func (p *Plan) Write() error {
	if len(p.Scripts) == 0 {
		return errors.New("the plan has no scripts")
	}
	dir := filepath.Join(p.Dir, ScriptDir)
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return fmt.Errorf("%w", err)
	}
	files := append(append([]Script(nil), p.Scripts...), Script{SubmitScript, p.Shell()})
	for _, s := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, s.File), []byte(s.Text), 0o755); err != nil {
			return fmt.Errorf("%w", err)
		}
	}
	return nil
}

// SubmitScript is the file name, in DIR/slurm, of the script that submits
// the plan's jobs again (Plan.Shell).
const SubmitScript = "submit.sh"
