package blocks

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// attack is an attack's ends and whether a block found it.
type attack struct {
	from, to int
	ok       bool
}

// TestDominates: the condition of the Lux "hog wild" block
// (SmartAgentBase.hogWildCheck): seat 0's armies above all others' together.
func TestDominates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		owner, armies []int
		want          bool
	}{
		{[]int{0, 0, 0, 1, 0, 1, 1}, []int{5, 1, 3, 2, 4, 7, 1}, true},
		{[]int{1, 1, 1, 0, 0, 0, 1}, []int{1, 1, 5, 1, 3, 3, 3}, false},
		// A tie is no majority.
		{[]int{1, 1, 0, 0, 0, 0, 0}, []int{10, 10, 5, 5, 5, 4, 1}, false},
	} {
		assert.Equal(t, tc.want, Dominates(board(t, tc.owner, tc.armies), 0), "%v %v", tc.owner, tc.armies)
	}
}

func TestAttackForCard(t *testing.T) {
	t.Parallel()
	b := position1(t) // best ratio: 4 (4 armies) on 6 (1), 4:1
	for _, tc := range []struct {
		k    float64
		want attack
	}{{1, attack{4, 6, true}}, {3.9, attack{4, 6, true}}, {4, attack{-1, -1, false}}} {
		from, to, ok := attackForCard(b, 0, tc.k)
		assert.Equal(t, tc.want, attack{from, to, ok}, "k=%v", tc.k)
	}
}

func TestPlaceToTakeContinent(t *testing.T) {
	t.Parallel()
	var r Search
	// Seat 0 owns A (0, 1, 2; border 2) and 4; seat 1 the rest.
	b := position1(t)
	pl, _, ok := placeToTakeContinent(nil, nil, &r, b, 0, 0, 3)
	require.True(t, ok)
	assert.Equal(t, []sim.Placement{{Territory: 2, Armies: 3}}, pl, "owned continent: its exposed border")
	// Seat 0 holds 4 in B, facing 3 and 6 in B: everything there.
	pl, _, ok = placeToTakeContinent(nil, nil, &r, b, 0, 1, 5)
	require.True(t, ok)
	assert.Equal(t, []sim.Placement{{Territory: 4, Armies: 5}}, pl)
	// Seat 1 holds nothing in A: the cheapest route starts at 3, next to 2.
	pl, _, ok = placeToTakeContinent(nil, nil, &r, b, 1, 0, 4)
	require.True(t, ok)
	assert.Equal(t, []sim.Placement{{Territory: 3, Armies: 4}}, pl)
	// Seat 2 owns nothing.
	pl, _, ok = placeToTakeContinent(nil, nil, &r, b, 2, 0, 4)
	assert.False(t, ok)
	assert.Empty(t, pl)
}

func TestPlaceOnClusterBorder(t *testing.T) {
	t.Parallel()
	var r Search
	// Seat 1 owns 3 (2), 5 (7) and 6 (1): the cluster border is 3 and 6.
	b := position1(t)
	pl, border := placeOnClusterBorder(nil, nil, &r, b, 1, 5, 4)
	assert.Equal(t, []int{3, 6}, border)
	// 6 (1) takes one, then 3 (2) and 6 (2) alternate from the lower id.
	assert.Equal(t, []sim.Placement{{Territory: 6, Armies: 2}, {Territory: 3, Armies: 2}}, pl)
	// 300 armies go in steps of 3.
	pl, _ = placeOnClusterBorder(nil, border, &r, b, 1, 5, 300)
	total := 0
	for _, p := range pl {
		total += p.Armies
		assert.Zero(t, p.Armies%3)
	}
	assert.Equal(t, 300, total)
}

func TestFortifyCluster(t *testing.T) {
	t.Parallel()
	var r Search
	// Seat 0 owns 0 (5), 1 (4) inside A, 2 (3) on its border, and 4 alone in B.
	b := board(t, []int{0, 0, 0, 1, 0, 1, 1}, []int{5, 4, 3, 2, 4, 7, 1})
	assert.Equal(t, []sim.Move{{From: 0, To: 2, Armies: 4}, {From: 1, To: 2, Armies: 3}}, fortifyCluster(nil, &r, b, 0, 2))
	assert.Empty(t, fortifyCluster(nil, &r, b, 0, 4), "4's cluster is all border")
}

// forkPosition returns the map testdata/fork.toml, the classic rules and
// the position testdata/fork-3.toml.
func forkPosition(t *testing.T) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	m, r, pos := simtest.LoadPosition(t, "testdata/fork.toml", "classic", "testdata/fork-3.toml")
	return m, r, pos
}

// forkState returns seat 0's State at testdata/fork-3.toml.
func forkState(t *testing.T) *sim.State {
	t.Helper()
	m, r, pos := forkPosition(t)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return s
}

func TestDominantPlayer(t *testing.T) {
	t.Parallel()
	s := forkState(t)
	assert.Equal(t, 1, dominantPlayer(s, 0), "seat 1 holds half the territories")
	assert.Equal(t, 1, dominantPlayer(s, 2))
	assert.Equal(t, -1, dominantPlayer(s, 1), "seat 0 holds 7 of 18 armies, a third of the income")
}

