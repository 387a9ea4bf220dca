// Package plots draws figures from plain data with gonum/plot: heat maps
// of a grid of values with a colour bar and contour lines ([HeatMap]), line
// charts with error bars ([LineChart]) and grouped bar charts ([BarChart]). It
// knows nothing of Risk; callers bring the numbers, axes and labels.
//
// Figures are saved by file extension: .png, .svg or .pdf.
package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"iter"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/marslab-risk/marslab/internal/atomicfile"
)

// Grid is a rectangular grid of values: Z[r*len(X)+c] is the value at the
// point (X[c], Y[r]). X and Y must be strictly increasing; Z may hold NaN
// for missing values (drawn transparent).
type Grid struct {
	X, Y []float64
	Z    []float64
}

// NewGrid returns a grid over x and y with every value set by f(x, y).
func NewGrid(x, y []float64, f func(x, y float64) float64) Grid {
	g := Grid{X: x, Y: y, Z: make([]float64, len(x)*len(y))}
	for r, yv := range y {
		for c, xv := range x {
			g.Z[r*len(x)+c] = f(xv, yv)
		}
	}
	return g
}

// validate reports whether the grid is well formed: at least one column
// and one row, strictly increasing finite coordinates and len(X)*len(Y)
// values that are finite or NaN.
func (g Grid) validate() error {
	if len(g.X) == 0 || len(g.Y) == 0 {
		return fmt.Errorf("plots: grid of %d columns and %d rows: need at least 1 of each", len(g.X), len(g.Y))
	}
	if len(g.Z) != len(g.X)*len(g.Y) {
		return fmt.Errorf("plots: grid has %d values, want %d columns x %d rows = %d",
			len(g.Z), len(g.X), len(g.Y), len(g.X)*len(g.Y))
	}
	for name, v := range map[string][]float64{"X": g.X, "Y": g.Y} {
		for i, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("plots: grid %s[%d] = %v is not finite", name, i, x)
			}
			if i > 0 && x <= v[i-1] {
				return fmt.Errorf("plots: grid %s is not strictly increasing at %d (%v after %v)", name, i, x, v[i-1])
			}
		}
	}
	for i, z := range g.Z {
		if math.IsInf(z, 0) {
			return fmt.Errorf("plots: grid value Z[%d] (column %d, row %d) is infinite", i, i%len(g.X), i/len(g.X))
		}
	}
	return nil
}

// valueRange returns the smallest and largest values of Z, ignoring NaN; both
// are NaN if there is no number.
func (g Grid) valueRange() (lo, hi float64) { return numberRange(slices.Values(g.Z)) }

// numberRange returns the smallest and largest of vs, ignoring NaN; both
// are NaN if there is no number.
func numberRange(vs iter.Seq[float64]) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for z := range vs {
		if !math.IsNaN(z) {
			lo, hi = min(lo, z), max(hi, z)
		}
	}
	if lo > hi {
		return math.NaN(), math.NaN()
	}
	return lo, hi
}

// gridXYZ adapts a Grid to [plotter.GridXYZ].
type gridXYZ struct{ g *Grid }

func (a gridXYZ) Dims() (c, r int)   { return len(a.g.X), len(a.g.Y) }
func (a gridXYZ) Z(c, r int) float64 { return a.g.Z[r*len(a.g.X)+c] }
func (a gridXYZ) X(c int) float64    { return a.g.X[c] }
func (a gridXYZ) Y(r int) float64    { return a.g.Y[r] }

// palettes lists the colour maps a [HeatMap] accepts by name.
func palettes() []string {
	names := make([]string, 0, len(colorMaps))
	for n := range colorMaps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// colorMaps are Moreland's perceptually uniform colour maps.
var colorMaps = map[string]func() palette.ColorMap{
	"blue-red":       func() palette.ColorMap { return moreland.SmoothBlueRed() },
	"blue-tan":       func() palette.ColorMap { return moreland.SmoothBlueTan() },
	"purple-orange":  func() palette.ColorMap { return moreland.SmoothPurpleOrange() },
	"kindlmann":      moreland.Kindlmann,
	"black-body":     moreland.BlackBody,
	"ext-kindlmann":  moreland.ExtendedKindlmann,
	"ext-black-body": moreland.ExtendedBlackBody,
}

// defaultPalette is the colour map used when [HeatMap.Palette] is empty: a
// diverging map, white in the middle, suited to probabilities around 0.5.
const defaultPalette = "blue-red"

// HeatMap is a figure of a grid of values drawn as coloured cells with a
// vertical colour bar and optional contour lines.
type HeatMap struct {
	// Grid holds the values; X runs along the horizontal axis.
	Grid Grid
	// Title, XLabel, YLabel and ColorLabel label the figure, its axes and
	// its colour bar; any may be empty.
	Title, XLabel, YLabel, ColorLabel string
	// Palette names the colour map (see palettes); empty is defaultPalette.
	Palette string
	// Min and Max are the values at the ends of the colour map; if both
	// are 0 the grid's range is used.
	Min, Max float64
	// Contours are the levels at which black contour lines are drawn (for
	// instance 0.5); they need a grid of at least 2 x 2.
	Contours []float64
	// Width and Height are the figure's size; 0 means 16 cm x 12 cm.
	Width, Height vg.Length
}

// validate reports whether the heat map can be drawn.
func (h *HeatMap) validate() error {
	if err := h.Grid.validate(); err != nil {
		return err
	}
	if h.Palette != "" && colorMaps[h.Palette] == nil {
		return fmt.Errorf("plots: unknown palette %q (known: %s)", h.Palette, strings.Join(palettes(), ", "))
	}
	if math.IsNaN(h.Min) || math.IsNaN(h.Max) || math.IsInf(h.Min, 0) || math.IsInf(h.Max, 0) {
		return fmt.Errorf("plots: colour range [%v, %v] is not finite", h.Min, h.Max)
	}
	if h.Min > h.Max {
		return fmt.Errorf("plots: colour range Min %v above Max %v", h.Min, h.Max)
	}
	if len(h.Contours) > 0 && (len(h.Grid.X) < 2 || len(h.Grid.Y) < 2) {
		return fmt.Errorf("plots: contours need at least 2 x 2 grid points, have %d x %d", len(h.Grid.X), len(h.Grid.Y))
	}
	for i, c := range h.Contours {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("plots: contour level %d is %v", i, c)
		}
	}
	return checkSize(h.Width, h.Height)
}

