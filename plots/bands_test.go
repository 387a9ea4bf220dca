package plots

import (
	"bytes"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

// convergence returns the mean and best series of a made-up search: win
// rates rising towards 0.4 with 95 % intervals shrinking over the
// generations.
func convergence(n int) (mean, best Series) {
	mean, best = Series{Name: "mean"}, Series{Name: "best"}
	for g := range n {
		x := float64(g)
		m, h := 0.4-0.2*math.Exp(-x/5), 0.1/math.Sqrt(x+1)
		mean.X, mean.Y = append(mean.X, x), append(mean.Y, m)
		mean.Lo, mean.Hi = append(mean.Lo, m-h), append(mean.Hi, m+h)
		b := m + 0.03
		best.X, best.Y = append(best.X, x), append(best.Y, b)
		best.Lo, best.Hi = append(best.Lo, b-h), append(best.Hi, b+h)
	}
	return mean, best
}

func TestLineChartBands(t *testing.T) {
	t.Parallel()
	mean, best := convergence(20)
	b := LineChart{Series: []Series{mean, best, {Name: "paper", X: []float64{0, 19}, Y: []float64{0.3, 0.3}}},
		Title: "CMA-ES", XLabel: "generation", YLabel: "win rate", YMin: 0, YMax: 0.7, Bands: true}
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf, "svg"))
	svg := buf.String()
	// Two translucent bands (mean, best), none for the plain line.
	assert.Equal(t, 2, strings.Count(svg, "fill-opacity:0.25"), "bands")
	for _, s := range []string{">mean<", ">best<", ">paper<", ">generation<", ">win rate<"} {
		assert.Contains(t, svg, s)
	}

	dir := t.TempDir()
	assertSaved(t, saveTo(&b), dir, "conv", 5000, "png", "svg")

	bad := []struct {
		name string
		b    LineChart
		err  string
	}{
		{"empty", LineChart{Title: "t", Bands: true}, `line chart "t" has no series`},
		{"outside", LineChart{Series: []Series{{Name: "m", X: []float64{1}, Y: []float64{2}, Lo: []float64{0}, Hi: []float64{1}}}, Bands: true}, "y 2 outside its error bar [0, 1]"},
		{"range", LineChart{Series: []Series{mean}, YMin: 1, YMax: 0, Bands: true}, "y range [1, 0] is empty"},
		{"infinite", LineChart{Series: []Series{mean}, YMax: math.Inf(1), Bands: true}, "y range [0, +Inf] is empty"},
	}
	for _, tt := range bad {
		assert.ErrorContains(t, tt.b.validate(), tt.err, tt.name)
		assert.ErrorContains(t, Save(filepath.Join(dir, "bad.png"), &tt.b), tt.err, tt.name)
	}
	assert.NoFileExists(t, filepath.Join(dir, "bad.png"))
}

func TestTraceChart(t *testing.T) {
	t.Parallel()
	var wp, pob Series
	wp.Name, pob.Name = "mean", "mean"
	for g := range 15 {
		x := float64(g)
		sd := 0.1 * math.Exp(-x/10)
		w := 0.5 + 0.24*(1-math.Exp(-x/4))
		wp.X, wp.Y, wp.Lo, wp.Hi = append(wp.X, x), append(wp.Y, w), append(wp.Lo, w-sd), append(wp.Hi, w+sd)
		p := 50 * math.Pow(170.0/50, 1-math.Exp(-x/4))
		pob.X, pob.Y = append(pob.X, x), append(pob.Y, p)
		pob.Lo, pob.Hi = append(pob.Lo, p/math.Exp(sd*5)), append(pob.Hi, p*math.Exp(sd*5))
	}
	tc := TraceChart{Title: "parameter traces", XLabel: "generation", Panels: []TracePanel{
		{YLabel: "W_p", Series: []Series{wp}, YMin: 0, YMax: 1},
		{YLabel: "P_ob", Series: []Series{pob}, LogY: true},
	}}
	var buf bytes.Buffer
	require.NoError(t, tc.Write(&buf, "svg"))
	svg := buf.String()
	for _, s := range []string{">W_p<", ">P_ob<", ">generation<", ">parameter traces<", ">100<"} {
		assert.Contains(t, svg, s)
	}
	assert.Equal(t, 1, strings.Count(svg, ">generation<"), "one shared x label")
	assert.Equal(t, 2, strings.Count(svg, "fill-opacity:0.25"), "a band per panel")

	dir := t.TempDir()
	assertSaved(t, saveTo(&tc), dir, "traces", 5000, "png", "svg")

	bad := []struct {
		name string
		tc   TraceChart
		err  string
	}{
		{"empty", TraceChart{Title: "t"}, `trace chart "t" has no panels`},
		{"no series", TraceChart{Panels: []TracePanel{{YLabel: "G_l"}}}, `trace panel 0 ("G_l") has no series`},
		{"log", TraceChart{Panels: []TracePanel{{YLabel: "P_db", LogY: true, Series: []Series{{X: []float64{0}, Y: []float64{0}}}}}}, `trace panel 0 ("P_db"): series 0 point 0 is not positive`},
		{"range", TraceChart{Panels: []TracePanel{{YLabel: "W_p", Series: []Series{wp}, YMin: 2, YMax: 1}}}, "y range [2, 1]"},
		{"series", TraceChart{Panels: []TracePanel{{YLabel: "W_p", Series: []Series{{X: []float64{0}}}}}}, "1 x values and 0 y values"},
	}
	for _, tt := range bad {
		assert.ErrorContains(t, tt.tc.validate(), tt.err, tt.name)
	}
}

