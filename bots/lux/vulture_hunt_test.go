package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestDiscounted: Vulture.java setToKillPlayer's card discount, truncated
// toward zero as Java's compound assignment to an int.
func TestDiscounted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ armies, worth, cards, want int }{
		{10, 4, 0, 10},
		{10, 4, 3, 6},
		{10, 4, 2, 7}, // 10 − 2.67
		{4, 4, 4, -1}, // −1.33, not −2
		{7, 15, 6, -23},
	} {
		assert.Equal(t, tt.want, discounted(tt.armies, tt.worth, tt.cards), "%+v", tt)
	}
}

// TestVulturePrey: Vulture.java setToKillPlayer on testdata/hunt.toml,
// seat 0 hunting, classic rules (the next set is worth 4).
func TestVulturePrey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, spec, extra string
		armies, want      int
	}{
		{"the weakest reachable seat", "m:0:10 n:0:5 a:1:1 b:1:1 c:1:1 d:1:1 e:2:3", "", 3, 2},
		// Seat 1's two cards discount its 4 armies to 1 (4 − 4 × 2/3).
		{"cards make a seat weaker", "m:0:10 n:0:5 a:1:1 b:1:1 c:1:1 d:1:1 e:2:3",
			`hands = [[], ["a", "b"], []]`, 3, 1},
		// m (3) + 2 beats neither 4 + 4 (seat 1) nor 9 + 1 (seat 2).
		{"out of reach", "m:0:3 n:0:2 a:1:1 b:1:1 c:1:1 d:1:1 e:2:9", "", 2, -1},
		// 6 armies are not more than twice seat 1's 4.
		{"not twice as strong", "m:0:4 n:0:2 a:1:1 b:1:1 c:1:1 d:1:1 e:2:9", "", 5, -1},
		{"ties to the lowest seat", "m:0:10 n:0:5 a:1:1 b:1:1 c:1:1 d:2:2 e:2:1", "", 3, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, "hunt.toml", 3, "place", tt.spec, tt.extra)
			var h vultureHunt
			assert.Equal(t, tt.want, h.prey(b.state(), 0, tt.armies))
		})
	}
}

// TestVultureSimpleRoute: the prey's single cluster
// (CountryClusterSet.getAllCountriesOwnedBy) and the route through it
// (CountryCluster.getSimpleRoute with a single owner and the attacker,
// getSimpleRouteStartingAt) on testdata/grid.toml, seat 1 the prey and
// seat 0 the hunter.
func TestVultureSimpleRoute(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, spec string
		one        bool   // the prey's territories form one cluster
		want       string // the route, "" for none
	}{
		{"two clusters", "a:1:1 b:0:1 c:0:1 d:0:1 e:2:1 f:0:1 g:0:1 h:0:1 i:1:1", false, ""},
		{"from next to the hunter", "a:1:1 b:1:1 c:1:1 d:0:1 e:0:1 f:1:1 g:2:1 h:2:1 i:2:1", true, "a b c f"},
		{"only f touches the hunter", "a:1:1 b:1:1 c:1:1 d:2:1 e:2:1 f:1:1 g:2:1 h:2:1 i:0:1", true, "f c b a"},
		// From b, next to the hunter's e, no route covers a, b and c; a,
		// next to seat 2's d, starts one.
		{"from elsewhere", "a:1:1 b:1:1 c:1:1 d:2:1 e:0:1 f:2:1 g:2:1 h:2:1 i:2:1", true, "a b c"},
		{"a star has none", "a:0:1 b:1:1 c:2:1 d:1:1 e:1:1 f:1:1 g:2:1 h:1:1 i:2:1", true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, "grid.toml", 3, "place", tt.spec, "")
			s := b.state()
			var h vultureHunt
			h.size(s.NumTerritories())
			require.Equal(t, tt.one, h.preyCluster(s, 1))
			if !tt.one {
				return
			}
			ok := h.simpleRoute(s, 0, 1)
			require.Equal(t, tt.want != "", ok)
			if ok {
				assert.Equal(t, tt.want, b.names(h.croute...))
			}
		})
	}
}

// TestVultureEasyCost: BoardHelper.easyCostCountryWithOwner on
// testdata/grid.toml, seat 0 the owner: the frontier takes an entry before
// those of equal cost, so d, pushed after b, is expanded first and the
// path to the hunter's e runs through d.
func TestVultureEasyCost(t *testing.T) {
	t.Parallel()
	b := newBoard(t, "grid.toml", 3, "place", "a:1:1 b:2:2 c:2:1 d:2:2 e:0:3 f:2:1 g:2:5 h:2:1 i:2:1", "")
	s := b.state()
	var h vultureHunt
	h.size(s.NumTerritories())
	path, ok := h.easyCost(s, 0, b.id("a"), nil)
	require.True(t, ok)
	assert.Equal(t, "e d a", b.names(path...))
	path, ok = h.easyCost(s, 0, b.id("e"), path)
	require.True(t, ok)
	assert.Equal(t, "e", b.names(path...))
}

// TestVultureAppendRoute: CountryRoute.append of an approach and a route
// on testdata/grid.toml (owners play no part).
func TestVultureAppendRoute(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, approach, other, want string }{
		{"at the route's start", "d a b", "b c f", "d a b c f"},
		{"at the route's end", "h i f c b", "b c f", "h i f c b"},
		{"in the middle: a new route from a neighbour", "d e f c", "c f i h", "d e h i f c"},
		{"in the middle, no new route", "d e f c", "c f i", "d e c f i"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, "grid.toml", 2, "place", "a:0:1 b:0:1 c:0:1 d:0:1 e:0:1 f:0:1 g:0:1 h:0:1 i:1:1", "")
			s := b.state()
			var h vultureHunt
			h.size(s.NumTerritories())
			h.other = append(h.other[:0], b.ids(tt.other)...)
			h.appendRoute(s, b.ids(tt.approach))
			assert.Equal(t, tt.want, b.names(h.built...))
		})
	}
}

