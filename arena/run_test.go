package arena

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// testPlayers are fast baseline bots; "aggressive" twice checks that a label
// seated twice aggregates.
const testPlayers = "aggressive,random,aggressive,random"

// testGames is small enough for the package tests to stay fast with -race.
const testGames = 60

func testConfig(t testing.TB, players string, games int) Config {
	t.Helper()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err, "LoadMap")
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err, "LoadRules")
	seats, err := registry.Default().ParseSeats(players, nil)
	require.NoError(t, err, "ParseSeats")
	return Config{Map: m, Rules: r, Seats: seats, Games: games, Seed: 7, Workers: 1, Timing: true}
}

func readFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err, "read")
	return b
}

// sameFiles checks that the results (not the timings) of two directories
// are byte-identical.
func sameFiles(t *testing.T, wantDir, gotDir string) {
	t.Helper()
	for _, name := range []string{configFile, gamesFile, summaryFile} {
		want, got := readFile(t, wantDir, name), readFile(t, gotDir, name)
		assert.True(t, bytes.Equal(want, got), "%s differs between %s (%d bytes) and %s (%d bytes)", name, wantDir, len(want), gotDir, len(got))
	}
}

func runTo(t *testing.T, cfg Config, dir string) *Report {
	t.Helper()
	cfg.Out = dir
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err, "Run %s", dir)
	return rep
}

// runShards plays cfg in n shards into base/s0, base/s1, ... and returns
// their folders.
func runShards(t *testing.T, cfg Config, base string, n int) []string {
	t.Helper()
	shards := make([]string, n)
	for i := range n {
		c := cfg
		c.Shard = Shard{Index: i, Count: n}
		shards[i] = filepath.Join(base, "s"+strconv.Itoa(i))
		runTo(t, c, shards[i])
	}
	return shards
}

func TestRunDeterminism(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, testGames)
	ref := filepath.Join(base, "w1")
	rep := runTo(t, cfg, ref)

	// The report and the files tell the same story.
	assert.Equal(t, testGames, rep.Done)
	assert.Equal(t, testGames, rep.Played)
	assert.Equal(t, []string{"aggressive", "random"}, []string{rep.Summary[0].Bot, rep.Summary[1].Bot})
	wins, stale := 0, 0
	for _, s := range rep.Summary {
		assert.Equal(t, 2*testGames, s.Games, "%s seat-games", s.Bot)
		wins += s.Wins
		stale += s.Stalemates
	}
	lines := bytes.Split(bytes.TrimSuffix(readFile(t, ref, gamesFile), []byte{'\n'}), []byte{'\n'})
	assert.Equal(t, testGames, len(lines), "games.jsonl lines")
	for g, line := range lines {
		r, err := ParseRecord(line, 4)
		require.NoError(t, err, "line %d", g)
		assert.Equal(t, g, r.Game)
		assert.Equal(t, sim.GameSeed(7, uint64(g)), r.Seed)
		// Seat i of game g is Seats[(i+g)%4]: the list alternates.
		first := []string{"aggressive", "random"}[g%2]
		assert.Equal(t, first, r.Seating[0], "game %d seat 0", g)
	}
	// Every game places one seat first, and every seat somewhere.
	firsts, places := 0, 0
	for _, s := range rep.Summary {
		firsts += s.Placements[0]
		for _, c := range s.Placements {
			places += c
		}
	}
	assert.Equal(t, testGames, firsts, "first places")
	assert.Equal(t, 4*testGames, places, "placements")
	wantWins := 0
	for _, line := range lines {
		r, _ := ParseRecord(line, 4)
		if r.Winner >= 0 {
			wantWins++
		}
	}
	assert.Equal(t, wantWins, wins, "wins over bots = decided games")
	assert.Equal(t, testGames, wins+stale/4, "each game is won or a stalemate of 4 seats")
	// Timing covers every seat-game of every worker.
	require.Len(t, rep.Timing.Bots, 2)
	assert.Equal(t, 2*testGames, rep.Timing.Bots[0].SeatGames)
	assert.Positive(t, rep.Timing.Bots[0].Turns, "timed turns")
	assert.Positive(t, rep.Timing.Bots[0].DecisionSeconds, "timed decisions")

	for _, w := range []int{2, 4} {
		c := cfg
		c.Workers = w
		dir := filepath.Join(base, fmt.Sprintf("w%d", w))
		runTo(t, c, dir)
		sameFiles(t, ref, dir)
	}

	// Three shards on 2 workers each, merged.
	var dirs []string
	for i := 0; i < 3; i++ {
		c := cfg
		c.Workers = 2
		c.Shard = Shard{Index: i, Count: 3}
		dir := filepath.Join(base, fmt.Sprintf("s%d", i))
		r := runTo(t, c, dir)
		assert.Equal(t, testGames/3, r.Done, "shard %d", i)
		dirs = append(dirs, dir)
	}
	merged := filepath.Join(base, "merged")
	mrep, err := Merge(merged, []string{dirs[2], dirs[0], dirs[1]})
	require.NoError(t, err, "Merge")
	sameFiles(t, ref, merged)
	assert.Equal(t, rep.Summary, mrep.Summary)
	assert.Equal(t, testGames, mrep.Timing.Games)
	assert.Equal(t, 2*testGames, mrep.Timing.Bots[0].SeatGames)

	// Without an output directory the summary is the same.
	c := cfg
	c.Workers = 3
	c.Timing = false
	mem, err := Run(context.Background(), c)
	require.NoError(t, err, "Run in memory")
	assert.Equal(t, rep.Summary, mem.Summary)
	assert.Equal(t, 0, len(mem.Timing.Bots))
}

