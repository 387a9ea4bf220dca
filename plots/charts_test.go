package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLineChartValidate(t *testing.T) {
	ok := Series{Name: "mars", X: []float64{1, 2, 3}, Y: []float64{0.2, 0.4, 0.3}, Lo: []float64{0.1, 0.3, 0.2}, Hi: []float64{0.3, 0.5, 0.4}}
	tests := []struct {
		l   LineChart
		err string
	}{
		{LineChart{Series: []Series{ok}}, ""},
		{LineChart{Title: "t"}, `line chart "t" has no series`},
		{LineChart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}}, `series 0 ("s"): 2 x values and 1 y values`},
		{LineChart{Series: []Series{ok, {X: []float64{1}, Y: []float64{1}, Lo: []float64{0}}}}, "series 1 (\"\"): error bars need Lo and Hi of 1 values each, have 1 and 0"},
		{LineChart{Series: []Series{{X: []float64{1}, Y: []float64{math.Inf(1)}}}}, "point 0 (1, +Inf) is not finite"},
		{LineChart{Series: []Series{{X: []float64{1}, Y: []float64{0.5}, Lo: []float64{0.6}, Hi: []float64{0.9}}}}, "y 0.5 outside its error bar [0.6, 0.9]"},
		{LineChart{Series: []Series{ok}, YMin: 1, YMax: 0}, "y range [1, 0] is empty"},
	}
	for _, tt := range tests {
		err := tt.l.Validate()
		if tt.err == "" {
			if err != nil {
				t.Error(err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("error %v, want %q", err, tt.err)
		}
	}
	// The error bars are relative to y: 0.2 - 0.1 below, 0.3 - 0.2 above.
	lo, hi := seriesXY{&ok}.YError(0)
	if math.Abs(lo-0.1) > 1e-15 || math.Abs(hi-0.1) > 1e-15 {
		t.Errorf("YError(0) = %v, %v; want 0.1, 0.1", lo, hi)
	}
}

func TestBarChartValidate(t *testing.T) {
	tests := []struct {
		b   BarChart
		err string
	}{
		{BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1, 2}}}}, ""},
		{BarChart{Title: "x", Categories: []string{"a"}}, `bar chart "x" needs categories and groups, has 1 and 0`},
		{BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1}}}}, `bar group 0 ("g") has 1 values for 2 categories`},
		{BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Values: []float64{1, math.NaN()}}}}, "value 1 (b) is NaN"},
	}
	for _, tt := range tests {
		err := tt.b.Validate()
		if tt.err == "" {
			if err != nil {
				t.Error(err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("error %v, want %q", err, tt.err)
		}
	}
}

func TestChartsSave(t *testing.T) {
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
		for name, save := range map[string]func(string) error{"line": l.Save, "bar": b.Save} {
			path := filepath.Join(dir, name+"."+ext)
			if err := save(path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) < 3000 {
				t.Errorf("%s.%s: only %d bytes", name, ext, len(data))
			}
		}
	}
	var buf bytes.Buffer
	if err := b.Write(&buf, "tiff"); err == nil || !strings.Contains(err.Error(), `unsupported figure format "tiff"`) {
		t.Errorf("tiff: %v", err)
	}
}
