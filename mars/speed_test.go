package mars

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestNeighbourMasks checks the per-map neighbour bit sets: kept for maps
// of at most 64 territories with strictly ascending lists, nil otherwise
// (propagate's general loop then visits the lists).
func TestNeighbourMasks(t *testing.T) {
	t.Parallel()
	big := make([][]int, 65)
	for i := range big {
		big[i] = []int{(i + 1) % 65}
	}
	tests := []struct {
		name string
		nbr  [][]int
		want []uint64
	}{
		{"ascending", [][]int{{1, 2}, {0}, {0}}, []uint64{0b110, 0b001, 0b001}},
		{"line", [][]int{{1}, {0, 2}, {1}}, []uint64{0b010, 0b101, 0b010}},
		{"descending list", [][]int{{2, 1}, {0}, {0}}, nil},
		{"repeated neighbour", [][]int{{1, 1}, {0}}, nil},
		{"neighbour out of range", [][]int{{1}, {2}}, nil},
		{"65 territories", big, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, neighbourMasks(tc.nbr))
		})
	}
}

// TestRelaySmallMatchesGeneral checks propagate's masked loop (relaySmall)
// against its general loop (relayLists) on the same random maps (the
// masks removed): the same goals, in the same order, with the same paths
// and odds caches,
// under both goal_paths settings and both goal_value readings (the
// values are not integers, so that a sum in another order would differ in
// its last bits), for random G_l and armies to place,
// after an earlier placement with other armies (nothing of it may leak
// into the next: the buffers are reused); the masked loop sends no more
// messages.
func TestRelaySmallMatchesGeneral(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	fewer := 0
	for trial := range 60 {
		nt := 6 + rng.IntN(14)
		nbr, owner, armies := randomPosition(rng, nt)
		for i := range armies {
			armies[i] = 1 + rng.IntN(1+rng.IntN(10))
		}
		p := PaperParams()
		p.Gl = 1 + rng.IntN(6)
		p.GoalPaths = []GoalPaths{GoalPathsShortest, GoalPathsAll}[trial%2]
		p.GoalValue = []GoalValue{GoalValueSum, GoalValueTarget}[trial/2%2]
		vals := make([]float64, nt)
		for i := range vals {
			vals[i] = rng.Float64()*10 - 1
		}
		n := rng.IntN(12)
		run := func(masks bool) ([]goal, [][]int, []oddsCache, int) {
			m := testMediator(t, p, nbr, make([]int, nt), []int{2}, owner, armies)
			if !masks {
				m.b.nmask = nil
			}
			copy(m.vals, vals)
			for i := range m.b.Armies {
				m.b.Armies[i] += i % 3
			}
			m.propagate(n + 1)
			copy(m.b.Armies, armies)
			m.propagate(n)
			var paths [][]int
			for g := range m.goals {
				paths = append(paths, slices.Clone(m.path(g)))
			}
			return slices.Clone(m.goals), paths, slices.Clone(m.ccs), len(m.msgs)
		}
		g1, p1, c1, n1 := run(true)
		g2, p2, c2, n2 := run(false)
		require.Equal(t, g2, g1, "trial %d: goals", trial)
		require.Equal(t, p2, p1, "trial %d: paths", trial)
		require.Equal(t, c2, c1, "trial %d: odds caches", trial)
		require.LessOrEqual(t, n1, n2, "trial %d: messages", trial)
		if n1 < n2 {
			fewer++
		}
	}
	assert.Positive(t, fewer, "the agents next to a chain's end store it before it is extended")
}

// TestValueMatchesTerms checks that board.value, which the placement asks
// of every territory, is terms(...).Value bit for bit on random positions
// and parameters.
func TestValueMatchesTerms(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 40 {
		nt := 5 + rng.IntN(12)
		nbr, owner, armies := randomPosition(rng, nt)
		cont := make([]int, nt)
		for i := range cont {
			cont[i] = rng.IntN(3)
		}
		p := PaperParams()
		p.Cfn, p.Cenu, p.Coc = rng.Float64()*3-1, rng.Float64()-0.5, rng.Float64()*40
		m := testMediator(t, p, nbr, cont, []int{2, 5, 3}, owner, armies)
		for v := range nt {
			want := m.b.terms(&m.p, v).Value
			got := m.b.value(&m.p, v)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "trial %d territory %d: %v, want %v", trial, v, got, want)
		}
	}
}

