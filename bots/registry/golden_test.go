package registry_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/sim"
)

// update makes TestGolden rewrite the golden logs before replaying them.
var update = flag.Bool("update", false, "rewrite testdata/golden/*.jsonl by playing the games of goldenGames")

// goldenDir holds the pinned game logs, one per entry of goldenGames.
const goldenDir = "testdata/golden"

// Size budget of the golden logs in bytes: a game that would exceed it
// needs a seed giving a shorter game.
const (
	goldenMaxFile  = 320 << 10
	goldenMaxTotal = 3 << 20
)

// goldenGame is one pinned game: the game marslab play plays with
// -rules rules -players players -seed seed -index index, logged to
// testdata/golden/name.jsonl. Seeds are chosen for short games.
type goldenGame struct {
	name    string
	rules   string // embedded rule set; the map is the rules' own
	players string // seat specs, as -players takes them
	seed    uint64
	index   uint64
}

// goldenGames are the pinned games: baseline bots under classic,
// fixedcards, mars2006 and missions with 2, 4 and 6 seats among them, MARS with the paper's
// parameters (the defaults, and the embedded set mars@paper) against
// baseline bots under mars2006 and classic, and six MARS seats under
// mars2006 and mars2006-escalating, and MARS with Angry, Communist and
// Stinky under lux and lux-escalating, and a small-budget mcts under mars2006. No golden game seats a tuned parameter
// set, so a recalibration never rewrites them.
var goldenGames = []goldenGame{
	{"classic-baseline-2", "classic", "aggressive,random", 8, 0},
	{"fixedcards-baseline-4", "fixedcards", "aggressive,pacifist,passive,random", 13, 0},
	{"mars2006-baseline-4", "mars2006", "random,aggressive,aggressive,random", 24, 0},
	{"missions-baseline-6", "missions", "aggressive,pacifist,passive,random,aggressive,random", 3, 2},
	{"mars2006-mars-4", "mars2006", "mars,aggressive,pacifist,random", 12, 0},
	{"classic-mars-3", "classic", "mars@paper,aggressive,random", 9, 0},
	{"mars2006-mars-6", "mars2006", "mars,mars,mars,mars,mars,mars", 9, 0},
	{"mars2006-escalating-mars-6", "mars2006-escalating", "mars,mars,mars,mars,mars,mars", 1, 0},
	{"classic-example-3", "classic", "cautious,aggressive,random", 1, 0},
	{"mars2006-mcts-3", "mars2006", "mcts(playouts=8;depth=2),aggressive,random", 5, 0},
	{"classic-lux-a-6", "classic", "cluster,shaft,quo,yakool,boscoe,bort", 21, 0},
	{"mars2006-lux-a-3", "mars2006", "vulture,cluster,aggressive", 2, 0},
	{"classic-lux-b-5", "classic", "angry,communist,stinky,pixie,evilpixie", 20, 0},
	{"lux-mars-6", "lux", "mars,angry,communist,stinky,aggressive,random", 4, 0},
	{"lux-escalating-mars-4", "lux-escalating", "mars,angry,communist,stinky", 1, 0},
	{"missions-mission-6", "missions", "mission,mission(w=100),constrained,constrained,mission(w=1),aggressive", 1, 0},
	{"missions-greedy-6", "missions", "mission-greedy,mission-greedy(w=100),constrained,mission,mission(w=100),mission-greedy(w=1)", 1, 0},
}

func (g goldenGame) path() string { return filepath.Join(goldenDir, g.name+".jsonl") }

