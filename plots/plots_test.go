package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGridValidate(t *testing.T) {
	tests := []struct {
		name string
		g    Grid
		err  string
	}{
		{"ok", Grid{X: []float64{1, 2, 3}, Y: []float64{10, 20}, Z: []float64{1, 2, 3, 4, 5, math.NaN()}}, ""},
		{"empty", Grid{X: nil, Y: []float64{1}}, "grid of 0 columns and 1 rows"},
		{"short", Grid{X: []float64{1, 2}, Y: []float64{1, 2}, Z: []float64{1, 2, 3}}, "grid has 3 values, want 2 columns x 2 rows = 4"},
		{"unsorted", Grid{X: []float64{1, 3, 2}, Y: []float64{1}, Z: []float64{1, 2, 3}}, "grid X is not strictly increasing at 2 (2 after 3)"},
		{"repeated", Grid{X: []float64{1}, Y: []float64{4, 4}, Z: []float64{1, 2}}, "grid Y is not strictly increasing at 1"},
		{"nan axis", Grid{X: []float64{math.NaN()}, Y: []float64{1}, Z: []float64{1}}, "grid X[0] = NaN is not finite"},
		{"inf value", Grid{X: []float64{1, 2}, Y: []float64{1, 2}, Z: []float64{1, 2, math.Inf(1), 0}}, "Z[2] (column 0, row 1) is infinite"},
	}
	for _, tt := range tests {
		err := tt.g.Validate()
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestNewGridAndRange(t *testing.T) {
	g := NewGrid([]float64{1, 2, 3}, []float64{10, 20}, func(x, y float64) float64 { return x*y - 25 })
	want := []float64{-15, -5, 5, -5, 15, 35}
	for i, z := range want {
		if g.Z[i] != z {
			t.Fatalf("Z = %v, want %v", g.Z, want)
		}
	}
	if lo, hi := g.Range(); lo != -15 || hi != 35 {
		t.Errorf("Range = %v, %v; want -15, 35", lo, hi)
	}
	g.Z[0], g.Z[5] = math.NaN(), math.NaN()
	if lo, hi := g.Range(); lo != -5 || hi != 15 {
		t.Errorf("Range ignoring NaN = %v, %v; want -5, 15", lo, hi)
	}
	all := Grid{X: []float64{0}, Y: []float64{0}, Z: []float64{math.NaN()}}
	if lo, hi := all.Range(); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Range of all-NaN grid = %v, %v", lo, hi)
	}
	h := HeatMap{Grid: all}
	if err := h.Write(&bytes.Buffer{}, "svg"); err == nil || !strings.Contains(err.Error(), "all NaN") {
		t.Errorf("all-NaN heat map: %v", err)
	}
}

func TestHeatMapValidate(t *testing.T) {
	g := NewGrid([]float64{1, 2}, []float64{1, 2}, func(x, y float64) float64 { return x / y })
	tests := []struct {
		h   HeatMap
		err string
	}{
		{HeatMap{Grid: g, Palette: "rainbow"}, `unknown palette "rainbow" (known: black-body, blue-red,`},
		{HeatMap{Grid: g, Min: 1, Max: 0}, "colour range Min 1 above Max 0"},
		{HeatMap{Grid: g, Max: math.Inf(1)}, "is not finite"},
		{HeatMap{Grid: Grid{X: []float64{1}, Y: []float64{1, 2}, Z: []float64{0, 1}}, Contours: []float64{0.5}}, "contours need at least 2 x 2 grid points, have 1 x 2"},
		{HeatMap{Grid: g, Contours: []float64{math.NaN()}}, "contour level 0 is NaN"},
		{HeatMap{Grid: g, Width: -1}, "negative figure size"},
	}
	for _, tt := range tests {
		err := tt.h.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("error %v, want %q", err, tt.err)
		}
	}
	if err := (&HeatMap{Grid: g, Palette: "kindlmann", Contours: []float64{1}}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestHeatMapSave(t *testing.T) {
	dir := t.TempDir()
	n := 20
	axis := make([]float64, n)
	for i := range axis {
		axis[i] = float64(i + 1)
	}
	h := HeatMap{
		Grid:       NewGrid(axis, axis, func(x, y float64) float64 { return y / (x + y) }),
		Title:      "test",
		XLabel:     "x",
		YLabel:     "y",
		ColorLabel: "y / (x+y)",
		Min:        0,
		Max:        1,
		Contours:   []float64{0.5},
	}
	for _, ext := range []string{"png", "svg", "pdf"} {
		path := filepath.Join(dir, "h."+ext)
		if err := h.Save(path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 5000 {
			t.Errorf("%s: only %d bytes", ext, len(data))
		}
		magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}[ext]
		if !bytes.HasPrefix(data, []byte(magic)) {
			t.Errorf("%s: starts with %q", ext, data[:8])
		}
	}
	err := h.Save(filepath.Join(dir, "h.gif"))
	if err == nil || !strings.Contains(err.Error(), `unsupported figure format "gif"`) {
		t.Errorf("gif: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "h.gif")); err == nil {
		t.Error("a file was created for an unsupported format")
	}
}

// TestSaveFailureWritesNothing checks that a figure that cannot be drawn
// neither creates its file nor overwrites an existing one.
func TestSaveFailureWritesNothing(t *testing.T) {
	g := NewGrid([]float64{1, 2}, []float64{1, 2}, func(x, y float64) float64 { return x + y })
	allNaN := Grid{X: []float64{1}, Y: []float64{1}, Z: []float64{math.NaN()}}
	tests := []struct {
		name string
		save func(path string) error
		ext  string
		err  string
	}{
		{"heat map, unknown palette", (&HeatMap{Grid: g, Palette: "rainbow"}).Save, "png", `unknown palette "rainbow"`},
		{"heat map, bad grid", (&HeatMap{Grid: Grid{X: []float64{2, 1}, Y: []float64{1}, Z: []float64{0, 0}}}).Save, "svg", "not strictly increasing"},
		{"heat map, all NaN", (&HeatMap{Grid: allNaN}).Save, "pdf", "all NaN"},
		{"heat map, unknown format", (&HeatMap{Grid: g}).Save, "gif", `unsupported figure format "gif"`},
		{"line chart, no series", (&LineChart{Title: "t"}).Save, "png", "has no series"},
		{"line chart, unknown format", (&LineChart{Series: []Series{{X: []float64{1}, Y: []float64{1}}}}).Save, "jpg", "unsupported figure format"},
		{"bar chart, short group", (&BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Values: []float64{1}}}}).Save, "svg", "1 values for 2 categories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fresh := filepath.Join(dir, "fresh."+tt.ext)
			err := tt.save(fresh)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
			if _, err := os.Stat(fresh); !os.IsNotExist(err) {
				t.Errorf("a failed figure created %s (stat: %v)", fresh, err)
			}
			old := filepath.Join(dir, "old."+tt.ext)
			if err := os.WriteFile(old, []byte("an earlier figure"), 0o666); err != nil {
				t.Fatal(err)
			}
			if err := tt.save(old); err == nil {
				t.Fatal("no error")
			}
			if data, err := os.ReadFile(old); err != nil || string(data) != "an earlier figure" {
				t.Errorf("a failed figure changed %s to %q (%v)", old, data, err)
			}
		})
	}
	// A directory that does not exist: the error names the path.
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "h.png")
	if err := (&HeatMap{Grid: g}).Save(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("save into a missing directory: %v", err)
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0.5, 30.5, []string{"5", "10", "15", "20", "25", "30"}},
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{0.5, 3.5, []string{"0.5", "1", "1.5", "2", "2.5", "3", "3.5"}},
		{2, 2, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(tt.lo, tt.hi) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("Ticks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func FuzzGridValidate(f *testing.F) {
	f.Add(2, 3, 0.0, 1.0, 0.5)
	f.Add(1, 1, math.Inf(1), 1.0, math.NaN())
	f.Add(0, 4, 0.0, -1.0, 0.0)
	f.Fuzz(func(t *testing.T, nx, ny int, x0, dx, z float64) {
		if nx < 0 || ny < 0 || nx > 20 || ny > 20 {
			t.Skip()
		}
		x := make([]float64, nx)
		for i := range x {
			x[i] = x0 + float64(i)*dx
		}
		y := make([]float64, ny)
		for i := range y {
			y[i] = float64(i)
		}
		g := NewGrid(x, y, func(a, b float64) float64 { return z * (a + b) })
		if err := g.Validate(); err != nil {
			return
		}
		// A valid grid has increasing finite axes and no infinite value.
		for i := 1; i < len(g.X); i++ {
			if !(g.X[i] > g.X[i-1]) {
				t.Fatalf("accepted X %v", g.X)
			}
		}
		lo, hi := g.Range()
		if !math.IsNaN(lo) && (math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi) {
			t.Fatalf("Range %v %v", lo, hi)
		}
	})
}