// colourRange returns the values at the ends of the colour map (see
// colourEnds).
func (h *HeatMap) colourRange() (lo, hi float64, err error) {
	return colourEnds(h.Min, h.Max, h.Grid.valueRange, "grid")
}

// colourEnds returns the values at the ends of a colour map: min and max,
// or the data's range (lo > hi or NaN when it has no value: an error
// naming what) if both are 0, widened by 0.5 either way if equal (a
// constant figure), so that the colour map has a range.
func colourEnds(min, max float64, data func() (lo, hi float64), what string) (lo, hi float64, err error) {
	lo, hi = min, max
	if lo == 0 && hi == 0 {
		lo, hi = data()
		if !(lo <= hi) {
			return 0, 0, fmt.Errorf("plots: %s has no values to colour (all NaN)", what)
		}
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi, nil
}

// checkSize checks a figure's size (0 = the default).
func checkSize(w, h vg.Length) error {
	if w < 0 || h < 0 {
		return fmt.Errorf("plots: negative figure size %v x %v", w, h)
	}
	return nil
}

// Chart is a figure of this package ([HeatMap], Surface, [LineChart], ...):
// Write draws it to w in format "png", "svg" or "pdf", after checking its
// data.
type Chart interface {
	Write(w io.Writer, format string) error
}

// Save draws chart c into the file path, in the format named by the path's
// extension (.png, .svg or .pdf), in memory first, and only then writes it
// to path: a chart that fails to draw (an unknown format, invalid data)
// creates no file and leaves an existing one untouched.
func Save(path string, c Chart) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	var buf bytes.Buffer
	if err := c.Write(&buf, format); err != nil {
		return fmt.Errorf("plots: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// newCanvas returns a canvas of size w x h in format "png", "svg" or
// "pdf".
func newCanvas(format string, w, h vg.Length) (vg.CanvasWriterTo, error) {
	switch format {
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))}, nil
	case "svg":
		return vgsvg.New(w, h), nil
	case "pdf":
		return vgpdf.New(w, h), nil
	}
	return nil, fmt.Errorf("unsupported figure format %q (want png, svg or pdf)", format)
}

// writeCanvas writes the drawn canvas c to w; format names it in errors.
// A PNG is compressed at [png.BestSpeed]: a figure's file is about 5 %
// larger than at the default level and takes about 40 % less time to
// encode (the encoding is most of the time of writing a PNG figure).
func writeCanvas(w io.Writer, c vg.CanvasWriterTo, format string) error {
	if pc, ok := c.(vgimg.PngCanvas); ok {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(w, pc.Image()); err != nil {
			return fmt.Errorf("plots: writing %s: %w", format, err)
		}
		return nil
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("plots: writing %s: %w", format, err)
	}
	return nil
}

// colourSize returns the size of a figure with a colour bar: w and h, 0
// meaning 16 cm and 12 cm.
func colourSize(w, h vg.Length) (vg.Length, vg.Length) {
	if w == 0 {
		w = 16 * vg.Centimeter
	}
	if h == 0 {
		h = 12 * vg.Centimeter
	}
	return w, h
}

