package plots

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffMap(t *testing.T) {
	t.Parallel()
	d := &DiffMap{Title: "t", Rows: []string{"a", "b"}, Columns: []string{"x", "y", "z"},
		Values: []float64{0.1, -0.3, 0, math.NaN(), 0.2, -0.05}, Significant: []bool{true, true, false, false, false, true}}
	lo, hi, err := d.colourRange()
	require.NoError(t, err)
	assert.Equal(t, -0.3, lo)
	assert.Equal(t, 0.3, hi)
	d.Limit = 0.5
	lo, hi, err = d.colourRange()
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-0.5, 0.5}, [2]float64{lo, hi})
	var svg bytes.Buffer
	require.NoError(t, d.Write(&svg, "svg"))
	assert.Contains(t, svg.String(), "<svg")
	require.NoError(t, Save(filepath.Join(t.TempDir(), "d.png"), d))
	// Every cell zero: the scale is [-1, 1], not empty.
	z := &DiffMap{Rows: []string{"a"}, Columns: []string{"x"}, Values: []float64{0}}
	lo, hi, err = z.colourRange()
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-1, 1}, [2]float64{lo, hi})

	for _, tc := range []struct {
		d    DiffMap
		want string
	}{
		{DiffMap{}, "no rows or no columns"},
		{DiffMap{Rows: []string{"a"}, Columns: []string{"x"}, Values: []float64{1, 2}}, "2 values for 1 x 1 cells"},
		{DiffMap{Rows: []string{"a"}, Columns: []string{"x"}, Values: []float64{1}, Significant: []bool{true, false}}, "2 significance marks"},
		{DiffMap{Rows: []string{"a"}, Columns: []string{"x"}, Values: []float64{math.Inf(1)}}, "value 0 is infinite"},
		{DiffMap{Rows: []string{"a"}, Columns: []string{"x"}, Values: []float64{1}, Limit: -1}, "limit -1"},
	} {
		assert.ErrorContains(t, tc.d.validate(), tc.want)
	}
}
