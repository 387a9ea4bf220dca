package lux_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Seat 0 holds a (1, interior), b (3), d (2) and e (5); g (1) is the
// weakest enemy territory next to it, touching d.
const communistBoard = "0:1 0:3 1:2 0:2 0:5 1:4 1:1 1:3 1:1"

func TestCommunistPlace(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "communist", "classic", communistBoard, sim.PhasePlace)
	// Level by level over every territory, interior a included: a (1->2);
	// a and d at 2 (->3); a, b and d at 3: a, the first (->4).
	pl := p.Place(s, 4, nil)
	assert.Equal(t, []sim.Placement{{Territory: ga, Armies: 3}, {Territory: gd, Armies: 1}}, pl)
	require.NoError(t, s.CheckPlacement(0, 4, pl))
	assert.Equal(t, ga, p.PlaceInitial(s))
}

func TestCommunistAttack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, board string
		want        []sim.AttackOrder // the orders of successive calls in one turn
	}{
		// d (2) attacks g (1), the weakest adjacent enemy; then the turn's
		// attack is spent.
		{"weakest adjacent enemy", communistBoard, []sim.AttackOrder{{From: gd, To: gg, Repeat: true}}},
		// c and g tie at 2: b, the first territory in id order next to a
		// 2-army enemy, attacks its neighbour c.
		{"lowest id on ties", "0:1 0:3 1:2 0:3 0:5 1:4 1:2 1:3 1:3", []sim.AttackOrder{{From: gb, To: gc, Repeat: true}}},
		// g (2) is the weakest but its only owned neighbour d (2) does not
		// outnumber it: no attack.
		{"not outnumbered", "0:1 0:3 1:3 0:2 0:1 1:4 1:2 1:3 1:1", nil},
		// Seat 0 holds 30 armies against 8: after the one attack (d on g),
		// hog wild: easy expand from b, the first territory with one
		// enemy neighbour that it outnumbers.
		{"hog wild", "0:1 0:9 1:2 0:9 0:11 1:3 1:1 1:1 1:1", []sim.AttackOrder{
			{From: gd, To: gg, Repeat: true}, {From: gb, To: gc, Repeat: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, "communist", "classic", tt.board, sim.PhaseAttack)
			assert.Equal(t, tt.want, simtest.Attacks(t, p, s, 0, 2))
		})
	}
}

func TestCommunistOccupy(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "communist", "classic", "0:1 0:7 1:2 0:2 0:5 1:4 1:1 1:3 1:1", sim.PhaseAttack)
	assert.Equal(t, 4, p.Occupy(s, gb, gc, 3, 6), "half of 7, rounded up")
	assert.Equal(t, 3, p.Occupy(s, ge, gf, 3, 4), "half of 5 is 3")
	assert.Equal(t, 1, p.Occupy(s, gd, gg, 1, 1), "within the engine's bounds")
}

func TestCommunistFortify(t *testing.T) {
	t.Parallel()
	// a (7) gives b (1) half the difference, 3, then d (1) half of the new
	// difference 3-1, 1; b and d have nothing to spare.
	board := "0:7 0:1 1:2 0:1 0:1 1:4 1:1 1:3 1:1"
	checkFortify(t, []fortifyCase{
		{"mars2006", "communist", "mars2006", board, []sim.Move{{From: ga, To: gb, Armies: 3}, {From: ga, To: gd, Armies: 1}}},
		{"classic", "communist", "classic", board, []sim.Move{{From: ga, To: gb, Armies: 3}}},
	})
}
