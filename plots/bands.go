package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// bandColour is series i's colour with the band's transparency.
func bandColour(i int) color.Color {
	r, g, bl, _ := plotutil.Color(i).RGBA()
	const a = 0x40 // 25 % opaque
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: a}
}

// addBands adds each series' band (if any), then its line, to p, colours
// counted from first.
func addBands(p *plot.Plot, series []Series, first int) error {
	for i := range series {
		s := &series[i]
		k := first + i
		if s.Lo != nil {
			ring := make(plotter.XYs, 0, 2*len(s.X))
			for j := range s.X {
				ring = append(ring, plotter.XY{X: s.X[j], Y: s.Hi[j]})
			}
			for j := len(s.X) - 1; j >= 0; j-- {
				ring = append(ring, plotter.XY{X: s.X[j], Y: s.Lo[j]})
			}
			poly, err := plotter.NewPolygon(ring)
			if err != nil {
				return fmt.Errorf("plots: series %d band: %w", i, err)
			}
			poly.Color = bandColour(k)
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		line, err := plotter.NewLine(seriesXY{s})
		if err != nil {
			return fmt.Errorf("plots: series %d: %w", i, err)
		}
		line.Color = plotutil.Color(k)
		line.Dashes = plotutil.Dashes(k)
		line.Width = vg.Points(1.5)
		p.Add(line)
		if s.Name != "" {
			p.Legend.Add(s.Name, line)
		}
	}
	return nil
}

// TracePanel is one panel of a [TraceChart]: the traces of one parameter.
type TracePanel struct {
	// YLabel names the parameter.
	YLabel string
	// Series are drawn as lines with shaded bands, as in a [LineChart]
	// with Bands (for
	// instance the distribution mean with mean +- one standard deviation).
	Series []Series
	// LogY puts the panel's axis on a logarithmic scale (values > 0).
	LogY bool
	// YMin and YMax fix the vertical range (for instance the parameter's
	// bounds); both 0 means automatic.
	YMin, YMax float64
}

// TraceChart is a figure of parameter traces: one panel per parameter,
// stacked vertically over a shared horizontal axis (for instance the
// generation of a CMA-ES run).
type TraceChart struct {
	Panels        []TracePanel
	Title, XLabel string
	// Width is the figure's width, 0 meaning 16 cm; Height is its height,
	// 0 meaning 4 cm a panel plus 2 cm.
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn.
func (t *TraceChart) validate() error {
	if len(t.Panels) == 0 {
		return fmt.Errorf("plots: trace chart %q has no panels", t.Title)
	}
	for i, pn := range t.Panels {
		if len(pn.Series) == 0 {
			return fmt.Errorf("plots: trace panel %d (%q) has no series", i, pn.YLabel)
		}
		for j := range pn.Series {
			if err := pn.Series[j].validate(j); err != nil {
				return fmt.Errorf("trace panel %d (%q): %w", i, pn.YLabel, err)
			}
			if pn.LogY {
				s := &pn.Series[j]
				for k := range s.Y {
					if s.Y[k] <= 0 || s.Lo != nil && s.Lo[k] <= 0 {
						return fmt.Errorf("plots: trace panel %d (%q): series %d point %d is not positive on a log axis", i, pn.YLabel, j, k)
					}
				}
			}
		}
		if !finite(pn.YMin, pn.YMax) || pn.YMin > pn.YMax || pn.LogY && (pn.YMin != 0 || pn.YMax != 0) && pn.YMin <= 0 {
			return fmt.Errorf("plots: trace panel %d (%q): y range [%v, %v] is empty or not positive on a log axis", i, pn.YLabel, pn.YMin, pn.YMax)
		}
	}
	return checkSize(t.Width, t.Height)
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (t *TraceChart) Write(w io.Writer, format string) error {
	if err := t.validate(); err != nil {
		return err
	}
	width, height := t.Width, t.Height
	if width == 0 {
		width = 16 * vg.Centimeter
	}
	if height == 0 {
		height = vg.Length(len(t.Panels))*4*vg.Centimeter + 2*vg.Centimeter
	}
	c, err := newCanvas(format, width, height)
	if err != nil {
		return err
	}
	rows := make([][]*plot.Plot, len(t.Panels))
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for i, pn := range t.Panels {
		p := newGridPlot("", "", pn.YLabel)
		if err := addBands(p, pn.Series, 0); err != nil {
			return fmt.Errorf("plots: trace panel %d: %w", i, err)
		}
		p.Legend.Top = true
		if pn.YMin != 0 || pn.YMax != 0 {
			p.Y.Min, p.Y.Max = pn.YMin, pn.YMax
		}
		if pn.LogY {
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			p.Y.Min, p.Y.Max = logRange(p.Y.Min, p.Y.Max)
		}
		xmin, xmax = min(xmin, p.X.Min), max(xmax, p.X.Max)
		if i == 0 {
			p.Title.Text = t.Title
		}
		if i == len(t.Panels)-1 {
			p.X.Label.Text = t.XLabel
		}
		rows[i] = []*plot.Plot{p}
	}
	for _, r := range rows {
		r[0].X.Min, r[0].X.Max = xmin, xmax
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadY: vg.Points(6)}
	dc := draw.New(c)
	canvases := plot.Align(rows, tiles, dc)
	for i := range rows {
		rows[i][0].Draw(canvases[i][0])
	}
	return writeCanvas(w, c, format)
}

// RefLine is a labelled vertical line across a [SliceChart], for instance at
// the paper's value of the parameter or at the best one found.
type RefLine struct {
	X     float64
	Label string
}

// SliceChart is a one-dimensional slice of a surface: series of values
// with error bars (for instance the win rate with its 95 % interval along
// P_ob, the other parameters fixed), an optional logarithmic horizontal
// axis and labelled reference lines.
type SliceChart struct {
	Series                []Series
	Title, XLabel, YLabel string
	// LogX puts the horizontal axis on a logarithmic scale (x > 0).
	LogX bool
	// Refs are drawn as dashed vertical lines, in the colours after the
	// series', with legend entries.
	Refs []RefLine
	// YMin and YMax fix the vertical range; both 0 means automatic.
	YMin, YMax float64
	// Width and Height are the figure's size; 0 means 16 cm x 10 cm.
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn.
func (s *SliceChart) validate() error {
	if len(s.Series) == 0 {
		return fmt.Errorf("plots: slice chart %q has no series", s.Title)
	}
	for i := range s.Series {
		if err := s.Series[i].validate(i); err != nil {
			return err
		}
		if s.LogX {
			for j, x := range s.Series[i].X {
				if x <= 0 {
					return fmt.Errorf("plots: slice chart series %d (%q): x[%d] = %v is not positive on a log axis", i, s.Series[i].Name, j, x)
				}
			}
		}
	}
	for i, r := range s.Refs {
		if !finite(r.X) || s.LogX && r.X <= 0 {
			return fmt.Errorf("plots: reference line %d (%q) at x = %v is not finite or not positive on a log axis", i, r.Label, r.X)
		}
	}
	if !finite(s.YMin, s.YMax) || s.YMin > s.YMax {
		return fmt.Errorf("plots: slice chart y range [%v, %v] is empty", s.YMin, s.YMax)
	}
	return nil
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (s *SliceChart) Write(w io.Writer, format string) error {
	if err := s.validate(); err != nil {
		return err
	}
	p, err := newLinePlot(s.Title, s.XLabel, s.YLabel, s.Series, s.YMin, s.YMax)
	if err != nil {
		return err
	}
	// The reference lines span the data's vertical range.
	for _, r := range s.Refs {
		p.X.Min, p.X.Max = min(p.X.Min, r.X), max(p.X.Max, r.X)
	}
	for i, r := range s.Refs {
		l, err := plotter.NewLine(plotter.XYs{{X: r.X, Y: p.Y.Min}, {X: r.X, Y: p.Y.Max}})
		if err != nil {
			return fmt.Errorf("plots: reference line %d: %w", i, err)
		}
		l.Color = plotutil.Color(len(s.Series) + i)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1.5)
		p.Add(l)
		if r.Label != "" {
			p.Legend.Add(r.Label, l)
		}
	}
	if s.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max = logRange(p.X.Min, p.X.Max)
	}
	return writePlot(w, format, p, s.Width, s.Height)
}

// logRange widens an empty range of positive values on a log axis to
// half a decade either way; gonum would widen it by 1 either way, reaching
// zero or below, where a log axis has no ticks.
func logRange(lo, hi float64) (float64, float64) {
	if lo < hi {
		return lo, hi
	}
	f := math.Sqrt(10)
	return lo / f, hi * f
}
