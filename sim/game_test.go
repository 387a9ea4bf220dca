package sim

import (
	"fmt"
	"hash/fnv"
	"testing"
)

// checkResult checks a Result against the final state.
func checkResult(t *testing.T, g *Game, res Result) {
	t.Helper()
	s := g.State()
	seen := make([]bool, g.n+1)
	for p, r := range res.Placement {
		if r < 1 || r > g.n || seen[r] {
			t.Fatalf("placements %v are not a permutation (seat %d)", res.Placement, p)
		}
		seen[r] = true
	}
	if res.Winner >= 0 {
		if res.Placement[res.Winner] != 1 || res.Stalemate {
			t.Fatalf("winner %d placed %d, stalemate %v", res.Winner, res.Placement[res.Winner], res.Stalemate)
		}
		if s.Rules().End.Win == "domination" && s.TerritoryCount(res.Winner) != s.NumTerritories() {
			t.Fatalf("winner owns %d of %d territories", s.TerritoryCount(res.Winner), s.NumTerritories())
		}
	} else if !res.Stalemate || res.Rounds != s.Rules().End.RoundLimit {
		t.Fatalf("no winner but stalemate=%v after %d rounds", res.Stalemate, res.Rounds)
	}
	for i, p := range res.Eliminated {
		if s.Alive(p) || s.TerritoryCount(p) != 0 {
			t.Fatalf("eliminated seat %d still alive", p)
		}
		if res.Placement[p] != g.n-i {
			t.Fatalf("seat %d eliminated %d-th placed %d", p, i+1, res.Placement[p])
		}
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
	m := ringMap(3, 5)
	r := testRules(FortifyOneStep)
	run := func(seed, index uint64) uint64 {
		g, err := NewGame(m, r, 4)
		if err != nil {
			t.Fatal(err)
		}
		h := &eventHash{}
		g.Observe(h)
		// Play another game first: state left over from it must not matter.
		if _, err := g.Play(newChaos(4, 0.02), seed+1, index); err != nil {
			t.Fatal(err)
		}
		h.h = 0
		if _, err := g.Play(newChaos(4, 0.02), seed, index); err != nil {
			t.Fatal(err)
		}
		return h.h
	}
	a, b := run(7, 3), run(7, 3)
	if a != b {
		t.Fatalf("same seed, different games: %x != %x", a, b)
	}
	if c := run(7, 4); c == a {
		t.Fatalf("different game index gave the same game")
	}
	if GameSeed(1, 2) == GameSeed(2, 1) || GameSeed(0, 0) == GameSeed(0, 1) {
		t.Fatal("GameSeed collides on swapped inputs")
	}
}

func TestWrongPlayerCount(t *testing.T) {
	g, err := NewGame(ringMap(2, 3), testRules(FortifySingle), 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play(newChaos(2, 0), 1, 1); err == nil {
		t.Fatal("Play accepted 2 players for 3 seats")
	}
	if _, err := NewGame(ringMap(2, 3), testRules(FortifySingle), 7); err == nil {
		t.Fatal("NewGame accepted 7 players")
	}
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
	if err != nil {
		t.Fatal(err)
	}
	g.reset(1)
	s := &g.st
	for tt := range owner {
		s.owner[tt] = int8(owner[tt])
		s.armies[tt] = int32(armies[tt])
		s.territories[owner[tt]]++
		s.totalArmies[owner[tt]] += armies[tt]
	}
	s.round = 1
	return g
}

func TestIncome(t *testing.T) {
	// 3 rings of 4: continent c has bonus c+1.
	m := ringMap(3, 4)
	cases := []struct {
		name     string
		rounding string
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
			if got := g.State().Income(0); got != c.want0 {
				t.Fatalf("Income = %d, want %d", got, c.want0)
			}
		})
	}
}

func TestSetValues(t *testing.T) {
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
		if got := ValidSet(c.sym); got != c.valid {
			t.Errorf("ValidSet(%v) = %v", c.sym, got)
		}
		if c.valid {
			if got := fixedSetValue(fixed, c.sym); got != c.fixed {
				t.Errorf("fixedSetValue(%v) = %d, want %d", c.sym, got, c.fixed)
			}
		}
	}
	// Escalating: 4, 6, 8, 10, 12, 15, then +5.
	r := testRules(FortifySingle)
	g := handGame(t, ringMap(1, 3), r, []int{0, 1, 1}, []int{1, 1, 1})
	want := []int{4, 6, 8, 10, 12, 15, 20, 25, 30}
	for k, w := range want {
		g.st.setsTraded = k
		if got := g.st.SetValue([3]uint8{I, I, I}); got != w {
			t.Errorf("set %d worth %d, want %d", k+1, got, w)
		}
	}
}

