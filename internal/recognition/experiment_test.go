package recognition

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/stats"
)

func small(t *testing.T) (*Config, *Setup) {
	t.Helper()
	cfg, err := Load("testdata/small.toml")
	require.NoError(t, err)
	s, err := cfg.Resolve(registry.Default())
	require.NoError(t, err)
	return cfg, s
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	base := "rules = \"missions\"\nseed = 1\ntrain_seed = 2\ngames = 10\ntrain_games = 5\n[[arms]]\nname = \"a\"\nplayers = \"mission,mission\"\n"
	for _, tc := range []struct{ edit, want string }{
		{strings.Replace(base, "seed = 1\n", "", 1), "x.toml: key seed: missing"},
		{strings.Replace(base, "seed = 1\n", "seed = -1\n", 1), "x.toml: key seed: -1: want >= 0"},
		{strings.Replace(base, "train_seed = 2", "train_seed = -2", 1), "x.toml: key train_seed: -2: want >= 0"},
		{strings.Replace(base, "train_seed = 2", "train_seed = 1", 1), "key train_seed: 1: must differ from seed"},
		{strings.Replace(base, "games = 10", "games = 0", 1), "key games: 0 outside [1, 1000000]"},
		{strings.Replace(base, "train_games = 5", "train_games = -1", 1), "key train_games: -1 outside [0, 1000000]"},
		{strings.Replace(base, `name = "a"`, `name = "a b"`, 1), `key arms[0].name: "a b": want [A-Za-z0-9_-]+`},
		{"colour = 1\n" + base, `x.toml:1: unknown key "colour" (allowed: rules, seed, train_seed, games, train_games, out, arms, phatt, data)`},
		{base + "[phatt]\nup = 1.5\n", "x.toml: key phatt.up = 1.5: must be in (0.9, 1.1)"},
		{base + "[data]\nalpha = 0\n", "key data.alpha: 0 outside (0, 1e6]"},
		{strings.Replace(base, `rules = "missions"`, "", 1), "key rules: missing"},
	} {
		_, err := parse("x.toml", []byte(tc.edit))
		assert.ErrorContains(t, err, tc.want)
	}
	cfg, err := parse("x.toml", []byte(base))
	require.NoError(t, err)
	assert.Equal(t, 0.02, cfg.Params.WSuccess)
	// Resolve: the classic rules are not mission mode; a seat list too long.
	cfg.Rules = "classic"
	_, err = cfg.Resolve(registry.Default())
	assert.ErrorContains(t, err, `key rules: "classic" is not a mission rule set`)
	cfg.Rules = "missions"
	cfg.Arms[0].Players = "mission,nosuchbot"
	_, err = cfg.Resolve(registry.Default())
	assert.ErrorContains(t, err, "key arms[0].players")
}

