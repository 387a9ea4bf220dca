package mars

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// testMediator builds a mediator for a hand-made map: adjacency lists,
// continent of each territory, continent bonuses, owners and armies, seen
// by seat 0. Its board has no State: the searches through MARS's
// territories (the fortification) need testStateMediator.
func testMediator(t testing.TB, p Params, nbr [][]int, cont, bonus, owner, armies []int) *mediator {
	t.Helper()
	b := newBoard(nbr, cont, bonus)
	copy(b.Owner, owner)
	copy(b.Armies, armies)
	b.refresh(0)
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	return newMediator(p, b, o)
}

// testStateMediator is testMediator with the board loaded from seat 0's
// State of the position (testState, under fortify mode mode); the map must
// be a valid one (connected, every territory with a neighbour).
func testStateMediator(t testing.TB, p Params, mode sim.FortifyMode, nbr [][]int, cont, bonus, owner, armies []int) (*mediator, *sim.State) {
	t.Helper()
	s := testState(t, mode, nbr, cont, bonus, owner, armies)
	m := testMediator(t, p, nbr, cont, bonus, owner, armies)
	m.b.load(s, 0)
	return m, s
}

// reload loads seat 0's State of a new position (owners, armies) on the
// same hand-made map into m's board, as the engine shows the game at the
// next decision, under one-step fortify; the agents keep their goals.
func reload(t testing.TB, m *mediator, nbr [][]int, cont, bonus, owner, armies []int) {
	t.Helper()
	m.b.load(testState(t, sim.FortifyOneStep, nbr, cont, bonus, owner, armies), 0)
}

// testState returns seat 0's State of a game on a hand-made map (adjacency
// lists, continent of each territory, continent bonuses) at a position
// (owners, armies; the seats are 0 to the largest owner, at least 2) in the
// fortify phase of the first live seat, under testdata/nocards.toml (the
// classic rules without cards) with fortify mode mode. At least two seats must own
// territories.
func testState(t testing.TB, mode sim.FortifyMode, nbr [][]int, cont, bonus, owner, armies []int) *sim.State {
	t.Helper()
	cs := make([]sim.Continent, len(bonus))
	for c := range cs {
		cs[c] = sim.Continent{Name: fmt.Sprintf("C%d", c), Bonus: bonus[c]}
	}
	ts := make([]sim.Territory, len(nbr))
	for i := range ts {
		ts[i] = sim.Territory{Name: fmt.Sprintf("T%d", i), Continent: cont[i], Neighbors: nbr[i]}
	}
	m, err := sim.NewMap("test", cs, ts)
	require.NoError(t, err)
	r, err := sim.LoadRules("testdata/nocards.toml")
	require.NoError(t, err)
	r.Fortify.Mode = mode
	pos := &sim.Position{
		Players: max(2, slices.Max(owner)+1),
		Owner:   owner,
		Armies:  armies,
		Round:   1,
		Current: -1,
		Phase:   sim.PhaseFortify,
	}
	pos.Hands = make([][]sim.Card, pos.Players)
	for q := range pos.Players {
		if !slices.Contains(owner, q) {
			pos.Eliminated = append(pos.Eliminated, q)
		} else if pos.Current < 0 {
			pos.Current = q
		}
	}
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return s
}

// fiveMap: continent A (bonus 3) = {0, 1, 2}, continent B (bonus 2) =
// {3, 4}; borders 0-1, 0-2, 1-2, 1-4, 2-3, 3-4. V_nb is 2 for both, so
// V_sv(A) = 3/(3*2) = 0.5 and V_sv(B) = 2/(2*2) = 0.5.
var fiveNbr = [][]int{{1, 2}, {0, 2, 4}, {0, 1, 3}, {2, 4}, {1, 3}}
var fiveCont = []int{0, 0, 0, 1, 1}
var fiveBonus = []int{3, 2}

func TestValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		owner  []int
		armies []int
		terr   int
		want   float64
	}{
		// Territory 2 (enemy): Vfn 2, Vfnu 3+2, Ven 1, Venu 1, Vcb 1,
		// Vcp 2/3, Voc 1: 35 + 2.4 + 0.25 - 0.3 - 0.03 + 0.5 + 3*(2/3+20).
		{"completes continent", []int{0, 0, 1, 1, 2}, []int{3, 2, 4, 1, 5}, 2, 99.82},
		// Territory 3 (enemy): Ven 2, Venu 9, Vcb 1, Vcp 0:
		// 35 - 0.6 - 0.27 + 0.5.
		{"enemy continent split", []int{0, 0, 1, 1, 2}, []int{3, 2, 4, 1, 5}, 3, 34.63},
		// As above but player 1 owns all of B: V_eoc = 1 adds 2*4.
		{"enemy owns continent", []int{0, 0, 1, 1, 1}, []int{3, 2, 4, 1, 5}, 3, 42.63},
		// Territory 0 (own): Vfn 1, Vfnu 2, Ven 1, Venu 4, Vcp 2/3:
		// 35 + 1.2 + 0.1 - 0.3 - 0.12 + 3*(2/3).
		{"own territory", []int{0, 0, 1, 1, 2}, []int{3, 2, 4, 1, 5}, 0, 37.88},
		// Own territory 0 when we own all of A: Voc 1, Vcp 1, Vfn 2,
		// Vfnu 6: 35 + 2.4 + 0.3 + 3*(1+20).
		{"own whole continent", []int{0, 0, 0, 1, 2}, []int{3, 2, 4, 1, 5}, 0, 100.7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := testMediator(t, wordParams(), fiveNbr, fiveCont, fiveBonus, tc.owner, tc.armies)
			assert.InDelta(t, tc.want, m.b.value(&m.p, tc.terr), 1e-9)
		})
	}
}

func TestStatics(t *testing.T) {
	t.Parallel()
	b := newBoard(fiveNbr, fiveCont, fiveBonus)
	assert.Equal(t, []float64{0.5, 0.5}, b.vsv)
	assert.Equal(t, []int{0, 1, 1, 1, 1}, b.vcb)
}

// goalsOf returns agent t's goal paths in attack order.
func goalsOf(m *mediator, t int) [][]int {
	var out [][]int
	for g := m.agents[t].head; g >= 0; g = int(m.goals[g].next) {
		out = append(out, append([]int(nil), m.path(g)...))
	}
	return out
}

func TestPropagate(t *testing.T) {
	t.Parallel()
	owner := []int{0, 0, 1, 1, 2}
	armies := []int{3, 3, 1, 1, 1}
	tests := []struct {
		gl     int
		paths  GoalPaths
		goals0 [][]int
		goals1 [][]int
	}{
		{1, GoalPathsAll, [][]int{{2}}, [][]int{{2}, {4}}},
		{2, GoalPathsAll, [][]int{{2}, {2, 3}}, [][]int{{2}, {4}, {2, 3}, {4, 3}}},
		{3, GoalPathsAll, [][]int{{2}, {2, 3}, {2, 3, 4}}, [][]int{{2}, {4}, {2, 3}, {4, 3}, {4, 3, 2}, {2, 3, 4}}},
		// goal_paths = shortest: one path to each goal territory, the
		// first of the fewest territories.
		{1, GoalPathsShortest, [][]int{{2}}, [][]int{{2}, {4}}},
		{2, GoalPathsShortest, [][]int{{2}, {2, 3}}, [][]int{{2}, {4}, {2, 3}}},
		{3, GoalPathsShortest, [][]int{{2}, {2, 3}, {2, 3, 4}}, [][]int{{2}, {4}, {2, 3}}},
	}
	for _, tc := range tests {
		p := wordParams()
		p.Gl, p.GoalPaths = tc.gl, tc.paths
		m := testMediator(t, p, fiveNbr, fiveCont, fiveBonus, owner, armies)
		m.propagate(20)
		assert.Equal(t, tc.goals0, goalsOf(m, 0), "G_l %d goal_paths %d agent 0", tc.gl, tc.paths)
		assert.Equal(t, tc.goals1, goalsOf(m, 1), "G_l %d goal_paths %d agent 1", tc.gl, tc.paths)
		for _, e := range []int{2, 3, 4} {
			assert.Nil(t, goalsOf(m, e), "enemy agent %d stores no goal", e)
		}
	}
}

// TestPropagateProperties checks on random positions of a random map that
// every goal path has 1..G_l distinct enemy territories, starts next to
// its own agent, is connected, and that the goal's w and def are the sums
// of the chain's values and armies.
func TestPropagateProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 8 + rng.IntN(10)
		nbr := randomGraph(rng, n)
		cont := make([]int, n)
		for i := range cont {
			cont[i] = i % 3
		}
		owner := make([]int, n)
		armies := make([]int, n)
		for i := range owner {
			owner[i] = rng.IntN(3)
			armies[i] = 1 + rng.IntN(5)
		}
		p := wordParams()
		p.Gl = 1 + rng.IntN(5)
		m := testMediator(t, p, nbr, cont, []int{2, 3, 5}, owner, armies)
		for i := range m.vals {
			m.vals[i] = float64(i + 1)
		}
		m.propagate(30)
		for g := range m.goals {
			x := m.goals[g]
			path := m.path(g)
			require.Equal(t, 0, owner[int(x.from)])
			require.True(t, len(path) >= 1 && len(path) <= p.Gl, "path %v longer than G_l %d", path, p.Gl)
			prev, w, def := int(x.from), 0.0, 0
			seen := map[int]bool{}
			for _, v := range path {
				require.NotEqual(t, 0, owner[v], "own territory %d on path %v", v, path)
				require.False(t, seen[v], "territory twice on %v", path)
				seen[v] = true
				require.Contains(t, nbr[prev], v)
				prev = v
				w += m.vals[v]
				def += armies[v]
			}
			require.InDelta(t, w, x.w, 1e-9)
			require.Equal(t, def, m.ccs[x.cc].def)
		}
	}
}

