package mcts

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/cputime"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// small is a cheap configuration for the tests.
func small() config {
	return config{Playouts: 4, Explore: 0.25, Depth: 2, Policy: policyGreedy, Ratio: 1.5, EvalMix: 0.5, Width: 4, StopAt: 2, Reuse: true}
}

// TestInvariants: the bot, in every seat, keeps the engine's invariants
// (simtest's Checker after every event) and answers legally under every
// embedded rule set and seat count, with either rollout policy.
func TestInvariants(t *testing.T) {
	cfg := small()
	cfg.Playouts, cfg.Depth = 2, 1
	opt := simtest.Options{Games: 1, Seed: 7}
	if race.Enabled {
		// The detector slows the engine about tenfold: the rule sets of
		// each kind of set-up, cards and end, two seats.
		opt.Rules, opt.Seats = []string{"classic", "lux", "missions"}, []int{2}
	}
	simtest.TestPlayer(t, func(int) sim.Player { return &bot{config: cfg} }, opt)
	cfg.Policy = policyRandom
	seats := []int{2, 6}
	if race.Enabled {
		seats = []int{2}
	}
	simtest.TestPlayer(t, func(int) sim.Player { return &bot{config: cfg} }, simtest.Options{Games: 1, Seed: 8, Rules: []string{"classic"}, Seats: seats})
}

// TestFactory: the registry entry's defaults make the bot config says.
func TestFactory(t *testing.T) {
	f := Factory()
	require.NoError(t, f.Validate())
	p, err := f.New(f.Defaults())
	require.NoError(t, err)
	want := config{Playouts: 400, Explore: 0.25, Depth: 6, Policy: policyGreedy, Ratio: 1.5, EvalMix: 0.5, Width: 8, StopAt: 2, Reuse: true}
	assert.Equal(t, want, p.(*bot).config)
	v := f.Defaults()
	v["policy"], v["reuse"] = 1, 0
	p, err = f.New(v)
	require.NoError(t, err)
	assert.Equal(t, policyRandom, p.(*bot).Policy)
	assert.False(t, p.(*bot).Reuse)
}

// playGame plays one three-player game of mcts bots of cfg under the
// rules of the MARS paper (a stalemate after 100 rounds) and returns its
// result, its final armies and the playouts each seat played.
func playGame(t *testing.T, cfg config, seed uint64) (sim.Result, []int, []int64) {
	t.Helper()
	g, _, _ := simtest.NewGame(t, "mars2006", 3)
	players := make([]sim.Player, 3)
	for i := range players {
		players[i] = &bot{config: cfg}
	}
	res, err := g.Play(players, seed, 0)
	require.NoError(t, err)
	var playouts []int64
	for _, p := range players {
		for _, s := range p.(*bot).GameStats(nil) {
			if s.Name == "playouts" {
				playouts = append(playouts, s.Count)
			}
		}
	}
	return res, g.Position().Armies, playouts
}

// TestDeterministic: a game of mcts bots is the same for a seed, played
// again with new bots or with the same bots reused (as arena's workers
// reuse them); another seed gives another game.
func TestDeterministic(t *testing.T) {
	cfg := small()
	cfg.Playouts, cfg.Depth = 2, 1
	a, armies, pa := playGame(t, cfg, 11)
	b, armiesB, pb := playGame(t, cfg, 11)
	assert.Equal(t, a, b)
	assert.Equal(t, armies, armiesB)
	assert.Equal(t, pa, pb)
	for _, n := range pa {
		assert.Positive(t, n)
	}
	_, armiesC, _ := playGame(t, cfg, 12)
	assert.NotEqual(t, armies, armiesC)

	g, _, _ := simtest.NewGame(t, "mars2006", 3)
	players := make([]sim.Player, 3)
	for i := range players {
		players[i] = &bot{config: cfg}
	}
	_, err := g.Play(players, 12, 0)
	require.NoError(t, err)
	again, err := g.Play(players, 11, 0)
	require.NoError(t, err)
	assert.Equal(t, a, again)
	assert.Equal(t, armies, g.Position().Armies)
}

// midGame returns a classic six-player position at the start of seat 0's
// attack phase in round 4 of a game of greedy mcts bots, and its map and
// rules.
func midGame(t testing.TB) (*sim.Map, *sim.Rules, *sim.Position) {
	g, m, r := simtest.NewGame(t, "classic", 6)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = &bot{config: small()}
	}
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvTurn && e.Round == 3 && e.Player == 5 {
			g.Interrupt()
		}
	}))
	_, err := g.Play(players, 5, 0)
	require.ErrorIs(t, err, sim.ErrInterrupted)
	pos := g.Position()
	pos.Phase = sim.PhaseAttack
	require.Equal(t, 0, pos.Current)
	require.Equal(t, 4, pos.Round)
	return m, r, pos
}