func TestRunResume(t *testing.T) {
	t.Parallel()
	// More games than the cancelling record's index plus the pool's
	// reorder window (64 games a worker), so that the workers cannot have
	// finished them all when the cancel comes, however slowly records are
	// delivered.
	const games = 4 * testGames
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, games)
	cfg.Workers = 2
	ref := filepath.Join(base, "ref")
	runTo(t, cfg, ref)

	// Interrupt after k games, twice, then finish.
	dir := filepath.Join(base, "resumed")
	done := 0
	for i, k := range []int{7, 25} {
		ctx, cancel := context.WithCancel(context.Background())
		c := cfg
		c.Out = dir
		c.Resume = i > 0
		seen := 0
		c.OnRecord = func(Record) {
			if seen++; seen == k {
				cancel()
			}
		}
		rep, err := Run(ctx, c)
		cancel()
		require.ErrorIs(t, err, ErrInterrupted, "round %d", i)
		require.ErrorIs(t, err, context.Canceled, "round %d", i)
		assert.ErrorContains(t, err, " to play: context canceled")
		require.GreaterOrEqual(t, rep.Played, k, "round %d: played", i)
		require.Equal(t, done+rep.Played, rep.Done, "round %d: done", i)
		done = rep.Done
		lines := bytes.Count(readFile(t, dir, gamesFile), []byte{'\n'})
		assert.Equal(t, done, lines, "round %d: lines on disk", i)
		assert.NoFileExists(t, filepath.Join(dir, summaryFile), "round %d: summary.json of an incomplete batch", i)
	}
	c := cfg
	c.Resume = true
	c.Workers = 3
	rep := runTo(t, c, dir)
	assert.Equal(t, games-done, rep.Played, "played by the last resume")
	sameFiles(t, ref, dir)
	// Timing adds up the three parts.
	assert.Equal(t, games, rep.Timing.Games)

	// Resuming a complete batch plays nothing and changes nothing.
	rep = runTo(t, c, dir)
	assert.Equal(t, 0, rep.Played)
	sameFiles(t, ref, dir)
}

func TestRunResumeTornLine(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 20)
	ref := filepath.Join(base, "ref")
	runTo(t, cfg, ref)

	// A batch killed in the middle of writing line 12.
	dir := filepath.Join(base, "torn")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, configFile), readFile(t, ref, configFile), 0o644))
	games := readFile(t, ref, gamesFile)
	cut := 0
	for range 11 {
		cut += bytes.IndexByte(games[cut:], '\n') + 1
	}
	cut += 30 // half of line 12
	require.NoError(t, os.WriteFile(filepath.Join(dir, gamesFile), games[:cut], 0o644))

	c := cfg
	c.Resume = true
	rep := runTo(t, c, dir)
	assert.Equal(t, 9, rep.Played, "games replayed")
	sameFiles(t, ref, dir)
}

