package blocks

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// smallMap is a 7-territory map of two continents:
//
//	A (bonus 2): 0, 1, 2       0-1, 0-2, 1-2
//	B (bonus 3): 3, 4, 5, 6    2-3, 3-4, 3-5, 4-6, 5-6
func smallMap(t testing.TB) *sim.Map {
	t.Helper()
	nb := [][]int{{1, 2}, {0, 2}, {0, 1, 3}, {2, 4, 5}, {3, 6}, {3, 6}, {4, 5}}
	ts := make([]sim.Territory, len(nb))
	for i, n := range nb {
		c := 0
		if i >= 3 {
			c = 1
		}
		ts[i] = sim.Territory{Name: string(rune('a' + i)), Continent: c, Neighbors: n}
	}
	m, err := sim.NewMap("small", []sim.Continent{{Name: "A", Bonus: 2}, {Name: "B", Bonus: 3}}, ts)
	require.NoError(t, err)
	return m
}

// board returns a board of smallMap with the given owners and armies.
func board(t testing.TB, owner, armies []int) *Board {
	t.Helper()
	b := NewBoard(smallMap(t))
	copy(b.Owner, owner)
	copy(b.Armies, armies)
	return b
}

// position1: seat 0 owns 0, 1, 2 and 4; seat 1 owns 3, 5 and 6.
func position1(t testing.TB) *Board {
	return board(t, []int{0, 0, 0, 1, 0, 1, 1}, []int{5, 1, 3, 2, 4, 7, 1})
}

func TestQueries(t *testing.T) {
	t.Parallel()
	b := position1(t)
	assert.Equal(t, 7, b.NumTerritories())
	for _, tc := range []struct {
		p, t   int
		border bool
		enemy  int
		armies int
	}{
		{0, 0, false, 0, 0}, {0, 1, false, 0, 0}, {0, 2, true, 1, 2}, {0, 4, true, 2, 3},
		{1, 3, true, 2, 7}, {1, 5, false, 0, 0}, {1, 6, true, 1, 4}, {1, 0, false, 2, 4},
	} {
		assert.Equal(t, tc.border, b.IsBorder(tc.p, tc.t), "IsBorder(%d, %d)", tc.p, tc.t)
		assert.Equal(t, tc.enemy, b.EnemyNeighbors(tc.p, tc.t), "EnemyNeighbors(%d, %d)", tc.p, tc.t)
		assert.Equal(t, len(b.Map.Neighbors(tc.t))-tc.enemy, b.friendlyNeighbors(tc.p, tc.t), "FriendlyNeighbors(%d, %d)", tc.p, tc.t)
		assert.Equal(t, tc.armies, b.EnemyArmiesAround(tc.p, tc.t), "EnemyArmiesAround(%d, %d)", tc.p, tc.t)
	}
	assert.Equal(t, []int{2, 4}, b.AppendBorder(nil, 0))
	assert.Equal(t, []int{9, 3, 6}, b.AppendBorder([]int{9}, 1))

	owned, size := b.ContinentShare(0, 0)
	assert.Equal(t, [2]int{3, 3}, [2]int{owned, size})
	owned, size = b.ContinentShare(0, 1)
	assert.Equal(t, [2]int{1, 4}, [2]int{owned, size})
	assert.True(t, b.OwnsContinent(0, 0))
	assert.False(t, b.OwnsContinent(0, 1))
	assert.False(t, b.OwnsContinent(1, 1))
	assert.Equal(t, 13, b.TotalArmies(0))
	assert.Equal(t, 10, b.TotalArmies(1))
	assert.Equal(t, 0, b.TotalArmies(2))

	assert.Equal(t, 6, b.WeakestEnemyNeighbor(0, 4))
	assert.Equal(t, 3, b.WeakestEnemyNeighbor(0, 2))
	assert.Equal(t, -1, b.WeakestEnemyNeighbor(0, 0))
	assert.Equal(t, 4, b.strongestOwnedNeighbor(0, 3))
	assert.Equal(t, 3, b.strongestOwnedNeighbor(1, 4))
	assert.Equal(t, -1, b.strongestOwnedNeighbor(1, 1))

	assert.Equal(t, 1, b.WeakestOwned(0))
	assert.Equal(t, 6, b.WeakestOwned(1))
	assert.Equal(t, -1, b.WeakestOwned(2))
	first, second := b.StrongestOwned(0)
	assert.Equal(t, [2]int{0, 4}, [2]int{first, second})
	first, second = b.StrongestOwned(1)
	assert.Equal(t, [2]int{5, 3}, [2]int{first, second})
	first, second = board(t, []int{0, 1, 1, 1, 1, 1, 1}, []int{2, 1, 1, 1, 1, 1, 1}).StrongestOwned(0)
	assert.Equal(t, [2]int{0, -1}, [2]int{first, second})
	// Ties go to the lowest id.
	tie := board(t, []int{0, 0, 0, 1, 1, 1, 1}, []int{3, 3, 3, 1, 1, 1, 1})
	first, second = tie.StrongestOwned(0)
	assert.Equal(t, [2]int{0, 1}, [2]int{first, second})
	assert.Equal(t, 0, tie.WeakestOwned(0))
	assert.Equal(t, 3, tie.WeakestEnemyNeighbor(0, 2))
}

