package mission

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// at returns the State seat 0 is shown at a two-seat position of the
// classic map under the missions rules: seat 0 owns the territories of
// mine with the armies given, seat 1 everything else with 3 armies apart
// from those of theirs; seat 0's mission card is card.
func at(t *testing.T, ph sim.Phase, card string, mine, theirs map[string]int) (*sim.State, *sim.Map) {
	t.Helper()
	r, err := sim.LoadRules("missions")
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	other := "Occupy Asia and Africa"
	if card == other {
		other = "Occupy North America and Africa"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = 2\nround = 3\ncurrent = 0\nphase = %q\nhands = [[], []]\n", ph)
	fmt.Fprintf(&sb, "missions = [%q, %q]\nmission_targets = [-1, -1]\n[territories]\n", card, other)
	names := make([]string, 0, len(m.Territories))
	for _, tr := range m.Territories {
		names = append(names, tr.Name)
	}
	sort.Strings(names)
	for _, n := range names {
		owner, armies := 1, 3
		if a, ok := mine[n]; ok {
			owner, armies = 0, a
		} else if a, ok := theirs[n]; ok {
			armies = a
		}
		fmt.Fprintf(&sb, "%q = { owner = %d, armies = %d }\n", n, owner, armies)
	}
	pos, err := sim.ParsePosition("test", []byte(sb.String()), m, r)
	require.NoError(t, err)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return s, m
}

func id(t *testing.T, m *sim.Map, name string) int {
	t.Helper()
	for i, tr := range m.Territories {
		if tr.Name == name {
			return i
		}
	}
	t.Fatalf("no territory %q", name)
	return -1
}

func TestGreedyAttackSkew(t *testing.T) {
	t.Parallel()
	// Egypt (10) faces Middle East (4, Asia: in the mission) and North
	// Africa (2, Africa: not). Skewed toward the mission, the bot attacks
	// Middle East despite the worse odds; with w = 1 it takes the weaker.
	for _, tc := range []struct {
		w    float64
		want string
	}{{100, "Middle East"}, {4, "Middle East"}, {1, "North Africa"}} {
		s, m := at(t, sim.PhaseAttack, "Occupy Asia and South America",
			map[string]int{"Egypt": 10}, map[string]int{"Middle East": 4, "North Africa": 2})
		b := newGreedy(tc.w)
		b.Start(s, 0, nil)
		o, ok := b.Attack(s)
		require.True(t, ok, "w=%v", tc.w)
		assert.Equal(t, id(t, m, "Egypt"), o.From, "w=%v", tc.w)
		assert.Equal(t, id(t, m, tc.want), o.To, "w=%v", tc.w)
	}
}

func TestGreedyExtraContinent(t *testing.T) {
	t.Parallel()
	// Europe + South America + one other: the bot owns most of Australia,
	// so Australia is its third continent and Western Australia (5) is worth
	// more than North Africa (2, Africa).
	s, m := at(t, sim.PhaseAttack, "Occupy Europe, South America and one other continent",
		map[string]int{"Indonesia": 2, "New Guinea": 2, "Eastern Australia": 12, "Egypt": 12},
		map[string]int{"Western Australia": 5, "North Africa": 2, "Southern Europe": 20, "Middle East": 20, "East Africa": 20, "Siam": 20})
	b := newGreedy(4)
	b.Start(s, 0, nil)
	o, ok := b.Attack(s)
	require.True(t, ok)
	assert.Equal(t, id(t, m, "Western Australia"), o.To)
}

func TestConstrainedAttack(t *testing.T) {
	t.Parallel()
	// North America and Australia: from Egypt only Middle East and North
	// Africa are on a shortest route (3 borders from the mission against
	// Egypt's 4). East Africa and Southern Europe (1 army each) are not.
	s, m := at(t, sim.PhaseAttack, "Occupy North America and Australia",
		map[string]int{"Egypt": 10}, map[string]int{"Middle East": 5, "North Africa": 8, "East Africa": 1, "Southern Europe": 1})
	c := NewConstrained()
	c.Start(s, 0, nil)
	o, ok := c.Attack(s)
	require.True(t, ok)
	assert.Equal(t, id(t, m, "Middle East"), o.To)

	// The unconstrained bot takes a one-army territory.
	b := newGreedy(1)
	b.Start(s, 0, nil)
	o, ok = b.Attack(s)
	require.True(t, ok)
	assert.Contains(t, []int{id(t, m, "East Africa"), id(t, m, "Southern Europe")}, o.To)

	// With Middle East and North Africa too strong, Constrained does not
	// attack at all.
	s, _ = at(t, sim.PhaseAttack, "Occupy North America and Australia",
		map[string]int{"Egypt": 10}, map[string]int{"Middle East": 15, "North Africa": 15, "East Africa": 1, "Southern Europe": 1})
	_, ok = c.Attack(s)
	assert.False(t, ok)
}

func TestConstrainedPlace(t *testing.T) {
	t.Parallel()
	// Egypt's weak neighbour (Southern Europe, 1) is off the route; its
	// route neighbours hold 10. Madagascar's route step East Africa holds 3.
	mine := map[string]int{"Egypt": 2, "Madagascar": 2}
	theirs := map[string]int{"Southern Europe": 1, "Middle East": 10, "North Africa": 10, "East Africa": 3}
	s, m := at(t, sim.PhasePlace, "Occupy North America and Australia", mine, theirs)
	c := NewConstrained()
	c.Start(s, 0, nil)
	pl := c.Place(s, 5, nil)
	require.Len(t, pl, 1)
	assert.Equal(t, sim.Placement{Territory: id(t, m, "Madagascar"), Armies: 5}, pl[0])

	b := newGreedy(1)
	b.Start(s, 0, nil)
	pl = b.Place(s, 5, nil)
	assert.Equal(t, id(t, m, "Egypt"), pl[0].Territory)
}

func TestConstrainedFortify(t *testing.T) {
	t.Parallel()
	// Congo (6) is interior; it moves toward North America (North Africa)
	// or Australia (East Africa faces Middle East, on the route), never to
	// South Africa.
	mine := map[string]int{"Congo": 6, "North Africa": 1, "East Africa": 1, "South Africa": 1, "Madagascar": 1}
	s, m := at(t, sim.PhaseFortify, "Occupy North America and Australia", mine, nil)
	c := NewConstrained()
	c.Start(s, 0, nil)
	mv := c.Fortify(s, nil)
	require.Len(t, mv, 1)
	assert.Equal(t, id(t, m, "Congo"), mv[0].From)
	assert.Equal(t, 5, mv[0].Armies)
	assert.Contains(t, []int{id(t, m, "North Africa"), id(t, m, "East Africa")}, mv[0].To)
	require.NoError(t, s.CheckMoves(0, mv))
}

func TestMissionTarget(t *testing.T) {
	t.Parallel()
	// Egypt (10) touches Africa (its own), Asia and Europe. By Domination's
	// baseline values and the armies in the way, Africa is worth most
	// (0.185 * 11/26 = 0.078 against Asia's 0.091 * 11/48 = 0.021 and
	// Europe's 0.049 * 11/32 = 0.017). A card with Asia skews the choice
	// at w = 4 (0.083). A card with a free third continent takes Africa,
	// where the bot stands, as that continent.
	for _, tc := range []struct {
		card string
		w    float64
		want string
	}{
		{"Occupy Asia and South America", 1, "Africa"},
		{"Occupy Asia and South America", 4, "Asia"},
		{"Occupy Europe, Australia and one other continent", 1, "Africa"},
		{"Occupy Europe, Australia and one other continent", 4, "Africa"},
		{"Occupy Europe, Australia and one other continent", 100, "Africa"},
		{"Occupy Asia and Africa", 100, "Africa"},
		{"Occupy North America and Australia", 100, "Africa"},
	} {
		s, m := at(t, sim.PhaseAttack, tc.card, map[string]int{"Egypt": 10}, nil)
		b := NewMission(tc.w)
		b.Start(s, 0, nil)
		c := b.Target(s)
		require.GreaterOrEqual(t, c, 0, "%s w=%v", tc.card, tc.w)
		assert.Equal(t, tc.want, m.Continents[c].Name, "%s w=%v", tc.card, tc.w)
	}
}

func TestMissionAttackAndPlace(t *testing.T) {
	t.Parallel()
	// Target Asia (w = 4, Asia and South America): from Egypt (10) the bot
	// attacks Middle East (2), not North Africa (2), and places on Egypt,
	// its only territory next to Asia.
	s, m := at(t, sim.PhaseAttack, "Occupy Asia and South America",
		map[string]int{"Egypt": 10}, map[string]int{"North Africa": 2, "Middle East": 2})
	b := NewMission(4)
	b.Start(s, 0, nil)
	require.Equal(t, "Asia", m.Continents[b.Target(s)].Name)
	o, ok := b.Attack(s)
	require.True(t, ok)
	assert.Equal(t, sim.AttackOrder{From: id(t, m, "Egypt"), To: id(t, m, "Middle East"), Repeat: true}, o)
	// Without the skew Africa is the target: North Africa.
	b1 := NewMission(1)
	b1.Start(s, 0, nil)
	o, ok = b1.Attack(s)
	require.True(t, ok)
	assert.Equal(t, id(t, m, "North Africa"), o.To)

	s, _ = at(t, sim.PhasePlace, "Occupy Asia and South America",
		map[string]int{"Egypt": 10}, map[string]int{"North Africa": 2, "Middle East": 2})
	pl := b.Place(s, 4, nil)
	assert.Equal(t, []sim.Placement{{Territory: id(t, m, "Egypt"), Armies: 4}}, pl)
	require.NoError(t, s.CheckPlacement(0, 4, pl))
}

func TestMissionOccupy(t *testing.T) {
	t.Parallel()
	// Just conquered Middle East (Asia, the target) from Egypt: move
	// everything in.
	s, m := at(t, sim.PhaseAttack, "Occupy Asia and South America",
		map[string]int{"Egypt": 10, "Middle East": 1}, nil)
	b := NewMission(4)
	b.Start(s, 0, nil)
	assert.Equal(t, 9, b.Occupy(s, id(t, m, "Egypt"), id(t, m, "Middle East"), 3, 9))
}

func TestSetupSpread(t *testing.T) {
	t.Parallel()
	// Each starting army: stack puts it where Place would put one army;
	// spread shares them (mission: value / armies over the border
	// territories; constrained: the mission's own territory with the
	// fewest armies, else the one nearest the mission).
	assert.Equal(t, setupSpread, NewConstrained().Setup, "constrained spreads by default")
	assert.Equal(t, setupStack, NewMission(4).Setup, "mission stacks by default")
	na := "Occupy North America and Australia"
	for _, tc := range []struct {
		name  string
		bot   func(setup int) interface{ PlaceInitial(*sim.State) int }
		mine  map[string]int
		setup int
		want  string
	}{
		{"mission spread: fewest armies in the same continent", func(st int) interface{ PlaceInitial(*sim.State) int } {
			b := NewMission(4)
			b.Setup = st
			return b
		}, map[string]int{"Indonesia": 6, "New Guinea": 1}, setupSpread, "New Guinea"},
		{"mission stack: the strongest attacker", func(st int) interface{ PlaceInitial(*sim.State) int } {
			b := NewMission(4)
			b.Setup = st
			return b
		}, map[string]int{"Indonesia": 6, "New Guinea": 1}, setupStack, "Indonesia"},
		{"constrained spread: the mission's territory with the fewest armies", func(st int) interface{ PlaceInitial(*sim.State) int } {
			b := NewConstrained()
			b.Setup = st
			return b
		}, map[string]int{"Alaska": 5, "Ontario": 2, "Kamchatka": 1}, setupSpread, "Ontario"},
		{"constrained stack: the best allowed attacker", func(st int) interface{ PlaceInitial(*sim.State) int } {
			b := NewConstrained()
			b.Setup = st
			return b
		}, map[string]int{"Alaska": 5, "Ontario": 2, "Kamchatka": 1}, setupStack, "Alaska"},
		{"constrained spread: none owned in the mission, the nearest", func(st int) interface{ PlaceInitial(*sim.State) int } {
			b := NewConstrained()
			b.Setup = st
			return b
		}, map[string]int{"Kamchatka": 3, "Japan": 1}, setupSpread, "Kamchatka"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, m := at(t, sim.PhasePlace, na, tc.mine, nil)
			b := tc.bot(tc.setup)
			b.(sim.Player).Start(s, 0, nil)
			assert.Equal(t, tc.want, m.Territories[b.PlaceInitial(s)].Name)
		})
	}
}