func TestRunRefusals(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 8)
	dir := filepath.Join(base, "a")
	runTo(t, cfg, dir)

	_, err := Run(context.Background(), withOut(cfg, dir))
	assert.ErrorContains(t, err, "already holds a batch")

	tests := []struct {
		name   string
		change func(c *Config)
		err    string
	}{
		{"seed", func(c *Config) { c.Seed = 8 }, "seed 7 vs 8"},
		{"games", func(c *Config) { c.Games = 9 }, "games 8 vs 9"},
		{"shard", func(c *Config) { c.Shard = Shard{1, 2} }, "shard 0/1 vs 1/2"},
		{"seats", func(c *Config) { c.Seats = c.Seats[:3] }, "seats [aggressive,random,aggressive,random] vs [aggressive,random,aggressive]"},
		{"params", func(c *Config) {
			c.Seats = append([]bots.Seat(nil), c.Seats...)
			c.Seats[1].Params = map[string]float64{"stop": 0.5}
		}, "seat 1 (random): params " + paramList(cfg.Seats[1].Params) + " vs {stop=0.5}"},
		{"rules", func(c *Config) {
			r := *c.Rules
			r.End.RoundLimit++
			c.Rules = &r
		}, "contents differ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := withOut(cfg, dir)
			c.Resume = true
			tt.change(&c)
			_, err := Run(context.Background(), c)
			assert.ErrorContains(t, err, tt.err)
			assert.ErrorContains(t, err, "different batch")
		})
	}

	// A games.jsonl that does not belong to the config.
	bad := filepath.Join(base, "bad")
	c := withOut(cfg, bad)
	runTo(t, c, bad)
	lines := readFile(t, bad, gamesFile)
	require.NoError(t, os.WriteFile(filepath.Join(bad, gamesFile), bytes.Replace(lines, []byte(`"game":1,`), []byte(`"game":2,`), 1), 0o644))
	c.Resume = true
	_, err = Run(context.Background(), c)
	assert.ErrorContains(t, err, "line 2: game 2 where game 1 was expected")

	// A seat whose players cannot be made fails before anything is written.
	badSeat := filepath.Join(base, "badseat")
	c = withOut(cfg, badSeat)
	c.Resume = false
	c.Seats = append([]bots.Seat(nil), cfg.Seats...)
	c.Seats[1].Factory = &bots.Factory{Name: "broken"}
	_, err = Run(context.Background(), c)
	assert.ErrorContains(t, err, "seat 1 (random)")
	assert.NoDirExists(t, badSeat, "a failed start created it")

	invalid := []struct {
		change func(c *Config)
		err    string
	}{
		{func(c *Config) { c.Games = 0 }, "games 0: want >= 1"},
		{func(c *Config) { c.Seats = c.Seats[:1] }, "1 seats: want 2..6"},
		{func(c *Config) { c.Workers = -1 }, "workers -1"},
		{func(c *Config) { c.Shard = Shard{3, 3} }, "shard 3/3"},
		{func(c *Config) { c.Map = nil }, "needs a Map"},
		{func(c *Config) { c.Resume = true }, "Resume needs an output directory"},
	}
	for _, tt := range invalid {
		c := cfg
		tt.change(&c)
		_, err := Run(context.Background(), c)
		assert.ErrorContains(t, err, tt.err)
	}
}

func withOut(c Config, dir string) Config {
	c.Out = dir
	return c
}

