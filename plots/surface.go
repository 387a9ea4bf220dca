package plots

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Cell is one rectangle of an irregular surface: the value Z over
// [X0, X1] x [Y0, Y1]. Z may be NaN (drawn blank).
type Cell struct {
	X0, X1, Y0, Y1 float64
	Z              float64
}

// Window is a rectangle drawn as an outline on a Surface, for instance the
// region a narrowing search zoomed into at a level. Windows of the same
// Level share a colour and dash pattern and one legend entry.
type Window struct {
	Level          int
	X0, X1, Y0, Y1 float64
}

// Mark is a labelled point drawn on a figure, for instance the best
// candidate or the paper's parameters.
type Mark struct {
	X, Y  float64
	Label string
}

// Surface is a figure of a value over two parameters (for instance a win
// rate over W_p and P_ob, or the half-widths of its confidence intervals)
// as coloured cells with a colour bar, optional contour lines, optional
// logarithmic axes, narrowing windows and marked points.
//
// The values come either as a regular Grid (drawn like [HeatMap]: each cell
// centred on its point, reaching half way to its neighbours; on a log axis
// half way in log space) or as Cells, rectangles of any size that may
// overlap: the cells of several narrowing levels, each level finer than the
// one before. Larger cells are drawn first, so finer ones lie on top.
// Contours of Cells are traced on a raster of Raster x Raster slices, each
// taking the value of the smallest cell that contains its centre: the lines
// run along the edges of the drawn, piecewise constant surface (to within a
// raster slice), not along an interpolation. Contours of a Grid are
// gonum's (marching squares between the grid points).
type Surface struct {
	// Grid holds regular values; leave it empty when Cells are given.
	Grid Grid
	// Cells hold irregular values; leave them nil when Grid is given.
	Cells []Cell
	// Title, XLabel, YLabel and ColorLabel label the figure, its axes and
	// its colour bar; any may be empty.
	Title, XLabel, YLabel, ColorLabel string
	// Palette names the colour map (see palettes); empty is defaultPalette.
	// A sequential map (black-body, kindlmann) suits half-widths.
	Palette string
	// Min and Max are the values at the ends of the colour map; if both are
	// 0 the values' range is used.
	Min, Max float64
	// Contours are the levels at which black contour lines are drawn.
	Contours []float64
	// LogX and LogY put the axes on a logarithmic scale; every coordinate
	// on such an axis must be positive.
	LogX, LogY bool
	// Windows are outlined, coloured by level, with a legend entry per
	// level ("level N").
	Windows []Window
	// Best, if not nil, is marked with a large cross in a ring and a
	// legend entry (its Label, or "best").
	Best *Mark
	// Marks are other points, drawn as discs of their own colours with a
	// black outline and a legend entry each.
	Marks []Mark
	// Raster is the number of raster slices along each axis on which the
	// contours of Cells are traced, at least 2; 0 means 200.
	Raster int
	// Width and Height are the figure's size; 0 means 16 cm x 12 cm.
	Width, Height vg.Length
}

