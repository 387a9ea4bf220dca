package plots

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStackedBarChartValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    StackedBarChart
		err  string
	}{
		{"ok", StackedBarChart{Categories: []string{"a", "b"}, Layers: []BarGroup{{Name: "1st", Values: []float64{1, 2}}, {Name: "2nd", Values: []float64{0, 3}}}}, ""},
		{"empty", StackedBarChart{Title: "t"}, `stacked bar chart "t" needs categories and layers, has 0 and 0`},
		{"length", StackedBarChart{Categories: []string{"a", "b"}, Layers: []BarGroup{{Name: "x", Values: []float64{1}}}}, `stacked layer 0 ("x") has 1 values for 2 categories`},
		{"negative", StackedBarChart{Categories: []string{"a"}, Layers: []BarGroup{{Name: "x", Values: []float64{-1}}}}, "value 0 (a) is -1, want a finite value >= 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertValidate(t, tt.s.validate(), tt.err) })
	}
}

func TestIntervalBarChartValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		b    IntervalBarChart
		err  string
	}{
		{"ok", IntervalBarChart{Categories: []string{"a", "b"}, Values: []float64{1, 2}, Lo: []float64{0.5, 2}, Hi: []float64{1.5, 3}}, ""},
		{"lengths", IntervalBarChart{Title: "t", Categories: []string{"a"}, Values: []float64{1}, Lo: []float64{0}}, `interval bar chart "t": 1 categories with 1 values, 1 lo and 0 hi`},
		{"outside", IntervalBarChart{Categories: []string{"a"}, Values: []float64{1}, Lo: []float64{1.1}, Hi: []float64{2}}, "interval bar 0 (a): value 1 outside its interval [1.1, 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertValidate(t, tt.b.validate(), tt.err) })
	}
	lo, hi := intervalXY{&tests[0].b}.YError(0)
	assert.InDelta(t, 0.5, lo, 1e-15)
	assert.InDelta(t, 0.5, hi, 1e-15)
}

func TestStackedAndIntervalBarsWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := &StackedBarChart{Title: "placements", Categories: []string{"a", "b", "c"}, YLabel: "games",
		Layers: []BarGroup{{Name: "1st", Values: []float64{3, 1, 0}}, {Name: "2nd", Values: []float64{1, 2, 1}}, {Name: "3rd", Values: []float64{0, 1, 3}}}}
	b := &IntervalBarChart{Title: "win %", Categories: []string{"a", "b", "c"}, YLabel: "%",
		Values: []float64{75, 25, 0}, Lo: []float64{30, 4, 0}, Hi: []float64{95, 70, 49}}
	for _, ext := range []string{"png", "svg"} {
		for name, save := range map[string]func(string) error{"stacked": saveTo(s), "interval": saveTo(b)} {
			path := filepath.Join(dir, name+"."+ext)
			require.NoError(t, save(path))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			if ext == "png" {
				assert.True(t, bytes.HasPrefix(data, []byte("\x89PNG")), "%s is a PNG", path)
			} else {
				assert.Contains(t, string(data), "<svg", "%s is an SVG", path)
				assert.Contains(t, string(data), map[string]string{"stacked": "1st", "interval": "win %"}[name], "%s holds its labels", path)
			}
		}
	}
	// A chart that cannot be drawn leaves no file.
	bad := &IntervalBarChart{Categories: []string{"a"}, Values: []float64{1}, Lo: []float64{2}, Hi: []float64{3}}
	path := filepath.Join(dir, "bad.png")
	assert.Error(t, Save(path, bad))
	assert.NoFileExists(t, path)
}

func ExampleStackedBarChart() {
	c := &StackedBarChart{
		Title: "Placements", YLabel: "games", Categories: []string{"north", "south"},
		Layers: []BarGroup{{Name: "1st", Values: []float64{6, 2}}, {Name: "2nd", Values: []float64{2, 6}}},
	}
	fmt.Println(c.validate())
	c.Layers[1].Values[0] = -1
	fmt.Println(c.validate())
	// Output:
	// <nil>
	// plots: stacked layer 1 ("2nd"): value 0 (north) is -1, want a finite value >= 0
}

func ExampleIntervalBarChart() {
	c := &IntervalBarChart{
		Title: "Win rate", YLabel: "%", Categories: []string{"a", "b"},
		Values: []float64{60, 20}, Lo: []float64{45, 10}, Hi: []float64{73, 34},
	}
	var buf bytes.Buffer
	fmt.Println(c.Write(&buf, "svg"), bytes.Contains(buf.Bytes(), []byte("<svg")))
	// Output:
	// <nil> true
}
