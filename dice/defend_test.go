package dice

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compositions calls f with every allocation of n armies over k
// territories, at least one each.
func compositions(n, k int, f func([]int)) {
	alloc := make([]int, k)
	var rec func(i, rest int)
	rec = func(i, rest int) {
		if i == k-1 {
			alloc[i] = rest
			f(alloc)
			return
		}
		for d := 1; d <= rest-(k-1-i); d++ {
			alloc[i] = d
			rec(i+1, rest-d)
		}
	}
	rec(0, n)
}

// TestDefendMatchesEnumeration checks the branch and bound against every
// allocation, evaluated independently with Chainer.Win.
func TestDefendMatchesEnumeration(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct{ a, armies, k int }{
		{5, 4, 2}, {8, 6, 3}, {10, 8, 3}, {12, 10, 4}, {15, 9, 5}, {20, 12, 3}, {6, 6, 6},
	} {
		c := NewChainer(Classic, tt.a)
		best, worst, count := math.Inf(1), math.Inf(-1), 0
		compositions(tt.armies, tt.k, func(al []int) {
			w := c.Win(tt.a, al)
			best, worst = min(best, w), max(worst, w)
			count++
		})
		bb, err := Defend(ctx, Classic, tt.a, tt.armies, tt.k, false)
		require.NoError(t, err)
		ex, err := Defend(ctx, Classic, tt.a, tt.armies, tt.k, true)
		require.NoError(t, err)
		assert.InDelta(t, best, bb.Win, 1e-13, "%+v", tt)
		assert.InDelta(t, best, ex.Win, 1e-13, "%+v", tt)
		assert.InDelta(t, c.Win(tt.a, bb.Alloc), bb.Win, 1e-13, "the allocation has the reported chance")
		sum := 0
		for _, d := range bb.Alloc {
			assert.GreaterOrEqual(t, d, 1)
			sum += d
		}
		assert.Equal(t, tt.armies, sum)
		assert.Equal(t, float64(count), ex.Allocations)
		assert.Equal(t, count, ex.Leaves, "exhaustive evaluates every allocation")
		assert.LessOrEqual(t, bb.Leaves, count)
		assert.LessOrEqual(t, bb.Adaptive, bb.Win+1e-15, "the bound is admissible")
		if count > 1 {
			assert.Less(t, best, worst)
		}
	}
	// One territory: everything in it.
	d, err := Defend(ctx, Classic, 7, 5, 1, false)
	require.NoError(t, err)
	tab, err := NewTable(Classic, 7)
	require.NoError(t, err)
	assert.Equal(t, []int{5}, d.Alloc)
	assert.InDelta(t, tab.Win(7, 5), d.Win, 1e-15)
	assert.InDelta(t, d.Win, d.Adaptive, 1e-15)
}

func TestDefendErrors(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		a, armies, k int
		msg          string
	}{
		{-1, 3, 1, "attacking armies -1"},
		{5, 2, 3, "defending armies 2 outside [3, 200]"},
		{5, 3, 0, "territories 0 outside [1, 20]"},
		{201, 3, 1, "attacking armies 201"},
	} {
		_, err := Defend(ctx, Classic, tt.a, tt.armies, tt.k, false)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.msg)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := Defend(cctx, Classic, 30, 40, 8, true)
	assert.ErrorIs(t, err, context.Canceled)
}

// FuzzDefend checks the branch and bound against every allocation on
// arbitrary small problems.
func FuzzDefend(f *testing.F) {
	f.Add(uint8(10), uint8(7), uint8(3))
	f.Add(uint8(3), uint8(9), uint8(2))
	f.Fuzz(func(t *testing.T, a, armies, k uint8) {
		kk := int(k%4) + 1
		n := kk + int(armies%8)
		aa := int(a % 16)
		d, err := Defend(context.Background(), Classic, aa, n, kk, false)
		require.NoError(t, err)
		c := NewChainer(Classic, aa)
		best := math.Inf(1)
		compositions(n, kk, func(al []int) { best = min(best, c.Win(aa, al)) })
		assert.InDelta(t, best, d.Win, 1e-12)
		assert.LessOrEqual(t, d.Adaptive, d.Win+1e-12)
	})
}