// TestPropagateKeepsReachable checks the pruning of goal chains against
// every simple enemy path of up to G_l territories next to each own
// agent: a path whose exact chain odds, with all of the agent's armies
// and every new army, reach pPrune is stored as a goal.
func TestPropagateKeepsReachable(t *testing.T) {
	t.Parallel()
	// The audit's case first: 5 attackers against five 1-army territories
	// (exact odds 6.9 %) on a line.
	nbr := [][]int{{1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4}}
	m := testMediator(t, wordParams(), nbr, make([]int, 6), []int{1}, []int{0, 1, 1, 1, 1, 1}, []int{6, 1, 1, 1, 1, 1})
	m.propagate(0)
	assert.True(t, slices.ContainsFunc(goalsOf(m, 0), func(p []int) bool { return slices.Equal(p, []int{1, 2, 3, 4, 5}) }),
		"goal 1>2>3>4>5 kept: %v", goalsOf(m, 0))

	rng := rand.New(rand.NewPCG(11, 12))
	ch := dice.NewChainer(dice.Classic, 64)
	checked := 0
	for trial := 0; trial < 40; trial++ {
		nt := 8 + rng.IntN(8)
		nbr, owner, armies := randomPosition(rng, nt)
		for i := range armies {
			armies[i] = 1 + rng.IntN(1+rng.IntN(12))
		}
		p := wordParams()
		p.Gl = 1 + rng.IntN(5)
		p.GoalPaths = GoalPathsAll // every reachable chain is a goal
		n := rng.IntN(6)
		m := testMediator(t, p, nbr, make([]int, nt), []int{3}, owner, armies)
		m.propagate(n)
		for ag := range nt {
			if owner[ag] != 0 {
				continue
			}
			stored := goalsOf(m, ag)
			a := armies[ag] - 1 + n
			var walk func(path []int)
			walk = func(path []int) {
				defs := make([]int, len(path))
				for j, v := range path {
					defs[j] = armies[v]
				}
				if a > 0 && ch.Win(a, defs) >= pPrune {
					checked++
					require.True(t, slices.ContainsFunc(stored, func(p []int) bool { return slices.Equal(p, path) }),
						"trial %d agent %d: path %v (odds %.4f) dropped", trial, ag, path, ch.Win(a, defs))
				}
				if len(path) == p.Gl {
					return
				}
				for _, u := range nbr[path[len(path)-1]] {
					if owner[u] != 0 && !slices.Contains(path, u) {
						walk(append(slices.Clone(path), u))
					}
				}
			}
			for _, u := range nbr[ag] {
				if owner[u] != 0 {
					walk([]int{u})
				}
			}
		}
	}
	require.True(t, checked > 500, "only %d paths checked", checked)
}

// TestPropagateLargeMap checks that maps of over 64 territories (no bit
// set of the chain's territories, no reachability pruning) get the same
// goals, in the same order, under both goal_paths settings: a random graph
// is padded with isolated own territories. On the small map the
// reachability pruning (see reachable) sends fewer messages.
func TestPropagateLargeMap(t *testing.T) {
	t.Parallel()
	for _, paths := range []GoalPaths{GoalPathsShortest, GoalPathsAll} {
		rng := rand.New(rand.NewPCG(3, 4))
		msgs := [2]int{}
		for trial := 0; trial < 20; trial++ {
			n := 10 + rng.IntN(8)
			nbr := randomGraph(rng, n)
			owner := make([]int, n)
			armies := make([]int, n)
			for i := range owner {
				owner[i] = rng.IntN(3)
				armies[i] = 1 + rng.IntN(5)
			}
			// A goal with its cache's length, defenders and threat (the
			// paths' offsets differ).
			type view struct {
				g              goal
				k, def, threat int
			}
			goals := func(pad int) ([]view, [][]int, int) {
				nb := append(slices.Clone(nbr), make([][]int, pad)...)
				ow := append(slices.Clone(owner), make([]int, pad)...)
				ar := append(slices.Clone(armies), slices.Repeat([]int{1}, pad)...)
				p := wordParams()
				p.GoalPaths = paths
				m := testMediator(t, p, nb, make([]int, n+pad), []int{2}, ow, ar)
				for i := range m.vals {
					m.vals[i] = float64(i%7 + 1)
				}
				m.propagate(10)
				var paths [][]int
				for g := range m.goals {
					paths = append(paths, slices.Clone(m.path(g)))
				}
				gs := make([]view, len(m.goals))
				for i, x := range m.goals {
					c := &m.ccs[x.cc]
					gs[i] = view{x, c.k, c.def, c.threat}
				}
				return gs, paths, len(m.msgs)
			}
			g1, p1, n1 := goals(0)
			g2, p2, n2 := goals(70)
			require.True(t, len(g1) > 0, "goal_paths %d trial %d: no goals", paths, trial)
			require.Equal(t, g1, g2, "goal_paths %d trial %d", paths, trial)
			require.Equal(t, p1, p2, "goal_paths %d trial %d", paths, trial)
			require.LessOrEqual(t, n1, n2, "goal_paths %d trial %d: messages", paths, trial)
			msgs[0] += n1
			msgs[1] += n2
		}
		assert.Less(t, msgs[0], msgs[1], "goal_paths %d: messages with and without pruning", paths)
	}
}

// placementAgents calls f for every own agent with goals of trials random
// placements of 8-15 territories and 1-12 armies to place (randomPlacement
// from rng), in order; f may draw from rng too.
func placementAgents(t *testing.T, rng *rand.Rand, trials int, f func(trial int, m *mediator, ag, n int)) {
	t.Helper()
	for trial := range trials {
		nt := 8 + rng.IntN(8)
		m, owner, n := randomPlacement(t, rng, nt, 12, nil)
		for ag := range nt {
			if owner[ag] == 0 && m.agents[ag].head >= 0 {
				f(trial, m, ag, n)
			}
		}
	}
}

// TestOffensiveBrute checks the pruned, cached offensive bid against
// examining every goal and army count with fresh chain odds, for the first
// bid of a placement and for a re-bid after the agent has won armies.
func TestOffensiveBrute(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	ch := dice.NewChainer(dice.Classic, 64)
	checked := 0
	placementAgents(t, rng, 60, func(trial int, m *mediator, ag, n int) {
		brute := func(left int, allowZero bool) bid {
			best := noBid
			for g := m.agents[ag].head; g >= 0; g = int(m.goals[g].next) {
				x := &m.goals[g]
				var defs []int
				for _, v := range m.path(g) {
					defs = append(defs, m.b.Armies[v])
				}
				for i := 0; i <= left; i++ {
					if i == 0 && !allowZero {
						continue
					}
					a := m.b.Armies[ag] - 1 + i
					p := 0.0
					if a > 0 {
						p = ch.Win(a, defs)
					}
					c := &m.ccs[x.cc]
					d := m.o.hold(max(1, a-c.def-(c.k-1)), c.threat)
					if v := m.p.Pob * p * x.w * d / float64(max(i, 1)); v > best.Value+1e-9 {
						best = bid{Value: v, I: i, Goal: g}
					}
				}
			}
			return best
		}
		got, want := m.offensive(ag, n, true), brute(n, true)
		assert.InDelta(t, want.Value, got.Value, 1e-9, "trial %d agent %d first bid", trial, ag)
		assert.Equal(t, want.I, got.I, "trial %d agent %d first bid", trial, ag)
		assert.Equal(t, want.Goal, got.Goal, "trial %d agent %d first bid", trial, ag)
		if n > 1 {
			// The agent wins k armies; the re-bid is for the rest.
			k := 1 + rng.IntN(n-1)
			m.b.Armies[ag] += k
			got, want = m.offensive(ag, n-k, false), brute(n-k, false)
			assert.InDelta(t, want.Value, got.Value, 1e-9, "trial %d agent %d re-bid", trial, ag)
			assert.Equal(t, want.I, got.I, "trial %d agent %d re-bid", trial, ag)
			assert.Equal(t, want.Goal, got.Goal, "trial %d agent %d re-bid", trial, ag)
			m.b.Armies[ag] -= k
			checked++
		}
	})
	require.True(t, checked > 50, "only %d re-bids checked", checked)
}

// TestFirstBidBound checks the lazy first bid of an agent (firstBid): a
// stale bid bounds the exact bid from above, a current one is the exact
// bid, and the bound over every army count is below the bound numerator
// for all n armies for many agents.
func TestFirstBidBound(t *testing.T) {
	t.Parallel()
	stale, tighter := 0, 0
	placementAgents(t, rand.New(rand.NewPCG(11, 12)), 60, func(trial int, m *mediator, ag, n int) {
		for _, zeroUsed := range []bool{false, true} {
			a := &m.agents[ag]
			a.zeroUsed = zeroUsed
			m.firstBid(ag, n)
			first := a.bid
			loose := 0.0 // the largest numerator for all n armies
			for g := a.head; g >= 0; g = int(m.goals[g].next) {
				if m.goals[g].w > 0 {
					loose = max(loose, m.boundNum(g, m.b.Armies[ag]-1+n)*roundMargin)
				}
			}
			m.bidFor(ag, n)
			exact := a.bid
			if first.I <= n {
				assert.Equal(t, exact, first, "trial %d agent %d: a current first bid is the exact bid", trial, ag)
				continue
			}
			stale++
			assert.Equal(t, n+1, first.I)
			assert.GreaterOrEqual(t, first.Value, exact.Value, "trial %d agent %d: the stale bid bounds the exact one", trial, ag)
			assert.LessOrEqual(t, first.Value, loose, "trial %d agent %d", trial, ag)
			if first.Value < loose*(1-1e-6) {
				tighter++
			}
		}
	})
	require.Greater(t, stale, 100)
	assert.Greater(t, tighter, stale/4, "stale bids below the numerator for all armies, of %d", stale)
}