// TestDeterminize: the deal a playout fills in keeps every card the seat
// sees where it is, puts every hidden card somewhere, and validates.
func TestDeterminize(t *testing.T) {
	m, r, full := midGame(t)
	s, err := sim.NewStateAt(m, r, full, 0)
	require.NoError(t, err)
	seen := s.Position()
	hidden := 0
	for q, h := range seen.Hands {
		for _, c := range h {
			if c.Symbol == sim.Unknown {
				hidden++
				require.NotEqual(t, 0, q)
			}
		}
	}
	require.Positive(t, hidden+len(seen.Deck), "the position hides cards")
	sr := newSearcher(s)
	sr.cfg = small()
	sr.begin(s, 0, 0, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	differ := false
	for range 20 {
		sr.pos = copyPosition(sr.pos, sr.base)
		sr.determinize(rng)
		require.NoError(t, sr.pos.Validate(m, r))
		assert.Equal(t, seen.Hands[0], sr.pos.Hands[0], "own hand")
		for q := range seen.Hands {
			assert.Len(t, sr.pos.Hands[q], len(seen.Hands[q]))
		}
		assert.Len(t, sr.pos.Deck, len(seen.Deck))
		differ = differ || !slices.Equal(sr.pos.Deck, full.Deck)
	}
	assert.True(t, differ, "the deals vary")
	assert.Equal(t, seen.Deck, sr.base.Deck, "the seat's position is not changed")
}

// TestChoose: an untried legal action is expanded first, in the order
// given; then UCB1 with availability counts picks among the legal ones.
func TestChoose(t *testing.T) {
	a, b, c := action{from: 1, to: 2}, action{from: 3, to: 4}, action{from: 5, to: 6}
	n := &node{}
	i, fresh := n.choose([]action{a, b}, 1)
	assert.True(t, fresh)
	assert.Equal(t, a, n.edges[i].a)
	n.edges[i].n, n.edges[i].w = 1, 0.9
	i, fresh = n.choose([]action{a, b}, 1)
	assert.True(t, fresh)
	assert.Equal(t, b, n.edges[i].a)
	assert.Equal(t, 2, n.edges[0].avail, "a was legal again")
	n.edges[i].n, n.edges[i].w = 4, 2
	// a: 0.9 + sqrt(ln 3/1) = 1.948; b: 0.5 + sqrt(ln 2/4) = 0.916.
	i, fresh = n.choose([]action{a, b}, 1)
	assert.False(t, fresh)
	assert.Equal(t, a, n.edges[i].a)
	assert.Equal(t, 3, n.edges[0].avail)
	assert.Equal(t, 2, n.edges[1].avail)
	// Without exploration the mean decides; with a illegal, b is the only
	// choice and a's availability does not grow.
	i, _ = n.choose([]action{b}, 0)
	assert.Equal(t, b, n.edges[i].a)
	assert.Equal(t, 3, n.edges[0].avail)
	i, fresh = n.choose([]action{c, a}, 0)
	assert.True(t, fresh)
	assert.Equal(t, c, n.edges[i].a)
	assert.Equal(t, 4, n.edges[0].avail, "a was legal at the expansion of c")
}

// TestSearchPrefersWinningAttack: with a clear conquest available, the
// search picks an attack over stopping, and keeps the subtree under it
// for the next decision of the turn.
func TestSearchDecision(t *testing.T) {
	m, r, pos := midGame(t)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	cfg := small()
	cfg.Playouts = 40
	bot := &bot{config: cfg}
	bot.Start(s, 0, rand.New(rand.NewPCG(3, 4)))
	o, ok := bot.Attack(s)
	if ok {
		require.NoError(t, s.CheckAttack(0, o))
		assert.True(t, o.Repeat)
		assert.Equal(t, cfg.StopAt, o.StopAt)
		require.NotNil(t, bot.reuse, "the subtree under the attack is kept")
		assert.Equal(t, [2]int{4, 0}, bot.reuseTurn)
	}
	assert.Equal(t, int64(1), bot.decisions)
	assert.Equal(t, int64(40), bot.playouts)
	var stats []bots.Stat
	stats = bot.GameStats(stats)
	assert.Equal(t, []bots.Stat{{Name: "decisions", Count: 1}, {Name: "playouts", Count: 40}}, stats)
	root := bot.root(s, kindAttack)
	assert.Empty(t, root.edges, "a new tree after the kept one is taken or refused")
}

// BenchmarkDecision measures the search of one attack decision at the
// default budget in a six-player classic position of round 4: decisions/s
// and playouts/s on the wall clock, and the process's CPU milliseconds per
// decision (cpu-ms/decision), which a machine shared with other work
// inflates far less.
func BenchmarkDecision(b *testing.B) {
	m, r, pos := midGame(b)
	s, err := sim.NewStateAt(m, r, pos, 0)
	if err != nil {
		b.Fatal(err)
	}
	f := Factory()
	p, err := f.New(f.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	bot := p.(*bot)
	bot.Reuse = false
	bot.Start(s, 0, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	cpu0, ok := cputime.Process()
	b.ResetTimer()
	for b.Loop() {
		bot.Attack(s)
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(bot.decisions)/sec, "decisions/s")
	b.ReportMetric(float64(bot.playouts)/sec, "playouts/s")
	if cpu1, ok1 := cputime.Process(); ok && ok1 {
		b.ReportMetric(1000*(cpu1-cpu0).Seconds()/float64(bot.decisions), "cpu-ms/decision")
	}
}
