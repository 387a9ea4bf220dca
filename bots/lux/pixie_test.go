package lux_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/lux"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Territory ids of testdata/lobes.toml.
const (
	lw0 = iota
	lw1
	lw2
	lw3
	ls0
	ls1
	lc0
	lc1
	lc2
	lc3
	le0
	le1
	le2
)

// lobesState is gridState on testdata/lobes.toml.
func lobesState(t testing.TB, spec, rules, board string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	return mapStateAt(t, spec, "testdata/lobes.toml", rules, board, "[[], []]", ph)
}

// Seat 0 holds a (3), b (3) and d (2). Placing 6 armies (2 per
// continent): North's need is c's 2 - a's and b's 6 - d's 2 next to it =
// -6, Middle's 8 - 2 - 6 = 0, South's 11 - 2 = 9: North and Middle are
// wanted. Seat 1 holds the whole of South.
const pixieBoard = "0:3 0:3 1:2 0:2 1:4 1:4 1:1 1:5 1:5"

// TestPixiePlace: placements derived from Pixie.placeArmies (and
// EvilPixie.placeArmies), with the armies placed counting at once.
func TestPixiePlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, spec, board string
		armies            int
		want              []sim.Placement
	}{
		// Pixie.placeArmies: rounds of one army per wanted continent that
		// needs help (continentNeedsHelp: not owned); placeArmiesToTakeCont
		// puts it on the territory with the most enemy neighbours inside
		// the continent: in North b (c), in Middle d (e).
		{"rounds", "pixie", pixieBoard, 6, []sim.Placement{{Territory: gb, Armies: 3}, {Territory: gd, Armies: 3}}},
		// Seat 1 holds most territories: EvilPixie kills the dominant
		// player first (placeArmiesToKillDominantPlayer), everything on d,
		// the start of the cheapest route into seat 1's South.
		{"kill dominant", "evilpixie", pixieBoard, 6, []sim.Placement{{Territory: gd, Armies: 6}}},
		// Seat 0 owns North and Middle; North needs help while a border
		// holds at most 20 (continentNeedsHelp, borderCountryNeedsHelp), and
		// North's borders face only Middle, which seat 0 owns:
		// placeArmiesToTakeCont finds no border that weOwnContsArround
		// accepts and places each army on borders[rand.nextInt(3)] of
		// North's borders a, b, c (one draw of the bot's stream per army,
		// each round asking for one army). Middle (borders at 30) and South
		// (need 120 - 90) take nothing.
		{"enveloped", "pixie", "0:1 0:30 0:30 0:30 0:30 0:30 1:40 1:40 1:40", 6, nil},
		// North is seat 0's alone, its borders exposed to Middle: one army
		// at a time on the weakest (the first in id order on ties): b (18),
		// a (19), b, a, b; then a and b hold 21 and North no longer needs
		// help, after 5 armies; the last goes by placeNearEnemies to the
		// first territory with an enemy neighbour, a.
		{"until above", "pixie", "0:19 0:18 0:25 1:30 1:30 1:30 1:30 1:30 1:30", 6,
			[]sim.Placement{{Territory: ga, Armies: 3}, {Territory: gb, Armies: 3}}},
		// Every border holds more than 20: nothing needs help and
		// placeNearEnemies goes round-robin over d, e and f.
		{"strong borders", "pixie", "0:21 0:30 0:30 0:30 0:30 0:30 1:40 1:40 1:40", 6,
			[]sim.Placement{{Territory: gd, Armies: 2}, {Territory: ge, Armies: 2}, {Territory: gf, Armies: 2}}},
		// Nothing is wanted (needs 10, 18 and 6 against a share of 1):
		// getEasiestContToTake takes the best ratio of own to enemy armies
		// inside, North (10:20) over South (2:8), though South's need is
		// the least; placeArmiesToTakeCont puts all on a, facing b.
		{"easiest", "pixie", "0:10 1:10 1:10 1:10 1:10 1:10 1:4 0:2 1:4", 3,
			[]sim.Placement{{Territory: ga, Armies: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, tt.spec, "classic", tt.board, sim.PhasePlace)
			pl := p.Place(s, tt.armies, nil)
			require.NoError(t, s.CheckPlacement(0, tt.armies, pl))
			if tt.want != nil {
				assert.Equal(t, tt.want, pl)
				return
			}
			// The draws of the stream the bot was started with
			// (mapStateAt's PCG(1, 2)), one per army.
			rng := rand.New(rand.NewPCG(1, 2))
			add := make([]int, 3)
			for range tt.armies {
				add[rng.IntN(3)]++
			}
			var want []sim.Placement
			for t, k := range add {
				if k > 0 {
					want = append(want, sim.Placement{Territory: ga + t, Armies: k})
				}
			}
			assert.Equal(t, want, pl)
			assert.Equal(t, []sim.Placement{{Territory: ga, Armies: 2}, {Territory: gb, Armies: 1}, {Territory: gc, Armies: 3}}, pl)
		})
	}
}

