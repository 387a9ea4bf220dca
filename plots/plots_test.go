package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
)

// assertSaved saves a figure with save as dir/name.EXT in each format of
// exts and requires files of at least minSize bytes.
// saveTo returns a function that saves c into its path argument.
func saveTo(c Chart) func(path string) error {
	return func(path string) error { return Save(path, c) }
}

func assertSaved(t *testing.T, save func(path string) error, dir, name string, minSize int, exts ...string) {
	t.Helper()
	for _, ext := range exts {
		path := filepath.Join(dir, name+"."+ext)
		require.NoError(t, save(path))
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, len(data), minSize, path)
	}
}

// assertValidate checks a Validate error against want: none for "",
// otherwise an error containing want.
func assertValidate(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		assert.NoError(t, err)
		return
	}
	assert.ErrorContains(t, err, want)
}

func TestGridValidate(t *testing.T) {
	t.Parallel()
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
		t.Run(tt.name, func(t *testing.T) { assertValidate(t, tt.g.validate(), tt.err) })
	}
}

func TestNewGridAndRange(t *testing.T) {
	t.Parallel()
	g := NewGrid([]float64{1, 2, 3}, []float64{10, 20}, func(x, y float64) float64 { return x*y - 25 })
	require.Equal(t, []float64{-15, -5, 5, -5, 15, 35}, g.Z, "Z is row-major: x varies fastest")

	lo, hi := g.valueRange()
	assert.Equal(t, -15.0, lo)
	assert.Equal(t, 35.0, hi)

	g.Z[0], g.Z[5] = math.NaN(), math.NaN()
	lo, hi = g.valueRange()
	assert.Equal(t, -5.0, lo, "Range ignores NaN")
	assert.Equal(t, 15.0, hi, "Range ignores NaN")

	all := Grid{X: []float64{0}, Y: []float64{0}, Z: []float64{math.NaN()}}
	lo, hi = all.valueRange()
	assert.True(t, math.IsNaN(lo), "Range of an all-NaN grid: lo = %v", lo)
	assert.True(t, math.IsNaN(hi), "Range of an all-NaN grid: hi = %v", hi)
	h := HeatMap{Grid: all}
	assert.ErrorContains(t, h.Write(&bytes.Buffer{}, "svg"), "all NaN")
}

func TestHeatMapValidate(t *testing.T) {
	t.Parallel()
	g := NewGrid([]float64{1, 2}, []float64{1, 2}, func(x, y float64) float64 { return x / y })
	tests := []struct {
		name string
		h    HeatMap
		err  string
	}{
		{"palette", HeatMap{Grid: g, Palette: "rainbow"}, `unknown palette "rainbow" (known: black-body, blue-red,`},
		{"range", HeatMap{Grid: g, Min: 1, Max: 0}, "colour range Min 1 above Max 0"},
		{"infinite max", HeatMap{Grid: g, Max: math.Inf(1)}, "is not finite"},
		{"contour grid", HeatMap{Grid: Grid{X: []float64{1}, Y: []float64{1, 2}, Z: []float64{0, 1}}, Contours: []float64{0.5}}, "contours need at least 2 x 2 grid points, have 1 x 2"},
		{"contour NaN", HeatMap{Grid: g, Contours: []float64{math.NaN()}}, "contour level 0 is NaN"},
		{"size", HeatMap{Grid: g, Width: -1}, "negative figure size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorContains(t, tt.h.validate(), tt.err)
		})
	}
	assert.NoError(t, (&HeatMap{Grid: g, Palette: "kindlmann", Contours: []float64{1}}).validate())
}

func TestHeatMapSave(t *testing.T) {
	t.Parallel()
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
	magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}
	for _, ext := range []string{"png", "svg", "pdf"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(dir, "h."+ext)
			require.NoError(t, Save(path, &h))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(data), 5000, "file size")
			assert.True(t, bytes.HasPrefix(data, []byte(magic[ext])), "%s starts with %q", ext, data[:8])
		})
	}
	assert.ErrorContains(t, Save(filepath.Join(dir, "h.gif"), &h), `unsupported figure format "gif"`)
	assert.NoFileExists(t, filepath.Join(dir, "h.gif"), "a file was created for an unsupported format")
}

// pdfDate matches the creation and modification times a PDF carries.
var pdfDate = regexp.MustCompile(`/(CreationDate|ModDate) \(D:[0-9]{14}\)`)

