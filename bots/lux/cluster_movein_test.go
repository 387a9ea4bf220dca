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

// moveInRecorder wraps a Cluster and checks each move-in against the
// memory the block that ordered the attack left (SmartAgentBase's
// memoryMoveArmiesInTest), counting them.
type moveInRecorder struct {
	*cluster
	t                 *testing.T
	all, min, num, no int
}

func (r *moveInRecorder) Occupy(s *sim.State, from, to, lo, hi int) int {
	m := s.Map()
	obvious := len(m.Territories[from].Neighbors) == 1 || len(m.Territories[to].Neighbors) == 1
	mem := r.Memory
	// The engine asks while to still shows its defender with 0 armies.
	assert.NotEqual(r.t, r.Seat, s.Owner(to))
	assert.Zero(r.t, s.Armies(to))
	k := r.cluster.Occupy(s, from, to, lo, hi)
	switch {
	case obvious:
	case mem == blocks.MoveAll:
		r.all++
		assert.Equal(r.t, hi, k, "easy expand, consolidate or kill path: everything")
	case mem == blocks.MoveMin:
		r.min++
		assert.Equal(r.t, lo, k, "fill out or Boscoe's card: the minimum")
	case mem != blocks.MoveUnset:
		r.num++
		assert.Equal(r.t, min(max(mem, lo), hi), k, "split up or Bort's card: the number, clamped")
	default:
		r.no++
		assert.Equal(r.t, lo, k, "no memory: the minimum")
	}
	return k
}

// TestClusterFamilyMoveIns plays games of the Cluster family with the real
// engine and checks every move-in against the memory of the block that
// ordered the conquest: after easy expand, consolidate and the kill path
// everything moves in, after fill out the minimum, after split up the
// share. Each bot moves everything in after some conquest.
func TestClusterFamilyMoveIns(t *testing.T) {
	games := 12
	if testing.Short() || simtest.RaceEnabled {
		games = 4
	}
	g, _, _ := simtest.NewGame(t, "mars2006", 6)
	recs := make([]*moveInRecorder, 6)
	players := make([]sim.Player, 6)
	for i := range recs {
		recs[i] = &moveInRecorder{cluster: familyBot(i % 4), t: t}
		players[i] = recs[i]
	}
	for i := range games {
		_, err := g.Play(players, 5, uint64(i))
		require.NoError(t, err)
	}
	for i, r := range recs {
		assert.NotZero(t, r.all, "seat %d: no move-in of everything", i)
		t.Logf("seat %d: memory all %d, min %d, number %d, none %d", i, r.all, r.min, r.num, r.no)
	}
}

// familyBot returns a new bot of the Cluster family on blocks.Lux.
func familyBot(i int) *cluster {
	switch i {
	case 1:
		return newYakool()
	case 2:
		return newBoscoe()
	case 3:
		return newBort()
	}
	return newLuxCluster()
}

// gridLux returns a Lux of seat 0 loaded with board on testdata/grid.toml
// (mars2006), "owner:armies" per territory in id order.
func gridLux(t *testing.T, board string) *blocks.Lux {
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
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	x := &blocks.Lux{}
	x.Start(0, nil)
	x.Load(s)
	return x
}

// TestYakoolSplits follows Yakool.attackFromCluster's four conditions.
func TestYakoolSplits(t *testing.T) {
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
