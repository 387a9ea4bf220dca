package dice

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExactCancel: the exact computations stop with the context's error.
// The ones below take seconds (the 300 × 300 battle and table, the sizes
// odds -exact allows) or far longer (the chain of 100 territories) to
// finish; stopped 50 ms in, each must return well within the bound (which
// only guards against not stopping).
func TestExactCancel(t *testing.T) {
	long := make([]int, 100)
	for i := range long {
		long[i] = 300
	}
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"ChainExact", func(ctx context.Context) error {
			_, err := ChainExact(ctx, Classic, 300, long)
			return err
		}},
		{"BattleStopExact", func(ctx context.Context) error {
			_, err := BattleStopExact(ctx, Classic, 300, 300, 0)
			return err
		}},
		{"NewTableExact", func(ctx context.Context) error {
			_, err := NewTableExact(ctx, Classic, 300)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := tc.run(ctx)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.ErrorContains(t, err, "dice: exact computation stopped")
			assert.Less(t, time.Since(start), 5*time.Second)

			ctx, cancel = context.WithCancel(context.Background())
			cancel()
			assert.ErrorIs(t, tc.run(ctx), context.Canceled)
		})
	}
}

// TestExactContextSame: with a live context the results are those of the
// functions without one.
func TestExactContextSame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, err := BattleStopExact(ctx, Classic, 7, 6, 2)
	require.NoError(t, err)
	want, err := BattleStopExact(context.Background(), Classic, 7, 6, 2)
	require.NoError(t, err)
	assert.Equal(t, want.Win.RatString(), b.Win.RatString())
	assert.Equal(t, len(want.Outcomes), len(b.Outcomes))

	c, err := ChainExact(ctx, Classic, 8, []int{3, 2, 1})
	require.NoError(t, err)
	f, err := Chain(Classic, 8, []int{3, 2, 1})
	require.NoError(t, err)
	win, _ := c.Win.Float64()
	assert.InDelta(t, f.Win, win, 1e-14)

	tab, err := NewTableExact(ctx, Classic, 12)
	require.NoError(t, err)
	ft, err := NewTable(Classic, 12)
	require.NoError(t, err)
	w, _ := tab.Win(12, 9).Float64()
	assert.InDelta(t, ft.Win(12, 9), w, 1e-14)
}
