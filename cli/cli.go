// Package cli is the marslab command line as a library: Run parses the
// arguments of one command (play, batch, tournament, sweep, ...) and runs it
// with the bots of a bots.Registry. cmd/marslab's main is
// Main(registry.Default()), registry being bots/registry, the list of
// marslab's bot families; a main of another module adds its own factories
// to a registry first and gets every command with its bots in it:
//
//	reg := registry.Default()
//	if err := reg.Register(mybot.Factory()); err != nil { ... }
//	cli.Main(reg)
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
)

// Main runs the command named by os.Args with the bots of reg, reading
// os.Stdin and writing os.Stdout and os.Stderr. SIGINT and SIGTERM cancel
// the command's context (a batch, tournament or search then keeps what it
// completed). It prints an error on stderr and exits with status 1; help
// exits with status 0.
func Main(reg *bots.Registry) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if testHookSignals != nil {
		testHookSignals()
	}
	err := Run(ctx, reg, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		// Help was asked for and printed.
	case err != nil:
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(1)
	}
}

// errorLine is the line Main prints for a command's error: "marslab: "
// and the error, its control characters (a name read from a user's file
// may hold an escape sequence) written as Go escapes.
func errorLine(err error) string { return "marslab: " + textfmt.Printable(err.Error()) }

// testHookSignals, when set (by this package's tests only), is called by
// Main once SIGINT and SIGTERM are caught, so that a test can signal a
// marslab process as soon as it is ready.
var testHookSignals func()

// command is one marslab subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands returns the subcommands; those that seat bots use reg, env
// serve reads stdin.
func commands(reg *bots.Registry, stdin io.Reader) map[string]command {
	return map[string]command{
		"play":    {"play one game and print its summary (-log writes every event)", withRegistry(reg, cmdPlay)},
		"replay":  {"re-simulate a JSONL game log and check every event", withRegistry(reg, cmdReplay)},
		"view":    {"a game log (or a batch's game) as one self-contained web page: board, controls, MARS's reasoning", withRegistry(reg, cmdView)},
		"batch":   {"play many games on every core (shards, resume)", withRegistry(reg, cmdBatch)},
		"merge":   {"join the outputs of shards into one", cmdMerge},
		"compare": {"pair two tournament runs of the same games: win % before and after, paired differences, rho with Table 6", cmdCompare},
		"map":     {"print a map (text or -json)", cmdMap},
		"bots":    {"list the registered bots (-params NAME lists a bot's parameters)", withRegistry(reg, cmdBots)},
		"odds":    {"exact dice odds: rolls, battles, chains, tables, engine check", cmdOdds},
		"report":  {"regenerate notebooks (reports, CSV, figures) from their configs", withRegistry(reg, cmdReport)},
		"env": {"serve the learning environment as JSON lines on stdin/stdout (env serve [CONFIG])", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return cmdEnv(ctx, reg, stdin, args, stdout, stderr)
		}},
		"learn":      {"train a strategy-switching learner and evaluate it against the fixed strategies", withRegistry(reg, cmdLearn)},
		"recognize":  {"recognise secret mission cards (PHATT and more) in mission-mode games: the paper's tables", withRegistry(reg, cmdRecognize)},
		"evolve":     {"search parameters with CMA-ES under noise (shards, merge, resume)", withRegistry(reg, cmdEvolve)},
		"slurm":      {"run a batch, tournament or search on a Slurm cluster as chained job arrays", withRegistry(reg, cmdSlurm)},
		"run":        {"the main job: narrow two parameters, validate the optimum and named seats against a reference, report the verdicts", withRegistry(reg, cmdRun)},
		"sweep":      {"search parameters by narrowing a grid with racing (shards, merge, resume)", withRegistry(reg, cmdSweep)},
		"validate":   {"play a tuned bot against a reference on fresh deals: paired difference, interval, p-value, SPRT", withRegistry(reg, cmdValidate)},
		"tournament": {"play every k-subset of a field of bots: Tables 5-6, figures", withRegistry(reg, cmdTournament)},
	}
}

// withRegistry binds a command that seats bots to the registry reg.
func withRegistry(reg *bots.Registry, run func(context.Context, *bots.Registry, []string, io.Writer, io.Writer) error) func(context.Context, []string, io.Writer, io.Writer) error {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return run(ctx, reg, args, stdout, stderr)
	}
}

// Run is the whole program: it parses args (the command's name first, as in
// os.Args[1:]) and runs one command with the bots of reg; env serve reads
// stdin (nil reads as empty). Help prints usage on stdout and returns flag.ErrHelp for a
// command's -h. Its errors start with the command's name ("batch: -games 0:
// ..."). Cancelling ctx stops a long command, which keeps what it completed.
func Run(ctx context.Context, reg *bots.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	cmds := commands(reg, stdin)
	if len(args) == 2 && args[0] == "help" {
		// "marslab help COMMAND" is "marslab COMMAND -h".
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout, cmds)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage(stderr, cmds)
		return fmt.Errorf("unknown command %q", args[0])
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	// Every error names its command first; the commands leave that to here.
	return fmt.Errorf("%s: %w", args[0], advise(args[0], err))
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: marslab COMMAND [flags]   (marslab COMMAND -h or marslab help COMMAND for a command's flags)")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
}
