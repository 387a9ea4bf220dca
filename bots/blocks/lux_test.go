package blocks

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Territory ids of testdata/grid.toml:
//
//	a - b - c     North (2)
//	|   |   |
//	d - e - f     Middle (3)
//	|   |   |
//	g - h - i     South (1)
const (
	ga = iota
	gb
	gc
	gd
	ge
	gf
	gg
	gh
	gi
)

// gridPos returns the map and mars2006 rules and a position of two seats
// on testdata/grid.toml, seat 0 to move in phase ph of round 3; board
// lists "owner:armies" per territory in id order.
func gridPos(t testing.TB, board string, ph sim.Phase) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	return mapPos(t, "testdata/grid.toml", board, ph)
}

// mapPos is gridPos on the map file path.
func mapPos(t testing.TB, path, board string, ph sim.Phase) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	m, err := sim.LoadMap(path)
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = 2\nhands = [[], []]\nround = 3\ncurrent = 0\nphase = %q\n[territories]\n", ph)
	fields := strings.Fields(board)
	require.Len(t, fields, m.NumTerritories())
	for i, f := range fields {
		var o, a int
		_, err := fmt.Sscanf(f, "%d:%d", &o, &a)
		require.NoError(t, err)
		fmt.Fprintf(&sb, "%s = { owner = %d, armies = %d }\n", m.Territories[i].Name, o, a)
	}
	pos, err := sim.ParsePosition("grid-pos", []byte(sb.String()), m, r)
	require.NoError(t, err)
	return m, r, pos
}

// gridLux returns a Lux started at seat 0 and loaded with the board.
func gridLux(t testing.TB, board string) *Lux {
	t.Helper()
	m, r, pos := gridPos(t, board, sim.PhaseAttack)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	x := &Lux{}
	x.Start(0, rand.New(rand.NewPCG(1, 2)))
	x.Load(s)
	return x
}

// planPlayer plays a plan of Lux steps from Root and moves in as MoveIn
// says, the minimum otherwise. With noMasks it plays the blocks' loops
// for maps of more than 64 territories (no neighbour masks) on any map.
type planPlayer struct {
	sim.BasePlayer
	x       Lux
	plan    []Step
	root    int
	noMasks bool
}

func (p *planPlayer) Start(s *sim.State, seat int, rng *rand.Rand) {
	p.BasePlayer.Start(s, seat, rng)
	p.x.Start(seat, rng)
	p.x.Root = p.root
	if p.noMasks {
		p.x.nbMap, p.x.nb = s.Map(), nil // masks() finds them built, and empty
	}
}

func (p *planPlayer) Attack(s *sim.State) (sim.AttackOrder, bool) { return p.x.NextAttack(s, p.plan) }

func (p *planPlayer) Occupy(s *sim.State, from, to, lo, hi int) int {
	if k, ok := p.x.MoveIn(s, from, to, lo, hi); ok {
		return k
	}
	return lo
}

// playPlan plays seat 0's attack phase of board with plan from root (see
// simtest.PlayTurn), twice: with the neighbour masks of a map of at most
// 64 territories and with the loops of larger maps, which must play the
// same orders.
func playPlan(t *testing.T, board string, root int, plan []Step, seed uint64) []simtest.Order {
	t.Helper()
	m, r, pos := gridPos(t, board, sim.PhaseAttack)
	return playBoth(t, m, r, pos, root, plan, seed)
}

// playBoth plays seat 0's attack phase of pos with plan from root with and
// without the neighbour masks, requires the same orders and returns them.
func playBoth(t *testing.T, m *sim.Map, r *sim.Rules, pos *sim.Position, root int, plan []Step, seed uint64) []simtest.Order {
	t.Helper()
	turn := simtest.PlayTurn(t, &planPlayer{plan: plan, root: root}, m, r, pos, seed)
	require.Empty(t, turn.Faults)
	slow := simtest.PlayTurn(t, &planPlayer{plan: plan, root: root, noMasks: true}, m, r, pos, seed)
	require.Empty(t, slow.Faults)
	require.Equal(t, turn.Orders, slow.Orders, "the loops without neighbour masks")
	return turn.Orders
}

