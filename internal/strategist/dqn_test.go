package strategist

import (
	"github.com/marslab-risk/marslab/learn"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// banditBatch returns one-step episodes whose reward is +1 when the action
// matches whether obs[0] > 0.5, else -1.
func banditBatch(rng *rand.Rand, actor Actor, n int) []Episode {
	out := make([]Episode, n)
	for i := range out {
		x := rng.Float64()
		obs := []float64{x, 1 - x}
		a := actor.Act(obs, rng)
		r := -1.0
		if (a == 1) == (x > 0.5) {
			r = 1
		}
		out[i] = Episode{Dim: 2, Obs: obs, Actions: []int{a}, Outcome: learn.Outcome{Final: r, PerTurn: 0}}
	}
	return out
}

func TestDQNLearnsBandit(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{"boltzmann", "epsilon"} {
		cfg := defaultDQNConfig()
		cfg.Policy, cfg.TrainEvery, cfg.RewardScale, cfg.Temperature, cfg.Epsilon = policy, 1, 1, 0.2, 0.2
		cfg.Hidden = []int{8}
		cfg.LearningRate = 0.01
		d, err := newDQN(cfg, 2, 2)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(1, 2))
		for range 40 {
			d.Learn(banditBatch(rng, d.NewActor(), 50))
		}
		assert.Greater(t, d.Steps(), 1900)
		g := d.NewActor()
		right := 0
		for i := range 100 {
			x := (float64(i) + 0.5) / 100
			if (g.Act([]float64{x, 1 - x}, nil) == 1) == (x > 0.5) {
				right++
			}
		}
		assert.GreaterOrEqual(t, right, 90, policy)
		q := d.q([]float64{0.9, 0.1})
		assert.InDelta(t, 1, q[1], 0.3, policy)
		// The wrong action, rarely tried there, is only known to be worse.
		assert.Less(t, q[0], 0.0, policy)
	}
}

func TestDQNDeterministicAndConfig(t *testing.T) {
	t.Parallel()
	cfg := defaultDQNConfig()
	cfg.Seed = 4
	run := func() []float64 {
		d, err := newDQN(cfg, 2, 2)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(7, 7))
		for range 5 {
			d.Learn(banditBatch(rng, d.NewActor(), 100))
		}
		return d.q([]float64{0.3, 0.7})
	}
	require.Equal(t, run(), run())
	for _, mod := range []func(*DQNConfig){
		func(c *DQNConfig) { c.Hidden = nil },
		func(c *DQNConfig) { c.Hidden = []int{0} },
		func(c *DQNConfig) { c.LearningRate = 0 },
		func(c *DQNConfig) { c.Gamma = 1.1 },
		func(c *DQNConfig) { c.BatchSize = 0 },
		func(c *DQNConfig) { c.Replay = 3 },
		func(c *DQNConfig) { c.TrainEvery = 0 },
		func(c *DQNConfig) { c.Policy = "greedy" },
		func(c *DQNConfig) { c.Temperature = 0 },
		func(c *DQNConfig) { c.RewardScale = 0 },
	} {
		c := defaultDQNConfig()
		mod(&c)
		_, err := newDQN(c, 2, 2)
		assert.Error(t, err, "%+v", c)
	}
}
