package learn

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// The observation depends on nothing another seat hides: changing the
// cards in another seat's hand (not their number) leaves it unchanged.
func TestObservationHidesOtherHands(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.Features = featureNames()
	r, err := NewRunner(cfg, registry.Default())
	require.NoError(t, err)
	var pos *sim.Position
	var obs []float64
	other := 0
	for idx := uint64(0); pos == nil && idx < 20; idx++ {
		_, err := r.Run(context.Background(), 4, idx, func(o []float64) int {
			if pos == nil {
				p := r.game.Position()
				for q := 1; q < p.Players; q++ {
					if len(p.Hands[q]) > 0 && len(p.Deck) > 0 && p.Hands[q][0] != p.Deck[0] {
						pos, obs, other = p, append([]float64(nil), o...), q
						break
					}
				}
			}
			return 2
		})
		require.NoError(t, err)
	}
	require.NotNil(t, pos, "no decision with another seat holding cards")
	view := func(p *sim.Position) []float64 {
		s, err := sim.NewStateAt(r.s.m, r.s.rules, p, 0)
		require.NoError(t, err)
		return r.obs.observe(s, 0, nil)
	}
	require.Equal(t, obs, view(pos))
	pos.Hands[other][0], pos.Deck[0] = pos.Deck[0], pos.Hands[other][0]
	require.Equal(t, obs, view(pos))
	// The learner's own view does change with the board.
	pos.Armies[0]++
	require.NotEqual(t, obs, view(pos))
}