// TestOffensiveBruteBigStacks checks the pruned offensive bid against
// examining every goal and army count with the bot's own odds (chain and
// goalHold) where stacks outgrow the battle table, as in escalating-card
// games: there the battles are scaled, and the search's bounds must still
// bound the odds chain gives (see numerator). A non-positive bid counts
// as no bid (the auction takes only positive bids).
func TestOffensiveBruteBigStacks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("computes chain odds of thousands of armies")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	checked, big := 0, 0
	for trial := 0; trial < 16; trial++ {
		nt := 8 + rng.IntN(5)
		m, owner, n := randomPlacement(t, rng, nt, 200, func(armies []int) {
			for i := range armies {
				if rng.IntN(3) == 0 {
					armies[i] = 900 + rng.IntN(1400)
				}
			}
		})
		for ag := range nt {
			if owner[ag] != 0 || m.agents[ag].head < 0 {
				continue
			}
			want := noBid
			for g := m.agents[ag].head; g >= 0; g = int(m.goals[g].next) {
				x := &m.goals[g]
				for i := 0; i <= n; i++ {
					a := m.b.Armies[ag] - 1 + i
					if v := m.p.Pob * m.chain(x, a, a) * x.w * m.goalHold(x, a) / float64(max(i, 1)); v > want.Value {
						want = bid{Value: v, I: i, Goal: g}
					}
				}
			}
			got := m.offensive(ag, n, true)
			checked++
			if want.Value <= 0 {
				assert.LessOrEqual(t, got.Value, 0.0, "trial %d agent %d", trial, ag)
				continue
			}
			if m.b.Armies[ag]+n > maxTableSize {
				big++
			}
			assert.InDelta(t, want.Value, got.Value, 1e-9*want.Value, "trial %d agent %d (armies %d, n %d)", trial, ag, m.b.Armies[ag], n)
			assert.Equal(t, want.Goal, got.Goal, "trial %d agent %d", trial, ag)
			assert.Equal(t, want.I, got.I, "trial %d agent %d", trial, ag)
		}
	}
	assert.Greater(t, big, 10, "bids of agents beyond the battle table, of %d", checked)
}

// randomPlacement returns a mediator on a random position of nt
// territories (randomPosition, its stacks then changed by stacks unless it
// is nil) with random territory values, after the goal propagation for n
// armies, 1 <= n <= maxN, and the position's owners.
func randomPlacement(t *testing.T, rng *rand.Rand, nt, maxN int, stacks func(armies []int)) (m *mediator, owner []int, n int) {
	t.Helper()
	nbr, owner, armies := randomPosition(rng, nt)
	if stacks != nil {
		stacks(armies)
	}
	m = testMediator(t, wordParams(), nbr, make([]int, nt), []int{3}, owner, armies)
	for i := range m.vals {
		m.vals[i] = 1 + 10*rng.Float64()
	}
	n = 1 + rng.IntN(maxN)
	m.propagate(n)
	return m, owner, n
}

// randomPosition returns a random connected map of nt territories shared
// by three seats, with 1..6 armies on each territory.
func randomPosition(rng *rand.Rand, nt int) (nbr [][]int, owner, armies []int) {
	nbr = randomGraph(rng, nt)
	owner = make([]int, nt)
	armies = make([]int, nt)
	for i := range owner {
		owner[i] = rng.IntN(3)
		armies[i] = 1 + rng.IntN(6)
	}
	return nbr, owner, armies
}

// randomGraph returns a connected random graph: a spanning path plus
// random extra edges, neighbours ascending.
func randomGraph(rng *rand.Rand, n int) [][]int {
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
	}
	for i := 1; i < n; i++ {
		j := rng.IntN(i)
		adj[i][j], adj[j][i] = true, true
	}
	for k := 0; k < n; k++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			adj[i][j], adj[j][i] = true, true
		}
	}
	nbr := make([][]int, n)
	for i := range adj {
		for j := range adj[i] {
			if adj[i][j] {
				nbr[i] = append(nbr[i], j)
			}
		}
	}
	return nbr
}

// lineMap: 0 - 1 - 2, one continent.
var lineNbr = [][]int{{1}, {0, 2}, {1}}

func TestOffensiveBid(t *testing.T) {
	t.Parallel()
	// Hand-worked battle odds (classic dice):
	// W(1,1) = 15/36 = 0.416667; W(2,1) = 125/216 + 91/216*W(1,1) =
	// 0.754244; W(3,1) = 855/1296 + 441/1296*W(2,1) = 0.916374;
	// W(2,2) = 295/1296 + 420/1296*W(1,1) = 0.362654.
	tests := []struct {
		name    string
		threat  int // armies on territory 2, next to the goal
		wantI   int
		wantBid float64
		wantD   float64
	}{
		// threat 1: d = 1; bids 4.16667 (i=0), 7.54244 (i=1), 4.58187 (i=2).
		{"safe goal", 1, 1, 7.54244, 1},
		// threat 3 (attacks with 2): d_i = 1 - W(2, ŝ); ŝ = 1, 1, 2;
		// bids 1.02398, 1.85360, 9.16374*(1-0.362654)/2 = 2.92024.
		{"threatened goal", 3, 2, 2.92024, 0.637346},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := wordParams()
			p.Pob, p.Gl = 1, 1
			m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 1, tc.threat})
			m.vals[1] = 10
			m.propagate(2)
			b := m.offensive(0, 2, true)
			assert.Equal(t, tc.wantI, b.I)
			assert.InDelta(t, tc.wantBid, b.Value, 1e-4)
			assert.InDelta(t, tc.wantD, b.D, 1e-5)
			assert.InDelta(t, 10, b.W, 1e-12)
			// Without the zero-army bid the answer is the same here.
			assert.Equal(t, tc.wantI, m.offensive(0, 2, false).I)
		})
	}
	// P_ob scales the bid linearly.
	p := wordParams()
	p.Gl = 1
	m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 1, 1})
	m.vals[1] = 10
	m.propagate(2)
	assert.InDelta(t, 170*7.54244, m.offensive(0, 2, true).Value, 170*1e-4)
}

func TestDefensiveBid(t *testing.T) {
	t.Parallel()
	// Territory 0 (2 armies, v = 10) faces 3 enemy armies on 1.
	// d_2 = 1 - W(2,2) = 0.637346; W(1,2) = 55/216*W(1,1) = 0.106096;
	// W(2,3) = 295/1296*W(2,1) + 420/1296*W(1,2) = 0.206069, so
	// d_3 = 0.793931 and b_d(1) = 10*(0.793931-0.637346) = 1.56585;
	// W(1,3) = 55/216*W(1,2) = 0.027015, W(2,4) = 295/1296*W(2,2) +
	// 420/1296*W(1,3) = 0.091303, b_d(2) = 10*(0.908697-0.637346)/2 =
	// 1.35676. The best is i = 1.
	p := wordParams()
	p.Pdb = 1
	m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 3, 1})
	m.vals[0] = 10
	b := m.defensive(0, 3, true)
	assert.Equal(t, 1, b.I)
	assert.Equal(t, -1, b.Goal)
	assert.InDelta(t, 1.56585, b.Value, 1e-4)
	assert.InDelta(t, 0.637346, b.D0, 1e-5)
	assert.InDelta(t, 0.793931, b.D1, 1e-5)
	// No threat (enemy stack of 1 cannot attack): no defensive bid.
	m.b.Armies[1] = 1
	assert.Less(t, m.defensive(0, 3, true).Value, 0.0)
}

func TestPlaceAuction(t *testing.T) {
	t.Parallel()
	// Agent 0 has a safe goal; the only other own agent... there is none:
	// every army must still be placed, on territory 0.
	p := wordParams()
	p.Gl = 1
	m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 1, 1})
	m.place(5)
	assert.Equal(t, 5, m.agents[0].placed)
	assert.Equal(t, 7, m.b.Armies[0])
	assert.GreaterOrEqual(t, len(pursuedOf(m, 0)), 1, "agent 0 pursues its goal")
}

// pursuedOf returns agent t's pursued goals as (goal, next target
// position) pairs, in order.
func pursuedOf(m *mediator, t int) [][2]int {
	var out [][2]int
	for i := m.agents[t].phead; i >= 0; i = m.pursuits[i].next {
		out = append(out, [2]int{m.pursuits[i].g, m.pursuits[i].pos})
	}
	return out
}

// TestPlaceSeveralGoals checks that an agent that wins auctions with
// different goals pursues all of them, not only the last.
func TestPlaceSeveralGoals(t *testing.T) {
	t.Parallel()
	// Agent 0 (2 armies) borders enemies 1 and 2 (1 army each, neither
	// threatens it, so there is no defensive bid). With G_l = 1 its goals
	// are 1 and 2; each wins one of the two auctions.
	nbr := [][]int{{1, 2}, {0}, {0}}
	p := wordParams()
	p.Gl = 1
	m, _ := testStateMediator(t, p, sim.FortifyOneStep, nbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 1, 1})
	m.place(2)
	assert.Equal(t, 2, m.agents[0].placed)
	assert.Equal(t, 4, m.b.Armies[0])
	var got [][]int
	for _, q := range pursuedOf(m, 0) {
		assert.Equal(t, 0, q[1])
		got = append(got, m.path(q[0]))
	}
	assert.ElementsMatch(t, [][]int{{1}, {2}}, got, "agent 0 pursues both won goals")
	// The attack bids the better live goal; after taking it the other goal
	// is still pursued.
	reload(t, m, nbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{4, 1, 1})
	c, _, ok := m.chooseAttack(false)
	require.True(t, ok)
	require.True(t, c.pursuit >= 0, "a goal is attacked")
	m.b.Armies[c.to] = 0
	m.occupy(c.from, c.to, 1, 3)
	assert.Equal(t, 1, len(pursuedOf(m, 0)), "the other goal stays pursued")
}

