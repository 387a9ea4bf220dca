package lux_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Seat 0 holds a (3), b (3) and d (2). Placing 6 armies (2 per
// continent): North's need is c's 2 - a's and b's 6 - d's 2 next to it =
// -6, Middle's 8 - 2 - 6 = 0, South's 11 - 2 = 9: North and Middle are
// wanted. Seat 1 holds the whole of South.
const pixieBoard = "0:3 0:3 1:2 0:2 1:4 1:4 1:1 1:5 1:5"

func TestPixiePlace(t *testing.T) {
	tests := []struct {
		spec    string
		want    []sim.Placement
		initial int
	}{
		// Round after round, one army for each wanted continent: in North
		// on b (one enemy neighbour in North, c), in Middle on d (one, e).
		{"pixie", []sim.Placement{{Territory: gb, Armies: 3}, {Territory: gd, Armies: 3}}, gb},
		// Seat 1 holds most territories and armies: EvilPixie kills the
		// dominant player first, everything on d, the start of the
		// cheapest route into seat 1's South.
		{"evilpixie", []sim.Placement{{Territory: gd, Armies: 6}}, gd},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := gridState(t, tt.spec, "classic", pixieBoard, sim.PhasePlace)
			pl := p.Place(s, 6, nil)
			assert.Equal(t, tt.want, pl)
			require.NoError(t, s.CheckPlacement(0, 6, pl))
			assert.Equal(t, tt.initial, p.PlaceInitial(s))
		})
	}
}

// TestPixieNeedsHelp: an owned wanted continent needs help while any of
// its border territories holds at most the threshold, exposed or not.
func TestPixieNeedsHelp(t *testing.T) {
	tests := []struct {
		name, board string
		want        []sim.Placement
	}{
		// Seat 0 owns North and Middle; South (40 a territory) is not
		// wanted. North's border territories face only Middle, so none is
		// exposed; a (1) holds at most 20: North needs help and a, its
		// weakest border territory, takes every army.
		{"weak border", "0:1 0:30 0:30 0:30 0:30 0:30 1:40 1:40 1:40", []sim.Placement{{Territory: ga, Armies: 6}}},
		// Every border territory holds more than 20: nothing needs help,
		// and the armies go round-robin to the territories with an enemy
		// neighbour.
		{"strong borders", "0:21 0:30 0:30 0:30 0:30 0:30 1:40 1:40 1:40",
			[]sim.Placement{{Territory: gd, Armies: 2}, {Territory: ge, Armies: 2}, {Territory: gf, Armies: 2}}},
		// One army at a time to the weakest border territory (lowest id on
		// ties): b (18), a (19), b, a, b; then a and b hold 21, North no
		// longer needs help, and the last army goes round-robin, to d.
		{"until above", "0:19 0:18 0:30 0:30 0:30 0:30 1:40 1:40 1:40",
			[]sim.Placement{{Territory: ga, Armies: 2}, {Territory: gb, Armies: 3}, {Territory: gd, Armies: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, "pixie", "classic", tt.board, sim.PhasePlace)
			pl := p.Place(s, 6, nil)
			require.NoError(t, s.CheckPlacement(0, 6, pl))
			assert.Equal(t, tt.want, pl)
		})
	}
}

// TestEvilPixiePlaceOutnumber: when its armies exceed all enemies',
// EvilPixie first places next to the enemy territories it does not
// outnumber, just enough to hold one army more.
func TestEvilPixiePlaceOutnumber(t *testing.T) {
	// Seat 0 owns North and Middle, whose exposed borders d (30), e (30)
	// and f (25, 31 once helped) hold more than any threshold; seat 1
	// holds g (5), h (1) and i (30), which f does not outnumber.
	board := "0:30 0:30 0:30 0:30 0:30 0:25 1:5 1:1 1:30"
	p, s := gridState(t, "evilpixie", "classic", board, sim.PhasePlace)
	pl := p.Place(s, 12, nil)
	require.NoError(t, s.CheckPlacement(0, 12, pl))
	// Seat 0 dominates: f first gets 6 (25+6 = i's 30+1); the 6 left go
	// to take South, which is wanted: on e, the start of the cheapest
	// route into it (through h, 1 army).
	assert.Equal(t, []sim.Placement{{Territory: ge, Armies: 6}, {Territory: gf, Armies: 6}}, pl)
}

