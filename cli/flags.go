package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/marslab-risk/marslab/arena"
)

// newFlagSet returns the flag set of command name. Its usage (fs.Usage,
// and the help of -h) is the text usage followed by the flag list, written
// to fs.Output(), which is stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("marslab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), strings.TrimRight(usage, "\n")+"\n")
		fs.PrintDefaults()
	}
	return fs
}

// commandName is the command of fs ("play" for "marslab play").
func commandName(fs *flag.FlagSet) string { return strings.TrimPrefix(fs.Name(), "marslab ") }

// parseArgs parses the flags of every command: flags may stand before,
// between or after the positional arguments ("marslab map classic -json"
// is "marslab map -json classic"), and everything after "--" is
// positional. It returns the positional arguments in order.
//
// Asked-for help (-h, -help or --help, wherever it stands) prints the usage
// to stdout and returns flag.ErrHelp, which main turns into exit status 0.
// An unknown flag, a missing or bad value returns one error form,
// "COMMAND: <the flag package's message> (marslab COMMAND -h lists the
// flags)", and prints nothing.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fs.Usage()
				return nil, err
			}
			name := commandName(fs)
			return nil, fmt.Errorf("%w (marslab %s -h lists the flags)", err, name)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse consumed a "--" if rest is what followed it.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// shardOf returns the shard of a batch the -shard flag's value arg names
// ("i/n"), or, arg empty, the one the environment names (a Slurm job
// array or a Kubernetes indexed Job, see arena.ShardFromEnv); sharded is
// false when neither names one (the whole batch). Errors begin "-shard: ".
func shardOf(arg string) (s arena.Shard, sharded bool, err error) {
	if arg != "" {
		if s, err = arena.ParseShard(arg); err != nil {
			return s, false, fmt.Errorf("-shard: %w", err)
		}
		return s, true, nil
	}
	if s, sharded, err = arena.ShardFromEnv(os.Getenv); err != nil {
		return s, false, fmt.Errorf("-shard: %w", err)
	}
	return s, sharded, nil
}

// shardLockName names shard s among the shards sharing a folder's lock
// (outdir.AcquireShard): "INDEX-of-COUNT".
func shardLockName(s arena.Shard) string { return fmt.Sprintf("%d-of-%d", s.Index, s.Count) }
