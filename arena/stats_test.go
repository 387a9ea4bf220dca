package arena

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	// Three games of two seats; "b" is seated twice in game 2 (a
	// configuration "a,b,b" shortened to two seats for hand-working is not
	// possible, so labels are given directly).
	recs := []Record{
		{Game: 0, Seating: []string{"a", "b"}, Winner: 0, Placements: []int{1, 2}, Rounds: 10, Faults: []int{0, 1}},
		{Game: 1, Seating: []string{"b", "a"}, Winner: -1, Stalemate: true, Placements: []int{2, 1}, Rounds: 100, Faults: []int{2, 0}},
		{Game: 2, Seating: []string{"b", "b"}, Winner: 1, Placements: []int{2, 1}, Rounds: 7, Faults: []int{0, 3}},
	}
	got, err := summarize([]string{"a", "b", "a"}, 2, recs)
	require.NoError(t, err)
	// The 95 % Wilson intervals of 1 of 2 and 1 of 4.
	require.Len(t, got, 2)
	for i, w := range [][2]float64{{0.0945312, 0.9054688}, {0.0455873, 0.6993582}} {
		assert.InDelta(t, w[0], got[i].WilsonLo, 1e-7, got[i].Bot)
		assert.InDelta(t, w[1], got[i].WilsonHi, 1e-7, got[i].Bot)
	}
	aLo, aHi, bLo, bHi := got[0].WilsonLo, got[0].WilsonHi, got[1].WilsonLo, got[1].WilsonHi
	want := []BotSummary{
		{Bot: "a", Games: 2, Wins: 1, WinRate: 0.5, WilsonLo: aLo, WilsonHi: aHi, Placements: []int{2, 0},
			Stalemates: 1, Faults: 0, MeanRounds: 55},
		{Bot: "b", Games: 4, Wins: 1, WinRate: 0.25, WilsonLo: bLo, WilsonHi: bHi, Placements: []int{1, 3},
			Stalemates: 1, Faults: 6, MeanRounds: (10 + 100 + 7 + 7) / 4.0},
	}
	assert.Equal(t, want, got)

	_, err = summarize([]string{"a"}, 2, recs)
	assert.ErrorContains(t, err, `bot "b" is not in the batch`)
	_, err = summarize([]string{"a", "b"}, 3, recs)
	assert.ErrorContains(t, err, "2 seats, want 3")
}

func TestShardParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"2/3", Shard{2, 3}, ""},
		{" 7/8 ", Shard{7, 8}, ""},
		{"3/3", Shard{}, "0 <= INDEX < COUNT"},
		{"-1/3", Shard{}, "0 <= INDEX < COUNT"},
		{"0/0", Shard{}, "COUNT >= 1"},
		{"1", Shard{}, "want INDEX/COUNT"},
		{"a/b", Shard{}, "integers"},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, "%q", tt.in)
			continue
		}
		require.NoError(t, err, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
		assert.Equal(t, strings.TrimSpace(tt.in), got.String())
	}
}

func TestShardGames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     Shard
		games int
		want  []int
	}{
		{Shard{}, 4, []int{0, 1, 2, 3}},
		{Shard{0, 3}, 10, []int{0, 3, 6, 9}},
		{Shard{1, 3}, 10, []int{1, 4, 7}},
		{Shard{2, 3}, 10, []int{2, 5, 8}},
		{Shard{4, 5}, 3, nil},
	}
	for _, tt := range tests {
		var got []int
		for k := 0; k < tt.s.Len(tt.games); k++ {
			got = append(got, tt.s.Game(k))
		}
		assert.Equal(t, tt.want, got, "shard %s of %d", tt.s, tt.games)
	}
}

func TestShardFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want Shard
		ok   bool
		err  string
	}{
		{"none", nil, Shard{}, false, ""},
		{"slurm", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{2, 4}, true, ""},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, Shard{3, 4}, true, ""},
		{"slurm no count", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, Shard{}, false, "SLURM_ARRAY_TASK_COUNT is not set"},
		{"slurm out of range", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{}, false, "contiguous"},
		{"slurm junk", map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{}, false, `SLURM_ARRAY_TASK_ID="x"`},
		{"k8s", map[string]string{"JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "3"}, Shard{0, 3}, true, ""},
		{"k8s no count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, Shard{}, false, "JOB_COMPLETIONS is not set"},
		{"k8s out of range", map[string]string{"JOB_COMPLETION_INDEX": "3", "JOB_COMPLETIONS": "3"}, Shard{}, false, "0 <= index < count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := ShardFromEnv(func(k string) string { return tt.env[k] })
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRecordJSON(t *testing.T) {
	t.Parallel()
	r := Record{Game: 12, Seed: 18446744073709551615, Seating: []string{"mars(W_p=0.8)", `q"\` + "\x01é"},
		Winner: 1, Placements: []int{2, 1}, Rounds: 31, Turns: 61, Faults: []int{0, 4}}
	line := r.AppendJSON(nil)
	assert.Equal(t, `{"game":12,"seed":18446744073709551615,"seating":["mars(W_p=0.8)","q\"\\\u0001é"],"winner":1,"placements":[2,1],"rounds":31,"turns":61,"stalemate":false,"faults":[0,4]}`, string(line))
	back, err := ParseRecord(line, 2)
	require.NoError(t, err)
	assert.Equal(t, r, back)

	bad := []struct{ line, err string }{
		{`{"game":0,"seed":1,"seating":["a","b"],"winner":0,"placements":[1,1],"rounds":1,"turns":1,"stalemate":false,"faults":[0,0]}`, "permutation"},
		{`{"game":0,"seed":1,"seating":["a","b"],"winner":-1,"placements":[1,2],"rounds":1,"turns":1,"stalemate":false,"faults":[0,0]}`, "stalemate false with winner -1"},
		{`{"game":0,"seed":1,"seating":["a","b"],"winner":1,"placements":[1,2],"rounds":1,"turns":1,"stalemate":false,"faults":[0,0]}`, "winner seat 1 placed 2"},
		{`{"game":0,"seed":1,"seating":["a"],"winner":0,"placements":[1,2],"rounds":1,"turns":1,"stalemate":false,"faults":[0,0]}`, "must list 2 seats"},
		{`{"game":0,"extra":1}`, "unknown field"},
		{`{"game":0`, "unexpected EOF"},
	}
	for _, b := range bad {
		_, err := ParseRecord([]byte(b.line), 2)
		assert.ErrorContains(t, err, b.err, "%q", b.line)
	}
}

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"game":3,"seed":9,"seating":["a","b"],"winner":1,"placements":[2,1],"rounds":4,"turns":7,"stalemate":false,"faults":[0,0]}`), 2)
	f.Add([]byte(`{"game":0,"seed":1,"seating":["x","y","z"],"winner":-1,"placements":[3,1,2],"rounds":100,"turns":300,"stalemate":true,"faults":[1,0,0]}`), 3)
	f.Add([]byte(`{}`), 6)
	f.Fuzz(func(t *testing.T, line []byte, players int) {
		if players < 2 || players > 6 {
			return
		}
		r, err := ParseRecord(line, players)
		if err != nil {
			return
		}
		// A valid record re-encodes canonically and parses to itself.
		again, err := ParseRecord(r.AppendJSON(nil), players)
		require.NoError(t, err)
		assert.Equal(t, r.AppendJSON(nil), again.AppendJSON(nil))
	})
}

func TestWriteTable(t *testing.T) {
	t.Parallel()
	lo, hi := 0.2365931, 0.7634069 // 95 % Wilson interval of 5 of 10
	sum := []BotSummary{{Bot: "aggressive", Games: 10, Wins: 5, WinRate: 0.5, WilsonLo: lo, WilsonHi: hi,
		Placements: []int{5, 5}, Stalemates: 0, Faults: 1, MeanRounds: 12.25}}
	tm := &Timing{Games: 10, WallSeconds: 2, GamesPerSecond: 5, Clock: ClockThreadCPU,
		Bots: []BotTiming{{Bot: "aggressive", SeatGames: 10, Turns: 100, DecisionSeconds: 0.05, SecondsPerTurn: 0.0005, SecondsPerGame: 0.005}}}
	var buf bytes.Buffer
	require.NoError(t, WriteTable(&buf, sum, tm))
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, strings.Fields("bot games wins win rate 95% CI 1st 2nd stalemates faults rounds ms/turn ms/game"), strings.Fields(lines[0]))
	assert.Equal(t, strings.Fields("aggressive 10 5 0.5000 [0.2366, 0.7634] 5 5 0 1 12.2 0.5 5"), strings.Fields(lines[1]))
	assert.Equal(t, "10 games played in 2.0 s: 5.0 games/s; ms/turn and ms/game on the thread CPU clock", lines[2])
	// Untimed: no clock.
	buf.Reset()
	require.NoError(t, WriteTable(&buf, sum, &Timing{Games: 10, WallSeconds: 2, GamesPerSecond: 5}))
	assert.Contains(t, buf.String(), "10 games played in 2.0 s: 5.0 games/s\n")
}

// TestTimingClock checks the clock of added timings: the first timed
// part's, ClockMixed once two timed parts differ; untimed parts do not
// count.
func TestTimingClock(t *testing.T) {
	t.Parallel()
	timed := func(c string) Timing {
		return Timing{Games: 1, Clock: c, Bots: []BotTiming{{Bot: "x", SeatGames: 1, Turns: 1, DecisionSeconds: 1}}}
	}
	tests := []struct {
		parts []Timing
		want  string
	}{
		{[]Timing{timed(ClockThreadCPU)}, ClockThreadCPU},
		{[]Timing{timed(clockWall), timed(clockWall)}, clockWall},
		{[]Timing{timed(ClockThreadCPU), {Games: 3}, timed(ClockThreadCPU)}, ClockThreadCPU},
		{[]Timing{timed(ClockThreadCPU), timed(clockWall)}, ClockMixed},
		{[]Timing{timed(""), timed(clockWall)}, ClockMixed},
		{[]Timing{{Games: 3}}, ""},
	}
	for i, tc := range tests {
		var a Timing
		for _, p := range tc.parts {
			a.add(p)
		}
		assert.Equal(t, tc.want, a.Clock, "case %d", i)
	}
	assert.Equal(t, "thread CPU", ClockName(ClockThreadCPU))
	assert.Equal(t, "wall", ClockName(clockWall))
	assert.Equal(t, "mixed clocks", ClockName(ClockMixed))
	assert.Equal(t, "unknown clock", ClockName(""))
}

func TestTimingAdd(t *testing.T) {
	t.Parallel()
	var a Timing
	a.add(Timing{Games: 10, WallSeconds: 2, Bots: []BotTiming{{Bot: "x", SeatGames: 10, Turns: 50, DecisionSeconds: 1}}})
	a.add(Timing{Games: 30, WallSeconds: 3, Bots: []BotTiming{{Bot: "y", SeatGames: 30, Turns: 10, DecisionSeconds: 3},
		{Bot: "x", SeatGames: 30, Turns: 150, DecisionSeconds: 1}}})
	assert.Equal(t, 40, a.Games)
	assert.InDelta(t, 8.0, a.GamesPerSecond, 1e-12)
	require.Len(t, a.Bots, 2)
	assert.Equal(t, BotTiming{Bot: "x", SeatGames: 40, Turns: 200, DecisionSeconds: 2, SecondsPerTurn: 0.01, SecondsPerGame: 0.05}, a.Bots[0])
	assert.InDelta(t, 0.3, a.Bots[1].SecondsPerTurn, 1e-15)
	assert.InDelta(t, 0.1, a.Bots[1].SecondsPerGame, 1e-15)
	assert.False(t, math.IsNaN(a.WallSeconds), "NaN wall seconds")
}

func ExampleWriteTable() {
	recs := []Record{
		{Game: 0, Seating: []string{"red", "blue"}, Winner: 0, Placements: []int{1, 2}, Rounds: 20, Faults: []int{0, 0}},
		{Game: 1, Seating: []string{"blue", "red"}, Winner: 1, Placements: []int{2, 1}, Rounds: 30, Faults: []int{0, 0}},
	}
	sum, _ := summarize([]string{"red", "blue"}, 2, recs)
	WriteTable(os.Stdout, sum, nil)
	// Output:
	// bot   games  wins  win rate  95% CI            1st  2nd  stalemates  faults  rounds
	// red   2      2     1.0000    [0.3424, 1.0000]  2    0    0           0       25.0
	// blue  2      0     0.0000    [0.0000, 0.6576]  0    2    0           0       25.0
}

func TestTimedPlayer(t *testing.T) {
	t.Parallel()
	tp := newTimedPlayer(&sim.BasePlayer{})
	g, err := sim.NewGame(mustMap(t), mustRules(t), 2)
	require.NoError(t, err, "NewGame")
	s := g.State()
	tp.Start(s, 0, nil)
	for range 10 {
		tp.Place(s, 3, nil)
		tp.Attack(s)
	}
	tp.Fortify(s, nil)
	assert.Equal(t, 1, tp.games)
	assert.Equal(t, 10, tp.turns)
	assert.Equal(t, [numMethods]int64{mPlace: 10, mAttack: 10, mFortify: 1}, tp.calls)
	if tp.cpu {
		// The thread's CPU time: calls 0 and 16 of each method are timed.
		assert.Equal(t, int64(sampleEveryCPU), tp.every)
		assert.Equal(t, [numMethods]int64{mPlace: 1, mAttack: 1, mFortify: 1}, tp.timed)
		assert.Positive(t, tp.bias, "the clock's own cost")
		assert.Less(t, tp.bias, int64(100e3), "the clock's own cost (ns)")
	} else {
		// The wall clock: calls 0, 4 and 8 of each method are timed.
		assert.Equal(t, int64(sampleEvery), tp.every)
		assert.Equal(t, [numMethods]int64{mPlace: 3, mAttack: 3, mFortify: 1}, tp.timed)
	}
	assert.GreaterOrEqual(t, tp.seconds(), 0.0)
	// The estimate scales each method's sampled time by calls/timed:
	// 300 ns over 3 of 10 calls and 50 ns over 1 of 1 call = 1050 ns.
	tp.timed = [numMethods]int64{mPlace: 3, mAttack: 3, mFortify: 1}
	tp.ns = [numMethods]int64{mPlace: 200, mAttack: 100, mFortify: 50}
	assert.InDelta(t, 1050e-9, tp.seconds(), 1e-15, "estimate")
}

func mustMap(t testing.TB) *sim.Map {
	m, err := sim.LoadMap("classic")
	require.NoError(t, err, "LoadMap")
	return m
}

func mustRules(t testing.TB) *sim.Rules {
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err, "LoadRules")
	return r
}

// summarize computes, as a batch's tally does, the per-bot summary of records played by players
// seats. labels gives the bots and their order in the result (duplicates
// are merged: a label seated twice aggregates both seats); a record seating
// a label not in labels is an error.
func summarize(labels []string, players int, records []Record) ([]BotSummary, error) {
	t := newTally(labels, players)
	for i := range records {
		if err := t.add(&records[i]); err != nil {
			return nil, err
		}
	}
	return t.summary()
}
