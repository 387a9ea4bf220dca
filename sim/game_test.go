package sim

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkResult checks a Result against the final state.
func checkResult(t *testing.T, g *Game, res Result) {
	t.Helper()
	s := g.State()
	seen := make([]bool, g.n+1)
	for p, r := range res.Placement {
		require.True(t, r >= 1 && r <= g.n && !seen[r], "placements %v are not a permutation (seat %d)", res.Placement, p)
		seen[r] = true
	}
	if res.Winner >= 0 {
		require.Equal(t, 1, res.Placement[res.Winner], "the winner's placement")
		require.False(t, res.Stalemate)
		if s.Rules().End.Win == "domination" {
			require.Equal(t, s.NumTerritories(), s.TerritoryCount(res.Winner), "the winner's territories")
		}
	} else {
		require.True(t, res.Stalemate, "no winner and no stalemate")
		require.Equal(t, s.Rules().End.RoundLimit, res.Rounds, "a stalemate before the round limit")
	}
	for i, p := range res.Eliminated {
		require.False(t, s.Alive(p), "eliminated seat %d alive", p)
		require.Zero(t, s.TerritoryCount(p), "eliminated seat %d owns territories", p)
		require.Equal(t, g.n-i, res.Placement[p], "placement of seat %d eliminated %d-th", p, i+1)
	}
}

// eventHash hashes the full event stream of a game.
type eventHash struct{ h uint64 }

func (e *eventHash) Observe(ev *Event) {
	f := fnv.New64a()
	fmt.Fprintf(f, "%x%v", e.h, *ev)
	e.h = f.Sum64()
}

func TestDeterminism(t *testing.T) {
	t.Parallel()
	m := ringMap(3, 5)
	r := testRules(FortifyOneStep)
	run := func(seed, index uint64) uint64 {
		g, err := NewGame(m, r, 4)
		require.NoError(t, err)
		h := &eventHash{}
		g.Observe(h)
		// Play another game first: state left over from it must not matter.
		_, err = g.Play(newChaos(4, 0.02), seed+1, index)
		require.NoError(t, err)
		h.h = 0
		_, err = g.Play(newChaos(4, 0.02), seed, index)
		require.NoError(t, err)
		return h.h
	}
	a := run(7, 3)
	assert.Equal(t, a, run(7, 3), "same seed, different games")
	assert.NotEqual(t, a, run(7, 4), "different game index gave the same game")
	assert.NotEqual(t, GameSeed(1, 2), GameSeed(2, 1), "GameSeed collides on swapped inputs")
	assert.NotEqual(t, GameSeed(0, 0), GameSeed(0, 1))
}

func TestWrongPlayerCount(t *testing.T) {
	t.Parallel()
	g, err := NewGame(ringMap(2, 3), testRules(FortifySingle), 3)
	require.NoError(t, err)
	_, err = g.Play(newChaos(2, 0), 1, 1)
	assert.ErrorIs(t, err, ErrPlayers)
	assert.ErrorContains(t, err, "got 2, game has 3 seats")
	_, err = NewGame(ringMap(2, 3), testRules(FortifySingle), 7)
	assert.ErrorContains(t, err, "7 players: must be 2..6")
}

// setup returns a game whose board is set by hand: owners and armies per
// territory, player 0 to move.
func handGame(t *testing.T, m *Map, r *Rules, owner []int, armies []int) *Game {
	t.Helper()
	n := 0
	for _, o := range owner {
		n = max(n, o+1)
	}
	g, err := NewGame(m, r, max(n, 2))
	require.NoError(t, err)
	g.reset(1)
	setBoard(&g.st, owner, armies)
	g.st.round = 1
	return g
}

// setBoard gives territory t to seat owner[t] with armies[t] armies and
// recounts every seat's territories and armies.
func setBoard(s *state, owner, armies []int) {
	clear(s.territories)
	clear(s.totalArmies)
	for tt := range owner {
		s.owner[tt] = int8(owner[tt])
		s.armies[tt] = int32(armies[tt])
		s.territories[owner[tt]]++
		s.totalArmies[owner[tt]] += armies[tt]
	}
}