// setup loads the game's rules, map and seats and returns them with the
// log header marslab play -log writes for the game.
func (g goldenGame) setup(reg *bots.Registry) (*sim.Rules, *sim.Map, []bots.Seat, sim.LogHeader, error) {
	var h sim.LogHeader
	src, rulesTOML, err := sim.RulesSource(g.rules)
	if err != nil {
		return nil, nil, nil, h, err
	}
	r, err := sim.ParseRules(src, rulesTOML)
	if err != nil {
		return nil, nil, nil, h, err
	}
	src, mapTOML, err := r.MapSource()
	if err != nil {
		return nil, nil, nil, h, err
	}
	m, err := sim.ParseMap(src, mapTOML)
	if err != nil {
		return nil, nil, nil, h, err
	}
	if err := r.Validate(m); err != nil {
		return nil, nil, nil, h, err
	}
	seats, err := reg.ParseSeats(g.players, nil)
	if err != nil {
		return nil, nil, nil, h, err
	}
	h = sim.LogHeader{Seed: g.seed, Index: g.index, RulesName: g.rules, MapName: r.MapPath(),
		RulesTOML: string(rulesTOML), MapTOML: string(mapTOML)}
	for _, s := range seats {
		h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
	}
	return r, m, seats, h, nil
}

// play plays the game and returns its log.
func (g goldenGame) play(reg *bots.Registry) ([]byte, error) {
	r, m, seats, h, err := g.setup(reg)
	if err != nil {
		return nil, err
	}
	ps := make([]sim.Player, len(seats))
	for i, s := range seats {
		if ps[i], err = s.New(); err != nil {
			return nil, fmt.Errorf("seat %d (%s): %w", i, s.Label, err)
		}
	}
	game, err := sim.NewGame(m, r, len(ps))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	game.Observe(lw)
	res, err := game.Play(ps, g.seed, g.index)
	if err != nil {
		return nil, err
	}
	if err := lw.Close(res); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// write plays the game and writes its log to the golden file.
func (g goldenGame) write(reg *bots.Registry) error {
	log, err := g.play(reg)
	if err != nil {
		return fmt.Errorf("golden game %s: %w", g.name, err)
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		return err
	}
	tmp := g.path() + ".tmp"
	if err := os.WriteFile(tmp, log, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, g.path())
}

// readHeader returns the header of a game log.
func readHeader(log []byte) (sim.LogHeader, error) {
	lr, err := sim.NewLogReader(bytes.NewReader(log))
	if err != nil {
		return sim.LogHeader{}, err
	}
	return lr.Header(), nil
}

const regenerate = "if the change of behaviour is intended, regenerate the golden games with\n" +
	"\tgo test ./bots/registry -run Golden -update\nand say in the commit why the games changed"

// TestGolden replays every golden game with the bots of registry.Default
// and fails at the first event line that differs from the log. It also
// checks that each log's header is the one its goldenGames entry gives
// (the digests of the rules and map, the seats with their parameter
// values, seed and index), so a change of an embedded rule set or
// parameter set fails too. With -update it first
// rewrites the logs (and removes logs of games no longer listed).
func TestGolden(t *testing.T) {
	reg := registry.Default()
	if *update {
		removeStaleGoldens(t)
	}
	for _, g := range goldenGames {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			if *update {
				require.NoError(t, g.write(reg))
			}
			log, err := os.ReadFile(g.path())
			require.NoError(t, err, "golden game %s has no log: run go test ./bots/registry -run Golden -update", g.name)

			got, err := readHeader(log)
			require.NoError(t, err, g.path())
			_, _, _, want, err := g.setup(reg)
			require.NoError(t, err, g.name)
			var wantLog bytes.Buffer
			lw, err := sim.NewLogWriter(&wantLog, want)
			require.NoError(t, err)
			require.NoError(t, lw.Close(sim.Result{}))
			// NewLogWriter sets the format and digests; read them back.
			want, err = readHeader(wantLog.Bytes())
			require.NoError(t, err)
			assert.Equal(t, want.Seats, got.Seats, "%s: header seats differ from goldenGames: %s", g.path(), regenerate)
			assert.Equal(t, want.RulesSHA256, got.RulesSHA256, "%s: header rules differ from the embedded %q: %s", g.path(), g.rules, regenerate)
			assert.Equal(t, want.MapSHA256, got.MapSHA256, "%s: header map differs from the embedded one: %s", g.path(), regenerate)
			assert.Equal(t, []any{want.RulesName, want.MapName, want.Seed, want.Index},
				[]any{got.RulesName, got.MapName, got.Seed, got.Index},
				"%s: header rules_name, map_name, seed, index differ from goldenGames: %s", g.path(), regenerate)

			rep, err := sim.Replay(context.Background(), bytes.NewReader(log), reg.ReplayPlayers)
			require.NoError(t, err, "%s: %s", g.path(), regenerate)
			assert.Equal(t, bytes.Count(log, []byte{'\n'})-2, rep.Events, "%s: events replayed", g.path())
			assert.Equal(t, len(want.Seats), len(rep.Result.Placement), "%s: placement", g.path())
		})
	}
}