// TestPixiePlaceInitial: a starting army is the first army of a
// placement of 1.
func TestPixiePlaceInitial(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]int{"pixie": gb, "evilpixie": gd} {
		p, s := gridState(t, spec, "classic", pixieBoard, sim.PhasePlace)
		assert.Equal(t, want, p.PlaceInitial(s), spec)
	}
}

// TestPixieAttack: the first order of Pixie.attackPhase after the
// placement chose the wanted continents.
func TestPixieAttack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, spec, board string
		want              sim.AttackOrder
		ok                bool
	}{
		// attackInContinent: c (2), the enemy territory of wanted North,
		// from its first neighbour with more armies, b (3).
		{"wanted continent", "pixie", pixieBoard, sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		// Any owned neighbour with more armies, in c's neighbour order
		// (b, f): b (3) though f (9) is stronger; with b at 2, f.
		{"first neighbour", "pixie", "0:3 0:3 1:2 0:2 1:4 0:9 1:1 1:5 1:5", sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		{"next neighbour", "pixie", "0:3 0:2 1:2 0:2 1:4 0:9 1:1 1:5 1:5", sim.AttackOrder{From: gf, To: gc, Repeat: true}, true},
		// Nothing in the wanted continents: attackForCard(1), the best
		// ratio, d (2) on g (1).
		{"card", "pixie", "0:3 0:2 1:2 0:2 1:4 1:4 1:1 1:5 1:5", sim.AttackOrder{From: gd, To: gg, Repeat: true}, true},
		// The best ratio is 1 (b on c), not above 1: no attack.
		{"none", "pixie", "0:2 0:2 1:2 0:2 1:4 1:4 1:2 1:5 1:5", sim.AttackOrder{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, tt.spec, "classic", tt.board, sim.PhaseAttack)
			p.Place(s, 6, nil) // the wanted continents are chosen at placement
			o, ok := simtest.Attack(t, p, s, 0)
			require.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, o)
		})
	}
}

// stateAt returns seat 0's State at board on the grid map under classic
// rules in the attack phase of round 3, with conquered as the position's
// Conquered.
func stateAt(t *testing.T, board string, conquered bool) *sim.State {
	t.Helper()
	m, r, pos := boardPosition(t, "testdata/grid.toml", "classic", board, "[[], []]", sim.PhaseAttack)
	pos.Conquered = conquered
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return s
}