func TestIncome(t *testing.T) {
	t.Parallel()
	// 3 rings of 4: continent c has bonus c+1.
	m := ringMap(3, 4)
	cases := []struct {
		name     string
		rounding Rounding
		owner    []int
		want0    int
	}{
		{"min3", "floor", []int{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 3},
		{"continent0", "floor", []int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}, 3 + 1},
		{"continents0+2", "floor", []int{0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0}, 3 + 1 + 3},
		{"11 floor", "floor", []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 3 + 1 + 2},
		{"11 ceil", "ceil", []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 4 + 1 + 2},
		{"10 ceil", "ceil", []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, 4 + 1 + 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testRules(FortifySingle)
			r.Reinforce.Rounding = c.rounding
			armies := make([]int, len(c.owner))
			for i := range armies {
				armies[i] = 1
			}
			g := handGame(t, m, r, c.owner, armies)
			assert.Equal(t, c.want0, g.State().Income(0))
		})
	}
}

func TestSetValues(t *testing.T) {
	t.Parallel()
	I, C, A, W := uint8(Infantry), uint8(Cavalry), uint8(Artillery), uint8(Wild)
	fixed := [4]int{4, 6, 8, 10}
	cases := []struct {
		sym   [3]uint8
		valid bool
		fixed int
	}{
		{[3]uint8{I, I, I}, true, 4},
		{[3]uint8{C, C, C}, true, 6},
		{[3]uint8{A, A, A}, true, 8},
		{[3]uint8{I, C, A}, true, 10},
		{[3]uint8{I, I, C}, false, 0},
		{[3]uint8{A, C, C}, false, 0},
		{[3]uint8{I, I, W}, true, 4}, // the wild can only complete three infantry
		{[3]uint8{A, W, W}, true, 10},
		{[3]uint8{C, A, W}, true, 10},
		{[3]uint8{W, W, W}, true, 10},
	}
	for _, c := range cases {
		assert.Equal(t, c.valid, ValidSet(c.sym), "ValidSet(%v)", c.sym)
		if c.valid {
			assert.Equal(t, c.fixed, fixedSetValue(fixed, c.sym), "fixedSetValue(%v)", c.sym)
		}
	}
	assert.False(t, ValidSet([3]uint8{Unknown, Infantry, Cavalry}), "a hidden card forms no set")
	assert.False(t, ValidSet([3]uint8{Unknown, Wild, Wild}), "a hidden card forms no set")
	// Escalating: 4, 6, 8, 10, 12, 15, then +5.
	r := testRules(FortifySingle)
	g := handGame(t, ringMap(1, 3), r, []int{0, 1, 1}, []int{1, 1, 1})
	want := []int{4, 6, 8, 10, 12, 15, 20, 25, 30}
	for k, w := range want {
		g.st.setsTraded = k
		assert.Equal(t, w, g.st.SetValue([3]uint8{I, I, I}), "set %d", k+1)
	}
}