func TestLuxClusterBorder(t *testing.T) {
	t.Parallel()
	// Seat 0 holds a, b, d, e: breadth first from the root, in adjacency
	// order, the border territories as they are reached.
	x := gridLux(t, "0:1 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, []int{gb, gd, ge}, x.AppendClusterBorder(nil, ga))
	assert.Equal(t, []int{ge, gb, gd}, x.AppendClusterBorder(nil, ge))
	// The cluster of an enemy root is the enemy's: c, f, i, h, g reached
	// in that order, i facing none of seat 0's.
	assert.Equal(t, []int{gc, gf, gh, gg}, x.AppendClusterBorder(nil, gc))
	// The same root and owners again: the border appended after dst.
	assert.Equal(t, []int{gi, gc, gf, gh, gg}, x.AppendClusterBorder([]int{gi}, gc))
	// A conquest of e: from a the same root, another border.
	x.B.Owner[ge] = 1
	assert.Equal(t, []int{gb, gd}, x.AppendClusterBorder(nil, ga))
	x.B.Owner[ge] = 0
	assert.Equal(t, []int{gb, gd, ge}, x.AppendClusterBorder(nil, ga))
}

// order is an attack order of a test's expectations.
func order(from, to int) sim.AttackOrder { return sim.AttackOrder{From: from, To: to, Repeat: true} }

// orders returns the orders of a played phase.
func orders(os []simtest.Order) []sim.AttackOrder {
	out := make([]sim.AttackOrder, len(os))
	for i, o := range os {
		out[i] = o.AttackOrder
	}
	return out
}

// TestLuxEasyExpand follows SmartAgentBase.attackEasyExpand: the border
// snapshot from a is [a, d]; a's one enemy b (1) falls to a (10), which
// moves everything in; d faces two. The pass attacked, so the repeated
// step makes a second pass over the new border [b, d], where no territory
// faces exactly one enemy.
func TestLuxEasyExpand(t *testing.T) {
	t.Parallel()
	got := playPlan(t, "0:10 1:1 1:1 0:10 1:1 1:1 1:1 1:1 1:1", ga,
		[]Step{{Proc: StepEasyExpand, Repeat: true}}, 1)
	require.Equal(t, []sim.AttackOrder{order(ga, gb)}, orders(got))
	assert.True(t, got[0].All(), "%+v", got[0])
}

// TestLuxFillOut follows SmartAgentBase.attackFillOut: b is surrounded by
// seat 0 (a, c, e) and weaker than the border a, which attacks it with the
// minimum move-in; d faces g, so it is no fill-out target.
func TestLuxFillOut(t *testing.T) {
	t.Parallel()
	got := playPlan(t, "0:9 1:1 0:2 1:1 0:2 1:1 1:1 1:1 1:1", ga,
		[]Step{{Proc: StepFillOut}}, 1)
	require.Equal(t, []sim.AttackOrder{order(ga, gb)}, orders(got))
	assert.True(t, got[0].Min(), "%+v", got[0])
}

// played is an order of a played attack phase as a test expects it: the
// attack, whether it took its target, and the armies moved in and left
// behind (0, 0 when it did not).
type played struct {
	from, to    int
	conquered   bool
	moved, left int
}

// playedOrders returns the orders of a played phase as played values.
func playedOrders(os []simtest.Order) []played {
	out := make([]played, len(os))
	for i, o := range os {
		out[i] = played{o.From, o.To, o.Conquered, o.Moved, o.Left}
		if !o.Repeat || o.AttackOrder.Dice != 0 || o.StopAt != 0 {
			out[i].from = -1 // not Lux's attack till dead
		}
	}
	return out
}

// TestLuxConsolidate follows SmartAgentBase.attackConsolidate, repeated
// while it attacks (Cluster's while (attackConsolidate(root))), on games
// whose dice are fixed by the seed. b is the only enemy of a and of c and
// touches both; a and c, each facing b alone, join: their full armies (not
// less one each) against b's 5. Each attacks b in b's adjacency order (a,
// c, e) while b stands, with moveInMemory = everything: the first board, a
// (4) is repelled and c (6) takes b, moving all 5 it has left in; the
// second, a (8) takes b and c does not attack. Then the pass from the new
// border: e is b's only enemy and touches b, d and f, but d and f face two
// enemies each, so b alone attacks, moving everything in; h touches only
// one territory of seat 0's and the step ends.
func TestLuxConsolidate(t *testing.T) {
	t.Parallel()
	plan := []Step{{Proc: StepConsolidate, Repeat: true}}
	got := playPlan(t, "0:4 1:5 0:6 0:1 1:1 0:1 1:1 1:1 1:1", ga, plan, 1)
	assert.Equal(t, []played{
		{ga, gb, false, 0, 0},
		{gc, gb, true, 5, 1},
		{gb, ge, true, 4, 1},
	}, playedOrders(got))
	got = playPlan(t, "0:8 1:5 0:3 0:1 1:1 0:1 1:1 1:1 1:1", ga, plan, 1)
	assert.Equal(t, []played{
		{ga, gb, true, 4, 1},
		{gb, ge, true, 3, 1},
	}, playedOrders(got))
	// 3 + 3 = 6 is more than 5 (armies less one, 2 + 2, would not be):
	// both attack, both are repelled.
	got = playPlan(t, "0:3 1:5 0:3 0:1 1:1 0:1 1:1 1:1 1:1", ga, plan, 1)
	assert.Equal(t, []played{{ga, gb, false, 0, 0}, {gc, gb, false, 0, 0}}, playedOrders(got))
	// 3 + 3 is not more than 7, nor more than 6: no attack.
	assert.Empty(t, playPlan(t, "0:3 1:7 0:3 0:1 1:1 0:1 1:1 1:1 1:1", ga, plan, 1))
	assert.Empty(t, playPlan(t, "0:3 1:6 0:3 0:1 1:1 0:1 1:1 1:1 1:1", ga, plan, 1))
	// Only territories whose one enemy is b join (getNumberEnemyNeighbors()
	// == 1): c faces f too and e faces f and h, so a's 4 alone are not more
	// than b's 5 (with c and e, 8 would be).
	assert.Empty(t, playPlan(t, "0:4 1:5 0:3 0:1 0:1 1:1 1:1 1:1 1:1", ga, plan, 1))
}

// TestLuxSplitUp follows SmartAgentBase.attackSplitUp: e (20) faces b, d,
// f, h (1 each): 20 > 1.2 x 4, so e attacks each in adjacency order while
// it holds more than one army, moving 20 / 4 = 5 in each time (clamped to
// the move-in's bounds). With seed 1's dice e loses one army on b and
// none after; on h it has 4 left and may move 3.
func TestLuxSplitUp(t *testing.T) {
	t.Parallel()
	got := playPlan(t, "1:1 1:1 1:1 1:1 0:20 1:1 1:1 1:1 1:1", ge,
		[]Step{{Proc: StepSplitUp, Ratio: 1.2}}, 1)
	assert.Equal(t, []played{{ge, gb, true, 5, 14}, {ge, gd, true, 5, 9}, {ge, gf, true, 5, 4}, {ge, gh, true, 3, 1}},
		playedOrders(got))
	// 6 is not more than 1.2 x 5 (in float32 too): no split.
	got = playPlan(t, "1:1 1:1 1:1 1:1 0:6 1:2 1:1 1:1 1:1", ge,
		[]Step{{Proc: StepSplitUp, Ratio: 1.2}}, 1)
	assert.Empty(t, got)
}

// TestLuxTripleStops follows SmartAgentBase.tripleAttackPack, run
// repeatedly: the pack's result ignores fill out, so a pack whose only
// attack is a fill out is not run again.
func TestLuxTripleStops(t *testing.T) {
	t.Parallel()
	// b is surrounded by a, c, e and weaker than a; nothing else applies.
	got := playPlan(t, "0:9 1:1 0:2 1:5 0:2 1:5 1:9 1:9 1:9", ga,
		[]Step{{Proc: StepTriple, Repeat: true}}, 1)
	require.Equal(t, []sim.AttackOrder{order(ga, gb)}, orders(got))
}

// TestLuxCard follows SmartAgentBase.attackForCard(k): the best ratio over
// all pairs (e 9 on b 2: 4.5; f 2 comes later in e's adjacency order and
// only ties) attacks when it exceeds k times, after the hook
// (setmoveInMemoryBeforeCardAttack, here Bort's half of the attacker's
// armies before the attack: 4) sets the move-in. With seed 2's dice e
// loses nothing and moves 4 in, leaving 5; without the hook the memory
// stays unset and the caller's default moves in (planPlayer's minimum, the
// 3 dice).
func TestLuxCard(t *testing.T) {
	t.Parallel()
	half := func(x *Lux, from int) int { return x.B.Armies[from] / 2 }
	board := "0:3 1:2 1:3 0:2 0:9 1:2 1:3 1:4 1:5"
	assert.Equal(t, []played{{ge, gb, true, 4, 5}},
		playedOrders(playPlan(t, board, ga, []Step{{Proc: StepCard, K: 3, CardMove: half}}, 2)))
	assert.Equal(t, []played{{ge, gb, true, 3, 6}},
		playedOrders(playPlan(t, board, ga, []Step{{Proc: StepCard, K: 3}}, 2)))
	// 4.5 is not more than 5 times.
	assert.Empty(t, playPlan(t, board, ga, []Step{{Proc: StepCard, K: 5}}, 1))
}

// TestLuxUnless: Bort's "if (!attackEasyExpand(root)) attackFillOut(root)".
func TestLuxUnless(t *testing.T) {
	t.Parallel()
	plan := []Step{{Proc: StepEasyExpand}, {Proc: StepFillOut, Unless: true}}
	// a faces only b and beats it: the easy expand runs, the fill out not
	// (b would be a fill-out target too).
	got := playPlan(t, "0:9 1:1 0:1 0:1 0:1 1:1 1:1 1:1 1:1", ga, plan, 1)
	require.Equal(t, []sim.AttackOrder{order(ga, gb)}, orders(got))
	assert.True(t, got[0].All())
	// a faces b and d: no easy expand; b is surrounded: the fill out runs.
	got = playPlan(t, "0:9 1:1 0:1 1:1 0:1 1:1 1:1 1:1 1:1", ga, plan, 1)
	require.Equal(t, []sim.AttackOrder{order(ga, gb)}, orders(got))
	assert.True(t, got[0].Min())
}

// TestLuxHogWild follows SmartAgentBase.attackAsMuchAsPossible, with the
// dice of seed 1. Seat 0's e (40) outnumbers all others together; the
// sweep over its territories in id order starts from e, the only one:
// tripleAttackPack finds nothing (e faces four enemies, none surrounded),
// attackSplitUp(e, 0.01) attacks b, d, f and h in e's adjacency order,
// moving 40 / 4 = 10 in each (clamped to what is left: h gets 8). Split
// up attacked, so it runs again from the new cluster border [b, d, f, h]:
// b (10) splits 5 a side on a and c (3 when it has 4 left), d takes g, f
// takes i (one enemy each: everything, 9), h faces none. Seat 0 then owns
// the map and the game ends.
func TestLuxHogWild(t *testing.T) {
	t.Parallel()
	got := playPlan(t, "1:1 1:1 1:1 1:1 0:40 1:1 1:1 1:1 1:1", ge, []Step{{Proc: StepHogWild}}, 1)
	assert.Equal(t, []played{
		{ge, gb, true, 10, 29},
		{ge, gd, true, 10, 19},
		{ge, gf, true, 10, 9},
		{ge, gh, true, 8, 1},
		{gb, ga, true, 5, 5},
		{gb, gc, true, 3, 1},
		{gd, gg, true, 9, 1},
		{gf, gi, true, 9, 1},
	}, playedOrders(got))
	// Outnumbered: nothing.
	assert.Empty(t, playPlan(t, "1:9 1:9 1:1 1:1 0:10 1:1 1:1 1:1 1:1", ge, []Step{{Proc: StepHogWild}}, 3))
}

// TestLuxHogWildSweep follows SmartAgentBase.attackHogWild (hogWildCheck:
// the bot's armies more than all others' together) and
// attackAsMuchAsPossible on testdata/line.toml (a - b - c - d - e), with
// the dice of seed 1: passes over the bot's territories in id order
// (PlayerIterator), each running tripleAttackPack and then
// attackSplitUp(0.01) while they attack, until a pass attacks nowhere.
// Seat 0 holds a (2), c (20) and d (300), 322 armies against b's 205 and
// e's 1. The first pass: a attacks nothing (split up: 2 is not more than
// 0.01 x 205; b is weaker than neither a nor c, so no fill out, and a +
// c, 22, do not outnumber it to consolidate). At c, the triple pack's
// easy expand runs from the border of c's cluster [c, d]: c's one enemy b
// is stronger, d's one enemy e weaker: d takes e and moves the minimum in
// (obviousMoveArmiesInTest: e has one neighbour). The pack again finds
// nothing; split up from [c]: c (20) on b, more than 0.01 x 205, attacks
// till dead and is repelled, b falling to 173. d and e (c's cluster)
// find nothing. The pass attacked, so a second pass: a (2) now exceeds
// 0.01 x 173 and attacks b, repelled; a third pass finds nothing.
func TestLuxHogWildSweep(t *testing.T) {
	t.Parallel()
	const (
		la = iota
		lb
		lc
		ld
		le
	)
	plan := []Step{{Proc: StepHogWild}}
	for _, tt := range []struct {
		board string
		want  []played
	}{
		{"0:2 1:205 0:20 0:300 1:1", []played{{ld, le, true, 3, 296}, {lc, lb, false, 0, 0}, {la, lb, false, 0, 0}}},
		// 2 + 20 + 185 = 207 is more than 206: the same attacks.
		{"0:2 1:205 0:20 0:185 1:1", []played{{ld, le, true, 3, 181}, {lc, lb, false, 0, 0}, {la, lb, false, 0, 0}}},
		// 206 is not more than 206: no hog wild.
		{"0:2 1:205 0:20 0:184 1:1", []played{}},
	} {
		m, r, pos := mapPos(t, "testdata/line.toml", tt.board, sim.PhaseAttack)
		assert.Equal(t, tt.want, playedOrders(playBoth(t, m, r, pos, la, plan, 1)), tt.board)
	}
	// SmartAgentBase.attackStalemate: attackAsMuchAsPossible when the bot
	// holds more than 1500 armies, whoever holds more. With 1501 (b 2000):
	// d takes e as above; c (20) is not more than 0.01 x 2000, a neither.
	stalemate := []Step{{Proc: StepStalemate}}
	m, r, pos := mapPos(t, "testdata/line.toml", "0:2 1:2000 0:20 0:1479 1:1", sim.PhaseAttack)
	assert.Equal(t, []played{{ld, le, true, 3, 1475}}, playedOrders(playBoth(t, m, r, pos, la, stalemate, 1)))
	m, r, pos = mapPos(t, "testdata/line.toml", "0:2 1:2000 0:20 0:1478 1:1", sim.PhaseAttack)
	assert.Empty(t, playBoth(t, m, r, pos, la, stalemate, 1), "1500 armies")
}

func TestLuxCheapestRoute(t *testing.T) {
	t.Parallel()
	// South's borders g, h, i enter the queue at 0 and leave it last
	// first: i, h, g; each pushes its enemy neighbours at 2: f, e, d,
	// taken d first (the latest pushed), which reaches a at 2 - 5.
	x := gridLux(t, "0:5 1:1 0:5 1:2 1:2 1:2 1:1 1:1 1:1")
	assert.Equal(t, []int{ga, gd, gg}, x.cheapestRouteToCont(2))
	assert.Equal(t, 3, x.pathCost(x.cheapestRouteToCont(2)))
	// An own territory in the continent is the route.
	x = gridLux(t, "0:5 1:1 0:5 1:2 1:2 1:2 1:1 0:1 1:1")
	assert.Equal(t, []int{gh}, x.cheapestRouteToCont(2))
	// The easy path from c into South avoids seat 0's territories: c, f, i.
	x = gridLux(t, "0:5 1:1 0:5 1:2 1:2 1:2 1:1 1:1 1:1")
	assert.Equal(t, []int{gc, gf, gi}, x.easyPathToCont(gc, 2))
	assert.Equal(t, 3, x.pathCost(x.easyPathToCont(gc, 2)))
}

func TestLuxPlacement(t *testing.T) {
	t.Parallel()
	// On the cluster border of a (a, b, d, e: border [b, d, e]) the
	// weakest first, the first in border order on ties: b, d, e, b, ...
	x := gridLux(t, "0:1 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, []sim.Placement{{Territory: gb, Armies: 2}, {Territory: gd, Armies: 1}, {Territory: ge, Armies: 1}},
		x.PlaceOnClusterBorder(nil, ga, 4))
	// 250 armies: 2 at a time while 200 or more are left, then 1.
	x = gridLux(t, "0:1 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	pl := x.PlaceOnClusterBorder(nil, ga, 250)
	sum := 0
	for _, p := range pl {
		sum += p.Armies
	}
	assert.Equal(t, 250, sum)

	// Take North (a, b, c): seat 0 owns a and b in it; b faces c inside
	// North, a nothing: everything on b.
	x = gridLux(t, "0:1 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, []sim.Placement{{Territory: gb, Armies: 5}}, x.PlaceToTakeCont(nil, 5, 0))
	// Take South from outside: the cheapest route's start.
	x = gridLux(t, "0:5 1:1 0:5 1:2 1:2 1:2 1:1 1:1 1:1")
	assert.Equal(t, []sim.Placement{{Territory: ga, Armies: 5}}, x.PlaceToTakeCont(nil, 5, 2))
	// North owned: its borders a, b, c face Middle, which seat 0 does not
	// own: one at a time on the weakest, first on ties.
	x = gridLux(t, "0:2 0:1 0:1 1:1 1:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, []sim.Placement{{Territory: gb, Armies: 2}, {Territory: gc, Armies: 1}, {Territory: ga, Armies: 1}},
		x.PlaceToTakeCont(nil, 4, 0))
	// The easiest continent: own/enemy armies, North 4/1 beats Middle 1/3.
	x = gridLux(t, "0:2 0:2 1:1 0:1 1:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, 0, x.EasiestCont())
}

func TestLuxFortifyCluster(t *testing.T) {
	t.Parallel()
	// Seat 0 holds a, b, d, e (border [b, d, e] from a): a is reached
	// from b first and sends its armies there.
	x := gridLux(t, "0:6 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	assert.Equal(t, []sim.Move{{From: ga, To: gb, Armies: 5}}, x.FortifyCluster(nil, ga))
}

func TestLuxMoveIn(t *testing.T) {
	t.Parallel()
	// The memory, on the grid (every territory has two neighbours or more).
	x := gridLux(t, "0:6 0:1 1:1 0:1 0:1 1:1 1:1 1:1 1:1")
	s := x.State()
	for _, tc := range []struct {
		memory, want int
		ok           bool
	}{
		{MoveUnset, 3, false}, {MoveAll, 5, true}, {MoveMin, 3, true}, {4, 4, true}, {9, 5, true}, {moveHalfNow, 3, true},
	} {
		x.Memory = tc.memory
		k, ok := x.MoveIn(s, ga, gb, 3, 5)
		assert.Equal(t, tc.want, k, "memory %d", tc.memory)
		assert.Equal(t, tc.ok, ok, "memory %d", tc.memory)
		assert.Equal(t, MoveUnset, x.Memory)
	}
	// The obvious test, on the fork (a, e, f have one neighbour each): an
	// attacker with one neighbour moves everything, a conquest with one
	// neighbour gets the minimum, whatever the memory.
	m, err := sim.LoadMap("testdata/fork.toml")
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	pos, err := sim.ParsePosition("fork", []byte(`players = 2
hands = [[], []]
round = 3
current = 0
phase = "attack"
[territories]
a = { owner = 0, armies = 6 }
b = { owner = 1, armies = 1 }
c = { owner = 0, armies = 6 }
d = { owner = 1, armies = 1 }
e = { owner = 1, armies = 1 }
f = { owner = 1, armies = 1 }
`), m, r)
	require.NoError(t, err)
	s, err = sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	for _, memory := range []int{MoveUnset, MoveMin, MoveAll} {
		x.Memory = memory
		k, ok := x.MoveIn(s, 0, 1, 3, 5) // a takes b
		assert.Equal(t, [2]any{5, true}, [2]any{k, ok})
		x.Memory = memory
		k, ok = x.MoveIn(s, 2, 4, 3, 5) // c takes e
		assert.Equal(t, [2]any{3, true}, [2]any{k, ok})
		assert.Equal(t, MoveUnset, x.Memory)
	}
}

// BenchmarkLuxPlan runs one pass of each of Cluster's blocks to the plan's
// end on a position that does not change (every order counts as
// repelled; a repeated step would never end on it), with the cursors'
// buffers grown: no allocation.
func BenchmarkLuxPlan(b *testing.B) {
	x := gridLux(b, "1:1 1:1 1:1 1:1 0:40 1:1 1:1 1:1 0:9")
	s := x.State()
	plan := []Step{{Proc: StepRoot}, {Proc: StepEasyExpand}, {Proc: StepFillOut},
		{Proc: StepConsolidate}, {Proc: StepSplitUp, Ratio: 1.2}, {Proc: StepCard, K: 1}}
	b.ReportAllocs()
	orders := 0
	for b.Loop() {
		x.Start(0, nil)
		for {
			if _, ok := x.NextAttack(s, plan); !ok {
				break
			}
			orders++
		}
	}
	b.ReportMetric(float64(orders)/float64(b.N), "orders/op")
}

// cashState returns the state of seat 0's trade phase on the grid (card
// t shows symbol t % 3: a, d, g 0; b, e, h 1; c, f, i 2) where seat 0
// owns the territories in own and seat 1 the others, seat 0 holding the
// cards of hand (a TOML list of territory names and "wild").
func cashState(t *testing.T, own, hand string) *sim.State {
	t.Helper()
	m, r, _ := gridPos(t, "0:1 1:1 0:1 1:1 0:1 1:1 0:1 1:1 0:1", sim.PhaseTrade)
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = 2\nhands = [[%s], []]\nround = 3\ncurrent = 0\nphase = \"trade\"\n[territories]\n", hand)
	for _, tr := range m.Territories {
		owner := 1
		if strings.Contains(own, tr.Name) {
			owner = 0
		}
		fmt.Fprintf(&sb, "%s = { owner = %d, armies = 1 }\n", tr.Name, owner)
	}
	pos, err := sim.ParsePosition("cash", []byte(sb.String()), m, r)
	require.NoError(t, err)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return s
}

// TestLuxBestSet follows Card.getBestSet (sillysoft/LuxSDK, Card.java),
// recomputed by hand from the Java on each hand: a set of no wild card
// first, then one of a single wild card (the first), then any; within
// each, the own cards if they hold a set, else the own cards and the
// first other card in hand order that completes one, else the first
// ordered pair of others, else the whole hand; and Card.getRandomSet's
// choice within the cards found (three of a kind in symbol order, in hand
// order, before one of each). The set is in the order the Java returns it.
func TestLuxBestSet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, own, hand string
		want            [3]int
		ok              bool
	}{
		// Five own cards of symbols 0, 1, 2, 0, 0: the own cards hold a
		// set, and getRandomSet takes three of a kind before one of each.
		{"three 0s before one of each", "abcdg", `"a", "b", "c", "d", "g"`, [3]int{0, 3, 4}, true},
		// Three of a kind in symbol order: the 0s before the 1s ahead of
		// them in the hand.
		{"symbol order", "abdegh", `"b", "e", "h", "a", "d", "g"`, [3]int{3, 4, 5}, true},
		// A and b are seat 0's, c is not: the own cards and the first
		// other card that completes a set; the wild card is not used.
		{"no wild first", "abd", `"a", "b", "wild", "c"`, [3]int{0, 1, 3}, true},
		// The own cards d, e and the first other card completing a set
		// (c, not b ahead of it); getRandomSet's one of each in symbol
		// order.
		{"own cards and the first other", "de", `"b", "c", "a", "d", "e"`, [3]int{3, 4, 1}, true},
		// One own card: the first ordered pair of others completing a set
		// with it, c then e.
		{"own card and a pair", "a", `"c", "e", "h", "a", "b"`, [3]int{3, 1, 0}, true},
		// No own card (seat 0 owns i only) and one wild card: the whole hand, where the wild
		// card completes three 1s before one of each.
		{"wild in three of a kind", "i", `"wild", "b", "c", "e"`, [3]int{0, 1, 3}, true},
		// One of each with the wild card standing in for the 2.
		{"wild for the missing symbol", "i", `"b", "wild", "a"`, [3]int{2, 0, 1}, true},
		// Two wild cards and no set without: the cards without wild cards
		// and the first wild card, appended last.
		{"first wild card", "ab", `"wild", "a", "wild", "b"`, [3]int{1, 3, 0}, true},
		// An own card a set without wild cards cannot use: the set of 1s,
		// not a, b and a wild card.
		{"no wild before own", "a", `"a", "b", "e", "h", "wild"`, [3]int{1, 2, 3}, true},
		{"no set", "abde", `"a", "b", "d", "e"`, [3]int{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkSet(t, cashState(t, tc.own, tc.hand), (*Lux).BestSet, tc.want, tc.ok)
		})
	}
}

// TestLuxRandomSet follows Card.getRandomSet (sillysoft/LuxSDK,
// Card.java) on the whole hand, ownership aside: the first three of a
// kind in symbol order (wild cards counting as any), in hand order, else
// the first card of each symbol, a wild card standing in for the missing
// one.
func TestLuxRandomSet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, hand string
		want       [3]int
		ok         bool
	}{
		{"1s before one of each", `"b", "a", "c", "e", "h"`, [3]int{0, 3, 4}, true},
		{"0s before 1s", `"b", "e", "h", "a", "d", "g"`, [3]int{3, 4, 5}, true},
		{"wild cards count", `"c", "wild", "b", "f"`, [3]int{0, 1, 3}, true},
		{"one of each in symbol order", `"f", "e", "d", "c", "a"`, [3]int{2, 1, 0}, true},
		{"wild for the missing symbol", `"e", "a", "wild"`, [3]int{1, 0, 2}, true},
		{"wild completes three of a kind", `"e", "a", "b", "wild"`, [3]int{0, 2, 3}, true},
		{"no set", `"a", "d", "b", "e"`, [3]int{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkSet(t, cashState(t, "a", tc.hand), (*Lux).RandomSet, tc.want, tc.ok)
		})
	}
}