// TestSaveDeterministic checks that the same figure gives the same bytes
// every time it is drawn: PNG exactly; SVG and PDF exactly apart from the
// creation and modification times a PDF records and the order in which the
// contour lines are drawn (gonum's contour plotter draws them in map order).
// Each figure is drawn three times (twice under the race detector).
func TestSaveDeterministic(t *testing.T) {
	t.Parallel()
	again := 2
	if race.Enabled {
		again = 1
	}
	grid := NewGrid([]float64{1, 2, 3, 4}, []float64{1, 2, 3}, func(x, y float64) float64 { return x - y })
	l := LineChart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{0.5, 0.6}, Lo: []float64{0.4, 0.5}, Hi: []float64{0.6, 0.7}}}}
	b := BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Name: "g", Values: []float64{1, 2}}}}
	tests := []struct {
		name      string
		write     func(w *bytes.Buffer, format string) error
		contoured bool
	}{
		{"heat map", heatWriter(HeatMap{Grid: grid, Title: "x - y"}), false},
		{"heat map with contours", heatWriter(HeatMap{Grid: grid, Title: "x - y", Contours: []float64{-0.5, 0.5, 1.5}}), true},
		{"line chart", func(w *bytes.Buffer, f string) error { return l.Write(w, f) }, false},
		{"bar chart", func(w *bytes.Buffer, f string) error { return b.Write(w, f) }, false},
	}
	for _, tt := range tests {
		for _, ext := range []string{"png", "svg", "pdf"} {
			t.Run(tt.name+"."+ext, func(t *testing.T) {
				var first bytes.Buffer
				require.NoError(t, tt.write(&first, ext))
				require.NotZero(t, first.Len())
				for range again {
					var next bytes.Buffer
					require.NoError(t, tt.write(&next, ext))
					a, b := first.Bytes(), next.Bytes()
					if ext == "pdf" {
						require.Len(t, pdfDate.FindAll(a, -1), 2, "creation and modification dates")
						a = pdfDate.ReplaceAll(a, []byte("/$1 (D:00000000000000)"))
						b = pdfDate.ReplaceAll(b, []byte("/$1 (D:00000000000000)"))
					}
					if tt.contoured && ext != "png" {
						a, b = sortedLines(a), sortedLines(b)
					}
					require.True(t, bytes.Equal(a, b), "two writes differ")
				}
			})
		}
	}
}

// sortedLines returns the lines of data in sorted order.
func sortedLines(data []byte) []byte {
	lines := bytes.Split(data, []byte("\n"))
	slices.SortFunc(lines, bytes.Compare)
	return bytes.Join(lines, []byte("\n"))
}

// TestSaveFailureWritesNothing checks that a figure that cannot be drawn
// neither creates its file nor overwrites an existing one.
func TestSaveFailureWritesNothing(t *testing.T) {
	t.Parallel()
	g := NewGrid([]float64{1, 2}, []float64{1, 2}, func(x, y float64) float64 { return x + y })
	allNaN := Grid{X: []float64{1}, Y: []float64{1}, Z: []float64{math.NaN()}}
	tests := []struct {
		name string
		save func(path string) error
		ext  string
		err  string
	}{
		{"heat map, unknown palette", saveTo(&HeatMap{Grid: g, Palette: "rainbow"}), "png", `unknown palette "rainbow"`},
		{"heat map, bad grid", saveTo(&HeatMap{Grid: Grid{X: []float64{2, 1}, Y: []float64{1}, Z: []float64{0, 0}}}), "svg", "not strictly increasing"},
		{"heat map, all NaN", saveTo(&HeatMap{Grid: allNaN}), "pdf", "all NaN"},
		{"heat map, unknown format", saveTo(&HeatMap{Grid: g}), "gif", `unsupported figure format "gif"`},
		{"line chart, no series", saveTo(&LineChart{Title: "t"}), "png", "has no series"},
		{"line chart, unknown format", saveTo(&LineChart{Series: []Series{{X: []float64{1}, Y: []float64{1}}}}), "jpg", "unsupported figure format"},
		{"bar chart, short group", saveTo(&BarChart{Categories: []string{"a", "b"}, Groups: []BarGroup{{Values: []float64{1}}}}), "svg", "1 values for 2 categories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fresh := filepath.Join(dir, "fresh."+tt.ext)
			assert.ErrorContains(t, tt.save(fresh), tt.err)
			assert.NoFileExists(t, fresh, "a failed figure created its file")

			old := filepath.Join(dir, "old."+tt.ext)
			require.NoError(t, os.WriteFile(old, []byte("an earlier figure"), 0o666))
			require.Error(t, tt.save(old))
			data, err := os.ReadFile(old)
			require.NoError(t, err)
			assert.Equal(t, "an earlier figure", string(data), "a failed figure changed an existing file")
		})
	}
	// A directory that does not exist: the error names the path.
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "h.png")
	assert.ErrorContains(t, Save(missing, &HeatMap{Grid: g}), missing)
}

func TestNiceTicks(t *testing.T) {
	t.Parallel()
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
		assert.Equal(t, tt.want, got, "Ticks(%v, %v)", tt.lo, tt.hi)
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
		if err := g.validate(); err != nil {
			return
		}
		// A valid grid has increasing finite axes and no infinite value.
		for i := 1; i < len(g.X); i++ {
			require.Greater(t, g.X[i], g.X[i-1], "accepted X %v", g.X)
		}
		lo, hi := g.valueRange()
		if !math.IsNaN(lo) {
			require.False(t, math.IsInf(lo, 0) || math.IsInf(hi, 0), "Range %v %v", lo, hi)
			require.LessOrEqual(t, lo, hi, "Range")
		}
	})
}

// heatWriter adapts HeatMap.Write to a bytes.Buffer.
func heatWriter(h HeatMap) func(w *bytes.Buffer, format string) error {
	return func(w *bytes.Buffer, format string) error { return h.Write(w, format) }
}