func TestPixieAttack(t *testing.T) {
	tests := []struct {
		spec, board string
		want        sim.AttackOrder
		ok          bool
	}{
		// c (2), the enemy territory of wanted North, from b (3).
		{"pixie", pixieBoard, sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		// EvilPixie first breaks South, seat 1's continent: its weakest
		// territory g (1), from d (2 > 1.3).
		{"evilpixie", pixieBoard, sim.AttackOrder{From: gd, To: gg, Repeat: true}, true},
		// b (5) outnumbers c (4) but not by 1.3; EvilPixie's card attack
		// needs 5:1 and there is none: no attack. South is not whole.
		{"evilpixie", "0:3 0:5 1:4 0:2 1:4 1:4 0:1 1:5 1:5", sim.AttackOrder{}, false},
		{"pixie", "0:3 0:5 1:4 0:2 1:4 1:4 0:1 1:5 1:5", sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		// Any owned neighbour with more armies, the first in c's
		// neighbour order (b, f): b (3) on c (2), though f (9) is
		// stronger; with b at 2, not more than c's 2, f attacks.
		{"pixie", "0:3 0:3 1:2 0:2 1:4 0:9 1:1 1:5 1:5", sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		{"pixie", "0:3 0:2 1:2 0:2 1:4 0:9 1:1 1:5 1:5", sim.AttackOrder{From: gf, To: gc, Repeat: true}, true},
		// Nothing in the wanted continents: attack for card(1), the best
		// ratio, d (2) on g (1).
		{"pixie", "0:3 0:2 1:2 0:2 1:4 1:4 1:1 1:5 1:5", sim.AttackOrder{From: gd, To: gg, Repeat: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := gridState(t, tt.spec, "classic", tt.board, sim.PhaseAttack)
			p.Place(s, 6, nil) // the wanted continents are chosen at placement
			o, ok := simtest.Attack(t, p, s, 0)
			require.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, o)
		})
	}
}

func TestPixieOccupy(t *testing.T) {
	// North and Middle are wanted, South not.
	p, s := gridState(t, "pixie", "classic", "0:3 0:9 1:2 0:6 1:4 1:4 1:1 1:5 1:5", sim.PhaseAttack)
	p.Place(s, 6, nil)
	assert.Equal(t, 5, p.Occupy(s, gb, gc, 3, 8), "both in North: half of 9, rounded up")
	assert.Equal(t, 1, p.Occupy(s, gd, gg, 1, 5), "from wanted Middle into South: the minimum")
	assert.Equal(t, 3, p.Occupy(s, gd, ge, 1, 5), "both in Middle: half of 6")
}

func TestPixieFortify(t *testing.T) {
	checkFortify(t, []fortifyCase{
		// a is interior in North, which seat 0 does not own: all to b,
		// which faces c (1), weaker than g (5) facing d.
		{"weakest enemy", "pixie", "mars2006", "0:6 0:1 1:1 0:1 0:1 1:1 1:5 1:1 1:1",
			[]sim.Move{{From: ga, To: gb, Armies: 5}}},
		// Seat 0 owns North and Middle: a, b and c push one step toward
		// the front d, e, f.
		{"owned continent", "pixie", "mars2006", "0:4 0:3 0:2 0:5 0:1 0:1 1:1 1:1 1:1",
			[]sim.Move{{From: ga, To: gd, Armies: 3}, {From: gb, To: ge, Armies: 2}, {From: gc, To: gf, Armies: 1}}},
		{"one move", "pixie", "classic", "0:4 0:3 0:2 0:5 0:1 0:1 1:1 1:1 1:1",
			[]sim.Move{{From: ga, To: gd, Armies: 3}}},
		// EvilPixie also balances the borders of Middle: d (5+3 after a's
		// move) gives e (1+2) half the difference, 2, of its 4 own spare
		// armies.
		{"evil balance", "evilpixie", "mars2006", "0:4 0:3 0:2 0:5 0:1 0:1 1:1 1:1 1:1",
			[]sim.Move{{From: ga, To: gd, Armies: 3}, {From: gb, To: ge, Armies: 2}, {From: gc, To: gf, Armies: 1}, {From: gd, To: ge, Armies: 2}}},
	})
}

func TestPixieTrade(t *testing.T) {
	for _, tt := range []struct {
		spec string
		ok   bool
	}{{"pixie", false}, {"evilpixie", true}} {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := gridStateHand(t, tt.spec, pixieBoard, `[["a", "b", "c"], []]`)
			set, ok := p.Trade(s, false)
			require.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, [3]int{0, 1, 2}, set)
				require.NoError(t, s.CheckTrade(0, set))
			}
		})
	}
}