// checkSet asks a new Lux for seat 0's set with find and checks it
// against want (and ok), and that the engine accepts it.
func checkSet(t *testing.T, s *sim.State, find func(*Lux, *sim.State) ([3]int, bool), want [3]int, wantOK bool) {
	t.Helper()
	var x Lux
	x.Start(0, nil)
	set, ok := find(&x, s)
	require.Equal(t, wantOK, ok)
	assert.Equal(t, want, set)
	if ok {
		require.NoError(t, s.CheckTrade(0, set))
	}
}

// TestLuxSetsNoAllocs: BestSet and RandomSet allocate nothing once the
// bot's buffers have grown.
func TestLuxSetsNoAllocs(t *testing.T) {
	// The second hand has no set without wild cards: the search with
	// the first wild card runs.
	s1 := cashState(t, "a", `"a", "b", "wild", "e", "h", "wild"`)
	s2 := cashState(t, "a", `"a", "wild", "b", "wild"`)
	var x Lux
	x.Start(0, nil)
	x.BestSet(s1)
	x.RandomSet(s1)
	set, ok := x.BestSet(s2)
	require.True(t, ok)
	require.Equal(t, [3]int{0, 2, 1}, set)
	assert.Zero(t, testing.AllocsPerRun(50, func() {
		x.BestSet(s1)
		x.RandomSet(s1)
		x.BestSet(s2)
	}))
}

// TestLuxCashOne follows cashCardsIfPossible: one set (BestSet) a turn
// voluntarily, and BestSet whenever the trade is forced.
func TestLuxCashOne(t *testing.T) {
	t.Parallel()
	s := cashState(t, "abcdg", `"a", "b", "c", "d", "g"`)
	var x Lux
	x.Start(0, nil)
	set, ok := x.CashOne(s, false)
	assert.True(t, ok)
	assert.Equal(t, [3]int{0, 3, 4}, set)
	_, ok = x.CashOne(s, false)
	assert.False(t, ok, "a second voluntary set in the turn")
	set, ok = x.CashOne(s, true)
	assert.True(t, ok)
	assert.Equal(t, [3]int{0, 3, 4}, set)
}
