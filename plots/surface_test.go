package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

// hexColour is the opaque colour c as gonum's SVG back end writes it in a
// fill style (each 16-bit channel scaled to 255 and truncated).
func hexColour(c color.Color) string {
	r, g, b, a := c.RGBA()
	k := 255 / float64(a)
	return fmt.Sprintf("fill:#%02X%02X%02X", int(float64(r)*k), int(float64(g)*k), int(float64(b)*k))
}

// narrowingCells returns the cells of a two-level narrowing over [0,1]^2:
// a 4 x 4 level 0 and a 4 x 4 level 1 over [0.25, 0.5]^2, valued by f at
// their centres.
func narrowingCells(f func(x, y float64) float64) []Cell {
	var cells []Cell
	for _, lev := range []struct{ x0, w float64 }{{0, 0.25}, {0.25, 0.0625}} {
		for r := range 4 {
			for c := range 4 {
				x0, y0 := lev.x0+float64(c)*lev.w, lev.x0+float64(r)*lev.w
				cells = append(cells, Cell{x0, x0 + lev.w, y0, y0 + lev.w, f(x0+lev.w/2, y0+lev.w/2)})
			}
		}
	}
	return cells
}

func TestSurfaceValidate(t *testing.T) {
	t.Parallel()
	g := NewGrid([]float64{1, 2}, []float64{1, 2}, func(x, y float64) float64 { return x / y })
	cells := []Cell{{0, 1, 0, 1, 0.5}}
	tests := []struct {
		name string
		s    Surface
		err  string
	}{
		{"none", Surface{}, "neither a Grid nor Cells"},
		{"both", Surface{Grid: g, Cells: cells}, "both a Grid and Cells"},
		{"bad grid", Surface{Grid: Grid{X: []float64{2, 1}, Y: []float64{1}, Z: []float64{0, 0}}}, "not strictly increasing"},
		{"bad cell", Surface{Cells: []Cell{{1, 0, 0, 1, 0}}}, "cell 0 [1, 0] x [0, 1] is not a finite rectangle"},
		{"inf cell", Surface{Cells: []Cell{{0, 1, 0, 1, math.Inf(-1)}}}, "cell 0 value is -Inf"},
		{"log cell", Surface{Cells: cells, LogX: true}, "not positive on a log axis"},
		{"log grid", Surface{Grid: NewGrid([]float64{0, 1}, []float64{1, 2}, func(x, y float64) float64 { return 0 }), LogX: true}, "grid X[0] = 0 is not positive"},
		{"palette", Surface{Cells: cells, Palette: "jet"}, `unknown palette "jet"`},
		{"range", Surface{Cells: cells, Min: 2, Max: 1}, "colour range Min 2 above Max 1"},
		{"contour", Surface{Cells: cells, Contours: []float64{math.NaN()}}, "contour level 0 is NaN"},
		{"window", Surface{Cells: cells, Windows: []Window{{0, 0.5, 0.4, 0, 1}}}, "window 0 [0.5, 0.4]"},
		{"window level", Surface{Cells: cells, Windows: []Window{{-1, 0, 1, 0, 1}}}, "window 0 has level -1"},
		{"best", Surface{Cells: cells, Best: &Mark{X: math.NaN(), Label: "b"}}, `marked point 0 ("b")`},
		{"mark log", Surface{Cells: []Cell{{1, 2, 1, 2, 0}}, LogY: true, Marks: []Mark{{X: 1, Y: -1, Label: "paper"}}}, `marked point 0 ("paper") at (1, -1)`},
		{"raster", Surface{Cells: cells, Raster: 1}, "surface raster 1, want at least 2"},
		{"size", Surface{Cells: cells, Height: -1}, "negative figure size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorContains(t, tt.s.validate(), tt.err)
		})
	}
	assert.NoError(t, (&Surface{Grid: g, LogX: true, LogY: true, Contours: []float64{1}}).validate())
	assert.NoError(t, (&Surface{Cells: cells, Windows: []Window{{1, 0.2, 0.4, 0.2, 0.4}}, Best: &Mark{X: 0.3, Y: 0.3}}).validate())
}