func TestAttackThreshold(t *testing.T) {
	t.Parallel()
	// 3 armies (2 attack) against 2: W(2,2) = 0.362654.
	tests := []struct {
		wp, wp1   float64
		conquered bool
		want      bool
	}{
		{0.7375, 0.25, false, true},  // before the first conquest: W_p1
		{0.7375, 0.25, true, false},  // after it: W_p
		{0.3, 0.25, true, true},      // W_p below the odds
		{0.7375, 0.4, false, false},  // W_p1 above the odds
		{0.7375, 0.362, false, true}, // just below
	}
	for _, tc := range tests {
		p := wordParams()
		p.Wp, p.Wp1 = tc.wp, tc.wp1
		m, _ := testStateMediator(t, p, sim.FortifyOneStep, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{3, 2, 1})
		c, thr, ok := m.chooseAttack(tc.conquered)
		assert.Equal(t, tc.want, ok, "%+v", tc)
		assert.InDelta(t, 0.362654, c.odds, 1e-5)
		assert.Equal(t, 0, c.from)
		assert.Equal(t, 1, c.to)
		if tc.conquered {
			assert.Equal(t, tc.wp, thr)
		} else {
			assert.Equal(t, tc.wp1, thr)
		}
	}
	// A one-army territory is not eligible.
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{1, 1, 1})
	_, _, ok := m.chooseAttack(false)
	assert.False(t, ok)
}

// pursueGoal makes agent ag pursue its stored goal with the given path
// (from its start) and returns the goal's index.
func pursueGoal(t testing.TB, m *mediator, ag int, path ...int) int {
	t.Helper()
	for g := m.agents[ag].head; g >= 0; g = int(m.goals[g].next) {
		if slices.Equal(m.path(g), path) {
			m.pursue(ag, g, 0)
			return g
		}
	}
	require.FailNowf(t, "no such goal", "agent %d has no goal %v", ag, path)
	return -1
}

// goal23Nbr is a board of four territories in one continent: 0 borders 1
// and 2, and 2 borders 3.
var goal23Nbr = [][]int{{1, 2}, {0}, {0, 3}, {2}}

// pursuing23 returns a mediator on goal23Nbr with the given armies, agent
// 0 owning territory 0 and seat 1 the rest, the placement done and agent 0
// pursuing the goal 2>3 alone.
func pursuing23(t testing.TB, armies ...int) *mediator {
	t.Helper()
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, goal23Nbr, []int{0, 0, 0, 0}, []int{1}, []int{0, 1, 1, 1}, armies)
	m.place(0)
	m.clearPursued()
	pursueGoal(t, m, 0, 2, 3)
	return m
}

// TestGoalBoundBounds checks that goalBound, which prunes the attack
// auction, bounds the goal odds goalOdds gives, for stacks inside the
// battle table, beyond it (where battles are scaled) and where the chain
// odds are scaled, on the goal 2>3 and on its rest 3.
func TestGoalBoundBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 60 {
		scale := []int{10, 300, 3000, 30000}[trial%4]
		armies := []int{2 + rng.IntN(scale), 1, 1 + rng.IntN(scale), 1 + rng.IntN(scale)}
		m := pursuing23(t, 6, 1, 5, 1)
		copy(m.b.Armies, armies) // the stacks change after the placement
		att := armies[0] - 1
		for pos := range 2 {
			p := &m.pursuits[0]
			p.pos = pos
			odds := m.goalOdds(p, att)
			u := m.goalBound(p, att, 0)
			assert.GreaterOrEqual(t, u, odds*(1-1e-12), "armies %v pos %d: bound %v, odds %v", armies, pos, u, odds)
		}
	}
}

func TestAttackFollowsGoal(t *testing.T) {
	t.Parallel()
	// Agent 0 (6 armies) borders 1 (1 army) and 2 (5 armies, then 3 with
	// 1). Pursuing the goal 2>3 it bids only for 2, at the odds of the
	// whole path, though taking 1 alone is likelier, as long as the goal's
	// odds reach the threshold; without a goal it bids its best single
	// neighbour, 1.
	m := pursuing23(t, 6, 1, 5, 1)
	ch := dice.NewChainer(dice.Classic, 10)
	goalOdds := ch.Win(5, []int{5, 1})
	require.True(t, goalOdds >= m.p.Wp1 && goalOdds < m.p.Wp, "goal odds %.4f between W_p1 and W_p", goalOdds)
	c, thr, ok := m.chooseAttack(false)
	require.True(t, ok, "odds %.4f, threshold %.4f", c.odds, thr)
	assert.Equal(t, 0, c.pursuit)
	assert.Equal(t, 2, c.to)
	assert.InDelta(t, goalOdds, c.odds, 1e-12)
	assert.Less(t, c.odds, ch.Win(5, []int{1}), "the goal is bid below the weak neighbour's odds")

	m.clearPursued()
	c, _, ok = m.chooseAttack(false)
	require.True(t, ok)
	assert.Equal(t, -1, c.pursuit)
	assert.Equal(t, 1, c.to)
	assert.InDelta(t, ch.Win(5, []int{1}), c.odds, 1e-12)

	// A goal whose next target MARS already owns no longer binds the agent.
	pursueGoal(t, m, 0, 2, 3)
	reload(t, m, goal23Nbr, []int{0, 0, 0, 0}, []int{1}, []int{0, 1, 0, 1}, []int{6, 1, 5, 1})
	c, _, ok = m.chooseAttack(false)
	require.True(t, ok)
	assert.Equal(t, 0, c.from)
	assert.Equal(t, 1, c.to)
}

// TestAttackGoalBelowThreshold checks the fallback of an agent whose goals
// are all below the threshold: it bids its best single battle, as an
// agent without goals does, instead of not attacking at all.
func TestAttackGoalBelowThreshold(t *testing.T) {
	t.Parallel()
	m := pursuing23(t, 6, 1, 5, 1)
	ch := dice.NewChainer(dice.Classic, 10)
	// After the first conquest the threshold is W_p = 0.7375: the goal's
	// odds (5 attackers against 5 then 1) are below it, the 1-army
	// neighbour's (W(5, 1) = 0.99) above.
	c, thr, ok := m.chooseAttack(true)
	require.True(t, ok, "best bid %+v, threshold %.4f: the agent does not attack at all", c, thr)
	assert.Equal(t, -1, c.pursuit)
	assert.Equal(t, 1, c.to)
	assert.InDelta(t, ch.Win(5, []int{1}), c.odds, 1e-12)
	// A goal whose first battle is likely (5 against 1) but whose path is
	// not (then 5 armies on 3): the agent takes the likeliest single
	// battle, against 1 (the lowest of the two 1-army targets).
	m = pursuing23(t, 6, 1, 1, 5)
	require.Less(t, ch.Win(5, []int{1, 5}), m.p.Wp, "goal odds")
	c, _, ok = m.chooseAttack(true)
	require.True(t, ok, "best bid %+v: the agent does not attack at all", c)
	assert.Equal(t, -1, c.pursuit)
	assert.Equal(t, 1, c.to)
	// Two goals: the live one above the threshold is bid, whatever the
	// order the agent got them in.
	m.clearPursued()
	pursueGoal(t, m, 0, 2, 3)
	pursueGoal(t, m, 0, 1)
	c, _, ok = m.chooseAttack(true)
	require.True(t, ok)
	assert.Equal(t, 1, c.pursuit)
	assert.Equal(t, 1, c.to)
}

// TestAttackTieLowestTarget checks that equal single-battle odds go to the
// lowest target territory id, whatever the order of the map's neighbour
// list, and equal bids of two agents to the lowest attacker id.
func TestAttackTieLowestTarget(t *testing.T) {
	t.Parallel()
	// 0 (own, 4 armies) borders 3 and 1 (listed in that order), both
	// enemy with 2 armies; 2 (own, 4 armies) borders 1 and 3 too.
	nbr := [][]int{{3, 1}, {2, 0}, {3, 1}, {0, 2}}
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, []int{0, 0, 0, 0}, []int{1}, []int{0, 1, 0, 1}, []int{4, 2, 4, 2})
	c, _, ok := m.chooseAttack(false)
	require.True(t, ok)
	assert.Equal(t, 0, c.from)
	assert.Equal(t, 1, c.to)
}

func TestGoalHandOn(t *testing.T) {
	t.Parallel()
	// Agent 0 pursues 1>2; after conquering 1 the goal passes to agent 1,
	// which moves every army in, and the next attack uses the rest of it.
	p := wordParams()
	p.Gl = 2
	m, _ := testStateMediator(t, p, sim.FortifyOneStep, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{9, 1, 1})
	m.place(0)
	m.clearPursued()
	g := pursueGoal(t, m, 0, 1, 2)
	c, _, ok := m.chooseAttack(false)
	require.True(t, ok)
	assert.Equal(t, 0, c.pursuit)
	// Odds of the whole goal path with 8 attackers against 1, 1.
	ch := dice.NewChainer(dice.Classic, 10)
	assert.InDelta(t, ch.Win(8, []int{1, 1}), c.odds, 1e-12)
	m.b.Armies[1] = 0 // as the engine shows it when asking to occupy
	k := m.occupy(0, 1, 3, 7)
	assert.Equal(t, 7, k, "goal goes on: move everything")
	assert.Equal(t, 0, len(pursuedOf(m, 0)))
	assert.Equal(t, [][2]int{{g, 1}}, pursuedOf(m, 1))
	assert.True(t, strings.HasPrefix(m.pathString(g, 1), m.name(1)+">"+m.name(2)+"("),
		"the handed-on goal is shown from its new carrier: %s", m.pathString(g, 1))
	// The last step: the goal ends, territory 1 faces nobody: stay behind.
	reload(t, m, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 0, 1}, []int{1, 7, 1})
	c, _, ok = m.chooseAttack(true)
	require.True(t, ok)
	assert.Equal(t, 1, c.from)
	assert.Equal(t, 2, c.to)
	m.b.Armies[2] = 0 // as the engine shows it when asking to occupy
	assert.Equal(t, 6, m.occupy(1, 2, 3, 6), "1 faces no enemy once 2 is taken: all move in")
	assert.Equal(t, 0, len(pursuedOf(m, 2)), "an achieved goal is not handed on")
}

