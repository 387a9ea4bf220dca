package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestOwnedPathsOn: the searches on an owner table answer as those on a
// State of the same position, follow changes to the table, and allocate
// nothing.
func TestOwnedPathsOn(t *testing.T) {
	m, r := classic(t, "classic")
	nt := m.NumTerritories()
	for _, pos := range positions(t, m, r, 6) {
		s, err := sim.NewStateAt(m, r, pos, -1)
		require.NoError(t, err)
		var onState, onTable sim.OwnedPaths
		owner := append([]int(nil), pos.Owner...)
		var want, got, dw, dg []int
		for p := range pos.Players {
			for a := range nt {
				want = onState.Component(s, p, a, want[:0])
				got = onTable.ComponentOn(m, owner, p, a, got[:0])
				assert.Equal(t, want, got, "component of %d for seat %d", a, p)
				dw = onState.Distances(s, p, []int{a}, dw)
				dg = onTable.DistancesOn(m, owner, p, []int{a}, dg)
				assert.Equal(t, dw, dg, "distances from %d for seat %d", a, p)
				for b := range nt {
					assert.Equal(t, onState.Connected(s, p, a, b), onTable.ConnectedOn(m, owner, p, a, b), "%d-%d for seat %d", a, b, p)
				}
			}
		}
		assert.Empty(t, onTable.ComponentOn(m, owner, owner[0], -1, nil))
		assert.Empty(t, onTable.ComponentOn(m, owner, owner[0], nt, nil))
		assert.False(t, onTable.ConnectedOn(m, owner, owner[0], 0, nt))

		// What if seat owner[0] took every territory: all joined, and the
		// steps are the map's.
		p := owner[0]
		for t := range owner {
			owner[t] = p
		}
		assert.Len(t, onTable.ComponentOn(m, owner, p, 0, nil), nt)
		assert.True(t, onTable.ConnectedOn(m, owner, p, 0, nt-1))
		dg = onTable.DistancesOn(m, owner, p, []int{0}, dg)
		assert.Equal(t, 0, dg[0])
		for _, nb := range m.Neighbors(0) {
			assert.Equal(t, 1, dg[nb])
		}

		buf, srcs := make([]int, 0, nt), []int{0, 1}
		allocs := testing.AllocsPerRun(100, func() {
			buf = onTable.ComponentOn(m, owner, p, 0, buf[:0])
			onTable.ConnectedOn(m, owner, p, 0, nt-1)
			dg = onTable.DistancesOn(m, owner, p, srcs, dg)
		})
		assert.Zero(t, allocs)
	}
}

// A bot asks "what if": on its own copy of the owners, conquering Alberta
// joins Alaska to Ontario.
func ExampleOwnedPaths_ConnectedOn() {
	m, _ := sim.LoadMap("classic")
	owner := make([]int, m.NumTerritories())
	for t := range owner {
		owner[t] = 1 // seat 1's, but for the two below
	}
	id := func(name string) int { t, _ := m.TerritoryID(name); return t }
	alaska, alberta, ontario := id("Alaska"), id("Alberta"), id("Ontario")
	owner[alaska], owner[ontario] = 0, 0
	var paths sim.OwnedPaths
	fmt.Println(paths.ConnectedOn(m, owner, 0, alaska, ontario))
	owner[alberta] = 0
	fmt.Println(paths.ConnectedOn(m, owner, 0, alaska, ontario))
	dist := paths.DistancesOn(m, owner, 0, []int{alaska}, nil)
	fmt.Println(dist[alberta], dist[ontario])
	// Output:
	// false
	// true
	// 1 2
}

// TestLegalFortifiesConnected: under FortifyConnected the list is every
// move the engine accepts from a territory with spare armies, by
// increasing From and then increasing To, each carrying the most it may.
func TestLegalFortifiesConnected(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "fixedcards")
	require.Equal(t, sim.FortifyConnected, r.Fortify.Mode)
	nt := m.NumTerritories()
	for _, pos := range positions(t, m, r, 8) {
		for p := range pos.Players {
			s, err := sim.NewStateAt(m, r, pos, p)
			require.NoError(t, err)
			var want []sim.Move
			for a := range nt {
				for b := range nt {
					mv := sim.Move{From: a, To: b, Armies: s.Armies(a) - 1}
					if mv.Armies >= 1 && s.CheckMoves(p, []sim.Move{mv}) == nil {
						want = append(want, mv)
					}
				}
			}
			assert.Equal(t, want, s.LegalFortifies(p, nil), "seat %d", p)
		}
	}
}