func TestTradeAndBonus(t *testing.T) {
	t.Parallel()
	r := testRules(FortifySingle)
	g := handGame(t, ringMap(1, 4), r, []int{0, 0, 1, 1}, []int{1, 1, 1, 1})
	s := &g.st
	s.hands[0] = append(s.hands[0][:0],
		Card{Territory: 2, Symbol: Infantry}, Card{Territory: 1, Symbol: Cavalry},
		Card{Territory: 3, Symbol: Cavalry}, Card{Territory: -1, Symbol: Wild}, Card{Territory: 0, Symbol: Artillery})
	set, ok := s.bestSet(0)
	require.True(t, ok, "no set found in a 5-card hand")
	// Best: no wild, owns a territory: {inf T2, cav T1, art T0} (bonus on T1 or T0).
	assert.Equal(t, [3]int{0, 1, 4}, set)
	v := g.trade(0, set)
	assert.Equal(t, 4, v, "first escalating set")
	assert.Equal(t, 1, s.setsTraded)
	assert.Equal(t, 3, s.Armies(1), "territory bonus on T1 (the first owned card)")
	assert.Equal(t, 1, s.Armies(0))
	h, _ := g.State().HandOf(nil, 0)
	assert.Equal(t, []Card{{Territory: 3, Symbol: Cavalry}, {Territory: -1, Symbol: Wild}}, h)
	assert.Len(t, s.discard, 3)
	// Invalid sets are rejected.
	s.hands[0] = append(s.hands[0][:0], Card{0, Infantry}, Card{1, Infantry}, Card{2, Cavalry})
	st := g.State()
	assert.EqualError(t, st.CheckTrade(0, [3]int{0, 1, 2}), "cards do not form a set")
	assert.EqualError(t, st.CheckTrade(0, [3]int{0, 0, 2}), "card index 0 used twice")
	assert.EqualError(t, st.CheckTrade(0, [3]int{0, 1, 3}), "card index 3 out of range [0, 3)")
}

// scripted is a player that attacks once with a given order and records
// the occupy bounds it is offered.
type scripted struct {
	BasePlayer
	order    AttackOrder
	done     bool
	lo, hi   int
	armies   int // armies in from when asked to occupy
	occupied bool
	answer   int
}

func (p *scripted) Attack(s *State) (AttackOrder, bool) {
	if p.done {
		return AttackOrder{}, false
	}
	p.done = true
	return p.order, true
}

func (p *scripted) Occupy(s *State, from, to, lo, hi int) int {
	p.lo, p.hi, p.occupied, p.armies = lo, hi, true, s.Armies(from)
	if p.answer != 0 {
		return p.answer
	}
	return lo
}

func TestMoveInBounds(t *testing.T) {
	t.Parallel()
	m := ringMap(1, 3)
	r := testRules(FortifySingle)
	// Attack 10 armies against 1 until conquered: many seeds, the bounds are
	// always [last dice rolled, armies left - 1].
	for seed := uint64(0); seed < 200; seed++ {
		g := handGame(t, m, r, []int{0, 1, 1}, []int{10, 1, 3})
		g.reset(seed)
		g.st.round = 1
		s := &g.st
		setBoard(s, []int{0, 1, 1}, []int{10, 1, 3})
		p := &scripted{order: AttackOrder{From: 0, To: 1, Repeat: true}}
		g.players = []Player{p, &BasePlayer{}}
		var last *Event
		g.Observe(ObserverFunc(func(e *Event) {
			if e.Kind == EvRoll {
				c := *e
				last = &c
			}
		}))
		g.attackPhase(0)
		require.True(t, p.occupied, "seed %d: 10 v 1 never conquered", seed)
		require.Equal(t, [2]int{int(last.NAttack), p.armies - 1}, [2]int{p.lo, p.hi}, "seed %d: occupy bounds", seed)
		require.Equal(t, 0, s.Owner(1), "seed %d", seed)
		require.Equal(t, p.lo, s.Armies(1), "seed %d", seed)
	}
}

func TestOccupyOutOfRangeIsFault(t *testing.T) {
	t.Parallel()
	m := ringMap(1, 3)
	g := handGame(t, m, testRules(FortifySingle), []int{0, 1, 1}, []int{30, 1, 3})
	p := &scripted{order: AttackOrder{From: 0, To: 1, Repeat: true}, answer: 100}
	g.players = []Player{p, &BasePlayer{}}
	g.attackPhase(0)
	assert.Equal(t, 1, g.faults[0])
	assert.Equal(t, p.lo, g.st.Armies(1), "an illegal move-in moves the minimum")
	assert.Equal(t, 0, g.st.Owner(1))
}