func TestLoad(t *testing.T) {
	t.Parallel()
	g, m, _ := simtest.NewGame(t, "classic", 3)
	var b Board
	checked := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind != sim.EvTurn {
			return
		}
		s := g.State()
		b.Load(s)
		require.Equal(t, s.NumTerritories(), b.NumTerritories())
		for p := range 3 {
			assert.Equal(t, s.TotalArmies(p), b.TotalArmies(p))
			for c := range m.Continents {
				assert.Equal(t, s.OwnsContinent(p, c), b.OwnsContinent(p, c))
			}
		}
		checked++
	}))
	players := []sim.Player{&sim.BasePlayer{}, &sim.BasePlayer{}, &sim.BasePlayer{}}
	_, err := g.Play(players, 1, 0)
	require.NoError(t, err)
	assert.Positive(t, checked)
}

func TestSearch(t *testing.T) {
	t.Parallel()
	b := position1(t)
	var r Search
	assert.Equal(t, []int{0, 1, 2}, r.component(b, 0, 0))
	assert.Equal(t, []int{2, 0, 1}, r.component(b, 0, 2))
	assert.Equal(t, []int{4}, r.component(b, 0, 4))
	assert.Equal(t, []int{3, 5, 6}, r.component(b, 1, 3))
	assert.True(t, r.connected(b, 0, 0, 2))
	assert.True(t, r.connected(b, 0, 1, 1))
	assert.False(t, r.connected(b, 0, 0, 4))
	assert.True(t, r.Linked(b, sim.FortifySingle, 0, 0, 2))
	assert.False(t, r.Linked(b, sim.FortifySingle, 0, 0, 4))
	assert.False(t, r.Linked(b, sim.FortifyOneStep, 1, 3, 6))
	assert.True(t, r.Linked(b, sim.FortifyConnected, 1, 3, 6))
	assert.False(t, r.Linked(b, sim.FortifyConnected, 0, 0, 4))
	assert.Equal(t, []int{2}, r.appendClusterBorder(nil, b, 0, 1))
	assert.Equal(t, []int{4}, r.appendClusterBorder(nil, b, 0, 4))
	assert.Equal(t, []int{3, 6}, r.appendClusterBorder(nil, b, 1, 5))
}

