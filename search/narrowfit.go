package search

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// quadFeatures returns the features of a full quadratic in u: 1, u_i, and
// u_i·u_j for i <= j.
func quadFeatures(u []float64) []float64 {
	f := []float64{1}
	f = append(f, u...)
	for i := range u {
		for j := i; j < len(u); j++ {
			f = append(f, u[i]*u[j])
		}
	}
	return f
}

// fittedBest returns the cell alive of l whose win rate, as a quadratic in
// the normalised coordinates fitted by weighted least squares to every
// cell of the level that played (weights: its blocks), is highest: the
// level's optimum read from all its cells rather than from the single best
// one, whose lead is mostly noise when many cells are close. It returns
// l.Best when the cells are too few for the fit or the fit fails.
func fittedBest(l *Level) int {
	var rows [][]float64
	var y, w []float64
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Games == 0 {
			continue
		}
		rows = append(rows, quadFeatures(cell.U))
		y = append(y, cell.mean())
		w = append(w, float64(len(cell.Scores)))
	}
	if len(rows) == 0 || len(rows) < len(rows[0])+2 {
		return l.Best
	}
	p := len(rows[0])
	a := mat.NewDense(len(rows), p, nil)
	b := mat.NewVecDense(len(rows), nil)
	for i, r := range rows {
		sw := math.Sqrt(w[i])
		for j, v := range r {
			a.Set(i, j, v*sw)
		}
		b.SetVec(i, y[i]*sw)
	}
	var beta mat.VecDense
	if err := beta.SolveVec(a, b); err != nil {
		return l.Best
	}
	best, bv := l.Best, -1e300
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Dropped >= 0 || cell.Games == 0 {
			continue
		}
		f := quadFeatures(cell.U)
		var v float64
		for j, x := range f {
			v += beta.AtVec(j) * x
		}
		if v > bv {
			best, bv = c, v
		}
	}
	return best
}