// finite reports whether every value is neither NaN nor infinite.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// validate reports whether the surface can be drawn.
func (s *Surface) validate() error {
	hasGrid := len(s.Grid.X) > 0 || len(s.Grid.Y) > 0 || len(s.Grid.Z) > 0
	switch {
	case hasGrid && len(s.Cells) > 0:
		return errors.New("plots: surface has both a Grid and Cells; give one")
	case !hasGrid && len(s.Cells) == 0:
		return errors.New("plots: surface has neither a Grid nor Cells")
	case hasGrid:
		if err := s.Grid.validate(); err != nil {
			return err
		}
		if len(s.Contours) > 0 && (len(s.Grid.X) < 2 || len(s.Grid.Y) < 2) {
			return fmt.Errorf("plots: contours need at least 2 x 2 grid points, have %d x %d", len(s.Grid.X), len(s.Grid.Y))
		}
		if s.LogX && s.Grid.X[0] <= 0 {
			return fmt.Errorf("plots: surface on a log x axis: grid X[0] = %v is not positive", s.Grid.X[0])
		}
		if s.LogY && s.Grid.Y[0] <= 0 {
			return fmt.Errorf("plots: surface on a log y axis: grid Y[0] = %v is not positive", s.Grid.Y[0])
		}
	default:
		for i, c := range s.Cells {
			if !finite(c.X0, c.X1, c.Y0, c.Y1) || !(c.X0 < c.X1) || !(c.Y0 < c.Y1) {
				return fmt.Errorf("plots: cell %d [%v, %v] x [%v, %v] is not a finite rectangle with X0 < X1 and Y0 < Y1", i, c.X0, c.X1, c.Y0, c.Y1)
			}
			if math.IsInf(c.Z, 0) {
				return fmt.Errorf("plots: cell %d value is %v", i, c.Z)
			}
			if s.LogX && c.X0 <= 0 || s.LogY && c.Y0 <= 0 {
				return fmt.Errorf("plots: cell %d [%v, %v] x [%v, %v] is not positive on a log axis", i, c.X0, c.X1, c.Y0, c.Y1)
			}
		}
	}
	if s.Palette != "" && colorMaps[s.Palette] == nil {
		return fmt.Errorf("plots: unknown palette %q (known: %s)", s.Palette, strings.Join(palettes(), ", "))
	}
	if !finite(s.Min, s.Max) {
		return fmt.Errorf("plots: colour range [%v, %v] is not finite", s.Min, s.Max)
	}
	if s.Min > s.Max {
		return fmt.Errorf("plots: colour range Min %v above Max %v", s.Min, s.Max)
	}
	for i, c := range s.Contours {
		if !finite(c) {
			return fmt.Errorf("plots: contour level %d is %v", i, c)
		}
	}
	for i, w := range s.Windows {
		if !finite(w.X0, w.X1, w.Y0, w.Y1) || !(w.X0 < w.X1) || !(w.Y0 < w.Y1) {
			return fmt.Errorf("plots: window %d [%v, %v] x [%v, %v] is not a finite rectangle with X0 < X1 and Y0 < Y1", i, w.X0, w.X1, w.Y0, w.Y1)
		}
		if w.Level < 0 {
			return fmt.Errorf("plots: window %d has level %d, want at least 0", i, w.Level)
		}
		if s.LogX && w.X0 <= 0 || s.LogY && w.Y0 <= 0 {
			return fmt.Errorf("plots: window %d [%v, %v] x [%v, %v] is not positive on a log axis", i, w.X0, w.X1, w.Y0, w.Y1)
		}
	}
	marks := s.Marks
	if s.Best != nil {
		marks = append([]Mark{*s.Best}, marks...)
	}
	for i, m := range marks {
		if !finite(m.X, m.Y) || s.LogX && m.X <= 0 || s.LogY && m.Y <= 0 {
			return fmt.Errorf("plots: marked point %d (%q) at (%v, %v) is not finite or not positive on a log axis", i, m.Label, m.X, m.Y)
		}
	}
	if s.Raster != 0 && s.Raster < 2 {
		return fmt.Errorf("plots: surface raster %d, want at least 2 (or 0 for 200)", s.Raster)
	}
	return checkSize(s.Width, s.Height)
}

// colourRange returns the values at the ends of the colour map and bar:
// Min and Max, or the values' range if both are 0 (widened by 0.5 either
// way if all values are equal).
func (s *Surface) colourRange() (lo, hi float64, err error) {
	return colourEnds(s.Min, s.Max, s.valueRange, "surface")
}

// valueRange returns the smallest and largest value of the cells,
// ignoring NaN; both are NaN if there is no number.
func (s *Surface) valueRange() (lo, hi float64) {
	return numberRange(func(yield func(float64) bool) {
		for _, r := range s.rects() {
			if !yield(r.Z) {
				return
			}
		}
	})
}

// axisEdges returns the cell boundaries along a strictly increasing axis,
// half way between points in log space when logScale.
func axisEdges(v []float64, logScale bool) []float64 {
	if !logScale {
		return edges(v)
	}
	lv := make([]float64, len(v))
	for i, x := range v {
		lv[i] = math.Log10(x)
	}
	e := edges(lv)
	for i := range e {
		e[i] = math.Pow(10, e[i])
	}
	return e
}

// rects returns the surface's cells in drawing order: for a Grid, its
// cells row by row; for Cells, the largest first (area measured on the
// axes' scales), ties in the given order.
func (s *Surface) rects() []Cell {
	if len(s.Cells) == 0 {
		ex, ey := axisEdges(s.Grid.X, s.LogX), axisEdges(s.Grid.Y, s.LogY)
		nx := len(s.Grid.X)
		out := make([]Cell, 0, len(s.Grid.Z))
		for r := range s.Grid.Y {
			for c := range s.Grid.X {
				out = append(out, Cell{ex[c], ex[c+1], ey[r], ey[r+1], s.Grid.Z[r*nx+c]})
			}
		}
		return out
	}
	out := append([]Cell(nil), s.Cells...)
	sort.SliceStable(out, func(a, b int) bool { return s.cellArea(out[a]) > s.cellArea(out[b]) })
	return out
}

