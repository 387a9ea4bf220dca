package plots_test

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/plots"
)

// tempDir returns a new temporary directory for an example's figures.
func tempDir() string {
	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		panic(err)
	}
	return dir
}

func ExampleSurface() {
	// A win rate over (W_p, P_ob) from two levels of a narrowing search:
	// coarse cells over the whole box, finer ones inside the window the
	// search zoomed into. P_ob is on a log scale.
	win := func(wp, pob float64) float64 {
		return 0.45 - 2*(wp-0.74)*(wp-0.74) - 0.1*math.Pow(math.Log10(pob/170), 2)
	}
	var cells []plots.Cell
	level := func(wp0, wp1, lp0, lp1 float64, n int) {
		for i := range n {
			for j := range n {
				x0, x1 := wp0+(wp1-wp0)*float64(i)/float64(n), wp0+(wp1-wp0)*float64(i+1)/float64(n)
				y0, y1 := math.Pow(10, lp0+(lp1-lp0)*float64(j)/float64(n)), math.Pow(10, lp0+(lp1-lp0)*float64(j+1)/float64(n))
				cells = append(cells, plots.Cell{X0: x0, X1: x1, Y0: y0, Y1: y1, Z: win((x0+x1)/2, math.Sqrt(y0*y1))})
			}
		}
	}
	level(0, 1, 0, 3, 5)         // level 0: W_p in [0, 1], P_ob in [1, 1000]
	level(0.6, 0.8, 1.6, 2.8, 5) // level 1
	s := plots.Surface{
		Cells: cells, LogY: true,
		Title: "win rate against the Lux-style field", XLabel: "W_p", YLabel: "P_ob", ColorLabel: "win rate",
		Contours: []float64{0.3, 0.4},
		Windows:  []plots.Window{{Level: 1, X0: 0.6, X1: 0.8, Y0: math.Pow(10, 1.6), Y1: math.Pow(10, 2.8)}},
		Best:     &plots.Mark{X: 0.74, Y: 170, Label: "best"},
		Marks:    []plots.Mark{{X: 0.7375, Y: 170, Label: "paper"}},
	}
	dir := tempDir()
	defer os.RemoveAll(dir)
	for _, name := range []string{"surface.png", "surface.svg"} {
		if err := plots.Save(filepath.Join(dir, name), &s); err != nil {
			panic(err)
		}
	}
	fmt.Println("saved")
	// Output:
	// saved
}

func ExampleLineChart_bands() {
	// CMA-ES convergence: the distribution mean's win rate and the best
	// candidate's, each with its 95 % interval, per generation.
	mean := plots.Series{Name: "mean (re-evaluated)"}
	best := plots.Series{Name: "best candidate"}
	for g := range 12 {
		x, m := float64(g), 0.4-0.2*math.Exp(-float64(g)/4)
		mean.X, mean.Y, mean.Lo, mean.Hi = append(mean.X, x), append(mean.Y, m), append(mean.Lo, m-0.03), append(mean.Hi, m+0.03)
		best.X, best.Y, best.Lo, best.Hi = append(best.X, x), append(best.Y, m+0.04), append(best.Lo, m), append(best.Hi, m+0.08)
	}
	c := plots.LineChart{Series: []plots.Series{mean, best}, Title: "CMA-ES", XLabel: "generation", YLabel: "win rate", Bands: true}
	dir := tempDir()
	defer os.RemoveAll(dir)
	fmt.Println(plots.Save(filepath.Join(dir, "convergence.png"), &c))
	c.Series[1].Hi = best.Hi[:5] // intervals missing

	fmt.Println(c.Write(io.Discard, "png"))
	// Output:
	// <nil>
	// plots: series 1 ("best candidate"): error bars need Lo and Hi of 12 values each, have 12 and 5
}

func ExampleTraceChart() {
	// The distribution mean of two parameters per generation, with mean +- one
	// standard deviation shaded; P_ob on a log scale.
	wp := plots.Series{Name: "mean"}
	pob := plots.Series{Name: "mean"}
	for g := range 10 {
		x, sd := float64(g), 0.1*math.Exp(-float64(g)/5)
		w, p := 0.5+0.024*x, 50+12*x
		wp.X, wp.Y, wp.Lo, wp.Hi = append(wp.X, x), append(wp.Y, w), append(wp.Lo, w-sd), append(wp.Hi, w+sd)
		pob.X, pob.Y, pob.Lo, pob.Hi = append(pob.X, x), append(pob.Y, p), append(pob.Lo, p*(1-sd)), append(pob.Hi, p*(1+sd))
	}
	c := plots.TraceChart{Title: "parameter traces", XLabel: "generation", Panels: []plots.TracePanel{
		{YLabel: "W_p", Series: []plots.Series{wp}, YMin: 0, YMax: 1},
		{YLabel: "P_ob", Series: []plots.Series{pob}, LogY: true},
	}}
	dir := tempDir()
	defer os.RemoveAll(dir)
	fmt.Println(plots.Save(filepath.Join(dir, "traces.svg"), &c))
	// Output:
	// <nil>
}

func ExampleSliceChart() {
	// The win rate along P_ob at the best W_p, with 95 % intervals, the
	// paper's value and the best marked.
	s := plots.Series{Name: "W_p = 0.74"}
	for _, p := range []float64{10, 30, 100, 300, 1000} {
		v := 0.45 - 0.1*math.Pow(math.Log10(p/170), 2)
		s.X, s.Y, s.Lo, s.Hi = append(s.X, p), append(s.Y, v), append(s.Lo, v-0.02), append(s.Hi, v+0.02)
	}
	c := plots.SliceChart{Series: []plots.Series{s}, LogX: true, XLabel: "P_ob", YLabel: "win rate",
		Refs: []plots.RefLine{{X: 170, Label: "paper (170)"}, {X: 150, Label: "best"}}}
	dir := tempDir()
	defer os.RemoveAll(dir)
	fmt.Println(plots.Save(filepath.Join(dir, "slice.png"), &c))
	c.Refs = append(c.Refs, plots.RefLine{X: 0, Label: "zero"})
	fmt.Println(c.Write(io.Discard, "png"))
	// Output:
	// <nil>
	// plots: reference line 2 ("zero") at x = 0 is not finite or not positive on a log axis
}

func ExampleEffectChart() {
	// The change in win rate each named option brings, with 95 % intervals:
	// fortify-borders' interval lies above zero, cautious-attack's below,
	// card-timing's across it, and each bar is coloured accordingly.
	e := plots.EffectChart{
		Categories: []string{"fortify-borders", "cautious-attack", "card-timing"},
		Values:     []float64{0.031, -0.022, 0.004},
		Lo:         []float64{0.012, -0.040, -0.014},
		Hi:         []float64{0.050, -0.004, 0.022},
		YLabel:     "win rate difference",
	}
	dir := tempDir()
	defer os.RemoveAll(dir)
	fmt.Println(plots.Save(filepath.Join(dir, "effects.svg"), &e))
	// Output:
	// <nil>
}