// TestDeterministic: the games are byte-identical with 1 and 3 workers, and
// a run resumed from a cut-short games.jsonl equals an uninterrupted one.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, w := range []int{1, 3} {
		res, err := Run(context.Background(), cfg, s, Options{Out: dirs[i], Workers: w})
		require.NoError(t, err)
		require.Len(t, res.Games, 12)
		for _, g := range res.Games {
			// Six players of 20 starting armies, 42 of them dealt: 78
			// setup steps on the paper's clock.
			assert.Equal(t, 78, g.Setup)
			assert.Positive(t, g.Turns)
			for r := range 2 {
				for p := range 6 {
					// The paper's clock reaches the end of the game at
					// 100 %, as the turn clock does; at 5 % it is in the
					// setup, where a seat has placed at most one army
					// and every card holding that continent ties.
					assert.Equal(t, g.Pred[r][p][steps-1], g.PaperPred[r][p][steps-1])
					assert.Equal(t, g.Tied[r][p][steps-1], g.PaperTied[r][p][steps-1])
					assert.Greater(t, g.PaperTied[r][p][0], 1)
				}
			}
		}
	}
	a, err := os.ReadFile(filepath.Join(dirs[0], gamesFile))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dirs[1], gamesFile))
	require.NoError(t, err)
	require.Equal(t, a, b)
	assert.Equal(t, 12, bytes.Count(a, []byte("\n")))

	// Keep five whole lines and half of the sixth, then resume.
	lines := bytes.SplitAfter(a, []byte("\n"))
	cut := append(bytes.Join(lines[:5], nil), lines[5][:len(lines[5])/2]...)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, gamesFile), cut, 0o644))
	_, err = Run(context.Background(), cfg, s, Options{Out: dir, Workers: 2, Resume: true})
	assert.ErrorContains(t, err, "holds games.jsonl but no config.json: its config is unknown")
	copyFile(t, filepath.Join(dirs[0], headerFile), filepath.Join(dir, headerFile))
	res, err := Run(context.Background(), cfg, s, Options{Out: dir, Workers: 2, Resume: true})
	require.NoError(t, err)
	require.Len(t, res.Games, 12)
	c, err := os.ReadFile(filepath.Join(dir, gamesFile))
	require.NoError(t, err)
	assert.Equal(t, a, c)

	// A file of another run is refused.
	other := *cfg
	other.Seed = 99
	_, err = Run(context.Background(), &other, s, Options{Out: dir, Resume: true})
	assert.ErrorContains(t, err, "resume: "+filepath.Join(dir, "config.json")+" was written by another config (seed: 1 vs 99; the file's vs this run's)")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

// TestOwnership: a run is not written over another one without Resume,
// and a resumed run or a merge refuses a folder of another config: any key
// of the resolved config, the sizes in force or the shard.
func TestOwnership(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	ctx := context.Background()
	dir := t.TempDir()
	_, err := Run(ctx, cfg, s, Options{Out: dir, Workers: 2})
	require.NoError(t, err)
	first, err := os.ReadFile(filepath.Join(dir, gamesFile))
	require.NoError(t, err)
	_, err = Run(ctx, cfg, s, Options{Out: dir, Games: 1})
	assert.EqualError(t, err, dir+" already holds a recognition run (config.json)")
	now, err := os.ReadFile(filepath.Join(dir, gamesFile))
	require.NoError(t, err)
	assert.Equal(t, first, now, "games.jsonl untouched")

	w := *cfg
	w.Params.WSuccess = 0.5
	train := *cfg
	train.TrainSeed = 7
	arms := *cfg
	arms.Arms = append([]Arm(nil), cfg.Arms...)
	arms.Arms[1].Name = "renamed"
	alpha := *cfg
	alpha.Alpha = 2
	for _, tc := range []struct {
		cfg  *Config
		opt  Options
		want string
	}{
		{&w, Options{}, "phatt.w_success: 0.02 vs 0.5"},
		{&train, Options{}, "train_seed: 2 vs 7"},
		{&arms, Options{}, `arms[1].name: "constrained" vs "renamed"`},
		{&alpha, Options{}, "data.alpha: 1 vs 2"},
		{cfg, Options{Games: 5}, "games: 6 vs 5"},
		{cfg, Options{TrainGames: 1}, "train_games: 3 vs 1"},
		{cfg, Options{Shard: arena.Shard{Index: 0, Count: 2}}, `shard: "0/1" vs "0/2"`},
	} {
		tc.opt.Out, tc.opt.Resume = dir, true
		_, err := Run(ctx, tc.cfg, s, tc.opt)
		assert.ErrorContains(t, err, "was written by another config ("+tc.want+";", tc.want)
	}
	now, err = os.ReadFile(filepath.Join(dir, gamesFile))
	require.NoError(t, err)
	assert.Equal(t, first, now, "games.jsonl untouched")

	// Merge: two shards; a shard of another w_success is refused.
	sh := []string{t.TempDir(), t.TempDir()}
	for i := range sh {
		_, err := Run(ctx, cfg, s, Options{Out: sh[i], Workers: 1, Shard: arena.Shard{Index: i, Count: 2}})
		require.NoError(t, err)
	}
	odd := t.TempDir()
	_, err = Run(ctx, &w, s, Options{Out: odd, Workers: 1, Shard: arena.Shard{Index: 1, Count: 2}})
	require.NoError(t, err)
	_, err = Merge(cfg, s, []string{sh[0], odd}, Options{Out: t.TempDir()})
	assert.ErrorContains(t, err, "merge: "+filepath.Join(odd, "config.json")+" was written by another config (phatt.w_success: 0.5 vs 0.02;")
	_, err = Merge(cfg, s, sh, Options{Out: t.TempDir(), TrainGames: 1})
	assert.ErrorContains(t, err, "train_games: 3 vs 1")
	_, err = Merge(cfg, s, []string{sh[0], t.TempDir()}, Options{Out: t.TempDir()})
	assert.ErrorContains(t, err, "no config.json: not the output folder of a recognition run")
	merged := t.TempDir()
	res, err := Merge(cfg, s, sh, Options{Out: merged})
	require.NoError(t, err)
	require.Len(t, res.Games, 12)
	got, err := os.ReadFile(filepath.Join(merged, gamesFile))
	require.NoError(t, err)
	assert.Equal(t, first, got)
	h, err := readHeader(merged)
	require.NoError(t, err)
	assert.Equal(t, "0/1", h.Shard)
	// Merging again into the merge is allowed; into a run of another config not.
	_, err = Merge(cfg, s, sh, Options{Out: merged})
	require.NoError(t, err)
	_, err = Merge(&w, s, sh, Options{Out: merged})
	assert.ErrorContains(t, err, "merge: "+filepath.Join(merged, "config.json")+" was written by another config")
}

