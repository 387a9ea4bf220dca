package plots

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a [LineChart]: the points (X[i], Y[i]) joined in
// order, with optional error bars from Lo[i] to Hi[i] (for instance a
// 95 % confidence interval); Lo and Hi are both nil or both as long as X.
type Series struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64
}

// validate reports whether the series is well formed; i is its index.
func (s *Series) validate(i int) error {
	if len(s.X) == 0 || len(s.X) != len(s.Y) {
		return fmt.Errorf("plots: series %d (%q): %d x values and %d y values, want the same number > 0", i, s.Name, len(s.X), len(s.Y))
	}
	if (s.Lo == nil) != (s.Hi == nil) || (s.Lo != nil && (len(s.Lo) != len(s.X) || len(s.Hi) != len(s.X))) {
		return fmt.Errorf("plots: series %d (%q): error bars need Lo and Hi of %d values each, have %d and %d", i, s.Name, len(s.X), len(s.Lo), len(s.Hi))
	}
	for j := range s.X {
		for _, v := range []float64{s.X[j], s.Y[j]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plots: series %d (%q): point %d (%v, %v) is not finite", i, s.Name, j, s.X[j], s.Y[j])
			}
		}
		if s.Lo != nil && !(s.Lo[j] <= s.Y[j] && s.Y[j] <= s.Hi[j]) {
			return fmt.Errorf("plots: series %d (%q): point %d: y %v outside its error bar [%v, %v]", i, s.Name, j, s.Y[j], s.Lo[j], s.Hi[j])
		}
	}
	return nil
}

// seriesXY adapts a Series to [plotter.XYer] and [plotter.YErrorer].
type seriesXY struct{ s *Series }

func (a seriesXY) Len() int                    { return len(a.s.X) }
func (a seriesXY) XY(i int) (float64, float64) { return a.s.X[i], a.s.Y[i] }
func (a seriesXY) YError(i int) (float64, float64) {
	return a.s.Y[i] - a.s.Lo[i], a.s.Hi[i] - a.s.Y[i]
}

// addLines adds the series to p as lines with point markers, error bars
// where they have Lo and Hi, and legend entries where they have a name;
// series i takes plotutil's colour, dashes and marker shape i.
func addLines(p *plot.Plot, series []Series) error {
	for i := range series {
		s := &series[i]
		line, points, err := plotter.NewLinePoints(seriesXY{s})
		if err != nil {
			return fmt.Errorf("plots: series %d: %w", i, err)
		}
		line.Color, line.Dashes = plotutil.Color(i), plotutil.Dashes(i)
		points.Color, points.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(line, points)
		if s.Lo != nil {
			eb, err := plotter.NewYErrorBars(seriesXY{s})
			if err != nil {
				return fmt.Errorf("plots: series %d: %w", i, err)
			}
			eb.Color = plotutil.Color(i)
			p.Add(eb)
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, line, points)
		}
	}
	return nil
}

// LineChart is a figure of one or more series drawn as lines with a
// legend: with point markers and error bars from Lo to Hi, or, with
// Bands, as plain lines with shaded interval bands from Lo to Hi (for
// instance a search's distribution mean and best candidate per
// generation, each with its 95 % confidence interval). A series without
// Lo and Hi is a line alone.
type LineChart struct {
	Series                []Series
	Title, XLabel, YLabel string
	// YMin and YMax fix the vertical range; both 0 means automatic
	// (with Bands, with room above the data for the legend).
	YMin, YMax float64
	// Width and Height are the figure's size; 0 means 16 cm x 10 cm.
	Width, Height vg.Length
	// Bands draws the intervals as shaded bands and the lines without
	// markers.
	Bands bool
}

// validate reports whether the chart can be drawn.
func (l *LineChart) validate() error {
	if len(l.Series) == 0 {
		return fmt.Errorf("plots: line chart %q has no series", l.Title)
	}
	for i := range l.Series {
		if err := l.Series[i].validate(i); err != nil {
			return err
		}
	}
	if math.IsNaN(l.YMin) || math.IsNaN(l.YMax) || l.YMin > l.YMax || l.Bands && !finite(l.YMin, l.YMax) {
		return fmt.Errorf("plots: line chart y range [%v, %v] is empty", l.YMin, l.YMax)
	}
	return nil
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (l *LineChart) Write(w io.Writer, format string) error {
	if err := l.validate(); err != nil {
		return err
	}
	if l.Bands {
		p := newGridPlot(l.Title, l.XLabel, l.YLabel)
		if err := addBands(p, l.Series, 0); err != nil {
			return err
		}
		p.Legend.Top = true
		if l.YMin != 0 || l.YMax != 0 {
			p.Y.Min, p.Y.Max = l.YMin, l.YMax
		} else {
			p.Y.Min, p.Y.Max = legendRoom(l.Series)
		}
		return writePlot(w, format, p, l.Width, l.Height)
	}
	p, err := newLinePlot(l.Title, l.XLabel, l.YLabel, l.Series, l.YMin, l.YMax)
	if err != nil {
		return err
	}
	return writePlot(w, format, p, l.Width, l.Height)
}

// legendRoom returns a vertical range for the lines and bands of series
// that leaves the top right corner, where the legend stands, above the
// data: a margin of a twentieth of the data's range below, and room for
// one legend line (a tenth of the range) per named series above.
func legendRoom(series []Series) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	named := 0
	for _, s := range series {
		if s.Name != "" {
			named++
		}
		for i, y := range s.Y {
			lo, hi = min(lo, y), max(hi, y)
			if s.Lo != nil {
				lo, hi = min(lo, s.Lo[i]), max(hi, s.Hi[i])
			}
		}
	}
	r := hi - lo
	if !(r > 0) {
		r = 1
	}
	return lo - r/20, hi + r*float64(named)/10
}