func TestSliceChart(t *testing.T) {
	t.Parallel()
	s := Series{Name: "win rate"}
	for _, p := range []float64{10, 30, 100, 300, 1000} {
		v := 0.4 - 0.05*math.Pow(math.Log10(p/170), 2)
		s.X, s.Y, s.Lo, s.Hi = append(s.X, p), append(s.Y, v), append(s.Lo, v-0.02), append(s.Hi, v+0.02)
	}
	sc := SliceChart{Series: []Series{s}, LogX: true, Title: "W_p = 0.74", XLabel: "P_ob", YLabel: "win rate",
		Refs: []RefLine{{X: 170, Label: "paper"}, {X: 100, Label: "best"}}}
	var buf bytes.Buffer
	require.NoError(t, sc.Write(&buf, "svg"))
	svg := buf.String()
	for _, x := range []string{">paper<", ">best<", ">10<", ">100<", ">1000<", ">P_ob<"} {
		assert.Contains(t, svg, x)
	}
	dir := t.TempDir()
	assertSaved(t, saveTo(&sc), dir, "slice", 5000, "png", "svg")
	// A reference line outside the data widens the axis to show it.
	wide := SliceChart{Series: []Series{{X: []float64{1, 2}, Y: []float64{0, 1}}}, Refs: []RefLine{{X: 5}}}
	require.NoError(t, wide.Write(&bytes.Buffer{}, "svg"))

	bad := []struct {
		name string
		sc   SliceChart
		err  string
	}{
		{"empty", SliceChart{Title: "t"}, `slice chart "t" has no series`},
		{"log", SliceChart{Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{0, 1}}}, LogX: true}, `series 0 ("a"): x[0] = 0 is not positive`},
		{"ref", SliceChart{Series: []Series{s}, LogX: true, Refs: []RefLine{{X: -1, Label: "r"}}}, `reference line 0 ("r") at x = -1`},
		{"range", SliceChart{Series: []Series{s}, YMin: math.NaN()}, "y range [NaN, 0] is empty"},
	}
	for _, tt := range bad {
		assert.ErrorContains(t, tt.sc.validate(), tt.err, tt.name)
	}
}

// TestIntervalBarChartNegative checks that IntervalBarChart draws
// negative values (bars down from zero) with their whiskers; it marks no
// zero line, which EffectChart adds.
func TestIntervalBarChartNegative(t *testing.T) {
	t.Parallel()
	b := IntervalBarChart{
		Categories: []string{"a", "b"}, Values: []float64{0.03, -0.01}, Lo: []float64{0.01, -0.03}, Hi: []float64{0.05, 0.01},
	}
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf, "svg"))
	assert.Contains(t, buf.String(), ">-0.03<")
}

func TestEffectChart(t *testing.T) {
	t.Parallel()
	e := EffectChart{
		Categories: []string{"fortify-borders", "cautious-attack", "card-timing", "early-cards"},
		Values:     []float64{0.031, -0.022, 0.004, 0.010},
		Lo:         []float64{0.012, -0.040, -0.014, 0.001},
		Hi:         []float64{0.050, -0.004, 0.022, 0.019},
		Title:      "effect of each option", YLabel: "win rate difference", SlantLabels: true,
	}
	assert.Equal(t, []int{1, -1, 0, 1}, []int{e.sign(0), e.sign(1), e.sign(2), e.sign(3)})
	var buf bytes.Buffer
	require.NoError(t, e.Write(&buf, "svg"))
	svg := buf.String()
	for _, s := range []string{">fortify-borders<", ">early-cards<", ">interval above 0<", ">interval below 0<", ">interval contains 0<"} {
		assert.Contains(t, svg, s)
	}
	// Bars in their sign's colour: two green, one red, one grey.
	assert.Equal(t, 2+1, strings.Count(svg, hexColour(effectColours[2])), "green bars and legend")
	assert.Equal(t, 1+1, strings.Count(svg, hexColour(effectColours[0])), "red bar and legend")
	assert.Equal(t, 1+1, strings.Count(svg, hexColour(effectColours[1])), "grey bar and legend")

	dir := t.TempDir()
	assertSaved(t, saveTo(&e), dir, "effects", 5000, "png", "svg")
	bad := e
	bad.Lo = []float64{0.04, -0.040, -0.014, 0.001}
	assert.ErrorContains(t, bad.validate(), "plots: interval bar 0 (fortify-borders): value 0.031 outside its interval [0.04, 0.05]")
	assert.ErrorContains(t, (&EffectChart{}).validate(), "0 categories")
}