func TestSingleRollAndStopAt(t *testing.T) {
	t.Parallel()
	m := ringMap(1, 3)
	for seed := uint64(0); seed < 100; seed++ {
		g := handGame(t, m, testRules(FortifySingle), []int{0, 1, 1}, []int{20, 20, 3})
		g.reset(seed)
		s := &g.st
		setBoard(s, []int{0, 1, 1}, []int{20, 20, 3})
		rolls := 0
		g.Observe(ObserverFunc(func(e *Event) {
			if e.Kind == EvRoll {
				rolls++
			}
		}))
		g.players = []Player{&scripted{order: AttackOrder{From: 0, To: 1, Dice: 2}}, &BasePlayer{}}
		g.attackPhase(0)
		require.Equal(t, 1, rolls, "single roll")
		require.Equal(t, 38, s.Armies(0)+s.Armies(1), "single roll of 2 dice")
		g.players = []Player{&scripted{order: AttackOrder{From: 0, To: 1, Repeat: true, StopAt: 12}}, &BasePlayer{}}
		g.attackPhase(0)
		if s.Owner(1) == 1 {
			require.LessOrEqual(t, s.Armies(0), 12, "repeat with StopAt 12 stopped early with the defender alive")
		}
		require.GreaterOrEqual(t, s.Armies(0), 10, "repeat with StopAt 12 went on")
	}
}

func TestMissions(t *testing.T) {
	t.Parallel()
	m := ringMap(3, 4)
	r := testRules(FortifyOneStep)
	r.End.Win = "missions"
	r.Missions = []Mission{
		{Name: "C0 and C1", Kind: MissionContinents, Continents: []string{"C0", "C1"}},
		{Name: "C2 and one more", Kind: MissionContinents, Continents: []string{"C2"}, Extra: 1},
		{Name: "8 territories", Kind: MissionTerritories, Count: 8, MinArmies: 1},
		{Name: "6 territories with 2", Kind: MissionTerritories, Count: 6, MinArmies: 2},
		{Name: "eliminate", Kind: MissionEliminate},
	}
	g, err := NewGame(m, r, 3)
	require.NoError(t, err)
	wins := 0
	for i := 0; i < 100; i++ {
		res, err := g.Play(newChaos(3, 0), 11, uint64(i))
		require.NoError(t, err)
		checkResult(t, g, res)
		if res.Winner >= 0 {
			wins++
			if g.State().NumAlive() > 1 {
				require.True(t, g.missionDone(res.Winner), "game %d: seat %d won with %d alive but has not completed %q", i, res.Winner,
					g.State().NumAlive(), g.st.rules.Missions[g.st.missions[res.Winner]].Name)
			}
		}
		seen := map[int]bool{}
		for p := 0; p < 3; p++ {
			require.True(t, g.st.missions[p] >= 0 && !seen[g.st.missions[p]], "missions not distinct: %v", g.st.missions)
			seen[g.st.missions[p]] = true
			ms, ok := g.State().MissionOf(p)
			require.True(t, ok, "the observers' State sees every mission")
			tg, _ := g.State().MissionTargetOf(p)
			require.Equal(t, ms.Kind == MissionEliminate, tg >= 0, "seat %d mission %q target %d", p, ms.Name, tg)
			require.NotEqual(t, p, tg)
		}
	}
	assert.GreaterOrEqual(t, wins, 50, "mission games with a winner of 100")
	// Hand-checked mission predicates.
	g = handGame(t, m, r, []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2}, []int{1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1})
	g.st.missions = []int{0, 1, 2}
	g.st.missionTgt = []int{-1, -1, -1}
	assert.True(t, g.missionDone(0), "seat 0 owns C0 and C1 but mission 0 is not done")
	for i, want := range []bool{true, false, true, false} {
		g.st.missions[0] = i
		assert.Equal(t, want, g.missionDone(0), "mission %q", r.Missions[i].Name)
	}
}
