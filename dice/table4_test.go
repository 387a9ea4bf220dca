package dice_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/dice"
)

func TestCompareTable4(t *testing.T) {
	t.Parallel()
	rolls, err := dice.CompareTable4(dice.Classic)
	require.NoError(t, err)
	require.Len(t, rolls, 6)
	for _, rv := range rolls {
		require.Len(t, rv.Paper, rv.Odds.Pairs()+1, "%dv%d", rv.AttackerDice, rv.DefenderDice)
		for j, pct := range rv.Paper {
			// Every printed entry is the exact value rounded to a whole percent.
			assert.Equal(t, pct, int(math.Round(100*rv.Odds.P(j))), "%dv%d, defender loses %d", rv.AttackerDice, rv.DefenderDice, j)
		}
	}
	assert.Equal(t, []int{29, 34, 37}, rolls[5].Paper, "3v2: defender wins, one each, attacker wins")

	other := dice.Classic
	other.TiesToAttacker = true
	rolls, err = dice.CompareTable4(other)
	require.NoError(t, err)
	for _, rv := range rolls {
		assert.Nil(t, rv.Paper, "Table 4 is for the classic rules only")
	}
}
