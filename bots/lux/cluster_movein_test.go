package lux

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Territory ids of testdata/grid.toml (the external tests name them too).
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

// played is an order of a played attack phase as a test expects it: the
// attack (Lux's attack till dead), whether it took its target, and the
// armies moved in and left behind (0, 0 when it did not).
type played struct {
	from, to    int
	conquered   bool
	moved, left int
}

// TestClusterFamilyMoveIns plays one attack phase of a bot of the Cluster
// family with the real engine, the dice fixed by the seed, and checks its
// orders and move-ins against the Java (SmartAgentBase's moveInMemory,
// read by Cluster.moveArmiesIn through memoryMoveArmiesInTest; the engine
// asks while the captured territory still shows its defender with 0
// armies, which no move-in reads).
func TestClusterFamilyMoveIns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		bot   func() *cluster
		board string
		seed  uint64
		want  []played
	}{
		// attackEasyExpand: a's one enemy b falls; moveInMemory 1000000,
		// everything (8, a left with 1). b then faces c and e: no more.
		{"easy expand", newLuxCluster, "0:10 1:1 1:3 0:2 1:5 1:5 1:5 1:5 1:5", 1,
			[]played{{ga, gb, true, 8, 1}}},
		// attackFillOut: b is surrounded by a, c and e, weaker than a:
		// moveInMemory 0, the minimum (the 3 dice), a keeps 6. The second
		// easy expand: a's one enemy d (5) is weaker than a (6): repelled.
		{"fill out", newLuxCluster, "0:9 1:1 0:2 1:5 0:2 1:5 1:9 1:9 1:9", 2,
			[]played{{ga, gb, true, 3, 6}, {ga, gd, false, 0, 0}}},
		// attackConsolidate: b (5) is the only enemy of a (4) and c (4),
		// which together hold 8; a is repelled, c takes b and moves
		// everything in (3). The repeated consolidate: e is b's only enemy,
		// b alone joins (d and f face two), everything (2). Then split
		// up(1.2): e (2) on h (1), repelled.
		{"consolidate", newLuxCluster, "0:4 1:5 0:4 0:1 1:1 0:1 1:1 1:1 1:1", 1,
			[]played{{ga, gb, false, 0, 0}, {gc, gb, true, 3, 1}, {gb, ge, true, 2, 1}, {ge, gh, false, 0, 0}}},
		// The easy expand a on b is repelled; the triple packs find nothing
		// more; attackForCard(1): e 9 on b, the best ratio, with Boscoe's
		// memory 0: the minimum, 3.
		{"boscoe card", newBoscoe, "0:3 1:2 1:3 0:2 0:9 1:2 1:3 1:4 1:5", 1,
			[]played{{ga, gb, false, 0, 0}, {ge, gb, true, 3, 5}}},
		// Bort's memory: half of e's 9 before the attack, 4.
		{"bort card", newBort, "0:3 1:2 1:3 0:2 0:9 1:2 1:3 1:4 1:5", 1,
			[]played{{ga, gb, false, 0, 0}, {ge, gb, true, 4, 4}}},
		// Yakool sets no memory (setmoveInMemoryBeforeCardAttack is empty):
		// Cluster's default, the minimum.
		{"yakool card", newYakool, "0:3 1:2 1:3 0:2 0:9 1:2 1:3 1:4 1:5", 1,
			[]played{{ga, gb, false, 0, 0}, {ge, gb, true, 3, 5}}},
		// a (3) takes b with everything (2); owning no continent, Yakool
		// splits up (yakoolSplits): e (9) above 1.2 x (2 + 4) attacks f and
		// then h, 9 / 2 = 4 each: f falls, e is left with 1 and h is spared.
		{"yakool split up", newYakool, "0:3 1:2 1:3 0:2 0:9 1:2 1:3 1:4 1:5", 2,
			[]played{{ga, gb, true, 2, 1}, {ge, gf, true, 4, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, r, pos := gridPosition(t, tt.board)
			turn := simtest.PlayTurn(t, tt.bot(), m, r, pos, tt.seed)
			require.Empty(t, turn.Faults)
			got := make([]played, len(turn.Orders))
			for i, o := range turn.Orders {
				require.Equal(t, sim.AttackOrder{From: o.From, To: o.To, Repeat: true}, o.AttackOrder)
				got[i] = played{o.From, o.To, o.Conquered, o.Moved, o.Left}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// gridPosition returns testdata/grid.toml, mars2006 and the position of
// board ("owner:armies" per territory in id order), seat 0 to attack in
// round 3.
func gridPosition(t *testing.T, board string) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	m, err := sim.LoadMap("testdata/grid.toml")
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	var sb strings.Builder
	sb.WriteString("players = 2\nhands = [[], []]\nround = 3\ncurrent = 0\nphase = \"attack\"\n[territories]\n")
	for i, f := range strings.Fields(board) {
		var o, a int
		_, err := fmt.Sscanf(f, "%d:%d", &o, &a)
		require.NoError(t, err)
		fmt.Fprintf(&sb, "%s = { owner = %d, armies = %d }\n", m.Territories[i].Name, o, a)
	}
	pos, err := sim.ParsePosition("grid", []byte(sb.String()), m, r)
	require.NoError(t, err)
	return m, r, pos
}

// gridLux returns a Lux of seat 0 loaded with board on testdata/grid.toml
// (mars2006), "owner:armies" per territory in id order.
func gridLux(t *testing.T, board string) *blocks.Lux {
	t.Helper()
	m, r, pos := gridPosition(t, board)
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	x := &blocks.Lux{}
	x.Start(0, nil)
	x.Load(s)
	return x
}

// TestYakoolSplits follows Yakool.attackFromCluster's four conditions.
func TestYakoolSplits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, board string
		want        bool
	}{
		// No positive continent owned.
		{"no continent", "0:1 1:1 1:1 1:1 1:1 1:1 0:1 0:1 1:1", true},
		// South (income 3 + 1 = 4) against North and Middle (3 + 2 + 3 =
		// 8): 4 is not below 8 / 2 seats, not above 8, and 3 armies do not
		// exceed 6.
		{"held back", "1:1 1:1 1:1 1:1 1:1 1:1 0:1 0:1 0:1", false},
		// The same with 7 armies: more than all enemies' 6.
		{"outnumbers", "1:1 1:1 1:1 1:1 1:1 1:1 0:5 0:1 0:1", true},
		// North and f (3 + 2 = 5) against d, e and South (3 + 1 = 4):
		// above the highest enemy income.
		{"highest income", "0:1 0:1 0:1 1:1 1:1 0:1 1:1 1:1 1:1", true},
	} {
		assert.Equal(t, tc.want, yakoolSplits(gridLux(t, tc.board)), tc.name)
	}
}

// TestYakoolDeadIncome: Yakool.attackFromCluster's average enemy income
// sums getPlayerIncome over the enemies, a dead seat's included, and
// divides by every seat. On the classic map under mars2006, seat 0 holds
// Australia and the first territory of North America, Europe and Asia
// (7 territories: 3 + 2 = 5), seat 1 the other 35 with South America and
// Africa (ceil(35 / 3) + 2 + 3 = 17), seat 2 is dead; one army each.
// Seat 0 owns a continent, is not above seat 1's 17 and does not
// outnumber it, so only the average decides: with a dead seat's income 0
// (dead_income = zero) it is 17 / 3 = 5, and 5 is not below it; with the
// income formula's 3 (formula) it is 20 / 3 = 6, and Yakool splits up.
func TestYakoolDeadIncome(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules("mars2006")
	require.NoError(t, err)
	first := map[string]bool{"North America": true, "Europe": true, "Asia": true}
	var sb strings.Builder
	sb.WriteString("players = 2\nhands = [[], []]\nround = 3\ncurrent = 0\nphase = \"attack\"\n[territories]\n")
	for _, tr := range m.Territories {
		cont := m.Continents[tr.Continent].Name
		owner := 1
		if cont == "Australia" || first[cont] {
			owner = 0
			delete(first, cont)
		}
		fmt.Fprintf(&sb, "%q = { owner = %d, armies = 1 }\n", tr.Name, owner)
	}
	pos, err := sim.ParsePosition("yakool-dead", []byte(sb.String()), m, r)
	require.NoError(t, err)
	pos.Players = 3
	pos.Hands = append(pos.Hands, nil)
	pos.Eliminated = []int{2}
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	require.Equal(t, []int{5, 17, 3}, []int{s.Income(0), s.Income(1), s.Income(2)})
	for _, formula := range []bool{false, true} {
		x := &blocks.Lux{DeadIncome: formula}
		x.Start(0, nil)
		x.Load(s)
		assert.Equal(t, formula, yakoolSplits(x), "dead_income formula %v", formula)
	}
}