// TestLegalAttacksMatchSim checks the attacks MARS lists from the
// neighbour masks against sim.State.LegalAttacks on random positions: the
// same orders in the same order.
func TestLegalAttacksMatchSim(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := range 40 {
		nt := 4 + rng.IntN(14)
		nbr, owner, armies := randomPosition(rng, nt)
		owner[0], owner[1] = 0, 1 // two seats own territories
		for i := range armies {
			armies[i] = 1 + rng.IntN(4)
		}
		m, s := testStateMediator(t, PaperParams(), sim.FortifyOneStep, nbr, make([]int, nt), []int{2}, owner, armies)
		require.NotNil(t, m.b.nmask)
		want := s.LegalAttacks(0, nil)
		got := m.legalAttacks(nil)
		require.Equal(t, want, got, "trial %d", trial)
	}
}

// checkedBot plays a MARS bot and compares, after every Attack and Occupy,
// the board it decided on with the whole position read from the State
// (blocks.Board.Load), counting the calls that re-read only the rolled
// attack's territories.
type checkedBot struct {
	*Bot
	t       *testing.T
	rolled  int // Attack and Occupy calls on the rolled attack's board
	checked int // Attack and Occupy calls compared
	bad     int // boards that differed
	bids    int // agents' attack bids compared with fresh ones
	kept    []attackChoice
}

func (c *checkedBot) compare(s *sim.State, rolled bool, what string) {
	var want blocks.Board
	want.Load(s)
	got := c.med.b.Board
	c.checked++
	if rolled {
		c.rolled++
	}
	if !assert.Equal(c.t, want.Owner, got.Owner, "%s round %d: owners", what, s.Round()) ||
		!assert.Equal(c.t, want.Armies, got.Armies, "%s round %d: armies", what, s.Round()) {
		c.bad++
	}
}

func (c *checkedBot) isRolled(s *sim.State) bool {
	return c.Bot.rolled.s == s && c.Bot.rolled.round == s.Round()
}

func (c *checkedBot) Attack(s *sim.State) (sim.AttackOrder, bool) {
	rolled := c.isRolled(s)
	o, ok := c.Bot.Attack(s)
	c.compare(s, rolled, "attack")
	// The auction made again with no attack bid kept (see chooseAttack)
	// gives every agent the bid it had and the same choice.
	m := c.med
	c.kept = c.kept[:0]
	for t := range m.agents {
		c.kept = append(c.kept, m.agents[t].atk)
	}
	m.atkValid = 0
	fresh, _, freshOK := m.chooseAttack(s.ConqueredThisTurn())
	_, strong := m.b.ownMasks()
	for t := range m.agents {
		if strong&(1<<t) != 0 && m.b.nmask[t]&^m.b.mine != 0 {
			c.bids++
			assert.Equal(c.t, m.agents[t].atk, c.kept[t], "round %d agent %d: kept attack bid", s.Round(), t)
		}
	}
	assert.Equal(c.t, freshOK, ok, "round %d: attack or not", s.Round())
	if ok {
		assert.Equal(c.t, sim.AttackOrder{From: fresh.from, To: fresh.to}, o, "round %d: attack", s.Round())
	}
	return o, ok
}

func (c *checkedBot) Occupy(s *sim.State, from, to, lo, hi int) int {
	rolled := c.isRolled(s)
	k := c.Bot.Occupy(s, from, to, lo, hi)
	c.compare(s, rolled, "occupy")
	return k
}

