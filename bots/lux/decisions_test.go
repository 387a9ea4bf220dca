package lux_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Territory ids of testdata/two.toml.
const (
	ta = iota
	tb
	tc
	td
	te
	tf
	tg
)

// twoState returns seat 0's State at the position file pos on
// testdata/two.toml (classic rules) after edit changes the position, and a
// started player of seat spec.
func twoState(t *testing.T, spec, pos string, edit func(*sim.Position)) (sim.Player, *sim.State) {
	t.Helper()
	m, r, p := simtest.LoadPosition(t, "testdata/two.toml", "classic", "testdata/"+pos)
	if edit != nil {
		edit(p)
	}
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	return bottest.StartAt(t, seat, m, r, p, nil)
}

// TestGoalContinent: Cluster takes the continent where its armies are
// strongest (B, 10:5), and so does Shaft, which places as Cluster
// (Shaft.java overrides only pickCountry and attackFromCluster).
func TestGoalContinent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec string
		want sim.Placement
	}{
		{"cluster", sim.Placement{Territory: td, Armies: 5}}, // d and e face one each in B: lowest id
		{"shaft", sim.Placement{Territory: td, Armies: 5}},
	} {
		p, s := twoState(t, tc.spec, "goal.toml", nil)
		pl := p.Place(s, 5, nil)
		assert.Equal(t, []sim.Placement{tc.want}, pl, tc.spec)
		require.NoError(t, s.CheckPlacement(0, 5, pl))
	}
}

// TestClusterBorder: owning B, Cluster reinforces the weakest of its
// cluster's border (placeArmiesOnClusterBorder: d, 1 army, against g's 5).
// Yakool, facing a seat with four times its armies, places at the start
// of the cheapest route into that seat's continent
// (placeArmiesToKillPlayer, BoardHelper.cheapestRouteFromOwnerToCont): A's
// borders a and c enter the queue at 0 and c, the latest pushed, is taken
// first; it reaches d, Yakool's, at 0 - 1, before a reaches g: d, though
// the route through c costs 10 and the one through a 2.
func TestClusterBorder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec string
		want []sim.Placement
	}{
		{"cluster", []sim.Placement{{Territory: td, Armies: 4}}},
		{"yakool", []sim.Placement{{Territory: td, Armies: 4}}},
		{"boscoe", []sim.Placement{{Territory: td, Armies: 4}}},
	} {
		p, s := twoState(t, tc.spec, "dominant.toml", nil)
		assert.Equal(t, tc.want, p.Place(s, 4, nil), tc.spec)
	}
}

// turnOn plays seat 0's turn of seat spec from pos (on map m under rules
// r) with the real engine (simtest.PlayTurn) and requires no fault.
func turnOn(t *testing.T, spec string, m *sim.Map, r *sim.Rules, pos *sim.Position, seed uint64) simtest.Turn {
	t.Helper()
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	turn := simtest.PlayTurn(t, p, m, r, pos, seed)
	require.Empty(t, turn.Faults)
	return turn
}

