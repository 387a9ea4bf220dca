package dice_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/dice"
)

// TestPrependMatchesWinAll checks that Prepend, chained from the last
// territory to the first, gives WinAll's values bit for bit.
func TestPrependMatchesWinAll(t *testing.T) {
	t.Parallel()
	for _, r := range []dice.Rules{dice.Classic, {AttackerDice: 3, DefenderDice: 3}, {AttackerDice: 1, DefenderDice: 1}} {
		for _, defs := range [][]int{{0}, {1}, {3, 1}, {2, 0, 5}, {7, 7, 1, 2}, {12}} {
			const amax = 40
			c := dice.NewChainer(r, 8)
			require.NoError(t, c.Err())
			want := c.WinAll(nil, amax, defs)
			v := make([]float64, amax+1)
			for i := range v {
				v[i] = 1
			}
			for k := len(defs) - 1; k >= 0; k-- {
				v = c.Prepend(nil, v, defs[k])
			}
			require.Len(t, v, amax+1)
			for a := range v {
				assert.Equal(t, math.Float64bits(want[a]), math.Float64bits(v[a]), "rules %+v defenders %v a=%d: %v vs %v", r, defs, a, v[a], want[a])
			}
		}
	}
}

func TestPrependBadInput(t *testing.T) {
	t.Parallel()
	c := dice.NewChainer(dice.Classic, 4)
	got := c.Prepend(nil, []float64{1, 1, 1}, -1)
	require.Len(t, got, 3)
	for _, v := range got {
		assert.True(t, math.IsNaN(v))
	}
	assert.Empty(t, c.Prepend(nil, nil, 3))
	// One defender: 1 attacking army rolls one die against one (wins
	// with 15/36); 2 roll two dice (125/216), and on a loss fight on as 1.
	got = c.Prepend(nil, []float64{1, 1, 1}, 1)
	assert.Equal(t, 0.0, got[0])
	assert.InDelta(t, 15.0/36, got[1], 1e-15)
	assert.InDelta(t, 125.0/216+91.0/216*15/36, got[2], 1e-15)
}

// TestPrependFewer checks that the grid of a Prepend gives the odds for
// fewer defenders bit for bit, and that other queries invalidate it.
func TestPrependFewer(t *testing.T) {
	t.Parallel()
	c := dice.NewChainer(dice.Classic, 8)
	rest := c.WinAll(nil, 31, []int{4, 2})
	_, ok := c.PrependFewer(nil, 3)
	assert.False(t, ok, "no Prepend yet")
	c.Prepend(nil, rest, 9)
	assert.Equal(t, 32, c.LastLen())
	for _, d := range []int{0, 1, 5, 9} {
		got, ok := c.PrependFewer(nil, d)
		require.True(t, ok, "d=%d", d)
		want := dice.NewChainer(dice.Classic, 8).Prepend(nil, rest, d)
		require.Len(t, got, len(want))
		for a := range want {
			assert.Equal(t, math.Float64bits(want[a]), math.Float64bits(got[a]), "d=%d a=%d", d, a)
		}
	}
	_, ok = c.PrependFewer(nil, 10)
	assert.False(t, ok, "more defenders than the grid holds")
	c.Win(5, []int{1})
	_, ok = c.PrependFewer(nil, 3)
	assert.False(t, ok, "a Win query came between")
	assert.Equal(t, 0, c.LastLen())
}

// TestPrependSaturated checks the early stop of Prepend on stacks far
// larger than the defenders: the pass stops where the odds settle, and its
// values and PrependFewer's are still WinAll's bit for bit.
func TestPrependSaturated(t *testing.T) {
	t.Parallel()
	for _, r := range []dice.Rules{dice.Classic, {AttackerDice: 3, DefenderDice: 3}, {AttackerDice: 1, DefenderDice: 1}} {
		for _, defs := range [][]int{{3}, {3, 1}, {25, 60}, {93}, {2, 0, 40, 7}} {
			const amax = 3000
			c := dice.NewChainer(r, 8)
			want := c.WinAll(nil, amax, defs)
			v := make([]float64, amax+1)
			for i := range v {
				v[i] = 1
			}
			for k := len(defs) - 1; k >= 0; k-- {
				v = c.Prepend(nil, v, defs[k])
			}
			assert.Less(t, c.LastSat(), amax/2, "rules %+v defenders %v: the pass did not stop early", r, defs)
			for a := range v {
				require.Equal(t, math.Float64bits(want[a]), math.Float64bits(v[a]), "rules %+v defenders %v a=%d", r, defs, a)
			}
			// The grid's repeated rows serve fewer defenders too.
			rest := c.WinAll(nil, amax, defs[1:])
			c.Prepend(nil, rest, defs[0])
			for d := range defs[0] {
				got, ok := c.PrependFewer(nil, d)
				require.True(t, ok)
				fresh := dice.NewChainer(r, 8).WinAll(nil, amax, append([]int{d}, defs[1:]...))
				for a := range fresh {
					require.Equal(t, math.Float64bits(fresh[a]), math.Float64bits(got[a]), "rules %+v defenders %v, first %d: a=%d", r, defs, d, a)
				}
			}
		}
	}
}
