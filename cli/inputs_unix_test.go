//go:build unix

package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marslabProcess runs marslab with args as a process of its own (the test
// binary, see TestMain), its virtual memory capped at 4 GiB so that a
// reader filling memory fails fast instead of exhausting the machine, and
// returns its exit code and standard error. A run over 20 s is killed and
// fails the test: a read that blocks (a FIFO) or never ends (/dev/zero).
func marslabProcess(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -v 4194304; exec "$0" "$@"`, os.Args[0]}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MARSLAB_RUN_MAIN=argv")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), stderr.String()
		}
		require.NoError(t, err)
		return 0, stderr.String()
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("marslab %s: still running after 20 s", strings.Join(args, " "))
		return 0, ""
	}
}

// TestSpecialInputFiles re-runs the cases of issue 25, items 10 and 11:
// devices, FIFOs, links to devices and huge files given as inputs are
// refused, before opening them, with an error naming the file; none hangs
// or fills memory.
func TestSpecialInputFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "f"), 0o644))
	// A 100 MB parameter file, sparse.
	big, err := os.Create(filepath.Join(dir, "big.toml"))
	require.NoError(t, err)
	require.NoError(t, big.Truncate(100<<20))
	require.NoError(t, big.Close())
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("zero-tournament.toml", "bots = [\"random\", \"passive\"]\nplayers = 2\nreplications = 1\nrules = \"/dev/zero\"\nseed = 1\nout = \"t\"\n")
	write("zero-env.toml", "rules = \"/dev/zero\"\n")
	write("learn.toml", "seed = 1\nout = \"L\"\n[train]\ngames = 4\nbatch = 2\nblock = 2\n[q]\nfeatures = [\"round\"]\nbins = 2\nalpha = 0.1\ngamma = 0.9\nepsilon = 0.1\n[eval]\nseed = 2\ngames = 2\n")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "L"), 0o755))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "L", "checkpoint.bin")))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bots", "-params", "mars@./f"}, "./f: not a regular file (a FIFO): a parameter file must be a regular file"},
		{[]string{"bots", "-params", "mars@/dev/zero"}, "/dev/zero: not a regular file (a character device): a parameter file must be a regular file"},
		{[]string{"bots", "-params", "mars@/dev/urandom"}, "/dev/urandom: not a regular file (a character device): a parameter file must be a regular file"},
		{[]string{"bots", "-params", "mars@big.toml"}, "big.toml: 104857600 bytes: over the size cap: the cap of a parameter file is 1 MiB"},
		{[]string{"map", "/dev/zero"}, "/dev/zero: not a regular file (a character device): a config file must be a regular file"},
		{[]string{"map", "./f"}, "./f: not a regular file (a FIFO): a config file must be a regular file"},
		{[]string{"tournament", "zero-tournament.toml"}, "zero-tournament.toml: key rules: /dev/zero: not a regular file (a character device): a config file must be a regular file"},
		{[]string{"tournament", "f"}, "f: not a regular file (a FIFO): a config file must be a regular file"},
		{[]string{"env", "serve", "zero-env.toml"}, "zero-env.toml: key rules: load rules: /dev/zero: not a regular file (a character device)"},
		{[]string{"learn", "-policy", "/dev/zero", "-out", "P", "learn.toml"}, "/dev/zero: not a regular file (a character device): a policy file must be a regular file"},
		{[]string{"learn", "-resume", "learn.toml"}, "L/checkpoint.bin: not a regular file (a character device): a checkpoint must be a regular file"},
		{[]string{"replay", "f"}, "f: not a regular file (a FIFO): a log must be a regular file"},
	} {
		code, stderr := marslabProcess(t, dir, tc.args...)
		assert.Equal(t, 1, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestSpecialInputFilesViewReport re-runs the cases of issue 36, item 7:
// the reads of view (a log, the page -out would overwrite, games.jsonl of
// a directory) and report (a calibration notebook's tournament.notebook
// config, a -work search log) refuse a FIFO or a device, naming it,
// instead of hanging or filling memory; a log too big for view is refused
// with its cap.
func TestSpecialInputFilesViewReport(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	fifo := func(name string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, name), 0o644))
	}
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	fifo("f")
	_, _, err := runCmd(t, "play", "-players", "random,passive", "-seed", "1", "-log", filepath.Join(dir, "g.jsonl"))
	require.NoError(t, err)
	_, _, err = runCmd(t, "batch", "-players", "random,passive", "-games", "2", "-seed", "1", "-out", filepath.Join(dir, "b"))
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, "b", "games.jsonl")))
	fifo(filepath.Join("b", "games.jsonl"))
	// A game log one byte over view's cap, sparse.
	big, err := os.Create(filepath.Join(dir, "big.jsonl"))
	require.NoError(t, err)
	require.NoError(t, big.Truncate(256<<20+1))
	require.NoError(t, big.Close())

	// A calibration notebook whose tournament notebook's config is a FIFO,
	// and one whose -work search log is a FIFO.
	search := "players = 2\nopponents = [\"angry\"]\nbase = \"mars@paper\"\nrules = \"mars2006\"\nseed = 1\n" +
		"[[param]]\nname = \"W_p\"\nmin = 0.5\nmax = 0.9\npoints = 2\n[[param]]\nname = \"P_ob\"\nmin = 10\nmax = 1000\npoints = 2\n"
	cal := "kind = \"calibration\"\ntitle = \"t\"\nsummary = \"s\"\nquestion = \"q\"\nseed = 5\nthumbnail = \"surface.png\"\n" +
		"[calibration]\nnarrow = \"narrow.toml\"\ncmaes = \"cmaes.toml\"\nagainst = \"mars@paper\"\nvalidate_blocks = 2\neffect_blocks = 2\n" +
		"[quick]\nlevels = 1\nrounds = 1\nblocks = 1\npoints = 2\ngenerations = 1\ncmaes_blocks = 1\nvalidate_blocks = 2\neffect_blocks = 2\n" +
		"[paper]\nsource = \"a test\"\nvalues = { W_p = 0.7375, P_ob = 170 }\n"
	for _, nb := range []string{"cal", "caltour"} {
		write(filepath.Join(nb, "narrow.toml"), "name = \"n\"\n"+search+"[narrow]\nlevels = 1\nrounds = 1\nblocks = 1\n")
		write(filepath.Join(nb, "cmaes.toml"), "name = \"c\"\n"+search+"[cmaes]\ngenerations = 1\nblocks = 1\nfinal_blocks = 2\n")
	}
	write(filepath.Join("cal", "config.toml"), cal)
	write(filepath.Join("caltour", "config.toml"), cal+"[tournament]\nnotebook = \"tourney\"\nbot = \"mars\"\nseats = [\"mars\"]\ntuned = \"mars@t\"\nreplications = 1\n")
	fifo(filepath.Join("caltour", "tourney", "config.toml"))
	fifo(filepath.Join("work", "narrow", "log.jsonl"))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"view", "f"}, "view: f: not a regular file (a FIFO): a game log must be a regular file"},
		{[]string{"view", "/dev/zero"}, "view: /dev/zero: not a regular file (a character device): a game log must be a regular file"},
		{[]string{"view", "big.jsonl"}, "view: big.jsonl: 268435457 bytes: over the size cap: the cap of a game log is 256 MiB"},
		{[]string{"view", "g.jsonl", "-out", "f"}, "view: -out f: f: not a regular file (a FIFO): a page must be a regular file"},
		{[]string{"view", "b", "-game", "0"}, "view: b/games.jsonl: not a regular file (a FIFO): a log must be a regular file"},
		{[]string{"report", "-quick", "-out", "o1", "caltour"}, "caltour/tourney/config.toml: not a regular file (a FIFO): a config file must be a regular file"},
		{[]string{"report", "-quick", "-out", "o2", "-work", "work", "cal"}, "work/narrow/log.jsonl: not a regular file (a FIFO): a log must be a regular file"},
	} {
		code, stderr := marslabProcess(t, dir, tc.args...)
		assert.Equal(t, 1, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}