func TestTradeAndBonus(t *testing.T) {
	r := testRules(FortifySingle)
	g := handGame(t, ringMap(1, 4), r, []int{0, 0, 1, 1}, []int{1, 1, 1, 1})
	s := &g.st
	s.hands[0] = append(s.hands[0][:0],
		Card{Territory: 2, Symbol: Infantry}, Card{Territory: 1, Symbol: Cavalry},
		Card{Territory: 3, Symbol: Cavalry}, Card{Territory: -1, Symbol: Wild}, Card{Territory: 0, Symbol: Artillery})
	set, ok := s.bestSet(0)
	if !ok {
		t.Fatal("no set found in a 5-card hand")
	}
	// Best: no wild, owns a territory: {inf T2, cav T1, art T0} (bonus on T1 or T0).
	if set != [3]int{0, 1, 4} {
		t.Fatalf("BestSet = %v, want [0 1 4]", set)
	}
	v := g.trade(0, set)
	if v != 4 || s.setsTraded != 1 {
		t.Fatalf("first escalating set worth %d (sets %d)", v, s.setsTraded)
	}
	if s.Armies(1) != 3 || s.Armies(0) != 1 {
		t.Fatalf("territory bonus: armies %d %d, want T1=3 (first owned card), T0=1", s.Armies(0), s.Armies(1))
	}
	if h, _ := g.State().HandOf(nil, 0); len(h) != 2 || h[0].Territory != 3 || h[1].Symbol != Wild {
		t.Fatalf("hand after trade: %v", h)
	}
	if len(s.discard) != 3 {
		t.Fatalf("discard has %d cards", len(s.discard))
	}
	// Invalid sets are rejected.
	s.hands[0] = append(s.hands[0][:0], Card{0, Infantry}, Card{1, Infantry}, Card{2, Cavalry})
	if err := s.checkSet(0, [3]int{0, 1, 2}); err == nil {
		t.Fatal("checkSet accepted two infantry and a cavalry")
	}
	if err := s.checkSet(0, [3]int{0, 0, 2}); err == nil {
		t.Fatal("checkSet accepted a card used twice")
	}
	if err := s.checkSet(0, [3]int{0, 1, 3}); err == nil {
		t.Fatal("checkSet accepted an index out of range")
	}
}

func TestFortifyValidation(t *testing.T) {
	// One ring of 6: territories 0..5, i adjacent to i+-1 mod 6.
	m := ringMap(1, 6)
	owner := []int{0, 0, 0, 1, 0, 0}
	armies := []int{5, 3, 1, 2, 4, 1}
	cases := []struct {
		mode  string
		moves []Move
		ok    bool
	}{
		{FortifySingle, []Move{{0, 1, 4}}, true},
		{FortifySingle, []Move{{0, 1, 5}}, false},            // must leave one
		{FortifySingle, []Move{{0, 2, 1}}, false},            // not adjacent
		{FortifySingle, []Move{{0, 1, 1}, {1, 2, 1}}, false}, // one move only
		{FortifySingle, []Move{{2, 3, 0}}, false},            // enemy, zero
		{FortifySingle, []Move{{0, 1, 0}}, false},
		{FortifyConnected, []Move{{0, 2, 4}}, true},  // 0-1-2 owned
		{FortifyConnected, []Move{{1, 4, 2}}, true},  // 1-0-5-4 owned
		{FortifyConnected, []Move{{2, 4, 0}}, false}, // zero armies
		{FortifyConnected, []Move{{0, 3, 1}}, false}, // enemy
		{FortifyOneStep, []Move{{0, 1, 2}, {0, 5, 2}, {1, 2, 2}, {4, 5, 3}}, true},
		{FortifyOneStep, []Move{{0, 1, 2}, {0, 5, 3}}, false}, // 5 out of 5
		{FortifyOneStep, []Move{{0, 1, 4}, {1, 2, 3}}, false}, // arrivals cannot move on
		{FortifyOneStep, []Move{{0, 2, 1}}, false},            // two steps
		{FortifyOneStep, []Move{{2, 1, 1}}, false},            // 2 has 1 army
	}
	for i, c := range cases {
		g := handGame(t, m, testRules(c.mode), owner, armies)
		err := g.State().CheckMoves(0, c.moves)
		if (err == nil) != c.ok {
			t.Errorf("case %d %s %v: ok=%v, error %v", i, c.mode, c.moves, err == nil, err)
		}
	}
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
	m := ringMap(1, 3)
	r := testRules(FortifySingle)
	// Attack 10 armies against 1 until conquered: many seeds, the bounds are
	// always [last dice rolled, armies left - 1].
	for seed := uint64(0); seed < 200; seed++ {
		g := handGame(t, m, r, []int{0, 1, 1}, []int{10, 1, 3})
		g.reset(seed)
		g.st.round = 1
		s := &g.st
		for tt, o := range []int{0, 1, 1} {
			s.owner[tt] = int8(o)
		}
		copy(s.armies, []int32{10, 1, 3})
		s.territories[0], s.territories[1] = 1, 2
		s.totalArmies[0], s.totalArmies[1] = 10, 4
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
		if !p.occupied {
			t.Fatalf("seed %d: 10 v 1 never conquered", seed)
		}
		if p.lo != int(last.NAttack) || p.hi != p.armies-1 {
			t.Fatalf("seed %d: occupy bounds [%d,%d], last roll %d dice", seed, p.lo, p.hi, last.NAttack)
		}
		if s.Owner(1) != 0 || s.Armies(1) != p.lo {
			t.Fatalf("seed %d: territory 1 owner %d armies %d", seed, s.Owner(1), s.Armies(1))
		}
	}
}