// TestPixieAttackPass: Pixie.attackPhase is one pass. Seat 0 (c 12, f 2,
// i 2) places 3 with North and Middle wanted (needs -10 and -6, South's
// 14). In North a (3) has no neighbour of seat 0's; c takes b. The pass
// goes on from b's next neighbour and into Middle, where b, now seat 0's,
// takes e; it never goes back to a, which b would outnumber. Each step's
// board is the engine's after the order.
func TestPixieAttackPass(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "pixie", "classic", "1:3 1:1 0:12 1:5 1:5 0:2 1:9 1:9 0:2", sim.PhasePlace)
	p.Place(s, 3, nil)
	steps := []struct {
		board     string
		conquered bool
		want      sim.AttackOrder
		ok        bool
	}{
		{"1:3 1:1 0:12 1:5 1:5 0:2 1:9 1:9 0:2", false, sim.AttackOrder{From: gc, To: gb, Repeat: true}, true},
		// c took b and moved 11 in.
		{"1:3 0:11 0:1 1:5 1:5 0:2 1:9 1:9 0:2", true, sim.AttackOrder{From: gb, To: ge, Repeat: true}, true},
		// b took e: South is not wanted, nothing else.
		{"1:3 0:1 0:1 1:5 0:9 0:2 1:9 1:9 0:2", true, sim.AttackOrder{}, false},
	}
	for i, st := range steps {
		s := stateAt(t, st.board, st.conquered)
		o, ok := simtest.Attack(t, p, s, 0)
		require.Equal(t, st.ok, ok, "step %d", i)
		assert.Equal(t, st.want, o, "step %d", i)
	}
}

// TestPixieOccupy: Pixie.moveArmiesIn, asked as the engine asks: the
// captured territory still shows the defender.
func TestPixieOccupy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, mapPath, board string
		from, to, lo, hi     int
		want                 int
	}{
		// North and Middle wanted. b and c each keep one enemy neighbour
		// (e, f): tied above 0, half of b's 9 rounded down.
		{"tie above 0", "grid", "0:3 0:9 1:2 0:6 1:4 1:4 1:1 1:5 1:5", gb, gc, 3, 8, 4},
		// d keeps g, e faces f and h: the captured has more, everything.
		{"captured more", "grid", "0:3 0:9 1:2 0:6 1:4 1:4 1:1 1:5 1:5", gd, ge, 1, 5, 5},
		// d keeps e, g faces h: tied, half of 6, though only d is wanted.
		{"tie, only attacker wanted", "grid", "0:3 0:9 1:2 0:6 1:4 1:4 1:1 1:5 1:5", gd, gg, 1, 5, 3},
		// e keeps b, d and f, h faces g: the attacker has more, the
		// minimum.
		{"attacker more", "grid", "1:1 1:1 1:1 1:1 0:8 1:1 1:1 1:1 0:2", ge, gh, 3, 7, 3},
		// No enemy on either side (tied at 0): West is wanted, Strait
		// (bonus 0) never: from West into Strait the minimum, ...
		{"tie at 0, attacker's wanted", "lobes", "0:6 0:1 0:1 0:1 1:1 0:2 0:2 1:3 1:3 1:3 1:3 1:3 1:3", lw0, ls0, 3, 5, 3},
		// ... from Strait into West everything, ...
		{"tie at 0, captured's wanted", "lobes", "1:1 0:1 0:1 0:1 0:8 0:2 0:2 1:3 1:3 1:3 1:3 1:3 1:3", ls0, lw0, 1, 7, 7},
		// ... inside Strait half (9/2), inside West half.
		{"tie at 0, neither wanted", "lobes", "0:1 0:1 0:1 0:1 0:9 1:1 0:2 1:3 1:3 1:3 1:3 1:3 1:3", ls0, ls1, 3, 8, 4},
		{"tie at 0, both wanted", "lobes", "1:1 0:9 0:1 0:1 0:2 0:2 0:2 1:3 1:3 1:3 1:3 1:3 1:3", lw1, lw0, 3, 8, 4},
		// Half of 4 is below the least the engine allows.
		{"within bounds", "grid", "0:3 0:4 1:2 0:6 1:4 1:4 1:1 1:5 1:5", gb, gc, 3, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := mapStateAt(t, "pixie", "testdata/"+tt.mapPath+".toml", "classic", tt.board, "[[], []]", sim.PhaseAttack)
			p.Place(s, 3, nil) // the wanted continents
			require.Equal(t, 1, s.Owner(tt.to))
			assert.Equal(t, tt.want, p.Occupy(s, tt.from, tt.to, tt.lo, tt.hi))
		})
	}
}

