package mars

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStopNoteLoss checks the loss counts of stop_stats: a decision
// counts in armies only where an army costs at least stopMinPrice of the
// path's value, and always in path values.
func TestStopNoteLoss(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		price, loss, path    float64
		priced, micro, goalP int64
	}{
		{"an army a tenth of the path", 2, 0.5, 20, 1, 250000, 25000},
		{"at the least price", 0.02, 0.5, 20, 1, 25000000, 25000},
		{"an army nearly free", 1e-9, 0.5, 20, 0, 0, 25000},
		{"no price", 0, 0.5, 20, 0, 0, 25000},
		{"no path value", 2, 0.5, 0, 1, 250000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := stopState{price: tc.price}
			s.noteLoss(tc.loss, tc.path)
			assert.Equal(t, tc.priced, s.priced)
			assert.Equal(t, tc.micro, s.lossMicro)
			assert.Equal(t, tc.goalP, s.lossGoalPPM)
		})
	}
}
