package bully

import (
	"testing"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// TestBullyInvariants plays the bully bot with marslab's invariant checker
// under every embedded rule set and seat count: against itself in every
// seat, then against sim.BasePlayer (which never attacks) in every seat
// but one. Every event must keep the game's invariants and the bot must
// make no illegal answer.
func TestBullyInvariants(t *testing.T) {
	newBully := func(int) sim.Player { return &Bully{Margin: 1} }
	t.Run("self-play", func(t *testing.T) {
		simtest.TestPlayer(t, newBully, simtest.Options{Seed: 1})
	})
	t.Run("against a passive field", func(t *testing.T) {
		simtest.TestPlayer(t, newBully, simtest.Options{Seed: 2, Games: 6,
			Opponent: func(int) sim.Player { return &sim.BasePlayer{} }})
	})
}