// TestRolledBoardMatchesLoad plays six MARS bots (both goal path settings)
// under the paper's and the escalating card rules, where eliminations force
// trades and placements in the attack phase, and checks that every Attack
// and Occupy that re-read only the rolled attack's two territories decided
// on the position a whole load gives, and that every attack bid an agent
// kept from an earlier auction is the one it would make afresh.
func TestRolledBoardMatchesLoad(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{"mars2006", "mars2006-escalating"} {
		t.Run(rules, func(t *testing.T) {
			g, _, _ := simtest.NewGame(t, rules, 6)
			var cs []*checkedBot
			var ps []sim.Player
			for i := range 6 {
				p := PaperParams()
				if i%2 == 1 {
					p.GoalPaths = GoalPathsAll
				}
				b, err := New(p)
				require.NoError(t, err)
				c := &checkedBot{Bot: b, t: t}
				cs = append(cs, c)
				ps = append(ps, c)
			}
			elim := 0
			for i := range uint64(6) {
				res, err := g.Play(ps, 5, i)
				require.NoError(t, err)
				elim += len(res.Eliminated)
			}
			checked, rolled, bad, bids := 0, 0, 0, 0
			for _, c := range cs {
				checked, rolled, bad, bids = checked+c.checked, rolled+c.rolled, bad+c.bad, bids+c.bids
			}
			assert.Greater(t, bids, checked, "attack bids compared")
			assert.Zero(t, bad, "boards that differ from a whole load")
			assert.Greater(t, rolled, checked/2, "calls on the rolled attack's board, of %d", checked)
			assert.Greater(t, elim, 6, "eliminations")
		})
	}
}

// TestExtendDominance checks the dominance pruning of extend on a
// constructed map: originator O reaches V through A (one army) and through
// B (three armies); under goal_paths = shortest the chain O>B>V has more
// defenders than O>A>V, which is as long and comes first, so it is not
// sent, while the general loop (relayLists, no masks) and goal_paths =
// all send it;
// the goals are the same as the general loop's.
//
//	O(0) - A(1) - V(3) - W(4) - T(5, own)
//	   \   B(2) /
func TestExtendDominance(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1, 2}, {0, 3}, {0, 3}, {1, 2, 4}, {3, 5}, {4}}
	owner := []int{1, 1, 1, 1, 1, 0}
	armies := []int{1, 1, 3, 1, 1, 10}
	// obv reports whether the messages hold the chain O>B>V.
	obv := func(m *mediator) bool {
		for _, msg := range m.msgs {
			if msg.origin == 0 && msg.last == 3 && msg.k == 3 && m.msgs[msg.parent].last == 2 {
				require.Equal(t, 5, msg.def)
				return true
			}
		}
		return false
	}
	run := func(paths GoalPaths, masks bool) *mediator {
		p := PaperParams()
		p.GoalPaths = paths
		m := testMediator(t, p, nbr, make([]int, 6), []int{2}, owner, armies)
		if !masks {
			m.b.nmask = nil
		}
		for i := range m.vals {
			m.vals[i] = 1
		}
		m.propagate(5)
		return m
	}
	masked, general := run(GoalPathsShortest, true), run(GoalPathsShortest, false)
	assert.False(t, obv(masked), "dominated chain sent")
	assert.True(t, obv(general), "the general loop sends every chain")
	assert.True(t, obv(run(GoalPathsAll, true)), "goal_paths = all keeps every chain")
	assert.Equal(t, general.goals, masked.goals)
	// T keeps O's chain through A: O>A>V>W in attack order from T.
	var fromO []int
	for g := range masked.goals {
		if path := masked.path(g); path[len(path)-1] == 0 {
			fromO = slices.Clone(path)
		}
	}
	assert.Equal(t, []int{4, 3, 1, 0}, fromO)
}