// scaleX and scaleY map a coordinate to its axis's linear scale.
func (s *Surface) scaleX(x float64) float64 {
	if s.LogX {
		return math.Log10(x)
	}
	return x
}

func (s *Surface) scaleY(y float64) float64 {
	if s.LogY {
		return math.Log10(y)
	}
	return y
}

// cellArea is a cell's area on the axes' scales.
func (s *Surface) cellArea(c Cell) float64 {
	return (s.scaleX(c.X1) - s.scaleX(c.X0)) * (s.scaleY(c.Y1) - s.scaleY(c.Y0))
}

// dataRange is the extent of the cells, windows and marks.
func (s *Surface) dataRange(rs []Cell) (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, r := range rs {
		xmin, xmax = min(xmin, r.X0), max(xmax, r.X1)
		ymin, ymax = min(ymin, r.Y0), max(ymax, r.Y1)
	}
	for _, w := range s.Windows {
		xmin, xmax = min(xmin, w.X0), max(xmax, w.X1)
		ymin, ymax = min(ymin, w.Y0), max(ymax, w.Y1)
	}
	marks := s.Marks
	if s.Best != nil {
		marks = append([]Mark{*s.Best}, marks...)
	}
	for _, m := range marks {
		xmin, xmax = min(xmin, m.X), max(xmax, m.X)
		ymin, ymax = min(ymin, m.Y), max(ymax, m.Y)
	}
	return xmin, xmax, ymin, ymax
}

// rasterGrid samples the smallest-cell values of Cells on an r x r raster
// spanning the cells, its slices of equal width on the axes' scales: the
// raster point of each slice is its centre, and xe and ye are the slices'
// edges (r+1 each).
func (s *Surface) rasterGrid(rs []Cell) (g Grid, xe, ye []float64) {
	r := s.Raster
	if r == 0 {
		r = 200
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, c := range rs {
		xmin, xmax = min(xmin, s.scaleX(c.X0)), max(xmax, s.scaleX(c.X1))
		ymin, ymax = min(ymin, s.scaleY(c.Y0)), max(ymax, s.scaleY(c.Y1))
	}
	// axis returns the values at lo + (hi-lo)*(i+off)/r for i in [0, n).
	axis := func(lo, hi float64, logScale bool, n int, off float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			u := lo + (hi-lo)*(float64(i)+off)/float64(r)
			if logScale {
				u = math.Pow(10, u)
			}
			v[i] = u
		}
		return v
	}
	g = Grid{X: axis(xmin, xmax, s.LogX, r, 0.5), Y: axis(ymin, ymax, s.LogY, r, 0.5), Z: make([]float64, r*r)}
	xe, ye = axis(xmin, xmax, s.LogX, r+1, 0), axis(ymin, ymax, s.LogY, r+1, 0)
	for i := range g.Z {
		g.Z[i] = math.NaN()
	}
	// rs is sorted largest first: later (smaller) cells overwrite.
	for _, c := range rs {
		for row, y := range g.Y {
			if y < c.Y0 || y > c.Y1 {
				continue
			}
			for col, x := range g.X {
				if x >= c.X0 && x <= c.X1 {
					g.Z[row*r+col] = c.Z
				}
			}
		}
	}
	return g, xe, ye
}

// stepContours draws the contour lines of a piecewise constant raster: at
// each level, the edges between neighbouring raster slices of which one is
// at or above the level and the other below (NaN slices have no edges).
// Runs of such edges along a slice boundary are joined into one line. The
// lines are drawn in a fixed order, so the figure's bytes do not vary.
type stepContours struct {
	g      Grid
	xe, ye []float64
	levels []float64
	style  draw.LineStyle
}

