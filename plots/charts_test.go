package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineChartValidate(t *testing.T) {
	t.Parallel()
	ok := Series{Name: "mars", X: []float64{1, 2, 3}, Y: []float64{0.2, 0.4, 0.3}, Lo: []float64{0.1, 0.3, 0.2}, Hi: []float64{0.3, 0.5, 0.4}}
	tests := []struct {
		name string
		l    LineChart
		err  string
	}{
		{"ok", LineChart{Series: []Series{ok}}, ""},
		{"no series", LineChart{Title: "t"}, `line chart "t" has no series`},
		{"lengths", LineChart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}}, `series 0 ("s"): 2 x values and 1 y values`},
		{"error bars", LineChart{Series: []Series{ok, {X: []float64{1}, Y: []float64{1}, Lo: []float64{0}}}}, "series 1 (\"\"): error bars need Lo and Hi of 1 values each, have 1 and 0"},
		{"infinite", LineChart{Series: []Series{{X: []float64{1}, Y: []float64{math.Inf(1)}}}}, "point 0 (1, +Inf) is not finite"},
		{"outside bar", LineChart{Series: []Series{{X: []float64{1}, Y: []float64{0.5}, Lo: []float64{0.6}, Hi: []float64{0.9}}}}, "y 0.5 outside its error bar [0.6, 0.9]"},
		{"y range", LineChart{Series: []Series{ok}, YMin: 1, YMax: 0}, "y range [1, 0] is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertValidate(t, tt.l.validate(), tt.err) })
	}
	// The error bars are relative to y: 0.2 - 0.1 below, 0.3 - 0.2 above.
	lo, hi := seriesXY{&ok}.YError(0)
	assert.InDelta(t, 0.1, lo, 1e-15, "YError(0) below")
	assert.InDelta(t, 0.1, hi, 1e-15, "YError(0) above")
}

func TestBarChartValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		b    BarChart
		err  string
	}{
		{"ok", BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1, 2}}}}, ""},
		{"no groups", BarChart{Title: "x", Categories: []string{"a"}}, `bar chart "x" needs categories and groups, has 1 and 0`},
		{"short group", BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1}}}}, `bar group 0 ("g") has 1 values for 2 categories`},
		{"NaN", BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Values: []float64{1, math.NaN()}}}}, "value 1 (b) is NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertValidate(t, tt.b.validate(), tt.err) })
	}
}

func TestChartsSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := LineChart{
		Title: "win rate by round", XLabel: "round", YLabel: "win rate", YMin: 0, YMax: 1,
		Series: []Series{
			{Name: "MARS", X: []float64{1, 2, 3, 4}, Y: []float64{0.3, 0.35, 0.4, 0.38}, Lo: []float64{0.25, 0.3, 0.35, 0.33}, Hi: []float64{0.35, 0.4, 0.45, 0.43}},
			{Name: "Bort", X: []float64{1, 2, 3, 4}, Y: []float64{0.2, 0.18, 0.21, 0.2}},
		},
	}
	b := BarChart{
		Title: "wins", YLabel: "games", Categories: []string{"1st", "2nd", "3rd"},
		Groups: []BarGroup{{Name: "MARS", Values: []float64{338, 169, 60}}, {Name: "Bort", Values: []float64{206, 47, 130}}},
	}
	for _, ext := range []string{"png", "svg", "pdf"} {
		for name, save := range map[string]func(string) error{"line": saveTo(&l), "bar": saveTo(&b)} {
			path := filepath.Join(dir, name+"."+ext)
			require.NoError(t, save(path), "%s.%s", name, ext)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(data), 3000, "%s.%s: file size", name, ext)
		}
	}
	var buf bytes.Buffer
	assert.ErrorContains(t, b.Write(&buf, "tiff"), `unsupported figure format "tiff"`)
}

func TestLegendRoom(t *testing.T) {
	tests := []struct {
		name   string
		series []Series
		lo, hi float64
	}{
		{"bands", []Series{
			{Name: "a", X: []float64{10, 20}, Y: []float64{2, 8}, Lo: []float64{-1, 5}, Hi: []float64{5, 11}},
			{Name: "b", X: []float64{10, 20}, Y: []float64{4, 6}},
		}, -1 - 0.6, 11 + 2*1.2},
		{"unnamed", []Series{{X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}}}, 1 - 0.1, 3},
		{"flat", []Series{{Name: "c", X: []float64{1}, Y: []float64{4}}}, 4 - 0.05, 4 + 0.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := legendRoom(tt.series)
			assert.InDelta(t, tt.lo, lo, 1e-12)
			assert.InDelta(t, tt.hi, hi, 1e-12)
		})
	}
}
