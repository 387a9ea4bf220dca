package learn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// trace plays episode (seed, index) with actions chosen by a function of
// the step and returns every observation and the outcome.
func trace(t *testing.T, r *Runner, seed, index uint64, act func(step int) int) ([][]float64, Outcome) {
	t.Helper()
	var obs [][]float64
	out, err := r.Run(context.Background(), seed, index, func(o []float64) int {
		obs = append(obs, append([]float64(nil), o...))
		return act(len(obs) - 1)
	})
	require.NoError(t, err)
	return append(obs, append([]float64(nil), r.Final()...)), out
}

func TestRunnerDeterministic(t *testing.T) {
	t.Parallel()
	a, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	b, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	act := func(step int) int { return step % 3 }
	for idx := range uint64(5) {
		oa, outA := trace(t, a, 9, idx, act)
		// b plays another episode in between: nothing carries over.
		trace(t, b, 10, idx, act)
		ob, outB := trace(t, b, 9, idx, act)
		require.Equal(t, oa, ob, "episode %d", idx)
		require.Equal(t, outA, outB, "episode %d", idx)
		require.Equal(t, len(oa)-1, outA.Steps)
	}
	// Different actions change the game.
	o1, _ := trace(t, a, 9, 0, func(int) int { return 0 })
	o2, _ := trace(t, a, 9, 0, func(int) int { return 2 })
	require.NotEqual(t, o1, o2)
}

func TestObservation(t *testing.T) {
	t.Parallel()
	r, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	names := r.ObservationNames()
	require.Equal(t, []string{"territories", "armies", "continent:North America", "continent:South America",
		"continent:Europe", "continent:Africa", "continent:Asia", "continent:Australia", "cards", "round", "threat"}, names)
	obs, _ := trace(t, r, 3, 0, func(int) int { return 2 })
	first := obs[0]
	require.Len(t, first, len(names))
	// Seat 0, 4 players on 42 territories: a random deal gives 11 territories
	// to seats 0 and 1, 10 to the others; round 1 of 200.
	assert.InDelta(t, 11.0/42, first[0], 1e-12)
	assert.InDelta(t, 1.0/200, first[9], 1e-12)
	assert.Equal(t, 0.0, first[8])
	for i, o := range obs {
		for j, v := range o {
			assert.True(t, v >= 0 && v <= 1.0+1e-9 || names[j] == "cards", "obs %d %s = %v", i, names[j], v)
		}
	}
}

func TestRewards(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	r, err := NewRunner(cfg, registry.Default())
	require.NoError(t, err)
	rw := cfg.Rewards
	seen := map[string]bool{}
	for idx := uint64(0); idx < 60 && len(seen) < 3; idx++ {
		act := func(int) int { return int(idx % 3) }
		_, out := trace(t, r, 1, idx, act)
		var end float64
		switch {
		case out.Won:
			seen["won"] = true
			end = rw.Win
			assert.Equal(t, 0, out.Rank)
		case out.Eliminated:
			seen["eliminated"] = true
			end = rw.Eliminated
		case out.Stalemate:
			seen["stalemate"] = true
			end = rw.Placement[out.Rank]
			assert.Equal(t, 200, out.Rounds)
		default:
			t.Fatalf("episode %d: no ending: %+v", idx, out)
		}
		assert.Equal(t, rw.PerTurn+end, out.Final)
		assert.Equal(t, rw.PerTurn*float64(out.Steps-1)+out.Final, out.Return)
	}
	assert.Len(t, seen, 3, "the endings seen: %v", seen)

	// A scheme of one's own.
	cfg2 := DefaultConfig()
	cfg2.Rewards = Rewards{PerTurn: 0, Win: 1, Loss: -1, Eliminated: -1, Placement: []float64{0.5, 0, 0, 0}}
	r2, err := NewRunner(cfg2, registry.Default())
	require.NoError(t, err)
	for idx := range uint64(10) {
		_, o1 := trace(t, r, 1, idx, func(int) int { return 1 })
		_, o2 := trace(t, r2, 1, idx, func(int) int { return 1 })
		require.Equal(t, o1.Steps, o2.Steps)
		want := map[bool]float64{true: 1}[o1.Won]
		switch {
		case o1.Eliminated:
			want = -1
		case o1.Stalemate:
			want = []float64{0.5, 0, 0, 0}[o1.Rank]
		}
		assert.Equal(t, want, o2.Return)
	}
}