// TestOccupyGoals checks the hand-on of every goal whose next target is
// the conquered territory and the three move-in rules.
func TestOccupyGoals(t *testing.T) {
	t.Parallel()
	// 0 (own, 10 armies) borders 1 and 4; 1 borders 2 and 3; 2, 3 and 4
	// hold 2, 3 and 5 armies; 5 (enemy, 6 armies) borders 1 and 0 only in
	// the last case.
	nbr := [][]int{{1, 4}, {0, 2, 3}, {1}, {1}, {0}}
	owner := []int{0, 1, 1, 1, 1}
	armies := []int{10, 1, 2, 3, 5}
	setup := func(t *testing.T, paths ...[]int) *mediator {
		p := wordParams()
		p.Gl = 2
		m := testMediator(t, p, nbr, make([]int, 5), []int{1}, owner, armies)
		m.place(0)
		m.clearPursued()
		for _, path := range paths {
			pursueGoal(t, m, 0, path...)
		}
		m.b.Armies[1] = 0 // as the engine shows it when asking to occupy
		return m
	}
	t.Run("every goal through the conquest is handed on", func(t *testing.T) {
		m := setup(t, []int{1, 2}, []int{1, 3}, []int{1})
		assert.Equal(t, 9, m.occupy(0, 1, 3, 9), "no live goal stays behind: everything moves in")
		assert.Equal(t, 0, len(pursuedOf(m, 0)))
		var got [][]int
		for _, p := range pursuedOf(m, 1) {
			assert.Equal(t, 1, p[1])
			got = append(got, m.path(p[0]))
		}
		assert.Equal(t, [][]int{{1, 2}, {1, 3}}, got, "the goal ending at 1 is achieved")
	})
	t.Run("goals on both sides: split by defenders", func(t *testing.T) {
		m := setup(t, []int{1, 2}, []int{4})
		// 2 defenders ahead, 5 behind: 10*2/7 = 2 move in.
		assert.Equal(t, 2, m.occupy(0, 1, 1, 9))
		assert.Equal(t, 1, len(pursuedOf(m, 0)), "goal 4 stays with agent 0")
		assert.Equal(t, 1, len(pursuedOf(m, 1)))
	})
	t.Run("no goal goes on: split by enemy stacks", func(t *testing.T) {
		m := setup(t, []int{1}, []int{4})
		// 1 faces 3 (strongest of 2 and 3), 0 faces 5: 10*3/8 = 3.
		assert.Equal(t, 3, m.occupy(0, 1, 1, 9))
		assert.Equal(t, 0, len(pursuedOf(m, 1)))
	})
}

func TestOddsLarge(t *testing.T) {
	t.Parallel()
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	assert.Equal(t, 1.0, o.win(300, 3))
	ch := dice.NewChainer(dice.Classic, 300)
	assert.InDelta(t, ch.Win(300, []int{280}), o.win(300, 280), 1e-12)
	assert.Equal(t, 512, o.tbl.N(), "grown to the next multiple of 256")
	// Beyond the largest table: scaled down to W(1024, 512).
	got := o.win(2048, 1024)
	assert.Equal(t, 1024, o.tbl.N())
	assert.InDelta(t, o.tbl.Win(1024, 512), got, 1e-15)
}

// maxFlowBrute returns the minimum s-t cut of a capacity matrix by trying
// every set of inner nodes on the source side.
func maxFlowBrute(c [][]int, s, t int) int {
	n := len(c)
	best := math.MaxInt
	for mask := 0; mask < 1<<n; mask++ {
		if mask&(1<<s) == 0 || mask&(1<<t) != 0 {
			continue
		}
		cut := 0
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if mask&(1<<u) != 0 && mask&(1<<v) == 0 {
					cut += c[u][v]
				}
			}
		}
		best = min(best, cut)
	}
	return best
}

func TestMaxFlow(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	var f flowNet
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(7)
		c := make([][]int, n)
		for i := range c {
			c[i] = make([]int, n)
		}
		f.reset(n)
		var edges [][3]int
		for k := rng.IntN(3 * n); k > 0; k-- {
			u, v := rng.IntN(n), rng.IntN(n)
			if u == v {
				continue
			}
			w := rng.IntN(6)
			c[u][v] += w
			edges = append(edges, [3]int{u, v, f.addEdge(u, v, w)})
		}
		got := f.maxFlow(0, n-1)
		require.Equal(t, maxFlowBrute(c, 0, n-1), got, "trial %d", trial)
		// Flow conservation and capacities.
		bal := make([]int, n)
		for _, e := range edges {
			fl := f.flow(e[2])
			require.True(t, fl >= 0)

			bal[e[0]] -= fl
			bal[e[1]] += fl
		}
		for v := 1; v < n-1; v++ {
			require.Equal(t, 0, bal[v])
		}
		require.Equal(t, got, bal[n-1])
	}
}

func TestMaxFlowHand(t *testing.T) {
	t.Parallel()
	// The CLRS example network: maximum flow 23.
	var f flowNet
	f.reset(6)
	for _, e := range [][3]int{{0, 1, 16}, {0, 2, 13}, {1, 3, 12}, {2, 1, 4}, {2, 4, 14}, {3, 2, 9}, {3, 5, 20}, {4, 3, 7}, {4, 5, 4}} {
		f.addEdge(e[0], e[1], e[2])
	}
	assert.Equal(t, 23, f.maxFlow(0, 5))
}

// TestFortifyRules plays the fortification planner on random positions and
// checks every plan with the engine's own check (sim.State.CheckMoves)
// under each fortify rule, and by hand: both ends own, adjacent (or joined
// by own territories under connected), and no territory sends more than
// its armies at the start of the phase minus one, so no army moves twice.
func TestFortifyRules(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	moved, trials := 0, 300
	if race.Enabled { // a sequential planner: test-full tries it whole
		trials = 100
	}
	for trial := 0; trial < trials; trial++ {
		n := 6 + rng.IntN(14)
		nbr := randomGraph(rng, n)
		cont := make([]int, n)
		owner := make([]int, n)
		armies := make([]int, n)
		for i := range owner {
			cont[i] = i % 2
			owner[i] = rng.IntN(3)
			if rng.IntN(2) == 0 {
				owner[i] = 0
			}
			armies[i] = 1 + rng.IntN(12)
		}
		if !slices.ContainsFunc(owner, func(o int) bool { return o != 0 }) {
			owner[n-1] = 1 // a position needs two seats on the board
		}
		for _, mode := range []sim.FortifyMode{sim.FortifyOneStep, sim.FortifySingle, sim.FortifyConnected} {
			m, s := testStateMediator(t, wordParams(), mode, nbr, cont, []int{2, 3}, owner, armies)
			moves := m.fortify(mode, nil)
			require.NoError(t, s.CheckMoves(0, moves), "trial %d %s: %v", trial, mode, moves)
			if mode != sim.FortifyOneStep {
				require.LessOrEqual(t, len(moves), 1)
			}
			moved += len(moves)
			out := make([]int, n)
			for _, mv := range moves {
				require.Equal(t, 0, owner[mv.From])
				require.Equal(t, 0, owner[mv.To])
				require.Positive(t, mv.Armies)
				require.NotEqual(t, mv.From, mv.To)
				if mode == sim.FortifyConnected {
					require.True(t, s.Paths().Connected(s, 0, mv.From, mv.To), "%d and %d not joined", mv.From, mv.To)
				} else {
					require.Contains(t, nbr[mv.From], mv.To)
				}
				out[mv.From] += mv.Armies
				require.LessOrEqual(t, out[mv.From], armies[mv.From]-1, "%s: territory %d sends %d of %d", mode, mv.From, out[mv.From], armies[mv.From])
			}
		}
	}
	require.Greater(t, moved, trials, "the planner hardly moves")
}

func TestFortifyHand(t *testing.T) {
	t.Parallel()
	// Line 0 - 1 - 2 - 3: own 0, 1, 2 with 5, 4, 2 armies; enemy 3 with 6.
	// Front: 2 (threat 6). Interior 1 (distance 1) sells 3 to the front;
	// interior 0 (distance 2) sells 4 to the relay 1. Max flow 7: both
	// move, each army one step.
	nbr := [][]int{{1}, {0, 2}, {1, 3}, {2}}
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, []int{0, 0, 0, 0}, []int{2}, []int{0, 0, 0, 1}, []int{5, 4, 2, 6})
	moves := m.fortify("one-step", nil)
	assert.ElementsMatch(t, []struct{ From, To, Armies int }{{0, 1, 4}, {1, 2, 3}}, toTriples(moves))
	single := m.fortify("single", nil)
	assert.Equal(t, []struct{ From, To, Armies int }{{0, 1, 4}}, toTriples(single))
	conn := m.fortify("connected", nil)
	assert.Equal(t, []struct{ From, To, Armies int }{{0, 2, 4}}, toTriples(conn))
}

// TestFortifyThreatenedFront checks that a front whose value V_c is
// negative (C_enu < 0 times a huge enemy stack) still receives armies.
func TestFortifyThreatenedFront(t *testing.T) {
	t.Parallel()
	// Line 0 - 1 - 2: own 0 (interior, 20 armies) and 1 (front, 2
	// armies); enemy 2 holds 3000 armies, so V_c(1) < 0.
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, lineNbr, []int{0, 0, 0}, []int{2}, []int{0, 0, 1}, []int{20, 2, 3000})
	for _, tc := range []struct {
		mode sim.FortifyMode
		want []struct{ From, To, Armies int }
	}{
		{"one-step", []struct{ From, To, Armies int }{{0, 1, 19}}},
		{"single", []struct{ From, To, Armies int }{{0, 1, 19}}},
		{"connected", []struct{ From, To, Armies int }{{0, 1, 19}}},
	} {
		moves := m.fortify(tc.mode, nil)
		require.Less(t, m.vals[1], 0.0, "V_c of the front")
		assert.Equal(t, tc.want, toTriples(moves), tc.mode)
	}
}

