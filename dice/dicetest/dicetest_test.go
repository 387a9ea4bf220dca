package dicetest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/sim"
)

// tiesToAttacker is a wrong roller: it gives ties to the attacker whatever
// the rules say.
func tiesToAttacker(rng *rand.Rand, na, nd int, _ bool, att *[3]uint8, def *[2]uint8) (int, int) {
	return sim.RollDice(rng, na, nd, true, att, def)
}

func TestSuiteAgrees(t *testing.T) {
	t.Parallel()
	c := Config{Rules: dice.Classic, Trials: 20000, Seed: 7}
	tests, err := Suite(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, tests, 6+len(suiteBattles))
	assert.Zero(t, Failed(tests, 1e-4))
	names := []string{"roll 1v1", "roll 2v1", "roll 3v1", "roll 1v2", "roll 2v2", "roll 3v2",
		"battle 1 vs 1", "battle 3 vs 2", "battle 5 vs 5", "battle 10 vs 10", "battle 15 vs 8"}
	tab, err := dice.NewTable(dice.Classic, 20)
	require.NoError(t, err)
	for i, tt := range tests {
		assert.Equal(t, names[i], tt.Name)
		total := 0
		for _, o := range tt.Observed {
			total += o
		}
		assert.Equal(t, c.Trials, total, tt.Name)
		if i < 6 {
			assert.Equal(t, len(tt.Observed)-1, tt.DF, tt.Name)
			continue
		}
		b := suiteBattles[i-6]
		assert.InDelta(t, float64(c.Trials)*tab.Win(b[0], b[1]), tt.Expected[0], 1e-9, tt.Name)
	}
	// Same config, same counts.
	again, err := Suite(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, tests, again)
	// Another seed, other counts.
	c.Seed = 8
	other, err := Suite(context.Background(), c)
	require.NoError(t, err)
	assert.NotEqual(t, tests[0].Observed, other[0].Observed)
}

func TestSuiteRejectsWrongDice(t *testing.T) {
	t.Parallel()
	tests, err := Suite(context.Background(), Config{Rules: dice.Classic, Trials: 20000, Seed: 1, Roll: tiesToAttacker})
	require.NoError(t, err)
	// Every test where ties can occur sees the difference.
	assert.GreaterOrEqual(t, Failed(tests, 1e-4), 8)
	// The same roller under the rules it implements agrees.
	ties := dice.Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}
	tests, err = Suite(context.Background(), Config{Rules: ties, Trials: 20000, Seed: 1, Roll: tiesToAttacker})
	require.NoError(t, err)
	assert.Zero(t, Failed(tests, 1e-4))
}

func TestBattleAndChain(t *testing.T) {
	t.Parallel()
	c := Config{Rules: dice.Classic, Trials: 20000, Seed: 3}
	tt, p, err := Battle(context.Background(), c, 8, 5, 2)
	require.NoError(t, err)
	res, err := dice.BattleStop(dice.Classic, 8, 5, 2)
	require.NoError(t, err)
	assert.Equal(t, res.Win, p)
	assert.Equal(t, "battle 8 vs 5 stop 2", tt.Name)
	assert.Equal(t, c.Trials, tt.Observed[0]+tt.Observed[1])
	assert.Greater(t, tt.P, 1e-4)

	tt, p, err = Chain(context.Background(), c, 10, []int{3, 2, 1})
	require.NoError(t, err)
	ch, err := dice.Chain(dice.Classic, 10, []int{3, 2, 1})
	require.NoError(t, err)
	assert.Equal(t, ch.Win, p)
	assert.Equal(t, "chain 10 vs 3,2,1", tt.Name)
	assert.Greater(t, tt.P, 1e-4)

	// The wrong dice are told apart from the rules they claim.
	c.Roll = tiesToAttacker
	tt, _, err = Battle(context.Background(), c, 5, 5, 0)
	require.NoError(t, err)
	assert.Less(t, tt.P, 1e-6)
	tt, _, err = Chain(context.Background(), c, 10, []int{3, 2, 1})
	require.NoError(t, err)
	assert.Less(t, tt.P, 1e-6)
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Rules: dice.Classic, Trials: 9}, "dicetest: trials 9 outside [10, 100000000]"},
		{Config{Rules: dice.Rules{AttackerDice: 3, DefenderDice: 3}, Trials: 100},
			"dicetest: the engine rolls at most 2 defending dice, not 3"},
		{Config{Rules: dice.Rules{AttackerDice: 0, DefenderDice: 2}, Trials: 100}, "dicetest: dice: "},
	} {
		_, err := Suite(context.Background(), tc.c)
		assert.ErrorContains(t, err, tc.want)
		_, _, err = Battle(context.Background(), tc.c, 3, 2, 0)
		assert.ErrorContains(t, err, tc.want)
		_, _, err = Chain(context.Background(), tc.c, 3, []int{2})
		assert.ErrorContains(t, err, tc.want)
	}
	_, _, err := Battle(context.Background(), Config{Rules: dice.Classic, Trials: 100}, -1, 2, 0)
	assert.ErrorContains(t, err, "dicetest: dice: ")
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := Config{Rules: dice.Classic, Trials: MaxTrials}
	_, err := Suite(ctx, c)
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = Battle(ctx, c, 5, 5, 0)
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = Chain(ctx, c, 5, []int{1, 1})
	assert.ErrorIs(t, err, context.Canceled)
}

func BenchmarkBattle(b *testing.B) {
	c := Config{Rules: dice.Classic, Trials: 1000}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Battle(context.Background(), c, 10, 10, 0); err != nil {
			b.Fatal(err)
		}
	}
}