func TestOccupyOutOfRangeIsFault(t *testing.T) {
	m := ringMap(1, 3)
	g := handGame(t, m, testRules(FortifySingle), []int{0, 1, 1}, []int{30, 1, 3})
	p := &scripted{order: AttackOrder{From: 0, To: 1, Repeat: true}, answer: 100}
	g.players = []Player{p, &BasePlayer{}}
	g.attackPhase(0)
	if g.faults[0] != 1 {
		t.Fatalf("faults = %d, want 1", g.faults[0])
	}
	if g.st.Armies(1) != p.lo || g.st.Owner(1) != 0 {
		t.Fatalf("illegal move-in: territory 1 has %d armies (min %d)", g.st.Armies(1), p.lo)
	}
}

func TestSingleRollAndStopAt(t *testing.T) {
	m := ringMap(1, 3)
	for seed := uint64(0); seed < 100; seed++ {
		g := handGame(t, m, testRules(FortifySingle), []int{0, 1, 1}, []int{20, 20, 3})
		g.reset(seed)
		s := &g.st
		for tt, o := range []int{0, 1, 1} {
			s.owner[tt] = int8(o)
		}
		copy(s.armies, []int32{20, 20, 3})
		s.territories[0], s.territories[1] = 1, 2
		s.totalArmies[0], s.totalArmies[1] = 20, 23
		rolls := 0
		g.Observe(ObserverFunc(func(e *Event) {
			if e.Kind == EvRoll {
				rolls++
			}
		}))
		g.players = []Player{&scripted{order: AttackOrder{From: 0, To: 1, Dice: 2}}, &BasePlayer{}}
		g.attackPhase(0)
		if rolls != 1 || s.Armies(0)+s.Armies(1) != 38 {
			t.Fatalf("single roll: %d rolls, armies %d+%d", rolls, s.Armies(0), s.Armies(1))
		}
		g.players = []Player{&scripted{order: AttackOrder{From: 0, To: 1, Repeat: true, StopAt: 12}}, &BasePlayer{}}
		g.attackPhase(0)
		if s.Owner(1) == 1 && s.Armies(0) > 12 {
			t.Fatalf("repeat with StopAt 12 stopped at %d armies with the defender alive", s.Armies(0))
		}
		if s.Armies(0) < 10 {
			t.Fatalf("repeat with StopAt 12 went on to %d armies", s.Armies(0))
		}
	}
}

func TestMissions(t *testing.T) {
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
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for i := 0; i < 100; i++ {
		res, err := g.Play(newChaos(3, 0), 11, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, g, res)
		if res.Winner >= 0 {
			wins++
			if g.State().NumAlive() > 1 && !g.missionDone(res.Winner) {
				t.Fatalf("game %d: seat %d won with %d alive but has not completed %q", i, res.Winner,
					g.State().NumAlive(), g.st.rules.Missions[g.st.missions[res.Winner]].Name)
			}
		}
		seen := map[int]bool{}
		for p := 0; p < 3; p++ {
			if g.st.missions[p] < 0 || seen[g.st.missions[p]] {
				t.Fatalf("missions not distinct: %v", g.st.missions)
			}
			seen[g.st.missions[p]] = true
			ms, _ := g.State().MissionOf(p)
			if tg, _ := g.State().MissionTargetOf(p); (ms.Kind == MissionEliminate) != (tg >= 0) || tg == p {
				t.Fatalf("seat %d mission %q target %d", p, ms.Name, tg)
			}
		}
	}
	if wins < 50 {
		t.Fatalf("only %d of 100 mission games had a winner", wins)
	}
	// Hand-checked mission predicates.
	g = handGame(t, m, r, []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2}, []int{1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1})
	g.st.missions = []int{0, 1, 2}
	g.st.missionTgt = []int{-1, -1, -1}
	if !g.missionDone(0) {
		t.Error("seat 0 owns C0 and C1 but mission 0 is not done")
	}
	for i, want := range []bool{true, false, true, false} {
		g.st.missions[0] = i
		if got := g.missionDone(0); got != want {
			t.Errorf("mission %q done = %v, want %v", r.Missions[i].Name, got, want)
		}
	}
}