// Plot implements [plot.Plotter].
func (sc *stepContours) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	nx, ny := len(sc.g.X), len(sc.g.Y)
	z := func(col, row int) float64 { return sc.g.Z[row*nx+col] }
	crosses := func(a, b, level float64) bool {
		return !math.IsNaN(a) && !math.IsNaN(b) && (a >= level) != (b >= level)
	}
	c.SetLineStyle(sc.style)
	line := func(x0, y0, x1, y1 float64) {
		var pa vg.Path
		pa.Move(vg.Point{X: trX(x0), Y: trY(y0)})
		pa.Line(vg.Point{X: trX(x1), Y: trY(y1)})
		c.Stroke(pa)
	}
	for _, level := range sc.levels {
		// Vertical lines between columns col-1 and col.
		for col := 1; col < nx; col++ {
			start := -1
			for row := 0; row <= ny; row++ {
				on := row < ny && crosses(z(col-1, row), z(col, row), level)
				if on && start < 0 {
					start = row
				}
				if !on && start >= 0 {
					line(sc.xe[col], sc.ye[start], sc.xe[col], sc.ye[row])
					start = -1
				}
			}
		}
		// Horizontal lines between rows row-1 and row.
		for row := 1; row < ny; row++ {
			start := -1
			for col := 0; col <= nx; col++ {
				on := col < nx && crosses(z(col, row-1), z(col, row), level)
				if on && start < 0 {
					start = col
				}
				if !on && start >= 0 {
					line(sc.xe[start], sc.ye[row], sc.xe[col], sc.ye[row])
					start = -1
				}
			}
		}
	}
}

// Write draws the surface to w in format "png", "svg" or "pdf".
func (s *Surface) Write(w io.Writer, format string) error {
	cc, err := newColourCanvas(format, s.Width, s.Height, s.Palette, s.validate, s.colourRange)
	if err != nil {
		return err
	}
	c, width, height, cm, lo, hi := cc.c, cc.width, cc.height, cc.cm, cc.lo, cc.hi

	rs := s.rects()
	p := newTitledPlot(s.Title, s.XLabel, s.YLabel)
	p.Add(&rectPlotter{rects: rs, cm: cm, lo: lo, hi: hi})
	contourStyle := draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
	switch {
	case len(s.Contours) == 0:
	case len(s.Cells) == 0:
		ct := plotter.NewContour(gridXYZ{&s.Grid}, s.Contours, nil)
		ct.Min, ct.Max = lo, hi
		ct.LineStyles = []draw.LineStyle{contourStyle}
		p.Add(ct)
	default:
		g, xe, ye := s.rasterGrid(rs)
		p.Add(&stepContours{g: g, xe: xe, ye: ye, levels: s.Contours, style: contourStyle})
	}
	labels, err := s.addOverlays(p)
	if err != nil {
		return err
	}
	xmin, xmax, ymin, ymax := s.dataRange(rs)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	if s.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	if s.LogY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	// The legend is drawn over a translucent white backdrop, so that it
	// stays legible over the cells.
	legend := p.Legend
	p.Legend = plot.NewLegend()
	drawWithColourBar(c, p, cm, lo, hi, s.ColorLabel, width, height, func(da draw.Canvas) {
		if r, ok := legendBox(&legend, labels, da); ok {
			da.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xc0})
			da.Fill(r.Path())
		}
		legend.Draw(da)
	})
	return writeCanvas(w, c, format)
}

// addOverlays adds the windows (one legend entry per level), the best
// point and the other marks, and returns the texts of the legend entries.
func (s *Surface) addOverlays(p *plot.Plot) (labels []string, err error) {
	levels := map[int]bool{}
	var order []int
	for _, w := range s.Windows {
		if !levels[w.Level] {
			levels[w.Level] = true
			order = append(order, w.Level)
		}
	}
	sort.Ints(order)
	for _, lev := range order {
		var first *plotter.Line
		for _, w := range s.Windows {
			if w.Level != lev {
				continue
			}
			l, err := plotter.NewLine(plotter.XYs{{X: w.X0, Y: w.Y0}, {X: w.X1, Y: w.Y0}, {X: w.X1, Y: w.Y1}, {X: w.X0, Y: w.Y1}, {X: w.X0, Y: w.Y0}})
			if err != nil {
				return nil, fmt.Errorf("plots: window: %w", err)
			}
			l.Color = windowColour(lev)
			l.Dashes = plotutil.Dashes(lev)
			l.Width = vg.Points(1.5)
			p.Add(l)
			if first == nil {
				first = l
			}
		}
		labels = append(labels, fmt.Sprintf("level %d", lev))
		p.Legend.Add(labels[len(labels)-1], first)
	}
	if s.Best != nil {
		ring, err := plotter.NewScatter(plotter.XYs{{X: s.Best.X, Y: s.Best.Y}})
		if err != nil {
			return nil, fmt.Errorf("plots: best point: %w", err)
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: vg.Points(6), Shape: draw.CircleGlyph{}}
		cross, err := plotter.NewScatter(plotter.XYs{{X: s.Best.X, Y: s.Best.Y}})
		if err != nil {
			return nil, fmt.Errorf("plots: best point: %w", err)
		}
		cross.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.CrossGlyph{}}
		p.Add(ring, cross)
		label := s.Best.Label
		if label == "" {
			label = "best"
		}
		labels = append(labels, label)
		p.Legend.Add(label, ring, cross)
	}
	for i, m := range s.Marks {
		dot, err := plotter.NewScatter(plotter.XYs{{X: m.X, Y: m.Y}})
		if err != nil {
			return nil, fmt.Errorf("plots: mark %d: %w", i, err)
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i + 1), Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}
		ring, err := plotter.NewScatter(plotter.XYs{{X: m.X, Y: m.Y}})
		if err != nil {
			return nil, fmt.Errorf("plots: mark %d: %w", i, err)
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.5), Shape: draw.RingGlyph{}}
		p.Add(dot, ring)
		if m.Label != "" {
			labels = append(labels, m.Label)
			p.Legend.Add(m.Label, dot, ring)
		}
	}
	p.Legend.Top = true
	return labels, nil
}