// TestPixieTurnInEngine plays the turn of TestPixieAttackPass, e holding
// 3, with the engine (mars2006; simtest.PlayTurn): the same orders, and
// both move-ins,
// asked while the captured territory still shows its defender with 0
// armies, move everything: b and e each face more enemies than their
// attackers (b: a and e against none; e: d and h against a).
func TestPixieTurnInEngine(t *testing.T) {
	t.Parallel()
	m, r, pos := boardPosition(t, "testdata/grid.toml", "mars2006", "1:3 1:1 0:12 1:5 1:3 0:2 1:9 1:9 0:2", "[[], []]", sim.PhaseTrade)
	seat, err := registry.Default().ParseSeat("pixie", nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	turn := simtest.PlayTurn(t, p, m, r, pos, 1)
	require.Empty(t, turn.Faults)
	require.Len(t, turn.Orders, 2)
	for i, want := range []sim.AttackOrder{{From: gc, To: gb, Repeat: true}, {From: gb, To: ge, Repeat: true}} {
		o := turn.Orders[i]
		assert.Equal(t, want, o.AttackOrder)
		assert.True(t, o.All(), "order %d moves everything in", i)
	}
}

// TestPixieFortify: Pixie.fortifyPhase, continent by continent.
func TestPixieFortify(t *testing.T) {
	t.Parallel()
	checkFortify(t, []fortifyCase{
		// fortifyContinentScraps in North, not seat 0's: a sends all to b,
		// whose weakest enemy c (1) is weaker than d's g (5); a has none.
		{"scraps", "pixie", "mars2006", "0:6 0:1 1:1 0:1 0:1 1:1 1:5 1:1 1:1",
			[]sim.Move{{From: ga, To: gb, Armies: 5}}},
		// Seat 0 owns North and Middle: fortifyContinent walks inward from
		// each continent's borders, and every territory of both is a
		// border: nothing moves, a's 3 spare armies stay facing only d.
		{"owned continents", "pixie", "mars2006", "0:4 0:3 0:2 0:5 0:1 0:1 1:1 1:1 1:1", nil},
	})
	lobes := "0:2 0:5 0:4 0:3 1:2 1:2 0:6 0:4 1:8 0:3 1:9 1:1 1:1"
	tests := []struct {
		name, rules string
		want        []sim.Move
	}{
		// West is seat 0's: fortifyContinent from its border w0 inward, w1
		// sends its 4 to w0, then w2 and w3 theirs to w1, where they stay.
		// Centre is not: fortifyContinentScraps, c0 (facing s1's 2) sees
		// no neighbour facing less; c1 (facing e0's 9) sends its 3 to c3,
		// which faces e1 (1), though c1 is on the front; c3, whose 3
		// arrived, keeps its own 2: c1 faces 9.
		{"lobes", "mars2006", []sim.Move{{From: lw1, To: lw0, Armies: 4}, {From: lw2, To: lw1, Armies: 3},
			{From: lw3, To: lw1, Armies: 2}, {From: lc1, To: lc3, Armies: 3}}},
		// One move allowed: the largest.
		{"one move", "classic", []sim.Move{{From: lw1, To: lw0, Armies: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := lobesState(t, "pixie", tt.rules, lobes, sim.PhaseFortify)
			assert.Equal(t, tt.want, simtest.Fortify(t, p, s, 0))
		})
	}
}

// TestPixieTrade: Pixie never cashes; EvilPixie cashes one set a turn
// (EvilPixie.cardsPhase, cashCardsIfPossible), and again when forced.
func TestPixieTrade(t *testing.T) {
	t.Parallel()
	p, s := gridStateHand(t, "pixie", pixieBoard, `[["a", "b", "c"], []]`)
	_, ok := p.Trade(s, false)
	assert.False(t, ok)

	p, s = gridStateHand(t, "evilpixie", pixieBoard, `[["a", "b", "c", "d", "e", "f"], []]`)
	set, ok := p.Trade(s, false)
	require.True(t, ok)
	require.NoError(t, s.CheckTrade(0, set))
	_, ok = p.Trade(s, false)
	assert.False(t, ok, "one set a turn")
	set, ok = p.Trade(s, true)
	require.True(t, ok, "forced")
	require.NoError(t, s.CheckTrade(0, set))
}

// TestEvilPixiePlace: placements derived from EvilPixie.placeArmies.
func TestEvilPixiePlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, board string
		armies      int
		want        []sim.Placement
	}{
		// Seat 0's armies exceed seat 1's: placeHogWild sends every army
		// through placeToOutnumberEnemies. g and h are outnumbered; i (30)
		// is not (f 25): its last neighbour of seat 0's, f, gets 30 - 25 =
		// 5, reaching a tie; the 7 left go by placeNearEnemies to d, e, f,
		// d, e, f, d.
		{"hog wild", "0:30 0:30 0:30 0:30 0:30 0:25 1:5 1:1 1:30", 12,
			[]sim.Placement{{Territory: gd, Armies: 3}, {Territory: ge, Armies: 2}, {Territory: gf, Armies: 7}}},
		// e (10) has neighbours b 3, d 9, f 2, h 4 of seat 0's: the last,
		// h, not the strongest, d, gets 10 - 4 = 6, a tie; the 2 left go
		// to b and d.
		{"last neighbour", "0:20 0:3 0:20 0:9 1:10 0:2 0:20 0:4 0:20", 8,
			[]sim.Placement{{Territory: gb, Armies: 1}, {Territory: gd, Armies: 1}, {Territory: gh, Armies: 6}}},
		// As above with 5 armies: Java asks Board.placeArmies for 6 on h
		// (placeToOutnumberEnemies). ask = cut: the 5 there are.
		{"clamp", "0:20 0:3 0:20 0:9 1:10 0:2 0:20 0:4 0:20", 5,
			[]sim.Placement{{Territory: gh, Armies: 5}}},
		// ask = lost: the board refuses the 6, Java's count falls to 5 - 6
		// and the method ends; the 5 left go by placeNearEnemies round-robin
		// to the territories facing e: b, d, f, h, b.
		{"evilpixie(ask=lost)", "0:20 0:3 0:20 0:9 1:10 0:2 0:20 0:4 0:20", 5,
			[]sim.Placement{{Territory: gb, Armies: 2}, {Territory: gd, Armies: 1}, {Territory: gf, Armies: 1}, {Territory: gh, Armies: 1}}},
		// Seat 0 owns North and Middle, below seats 1 and 2 together. a (1)
		// faces only Middle, seat 0's, so it needs no help
		// (borderCountryNeedsHelp); d, e and f hold 22, above any
		// borderForce (7..21): no wanted continent needs help and
		// placeRemainder outnumbers: g (40) from d, its last neighbour of
		// seat 0's, 18 armies in Java, cut to the 6 there are.
		{"enveloped needs no help", "0:1 0:22 0:22 0:22 0:22 0:22 1:40 1:40 2:40", 6,
			[]sim.Placement{{Territory: gd, Armies: 6}}},
		// ask = lost: g's 18 is refused; the 6 go round-robin to d, e, f.
		{"evilpixie(ask=lost) enveloped", "0:1 0:22 0:22 0:22 0:22 0:22 1:40 1:40 2:40", 6,
			[]sim.Placement{{Territory: gd, Armies: 2}, {Territory: ge, Armies: 2}, {Territory: gf, Armies: 2}}},
		// An ask that fits is placed alike in both readings: i (27) from f
		// (25), 2; the 10 left round-robin to d, e, f.
		{"evilpixie(ask=lost) fits", "0:30 0:30 0:30 0:30 0:30 0:25 1:5 1:1 1:27", 12,
			[]sim.Placement{{Territory: gd, Armies: 4}, {Territory: ge, Armies: 3}, {Territory: gf, Armies: 5}}},
		{"fits", "0:30 0:30 0:30 0:30 0:30 0:25 1:5 1:1 1:27", 12,
			[]sim.Placement{{Territory: gd, Armies: 4}, {Territory: ge, Armies: 3}, {Territory: gf, Armies: 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := "evilpixie"
			if strings.HasPrefix(tt.name, "evilpixie(") {
				spec, _, _ = strings.Cut(tt.name, " ")
			}
			p, s := gridState(t, spec, "classic", tt.board, sim.PhasePlace)
			pl := p.Place(s, tt.armies, nil)
			require.NoError(t, s.CheckPlacement(0, tt.armies, pl))
			assert.Equal(t, tt.want, pl)
		})
	}
}

// attackStep is one call of Attack in a scripted attack phase: the board
// the engine shows after the orders before it, and the order expected.
type attackStep struct {
	board     string
	conquered bool
	want      sim.AttackOrder
	ok        bool
}

// checkAttackSteps places armies for seat spec on the first step's board,
// then asks for the steps' orders one after another.
func checkAttackSteps(t *testing.T, spec string, armies int, steps []attackStep) {
	t.Helper()
	p, s := gridState(t, spec, "classic", steps[0].board, sim.PhasePlace)
	p.Place(s, armies, nil)
	for i, st := range steps {
		s := stateAt(t, st.board, st.conquered)
		o, ok := simtest.Attack(t, p, s, 0)
		require.Equal(t, st.ok, ok, "step %d", i)
		assert.Equal(t, st.want, o, "step %d", i)
	}
}

// TestEvilPixieAttack: EvilPixie.attackPhase, step by step.
func TestEvilPixieAttack(t *testing.T) {
	t.Parallel()
	t.Run("float ratio", func(t *testing.T) {
		// attackInContinent in wanted North: a (117) on b (90): 1.3f x 90
		// is 116.99999 in Java's float, so 117 outnumbers it.
		checkAttackSteps(t, "evilpixie", 6, []attackStep{
			{"0:117 1:90 2:2 0:8 0:1 0:1 1:35 1:3 2:3", false, sim.AttackOrder{From: ga, To: gb, Repeat: true}, true},
		})
	})
	t.Run("take out continent", func(t *testing.T) {
		// Nothing is wanted but Middle, seat 0's. takeOutContinentCheck:
		// no neighbour outnumbers seat 1's North; in seat 2's South the
		// first border, g (5), falls to d (6), 1:1; that one attack ends
		// the check, and nothing else qualifies.
		checkAttackSteps(t, "evilpixie", 6, []attackStep{
			{"1:8 1:8 1:8 0:6 0:1 0:2 2:5 2:6 2:6", false, sim.AttackOrder{From: gd, To: gg, Repeat: true}, true},
			{"1:8 1:8 1:8 0:6 0:1 0:2 2:5 2:6 2:6", false, sim.AttackOrder{}, false},
		})
	})
	t.Run("take out player", func(t *testing.T) {
		// Seat 0's 17 armies exceed 5 x seat 2's 3: takeOutPlayerCheck
		// attacks h from e; h taken, i from f, repelled, then from h, with
		// 2 armies against 2: every neighbour holding 2, no odds check.
		checkAttackSteps(t, "evilpixie", 3, []attackStep{
			{"0:3 0:3 0:3 0:3 0:3 0:2 1:15 2:1 2:2", false, sim.AttackOrder{From: ge, To: gh, Repeat: true}, true},
			{"0:3 0:3 0:3 0:3 0:1 0:2 1:15 0:2 2:2", true, sim.AttackOrder{From: gf, To: gi, Repeat: true}, true},
			{"0:3 0:3 0:3 0:3 0:1 0:1 1:15 0:2 2:2", true, sim.AttackOrder{From: gh, To: gi, Repeat: true}, true},
			{"0:3 0:3 0:3 0:3 0:1 0:1 1:15 0:1 2:1", true, sim.AttackOrder{}, false},
		})
	})
}

// TestEvilPixieFortify: EvilPixie's fortifyContinent (balancing, one
// pass) and fortifyContinentScraps (pulling in) beside Pixie's.
func TestEvilPixieFortify(t *testing.T) {
	t.Parallel()
	// Seat 0 owns North: no interior. EvilPixie balances its adjacent
	// borders once, pairs in id order: a (10) gives b (2) 4, then c (12)
	// gives b (6) 3; b (9) gives a (6) nothing more in the pass. Pixie
	// makes no move.
	grid := "0:10 0:2 0:12 1:1 1:1 1:1 1:1 1:1 1:1"
	checkFortify(t, []fortifyCase{
		{"balance once", "evilpixie", "mars2006", grid, []sim.Move{{From: ga, To: gb, Armies: 4}, {From: gc, To: gb, Armies: 3}}},
		{"no balance", "pixie", "mars2006", grid, nil},
	})
	// Seat 0 owns West and Strait. West: w1 sends 4 to w0, w2 and w3 to
	// w1. Strait: EvilPixie balances s1 (9) into s0 (3), 3. Centre, not
	// seat 0's: EvilPixie first pulls c0's 5 into s1, in a continent it
	// owns; then, as Pixie, c1 sends 3 to c3 (facing 1 against c1's 9).
	lobes := "0:2 0:5 0:4 0:3 0:3 0:9 0:6 0:4 1:8 0:3 1:9 1:1 1:1"
	west := []sim.Move{{From: lw1, To: lw0, Armies: 4}, {From: lw2, To: lw1, Armies: 3}, {From: lw3, To: lw1, Armies: 2}}
	for _, tt := range []struct {
		spec string
		want []sim.Move
	}{
		{"evilpixie", append(west[:3:3], sim.Move{From: ls1, To: ls0, Armies: 3}, sim.Move{From: lc0, To: ls1, Armies: 5}, sim.Move{From: lc1, To: lc3, Armies: 3})},
		{"pixie", append(west[:3:3], sim.Move{From: lc1, To: lc3, Armies: 3})},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := lobesState(t, tt.spec, "mars2006", lobes, sim.PhaseFortify)
			assert.Equal(t, tt.want, simtest.Fortify(t, p, s, 0))
		})
	}
}

// TestPixieReused: Start clears a game's state (wanted continents, the
// attack cursor, the kill target, the cards cashed), so a Pixie or
// EvilPixie reused for a second game (as arena's workers reuse them) plays
// it as fresh ones do.
func TestPixieReused(t *testing.T) {
	t.Parallel()
	r, err := sim.LoadRules("classic")
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	seats := func() []sim.Player {
		return []sim.Player{
			&lux.Pixie{Ratio: 1, CardRatio: 1, Threshold: 20},
			&lux.Pixie{Ratio: 1.3, CardRatio: 5, Threshold: 20, Evil: true},
			&lux.Pixie{Ratio: 1, CardRatio: 1, Threshold: 20},
			&lux.Pixie{Ratio: 1.3, CardRatio: 5, Threshold: 20, Evil: true},
		}
	}
	play := func(ps []sim.Player, seed uint64) sim.Result {
		g, err := sim.NewGame(m, r, len(ps))
		require.NoError(t, err)
		res, err := g.Play(ps, seed, 0)
		require.NoError(t, err)
		return res
	}
	reused := seats()
	play(reused, 3)
	assert.Equal(t, play(seats(), 4), play(reused, 4))
}