func TestSurfaceColourRange(t *testing.T) {
	t.Parallel()
	cells := narrowingCells(func(x, y float64) float64 { return x + y })
	s := Surface{Cells: cells}
	lo, hi, err := s.colourRange()
	require.NoError(t, err)
	assert.InDelta(t, 0.25, lo, 1e-12, "smallest cell centre sum")
	assert.InDelta(t, 1.75, hi, 1e-12, "largest cell centre sum")

	s.Min, s.Max = 0, 2
	lo, hi, err = s.colourRange()
	require.NoError(t, err)
	assert.Equal(t, [2]float64{0, 2}, [2]float64{lo, hi})

	c := Surface{Cells: []Cell{{0, 1, 0, 1, 0.3}, {0, 1, 1, 2, math.NaN()}}}
	lo, hi, err = c.colourRange()
	require.NoError(t, err)
	assert.Equal(t, [2]float64{-0.2, 0.8}, [2]float64{lo, hi}, "a constant surface is widened by 0.5")

	n := Surface{Cells: []Cell{{0, 1, 0, 1, math.NaN()}}}
	_, _, err = n.colourRange()
	assert.ErrorContains(t, err, "all NaN")
	assert.ErrorContains(t, n.Write(&bytes.Buffer{}, "svg"), "all NaN")
}

// TestSurfaceCells checks the drawing order (coarse cells first, finer on
// top) and the raster the contours are traced on (the finest cell wins).
func TestSurfaceCells(t *testing.T) {
	t.Parallel()
	fine := Cell{0.25, 0.5, 0.25, 0.5, 0.9}
	coarse := Cell{0, 1, 0, 1, 0.1}
	s := Surface{Cells: []Cell{fine, coarse, {1, 2, 0, 1, 0.5}}, Raster: 8}
	rs := s.rects()
	assert.Equal(t, []Cell{coarse, {1, 2, 0, 1, 0.5}, fine}, rs, "largest first, ties in the given order")

	g, xe, ye := s.rasterGrid(rs)
	require.NoError(t, g.validate())
	assert.InDeltaSlice(t, []float64{0.125, 0.375, 0.625, 0.875, 1.125, 1.375, 1.625, 1.875}, g.X, 1e-12)
	assert.InDeltaSlice(t, []float64{0.0625, 0.1875, 0.3125, 0.4375, 0.5625, 0.6875, 0.8125, 0.9375}, g.Y, 1e-12)
	assert.InDeltaSlice(t, []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2}, xe, 1e-12)
	assert.InDeltaSlice(t, []float64{0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1}, ye, 1e-12)
	at := func(col, row int) float64 { return g.Z[row*8+col] }
	assert.Equal(t, 0.9, at(1, 2), "(0.375, 0.3125) lies in the fine cell")
	assert.Equal(t, 0.1, at(0, 0), "(0.125, 0.0625) lies only in the coarse cell")
	assert.Equal(t, 0.5, at(5, 7), "(1.375, 0.9375) lies in the right cell")

	// On a log axis the raster is evenly spaced in log space.
	l := Surface{Cells: []Cell{{1, 100, 0, 1, 0.5}}, LogX: true, Raster: 2}
	lg, _, _ := l.rasterGrid(l.rects())
	assert.InDeltaSlice(t, []float64{math.Pow(10, 0.5), math.Pow(10, 1.5)}, lg.X, 1e-9)
	assert.InDeltaSlice(t, []float64{1, 10, 100, 1000}, axisEdges([]float64{math.Sqrt(10), math.Sqrt(1000)}, true)[:2], 1e-9)
}

func TestAxisEdgesLog(t *testing.T) {
	t.Parallel()
	e := axisEdges([]float64{10, 100, 1000}, true)
	assert.InDeltaSlice(t, []float64{math.Sqrt(10), math.Sqrt(1000), math.Sqrt(1e5), math.Sqrt(1e7)}, e, 1e-9)
	assert.Equal(t, []float64{0.5, 1.5, 2.5, 3.5}, axisEdges([]float64{1, 2, 3}, false))
}

