package lux_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestCommunistSourcePlace: Communist.placeArmies fills level by level
// over every owned territory, interior a and d included: b and d (1) get
// one each, then a, b and d at 2 in id order until the armies run out.
func TestCommunistSourcePlace(t *testing.T) {
	t.Parallel()
	m, r, pos := simtest.LoadPosition(t, "testdata/grid.toml", "mars2006", "testdata/communist-source.toml")
	seat, err := registry.Default().ParseSeat("communist", nil)
	require.NoError(t, err)
	p, s := bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(1, 2)))
	type placeCase struct {
		armies int
		want   []sim.Placement
	}
	for _, tc := range []placeCase{
		{1, []sim.Placement{{Territory: gb, Armies: 1}}},
		{2, []sim.Placement{{Territory: gb, Armies: 1}, {Territory: gd, Armies: 1}}},
		{4, []sim.Placement{{Territory: ga, Armies: 1}, {Territory: gb, Armies: 2}, {Territory: gd, Armies: 1}}},
		{5, []sim.Placement{{Territory: ga, Armies: 1}, {Territory: gb, Armies: 2}, {Territory: gd, Armies: 2}}},
		// Level 3: a, b, d and e; then level 4 begins with a.
		{10, []sim.Placement{{Territory: ga, Armies: 3}, {Territory: gb, Armies: 3}, {Territory: gd, Armies: 3}, {Territory: ge, Armies: 1}}},
	} {
		pl := p.Place(s, tc.armies, nil)
		assert.Equal(t, tc.want, pl, "%d armies", tc.armies)
		require.NoError(t, s.CheckPlacement(0, tc.armies, pl))
	}
	assert.Equal(t, gb, p.PlaceInitial(s), "a starting army goes where Place puts one army")
}

// TestCommunistSourceAttacker: Communist.setExpandos attacks the weakest
// adjacent enemy, h (1), from e, the first of its territories in id order
// next to it, though g (6) is stronger; then its turn's attack is spent.
func TestCommunistSourceAttacker(t *testing.T) {
	t.Parallel()
	playSteps(t, "communist", "mars2006", "communist-source.toml", []sourceStep{
		// After the conquest the enemies still outnumber it (no hog wild).
		{blitzOrder(ge, gh), true, "h=0:2 e=0:1 i=1:9"},
		{sim.AttackOrder{}, false, ""},
	})
	// e no stronger than h: no attack, though g outnumbers h.
	m, r, pos := simtest.LoadPosition(t, "testdata/grid.toml", "mars2006", "testdata/communist-source.toml")
	pos = gridEdit(t, m, pos, "e=0:1")
	seat, err := registry.Default().ParseSeat("communist", nil)
	require.NoError(t, err)
	p, s := bottest.StartAt(t, seat, m, r, pos, nil)
	_, ok := simtest.Attack(t, p, s, 0)
	assert.False(t, ok)
}

// TestCommunistSourceHogWild: Communist.attackPhase makes its one attack
// (setExpandos: e on b, the first of e's weakest neighbours), then
// SmartAgentBase.attackHogWild, its armies above all enemies' together:
// attackAsMuchAsPossible sweeps its territories in id order, b then e,
// each the root of tripleAttackPack repeated (nothing here: every border
// faces two enemies or more, no enemy is surrounded) and of
// attackSplitUp(root, 0.01) repeated. The outcomes are scripted.
func TestCommunistSourceHogWild(t *testing.T) {
	t.Parallel()
	playSteps(t, "communist", "mars2006", "communist-hogwild.toml", []sourceStep{
		{blitzOrder(ge, gb), true, "b=0:20 e=0:20"},
		// Root b: its cluster border [b, e] in discovery order; split up
		// from b (20 > 0.01 x 2) on a, then c, in b's adjacency order.
		{blitzOrder(gb, ga), true, "a=0:9 b=0:10"},
		{blitzOrder(gb, gc), true, "c=0:5 b=0:5"},
		// Then e (20 > 0.01 x 3) on d, f and h in its adjacency order.
		{blitzOrder(ge, gd), true, "d=0:6 e=0:14"},
		{blitzOrder(ge, gf), true, "f=0:7 e=0:7"},
		{blitzOrder(ge, gh), true, "h=0:3 e=0:4"},
	})
}
