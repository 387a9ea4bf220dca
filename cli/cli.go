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
	"slices"
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

// Run is the whole program: it parses args (the command's name first, as in
// os.Args[1:]) and runs one command with the bots of reg; env serve reads
// stdin (nil reads as empty). Help prints usage on stdout and returns flag.ErrHelp for a
// command's -h. Its errors start with the command's name ("batch: -games 0:
// ..."). Cancelling ctx stops a long command, which keeps what it completed.
func Run(ctx context.Context, reg *bots.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	cmds := commands()
	if len(args) == 2 && args[0] == "help" {
		// "marslab help COMMAND" is "marslab COMMAND -h".
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout, cmds)
		return nil
	}
	c := lookup(cmds, args[0])
	if c == nil {
		usage(stderr, cmds)
		return fmt.Errorf("unknown command %q", args[0])
	}
	in := &invocation{name: c.name, reg: reg, stdin: stdin, stdout: stdout, stderr: stderr}
	return c.execute(ctx, in, args[1:])
}

// usage prints marslab help: the commands in the order of their names.
func usage(w io.Writer, cmds []command) {
	cmds = slices.Clone(cmds)
	slices.SortFunc(cmds, func(a, b command) int { return strings.Compare(a.name, b.name) })
	fmt.Fprintln(w, "usage: marslab COMMAND [flags]   (marslab COMMAND -h or marslab help COMMAND for a command's flags)")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.short)
	}
}
