package lux

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// board is a position on a test map that a test changes as the engine
// would, reading the State of seat 0 (sim.NewStateAt) after every change.
type board struct {
	t   testing.TB
	m   *sim.Map
	r   *sim.Rules
	pos *sim.Position
}

// newBoard reads the position of spec on the map in testdata/mapFile under
// the classic rules, seat 0 to move in phase: spec lists every territory
// as name:owner:armies, separated by spaces; extra is more TOML for the
// position (hands, for example).
func newBoard(t testing.TB, mapFile string, players int, phase, spec, extra string) *board {
	t.Helper()
	m, err := sim.LoadMap("testdata/" + mapFile)
	require.NoError(t, err)
	r, err := sim.LoadRules("classic")
	require.NoError(t, err)
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = %d\nround = 3\ncurrent = 0\nphase = %q\n", players, phase)
	if !strings.Contains(extra, "hands") {
		sb.WriteString("hands = [" + strings.Repeat("[], ", players-1) + "[]]\n")
	}
	sb.WriteString(extra + "\n[territories]\n")
	for _, f := range strings.Fields(spec) {
		parts := strings.Split(f, ":")
		require.Len(t, parts, 3, "territory %q: want name:owner:armies", f)
		fmt.Fprintf(&sb, "%s = { owner = %s, armies = %s }\n", parts[0], parts[1], parts[2])
	}
	pos, err := sim.ParsePosition(mapFile+" "+spec, []byte(sb.String()), m, r)
	require.NoError(t, err)
	return &board{t: t, m: m, r: r, pos: pos}
}

// id returns the id of territory name.
func (b *board) id(name string) int {
	b.t.Helper()
	t, ok := b.m.TerritoryID(name)
	require.True(b.t, ok, "no territory %q", name)
	return t
}

// ids returns the ids of the territories named in names, separated by
// spaces.
func (b *board) ids(names string) []int {
	var ts []int
	for _, n := range strings.Fields(names) {
		ts = append(ts, b.id(n))
	}
	return ts
}

// names returns the names of territories ts, separated by spaces.
func (b *board) names(ts ...int) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = b.m.Territories[t].Name
	}
	return strings.Join(s, " ")
}

// state returns seat 0's State of the position as it stands.
func (b *board) state() *sim.State {
	b.t.Helper()
	s, err := sim.NewStateAt(b.m, b.r, b.pos, 0)
	require.NoError(b.t, err)
	return s
}

// outcome applies the result of an attack from from on to: a conquest
// ("win" or "winN", N armies moved in; "win" moves all but one) or a
// repulse ("lose": from keeps one army, to keeps its armies).
func (b *board) outcome(from, to int, result string) {
	b.t.Helper()
	if result == "lose" {
		b.pos.Armies[from] = 1
		return
	}
	moved := b.pos.Armies[from] - 1
	if n := strings.TrimPrefix(result, "win"); n != "" {
		var err error
		moved, err = strconv.Atoi(n)
		require.NoError(b.t, err, "outcome %q", result)
	}
	b.pos.Owner[to] = b.pos.Owner[from]
	b.pos.Armies[to] = moved
	b.pos.Armies[from] -= moved
}