// TestSearchIsTheEngines: at every turn of a game under each fortify
// rule, Linked says what the engine's check (sim.State.CheckMoves) says of
// a one-army move, Component is sim.OwnedPaths.Component, a cluster border
// is the border territories of the component, and the attack blocks
// choose attacks the engine accepts (BestRatioAttack the best of
// sim.State.LegalAttacks).
func TestSearchIsTheEngines(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	for _, name := range []string{"classic", "mars2006", "fixedcards"} {
		t.Run(name, func(t *testing.T) {
			rules, err := sim.LoadRules(name)
			require.NoError(t, err)
			g, err := sim.NewGame(m, rules, 3)
			require.NoError(t, err)
			var (
				b          Board
				r          Search
				paths      sim.OwnedPaths
				comp, want []int
				checked    int
			)
			g.Observe(sim.ObserverFunc(func(e *sim.Event) {
				if e.Kind != sim.EvTurn {
					return
				}
				s := g.State()
				b.Load(s)
				mode := s.Rules().Fortify.Mode
				for p := range 3 {
					// The attack blocks choose among the engine's legal attacks.
					legal := s.LegalAttacks(p, nil)
					from, to, ratio, ok := BestRatioAttack(&b, p)
					require.Equal(t, len(legal) > 0, ok)
					if ok {
						require.NoError(t, s.CheckAttack(p, sim.AttackOrder{From: from, To: to}))
						for _, o := range legal {
							assert.LessOrEqual(t, float64(b.Armies[o.From])/float64(b.Armies[o.To]), ratio)
						}
					}
					for _, block := range []func(*Board, int) (int, int, bool){easyExpand, fillOut} {
						if from, to, ok := block(&b, p); ok {
							require.NoError(t, s.CheckAttack(p, sim.AttackOrder{From: from, To: to}))
						}
					}
					if from, ok := splitUp(&b, p, 1); ok {
						for _, to := range m.Neighbors(from) {
							if b.Owner[to] != p {
								require.NoError(t, s.CheckAttack(p, sim.AttackOrder{From: from, To: to}))
							}
						}
					}
					for a := range b.Owner {
						comp = paths.Component(s, p, a, comp[:0])
						assert.Equal(t, comp, r.component(&b, p, a))
						if b.Owner[a] != p {
							continue
						}
						want = want[:0]
						for _, u := range comp {
							if b.IsBorder(p, u) {
								want = append(want, u)
							}
						}
						slices.Sort(want)
						assert.Equal(t, want, r.appendClusterBorder(nil, &b, p, a))
						if b.Armies[a] < 2 {
							continue
						}
						for c, o := range b.Owner {
							if o != p || c == a {
								continue
							}
							legal := s.CheckMoves(p, []sim.Move{{From: a, To: c, Armies: 1}}) == nil
							require.Equal(t, legal, r.Linked(&b, mode, p, a, c), "%s: seat %d, %d->%d", mode, p, a, c)
							checked++
						}
					}
				}
			}))
			players := []sim.Player{&sim.BasePlayer{}, &sim.BasePlayer{}, &sim.BasePlayer{}}
			_, err = g.Play(players, 3, 0)
			require.NoError(t, err)
			assert.Positive(t, checked)
		})
	}
}

func TestRouteToContinent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		owner, armies []int
		p, c          int
		route         []int
		cost          int
		ok            bool
	}{
		{"one step", []int{0, 0, 0, 1, 0, 1, 1}, []int{5, 1, 3, 2, 4, 7, 1}, 1, 0, []int{3, 2}, 3, true},
		{"owned inside", []int{0, 0, 0, 1, 0, 1, 1}, []int{5, 1, 3, 2, 4, 7, 1}, 0, 1, []int{4}, 0, true},
		{"cheap detour", []int{0, 0, 0, 1, 1, 1, 2}, []int{5, 1, 3, 2, 4, 7, 1}, 2, 0, []int{6, 4, 3, 2}, 9, true},
		{"other detour", []int{0, 0, 0, 1, 1, 1, 2}, []int{5, 1, 3, 2, 9, 3, 1}, 2, 0, []int{6, 5, 3, 2}, 8, true},
		{"no territory", []int{0, 0, 0, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1, 1, 1}, 2, 0, nil, 0, false},
	}
	var r Search
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := board(t, tt.owner, tt.armies)
			route, cost, ok := r.RouteToContinent(nil, b, tt.p, tt.c)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.route, route)
			assert.Equal(t, tt.cost, cost)
		})
	}
	// The route is appended to dst.
	route, _, _ := r.RouteToContinent([]int{-7}, position1(t), 1, 0)
	assert.Equal(t, []int{-7, 3, 2}, route)
}