func TestKillDominant(t *testing.T) {
	t.Parallel()
	var r Search
	// Seat 1 owns B (3..6, 3 armies each); seat 0 owns A, 2 holding 8.
	b := board(t, []int{0, 0, 0, 1, 1, 1, 1}, []int{1, 1, 8, 3, 3, 3, 3})
	at, _, ok := killDominantPlace(nil, &r, b, 0, 1)
	require.True(t, ok)
	assert.Equal(t, 2, at)
	from, to, _, ok := killDominantAttack(nil, &r, b, 0, 1)
	assert.Equal(t, attack{2, 3, true}, attack{from, to, ok})
	b.Armies[2] = 3 // no more than the route's cost
	from, to, _, ok = killDominantAttack(nil, &r, b, 0, 1)
	assert.Equal(t, attack{-1, -1, false}, attack{from, to, ok})
	_, _, ok = killDominantPlace(nil, &r, b, 1, 0)
	assert.True(t, ok, "seat 0 owns A")
	b.Owner[0] = 1
	_, _, ok = killDominantPlace(nil, &r, b, 1, 0)
	assert.False(t, ok, "seat 0 owns no continent")
}

func TestCashierBest(t *testing.T) {
	t.Parallel()
	s := forkState(t)
	var c Cashier
	// Hand c, e, a, b, f: the sets with a and b (both owned) beat the
	// others; [0 2 3] (c, a, b) comes first.
	set, ok := c.Best(s, 0)
	require.True(t, ok)
	assert.Equal(t, [3]int{0, 2, 3}, set)
	_, ok = c.Best(s, 1)
	assert.False(t, ok, "seat 1's hand is hidden")
}

// TestCashierFewerWilds: with equal cards of owned territories, the set
// with fewer wild cards wins over one that comes first. Seat 0 (owning a
// and b) holds c, a wild, e and a (symbols 2, wild, 1, 0): the sets [0 1 3]
// (c, wild, a), [0 2 3] (c, e, a) and [1 2 3] (wild, e, a) each show a;
// [0 1 3] comes first, [0 2 3] has no wild.
func TestCashierFewerWilds(t *testing.T) {
	t.Parallel()
	m, r, pos := forkPosition(t)
	card := func(name string) sim.Card {
		if name == "wild" {
			return sim.Card{Territory: -1, Symbol: sim.Wild}
		}
		id, ok := m.TerritoryID(name)
		require.True(t, ok)
		return sim.Card{Territory: int16(id), Symbol: uint8(id % 3)}
	}
	// Back to the deck with seat 0's hand, then deal c, wild, e, a.
	pos.Deck = append(pos.Deck, pos.Hands[0]...)
	pos.Hands[0] = nil
	for _, name := range []string{"c", "wild", "e", "a"} {
		c := card(name)
		i := slices.Index(pos.Deck, c)
		require.GreaterOrEqual(t, i, 0, name)
		pos.Deck = slices.Delete(pos.Deck, i, i+1)
		pos.Hands[0] = append(pos.Hands[0], c)
	}
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	trades, ok := s.ValidTrades(0, nil)
	require.True(t, ok)
	require.Equal(t, [][3]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}, trades, "the sets, in order")
	var c Cashier
	set, ok := c.Best(s, 0)
	require.True(t, ok)
	assert.Equal(t, [3]int{0, 2, 3}, set, "one owned card each; no wild")
	require.NoError(t, s.CheckTrade(0, set))
}

func BenchmarkPlans(b *testing.B) {
	bd := position1(b)
	var r Search
	pl := make([]sim.Placement, 0, 8)
	route := make([]int, 0, 8)
	b.ReportAllocs()
	for b.Loop() {
		pl, route, _ = placeToTakeContinent(pl[:0], route, &r, bd, 1, 0, 5)
	}
}

func TestOneMoveUnlessOneStep(t *testing.T) {
	t.Parallel()
	three := []sim.Move{{From: 0, To: 1, Armies: 2}, {From: 2, To: 3, Armies: 5}, {From: 4, To: 5, Armies: 5}}
	cases := []struct {
		name  string
		mode  sim.FortifyMode
		moves []sim.Move
		want  []sim.Move
	}{
		{"one-step keeps all", sim.FortifyOneStep, three, three},
		{"single keeps the most armies, first on ties", sim.FortifySingle, three, []sim.Move{{From: 2, To: 3, Armies: 5}}},
		{"connected keeps one", sim.FortifyConnected, three[:1], three[:1]},
		{"connected, first largest", sim.FortifyConnected, []sim.Move{{From: 0, To: 1, Armies: 1}, {From: 1, To: 2, Armies: 3}}, []sim.Move{{From: 1, To: 2, Armies: 3}}},
		{"none", sim.FortifySingle, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := OneMoveUnlessOneStep(c.mode, slices.Clone(c.moves))
			assert.Equal(t, c.want, got)
		})
	}
}