// TestNumerator checks the bid bound's numerator against its definition,
// P_ob·Π_j W(a-j, d_j)·w·hold(max(1, a-def-(k-1)), threat) from odds.win
// and odds.hold, bit for bit, on random paths and attacking armies: too
// few attackers for the path (the product is 0), battles inside the
// table, battles beyond it (W counts 1 beyond the largest table) and
// chains whose odds are scaled (the product is 1).
func TestNumerator(t *testing.T) {
	t.Parallel()
	m := testMediator(t, PaperParams(), [][]int{{}}, []int{0}, []int{2}, []int{0}, []int{1})
	rng := rand.New(rand.NewPCG(31, 32))
	zeros := 0
	for trial := range 400 {
		c := oddsCache{k: 1 + rng.IntN(maxGoalPath), threat: rng.IntN(8), w: 0.5 + 10*rng.Float64()}
		big := trial%4 == 0  // defenders beyond the first table
		huge := trial%4 == 1 // beyond the largest
		for j := range c.k {
			d := 1 + rng.IntN(6)
			switch {
			case big:
				d = 1 + rng.IntN(400)
			case huge:
				d = 1 + rng.IntN(6000)
			}
			c.defs[j] = int32(d)
			c.def += d
			c.maxD = max(c.maxD, d)
		}
		for _, a := range []int{0, rng.IntN(c.k + 1), c.k, rng.IntN(40), rng.IntN(600), rng.IntN(9000)} {
			p := 1.0
			for j := range c.k {
				if a-j > maxTableSize || int(c.defs[j]) > maxTableSize {
					continue // W counts 1
				}
				p *= m.o.win(a-j, int(c.defs[j]))
			}
			if !exactChain(a, c.maxD) {
				p = 1
			}
			if a < c.k {
				p = 0
			}
			want := m.p.Pob * p * c.w * m.o.hold(max(1, a-c.def-(c.k-1)), c.threat)
			got := m.numerator(&c, a)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "trial %d a %d: %v, want %v", trial, a, got, want)
			if a < c.k {
				zeros++
			}
		}
	}
	assert.Greater(t, zeros, 100)
}

// TestCandHeap checks the offensive search's candidate heap: popping gives
// the candidates by decreasing bound, the lower goal id first on ties,
// whatever their order in the slice.
func TestCandHeap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		cs := make([]cand, trial)
		for i := range cs {
			cs[i] = cand{g: i, ub: float64(rng.IntN(5))}
		}
		rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		want := slices.Clone(cs)
		slices.SortFunc(want, func(a, b cand) int {
			if a.before(b) {
				return -1
			}
			return 1
		})
		heapify(cs)
		got := make([]cand, 0, len(cs))
		for len(cs) > 0 {
			got = append(got, cs[0])
			cs = heapPop(cs)
		}
		require.Equal(t, want, got, "trial %d", trial)
	}
}