// TestSearchFiguresDeterministic checks that the search figures give the
// same PNG bytes every time.
func TestSearchFiguresDeterministic(t *testing.T) {
	t.Parallel()
	mean, best := convergence(10)
	const fw, fh = 5 * vg.Centimeter, 4 * vg.Centimeter // small: PNG encoding dominates the cost
	figs := map[string]func(w *bytes.Buffer) error{
		"surface": func(w *bytes.Buffer) error {
			s := Surface{Cells: narrowingCells(func(x, y float64) float64 { return x - y }), Contours: []float64{0, 0.3},
				Windows: []Window{{1, 0.25, 0.5, 0.25, 0.5}}, Best: &Mark{X: 0.3, Y: 0.3}, Width: fw, Height: fh}
			return s.Write(w, "png")
		},
		"bands": func(w *bytes.Buffer) error {
			return (&LineChart{Series: []Series{mean, best}, Width: fw, Height: fh, Bands: true}).Write(w, "png")
		},
		"traces": func(w *bytes.Buffer) error {
			return (&TraceChart{Panels: []TracePanel{{Series: []Series{mean}}}, Width: fw, Height: fh}).Write(w, "png")
		},
		"slice": func(w *bytes.Buffer) error {
			return (&SliceChart{Series: []Series{best}, Refs: []RefLine{{X: 3}}, Width: fw, Height: fh}).Write(w, "png")
		},
		"effects": func(w *bytes.Buffer) error {
			return (&EffectChart{Categories: []string{"a"}, Values: []float64{1}, Lo: []float64{0.5}, Hi: []float64{2}, Width: fw, Height: fh}).Write(w, "png")
		},
	}
	for name, write := range figs {
		var a, b bytes.Buffer
		require.NoError(t, write(&a), name)
		require.NoError(t, write(&b), name)
		assert.True(t, bytes.Equal(a.Bytes(), b.Bytes()), "%s: two PNGs differ", name)
	}
}

// TestDegenerateFigures draws figures at the edges of what Validate
// accepts: one point, one cell, an empty range on a log axis, NaN cells
// under contours, a zero effect. None may fail or panic.
func TestDegenerateFigures(t *testing.T) {
	t.Parallel()
	g := NewGrid([]float64{1, 2, 3, 4}, []float64{1, 2, 3}, func(x, y float64) float64 { return x - y })
	g.Z[5] = math.NaN()
	one := Grid{X: []float64{1}, Y: []float64{1}, Z: []float64{3}}
	point := []Series{{X: []float64{1}, Y: []float64{1}}}
	figs := map[string]interface {
		Write(w io.Writer, format string) error
	}{
		"grid with NaN and contours": &Surface{Grid: g, Contours: []float64{0, 1}},
		"disjoint cells":             &Surface{Cells: []Cell{{0, 1, 0, 1, 0.2}, {2, 3, 2, 3, 0.8}}, Contours: []float64{0.5}},
		"one grid point, log x":      &Surface{Grid: one, LogX: true},
		"one grid point":             &Surface{Grid: one},
		"one cell, log axes":         &Surface{Cells: []Cell{{1, 2, 1, 2, 0.5}}, LogX: true, LogY: true, Windows: []Window{{0, 1.2, 1.5, 1.2, 1.5}}},
		"one trace point, log y":     &TraceChart{Panels: []TracePanel{{LogY: true, Series: point}}},
		"one slice point, log x":     &SliceChart{Series: point, LogX: true},
		"one x, log x":               &SliceChart{Series: []Series{{X: []float64{1e-9, 1e-9}, Y: []float64{1, 2}}}, LogX: true},
		"one band point":             &LineChart{Series: []Series{{X: []float64{1}, Y: []float64{1}, Lo: []float64{0}, Hi: []float64{2}}}, Bands: true},
		"zero effect":                &EffectChart{Categories: []string{"a"}, Values: []float64{0}, Lo: []float64{0}, Hi: []float64{0}},
	}
	for name, f := range figs {
		assert.NoError(t, f.Write(&bytes.Buffer{}, "svg"), name)
	}
}
