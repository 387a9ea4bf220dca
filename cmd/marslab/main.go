// Command marslab is the marslab research toolkit's command line: it plays
// and replays Risk games, runs batches and tournaments, prints exact dice
// odds and drives the MARS bot. Run "marslab help" for the commands.
package main

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

	"github.com/marslab-risk/marslab/bots/registry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, registry.Default(), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		// Help was asked for and printed.
	case err != nil:
		fmt.Fprintln(os.Stderr, "marslab:", err)
		os.Exit(1)
	}
}

// command is one marslab subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands returns the subcommands; those that seat bots use reg.
func commands(reg *registry.Registry) map[string]command {
	return map[string]command{
		"play":   {"play one game and print its summary (-log writes every event)", withRegistry(reg, cmdPlay)},
		"replay": {"re-simulate a JSONL game log and check every event", withRegistry(reg, cmdReplay)},
		"batch":  {"play many games on every core (shards, resume)", withRegistry(reg, cmdBatch)},
		"merge":  {"join the outputs of shards into one", cmdMerge},
		"map":    {"print a map (text or -json)", cmdMap},
		"bots":   {"list the registered bots (-params NAME lists a bot's parameters)", withRegistry(reg, cmdBots)},
		"odds":   {"exact dice odds: rolls, battles, chains, tables, engine check", cmdOdds},
		"report": {"regenerate notebooks (reports, CSV, figures) from their configs", withRegistry(reg, cmdReport)},
		"env": {"serve the learning environment as JSON lines on stdin/stdout (env serve [CONFIG])", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return cmdEnv(ctx, reg, os.Stdin, args, stdout, stderr)
		}},
		"learn":      {"train a strategy-switching learner and evaluate it against the fixed strategies", withRegistry(reg, cmdLearn)},
		"recognize":  {"recognise secret mission cards (PHATT and more) in mission-mode games: the paper's tables", withRegistry(reg, cmdRecognize)},
		"evolve":     {"search parameters with CMA-ES under noise (shards, merge, resume)", withRegistry(reg, cmdEvolve)},
		"slurm":      {"run a batch, tournament or search on a Slurm cluster as chained job arrays", withRegistry(reg, cmdSlurm)},
		"sweep":      {"search parameters by narrowing a grid with racing (shards, merge, resume)", withRegistry(reg, cmdSweep)},
		"validate":   {"play a tuned bot against a reference on fresh deals: paired difference, interval, p-value, SPRT", withRegistry(reg, cmdValidate)},
		"tournament": {"play every k-subset of a field of bots: Tables 5-6, figures", withRegistry(reg, cmdTournament)},
	}
}

// withRegistry binds a command that seats bots to the registry reg.
func withRegistry(reg *registry.Registry, run func(context.Context, *registry.Registry, []string, io.Writer, io.Writer) error) func(context.Context, []string, io.Writer, io.Writer) error {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return run(ctx, reg, args, stdout, stderr)
	}
}

// run is the whole program: it parses args and runs one command, with the
// bots of reg. Its errors start with the command's name ("batch: -games 0: ...").
func run(ctx context.Context, reg *registry.Registry, args []string, stdout, stderr io.Writer) error {
	cmds := commands(reg)
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
	if err != nil && !errors.Is(err, flag.ErrHelp) && !strings.HasPrefix(err.Error(), args[0]+": ") {
		// Every error names its command first.
		err = fmt.Errorf("%s: %w", args[0], err)
	}
	return err
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