// TestFortifyConnectedSteps checks the transport cost of the connected
// rule: a front two steps away needs a bid over 1/0.9 times that of a
// front one step away.
func TestFortifyConnectedSteps(t *testing.T) {
	t.Parallel()
	// Front A = 0 (next to enemy 4), interior S = 1 (10 armies), interior
	// X = 2, front B = 3 (next to enemy 5): A is one step from S, B two.
	nbr := [][]int{{4, 1}, {0, 2}, {1, 3}, {2, 5}, {0}, {3}}
	m, _ := testStateMediator(t, wordParams(), sim.FortifyConnected, nbr, make([]int, 6), []int{2}, []int{0, 0, 0, 0, 1, 1}, []int{2, 10, 1, 2, 3, 3})
	m.analyse()
	for _, tc := range []struct {
		vb   float64 // V_c of B; A's is 10
		want int
	}{
		{10.5, 0}, // B bids 5 % more, less than the extra step's 10 %
		{11.5, 3}, // 15 % more: worth the step
	} {
		m.vals[0], m.vals[3] = 10, tc.vb
		moves := m.fortifyConnected(nil)
		require.Equal(t, 1, len(moves))
		assert.Equal(t, sim.Move{From: 1, To: tc.want, Armies: 9}, moves[0], "V_c(B) = %v", tc.vb)
	}
}

func toTriples[M interface {
	~struct{ From, To, Armies int }
}](ms []M) []struct{ From, To, Armies int } {
	out := make([]struct{ From, To, Armies int }, len(ms))
	for i, m := range ms {
		out[i] = struct{ From, To, Armies int }(m)
	}
	return out
}

// TestLazyAuction checks the placement auction, whose agents bid lazily
// (stale first bids, re-bids only when picked), against the eager auction
// of the paper: every agent bids exactly at once, and every agent whose
// bid is for more armies than remain re-bids before each round.
func TestLazyAuction(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	rounds, several := 0, 0
	for trial := 0; trial < 80; trial++ {
		nt := 8 + rng.IntN(8)
		nbr, owner, armies := randomPosition(rng, nt)
		vals := make([]float64, nt)
		for i := range vals {
			vals[i] = 1 + 10*rng.Float64()
		}
		n := 1 + rng.IntN(15)
		fresh := func() *mediator {
			m := testMediator(t, wordParams(), nbr, make([]int, nt), []int{3}, owner, armies)
			copy(m.vals, vals)
			m.propagate(n)
			return m
		}
		lazy := fresh()
		lazy.placeAuction(n)

		eager := fresh()
		var own []int
		eager.clearPursued()
		for u := range nt {
			a := &eager.agents[u]
			a.zeroUsed, a.placed = false, 0
			if owner[u] == 0 {
				own = append(own, u)
				eager.bidFor(u, n)
			}
		}
		eager.own = own
		for left := n; left > 0; rounds++ {
			win := -1
			for _, u := range own {
				a := &eager.agents[u]
				if a.bid.I > left {
					eager.bidFor(u, left)
				}
				if a.bid.Value > 0 && (win < 0 || a.bid.Value > eager.agents[win].bid.Value) {
					win = u
				}
			}
			if win < 0 {
				eager.rest(left)
				break
			}
			a := &eager.agents[win]
			if w := a.bid; w.Goal >= 0 {
				eager.pursue(win, w.Goal, 0)
				eager.goals[w.Goal].won = true
			}
			a.placed += a.bid.I
			eager.b.Armies[win] += a.bid.I
			left -= a.bid.I
			a.zeroUsed = true
			if left > 0 {
				eager.bidFor(win, left)
			}
		}
		// Every goal that won an auction is pursued by its agent, in the
		// order of the wins.
		won := 0
		for g := range lazy.goals {
			if lazy.goals[g].won {
				won++
				assert.True(t, slices.Contains(pursuedOf(lazy, int(lazy.goals[g].from)), [2]int{g, 0}),
					"trial %d: won goal %d not pursued by agent %d", trial, g, lazy.goals[g].from)
			}
		}
		npursued := 0
		for u := range nt {
			npursued += len(pursuedOf(lazy, u))
			if len(pursuedOf(lazy, u)) > 1 {
				several++
			}
		}
		assert.Equal(t, won, npursued, "trial %d: pursued goals", trial)
		require.Equal(t, eager.b.Armies, lazy.b.Armies, "trial %d", trial)
		for u := range nt {
			assert.Equal(t, pursuedOf(eager, u), pursuedOf(lazy, u), "trial %d agent %d: pursued goals", trial, u)
			assert.Equal(t, eager.agents[u].placed, lazy.agents[u].placed, "trial %d agent %d", trial, u)
		}
	}
	require.True(t, rounds > 200, "only %d auction rounds", rounds)
	require.True(t, several > 10, "only %d agents pursue several goals", several)
}

// TestMayReachBound checks that the pruning test never drops a chain whose
// exact odds reach pPrune, for any order of its defenders and several dice
// rules, and that it does drop hopeless chains.
func TestMayReachBound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	for _, r := range []dice.Rules{dice.Classic, {AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true},
		{AttackerDice: 1, DefenderDice: 1}, {AttackerDice: 3, DefenderDice: 3}, {AttackerDice: 2, DefenderDice: 1}} {
		o, err := newOdds(r)
		require.NoError(t, err)
		ch := dice.NewChainer(r, 64)
		pruned, near := 0, 0
		for trial := 0; trial < 3000; trial++ {
			k := 1 + rng.IntN(5)
			defs := make([]int, k)
			sum := 0
			for j := range defs {
				defs[j] = 1 + rng.IntN(1+rng.IntN(8))
				sum += defs[j]
			}
			a := 1 + rng.IntN(2*sum+k)
			exact := ch.Win(a, defs)
			if !o.mayReach(a, k, sum) {
				pruned++
				require.Less(t, exact, pPrune, "%v: %d attackers against %v dropped", r, a, defs)
			} else if exact < pPrune {
				near++
			}
		}
		assert.True(t, pruned > 150, "%v: only %d of 3000 chains dropped", r, pruned)
		t.Logf("%v: q = %.4f, %d chains dropped, %d kept below %v", r, o.q, pruned, near, pPrune)
	}
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	// Classic dice: 3 against 1 kills with 855/1296, the largest rate.
	assert.InDelta(t, 855.0/1296, o.q, 1e-9)
	// The audit's case: 5 attackers against five 1-army territories have
	// exact odds 6.9 %, so the chain is kept (the old test, one battle of
	// 1 against 5, gave 0.18 % and dropped it).
	ch := dice.NewChainer(dice.Classic, 10)
	assert.InDelta(t, 0.069, ch.Win(5, []int{1, 1, 1, 1, 1}), 5e-4)
	assert.True(t, o.mayReach(5, 5, 5))
	assert.Less(t, o.win(1, 5), pPrune)
	// Hopeless chains go: 3 attackers against 20 armies in one territory,
	// too few armies to leave one in each of 4 territories.
	assert.False(t, o.mayReach(3, 1, 20))
	assert.False(t, o.mayReach(3, 4, 4))
}

// TestCardAgent checks the card agent on seat 0's hands in the position of
// testdata/cards.toml (classic rules: the first set is worth 4 armies, a
// shown territory its owner holds 2 more; seat 0's income is 23).
func TestCardAgent(t *testing.T) {
	t.Parallel()
	m, r, base := simtest.LoadPosition(t, "classic", "classic", "testdata/cards.toml")
	tests := []struct {
		name   string
		hand   []string // seat 0's cards: territories, "wild" for a wild card
		forced bool
		set    [3]int
		reward int
		trade  bool
	}{
		{"no set", []string{"Siberia", "Irkutsk", "Yakutsk"}, false, [3]int{}, 0, false},
		{"no set, forced", []string{"Siberia", "Irkutsk", "Yakutsk"}, true, [3]int{}, 0, false},
		// Siberia, Yakutsk, Ural: one of each symbol, worth 4 < 23/2.
		{"holds a small set", []string{"Siberia", "Yakutsk", "Ural"}, false, [3]int{0, 1, 2}, 4, false},
		{"trades when forced", []string{"Siberia", "Yakutsk", "Ural"}, true, [3]int{0, 1, 2}, 4, true},
		{"trades with four cards", []string{"Siberia", "Yakutsk", "Ural", "Irkutsk"}, false, [3]int{0, 1, 2}, 4, true},
		// Three infantry (0, 1, 2) come first, but a set showing the
		// Northwest Territory, seat 0's, is worth 2 more.
		{"owned territory bonus", []string{"Siberia", "Irkutsk", "Afghanistan", "Northwest Territory", "Ural"}, true, [3]int{0, 3, 4}, 6, true},
		{"wild card", []string{"Alaska", "wild", "Siberia"}, false, [3]int{0, 1, 2}, 6, false},
		// Siberia, wild, Yakutsk comes first and is worth 4, as is the
		// wild-free Siberia, Yakutsk, Ural: the wild is kept.
		{"keeps a free wild", []string{"Siberia", "wild", "Yakutsk", "Ural"}, false, [3]int{0, 2, 3}, 4, true},
		{"keeps a free wild, forced", []string{"wild", "Siberia", "Yakutsk", "Ural", "Irkutsk"}, true, [3]int{1, 2, 3}, 4, true},
	}
	var agent cardAgent // one agent for every case: its buffers are reused
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := base.Clone()
			dealTo(t, m, pos, 0, tc.hand...)
			s, err := sim.NewStateAt(m, r, pos, 0)
			require.NoError(t, err)
			require.Equal(t, 23, s.Income(0))
			set, reward, ok := agent.choose(s, 0, tc.forced)
			assert.Equal(t, tc.trade, ok, "trade")
			assert.Equal(t, tc.reward, reward, "reward")
			if tc.reward > 0 {
				assert.Equal(t, tc.set, set, "set")
				assert.NoError(t, s.CheckTrade(0, set), "the set is legal")
			}
		})
	}
}

