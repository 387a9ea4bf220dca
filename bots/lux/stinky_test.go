package lux_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Seat 0 holds a (1), b (3), d (4) and e (1); b's weakest enemy neighbour
// is c (2), d's is g (2).
const stinkyBoard = "0:1 0:3 1:2 0:4 0:1 1:5 1:2 1:5 1:1"

func TestStinkyPlace(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "stinky", "classic", stinkyBoard, sim.PhasePlace)
	// The borders are b, d and e; a is interior and never drawn.
	seen := map[int]int{}
	for range 100 {
		pl := p.Place(s, 3, nil)
		require.NoError(t, s.CheckPlacement(0, 3, pl))
		require.Len(t, pl, 1)
		seen[pl[0].Territory]++
	}
	assert.Len(t, seen, 3)
	for _, tr := range []int{gb, gd, ge} {
		assert.NotZero(t, seen[tr], "territory %d", tr)
	}
}

func TestStinkyAttack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, spec, board string
		want              []sim.AttackOrder // the orders of successive calls in one turn
	}{
		// b (3) against c (2) is exactly 1.5 times: no attack; d (4)
		// against g (2) is 2 times. The sweep then ends: one pass a turn.
		{"above 1.5 times only", "stinky", stinkyBoard, []sim.AttackOrder{{From: gd, To: gg, Repeat: true}}},
		{"ratio parameter", "stinky(ratio=2.5)", stinkyBoard, nil},
		{"ratio parameter below", "stinky(ratio=1.4)", stinkyBoard, []sim.AttackOrder{
			{From: gb, To: gc, Repeat: true}, {From: gd, To: gg, Repeat: true}}},
		// Above frenzy armies (9 > 5), every territory with 2 armies
		// attacks, and the sweep starts again while it attacks.
		{"frenzy", "stinky(frenzy=5)", "0:1 0:3 1:5 0:2 0:1 1:5 1:5 1:5 1:1", []sim.AttackOrder{
			{From: gb, To: gc, Repeat: true}, {From: gd, To: gg, Repeat: true}, {From: gb, To: gc, Repeat: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, tt.spec, "classic", tt.board, sim.PhaseAttack)
			assert.Equal(t, tt.want, simtest.Attacks(t, p, s, 0, 3))
		})
	}
}

func TestStinkyOccupy(t *testing.T) {
	t.Parallel()
	// Seat 0 holds b, d and e. e takes f: e's weakest other enemy is h (1),
	// f's weakest enemy is c or i (2): weaker, so e keeps its armies. e
	// takes h: e's weakest other enemy is f (3), h's is g or i (2):
	// everything moves in. d takes a: d's remaining enemy g; a has none.
	board := "1:1 0:3 1:2 0:4 0:9 1:3 1:2 1:1 1:2"
	p, s := gridState(t, "stinky", "classic", board, sim.PhaseAttack)
	assert.Equal(t, 3, p.Occupy(s, ge, gf, 3, 8))
	// For h: e's others are f (3); h's enemies g (2) and i (2).
	assert.Equal(t, 8, p.Occupy(s, ge, gh, 3, 8))
	assert.Equal(t, 2, p.Occupy(s, gd, ga, 2, 3))
}

func TestStinkyNeverFortifies(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "stinky", "mars2006", stinkyBoard, sim.PhaseFortify)
	assert.Empty(t, p.Fortify(s, nil))
}
