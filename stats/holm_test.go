package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHolm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p, want []float64
	}{
		// Sorted: 0.005·4, 0.01·3, 0.03·2, 0.04·1 → running max.
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.5, 0.6}, []float64{1, 1}},
		{[]float64{0.02}, []float64{0.02}},
		{[]float64{0.01, 0.01, 0.2}, []float64{0.03, 0.03, 0.2}},
		{nil, []float64{}},
	} {
		got, err := Holm(tc.p)
		require.NoError(t, err)
		assert.InDeltaSlice(t, tc.want, got, 1e-15, "Holm(%v)", tc.p)
	}
	_, err := Holm([]float64{0.1, math.NaN()})
	assert.EqualError(t, err, "stats: Holm: p[1] = NaN outside [0, 1]")
	_, err = Holm([]float64{1.5})
	assert.EqualError(t, err, "stats: Holm: p[0] = 1.5 outside [0, 1]")
}