// TestPerArm: one model per arm learns from that arm's games alone; the
// player-games add up to the same total.
func TestPerArm(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	pooled, err := Run(context.Background(), cfg, s, Options{Workers: 2})
	require.NoError(t, err)
	per := *cfg
	per.PerArm = true
	split, err := Run(context.Background(), &per, s, Options{Workers: 2})
	require.NoError(t, err)
	assert.Equal(t, pooled.Trained, split.Trained)
	total := 0
	for _, n := range split.Trained {
		total += n
	}
	assert.Equal(t, 2*3*6, total) // 2 arms x 3 training games x 6 players
	// PHATT does not depend on the data models; the data recognisers do.
	same, differ := true, false
	for i := range pooled.Games {
		same = same && assert.ObjectsAreEqual(pooled.Games[i].Pred[0], split.Games[i].Pred[0])
		differ = differ || !assert.ObjectsAreEqual(pooled.Games[i].Pred[2], split.Games[i].Pred[2])
	}
	assert.True(t, same)
	assert.True(t, differ)
}

// TestCancel: a cancelled run reports the interruption and keeps a prefix.
func TestCancel(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	_, err := Run(ctx, cfg, s, Options{Out: dir, Workers: 2})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	if cfg.TrainGames > 0 {
		// Interrupted in training, the message says that nothing of it is
		// kept.
		assert.ErrorContains(t, err, "interrupted while training the data model, after 0 of ")
		assert.ErrorContains(t, err, "the training is not kept (a resumed run trains again), no test game was played")
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	res := &Results{Config: cfg, Setup: s}
	// Two games of arm 0 with six seats; seat p holds card p. Recogniser 0
	// is right about seats 0-2 from the start and about seat 3 only at
	// the end; at the end it names seat 4's card in a tie of two cards;
	// on the paper's clock its 25 % point falls in the setup, where it is
	// wrong about everyone. Recogniser 1 is always wrong; the data
	// recognisers did not run.
	grid := func(f func(r, p, k int) int) [][][]int {
		x := make([][][]int, 4)
		for r := range x {
			x[r] = make([][]int, 6)
			for p := range x[r] {
				x[r][p] = make([]int, steps)
				for k := range steps {
					x[r][p][k] = f(r, p, k)
				}
			}
		}
		return x
	}
	end := steps - 1
	pred := func(r, p, k int) int {
		switch {
		case r >= 2:
			return -1
		case r == 1:
			return (p + 1) % 6
		case p < 3 || p == 3 && k == end || p == 4 && k == end:
			return p
		default:
			return (p + 1) % 6
		}
	}
	tied := func(r, p, k int) int {
		switch {
		case r >= 2:
			return 0
		case r == 0 && p == 4 && k == end:
			return 2
		}
		return 1
	}
	paper := func(r, p, k int) int {
		if r == 0 && k == Step(25) {
			return (p + 1) % 6
		}
		return pred(r, p, k)
	}
	// At the end of the last turn before the final one, the winner (seat 3)
	// is not recognised yet: the other seats are as at the game's end.
	turnEnd := func(f func(r, p, k int) int, winner int) [][]int {
		x := make([][]int, len(recognisers))
		for r := range x {
			x[r] = make([]int, 6)
			for p := range x[r] {
				x[r][p] = f(r, p, end)
				if r == 0 && p == 3 {
					x[r][p] = winner
				}
			}
		}
		return x
	}
	for i := range 2 {
		g := Game{Arm: 0, Index: i, Winner: 3, Turns: 40, Setup: 120, Missions: []int{0, 1, 2, 3, 4, 5},
			Pred: grid(pred), Tied: grid(tied), PaperPred: grid(paper), PaperTied: grid(tied),
			TurnEnd: turnEnd(paper, 4), TurnEndTied: turnEnd(tied, 1)}
		res.Games = append(res.Games, g)
	}
	// The paper's counting with the end after the game's last action.
	sum, err := Summarize(res, Counting{End: EndGame})
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, false, false}, sum.Ran)
	assert.InDelta(t, 1.0/6, sum.Chance, 1e-12)
	last := sum.Curve[0][0][All][Step(100)]
	assert.Equal(t, 8, last.Correct, "the paper's counting: a tie is wrong")
	assert.Equal(t, 12, last.N)
	assert.Equal(t, 2, last.Ties)
	assert.InDelta(t, 2.0/12, last.tieShare(), 1e-12)
	half := sum.Curve[0][0][All][Step(50)]
	assert.Equal(t, 6, half.Correct)
	assert.Equal(t, 0, sum.Curve[0][0][All][Step(25)].Correct, "the paper's clock: 25 % is in the setup")
	w := sum.Curve[0][0][Winners][Step(100)]
	assert.Equal(t, Tally{Correct: 2, N: 2, Acc: 1, CI: w.CI}, w)
	assert.Less(t, w.CI.Lo, 1.0)
	assert.Equal(t, 0, sum.Curve[1][0][All][Step(100)].Correct)
	assert.Equal(t, 2, sum.PerMission[0][0][All][3].Correct)
	assert.Equal(t, 0, sum.PerMission[0][0][All][4].Correct)
	// Both games are 40 turns long: the bin [40, 50).
	assert.Equal(t, last, sum.ByLength[0][0][3])
	assert.Zero(t, sum.ByLength[0][0][2].N)
	assert.Equal(t, 0, sum.PerMission[0][0][Losers][3].N)
	// One pair (phatt vs phatt-state) on arm 0 (arm 1 has no games).
	require.Len(t, sum.Pairs, 1)
	assert.Equal(t, 8, sum.Pairs[0].Result.Counts.OnlyX)
	assert.Equal(t, 0, sum.Pairs[0].Result.Counts.OnlyY)
	assert.Less(t, sum.Pairs[0].Result.P, 0.01)
	var buf bytes.Buffer
	require.NoError(t, WriteTables(&buf, sum, nil))
	assert.Contains(t, buf.String(), "| w4 | ours | 0/12 0.0 [0.0, 24.2] | 6/6 50.0 [25.4, 74.6] |")
	assert.Contains(t, buf.String(), "| 8/4 66.7 [")
	assert.Contains(t, buf.String(), "Counting: paper's clock (setup steps counted), ties wrong, the end after the game's last action.")

	// The paper's counting: the end is the last turn's end before the final
	// turn, where the winners are not recognised yet.
	sum, err = Summarize(res, Counting{})
	require.NoError(t, err)
	assert.Equal(t, 6, sum.Curve[0][0][All][Step(100)].Correct)
	assert.Equal(t, 0, sum.Curve[0][0][Winners][Step(100)].Correct)
	assert.Equal(t, 6, sum.Curve[0][0][All][Step(50)].Correct, "only the end moves")
	eff, err := countingEffect(res, 0, Counting{}, Counting{End: EndGame})
	require.NoError(t, err)
	require.Len(t, eff, 1, "arm 1 has no games")
	assert.Equal(t, "w4", eff[0].Arm)
	assert.Equal(t, stats.PairCounts{Both: 6, OnlyY: 2, Neither: 4}, eff[0].Result.Counts)
	assert.InDelta(t, -2.0/12, eff[0].Result.Diff, 1e-12)
	_, err = countingEffect(res, 4, Counting{}, Ours)
	assert.ErrorContains(t, err, "recogniser 4: want 0 to 3")

	// Our counting: the turn clock, ties broken at random (here the
	// recorded pick is seat 4's card), the end after the last action.
	ours, err := ParseCounting("turns", "share", "game")
	require.NoError(t, err)
	assert.Equal(t, Ours, ours)
	sum, err = Summarize(res, ours)
	require.NoError(t, err)
	assert.Equal(t, 10, sum.Curve[0][0][All][Step(100)].Correct)
	assert.Equal(t, 2, sum.Curve[0][0][All][Step(100)].Ties)
	assert.Equal(t, 6, sum.Curve[0][0][All][Step(25)].Correct)

	// The CSV files hold both countings' curves.
	psum, err := Summarize(res, Counting{})
	require.NoError(t, err)
	dir := t.TempDir()
	names, err := WriteCSV(dir, psum, sum)
	require.NoError(t, err)
	assert.Equal(t, []string{"length.csv", "accuracy.csv", "missions.csv", "pairs.csv"}, names)
	data, err := os.ReadFile(filepath.Join(dir, "accuracy.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	assert.Equal(t, "counting,recogniser,arm,players,percent_of_game,correct,n,ties,accuracy,wilson_lo,wilson_hi", lines[0])
	assert.Len(t, lines, 1+2*2*3*2*steps, "2 recognisers ran × 2 arms × 3 groups × 2 countings × steps")
	assert.Contains(t, lines, "paper,phatt,w4,all,100,6,12,2,0.5,0.2537815976337061,0.7462184023662939")
	assert.Contains(t, lines, "ours,phatt,w4,all,100,10,12,2,0.8333333333333334,0.5519691377470266,0.9530348578161463")
	assert.Contains(t, lines, "paper,phatt,w4,winners,100,0,2,0,0,0,0.6576197724933468")
	_, err = WriteCSV(dir, psum, &Summary{})
	assert.ErrorContains(t, err, "the two summaries differ: 2 and 0 arms")

	for _, tc := range []struct{ clock, ties, end, want string }{
		{"rounds", "wrong", "turn", `clock "rounds": want paper or turns`},
		{"paper", "half", "turn", `ties "half": want wrong or share`},
		{"paper", "wrong", "round", `end "round": want turn or game`},
	} {
		_, err = ParseCounting(tc.clock, tc.ties, tc.end)
		assert.ErrorContains(t, err, tc.want)
	}
}

// FuzzParse: any text gives a config or an error, never a panic, and a
// config it accepts has sizes in range.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("testdata/small.toml")
	require.NoError(f, err)
	f.Add(data)
	f.Add([]byte("rules = \"missions\"\nseed = 1\ntrain_seed = 2\ngames = 1\n[[arms]]\nname = \"x\"\nplayers = \"mission\"\n[phatt]\nup = 1.05\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parse("fuzz.toml", data)
		if err != nil {
			require.Contains(t, err.Error(), "fuzz.toml")
			return
		}
		require.True(t, c.Games >= 1 && c.Games <= MaxGames)
		require.True(t, c.TrainGames >= 0 && c.TrainGames <= MaxGames)
		require.NotEqual(t, c.Seed, c.TrainSeed)
		require.NoError(t, c.Params.Validate())
		require.NotEmpty(t, c.Arms)
	})
}