// TestExtLimits checks the limits extend applies under goal_paths = all,
// on random positions: agLim[k][t] is the least defenders of a chain of k
// territories that own territory t's armies and the n new ones may not
// reach (odds.mayReach), and extLim[u] for extensions of chains of k
// territories to enemy territory u is one more than the most defenders d
// for which some own territory t and some r up to the extensions left
// have t in mayStore's row of r extensions left for u and t may reach a
// chain of k+1+r territories and d+r defenders (0 when there is none).
// A weak agent next to u and a strong one two territories beyond give u
// the strong one's limit less one.
func TestExtLimits(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for trial := range 40 {
		nt := 6 + rng.IntN(14)
		nbr, owner, armies := randomPosition(rng, nt)
		for i := range armies {
			armies[i] = 1 + rng.IntN(1+rng.IntN(30))
		}
		p := PaperParams()
		p.GoalPaths = GoalPathsAll
		p.Gl = 2 + rng.IntN(7)
		n := rng.IntN(10)
		m := testMediator(t, p, nbr, make([]int, nt), []int{2}, owner, armies)
		m.propagate(n)
		for k := 1; k <= p.Gl; k++ {
			for u := range nt {
				if owner[u] != 0 {
					continue
				}
				a := armies[u] - 1 + n
				l := int(m.agLim[k][u])
				if l > 0 {
					require.True(t, m.o.mayReach(a, k, l-1), "trial %d: k %d, t %d", trial, k, u)
				}
				require.False(t, m.o.mayReach(a, k, l), "trial %d: k %d, t %d", trial, k, u)
			}
		}
		var enemy uint64
		for u := range nt {
			if owner[u] != 0 {
				enemy |= 1 << u
			}
		}
		for k := 1; k < p.Gl; k++ {
			m.extLimits(k, p.Gl, enemy)
			j := p.Gl - k - 1
			for u := range nt {
				if owner[u] == 0 {
					continue
				}
				want := 0
				for d := 0; d < 1000; d++ {
					for r := 0; r <= j; r++ {
						row := m.reachOwn[r*nt+u]
						for v := range nt {
							if row&(1<<v) != 0 && m.o.mayReach(armies[v]-1+n, k+1+r, d+r) {
								want = d + 1
							}
						}
					}
				}
				require.Equal(t, want, int(m.extLim[u]), "trial %d: k %d, u %d", trial, k, u)
				checked++
			}
		}
	}
	require.Greater(t, checked, 500)
	// O - A - B - S and A - T: T (2 armies) next to A, S (40 armies) two
	// territories beyond A. Chains of 2 territories to A (k = 1): T's limit
	// for 2 territories, or S's for 3 less one.
	p := PaperParams()
	p.GoalPaths = GoalPathsAll
	p.Gl = 3
	nbr := [][]int{{1}, {0, 2, 4}, {1, 3}, {2}, {1}}
	m := testMediator(t, p, nbr, make([]int, 5), []int{2}, []int{1, 1, 1, 0, 0}, []int{1, 1, 1, 40, 2})
	m.propagate(3)
	m.extLimits(1, 3, 1<<0|1<<1|1<<2)
	want := max(m.o.limit(2-1+3-2), m.o.limit(40-1+3-3)-1)
	assert.Equal(t, m.o.limit(40-1+3-3)-1, want, "the strong agent's limit is the larger")
	assert.Equal(t, want, int(m.extLim[1]))
}

// TestRoughListMatchesBounds checks the rough bounds an agent's first bid
// keeps (roughList) against roughBounds: for the first bid's attacking
// armies and any floor, the same candidates that reach the floor, in the
// same order, and the same largest one when one reaches it; a goal marked
// won (markWon) leaves both; and offensive's bid, for the first bid's
// armies and for fewer, is the one it makes without the kept bounds.
func TestRoughListMatchesBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(41, 42))
	checked, kept := 0, 0
	placementAgents(t, rng, 60, func(trial int, m *mediator, ag, n int) {
		a := &m.agents[ag]
		m.firstBid(ag, n)
		arm := m.b.Armies[ag] - 1 + n
		require.Equal(t, arm, a.ra, "trial %d agent %d: the kept bounds' armies", trial, ag)
		if rng.IntN(2) == 0 && a.rn > 0 {
			m.markWon(ag, m.rough[a.ro+rng.IntN(a.rn)].g)
		}
		for _, floor := range []float64{-1, 0, rng.Float64() * 50, rng.Float64() * 500} {
			j := m.roughList(a, arm, floor)
			got := append([]cand{}, m.cands...)
			k := m.roughBounds(a, arm, floor)
			want := []cand{}
			for _, c := range m.cands {
				if c.ub >= floor {
					want = append(want, c)
				}
			}
			require.Equal(t, want, got, "trial %d agent %d floor %v: candidates", trial, ag, floor)
			if len(want) > 0 {
				require.GreaterOrEqual(t, j, 0)
				assert.Equal(t, m.cands[k], got[j], "trial %d agent %d floor %v: largest", trial, ag, floor)
				kept++
			} else {
				assert.Equal(t, -1, j)
			}
		}
		// The kept bounds serve a re-bid for fewer armies too.
		ro, rn, ra, seed := a.ro, a.rn, a.ra, a.seed
		for left := n; left >= 1; left-- {
			a.ro, a.rn, a.ra, a.seed = ro, rn, ra, seed
			got := m.offensive(ag, left, left == n)
			a.seed, a.ra = seed, -1
			want := m.offensive(ag, left, left == n)
			require.Equal(t, want, got, "trial %d agent %d: offensive bid for %d armies", trial, ag, left)
			checked++
		}
	})
	require.Greater(t, checked, 100)
	require.Greater(t, kept, 100)
}

