package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelp: -h, -help and --help, wherever they stand, print the command's
// usage and flags to stdout and return flag.ErrHelp (exit status 0).
func TestHelp(t *testing.T) {
	t.Parallel()
	// A flag of each command that its help lists (replay has none).
	listed := map[string]string{"play": "-seed", "replay": "", "batch": "-games", "merge": "-out",
		"map": "-rules", "bots": "-params", "odds": "-games", "tournament": "-shard", "report": "-out", "recognize": "-games", "env": "", "learn": "-workers",
		"sweep": "-out", "run": "-out", "validate": "-blocks", "evolve": "-out", "slurm": "-tasks", "view": "-out", "compare": "-paper", "rate": "-holdout"}
	for _, c := range commands() {
		name := c.name
		require.Contains(t, listed, name)
		for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"-h", "x"}, {"x", "-h"}, {"help"}} {
			t.Run(name+" "+strings.Join(args, " "), func(t *testing.T) {
				cmdArgs := append([]string{name}, args...)
				if args[0] == "help" {
					cmdArgs = []string{"help", name}
				}
				stdout, stderr, err := runCmd(t, cmdArgs...)
				require.ErrorIs(t, err, flag.ErrHelp)
				assert.True(t, strings.HasPrefix(stdout, "usage: marslab "+name), "stdout %q", stdout)
				if f := listed[name]; f != "" {
					assert.Contains(t, stdout, "\n  "+f+" ", "the flag list")
				}
				assert.Empty(t, stderr)
			})
		}
	}
}

// TestFlagErrors: an unknown flag, a flag without its value and a bad value
// give one error form for every command and print nothing.
func TestFlagErrors(t *testing.T) {
	t.Parallel()
	const hint = " (marslab %s -h lists the flags)"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"replay", "x.jsonl", "-nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"batch", "-games", "many"}, `invalid value "many" for flag -games: parse error`},
		{[]string{"merge", "a", "-out"}, "flag needs an argument: -out"},
		{[]string{"map", "-json=perhaps"}, `invalid boolean value "perhaps" for -json: parse error`},
		{[]string{"bots", "-params"}, "flag needs an argument: -params"},
		{[]string{"odds", "-a", "5", "-d", "x"}, `invalid value "x" for flag -d: parse error`},
		{[]string{"play", "-seed", "-1"}, `invalid value "-1" for flag -seed: parse error`},
	} {
		stdout, stderr, err := runCmd(t, tc.args...)
		name := tc.args[0]
		require.Error(t, err, "%v", tc.args)
		assert.Equal(t, name+": "+tc.want+strings.ReplaceAll(hint, "%s", name), err.Error())
		assert.Empty(t, stdout, "%v", tc.args)
		assert.Empty(t, stderr, "%v", tc.args)
	}
}

// TestUnexpectedArgument: the commands without positional arguments name
// the first one, wherever it stands among the flags.
func TestUnexpectedArgument(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"play", "extra", "-seed", "2"},
		{"batch", "-games", "1", "extra"},
		{"bots", "extra"},
		{"odds", "-a", "1", "extra", "-d", "1"},
	} {
		_, _, err := runCmd(t, args...)
		assert.EqualError(t, err, args[0]+`: unexpected argument "extra"`)
	}
}

// TestFlagsAnywhere: flags after positional arguments work like flags
// before them, and "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	t.Parallel()
	before, _, err := runCmd(t, "map", "-json", "classic")
	require.NoError(t, err)
	after, _, err := runCmd(t, "map", "classic", "-json")
	require.NoError(t, err)
	assert.Equal(t, before, after)
	assert.True(t, strings.HasPrefix(before, "{"))

	// Flags before and after the one positional argument of replay.
	dir := t.TempDir()
	log := filepath.Join(dir, "game.jsonl")
	_, _, err = runCmd(t, "play", "-players", "random,random", "-log", log)
	require.NoError(t, err)
	_, _, err = runCmd(t, "replay", log)
	require.NoError(t, err)
	_, _, err = runCmd(t, "replay", "--", log)
	require.NoError(t, err)
	// After "--", "-h" is a file name.
	_, _, err = runCmd(t, "replay", "--", "-h")
	require.Error(t, err)
	assert.NotErrorIs(t, err, flag.ErrHelp)

	a, _, err := runCmd(t, "odds", "-a", "5", "-d", "3", "-json")
	require.NoError(t, err)
	b, _, err := runCmd(t, "odds", "-json", "-d", "3", "-a", "5")
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestExitStatus runs the command as a process: asked-for help exits 0 with
// the usage on stdout, a flag error exits 1 with one line on stderr.
func TestExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, tc := range []struct {
		args       string
		status     int
		stdout     string
		stderrLine string
	}{
		{"odds -h", 0, "usage: marslab odds", ""},
		{"batch --help", 0, "usage: marslab batch", ""},
		{"help", 0, "usage: marslab COMMAND", ""},
		{"help merge", 0, "usage: marslab merge", ""},
		{"odds -nosuch", 1, "", "marslab: odds: flag provided but not defined: -nosuch (marslab odds -h lists the flags)"},
		{"nosuch", 1, "", `marslab: unknown command "nosuch"`},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MARSLAB_RUN_MAIN=1", "MARSLAB_ARGS="+tc.args)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			status = exit.ExitCode()
		} else {
			require.NoError(t, err)
		}
		assert.Equal(t, tc.status, status, tc.args)
		assert.True(t, strings.HasPrefix(stdout.String(), tc.stdout), "%s: stdout %q", tc.args, stdout.String())
		if tc.stderrLine == "" {
			assert.Empty(t, stderr.String(), tc.args)
		} else {
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			assert.Equal(t, tc.stderrLine, lines[len(lines)-1], tc.args)
		}
	}
}