// BarGroup is one group of a [BarChart]: one bar per category.
type BarGroup struct {
	Name   string
	Values []float64
}

// BarChart is a figure of grouped vertical bars over named categories.
type BarChart struct {
	// Categories label the positions along the horizontal axis.
	Categories []string
	// Groups hold the bars; each has one value per category and its own
	// colour, and the groups stand side by side.
	Groups        []BarGroup
	Title, YLabel string
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn.
func (b *BarChart) validate() error {
	if len(b.Categories) == 0 || len(b.Groups) == 0 {
		return fmt.Errorf("plots: bar chart %q needs categories and groups, has %d and %d", b.Title, len(b.Categories), len(b.Groups))
	}
	for i, g := range b.Groups {
		if len(g.Values) != len(b.Categories) {
			return fmt.Errorf("plots: bar group %d (%q) has %d values for %d categories", i, g.Name, len(g.Values), len(b.Categories))
		}
		for j, v := range g.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plots: bar group %d (%q): value %d (%s) is %v", i, g.Name, j, b.Categories[j], v)
			}
		}
	}
	return nil
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (b *BarChart) Write(w io.Writer, format string) error {
	p, width, height, _, err := categoryPlot(b.validate, b.Title, b.YLabel, b.Width, b.Height, len(b.Categories))
	if err != nil {
		return err
	}
	// Share three quarters of each category's slot among the groups.
	slot := (width - 3*vg.Centimeter) / vg.Length(len(b.Categories))
	barW := slot * 0.75 / vg.Length(len(b.Groups))
	for i, g := range b.Groups {
		bars, err := plotter.NewBarChart(plotter.Values(g.Values), barW)
		if err != nil {
			return fmt.Errorf("plots: bar group %d: %w", i, err)
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = barW * (vg.Length(i) - vg.Length(len(b.Groups)-1)/2)
		p.Add(bars)
		if g.Name != "" {
			p.Legend.Add(g.Name, bars)
		}
	}
	p.Legend.Top = true
	p.NominalX(b.Categories...)
	// Half a slot of room either side, and some headroom for the legend.
	p.X.Min, p.X.Max = -0.5, float64(len(b.Categories))-0.5
	p.Y.Max += 0.08 * (p.Y.Max - p.Y.Min)
	return writePlot(w, format, p, width, height)
}

// categoryPlot checks a chart of n categories with validate and returns
// its plot (title, ylabel, a grid, no x label), its size (zero: the
// default) and the width of one bar filling 70 % of a category's slot.
func categoryPlot(validate func() error, title, ylabel string, w, h vg.Length, n int) (p *plot.Plot, width, height, barW vg.Length, err error) {
	if err := validate(); err != nil {
		return nil, 0, 0, 0, err
	}
	width, height = size(w, h)
	return newGridPlot(title, "", ylabel), width, height, (width - 3*vg.Centimeter) / vg.Length(n) * 0.7, nil
}

// size substitutes the default figure size for zero values.
func size(w, h vg.Length) (vg.Length, vg.Length) {
	if w <= 0 {
		w = 16 * vg.Centimeter
	}
	if h <= 0 {
		h = 10 * vg.Centimeter
	}
	return w, h
}

// newTitledPlot returns a plot with the given title and axis labels (empty
// for none).
func newTitledPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	return p
}

// newGridPlot returns a plot with the given title and axis labels (empty
// for none) and a background grid.
func newGridPlot(title, xlabel, ylabel string) *plot.Plot {
	p := newTitledPlot(title, xlabel, ylabel)
	p.Add(plotter.NewGrid())
	return p
}

// newLinePlot returns a grid plot of the series with the legend at the top
// and, unless both are 0, the vertical range [ymin, ymax].
func newLinePlot(title, xlabel, ylabel string, series []Series, ymin, ymax float64) (*plot.Plot, error) {
	p := newGridPlot(title, xlabel, ylabel)
	if err := addLines(p, series); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	if ymin != 0 || ymax != 0 {
		p.Y.Min, p.Y.Max = ymin, ymax
	}
	return p, nil
}

// writePlot draws p on a canvas of the given format and size and writes it.
func writePlot(w io.Writer, format string, p *plot.Plot, width, height vg.Length) error {
	width, height = size(width, height)
	c, err := newCanvas(format, width, height)
	if err != nil {
		return err
	}
	p.Draw(draw.New(c))
	return writeCanvas(w, c, format)
}