// dealTo moves the cards of the named territories ("wild" for a wild
// card) from pos's deck to the end of seat's hand, in that order.
func dealTo(t testing.TB, m *sim.Map, pos *sim.Position, seat int, names ...string) {
	t.Helper()
	for _, name := range names {
		c := sim.Card{Territory: -1, Symbol: sim.Wild}
		if name != "wild" {
			id, ok := m.TerritoryID(name)
			require.True(t, ok, "no territory %q", name)
			c = sim.Card{Territory: int16(id), Symbol: uint8(id % 3)}
		}
		i := slices.Index(pos.Deck, c)
		require.GreaterOrEqual(t, i, 0, "card %q is not in the deck", name)
		pos.Deck = slices.Delete(pos.Deck, i, i+1)
		pos.Hands[seat] = append(pos.Hands[seat], c)
	}
}

// TestFortifyAnalyse checks the searches through MARS's territories on a
// line 0 - 1 - 2 - 3 - 4 - 5 - 6 with own 0, 1, 2 | enemy 3 | own 4 |
// enemy 5 | own 6: the steps to the front, the spare armies and the
// clusters of the explanation.
func TestFortifyAnalyse(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5}}
	owner := []int{0, 0, 0, 1, 0, 1, 0}
	armies := []int{6, 4, 3, 5, 2, 1, 7}
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, make([]int, 7), []int{2}, owner, armies)
	m.analyse()
	assert.Equal(t, []int{2, 1, 0, -1, 0, -1, 0}, m.fl.dist, "steps to the front")
	assert.Equal(t, []int{0, 0, 5, 0, 5, 0, 1}, m.fl.threat, "largest enemy stack next door")
	// Interior: all but one; front: all above the threat (at least one).
	assert.Equal(t, []int{5, 3, 0, 0, 0, 0, 6}, m.fl.spare)
	assert.Equal(t, 3, m.fl.nseller)
	assert.Equal(t, 3, m.clusters())
	var buf strings.Builder
	m.w = &buf
	m.names = []string{"a", "b", "c", "d", "e", "f", "g"}
	m.fortify(sim.FortifyOneStep, nil)
	assert.Contains(t, buf.String(), "fortify (one-step): 3 clusters, 3 sellers")
}

// TestFortifyAuctionScan checks the intra-cluster auction, which lists its
// seller-buyer pairs once and keeps the bids, against a scan of every
// territory and neighbour with fresh bids for every army, on random
// positions.
func TestFortifyAuctionScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	sales := 0
	for trial := 0; trial < 100; trial++ {
		nt := 6 + rng.IntN(14)
		nbr, owner, armies := randomPosition(rng, nt)
		for i := range armies {
			armies[i] += rng.IntN(12)
		}
		owner[0], owner[1], owner[2] = 0, 1, 2 // every seat on the board
		m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, make([]int, nt), []int{2}, owner, armies)
		for u := range m.vals {
			m.vals[u] = 4*rng.Float64() - 1
		}
		m.analyse()
		f := &m.fl
		b := m.b
		sold, got := slices.Clone(f.sold), slices.Clone(f.got)
		for {
			bestS, bestU, best := -1, -1, 0.0
			bid := func(u int) float64 {
				return max(m.vals[u], valueFloor) * float64(f.threat[u]+1) / float64(b.Armies[u]+got[u]-sold[u]+1)
			}
			for s := range b.Owner {
				if f.spare[s]-sold[s] <= 0 || f.dist[s] > 1 {
					continue
				}
				keep := 0.0
				if f.dist[s] == 0 {
					keep = bid(s)
				}
				for _, u := range b.nbr[s] {
					if b.Owner[u] != b.me || f.dist[u] != 0 || (f.dist[s] == 0 && f.spare[u] > 0) {
						continue
					}
					if price := bid(u) * (1 - transportCost); price > keep && price > best {
						bestS, bestU, best = s, u, price
					}
				}
			}
			if bestS < 0 {
				break
			}
			sold[bestS]++
			got[bestU]++
			sales++
		}
		m.auction()
		assert.Equal(t, sold, f.sold, "trial %d: armies sold", trial)
		assert.Equal(t, got, f.got, "trial %d: armies bought", trial)
		assert.Equal(t, got, f.demand, "trial %d: demand", trial)
	}
	assert.Greater(t, sales, 200)
}

// FuzzDecisionsLegal plays MARS's attack auction and fortification
// planner on a random position (a random connected map of 6..25
// territories, three seats) drawn from the fuzzed seed, and checks every
// answer with the engine's own checks (sim.State.CheckAttack, CheckMoves
// under each fortify rule).
func FuzzDecisionsLegal(f *testing.F) {
	for seed := range uint64(20) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 11))
		n := 6 + rng.IntN(20)
		nbr := randomGraph(rng, n)
		cont := make([]int, n)
		owner := make([]int, n)
		armies := make([]int, n)
		for i := range owner {
			cont[i] = i % 3
			owner[i] = rng.IntN(3)
			armies[i] = 1 + rng.IntN(1+rng.IntN(30))
		}
		owner[0], owner[n-1] = 0, 1 // two seats on the board, seat 0 among them
		for _, mode := range []sim.FortifyMode{sim.FortifyOneStep, sim.FortifySingle, sim.FortifyConnected} {
			m, s := testStateMediator(t, wordParams(), mode, nbr, cont, []int{2, 3, 5}, owner, armies)
			m.place(0)
			for _, conquered := range []bool{false, true} {
				c, thr, ok := m.chooseAttack(conquered)
				if c.odds < 0 {
					require.Empty(t, s.LegalAttacks(0, nil), "no bid, but legal attacks")
					continue
				}
				require.NoError(t, s.CheckAttack(0, sim.AttackOrder{From: c.from, To: c.to}), "seed %d: bid %+v", seed, c)
				require.Equal(t, c.odds >= thr, ok)
			}
			moves := m.fortify(mode, nil)
			require.NoError(t, s.CheckMoves(0, moves), "seed %d %s: %v", seed, mode, moves)
		}
	})
}

// TestFortifyContinentBorder checks the continent-border factor of the
// armies a territory can spare: a front territory guarding a continent MARS
// holds whole keeps its armies, the same front on a continent MARS does not
// hold sells its surplus to a weak front next to it.
func TestFortifyContinentBorder(t *testing.T) {
	t.Parallel()
	// Continent 0 = {0, 1}, continent 1 = {2, 3}. 1 borders 0, enemy 2
	// (5 armies) and own 3 (1 army, also facing 2); 0 borders only 1.
	nbr := [][]int{{1}, {0, 2, 3}, {1, 3}, {1, 2}}
	cont := []int{0, 0, 1, 1}
	bonus := []int{2, 2}
	for _, tc := range []struct {
		name   string
		owner  []int
		spare1 int
		want   []struct{ From, To, Armies int }
	}{
		{"continent held", []int{0, 0, 1, 0}, 0, []struct{ From, To, Armies int }{}},
		// 1 can spare 5 and sells while 3's bid less the transport cost
		// beats its own: 3 of them.
		{"continent not held", []int{1, 0, 1, 0}, 5, []struct{ From, To, Armies int }{{1, 3, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, cont, bonus, tc.owner, []int{1, 10, 5, 1})
			moves := m.fortify(sim.FortifyOneStep, nil)
			assert.Equal(t, 0, m.fl.dist[1], "1 is a front territory")
			assert.Equal(t, 5, m.fl.threat[1])
			assert.Equal(t, tc.spare1, m.fl.spare[1])
			assert.Equal(t, tc.want, toTriples(moves))
			require.NoError(t, s.CheckMoves(0, moves))
		})
	}
}

// TestExplainAttackBids checks the attack auction's explanation: the
// outcome, then the bids of every eligible agent, the best explainBids of
// them by odds with the count of the rest.
func TestExplainAttackBids(t *testing.T) {
	t.Parallel()
	// Own i = 0..6 (2..8 armies) each borders enemy i+7 (1 army) alone;
	// the enemy territories form a line.
	const k = 7
	nbr := make([][]int, 2*k)
	owner := make([]int, 2*k)
	armies := make([]int, 2*k)
	names := make([]string, 2*k)
	for i := range k {
		nbr[i], nbr[i+k] = []int{i + k}, []int{i}
		if i > 0 {
			nbr[i+k] = append(nbr[i+k], i+k-1)
		}
		if i < k-1 {
			nbr[i+k] = append(nbr[i+k], i+k+1)
		}
		owner[i], owner[i+k] = 0, 1
		armies[i], armies[i+k] = 2+i, 1
		names[i], names[i+k] = fmt.Sprintf("o%d", i), fmt.Sprintf("e%d", i)
	}
	m, _ := testStateMediator(t, wordParams(), sim.FortifyOneStep, nbr, make([]int, 2*k), []int{2}, owner, armies)
	m.place(0)
	m.clearPursued()
	var buf strings.Builder
	m.w, m.names = &buf, names
	c, _, ok := m.chooseAttack(false)
	require.True(t, ok)
	assert.Equal(t, 6, c.from)
	m.explainAttack(c, false, ok)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 2, buf.String())
	assert.Equal(t, fmt.Sprintf("  attack: o6(8)>e6(1) odds %.3f >= W_p1=0.25 (battle)", m.o.win(7, 1)), lines[0])
	want := "    bids of 7 agents, best 5:"
	for i := 6; i >= 2; i-- {
		if i < 6 {
			want += ";"
		}
		want += fmt.Sprintf(" o%d(%d)>e%d(1) %.3f (battle)", i, i+2, i, m.o.win(i+1, 1))
	}
	assert.Equal(t, want+"; 2 more", lines[1])

	// Below the threshold the best bid stops the attack, and every bid is
	// still listed.
	buf.Reset()
	m.p.Wp1 = 0.9999
	c, _, ok = m.chooseAttack(false)
	require.False(t, ok)
	m.explainAttack(c, false, ok)
	lines = strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 2, buf.String())
	assert.Equal(t, fmt.Sprintf("  attack: stop, best bid o6>e6 odds %.3f < W_p1=0.9999", m.o.win(7, 1)), lines[0])
	assert.Contains(t, lines[1], "bids of 7 agents, best 5: o6(8)>e6(1)")

	// Under attack_targets = goals only the agents with a live goal bid:
	// o3 pursues o3>e3>e4, the others none.
	m.p.Wp1, m.p.Attack = 0.25, AttackGoals
	pursueGoal(t, m, 3, 10, 11)
	buf.Reset()
	c, _, ok = m.chooseAttack(false)
	require.True(t, ok)
	m.explainAttack(c, false, ok)
	lines = strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 2, buf.String())
	odds := dice.NewChainer(dice.Classic, 10).Win(4, []int{1, 1})
	assert.Equal(t, fmt.Sprintf("  attack: o3(5)>e3(1) odds %.3f >= W_p1=0.25 (goal o3>e3(1)>e4(1))", odds), lines[0])
	assert.Equal(t, fmt.Sprintf("    bids of 1 agents: o3(5)>e3(1) %.3f (goal o3>e3(1)>e4(1))", odds), lines[1])
	// With no goal, no agent bids and the attack stops.
	m.clearPursued()
	buf.Reset()
	c, _, ok = m.chooseAttack(false)
	require.False(t, ok)
	m.explainAttack(c, false, ok)
	assert.Equal(t, "  attack: stop, no pursued goal can reach W_p1=0.25 (attack_targets = goals)\n", buf.String())
}

