package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestVultureTurn plays whole turns of Vulture (Vulture.java) with the
// real engine on testdata/hunt.toml, from the start of the turn (its 3
// armies to place), seat 0 Vulture, seats 1 and 2 passing.
func TestVultureTurn(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, spec string
		seed       uint64
		places     []string
		want       []string // the orders, see playTurn
	}{
		// Seat 2 (e, 2 armies) is the weakest within reach and Vulture's 8
		// armies exceed twice its 2: e is one cluster, a route of its own,
		// reached from n; n + 3 beats e's 2. Vulture places on n, takes e
		// moving everything (the backer's memory, set by the route), then,
		// holding more than seat 1, hogs wild with its own blocks: m takes
		// a, its one enemy, by easy expand, and the backer, whose memory
		// nobody set, moves the minimum in where Vulture's own memory says
		// everything.
		{"a hunt, then hog wild", "m:0:6 n:0:2 a:1:1 b:1:1 c:1:1 d:1:1 e:2:2", 7,
			[]string{"n 3"},
			[]string{"n>e 4 all", "m>a 3 min", "e>d 3 all min", "a>b lost", "d>c lost"}},
		// The hunt over, Vulture does not attack as Cluster: m would take
		// a (easy expand) had it not hunted.
		{"a hunt and nothing else", "m:0:6 n:0:2 a:1:1 b:1:9 c:1:9 d:1:9 e:2:2", 7,
			[]string{"n 3"},
			[]string{"n>e 4 all"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			places, orders := vultureTurn(t, newVulture(), tt.spec, tt.seed)
			assert.Equal(t, tt.places, places)
			assert.Equal(t, tt.want, orders)
		})
	}
	// Cluster, on the board of the second case, places on m and takes a.
	places, orders := vultureTurn(t, newLuxCluster(), "m:0:6 n:0:2 a:1:1 b:1:9 c:1:9 d:1:9 e:2:2", 7)
	assert.Equal(t, []string{"m 3"}, places)
	assert.Equal(t, []string{"m>a 8 all"}, orders)
}

// vultureTurn plays seat 0's turn of p from the start of the turn of spec
// on testdata/hunt.toml (three seats) and returns its placements
// ("territory armies") and orders (see playTurn).
func vultureTurn(t *testing.T, p sim.Player, spec string, seed uint64) (places, orders []string) {
	t.Helper()
	b := newBoard(t, "hunt.toml", 3, "trade", spec, "")
	turn := simtest.PlayTurn(t, p, b.m, b.r, b.pos, seed)
	require.Empty(t, turn.Faults)
	for _, pl := range turn.Places {
		places = append(places, b.names(pl.Territory)+" "+itoa(pl.Armies))
	}
	return places, orderNames(b, turn)
}

// TestVultureAsCluster: with no prey in reach Vulture's turn is its
// backer's, a Cluster's, placement, attacks, move-ins and fortification
// alike.
func TestVultureAsCluster(t *testing.T) {
	t.Parallel()
	const spec = "m:0:6 n:0:2 a:1:1 b:1:9 c:1:9 d:1:9 e:2:9"
	for seed := uint64(1); seed <= 3; seed++ {
		b := newBoard(t, "hunt.toml", 3, "trade", spec, "")
		want := simtest.PlayTurn(t, newLuxCluster(), b.m, b.r, b.pos, seed)
		got := simtest.PlayTurn(t, newVulture(), b.m, b.r, b.pos, seed)
		require.NotEmpty(t, want.Orders)
		assert.Equal(t, want, got, "seed %d", seed)
	}
}
