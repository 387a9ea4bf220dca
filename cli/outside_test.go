package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
)

// TestOutsideModule builds examples/outside-bot, a module of its own that
// imports this one through a replace, adds its bot "mybot" to the registry
// and calls Main, runs its tests (the bot played under sim/simtest's
// invariant checker, as an outside author tests a bot) and plays a batch
// with mybot seated.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "mybot")
	build := exec.Command(goCmd, "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "examples", "outside-bot")
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly"+raceFlag())
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build in examples/outside-bot: %s", out)

	// The module's own tests (a second link and vet) run in make
	// test-full; under the race detector the build and the batch below
	// show the bot plugs in.
	if !race.Enabled {
		test := exec.Command(goCmd, "test", "-count=1", "./...")
		test.Dir, test.Env = build.Dir, build.Env
		out, err = test.CombinedOutput()
		require.NoError(t, err, "go test in examples/outside-bot: %s", out)
		assert.Contains(t, string(out), "ok  \texample.com/mybot/bully")
	}

	res := filepath.Join(dir, "batch")
	cmd := exec.Command(bin, "batch", "-players", "mybot,aggressive", "-games", "100", "-seed", "1", "-out", res)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "mybot batch: %s", stderr.String())
	assert.Contains(t, stdout.String(), "100 games played")

	games, err := os.ReadFile(filepath.Join(res, "games.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 100, strings.Count(string(games), "\n"))
	var summary []struct {
		Bot   string `json:"bot"`
		Games int    `json:"games"`
	}
	data, err := os.ReadFile(filepath.Join(res, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &summary), "%s", data)
	names := map[string]int{}
	for _, b := range summary {
		names[b.Bot] = b.Games
	}
	assert.Equal(t, map[string]int{"mybot": 100, "aggressive": 100}, names, "%s", data)

	// The bot's parameter is known to the registry like a built-in one's.
	cmd = exec.Command(bin, "bots", "-params", "mybot")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "margin")
}

// raceFlag is " -race" under the race detector, else "": a go command that
// a test starts builds as the test binary was built, so that it finds the
// module's packages compiled already in the build cache.
func raceFlag() string {
	if race.Enabled {
		return " -race"
	}
	return ""
}

// TestBadFactory: a bot from outside the module whose New panics, or
// returns a nil player and no error, makes play and batch fail with an
// error naming the seat and the bot, not crash with a stack trace.
func TestBadFactory(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	require.NoError(t, reg.Register(bots.Factory{Name: "boom", Doc: "panics in New",
		New: func(bots.Values) (sim.Player, error) { panic("boom") }}))
	require.NoError(t, reg.Register(bots.Factory{Name: "ghost", Doc: "no player",
		New: func(bots.Values) (sim.Player, error) { return nil, nil }}))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "-players", "boom,random", "-seed", "1"}, "seat boom: bot boom: bad factory: New panicked: boom"},
		{[]string{"play", "-players", "random,ghost", "-seed", "1"}, "seat ghost: bot ghost: bad factory: New returned a nil player and no error"},
		{[]string{"batch", "-players", "boom,random", "-games", "2", "-out", filepath.Join(t.TempDir(), "b")}, "seat boom: bot boom: bad factory: New panicked: boom"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), reg, tc.args, &out, &out)
		assert.ErrorContains(t, err, tc.want, "%v", tc.args)
	}
}
