package plots

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// EffectChart is a figure of effects with confidence intervals, one bar per
// category, for instance the change in win rate each named option of a bot
// brings, with its 95 % interval. Unlike [IntervalBarChart] it draws a solid
// line at zero and colours each bar by what its interval says: green when
// the interval lies above zero, red when below, grey when it contains zero.
type EffectChart struct {
	// Categories label the bars along the horizontal axis.
	Categories []string
	// Values are the effects, Lo and Hi their intervals' ends, one per
	// category each, with Lo[i] <= Values[i] <= Hi[i].
	Values, Lo, Hi []float64
	Title, YLabel  string
	// SlantLabels draws the category labels slanted by 30 degrees.
	SlantLabels   bool
	Width, Height vg.Length
}

// validate reports whether the chart can be drawn.
func (e *EffectChart) validate() error {
	return e.bars().validate()
}

// bars is the chart as an [IntervalBarChart] (for validation and whiskers).
func (e *EffectChart) bars() *IntervalBarChart {
	return &IntervalBarChart{Categories: e.Categories, Values: e.Values, Lo: e.Lo, Hi: e.Hi, Title: e.Title}
}

// sign classifies effect i: +1 if its interval lies above zero, -1 if
// below, 0 if it contains zero.
func (e *EffectChart) sign(i int) int {
	switch {
	case e.Lo[i] > 0:
		return 1
	case e.Hi[i] < 0:
		return -1
	}
	return 0
}

// effectColours are the bar colours of sign -1, 0 and +1.
var effectColours = [3]color.Color{
	color.RGBA{R: 0xd6, G: 0x3c, B: 0x3c, A: 0xff}, // below zero
	color.RGBA{R: 0xb0, G: 0xb0, B: 0xb0, A: 0xff}, // contains zero
	color.RGBA{R: 0x3c, G: 0x9a, B: 0x4a, A: 0xff}, // above zero
}

// Write draws the chart to w in format "png", "svg" or "pdf".
func (e *EffectChart) Write(w io.Writer, format string) error {
	p, width, height, barW, err := categoryPlot(e.validate, e.Title, e.YLabel, e.Width, e.Height, len(e.Categories))
	if err != nil {
		return err
	}
	legend := [3]*plotter.BarChart{}
	for i, v := range e.Values {
		bar, err := plotter.NewBarChart(plotter.Values{v}, barW)
		if err != nil {
			return fmt.Errorf("plots: effect bar %d: %w", i, err)
		}
		bar.XMin = float64(i)
		bar.Color = effectColours[e.sign(i)+1]
		bar.LineStyle.Width = 0
		p.Add(bar)
		if legend[e.sign(i)+1] == nil {
			legend[e.sign(i)+1] = bar
		}
	}
	for k, name := range []string{"interval below 0", "interval contains 0", "interval above 0"} {
		if legend[k] != nil {
			p.Legend.Add(name, legend[k])
		}
	}
	eb, err := plotter.NewYErrorBars(intervalXY{e.bars()})
	if err != nil {
		return fmt.Errorf("plots: effect whiskers: %w", err)
	}
	eb.CapWidth = barW / 3
	eb.LineStyle.Width = vg.Points(1.2)
	p.Add(eb)
	n := float64(len(e.Categories))
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: n - 0.5, Y: 0}})
	if err != nil {
		return fmt.Errorf("plots: zero line: %w", err)
	}
	zero.Color, zero.Width = color.Black, vg.Points(1)
	p.Add(zero)
	nominalX(p, e.Categories, e.SlantLabels)
	p.X.Min, p.X.Max = -0.5, n-0.5
	p.Legend.Top = true
	// Headroom for the legend.
	p.Y.Max += 0.15 * (p.Y.Max - p.Y.Min)
	return writePlot(w, format, p, width, height)
}
