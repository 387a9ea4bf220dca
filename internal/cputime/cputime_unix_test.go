//go:build unix

package cputime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProcessGrowsWithWork(t *testing.T) {
	d0, ok := Process()
	require.True(t, ok)
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	d1, ok := Process()
	require.True(t, ok)
	assert.NotZero(t, x)
	assert.Greater(t, d1, d0, "50 ms of busy work adds CPU time")
}