// removeStaleGoldens removes the logs in goldenDir of games not in
// goldenGames.
func removeStaleGoldens(t *testing.T) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.jsonl"))
	require.NoError(t, err)
	for _, f := range files {
		if !slices.ContainsFunc(goldenGames, func(g goldenGame) bool { return g.path() == f }) {
			require.NoError(t, os.Remove(f))
		}
	}
}

// TestGoldenDetectsChange: a golden log with one die changed fails to
// replay, naming the line.
func TestGoldenDetectsChange(t *testing.T) {
	t.Parallel()
	g := goldenGames[0]
	log, err := os.ReadFile(g.path())
	require.NoError(t, err)
	lines := bytes.SplitAfter(log, []byte{'\n'})
	i := slices.IndexFunc(lines, func(l []byte) bool { return bytes.HasPrefix(l, []byte(`{"e":"roll"`)) })
	require.Positive(t, i, "%s has no roll event", g.path())
	att := bytes.Index(lines[i], []byte(`"att":[`)) + len(`"att":[`)
	die := lines[i][att]
	lines[i][att] = '1' + (die-'1'+1)%6 // another face
	_, err = sim.Replay(context.Background(), bytes.NewReader(bytes.Join(lines, nil)), registry.Default().ReplayPlayers)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("line %d: the replay differs", i+1))
}

// TestGoldenFiles checks the golden set itself: one log per game and no
// other, within the size budget, and every embedded rule set, every
// registered bot and 2, 4 and 6 seats among the games.
func TestGoldenFiles(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.jsonl"))
	require.NoError(t, err)
	var want []string
	for _, g := range goldenGames {
		want = append(want, g.path())
	}
	slices.Sort(want)
	assert.Equal(t, want, files, "%s must hold exactly one log per entry of goldenGames (-update writes them and removes the others)", goldenDir)

	var total int64
	for _, f := range files {
		fi, err := os.Stat(f)
		require.NoError(t, err)
		total += fi.Size()
		assert.LessOrEqual(t, fi.Size(), int64(goldenMaxFile), "%s: %d bytes: choose a seed giving a shorter game", f, fi.Size())
	}
	assert.LessOrEqual(t, total, int64(goldenMaxTotal), "%s: %d bytes in all: choose seeds giving shorter games", goldenDir, total)

	reg := registry.Default()
	rules := map[string]bool{}
	botsSeen := map[string]bool{}
	sizes := map[int]bool{}
	for _, g := range goldenGames {
		rules[g.rules] = true
		seats, err := reg.ParseSeats(g.players, nil)
		require.NoError(t, err, g.name)
		sizes[len(seats)] = true
		for _, s := range seats {
			botsSeen[s.Factory.Name] = true
		}
	}
	for _, name := range configs.RulesNames() {
		assert.True(t, rules[name], "no golden game plays the embedded rule set %q: add one to goldenGames", name)
	}
	for _, name := range reg.Names() {
		assert.True(t, botsSeen[name], "no golden game seats bot %q: add one to goldenGames", name)
	}
	for _, n := range []int{2, 4, 6} {
		assert.True(t, sizes[n], "no golden game with %d seats", n)
	}
}
