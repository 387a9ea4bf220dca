package lux_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
)

// clusterSeats seats the whole Cluster family.
const clusterSeats = "cluster,shaft,quo,yakool,boscoe,bort"

// TestClusterFamilyGames plays the Cluster family against each other under
// every embedded rule set, checks every event with the sim/simtest ledger and
// requires no fault, and that every bot attacks and conquers (counted over
// the rule sets: Shaft attacks rarely).
func TestClusterFamilyGames(t *testing.T) {
	t.Parallel()
	games := 20
	if testing.Short() || race.Enabled {
		games = 8
	}
	for _, spec := range []string{clusterSeats, "vulture,cluster,aggressive,vulture"} {
		familyGames(t, spec, games)
	}
}

// familyGames plays games of the seats spec under every embedded rule set
// (see TestClusterFamilyGames).
func familyGames(t *testing.T, spec string, games int) {
	seats, err := registry.Default().ParseSeats(spec, nil)
	require.NoError(t, err)
	// counts[p][k]: events of kind k by seat p, over every rule set.
	counts := make([][sim.NumEventKinds]int, len(seats))
	for _, rn := range []string{"classic", "mars2006", "fixedcards", "missions"} {
		t.Run(spec+"/"+rn, func(t *testing.T) {
			c, faults := bottest.Play(t, seats, rn, 11, games)
			assert.Equal(t, make([]int, len(seats)), faults)
			for p := range c {
				for k := range c[p] {
					counts[p][k] += c[p][k]
				}
			}
		})
	}
	for p := range seats {
		for _, k := range []sim.EventKind{sim.EvAttackOrder, sim.EvOccupation} {
			assert.NotZero(t, counts[p][k], "%s: seat %d %s: %s", spec, p, seats[p].Label, fmt.Sprint(k))
		}
	}
}

// BenchmarkLuxGame plays six-player games of the Cluster family.
func BenchmarkLuxGame(b *testing.B) {
	tab, err := registry.Default().NewTable(clusterSeats, "classic")
	require.NoError(b, err)
	bottest.BenchGames(b, tab.Play)
}
