package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/marslab-risk/marslab/bots"
)

// commands is marslab's command table, one entry a command (marslab help
// lists them by name). A command is its name, its line in marslab help,
// its usage (the text -h prints above the flags), the function that
// defines its flags on a flag set and returns them, and the function that
// runs it with the parsed flags. To add a command, add its entry here and
// a file holding those (batch.go is one to copy): the parsing of the
// flags, the help, the prefix of the command's name on its errors and the
// advice on them (advise) are Run's, for every command alike.
func commands() []command {
	return []command{
		newCommand("batch", "play many games on every core (shards, resume)", batchUsage, batchFlagSet, cmdBatch),
		newCommand("bots", "list the registered bots (-params NAME lists a bot's parameters)", botsUsage, botsFlagSet, cmdBots),
		newCommand("compare", "pair two tournament runs of the same games: win % before and after, paired differences, rho with Table 6", compareUsage, compareFlagSet, cmdCompare),
		newCommand("env", "serve the learning environment as JSON lines on stdin/stdout (env serve [CONFIG])", envUsage, noFlags, cmdEnv),
		newCommand("evolve", "search parameters with CMA-ES under noise (shards, merge, resume)", evolveUsage, evolveFlagSet, cmdEvolve),
		newCommand("learn", "train a strategy-switching learner and evaluate it against the fixed strategies", learnUsage, learnFlagSet, cmdLearn),
		newCommand("map", "print a map (text or -json)", mapUsage, mapFlagSet, cmdMap),
		newCommand("merge", "join the outputs of shards into one", mergeUsage, mergeFlagSet, cmdMerge),
		newCommand("odds", "exact dice odds: rolls, battles, chains, tables, engine check", oddsUsage, oddsFlagSet, cmdOdds),
		newCommand("play", "play one game and print its summary (-log writes every event)", playUsage, playFlagSet, cmdPlay),
		newCommand("rate", "rate the bots of batches and tournaments from their placements (Weng-Lin, Plackett-Luce)", rateUsage, rateFlagSet, cmdRate),
		newCommand("recognize", "recognise secret mission cards (PHATT and more) in mission-mode games: the paper's tables", recognizeUsage, recognizeFlagSet, cmdRecognize),
		newCommand("replay", "re-simulate a JSONL game log and check every event", replayUsage, noFlags, cmdReplay),
		newCommand("report", "regenerate notebooks (reports, CSV, figures) from their configs", reportUsage, reportFlagSet, cmdReport),
		newCommand("run", "the main job: narrow two parameters, validate the optimum and named seats against a reference, report the verdicts", runUsage, runFlagSet, cmdRun),
		newCommand("slurm", "run a batch, tournament or search on a Slurm cluster as chained job arrays", slurmUsage, slurmFlagSet, cmdSlurm),
		newCommand("sweep", "search parameters by narrowing a grid with racing (shards, merge, resume)", sweepUsage, addSearchFlags, cmdSweep),
		newCommand("tournament", "play every k-subset of a field of bots: Tables 5-6, figures", tournamentUsage, tournamentFlagSet, cmdTournament),
		newCommand("validate", "play a tuned bot against a reference on fresh deals: paired difference, interval, p-value, SPRT", validateUsage, validateFlagSet, cmdValidate),
		newCommand("view", "a game log (or a batch's game) as one self-contained web page: board, controls, MARS's reasoning", viewUsage, viewFlagSet, cmdView),
	}
}

// A command is one marslab subcommand, as data (cf. cmd/go's base.Command).
type command struct {
	name  string // marslab NAME
	short string // its line in marslab help
	usage string // what -h prints above the flag list: the usage line and the command's doc
	// setup defines the command's flags on fs and returns the function
	// that runs the command once they are parsed.
	setup func(fs *flag.FlagSet) func(context.Context, *invocation) error
}

// newCommand is the command name whose flags defines its flags on a flag
// set, returning them as an F, and run runs it with them.
func newCommand[F any](name, short, usage string, flags func(*flag.FlagSet) F, run func(context.Context, *invocation, F) error) command {
	return command{name: name, short: short, usage: usage, setup: func(fs *flag.FlagSet) func(context.Context, *invocation) error {
		f := flags(fs)
		return func(ctx context.Context, in *invocation) error { return run(ctx, in, f) }
	}}
}

