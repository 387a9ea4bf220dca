// A Gaussian-process regression with known, per-point noise
// for the surrogate search of package search: an isotropic Matérn 5/2
// kernel on the unit box, a constant mean, the length scale and signal
// variance chosen by the marginal likelihood over a grid, and the expected
// improvement of a point over a level (Jones, Schonlau and Welch 1998),
// computed on the latent function (the noise-free win rate), which is the
// "plug-in" expected improvement under noise when the level is the best
// posterior mean among the points evaluated (Picheny et al. 2013).
//
// Everything is deterministic: the same data give bit-identical fits.

package search

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// gpModel is a fitted Gaussian process.
type gpModel struct {
	x     [][]float64
	mean  float64
	ls    float64 // length scale
	sf2   float64 // signal variance
	chol  mat.Cholesky
	l     []float64 // the Cholesky factor L, row-major n x n
	v, ks []float64 // scratch of Predict
	alpha *mat.VecDense
	// LogLik is the log marginal likelihood of the data at the chosen
	// hyperparameters.
	LogLik float64
}

// matern52 returns the Matérn 5/2 correlation at distance r for length
// scale ls.
func matern52(r, ls float64) float64 {
	s := math.Sqrt(5) * r / ls
	return (1 + s + s*s/3) * math.Exp(-s)
}

func gpDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// DefaultScales are the length scales Fit tries, in units of the box's
// side times the square root of the dimension.
var defaultScales = []float64{0.08, 0.12, 0.18, 0.27, 0.4, 0.6, 0.9}

// defaultSignal are the signal variances Fit tries, as multiples of the
// data's variance around their mean (at least the mean noise variance).
var defaultSignal = []float64{0.25, 0.5, 1, 2, 4}

// Fit fits a process to the points x (rows in the unit box), observations
// y and the observations' noise variances noise (> 0), choosing the length
// scale and signal variance that maximise the marginal likelihood over a
// fixed grid. It needs at least 2 points.
func gpFit(x [][]float64, y, noise []float64) (*gpModel, error) {
	n := len(x)
	switch {
	case n < 2:
		return nil, errors.New("search: gp: want at least 2 points")
	case len(y) != n || len(noise) != n:
		return nil, fmt.Errorf("search: gp: %d points, %d observations, %d noise variances", n, len(y), len(noise))
	}
	var m, vy, vn float64
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) || !(noise[i] > 0) {
			return nil, fmt.Errorf("search: gp: observation %d: %v with noise variance %v: want finite, noise > 0", i, v, noise[i])
		}
		m += v
		vn += noise[i]
	}
	m /= float64(n)
	vn /= float64(n)
	for _, v := range y {
		vy += (v - m) * (v - m)
	}
	vy = max(vy/float64(n), vn)
	d := math.Sqrt(float64(len(x[0])))
	var best *gpModel
	for _, s := range defaultScales {
		for _, f := range defaultSignal {
			g, err := fitAt(x, y, noise, m, s*d, f*vy)
			if err != nil {
				continue
			}
			if best == nil || g.LogLik > best.LogLik {
				best = g
			}
		}
	}
	if best == nil {
		return nil, errors.New("search: gp: no hyperparameters give a positive definite covariance")
	}
	return best, nil
}

// fitAt fits the process at length scale ls and signal variance sf2.
func fitAt(x [][]float64, y, noise []float64, mean, ls, sf2 float64) (*gpModel, error) {
	n := len(x)
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := sf2 * matern52(gpDist(x[i], x[j]), ls)
			if i == j {
				v += noise[i]
			}
			k.SetSym(i, j, v)
		}
	}
	g := &gpModel{x: x, mean: mean, ls: ls, sf2: sf2}
	if !g.chol.Factorize(k) {
		return nil, errors.New("search: gp: covariance not positive definite")
	}
	var l mat.TriDense
	g.chol.LTo(&l)
	g.l = make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			g.l[i*n+j] = l.At(i, j)
		}
	}
	g.v, g.ks = make([]float64, n), make([]float64, n)
	r := mat.NewVecDense(n, nil)
	for i, v := range y {
		r.SetVec(i, v-mean)
	}
	g.alpha = mat.NewVecDense(n, nil)
	if err := g.chol.SolveVecTo(g.alpha, r); err != nil {
		return nil, fmt.Errorf("search: gp: %w", err)
	}
	g.LogLik = -0.5*mat.Dot(r, g.alpha) - 0.5*g.chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	return g, nil
}

// With returns the process fitted to the data and one more observation y
// of variance noise at point p, with the same hyperparameters (the
// "kriging believer" of a batch: y is the posterior mean at p).
func (g *gpModel) with(p []float64, y, noise float64, ys, noises []float64) (*gpModel, error) {
	x := append(append([][]float64(nil), g.x...), p)
	return fitAt(x, append(append([]float64(nil), ys...), y), append(append([]float64(nil), noises...), noise), g.mean, g.ls, g.sf2)
}

// LengthScale returns the chosen length scale (units of the box's side).
func (g *gpModel) lengthScale() float64 { return g.ls }

// Predict returns the posterior mean and variance of the latent function
// (without noise) at point p. It is not safe for concurrent use (it keeps
// scratch space in the model).
func (g *gpModel) predict(p []float64) (mu, variance float64) {
	n := len(g.x)
	ks, v := g.ks, g.v
	mu = g.mean
	for i, xi := range g.x {
		ks[i] = g.sf2 * matern52(gpDist(p, xi), g.ls)
		mu += ks[i] * g.alpha.AtVec(i)
	}
	// v = L^-1 ks by forward substitution; variance = sf2 - |v|^2.
	var vv float64
	for i := 0; i < n; i++ {
		row := g.l[i*n : i*n+i]
		s := ks[i]
		for j, lij := range row {
			s -= lij * v[j]
		}
		v[i] = s / g.l[i*n+i]
		vv += v[i] * v[i]
	}
	return mu, max(0, g.sf2-vv)
}

// expectedImprovement returns E[max(f - level, 0)] for f normal with mean
// mu and standard deviation sd (maximisation).
func expectedImprovement(mu, sd, level float64) float64 {
	if !(sd > 0) {
		return max(0, mu-level)
	}
	z := (mu - level) / sd
	return (mu-level)*normCDF(z) + sd*normPDF(z)
}

func normPDF(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