// colourMap returns the colour map of the palette name (defaultPalette if
// empty; a validated name) spanning [lo, hi].
func colourMap(name string, lo, hi float64) palette.ColorMap {
	if name == "" {
		name = defaultPalette
	}
	cm := colorMaps[name]()
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// colourCanvas is the canvas of a figure coloured by value with a colour
// bar, its size, and the colour map over the value range [lo, hi].
type colourCanvas struct {
	c             vg.CanvasWriterTo
	width, height vg.Length
	cm            palette.ColorMap
	lo, hi        float64
}

// newColourCanvas checks a colour-coded figure with validate and makes its
// canvas of the given size (zero: the default) in format, with the colour
// map of pal over the range that colourRange returns (pal names the
// palette, see palettes).
func newColourCanvas(format string, w, h vg.Length, pal string, validate func() error, colourRange func() (lo, hi float64, err error)) (colourCanvas, error) {
	var cc colourCanvas
	if err := validate(); err != nil {
		return cc, err
	}
	cc.width, cc.height = colourSize(w, h)
	c, err := newCanvas(format, cc.width, cc.height)
	if err != nil {
		return cc, err
	}
	if cc.lo, cc.hi, err = colourRange(); err != nil {
		return cc, err
	}
	cc.c, cc.cm = c, colourMap(pal, cc.lo, cc.hi)
	return cc, nil
}

// Write draws the heat map to w in format "png", "svg" or "pdf".
func (h *HeatMap) Write(w io.Writer, format string) error {
	cc, err := newColourCanvas(format, h.Width, h.Height, h.Palette, h.validate, h.colourRange)
	if err != nil {
		return err
	}
	c, width, height, cm, lo, hi := cc.c, cc.width, cc.height, cc.cm, cc.lo, cc.hi

	g := gridXYZ{&h.Grid}
	p := newTitledPlot(h.Title, h.XLabel, h.YLabel)
	cells := &cellPlotter{g: &h.Grid, cm: cm, lo: lo, hi: hi}
	p.Add(cells)
	if len(h.Contours) > 0 {
		ct := plotter.NewContour(g, h.Contours, nil)
		ct.Min, ct.Max = lo, hi
		ct.LineStyles = []draw.LineStyle{{Color: color.Black, Width: vg.Points(1.2)}}
		p.Add(ct)
	}
	// The cells extend half a step beyond the first and last points.
	xmin, xmax, ymin, ymax := cells.DataRange()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}

	drawWithColourBar(c, p, cm, lo, hi, h.ColorLabel, width, height, nil)
	return writeCanvas(w, c, format)
}

// cellPlotter draws a grid as coloured cells centred on the grid points,
// each reaching half way to its neighbours. Unlike [plotter.HeatMap] it
// overlaps neighbouring cells by a hairline so that anti-aliased raster
// output shows no seams, and it colours by the continuous colour map.
type cellPlotter struct {
	g      *Grid
	cm     palette.ColorMap
	lo, hi float64
}

// edges returns the cell boundaries along a strictly increasing axis.
func edges(v []float64) []float64 {
	e := make([]float64, len(v)+1)
	if len(v) == 1 {
		e[0], e[1] = v[0]-0.5, v[0]+0.5
		return e
	}
	for i := 1; i < len(v); i++ {
		e[i] = (v[i-1] + v[i]) / 2
	}
	e[0] = v[0] - (v[1]-v[0])/2
	e[len(v)] = v[len(v)-1] + (v[len(v)-1]-v[len(v)-2])/2
	return e
}

// Plot implements [plot.Plotter].
func (cp *cellPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ex, ey := edges(cp.g.X), edges(cp.g.Y)
	nx, ny := len(cp.g.X), len(cp.g.Y)
	const overlap = vg.Length(0.5)
	var pa vg.Path
	for r := range ny {
		y0, y1 := trY(ey[r]), trY(ey[r+1])
		if r < ny-1 {
			y1 += overlap
		}
		for col := range nx {
			z := cp.g.Z[r*nx+col]
			if math.IsNaN(z) {
				continue
			}
			z = min(max(z, cp.lo), cp.hi)
			clr, err := cp.cm.At(z)
			if err != nil {
				continue // cannot happen: z is clamped into the map's range
			}
			x0, x1 := trX(ex[col]), trX(ex[col+1])
			if col < nx-1 {
				x1 += overlap
			}
			pa = fillRect(c, pa, x0, y0, x1, y1, clr)
		}
	}
}

// fillRect fills the rectangle with corners (x0, y0) and (x1, y1) of c
// with clr, building its path in pa's storage, and returns the path for
// the next rectangle to reuse.
func fillRect(c draw.Canvas, pa vg.Path, x0, y0, x1, y1 vg.Length, clr color.Color) vg.Path {
	pa = pa[:0]
	pa.Move(vg.Point{X: x0, Y: y0})
	pa.Line(vg.Point{X: x1, Y: y0})
	pa.Line(vg.Point{X: x1, Y: y1})
	pa.Line(vg.Point{X: x0, Y: y1})
	pa.Close()
	c.SetColor(clr)
	c.Fill(pa)
	return pa
}

// DataRange implements [plot.DataRanger]: the outer edges of the cells.
func (cp *cellPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	ex, ey := edges(cp.g.X), edges(cp.g.Y)
	return ex[0], ex[len(ex)-1], ey[0], ey[len(ey)-1]
}

// niceTicks places at most about seven labelled ticks at multiples of 1, 2
// or 5 times a power of ten, so that integer axes get integer labels.
type niceTicks struct{}

// Ticks implements [plot.Ticker].
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ticks
}