func TestMergeRefusals(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cfg := testConfig(t, testPlayers, 12)
	shard := func(name string, s Shard, c Config) string {
		c.Shard = s
		dir := filepath.Join(base, name)
		runTo(t, c, dir)
		return dir
	}
	s0 := shard("s0", Shard{0, 3}, cfg)
	s1 := shard("s1", Shard{1, 3}, cfg)
	s2 := shard("s2", Shard{2, 3}, cfg)
	other := cfg
	other.Seed = 99
	o2 := shard("o2", Shard{2, 3}, other)
	h2 := shard("h2", Shard{0, 2}, cfg)

	// An incomplete shard: interrupted after 1 game.
	inc := filepath.Join(base, "inc")
	ctx, cancel := context.WithCancel(context.Background())
	c := withOut(cfg, inc)
	c.Shard = Shard{2, 3}
	c.OnRecord = func(Record) { cancel() }
	_, err := Run(ctx, c)
	cancel()
	require.ErrorIs(t, err, ErrInterrupted)

	tests := []struct {
		name string
		dirs []string
		err  string
	}{
		{"overlap", []string{s0, s1, s1}, "shard 1/3 is given twice"},
		{"missing", []string{s0, s2}, "shard(s) 1/3 missing"},
		{"other seed", []string{s0, s1, o2}, "not shards of the same batch: seed 7 vs 99"},
		{"other count", []string{s0, s1, h2}, "shard 0/3 vs 0/2"},
		{"incomplete", []string{s0, s1, inc}, "resume this shard first"},
		{"none", nil, "no shard directories"},
		{"out is a shard", []string{s0, s1, s2}, "is one of the shards"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(base, "m-"+strings.ReplaceAll(tt.name, " ", "-"))
			if tt.name == "out is a shard" {
				out = s1
			}
			_, err := Merge(out, tt.dirs)
			assert.ErrorContains(t, err, tt.err)
			if tt.name != "out is a shard" {
				assert.NoFileExists(t, filepath.Join(out, gamesFile), "a refused merge wrote it")
			}
		})
	}
}

func ExampleRun() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("mars2006")
	seats, _ := registry.Default().ParseSeats("aggressive,random,random", nil)
	rep, err := Run(context.Background(), Config{Map: m, Rules: r, Seats: seats, Games: 30, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	seatGames := 0
	for _, s := range rep.Summary {
		fmt.Printf("%s: %d seat-games\n", s.Bot, s.Games)
		seatGames += s.Games
	}
	fmt.Println(rep.Done, "games,", seatGames, "seat-games")
	// Output:
	// aggressive: 30 seat-games
	// random: 60 seat-games
	// 30 games, 90 seat-games
}

func ExampleMerge() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("mars2006")
	seats, _ := registry.Default().ParseSeats("aggressive,random", nil)
	base, _ := os.MkdirTemp("", "arena-example")
	defer os.RemoveAll(base)
	cfg := Config{Map: m, Rules: r, Seats: seats, Games: 20, Seed: 1}
	var dirs []string
	for i := 0; i < 2; i++ {
		c := cfg
		c.Shard = Shard{Index: i, Count: 2}
		c.Out = filepath.Join(base, fmt.Sprintf("shard%d", i))
		if _, err := Run(context.Background(), c); err != nil {
			fmt.Println(err)
			return
		}
		dirs = append(dirs, c.Out)
	}
	one := cfg
	one.Out = filepath.Join(base, "one")
	if _, err := Run(context.Background(), one); err != nil {
		fmt.Println(err)
		return
	}
	rep, err := Merge(filepath.Join(base, "merged"), dirs)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := os.ReadFile(filepath.Join(base, "one", "games.jsonl"))
	b, _ := os.ReadFile(filepath.Join(base, "merged", "games.jsonl"))
	fmt.Println(rep.Done, "games merged; identical to one piece:", bytes.Equal(a, b))
	// Output:
	// 20 games merged; identical to one piece: true
}

