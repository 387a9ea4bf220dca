package lux_test

import (
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
// strongest (B, 10:5); Shaft the smallest (A), on its territory there
// facing the most enemies inside it.
func TestGoalContinent(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want sim.Placement
	}{
		{"cluster", sim.Placement{Territory: td, Armies: 5}}, // d and e face one each in B: lowest id
		{"shaft", sim.Placement{Territory: ta, Armies: 5}},   // a faces b and c in A
	} {
		p, s := twoState(t, tc.spec, "goal.toml", nil)
		pl := p.Place(s, 5, nil)
		assert.Equal(t, []sim.Placement{tc.want}, pl, tc.spec)
		require.NoError(t, s.CheckPlacement(0, 5, pl))
	}
}

// TestClusterBorder: owning B, Cluster reinforces the weakest of its
// cluster's border (d, 1 army, against g's 5); Yakool, facing a seat with
// four times its armies, places at the start of the cheapest route into
// that seat's continent (g, next to a's 2 armies).
func TestClusterBorder(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want []sim.Placement
	}{
		{"cluster", []sim.Placement{{Territory: td, Armies: 4}}},
		{"yakool", []sim.Placement{{Territory: tg, Armies: 4}}},
		{"boscoe", []sim.Placement{{Territory: tg, Armies: 4}}},
	} {
		p, s := twoState(t, tc.spec, "dominant.toml", nil)
		assert.Equal(t, tc.want, p.Place(s, 4, nil), tc.spec)
	}
}

// TestClusterOccupy: after taking f from d, Cluster moves everything in
// when f's weakest enemy in the goal (g, 2) is no stronger than d's (c, 3,
// outside the goal); nothing when f has no enemy left.
func TestClusterOccupy(t *testing.T) {
	conquered := func(p *sim.Position) { p.Owner[tf], p.Armies[tf] = 0, 3 }
	p, s := twoState(t, "cluster", "goal.toml", conquered)
	p.Place(s, 1, nil) // chooses the goal, B
	assert.Equal(t, 5, p.Occupy(s, td, tf, 3, 5))
	p, s = twoState(t, "cluster", "goal.toml", func(p *sim.Position) {
		conquered(p)
		p.Owner[tg] = 0
	})
	p.Place(s, 1, nil)
	assert.Equal(t, 3, p.Occupy(s, td, tf, 3, 5))
}

// TestClusterAttack: Cluster's plan starts with easy expand (e, 4, on its
// only enemy g, 2) and orders attacks to the end with the most dice.
func TestClusterAttack(t *testing.T) {
	p, s := twoState(t, "cluster", "goal.toml", func(p *sim.Position) { p.Phase = sim.PhaseAttack })
	o, ok := p.Attack(s)
	require.True(t, ok)
	assert.Equal(t, sim.AttackOrder{From: te, To: tg, Repeat: true}, o)
	require.NoError(t, s.CheckAttack(0, o))
}

// TestClusterFortify: the interior of B's cluster (e, f, g behind d in
// dominant.toml, with more armies on e) pushes toward the border.
func TestClusterFortify(t *testing.T) {
	p, s := twoState(t, "cluster", "dominant.toml", func(p *sim.Position) {
		p.Phase = sim.PhaseFortify
		p.Armies[te] = 6
	})
	assert.Equal(t, []sim.Move{{From: te, To: td, Armies: 5}}, simtest.Fortify(t, p, s, 0))
}

// TestClusterAllocs: once its buffers have grown, no decision allocates.
func TestClusterAllocs(t *testing.T) {
	for _, spec := range []string{"cluster", "yakool", "quo"} {
		p, s := twoState(t, spec, "dominant.toml", nil)
		assert.Zero(t, simtest.TurnAllocs(p, s, true, 50), spec)
	}
}

// TestVultureHunt: with 37 armies to seat 1's 10, Vulture hunts: it places
// on its strongest territory next to the prey (e, 30) where Cluster takes B
// from d, and attacks the prey at the best ratio (e on g, 30:2).
func TestVultureHunt(t *testing.T) {
	strong := func(p *sim.Position) { p.Armies[te] = 30 }
	p, s := twoState(t, "vulture", "goal.toml", strong)
	assert.Equal(t, []sim.Placement{{Territory: te, Armies: 3}}, p.Place(s, 3, nil))
	o, ok := p.Attack(s)
	require.True(t, ok)
	assert.Equal(t, sim.AttackOrder{From: te, To: tg, Repeat: true}, o)
	c, s := twoState(t, "cluster", "goal.toml", strong)
	assert.Equal(t, []sim.Placement{{Territory: td, Armies: 3}}, c.Place(s, 3, nil))
	// Even armies (11 to 10): no hunt, Vulture places as Cluster.
	p, s = twoState(t, "vulture", "goal.toml", nil)
	assert.Equal(t, []sim.Placement{{Territory: td, Armies: 3}}, p.Place(s, 3, nil))
}

// TestShaftHogsWild: Shaft holds only the centre of the grid, facing four
// enemy territories. No block of its own applies (easy expand wants one
// enemy neighbour, consolidate two border territories, and the sweep, which
// could take all four, would leave four points facing two unseen enemies
// each: its front does not collapse); when its 30 armies exceed all the
// enemies' together it hogs wild, as Cluster does: split up on its weakest
// enemy neighbour (b, lowest id of the ties). Outnumbered, it holds.
func TestShaftHogsWild(t *testing.T) {
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