// offensiveGoal returns the path of agent t's best offensive bid for n
// armies, with the values vals, after goal propagation under p.
func offensiveGoal(t *testing.T, p Params, nbr [][]int, owner, armies []int, vals []float64, ag, n int) []int {
	t.Helper()
	m := testMediator(t, p, nbr, make([]int, len(nbr)), []int{2}, owner, armies)
	copy(m.vals, vals)
	m.propagate(n)
	b := m.offensive(ag, n, true)
	require.GreaterOrEqual(t, b.Goal, 0, "an offensive bid")
	return m.path(b.Goal)
}

// TestGoalValueOption checks that goal_value changes the goal an agent
// bids for: own 0 (10 armies) borders enemy 1 (V_c 10) and 3 (V_c 6);
// enemy 2 (V_c 1) lies behind 1. Every enemy holds 1 army.
func TestGoalValueOption(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1, 3}, {0, 2}, {1}, {0}}
	owner := []int{0, 1, 1, 1}
	armies := []int{10, 1, 1, 1}
	vals := []float64{1, 10, 1, 6}
	for _, tc := range []struct {
		value GoalValue
		want  []int
	}{
		// sum: 1>2 is worth 10+1, more than 1 alone (10) at nearly the
		// same odds.
		{GoalValueSum, []int{1, 2}},
		// target: 1>2 is worth V_c(2) = 1; territory 1 alone is best.
		{GoalValueTarget, []int{1}},
	} {
		p := wordParams()
		p.GoalValue = tc.value
		assert.Equal(t, tc.want, offensiveGoal(t, p, nbr, owner, armies, vals, 0, 3), "goal_value %d", tc.value)
	}
}

// TestGoalPathsOption checks that goal_paths changes the goal an agent
// bids for: the valuable enemy 2 (V_c 50, 1 army) is two steps from own
// 0 (10 armies) through enemy 1 (3 armies) and three steps through
// enemies 3 and 4 (1 army each).
func TestGoalPathsOption(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1, 3}, {0, 2}, {1, 4}, {0, 4}, {3, 2}}
	owner := []int{0, 1, 1, 1, 1}
	armies := []int{10, 3, 1, 1, 1}
	vals := []float64{1, 1, 50, 1, 1}
	for _, tc := range []struct {
		paths GoalPaths
		want  []int
	}{
		// all: the long, weakly held path to 2 has the better odds.
		{GoalPathsAll, []int{3, 4, 2}},
		// shortest: the only path to 2 kept is the one through 1.
		{GoalPathsShortest, []int{1, 2}},
	} {
		p := wordParams()
		p.GoalPaths = tc.paths
		assert.Equal(t, tc.want, offensiveGoal(t, p, nbr, owner, armies, vals, 0, 3), "goal_paths %d", tc.paths)
	}
}

// TestDefensiveBidOption checks that defensive_bid changes which own
// territory the placement auction reinforces: 0 (20 armies) faces an
// enemy of 2, 1 (2 armies) an enemy of 4. The gain reading reinforces the
// threatened 1; the printed equation the safe 0 (its zero-army bid
// first, then the army).
func TestDefensiveBidOption(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1, 2}, {0, 3}, {0, 3}, {1, 2}}
	for _, tc := range []struct {
		def    DefensiveBid
		placed []int
	}{
		{DefensiveGain, []int{0, 1}},
		{DefensiveLiteral, []int{1, 0}},
	} {
		p := wordParams()
		p.Defensive = tc.def
		p.Pob = 0.01 // offensive bids out of the way
		m, _ := testStateMediator(t, p, sim.FortifyOneStep, nbr, make([]int, 4), []int{2}, []int{0, 0, 1, 1}, []int{20, 2, 2, 4})
		m.place(1)
		assert.Equal(t, tc.placed, []int{m.agents[0].placed, m.agents[1].placed}, "defensive_bid %d", tc.def)
		for _, ag := range []int{0, 1} {
			d := m.defensive(ag, 1, true)
			want := m.p.Pdb * d.V * (d.D1 - d.D0) / float64(max(d.I, 1))
			if tc.def == DefensiveLiteral {
				want = m.p.Pdb * d.V * d.D1 / float64(max(d.I, 1))
			}
			assert.InDelta(t, want, d.Value, 1e-12, "agent %d", ag)
		}
	}
}

// TestHoldUnitOption checks that hold_unit = percent multiplies every
// defensive bid by 100 under both readings of equation (5), with d_m and
// d_(m+i) in percent, and lets defence win the auction that offence wins
// under fractions: territory 0 (2 armies, one enemy neighbour of 3) has a
// goal, 2 (1 army) beside it.
func TestHoldUnitOption(t *testing.T) {
	t.Parallel()
	for _, def := range []DefensiveBid{DefensiveGain, DefensiveLiteral} {
		p := wordParams()
		p.Defensive = def
		m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 3, 1})
		m.vals[0] = 10
		frac := m.defensive(0, 3, true)
		m.p.HoldUnit = HoldPercent
		pct := m.defensive(0, 3, true)
		assert.Equal(t, frac.I, pct.I, "defensive_bid %d", def)
		assert.InDelta(t, 100*frac.Value, pct.Value, 1e-9, "defensive_bid %d", def)
		assert.InDelta(t, 100*frac.D0, pct.D0, 1e-9)
		assert.InDelta(t, 100*frac.D1, pct.D1, 1e-9)
	}
	// On the line 0-1-2, own 0 (2 armies) borders the enemy 1 (5 armies):
	// its goal 1 bids about 206 for one army, its defence about 11.7 under
	// fractions and 1169 under percent, which then wins the army.
	for _, tc := range []struct {
		unit     HoldUnit
		off, def int64
	}{
		{HoldFraction, 1, 0},
		{HoldPercent, 0, 1},
	} {
		p := wordParams()
		p.HoldUnit = tc.unit
		p.Gl = 1
		m := testMediator(t, p, lineNbr, []int{0, 0, 0}, []int{1}, []int{0, 1, 1}, []int{2, 5, 1})
		m.place(1)
		assert.Equal(t, auctionStats{off: tc.off, def: tc.def, offArmies: tc.off, defArmies: tc.def}, m.st, "hold_unit %d", tc.unit)
	}
}

// TestAttackTargetsOption checks attack_targets on the board of
// pursuing23: agent 0 (6 armies) borders 1 (1 army) and 2 (5 armies, then
// 3 with 1). Under any, an agent whose goals are below the threshold, or
// that pursues none, attacks its likeliest single battle (1, W(5, 1) =
// 0.9903); under goals it attacks only for a pursued goal, 2>3, with the
// odds of the whole path (W(5, [5, 1]) = 0.3526: above W_p1, below W_p).
func TestAttackTargetsOption(t *testing.T) {
	t.Parallel()
	ch := dice.NewChainer(dice.Classic, 10)
	goalOdds, single := ch.Win(5, []int{5, 1}), ch.Win(5, []int{1})
	require.InDelta(t, 0.3526, goalOdds, 1e-4)
	require.InDelta(t, 0.9903, single, 1e-4)
	tests := []struct {
		name      string
		attack    AttackTargets
		conquered bool // W_p instead of W_p1
		goal      bool // agent 0 pursues 2>3
		ok        bool
		to        int
		pursuit   int
		odds      float64
	}{
		{"any, goal above W_p1", AttackAny, false, true, true, 2, 0, goalOdds},
		{"goals, goal above W_p1", AttackGoals, false, true, true, 2, 0, goalOdds},
		{"any, goal below W_p: single battle", AttackAny, true, true, true, 1, -1, single},
		// The goal's bound is below W_p: it is not bid at all.
		{"goals, goal below W_p: no attack", AttackGoals, true, true, false, -1, -1, -1},
		{"any, no goal: single battle", AttackAny, false, false, true, 1, -1, single},
		{"goals, no goal: no bid", AttackGoals, false, false, false, -1, -1, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := pursuing23(t, 6, 1, 5, 1)
			m.p.Attack = tc.attack
			if !tc.goal {
				m.clearPursued()
			}
			c, _, ok := m.chooseAttack(tc.conquered)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.to, c.to)
			assert.Equal(t, tc.pursuit, c.pursuit)
			assert.InDelta(t, tc.odds, c.odds, 1e-12)
		})
	}
}

// wordParams returns the paper's numbers (Tables 1 and 2) with the readings
// that follow the paper's words most literally (goal value sum, shortest
// goal paths, hold probabilities as fractions, attacks on any enemy
// neighbour): the positions of these unit tests were worked out by hand
// under them. PaperParams carries the readings of notebooks/paper-readings.
func wordParams() Params {
	p := PaperParams()
	p.GoalValue, p.GoalPaths, p.HoldUnit, p.Attack = GoalValueSum, GoalPathsShortest, HoldFraction, AttackAny
	return p
}