func TestEnvMatchesRunner(t *testing.T) {
	t.Parallel()
	e, err := NewEnv(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	defer e.Close()
	r, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	for seed := range uint64(4) {
		want, out := trace(t, r, seed, 0, func(step int) int { return (step / 5) % 3 })
		obs, info, err := e.Reset(seed)
		require.NoError(t, err)
		assert.Equal(t, 0, info.Seat)
		assert.Len(t, info.Opponents, 4)
		assert.Equal(t, "", info.Opponents[0])
		got := [][]float64{append([]float64(nil), obs...)}
		total := 0.0
		for step := 0; ; step++ {
			obs, reward, done, info, err := e.Step((step / 5) % 3)
			require.NoError(t, err)
			got = append(got, append([]float64(nil), obs...))
			total += reward
			if done {
				assert.Equal(t, out.Return, info.Return)
				assert.Equal(t, out.Won, info.Won)
				break
			}
			assert.Equal(t, -1.0, reward)
		}
		require.Equal(t, want, got)
		assert.Equal(t, out.Return, total)
		_, _, _, _, err = e.Step(0)
		require.ErrorIs(t, err, errDone)
	}
}

func TestEnvErrors(t *testing.T) {
	t.Parallel()
	e, err := NewEnv(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	_, _, _, _, err = e.Step(0)
	require.ErrorIs(t, err, errNoEpisode)
	_, _, err = e.Reset(1)
	require.NoError(t, err)
	_, _, _, _, err = e.Step(3)
	require.ErrorContains(t, err, "action 3 out of range: want 0..2")
	_, _, _, _, err = e.Step(-1)
	require.Error(t, err)
	_, _, done, info, err := e.Step(1)
	require.NoError(t, err)
	assert.False(t, done)
	assert.Equal(t, 1, info.Step)
	require.NoError(t, e.Close())
	require.NoError(t, e.Close())
	_, _, err = e.Reset(1)
	require.ErrorIs(t, err, errClosed)
}

func TestEnvNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := range 20 {
		e, err := NewEnv(DefaultConfig(), registry.Default())
		require.NoError(t, err)
		for k := range 3 {
			_, _, err := e.Reset(uint64(i*3 + k)) // abandons the running episode
			require.NoError(t, err)
			_, _, _, _, err = e.Step(2)
			require.NoError(t, err)
		}
		require.NoError(t, e.Close())
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)
}

func TestRunnerBadActionAndAbort(t *testing.T) {
	t.Parallel()
	r, err := NewRunner(DefaultConfig(), registry.Default())
	require.NoError(t, err)
	_, err = r.Run(context.Background(), 1, 0, func([]float64) int { return 7 })
	require.ErrorContains(t, err, "action 7 out of range")
	out, err := r.Run(context.Background(), 1, 0, func(o []float64) int {
		if o[9] > 0.02 {
			return Abort
		}
		return 0
	})
	require.True(t, errors.Is(err, ErrAborted), "%v", err)
	assert.Equal(t, 4, out.Steps)
	// The next episode is whole (a pending stop is not carried over).
	_, o1 := trace(t, r, 1, 1, func(int) int { return 2 })
	r2, _ := NewRunner(DefaultConfig(), registry.Default())
	_, o2 := trace(t, r2, 1, 1, func(int) int { return 2 })
	require.Equal(t, o2, o1)
}

func TestParseConfig(t *testing.T) {
	t.Parallel()
	c, err := parseConfig("x.toml", []byte(`players = 3
seat = -1
actions = ["passive", "aggressive"]
opponents = ["random"]
features = ["territories", "income", "alive"]
[rewards]
win = 1.0
placement = [1.0, 0.0, -1.0]
`))
	require.NoError(t, err)
	assert.Equal(t, 3, c.Players)
	assert.Equal(t, -1, c.Seat)
	assert.Equal(t, Rewards{PerTurn: -1, Win: 1, Loss: -100, Eliminated: -500, Placement: []float64{1, 0, -1}}, c.Rewards)
	r, err := NewRunner(c, registry.Default())
	require.NoError(t, err)
	assert.Equal(t, []string{"territories", "income", "alive"}, r.ObservationNames())
	seats := map[int]bool{}
	for i := range uint64(30) {
		obs, out := trace(t, r, 2, i, func(int) int { return 1 })
		seats[out.Seat] = true
		assert.InDelta(t, 1.0, obs[0][2], 1e-12) // both others alive at the first turn
	}
	assert.Len(t, seats, 3)

	for _, tc := range []struct{ toml, msg string }{
		{`players = 7`, "key players: 7: want 2..6"},
		{`players = 3`, "key rewards.placement: missing"},
		{`seat = 4`, "key seat: 4: want -1 (drawn per episode) or 0..3"},
		{`actions = ["passive"]`, "key actions: 1 entries: want 2..64"},
		{`opponents = []`, "key opponents: empty"},
		{`features = ["territories", "colour"]`, `key features: entry 1 "colour"`},
		{`features = ["round", "round"]`, `"round" listed twice`},
		{`actions = ["passive", "aggressive", "passive"]`, `x.toml: key actions: "passive" listed twice (entries 0 and 2)`},
		{`opponents = ["passive", "passive"]`, `x.toml: key opponents: "passive" listed twice (entries 0 and 1)`},
		{"[rewards]\nplacement = [1.0]", "key rewards.placement: 1 entries: want one per seat, players = 4"},
		// Issue 36, item 10: a reward whose returns overflow to -Inf.
		{"[rewards]\nper_turn = -1.7e308", "key rewards.per_turn: -1.7e+308: want a number in [-1e+06, 1e+06]"},
		{"[rewards]\nwin = 1e7", "key rewards.win: 1e+07: want a number in [-1e+06, 1e+06]"},
		{"[rewards]\nplacement = [1.0, 2.0, 3.0, -1e300]", "key rewards.placement: entry 3 -1e+300: want a number in [-1e+06, 1e+06]"},
		{`speed = 3`, `x.toml:1: unknown key "speed" (allowed: rules, players, seat, actions, opponents, features, rewards)`},
		{`rules = ""`, "key rules: empty"},
	} {
		_, err := parseConfig("x.toml", []byte(tc.toml))
		require.Error(t, err, tc.toml)
		assert.Contains(t, err.Error(), tc.msg)
		assert.True(t, strings.HasPrefix(err.Error(), "x.toml:"), err.Error())
	}
	_, err = NewRunner(&Config{Rules: "fixedcards", Players: 4, Actions: []string{"passive", "nosuchbot"}, Opponents: []string{"passive"},
		Features: []string{"territories"}, Rewards: defaultRewards()}, registry.Default())
	require.ErrorContains(t, err, "env config: key actions: entry 1: seat \"nosuchbot\"")
	// The registry is the caller's: none is an error, not a default.
	_, err = NewRunner(DefaultConfig(), nil)
	require.ErrorContains(t, err, "learn: no bot registry")
	big := defaultRewards()
	big.PerTurn = -1.7e308
	_, err = NewRunner(&Config{Rules: "fixedcards", Players: 4, Actions: []string{"passive", "aggressive"}, Opponents: []string{"passive"},
		Features: []string{"territories"}, Rewards: big}, registry.Default())
	require.ErrorContains(t, err, "env config: key rewards.per_turn: -1.7e+308: want a number in [-1e+06, 1e+06]")
	// Issue 25, item 14: a config read from a file is named by the file in
	// the errors found when it is resolved.
	cfg, err := parseConfig("x.toml", []byte(`actions = ["passive", "nosuchbot"]`))
	require.NoError(t, err)
	_, err = NewRunner(cfg, registry.Default())
	require.ErrorContains(t, err, "x.toml: key actions: entry 1: seat \"nosuchbot\"")
	cfg, err = parseConfig("x.toml", []byte(`rules = "nosuchrules.toml"`))
	require.NoError(t, err)
	_, err = NewRunner(cfg, registry.Default())
	require.ErrorContains(t, err, "x.toml: key rules: ")
}

// TestFeatureFuncs: every feature name has its feature, and no other.
func TestFeatureFuncs(t *testing.T) {
	t.Parallel()
	assert.Len(t, featureFuncs, len(featureNames()))
	for _, n := range featureNames() {
		assert.NotNil(t, featureFuncs[n], n)
	}
}

// A relative rules file in a config is relative to the config's folder,
// not to the working directory.
func TestConfigRulesRelativeToFile(t *testing.T) {
	t.Parallel()
	_, data, err := sim.RulesSource("fixedcards")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "rules"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "rules", "mine.toml"), data, 0o644))
	path := filepath.Join(dir, "env.toml")
	require.NoError(t, os.WriteFile(path, []byte(`rules = "rules/mine.toml"`+"\n"), 0o644))
	cfg, err := LoadConfig(path)
	require.NoError(t, err)
	assert.Equal(t, "rules/mine.toml", cfg.Rules, "the config keeps the text it was given")
	env, err := NewEnv(cfg, registry.Default())
	require.NoError(t, err, "the rules file is found beside the config")
	require.NoError(t, env.Close())

	cfg.File = ""
	_, err = NewEnv(cfg, registry.Default())
	assert.ErrorContains(t, err, "rules/mine.toml", "built in code, the path is the working directory's")
}
