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

// StackedBarChart is a figure of one vertical bar per category, each bar
// the stack of its layers: layer 0 at the bottom, each next layer on top
// of the previous ones, with a legend naming the layers.
type StackedBarChart struct {
	// Categories label the bars along the horizontal axis.
	Categories []string
	// Layers hold one non-negative value per category each; [BarGroup.Name]
	// is the layer's legend entry.
	Layers        []BarGroup
	Title, YLabel string
	// SlantLabels draws the category labels slanted, so that long or many
	// labels do not overlap.
	SlantLabels   bool
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn: categories, layers of
// one finite non-negative value per category.
func (s *StackedBarChart) validate() error {
	if len(s.Categories) == 0 || len(s.Layers) == 0 {
		return fmt.Errorf("plots: stacked bar chart %q needs categories and layers, has %d and %d", s.Title, len(s.Categories), len(s.Layers))
	}
	for i, l := range s.Layers {
		if len(l.Values) != len(s.Categories) {
			return fmt.Errorf("plots: stacked layer %d (%q) has %d values for %d categories", i, l.Name, len(l.Values), len(s.Categories))
		}
		for j, v := range l.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("plots: stacked layer %d (%q): value %d (%s) is %v, want a finite value >= 0", i, l.Name, j, s.Categories[j], v)
			}
		}
	}
	return nil
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (s *StackedBarChart) Write(w io.Writer, format string) error {
	p, width, height, barW, err := categoryPlot(s.validate, s.Title, s.YLabel, s.Width, s.Height, len(s.Categories))
	if err != nil {
		return err
	}
	var below *plotter.BarChart
	for i, l := range s.Layers {
		bars, err := plotter.NewBarChart(plotter.Values(l.Values), barW)
		if err != nil {
			return fmt.Errorf("plots: stacked layer %d: %w", i, err)
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		if below != nil {
			bars.StackOn(below)
		}
		below = bars
		p.Add(bars)
		if l.Name != "" {
			p.Legend.Add(l.Name, bars)
		}
	}
	p.Legend.Top = true
	nominalX(p, s.Categories, s.SlantLabels)
	p.X.Min, p.X.Max = -0.5, float64(len(s.Categories))-0.5
	// Headroom above the tallest bar for the legend, one line per layer.
	p.Y.Min = 0
	p.Y.Max *= 1 + 0.1*float64(len(s.Layers))
	return writePlot(w, format, p, width, height)
}

// IntervalBarChart is a figure of one vertical bar per category with a
// whisker from Lo to Hi on each bar (for instance a 95 % confidence
// interval).
type IntervalBarChart struct {
	// Categories label the bars along the horizontal axis.
	Categories []string
	// Values are the bar heights, Lo and Hi the whisker ends, one per
	// category each, with Lo[i] <= Values[i] <= Hi[i].
	Values, Lo, Hi []float64
	Title, YLabel  string
	// SlantLabels draws the category labels slanted, so that long or many
	// labels do not overlap.
	SlantLabels   bool
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn.
func (b *IntervalBarChart) validate() error {
	n := len(b.Categories)
	if n == 0 || len(b.Values) != n || len(b.Lo) != n || len(b.Hi) != n {
		return fmt.Errorf("plots: interval bar chart %q: %d categories with %d values, %d lo and %d hi: want the same number > 0",
			b.Title, n, len(b.Values), len(b.Lo), len(b.Hi))
	}
	for i := range n {
		for _, v := range []float64{b.Values[i], b.Lo[i], b.Hi[i]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plots: interval bar %d (%s): %v is not finite", i, b.Categories[i], v)
			}
		}
		if !(b.Lo[i] <= b.Values[i] && b.Values[i] <= b.Hi[i]) {
			return fmt.Errorf("plots: interval bar %d (%s): value %v outside its interval [%v, %v]", i, b.Categories[i], b.Values[i], b.Lo[i], b.Hi[i])
		}
	}
	return nil
}

// intervalXY adapts an [IntervalBarChart] to [plotter.XYer] and
// [plotter.YErrorer]: point i is (i, Values[i]).
type intervalXY struct{ b *IntervalBarChart }

func (a intervalXY) Len() int                    { return len(a.b.Values) }
func (a intervalXY) XY(i int) (float64, float64) { return float64(i), a.b.Values[i] }
func (a intervalXY) YError(i int) (float64, float64) {
	return a.b.Values[i] - a.b.Lo[i], a.b.Hi[i] - a.b.Values[i]
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (b *IntervalBarChart) Write(w io.Writer, format string) error {
	p, width, height, barW, err := categoryPlot(b.validate, b.Title, b.YLabel, b.Width, b.Height, len(b.Categories))
	if err != nil {
		return err
	}
	bars, err := plotter.NewBarChart(plotter.Values(b.Values), barW)
	if err != nil {
		return fmt.Errorf("plots: interval bars: %w", err)
	}
	bars.Color = plotutil.Color(0)
	bars.LineStyle.Width = 0
	eb, err := plotter.NewYErrorBars(intervalXY{b})
	if err != nil {
		return fmt.Errorf("plots: interval whiskers: %w", err)
	}
	eb.CapWidth = barW / 3
	eb.LineStyle.Width = vg.Points(1.2)
	p.Add(bars, eb)
	nominalX(p, b.Categories, b.SlantLabels)
	p.X.Min, p.X.Max = -0.5, float64(len(b.Categories))-0.5
	return writePlot(w, format, p, width, height)
}

// nominalX names the positions 0, 1, ... of the horizontal axis, the
// names slanted by 30 degrees when slant is set.
func nominalX(p *plot.Plot, names []string, slant bool) {
	p.NominalX(names...)
	if slant {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
}