// TestExtendStoresAhead checks extend's test that an extension may be
// stored further on: on the path O - A - B - T (T own, G_l = 3) with A's
// armies chosen so that T may reach the chain O>A of two territories but
// not O>A>B of three, the masked loop does not send O>A, which only T,
// beyond B, could store, while the general loop sends it; the goals are
// the same.
func TestExtendStoresAhead(t *testing.T) {
	t.Parallel()
	nbr := [][]int{{1}, {0, 2}, {1, 3}, {2}}
	owner := []int{1, 1, 1, 0}
	p := PaperParams()
	p.GoalPaths = GoalPathsAll
	p.Gl = 3
	const n = 1
	probe := testMediator(t, p, nbr, make([]int, 4), []int{2}, owner, []int{1, 1, 1, 5})
	a := 5 - 1 + n // T's attacking armies
	l2, l3 := probe.o.limit(a-2), probe.o.limit(a-3)
	require.GreaterOrEqual(t, l3, 3)
	armies := []int{1, l3 - 2, 1, 5}
	require.Less(t, armies[0]+armies[1], l2, "T may reach O>A")
	run := func(masks bool) *mediator {
		m := testMediator(t, p, nbr, make([]int, 4), []int{2}, owner, armies)
		if !masks {
			m.b.nmask = nil
		}
		for i := range m.vals {
			m.vals[i] = 1
		}
		m.propagate(n)
		return m
	}
	// oa reports whether the messages hold the chain O>A.
	oa := func(m *mediator) bool {
		for _, msg := range m.msgs {
			if msg.origin == 0 && msg.last == 1 && msg.k == 2 {
				return true
			}
		}
		return false
	}
	masked, general := run(true), run(false)
	assert.False(t, oa(masked), "O>A sent")
	assert.True(t, oa(general), "the general loop sends every chain")
	assert.Equal(t, general.goals, masked.goals)
	assert.Equal(t, general.paths, masked.paths)
	assert.NotEmpty(t, masked.goals)
}

// TestScanBoundFloor checks scanBound against its definition, the largest
// bound numerator over max(i, 1) for i = i0..n: without a floor it is that
// maximum, and with a floor (some below the maximum, some above) it is
// the maximum where the maximum reaches the floor and below the floor
// otherwise, on the goals of random placements.
func TestScanBoundFloor(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(51, 52))
	checked, below := 0, 0
	placementAgents(t, rng, 40, func(trial int, m *mediator, ag, n int) {
		mArm := m.b.Armies[ag]
		for g := m.agents[ag].head; g >= 0; g = int(m.goals[g].next) {
			oc := &m.ccs[m.goals[g].cc]
			for _, i0 := range []int{0, 1} {
				want := 0.0
				for i := i0; i <= n; i++ {
					want = max(want, m.numerator(oc, mArm-1+i)/float64(max(i, 1)))
				}
				topN := m.numerator(oc, mArm-1+n) * roundMargin
				require.Equal(t, want, m.scanBound(oc, mArm, i0, n, topN, 0), "trial %d goal %d", trial, g)
				for _, f := range []float64{want / 2, want, want * 1.5, rng.Float64() * topN} {
					if f <= 0 {
						continue
					}
					got := m.scanBound(oc, mArm, i0, n, topN, f)
					if want >= f {
						require.Equal(t, want, got, "trial %d goal %d floor %v", trial, g, f)
					} else {
						require.Less(t, got, f, "trial %d goal %d floor %v", trial, g, f)
						below++
					}
					checked++
				}
			}
		}
	})
	require.Greater(t, checked, 1000)
	require.Greater(t, below, 100)
}