func TestFortifyTowardFront(t *testing.T) {
	t.Parallel()
	var r Search
	b := position1(t)
	assert.Equal(t, []sim.Move{{From: 0, To: 2, Armies: 4}}, r.FortifyTowardFront(nil, b, 0))
	// Seat 1's only interior territory, 5, moves to the front at 3.
	assert.Equal(t, []sim.Move{{From: 5, To: 3, Armies: 6}}, r.FortifyTowardFront(nil, b, 1))

	// A chain: the front is 3; 2 is one step behind, 0 and 1 two.
	b = board(t, []int{0, 0, 0, 0, 1, 1, 1}, []int{5, 3, 3, 1, 1, 1, 1})
	got := r.FortifyTowardFront(nil, b, 0)
	assert.Equal(t, []sim.Move{{From: 0, To: 2, Armies: 4}, {From: 1, To: 2, Armies: 2}, {From: 2, To: 3, Armies: 2}}, got)
	// Every move goes to a neighbour nearer the front and leaves one army.
	for _, mv := range got {
		assert.True(t, b.Map.Adjacent(mv.From, mv.To))
		assert.Equal(t, b.Armies[mv.From]-1, mv.Armies)
	}
	// A player owning the whole board has no front and makes no move.
	all := board(t, []int{0, 0, 0, 0, 0, 0, 0}, []int{5, 5, 5, 5, 5, 5, 5})
	assert.Empty(t, r.FortifyTowardFront(nil, all, 0))
}

func TestFortifyTowardFrontLegal(t *testing.T) {
	t.Parallel()
	// The moves are accepted by the engine under the one-step rule: a
	// player whose Fortify is FortifyTowardFront never faults.
	g, _, r := simtest.NewGame(t, "mars2006", 3)
	require.Equal(t, sim.FortifyOneStep, r.Fortify.Mode)
	moves := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvMove {
			moves++
		}
	}))
	ps := []sim.Player{&frontPlayer{}, &frontPlayer{}, &frontPlayer{}}
	res, err := g.Play(ps, 7, 0)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0, 0}, res.Faults)
	assert.Positive(t, moves)
}

// frontPlayer places on its weakest border territory, attacks with easy
// expand and fill out, and fortifies toward its front.
type frontPlayer struct {
	sim.BasePlayer
	b      Board
	r      Search
	border []int
}

func (f *frontPlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	f.b.Load(s)
	f.border = f.b.AppendBorder(f.border[:0], f.Seat)
	best := f.border[0]
	for _, t := range f.border {
		if f.b.Armies[t] < f.b.Armies[best] {
			best = t
		}
	}
	return append(buf, sim.Placement{Territory: best, Armies: armies})
}

func (f *frontPlayer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	f.b.Load(s)
	if from, to, ok := easyExpand(&f.b, f.Seat); ok {
		return sim.AttackOrder{From: from, To: to, Repeat: true}, true
	}
	if from, to, ok := fillOut(&f.b, f.Seat); ok {
		return sim.AttackOrder{From: from, To: to, Repeat: true}, true
	}
	return sim.AttackOrder{}, false
}

func (f *frontPlayer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	f.b.Load(s)
	return f.r.FortifyTowardFront(buf, &f.b, f.Seat)
}