// TestShardResume: a shard resumed from a cut-short file equals the shard
// played at once, and holds every second game.
func TestShardResume(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	sh := arena.Shard{Index: 1, Count: 2}
	a := t.TempDir()
	res, err := Run(context.Background(), cfg, s, Options{Out: a, Workers: 2, Shard: sh})
	require.NoError(t, err)
	require.Len(t, res.Games, 6)
	for j, g := range res.Games {
		assert.Equal(t, 2*j+1, g.Arm*6+g.Index)
	}
	data, err := os.ReadFile(filepath.Join(a, gamesFile))
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	b := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(b, gamesFile), bytes.Join(lines[:3], nil), 0o644))
	copyFile(t, filepath.Join(a, headerFile), filepath.Join(b, headerFile))
	_, err = Run(context.Background(), cfg, s, Options{Out: b, Workers: 1, Shard: sh, Resume: true})
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(b, gamesFile))
	require.NoError(t, err)
	assert.Equal(t, data, got)
	// The other shard's file is not this shard's.
	_, err = Run(context.Background(), cfg, s, Options{Out: b, Shard: arena.Shard{Index: 0, Count: 2}, Resume: true})
	assert.ErrorContains(t, err, `was written by another config (shard: "1/2" vs "0/2";`)
}

// TestTraceGame: the trace replays Run's game: same cards and winner, and
// PHATT's final argmax is Run's prediction at the end.
func TestTraceGame(t *testing.T) {
	t.Parallel()
	cfg, s := small(t)
	res, err := Run(context.Background(), cfg, s, Options{Workers: 1, TrainGames: 1})
	require.NoError(t, err)
	g := res.Games[7] // arm 1, game 1
	tr, err := TraceGame(cfg, s, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, g.Missions, tr.Game.Missions)
	assert.Equal(t, g.Winner, tr.Game.Winner)
	assert.Equal(t, g.Turns, tr.Game.Turns)
	require.Len(t, tr.Probs, g.Turns+1)
	for p := range g.Missions {
		last := tr.Probs[len(tr.Probs)-1][p]
		best := 0.0
		for _, x := range last {
			best = max(best, x)
		}
		// Run's prediction is the card of one of the most probable
		// explanations (Europe + Australia + South America and Europe +
		// South America + Australia, of two cards, are always tied).
		var top []int
		for e, x := range last {
			if x >= best-1e-12*best {
				top = append(top, tr.Explanations[e].Mission)
			}
		}
		assert.Contains(t, top, g.Pred[0][p][steps-1], "seat %d", p)
	}
	_, err = TraceGame(cfg, s, 5, 0)
	assert.ErrorContains(t, err, "trace: arm 5: want 0 to 1")
}

func TestCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		t    Tally
		want string
	}{
		{Tally{}, "—"},
		{Tally{Correct: 3, N: 12, Acc: 0.25, CI: stats.Interval{Lo: 0.0889, Hi: 0.5324}}, "3/9 25.0 [8.9, 53.2]"},
		{Tally{Correct: 12, N: 12, Acc: 1, CI: stats.Interval{Lo: 0.7575, Hi: 1}}, "12/0 100.0 [75.8, 100.0]"},
	} {
		assert.Equal(t, tc.want, Cell(tc.t))
	}
}

func TestEffectsTable(t *testing.T) {
	t.Parallel()
	pp := stats.PairedProportion{Counts: stats.PairCounts{Both: 6, OnlyX: 1, OnlyY: 3, Neither: 2}, N: 12, PX: 7.0 / 12, PY: 9.0 / 12,
		Diff: -2.0 / 12, Interval: stats.Interval{Lo: -0.4312, Hi: 0.1234}, P: 0.625}
	tb := EffectsTable([]RuleEffect{{Rule: countingRules[0],
		Arms: []PairRow{{Arm: "w4", Result: pp, PHolm: 1}}}})
	assert.Equal(t, []string{"last turn's end", "after the last action", "w4", "58.3", "75.0", "1", "3", "-16.7", "[-43.1, +12.3]", "0.625", "1"}, tb.Rows[0])
	assert.Len(t, tb.Header, len(tb.Rows[0]))
}