// fuzzFlags is a flag set with one flag of each kind the commands use.
func fuzzFlags() (*flag.FlagSet, *int, *string, *bool) {
	fs := newFlagSet("fuzz", "usage: marslab fuzz", io.Discard)
	return fs, fs.Int("n", 0, "a number"), fs.String("s", "", "a string"), fs.Bool("b", false, "a switch")
}

// FuzzParseArgs: any arguments give either the one error form or
// positional arguments in their order and flag values that the flags
// written first, then "--" and the positional arguments, give again.
func FuzzParseArgs(f *testing.F) {
	f.Add("a", "-n", "3", "b")
	f.Add("-s", "--", "-b", "x")
	f.Add("x", "-b=false", "--", "-n")
	f.Add("-h", "", "-n", "")
	f.Fuzz(func(t *testing.T, a0, a1, a2, a3 string) {
		args := []string{a0, a1, a2, a3}
		fs, n, s, b := fuzzFlags()
		pos, err := parseArgs(fs, args, io.Discard)
		if err != nil {
			if !errors.Is(err, flag.ErrHelp) {
				require.True(t, strings.HasPrefix(err.Error(), "fuzz: "), err.Error())
				require.True(t, strings.HasSuffix(err.Error(), " (marslab fuzz -h lists the flags)"), err.Error())
			}
			return
		}
		// The positional arguments are a subsequence of args.
		i := 0
		for _, a := range args {
			if i < len(pos) && a == pos[i] {
				i++
			}
		}
		require.Equal(t, len(pos), i, "%q is not a subsequence of %q", pos, args)
		var canon []string
		fs.Visit(func(fl *flag.Flag) { canon = append(canon, "-"+fl.Name+"="+fl.Value.String()) })
		fs2, n2, s2, b2 := fuzzFlags()
		pos2, err := parseArgs(fs2, append(append(canon, "--"), pos...), io.Discard)
		require.NoError(t, err)
		assert.Equal(t, len(pos), len(pos2))
		if len(pos) > 0 {
			assert.Equal(t, pos, pos2)
		}
		assert.Equal(t, *n, *n2)
		assert.Equal(t, *s, *s2)
		assert.Equal(t, *b, *b2)
	})
}

// TestErrorsNameTheCommand: every command's errors start with its name,
// once.
func TestErrorsNameTheCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"batch", "-games", "0"}, "batch: -games 0: must be >= 1"},
		{[]string{"play", "-players", "aggressive"}, "play: -players: 1 seats: must be 2..6"},
		{[]string{"replay", filepath.Join("testdata", "none.jsonl")}, "replay: open testdata/none.jsonl: no such file or directory"},
		{[]string{"merge", "-out", "x"}, "merge: no shard directories given"},
		{[]string{"rate", "-holdout", "2", "x"}, "rate: -holdout 2: want a fraction in [0, 1)"},
		{[]string{"map", "-json", "-toml"}, "map: -json, -toml and -rules exclude each other"},
		{[]string{"odds", "-table", "0"}, "odds: -table 0 outside [1, 200]"},
	} {
		_, _, err := runCmd(t, tc.args...)
		assert.EqualError(t, err, tc.want)
	}
}

func TestShardOf(t *testing.T) {
	cases := []struct {
		name, arg string
		env       map[string]string
		want      string // the shard, "" for the whole batch
		err       string
	}{
		{"none", "", nil, "", ""},
		{"flag", "1/3", nil, "1/3", ""},
		{"flag over environment", "0/2", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, "0/2", ""},
		{"slurm", "", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, "3/4", ""},
		{"kubernetes", "", map[string]string{"JOB_COMPLETION_INDEX": "2", "JOB_COMPLETIONS": "5"}, "2/5", ""},
		{"bad flag", "3/3", nil, "", `-shard: shard "3/3": want 0 <= INDEX < COUNT`},
		{"bad environment", "", map[string]string{"JOB_COMPLETION_INDEX": "x", "JOB_COMPLETIONS": "5"}, "", "-shard: environment JOB_COMPLETION_INDEX="},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS"} {
				t.Setenv(k, c.env[k])
			}
			s, sharded, err := shardOf(c.arg)
			if c.err != "" {
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), c.err), err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want != "", sharded)
			if sharded {
				assert.Equal(t, c.want, s.String())
			}
		})
	}
}