func TestMoves(t *testing.T) {
	t.Parallel()
	b := position1(t)
	from, to, ok := easyExpand(b, 0)
	assert.Equal(t, []any{2, 3, true}, []any{from, to, ok})
	from, to, ok = easyExpand(b, 1)
	assert.Equal(t, []any{-1, -1, false}, []any{from, to, ok}, "3 has two enemy neighbours, 5 none, 6 one army")

	from, to, ok = fillOut(b, 1)
	assert.Equal(t, []any{-1, -1, false}, []any{from, to, ok}, "4 is surrounded by seat 1 but outnumbers 3 and 6")
	b.Armies[3] = 6
	from, to, ok = fillOut(b, 1)
	assert.Equal(t, []any{3, 4, true}, []any{from, to, ok})
	from, to, ok = fillOut(b, 0)
	assert.Equal(t, []any{-1, -1, false}, []any{from, to, ok})

	b = position1(t)
	from, to, ratio, ok := BestRatioAttack(b, 0)
	assert.Equal(t, []any{4, 6, 4.0, true}, []any{from, to, ratio, ok})
	// Seat 1 attacks only from 3 (5 has no enemy neighbour, 6 one army):
	// 2/3 on territory 2 beats 2/4 on territory 4.
	from, to, ratio, ok = BestRatioAttack(b, 1)
	assert.True(t, ok)
	assert.Equal(t, 3, from)
	assert.Equal(t, 2, to)
	assert.InDelta(t, 2.0/3, ratio, 1e-12)
	from, to, ratio, ok = BestRatioAttack(board(t, []int{0, 0, 0, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1, 1, 1}), 0)
	assert.Equal(t, []any{-1, -1, 0.0, false}, []any{from, to, ratio, ok})
}

func TestConsolidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		owner, armies []int
		attackers     []int
		target        int
		ok            bool
	}{
		// 2 has three enemy neighbours (0, 1, 3); 4 and 5 have only 3, but
		// can attack with 2+0 armies, not more than 3's 4.
		{"too weak", []int{1, 1, 0, 1, 0, 0, 0}, []int{1, 1, 3, 4, 3, 1, 1}, []int{-1}, -1, false},
		{"two", []int{1, 1, 0, 1, 0, 0, 0}, []int{1, 1, 3, 4, 3, 5, 1}, []int{-1, 4, 5}, 3, true},
		// 3 is seat 0's only enemy: 2, 4 and 5 attack with 2+2+1 > 4.
		{"three", []int{0, 0, 0, 1, 0, 0, 0}, []int{1, 1, 3, 4, 3, 2, 1}, []int{-1, 2, 4, 5}, 3, true},
		{"three too weak", []int{0, 0, 0, 1, 0, 0, 0}, []int{1, 1, 3, 4, 3, 1, 1}, []int{-1}, -1, false},
		// One territory is not enough, however strong.
		{"one", []int{0, 0, 0, 1, 1, 1, 1}, []int{1, 1, 9, 1, 1, 1, 1}, []int{-1}, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, target, ok := consolidate([]int{-1}, board(t, tt.owner, tt.armies), 0)
			assert.Equal(t, tt.attackers, got)
			assert.Equal(t, tt.target, target)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

func TestSplitUp(t *testing.T) {
	t.Parallel()
	// Seat 0's border: 2 (3 armies) faces 2 armies, 4 (4 armies) faces 2+1;
	// seat 1's: 3 (2 armies) faces 3+4, 5 faces none, 6 has one army.
	b := position1(t)
	tests := []struct {
		p    int
		r    float64
		from int
		ok   bool
	}{
		{0, 1.2, 2, true},   // 3 > 2.4
		{0, 1.45, 2, true},  // 3 > 2.9
		{0, 1.5, -1, false}, // 3 is not more than 3; 4 < 4.5
		{1, 0.1, 3, true},   // 2 > 0.7
		{1, 0.3, -1, false}, // 2 < 2.1
	}
	for _, tt := range tests {
		from, ok := splitUp(b, tt.p, tt.r)
		assert.Equal(t, tt.from, from, "SplitUp(%d, %v)", tt.p, tt.r)
		assert.Equal(t, tt.ok, ok, "SplitUp(%d, %v)", tt.p, tt.r)
	}
	b.Armies[4] = 8 // 8 > 1.5*3
	from, ok := splitUp(b, 0, 1.5)
	assert.Equal(t, 4, from)
	assert.True(t, ok)
}

func TestNoAllocs(t *testing.T) {
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	b := NewBoard(m)
	for i := range b.Owner {
		b.Owner[i], b.Armies[i] = i%3, 1+i%5
	}
	var r Search
	buf := make([]int, 0, m.NumTerritories())
	moves := make([]sim.Move, 0, m.NumTerritories())
	r.component(b, 0, 0) // size the buffers
	allocs := testing.AllocsPerRun(50, func() {
		buf = b.AppendBorder(buf[:0], 0)
		r.component(b, 1, 1)
		r.appendClusterBorder(buf[:0], b, 2, 2)
		buf, _, _ = r.RouteToContinent(buf[:0], b, 0, 3)
		moves = r.FortifyTowardFront(moves[:0], b, 1)
		easyExpand(b, 0)
		fillOut(b, 1)
		buf, _, _ = consolidate(buf[:0], b, 2)
		splitUp(b, 0, 1.2)
		BestRatioAttack(b, 2)
	})
	assert.Zero(t, allocs)
}

// scanRoute is the cheapest route by the definition of
// Search.RouteToContinent, searched the plain way: Dijkstra's search with a
// linear scan for the cheapest unsettled territory (the lowest id among
// equals), stopping at the first territory of c settled.
func scanRoute(b *Board, p, c int) (route []int, cost int, ok bool) {
	n := b.NumTerritories()
	const inf = int(^uint(0) >> 1)
	dist, prev, done := make([]int, n), make([]int, n), make([]bool, n)
	for t := range n {
		dist[t], prev[t] = inf, -1
		if b.Owner[t] == p {
			dist[t] = 0
		}
	}
	for {
		u := -1
		for t := range n {
			if !done[t] && dist[t] < inf && (u < 0 || dist[t] < dist[u]) {
				u = t
			}
		}
		if u < 0 {
			return nil, 0, false
		}
		done[u] = true
		if b.Map.Territories[u].Continent == c {
			for t := u; t >= 0; t = prev[t] {
				route = append(route, t)
			}
			slices.Reverse(route)
			return route, dist[u], true
		}
		for _, v := range b.Map.Territories[u].Neighbors {
			if b.Owner[v] != p && !done[v] && dist[u]+b.Armies[v] < dist[v] {
				dist[v], prev[v] = dist[u]+b.Armies[v], u
			}
		}
	}
}

// TestRoutesMatchScan checks RouteToContinent and routesInto/route against
// scanRoute on random positions of the classic map (armies 0..5, so that
// ties in cost abound), for every seat and continent, with and without a
// cost bound and a continent set.
func TestRoutesMatchScan(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	b := NewBoard(m)
	rng := rand.New(rand.NewPCG(3, 4))
	var r Search
	const noBound = int(^uint(0) >> 1)
	routes := 0
	for range 200 {
		for i := range b.Owner {
			b.Owner[i], b.Armies[i] = rng.IntN(4), rng.IntN(6)
		}
		for p := range 5 { // seat 4 owns nothing
			for c := range m.Continents {
				want, wantCost, wantOK := scanRoute(b, p, c)
				route, cost, ok := r.RouteToContinent(nil, b, p, c)
				require.Equal(t, wantOK, ok)
				require.Equal(t, want, route)
				require.Equal(t, wantCost, cost)
				if ok {
					routes++
				}
			}
			below := 1 + rng.IntN(12)
			some := 1 + uint64(rng.IntN(1<<len(m.Continents)-1))
			for _, bound := range []int{noBound, below} {
				for _, into := range []uint64{0, some} {
					r.routesInto(b, p, bound, into)
					for c := range m.Continents {
						if into != 0 && into&(1<<c) == 0 {
							continue
						}
						want, wantCost, wantOK := scanRoute(b, p, c)
						if wantOK && wantCost >= bound {
							want, wantCost, wantOK = nil, 0, false
						}
						route, cost, ok := r.route(nil, c)
						require.Equal(t, wantOK, ok, "p %d c %d below %d into %b", p, c, bound, into)
						require.Equal(t, want, route)
						require.Equal(t, wantCost, cost)
					}
				}
			}
		}
	}
	assert.Greater(t, routes, 2000)
}
