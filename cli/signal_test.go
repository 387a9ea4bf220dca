package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
)

// longChain is an -exact chain that takes minutes to compute.
var longChain = []string{"odds", "-exact", "-a", "300", "-chain", strings.Repeat("300,", 99) + "300"}

// TestMain runs main itself when MARSLAB_RUN_MAIN is set, so that a test
// can start the command as a process of its own and signal it: with "1" the
// arguments are the fields of MARSLAB_ARGS, with "argv" the test binary's
// own arguments (the test binary is then a marslab executable).
func TestMain(m *testing.M) {
	switch os.Getenv("MARSLAB_RUN_MAIN") {
	case "1":
		if os.Getenv("MARSLAB_READY_FD") == "3" {
			ready := os.NewFile(3, "ready")
			testHookSignals = func() { _, _ = ready.Write([]byte{1}); _ = ready.Close() }
		}
		os.Args = append([]string{"marslab"}, strings.Fields(os.Getenv("MARSLAB_ARGS"))...)
		Main(registry.Default())
		os.Exit(0)
	case "argv":
		os.Args[0] = "marslab"
		Main(registry.Default())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestOddsExactCancelled(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		longChain,
		{"odds", "-exact", "-a", "300", "-d", "300"},
		{"odds", "-exact", "-table", "200"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		var out bytes.Buffer
		err := run(ctx, registry.Default(), args, &out, &out)
		cancel()
		require.ErrorIs(t, err, context.DeadlineExceeded, "%v", args[:3])
		assert.ErrorContains(t, err, "odds: dice: exact computation stopped")
	}
}

// TestOddsExactSignal: SIGINT and SIGTERM stop odds -exact on a long chain
// with an error and exit status 1.
func TestOddsExactSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MARSLAB_RUN_MAIN=1", "MARSLAB_ARGS="+strings.Join(longChain, " "))
		cmd.Env = append(cmd.Env, "MARSLAB_READY_FD=3")
		ready, w, err := os.Pipe()
		require.NoError(t, err)
		cmd.ExtraFiles = []*os.File{w}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		_ = w.Close()
		// Main writes one byte on the pipe once its signal handler is installed.
		_ = ready.SetReadDeadline(time.Now().Add(60 * time.Second))
		_, err = ready.Read(make([]byte, 1))
		_ = ready.Close()
		require.NoError(t, err, "%v: the process did not report its signal handler", sig)
		require.NoError(t, cmd.Process.Signal(sig))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "%v: %v", sig, err)
			assert.Equal(t, 1, exit.ExitCode(), "%v", sig)
			assert.Contains(t, stderr.String(), "exact computation stopped: context canceled", "%v", sig)
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			require.FailNowf(t, "still running", "%v: odds -exact still running 20 s after the signal", sig)
		}
	}
}

// run is Run with an empty standard input, as the tests call it.
func run(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	return Run(ctx, reg, args, strings.NewReader(""), stdout, stderr)
}