// noFlags is the flag set builder of a command without flags.
func noFlags(*flag.FlagSet) struct{} { return struct{}{} }

// lookup returns the command of cmds named name, nil if there is none.
func lookup(cmds []command, name string) *command {
	for i := range cmds {
		if cmds[i].name == name {
			return &cmds[i]
		}
	}
	return nil
}

// execute parses args (the arguments after the command's name) with the
// command's flag set and runs it. It is the one place that names the
// command on its errors: "NAME: " once, before the advice of advise; an
// error whose text starts with the name already (a library's own prefix,
// as internal/strategist's "learn: ...") is not prefixed again.
func (c *command) execute(ctx context.Context, in *invocation, args []string) error {
	fs := newFlagSet(c.name, c.usage, in.stderr)
	run := c.setup(fs)
	pos, err := parseArgs(fs, args, in.stdout)
	if err == nil {
		in.fs, in.args = fs, pos
		err = run(ctx, in)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	err = advise(c.name, err)
	if strings.HasPrefix(err.Error(), c.name+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", c.name, err)
}

// An invocation is one command line being run: the command's name, its
// parsed flag set and positional arguments, the registry of bots and the
// standard streams.
type invocation struct {
	name   string
	fs     *flag.FlagSet
	args   []string
	reg    *bots.Registry
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// noArgs reports the first positional argument of a command that takes
// none: "unexpected argument".
func (in *invocation) noArgs() error {
	if len(in.args) > 0 {
		return fmt.Errorf("unexpected argument %q", in.args[0])
	}
	return nil
}

// oneArg returns the one positional argument the command takes; what
// names it in the error.
func (in *invocation) oneArg(what string) (string, error) {
	if len(in.args) != 1 {
		return "", fmt.Errorf("want one %s, have %d arguments (marslab %s -h)", what, len(in.args), in.name)
	}
	return in.args[0], nil
}

// config returns the one positional argument of a command that reads a
// CONFIG file.
func (in *invocation) config() (string, error) { return in.oneArg("CONFIG file") }

// set returns the flags given on the command line. A boolean flag given
// as false (-json=false) is left out when skipFalse is true.
func (in *invocation) set(skipFalse bool) map[string]bool {
	set := map[string]bool{}
	in.fs.Visit(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); skipFalse && ok && b.IsBoolFlag() && f.Value.String() == "false" {
			return
		}
		set[f.Name] = true
	})
	return set
}

// progress returns stderr, where the command shows its progress, or nil
// when quiet.
func (in *invocation) progress(quiet bool) io.Writer {
	if quiet {
		return nil
	}
	return in.stderr
}

// workersFlag defines -workers, the games a command plays at once.
func workersFlag(fs *flag.FlagSet) *int {
	return fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)")
}

// checkWorkers checks the value of -workers: 0 (every core) or more.
func checkWorkers(n int) error {
	if n < 0 {
		return fmt.Errorf("-workers %d: must be >= 0 (0 = every core)", n)
	}
	return nil
}

// checkMin checks the value v of flag -name: lo or more.
func checkMin(name string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("-%s %d: must be >= %d", name, v, lo)
	}
	return nil
}

// checkRange checks the value v of flag -name: in [lo, hi]; note, when not
// "", says what a special value means.
func checkRange(name string, v, lo, hi int, note string) error {
	if v >= lo && v <= hi {
		return nil
	}
	if note != "" {
		note = " (" + note + ")"
	}
	return fmt.Errorf("-%s %d: must be in [%d, %d]%s", name, v, lo, hi, note)
}

// shardFlag defines -shard, one shard of a command's games; which says
// which part a shard plays.
func shardFlag(fs *flag.FlagSet, which string) *string {
	return fs.String("shard", "", "play only shard INDEX/COUNT ("+which+"); default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS, else 0/1")
}

// firstError returns the first of errs that is not nil: the checks of a
// command's flags, in the order the command reports them.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