// TestVulturePlan: Vulture.java placeToKill on testdata/hunt.toml, seat 0
// hunting seat 1 (a, b, c, d: the route a b c d).
func TestVulturePlan(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, spec string
		armies     int
		at, route  string // "" when no hunt
	}{
		// To a: m's 6 armies count against nothing (−6); to d: n's 2
		// against e's 2 (0). The route costs 4 with the approach.
		{"the approach to the start", "m:0:6 n:0:2 a:1:1 b:1:1 c:1:1 d:1:1 e:2:2", 1, "m", "m a b c d"},
		// To a: −1; to d through e: 1 − 9: the end, the route reversed.
		{"the approach to the end", "m:0:1 n:0:9 a:1:1 b:1:1 c:1:1 d:1:1 e:2:1", 1, "n", "n e d c b a"},
		// m (1) + 3 is not more than the route's 20.
		{"too dear", "m:0:1 n:0:1 a:1:5 b:1:5 c:1:5 d:1:5 e:2:1", 3, "", ""},
		// a + 16 beats 4 armies on the route.
		{"just enough", "m:0:1 n:0:1 a:1:5 b:1:5 c:1:5 d:1:5 e:2:1", 20, "m", "m a b c d"},
		{"two clusters", "m:0:9 n:0:9 a:1:1 b:2:1 c:1:1 d:2:1 e:2:1", 5, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, "hunt.toml", 3, "place", tt.spec, "")
			var h vultureHunt
			at, ok := h.plan(b.state(), 0, 1, tt.armies)
			require.Equal(t, tt.at != "", ok)
			if !ok {
				assert.False(t, h.hunting())
				return
			}
			assert.Equal(t, tt.at, b.names(at))
			assert.Equal(t, tt.route, b.names(h.routes...))
			assert.True(t, h.hunting())
		})
	}
}

// TestVultureRouteOrders: Vulture.java attackAlongRoute, one order at a
// time on testdata/grid.toml, seat 0 hunting, each result applied before
// the next order is asked (see board.outcome).
func TestVultureRouteOrders(t *testing.T) {
	t.Parallel()
	const spec = "a:0:9 b:1:1 c:1:1 d:2:1 e:0:9 f:1:1 g:2:1 h:2:1 i:1:1"
	for _, tt := range []struct {
		name     string
		routes   []string
		outcomes []string
		want     []string
	}{
		{"every step taken", []string{"a b c f"}, []string{"win", "win", "win"}, []string{"a>b", "b>c", "c>f"}},
		// b has one army after the move-in: its step and c's are passed
		// over, not ended.
		{"a step without armies is passed over", []string{"a b c f"}, []string{"win1"}, []string{"a>b"}},
		// Without the repulse ending the route, e (the hunter's) would
		// attack f.
		{"a repulse ends the route", []string{"a b e f"}, []string{"lose"}, []string{"a>b"}},
		{"a step on the hunter's own territory is passed over", []string{"a b e f"}, []string{"win", "win"}, []string{"a>b", "e>f"}},
		// The first route ends at its repulse, the second is followed.
		{"routes in turn", []string{"a b c", "e f"}, []string{"lose", "win"}, []string{"a>b", "e>f"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, "grid.toml", 3, "attack", spec, "")
			var h vultureHunt
			h.size(b.m.NumTerritories())
			h.p = 0
			for _, r := range tt.routes {
				h.routes = append(h.routes, b.ids(r)...)
				h.ends = append(h.ends, len(h.routes))
			}
			var got []string
			for {
				s := b.state()
				from, to, ok := h.next(s)
				if !ok {
					break
				}
				require.True(t, h.stepOrder())
				require.NoError(t, s.CheckAttack(0, sim.AttackOrder{From: from, To: to, Repeat: true}))
				got = append(got, b.names(from)+">"+b.names(to))
				require.Less(t, len(got), len(tt.outcomes)+1, "orders %v", got)
				b.outcome(from, to, tt.outcomes[len(got)-1])
			}
			assert.Equal(t, tt.want, got)
			assert.False(t, h.hunting())
		})
	}
}

// TestVultureHuntAllocs: planning a hunt and following its route allocate
// nothing once the buffers are sized.
func TestVultureHuntAllocs(t *testing.T) {
	b := newBoard(t, "hunt.toml", 3, "place", "m:0:1 n:0:9 a:1:1 b:1:1 c:1:1 d:1:1 e:2:1", "")
	s := b.state()
	var h vultureHunt
	run := func() {
		h.prey(s, 0, 3)
		h.plan(s, 0, 1, 3)
		for {
			if _, _, ok := h.next(s); !ok {
				break
			}
		}
	}
	run()
	assert.Zero(t, testing.AllocsPerRun(20, run))
}

// BenchmarkVultureHunt: the choice of prey and the plan of a hunt on
// testdata/hunt.toml (the route through the prey's four territories and
// both approaches).
func BenchmarkVultureHunt(b *testing.B) {
	bd := newBoard(b, "hunt.toml", 3, "place", "m:0:1 n:0:9 a:1:1 b:1:1 c:1:1 d:1:1 e:2:1", "")
	s := bd.state()
	var h vultureHunt
	b.ReportAllocs()
	for b.Loop() {
		h.prey(s, 0, 3)
		h.plan(s, 0, 1, 3)
		h.reset()
	}
}