// TestSurfaceSVG checks what the figure shows: the colours of the cells
// (the finer cell drawn after the coarse one), the legend of windows, best
// point and marks, log-axis tick labels, and contour lines.
func TestSurfaceSVG(t *testing.T) {
	t.Parallel()
	s := Surface{
		Cells:    []Cell{{0.25, 0.5, 100, 200, 0.9}, {0.1, 1, 10, 1000, 0.1}},
		LogY:     true,
		Contours: []float64{0.5},
		Windows:  []Window{{0, 0.1, 1, 10, 1000}, {1, 0.2, 0.6, 80, 250}, {1, 0.7, 0.9, 20, 40}},
		Best:     &Mark{X: 0.4, Y: 150},
		Marks:    []Mark{{X: 0.7375, Y: 170, Label: "paper"}},
	}
	var buf bytes.Buffer
	require.NoError(t, s.Write(&buf, "svg"))
	svg := buf.String()
	cm := colorMaps[defaultPalette]()
	cm.SetMin(0.1)
	cm.SetMax(0.9)
	cLo, err := cm.At(0.1)
	require.NoError(t, err)
	cHi, err := cm.At(0.9)
	require.NoError(t, err)
	iLo, iHi := strings.Index(svg, hexColour(cLo)), strings.Index(svg, hexColour(cHi))
	require.GreaterOrEqual(t, iLo, 0, "coarse cell colour %s", hexColour(cLo))
	require.GreaterOrEqual(t, iHi, 0, "fine cell colour %s", hexColour(cHi))
	assert.Less(t, iLo, iHi, "the coarse cell is drawn first")
	for _, text := range []string{">level 0<", ">level 1<", ">best<", ">paper<", ">10<", ">100<", ">1000<"} {
		assert.Contains(t, svg, text)
	}
	assert.Equal(t, 1, strings.Count(svg, ">level 1<"), "one legend entry per level")
	assert.Contains(t, svg, "stroke-width:1.2", "contour lines")
	assert.Equal(t, 1, strings.Count(svg, "fill:#FFFFFF;fill-opacity:0.75"), "one backdrop behind the legend")
	iBox, iLegend := strings.Index(svg, "fill:#FFFFFF;fill-opacity:0.75"), strings.Index(svg, ">level 0<")
	assert.Less(t, iBox, iLegend, "the backdrop is drawn before the legend")

	buf.Reset()
	plain := Surface{Cells: s.Cells, LogY: true}
	require.NoError(t, plain.Write(&buf, "svg"))
	assert.NotContains(t, buf.String(), "fill-opacity:0.75", "no legend, no backdrop")
}

func TestSurfaceSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A win-rate surface over (W_p, P_ob), P_ob on a log scale, from a grid.
	wp := []float64{0.5, 0.6, 0.7, 0.8, 0.9}
	pob := []float64{10, 30, 100, 300, 1000}
	win := NewGrid(wp, pob, func(x, y float64) float64 {
		d := (x-0.74)*(x-0.74)*20 + math.Pow(math.Log10(y/170), 2)
		return 0.5 - 0.2*d
	})
	half := NewGrid(wp, pob, func(x, y float64) float64 { return 0.01 + 0.02*x })
	figs := map[string]*Surface{
		"surface": {Grid: win, LogY: true, Title: "win rate", XLabel: "W_p", YLabel: "P_ob", ColorLabel: "win rate",
			Contours: []float64{0.4, 0.45}, Windows: []Window{{0, 0.6, 0.9, 30, 300}}, Best: &Mark{X: 0.7, Y: 100}},
		"halfwidth": {Grid: half, LogY: true, Palette: "black-body", Title: "95 % half-width", ColorLabel: "half-width"},
		"cells":     {Cells: narrowingCells(func(x, y float64) float64 { return x * y }), Contours: []float64{0.1}},
	}
	magic := map[string]string{"png": "\x89PNG", "svg": "<?xml"}
	for name, s := range figs {
		s.Width, s.Height = 10*vg.Centimeter, 8*vg.Centimeter
		for _, ext := range []string{"png", "svg"} {
			path := filepath.Join(dir, name+"."+ext)
			require.NoError(t, Save(path, s), name)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(data), 5000, "%s file size", path)
			assert.True(t, bytes.HasPrefix(data, []byte(magic[ext])), "%s starts with %q", path, data[:8])
		}
	}
	lo, hi, err := figs["halfwidth"].colourRange()
	require.NoError(t, err)
	assert.InDelta(t, 0.02, lo, 1e-12)
	assert.InDelta(t, 0.028, hi, 1e-12)
	assert.ErrorContains(t, Save(filepath.Join(dir, "c.gif"), figs["cells"]), `unsupported figure format "gif"`)
	assert.NoFileExists(t, filepath.Join(dir, "c.gif"))
}
