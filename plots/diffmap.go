package plots

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DiffMap draws a table of differences as coloured cells: one row per
// entry of Rows (top to bottom) and one column per entry of Columns, each
// cell coloured on a diverging scale centred on 0 (the blue-red map from
// -Limit to +Limit, its light grey middle at 0), and the cells not marked Significant
// crossed out by two thin grey diagonals. NaN cells are left blank.
type DiffMap struct {
	Title string
	// Rows and Columns name the rows and columns.
	Rows, Columns []string
	// Values holds one value per cell, row-major: Values[r*len(Columns)+c].
	Values []float64
	// Significant marks the cells whose difference is shown different from
	// 0 (same layout as Values; nil marks none).
	Significant []bool
	// Limit is the colour scale's half range, > 0 (0 = the largest
	// absolute value, or 1 when every value is 0 or NaN).
	Limit float64
	// ColorLabel labels the colour bar.
	ColorLabel string
	// Width and Height are the figure size (0: 16 cm and 12 cm).
	Width, Height vg.Length
}

// validate reports whether the map is well formed.
func (d *DiffMap) validate() error {
	n := len(d.Rows) * len(d.Columns)
	switch {
	case n == 0:
		return errors.New("plots: diff map: no rows or no columns")
	case len(d.Values) != n:
		return fmt.Errorf("plots: diff map: %d values for %d x %d cells", len(d.Values), len(d.Rows), len(d.Columns))
	case d.Significant != nil && len(d.Significant) != n:
		return fmt.Errorf("plots: diff map: %d significance marks for %d cells", len(d.Significant), n)
	case d.Limit < 0 || math.IsNaN(d.Limit) || math.IsInf(d.Limit, 0):
		return fmt.Errorf("plots: diff map: limit %v: want a finite number >= 0", d.Limit)
	}
	for i, v := range d.Values {
		if math.IsInf(v, 0) {
			return fmt.Errorf("plots: diff map: value %d is infinite", i)
		}
	}
	return checkSize(d.Width, d.Height)
}

// colourRange returns the ends of the colour scale, -L and +L.
func (d *DiffMap) colourRange() (lo, hi float64, err error) {
	if err := d.validate(); err != nil {
		return 0, 0, err
	}
	l := d.Limit
	if l == 0 {
		for _, v := range d.Values {
			if !math.IsNaN(v) {
				l = max(l, math.Abs(v))
			}
		}
	}
	if l == 0 {
		l = 1
	}
	return -l, l, nil
}

// Write draws the map to w in format "png", "svg" or "pdf".
func (d *DiffMap) Write(w io.Writer, format string) error {
	cc, err := newColourCanvas(format, d.Width, d.Height, "blue-red", d.validate, d.colourRange)
	if err != nil {
		return err
	}
	nc, nr := len(d.Columns), len(d.Rows)
	p := newTitledPlot(d.Title, "", "")
	p.Add(&diffCells{d: d, cc: cc})
	nominalX(p, d.Columns, nc > 4)
	// Row 0 at the top: row r is drawn at y = nr-1-r.
	names := make([]string, nr)
	for r, n := range d.Rows {
		names[nr-1-r] = n
	}
	p.NominalY(names...)
	p.X.Min, p.X.Max = -0.5, float64(nc)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(nr)-0.5
	drawWithColourBar(cc.c, p, cc.cm, cc.lo, cc.hi, d.ColorLabel, cc.width, cc.height, nil)
	return writeCanvas(w, cc.c, format)
}

// diffCells draws the cells of a [DiffMap].
type diffCells struct {
	d  *DiffMap
	cc colourCanvas
}

// Plot implements [plot.Plotter].
func (dc *diffCells) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	d := dc.d
	nc, nr := len(d.Columns), len(d.Rows)
	const overlap = vg.Length(0.5)
	cross := draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.8)}
	var pa vg.Path
	for r := range nr {
		y := float64(nr - 1 - r)
		y0, y1 := trY(y-0.5), trY(y+0.5)+overlap
		for col := range nc {
			k := r*nc + col
			v := d.Values[k]
			if math.IsNaN(v) {
				continue
			}
			clr, err := dc.cc.cm.At(min(max(v, dc.cc.lo), dc.cc.hi))
			if err != nil {
				continue // cannot happen: v is clamped into the map's range
			}
			x0, x1 := trX(float64(col)-0.5), trX(float64(col)+0.5)+overlap
			pa = fillRect(c, pa, x0, y0, x1, y1, clr)
			if d.Significant == nil || !d.Significant[k] {
				c.StrokeLine2(cross, x0, y0, x1, y1)
				c.StrokeLine2(cross, x0, y1, x1, y0)
			}
		}
	}
}