// TestInterruptEndlessGames cancels a batch whose games never end (round
// limit 0, two bots that never attack): the games in flight are
// interrupted, none is kept, and the run returns ErrInterrupted instead of
// waiting for them.
func TestInterruptEndlessGames(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, "passive,passive", 4)
	r := cfg.Rules.Clone()
	r.End.RoundLimit = 0
	cfg.Rules = r
	cfg.Workers = 2
	dir := t.TempDir()
	cfg.Out = dir
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var rep *Report
	var err error
	go func() {
		defer close(done)
		rep, err = Run(ctx, cfg)
	}()
	time.Sleep(50 * time.Millisecond) // let the workers start their endless games
	cancel()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return within a minute of the cancellation")
	}
	require.ErrorIs(t, err, ErrInterrupted)
	assert.Equal(t, 0, rep.Done, "an endless game cannot be complete")
	assert.Equal(t, 0, rep.Played)
	assert.Empty(t, readFile(t, dir, gamesFile))
}

// TestRunBotStats checks the bots' own counts (bots.StatReporter): every
// record holds them for the MARS seat only, summary.json sums them per
// label, the files are the same for any number of workers and after a
// resume, and the table prints them.
func TestRunBotStats(t *testing.T) {
	t.Parallel()
	const games = 12
	base := t.TempDir()
	cfg := testConfig(t, "mars@paper,aggressive,random", games)
	one := filepath.Join(base, "one")
	rep := runTo(t, cfg, one)
	c := cfg
	c.Workers = 3
	runTo(t, c, filepath.Join(base, "three"))
	sameFiles(t, one, filepath.Join(base, "three"))

	want := map[string]int64{}
	for _, line := range bytes.Split(bytes.TrimSpace(readFile(t, one, gamesFile)), []byte{'\n'}) {
		r, err := ParseRecord(line, 3)
		require.NoError(t, err)
		require.Len(t, r.Stats, 3)
		for seat, l := range r.Seating {
			if l != "mars@paper" {
				assert.Empty(t, r.Stats[seat], "game %d seat %d (%s)", r.Game, seat, l)
				continue
			}
			require.Len(t, r.Stats[seat], 6, "game %d", r.Game)
			assert.Positive(t, r.Stats[seat]["place_offensive"], "game %d", r.Game)
			for k, v := range r.Stats[seat] {
				want[k] += v
			}
		}
	}
	require.Len(t, rep.Summary, 3)
	assert.Equal(t, want, rep.Summary[0].Stats)
	assert.Nil(t, rep.Summary[1].Stats)
	assert.Contains(t, string(readFile(t, one, summaryFile)), `"stats":{"armies_defensive":`)

	var out bytes.Buffer
	require.NoError(t, WriteTable(&out, rep.Summary, nil))
	assert.Contains(t, out.String(), "bots' own counts")
	assert.Contains(t, out.String(), fmt.Sprintf("%d (%.4g)", want["place_offensive"], float64(want["place_offensive"])/games))
}

// TestRecordStats checks the stats of a record: written in canonical
// form (names ascending, {} for a seat without counts), parsed back, and
// refused when their seats do not match or a count is negative.
func TestRecordStats(t *testing.T) {
	t.Parallel()
	r := Record{Game: 3, Seed: 9, Seating: []string{"a", "b"}, Winner: 0, Placements: []int{1, 2}, Rounds: 4, Turns: 7,
		Faults: []int{0, 0}, Stats: []map[string]int64{{"z": 2, "a": 1}, nil}}
	line := r.AppendJSON(nil)
	assert.Equal(t, `{"game":3,"seed":9,"seating":["a","b"],"winner":0,"placements":[1,2],"rounds":4,"turns":7,"stalemate":false,"faults":[0,0],"stats":[{"a":1,"z":2},{}]}`, string(line))
	got, err := ParseRecord(line, 2)
	require.NoError(t, err)
	assert.Equal(t, string(line), string(got.AppendJSON(nil)))
	r.Stats = nil
	assert.NotContains(t, string(r.AppendJSON(nil)), "stats")
	for _, tc := range []struct{ stats, err string }{
		{`[{}]`, "stats must list 2 seats"},
		{`[{"a":-1},{}]`, "negative count"},
	} {
		bad := strings.Replace(string(line), `[{"a":1,"z":2},{}]`, tc.stats, 1)
		_, err := ParseRecord([]byte(bad), 2)
		assert.ErrorContains(t, err, tc.err, tc.stats)
	}
}