// gridTurn plays seat 0's attack phase (and fortification) of spec on
// testdata/grid.toml under mars2006, board as gridState reads it.
func gridTurn(t *testing.T, spec, board string, seed uint64) simtest.Turn {
	t.Helper()
	m, err := sim.LoadMap("testdata/grid.toml")
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	fields := strings.Fields(board)
	players := 2
	for _, f := range fields {
		if strings.HasPrefix(f, "2:") {
			players = 3
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = %d\nhands = [%s]\nround = 3\ncurrent = 0\nphase = \"attack\"\n[territories]\n",
		players, strings.Repeat("[], ", players))
	require.Len(t, fields, m.NumTerritories())
	for i, f := range fields {
		var o, a int
		_, err := fmt.Sscanf(f, "%d:%d", &o, &a)
		require.NoError(t, err)
		fmt.Fprintf(&sb, "%s = { owner = %d, armies = %d }\n", m.Territories[i].Name, o, a)
	}
	pos, err := sim.ParsePosition("grid-turn", []byte(sb.String()), m, r)
	require.NoError(t, err)
	return turnOn(t, spec, m, r, pos, seed)
}

// moveIn is the kind of a move-in an expectation names.
type moveIn uint8

const (
	moveAll moveIn = iota + 1 // everything
	moveMin                   // the minimum
	moveNum                   // a number of armies (clamped to the bounds)
)

// want is an expected attack order, conquering (unless lost), and its
// move-in.
type want struct {
	from, to int
	move     moveIn
	armies   int  // the number of moveNum
	lost     bool // the attack is repelled
}

// checkOrders requires the played orders to be want's, each conquering
// and moving in as want says.
func checkOrders(t *testing.T, got []simtest.Order, wants []want) {
	t.Helper()
	require.Len(t, got, len(wants), "%+v", got)
	for i, w := range wants {
		o := got[i]
		require.Equal(t, sim.AttackOrder{From: w.from, To: w.to, Repeat: true}, o.AttackOrder, "order %d", i)
		require.Equal(t, !w.lost, o.Conquered, "order %d: %+v", i, o)
		switch w.move {
		case moveAll:
			assert.True(t, o.All(), "order %d moves everything: %+v", i, o)
		case moveMin:
			assert.True(t, o.Min(), "order %d moves the minimum: %+v", i, o)
		case moveNum:
			assert.Equal(t, min(max(w.armies, o.Dice), o.Left+o.Moved-1), o.Moved, "order %d: %+v", i, o)
		}
	}
}

// TestClusterTurn plays Cluster's attack phase with the real engine (each
// move-in asked while the conquered territory still shows its defender
// with 0 armies) and checks the orders and move-ins that Cluster.java and
// SmartAgentBase.java give; the dice of the seed conquer every target.
func TestClusterTurn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, board string
		want        []want
	}{
		// Cluster.attackPhase: no continent, so the root is the biggest army
		// e (12); attackEasyExpand, repeatedly: e's only enemy g, then g's
		// only enemy f, then d's only enemy c, then c's only enemy b, each
		// conquest moving everything in (memory 1000000).
		{"easy expand moves everything", "",
			[]want{{te, tg, moveAll, 0, false}, {tg, tf, moveAll, 0, false}, {td, tc, moveAll, 0, false}, {tc, tb, moveAll, 0, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, r, pos := simtest.LoadPosition(t, "testdata/two.toml", "mars2006", "testdata/goal.toml")
			pos.Phase = sim.PhaseAttack
			pos.Armies[te] = 12
			checkOrders(t, turnOn(t, "cluster", m, r, pos, 1).Orders, tc.want)
		})
	}
	for _, tc := range []struct {
		name, board string
		seed        uint64
		want        []want
	}{
		// attackFillOut from the root b (9, the biggest army; its cluster is
		// b alone, facing a, c, e): a, c and e have no neighbour but seat
		// 0's, so b attacks each in adjacency order while it outnumbers
		// it, moving the minimum in (memory 0). Easy expand found nothing
		// before (b faces three); after, consolidate and split up find
		// nothing against g and i (12 each), and 24 enemy armies keep hog
		// wild off.
		{"fill out moves the minimum", "1:1 0:12 1:1 0:3 1:1 0:3 1:12 0:3 1:12", 1,
			[]want{{gb, ga, moveMin, 0, false}, {gb, gc, moveMin, 0, false}, {gb, ge, moveMin, 0, false}}},
		// attackSplitUp(1.2) from the root e (30 > 1.2 x 4): each enemy
		// neighbour in adjacency order, 30 / 4 = 7 moved in each time.
		{"split up moves armies / enemies", "1:9 1:1 1:9 1:1 0:30 1:1 1:9 1:1 1:9", 1,
			[]want{{ge, gb, moveNum, 7, false}, {ge, gd, moveNum, 7, false}, {ge, gf, moveNum, 7, false}, {ge, gh, moveNum, 7, false}}},
		// attackConsolidate: b (5) is the one enemy of a (4) and of c (4),
		// whose armies (8) exceed it; a attacks first (b's adjacency
		// order) and is repelled at this seed, then c takes b and moves
		// everything in. (The easy expands before: a and c face b with
		// fewer armies.)
		{"consolidate moves everything", "0:4 1:5 0:4 0:1 1:9 0:1 1:9 1:9 1:9", 1,
			[]want{{ga, gb, 0, 0, true}, {gc, gb, moveAll, 0, false}}},
		// The participants' full armies count: 3 + 3 > 5 launches both
		// attacks (armies less one each, 4, would not), both repelled
		// here.
		{"consolidate sums full armies", "0:3 1:5 0:3 0:1 1:9 0:1 1:9 1:9 1:9", 1,
			[]want{{ga, gb, 0, 0, true}, {gc, gb, 0, 0, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkOrders(t, gridTurn(t, "cluster", tc.board, tc.seed).Orders, tc.want)
		})
	}
}

// TestYakoolKillPath plays Yakool's turn on dominant.toml from its start:
// seat 1 holds 32 of the 40 armies, so all 6 armies go on d (see
// TestClusterBorder); the attack begins with attackToKillPlayer
// (SmartAgentBase): for A, the own territories with 2 armies or more in id
// order: d (7) whose easiest path into A, d-c, costs 10, too much; then g
// (5), whose path g-a costs 2: g attacks along the whole path, moving
// everything in (attackAlongPath).
func TestYakoolKillPath(t *testing.T) {
	t.Parallel()
	m, r, pos := simtest.LoadPosition(t, "testdata/two.toml", "mars2006", "testdata/dominant.toml")
	pos.Phase = sim.PhaseTrade
	turn := turnOn(t, "yakool", m, r, pos, 1)
	assert.Equal(t, []sim.Placement{{Territory: td, Armies: 6}}, turn.Places)
	require.NotEmpty(t, turn.Orders)
	checkOrders(t, turn.Orders[:1], []want{{tg, ta, moveAll, 0, false}})
}

// TestClusterCard: three seats, none dominant, seat 0 outnumbered by the
// others together (no hog wild). From the root a (North is seat 0's),
// no easy expand (b's one enemy e is stronger), fill out or consolidate
// applies; attackForCard(1) takes the best ratio of all pairs, d (3) on g
// (1), and moves in the minimum: Yakool with no memory (the default),
// Boscoe with memory 0 (Boscoe.setmoveInMemoryBeforeCardAttack); Bort
// moves half of d's armies before the attack, 3 / 2 = 1, raised to the
// minimum (the seed conquers). Cluster makes no card attack.
func TestClusterCard(t *testing.T) {
	t.Parallel()
	board := "0:1 0:1 0:1 0:3 1:3 0:3 1:1 2:3 1:3"
	for _, spec := range []string{"yakool", "boscoe", "bort"} {
		checkOrders(t, gridTurn(t, spec, board, 2).Orders, []want{{gd, gg, moveMin, 0, false}})
	}
	assert.Empty(t, gridTurn(t, "cluster", board, 2).Orders)
}

// TestBortCardHalf: the card position of TestClusterCard with d at 9 (and
// h at 9, so that hog wild stays off): Bort moves in half of d's armies
// before the attack, 9 / 2 = 4 (Bort.setmoveInMemoryBeforeCardAttack),
// clamped to the move-in's bounds; Boscoe the minimum.
func TestBortCardHalf(t *testing.T) {
	t.Parallel()
	board := "0:1 0:1 0:1 0:9 1:3 0:3 1:1 2:9 1:3"
	checkOrders(t, gridTurn(t, "bort", board, 2).Orders, []want{{gd, gg, moveNum, 4, false}})
	checkOrders(t, gridTurn(t, "boscoe", board, 2).Orders, []want{{gd, gg, moveMin, 0, false}})
}

// TestBortOnce: from the root a (12), the border snapshot is [a, e, h];
// a's one enemy b falls and a moves everything in. Bort's single
// easy-expand pass ends there (Bort.attackFromCluster): b, now facing only
// c, waits for the next turn, and consolidate finds no enemy touching two
// of its territories. Boscoe's repeated triple pack goes on from b to c.
func TestBortOnce(t *testing.T) {
	t.Parallel()
	board := "0:12 1:1 1:1 0:1 0:1 1:9 0:1 0:1 1:9"
	checkOrders(t, gridTurn(t, "bort", board, 1).Orders, []want{{ga, gb, moveAll, 0, false}})
	got := gridTurn(t, "boscoe", board, 1).Orders
	require.GreaterOrEqual(t, len(got), 2)
	checkOrders(t, got[:2], []want{{ga, gb, moveAll, 0, false}, {gb, gc, moveAll, 0, false}})
}

// TestClusterFortify: the interior of B's cluster (e, f, g behind d in
// dominant.toml, with more armies on e) pushes toward the border.
func TestClusterFortify(t *testing.T) {
	t.Parallel()
	p, s := twoState(t, "cluster", "dominant.toml", func(p *sim.Position) {
		p.Phase = sim.PhaseFortify
		p.Armies[te] = 6
	})
	assert.Equal(t, []sim.Move{{From: te, To: td, Armies: 5}}, simtest.Fortify(t, p, s, 0))
}

// TestClusterAllocs: once its buffers have grown, no decision allocates.
func TestClusterAllocs(t *testing.T) {
	for _, spec := range []string{"cluster", "yakool", "boscoe", "bort", "shaft", "quo", "vulture"} {
		p, s := twoState(t, spec, "dominant.toml", nil)
		assert.Zero(t, simtest.TurnAllocs(p, s, true, 50), spec)
	}
}

// TestVultureTwoClusters: with 37 armies to seat 1's 10, Vulture would
// hunt seat 1 (Vulture.java setToKillPlayer), but seat 1's territories
// form two clusters (b c and f g): placeToKill finds no route and the
// backer, a Cluster, places (on d, as Cluster does), and attacks.
func TestVultureTwoClusters(t *testing.T) {
	t.Parallel()
	strong := func(p *sim.Position) { p.Armies[te] = 30 }
	for _, spec := range []string{"vulture", "cluster"} {
		p, s := twoState(t, spec, "goal.toml", strong)
		assert.Equal(t, []sim.Placement{{Territory: td, Armies: 3}}, p.Place(s, 3, nil), spec)
	}
}

// TestShaftHogsWild: Shaft holds only the centre of the grid, facing four
// enemy territories. No block of its own applies (easy expand wants one
// enemy neighbour, fill out a neighbour with none but Shaft's, consolidate
// two border territories, and the sweep's test keeps four territories
// queued, each facing two unseen enemies); when its 30 armies exceed all
// the enemies' together it hogs wild, as Cluster does: split up from e on
// each enemy neighbour in adjacency order, b first. Outnumbered, it holds.
func TestShaftHogsWild(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		board string
		want  sim.AttackOrder
		ok    bool
	}{
		{"1:1 1:1 1:1 1:1 0:30 1:1 1:1 1:1 1:1", sim.AttackOrder{From: ge, To: gb, Repeat: true}, true},
		{"1:5 1:5 1:5 1:5 0:30 1:5 1:5 1:5 1:5", sim.AttackOrder{}, false},
	} {
		p, s := gridState(t, "shaft", "classic", tt.board, sim.PhaseAttack)
		o, ok := p.Attack(s)
		assert.Equal(t, tt.ok, ok, tt.board)
		assert.Equal(t, tt.want, o, tt.board)
	}
}