// legendBox returns the rectangle a legend at the top right of c covers
// with entries of the given texts, with a margin of 2 points, following
// the layout of gonum's Legend.Draw; ok is false if there are no entries.
func legendBox(l *plot.Legend, labels []string, c draw.Canvas) (r vg.Rectangle, ok bool) {
	if len(labels) == 0 {
		return r, false
	}
	var enth, textw vg.Length
	for _, t := range labels {
		rt := l.TextStyle.Rectangle(t)
		enth, textw = max(enth, rt.Max.Y), max(textw, rt.Max.X)
	}
	em := l.TextStyle.Rectangle(" ")
	descent := l.TextStyle.FontExtents().Descent
	n := vg.Length(len(labels))
	const margin = vg.Length(2)
	r.Max = vg.Point{X: c.Max.X, Y: c.Max.Y}
	r.Min.X = c.Max.X - l.ThumbnailWidth - em.Max.X - textw - margin
	r.Min.Y = c.Max.Y - n*enth - (n-1)*l.Padding - descent - margin
	return r, true
}

// windowColour is the outline colour of the windows of a narrowing level:
// black, then plotutil's colours.
func windowColour(level int) color.Color {
	if level == 0 {
		return color.Black
	}
	return plotutil.Color(level - 1)
}

// rectPlotter draws cells as coloured rectangles in order. Each is widened
// by a hairline so that anti-aliased raster output shows no seams between
// neighbours.
type rectPlotter struct {
	rects  []Cell
	cm     palette.ColorMap
	lo, hi float64
}

// Plot implements [plot.Plotter].
func (rp *rectPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	const overlap = vg.Length(0.25)
	var pa vg.Path
	for _, r := range rp.rects {
		if math.IsNaN(r.Z) {
			continue
		}
		clr, err := rp.cm.At(min(max(r.Z, rp.lo), rp.hi))
		if err != nil {
			continue // cannot happen: the value is clamped into the map's range
		}
		x0, x1 := trX(r.X0)-overlap, trX(r.X1)+overlap
		y0, y1 := trY(r.Y0)-overlap, trY(r.Y1)+overlap
		pa = fillRect(c, pa, x0, y0, x1, y1, clr)
	}
}

// drawWithColourBar draws p with a vertical colour bar of cm from lo to hi
// on its right, lined up with p's data area, and calls after, if not nil,
// with p's data area once p is drawn.
func drawWithColourBar(c vg.CanvasSizer, p *plot.Plot, cm palette.ColorMap, lo, hi float64, label string, width, height vg.Length, after func(data draw.Canvas)) {
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = label
	bar.Y.Min, bar.Y.Max = lo, hi
	dc := draw.New(c)
	barWidth := 2.2 * vg.Centimeter
	if label != "" {
		barWidth += 0.5 * vg.Centimeter
	}
	left := draw.Crop(dc, 0, -barWidth-0.3*vg.Centimeter, 0, 0)
	p.Draw(left)
	da := p.DataCanvas(left)
	if after != nil {
		after(da)
	}
	right := draw.Crop(dc, width-barWidth, -0.4*vg.Centimeter, da.Min.Y, da.Max.Y-height)
	bar.Draw(right)
}
