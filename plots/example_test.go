package plots_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/marslab-risk/marslab/plots"
)

func ExampleHeatMap() {
	// A win-rate surface over two parameters, with its 50 % contour.
	x := []float64{0.1, 0.2, 0.3, 0.4}
	y := []float64{1, 2, 3}
	g := plots.NewGrid(x, y, func(x, y float64) float64 { return x * y / 1.2 })
	h := plots.HeatMap{
		Grid:       g,
		Title:      "win rate",
		XLabel:     "W_p",
		YLabel:     "P_ob",
		ColorLabel: "win rate",
		Min:        0,
		Max:        1,
		Contours:   []float64{0.5},
	}
	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := plots.Save(filepath.Join(dir, "surface.svg"), &h); err != nil {
		panic(err)
	}
	fmt.Println("saved")
	h.Palette = "jet"
	fmt.Println(h.Write(io.Discard, "png"))
	// Output:
	// saved
	// plots: unknown palette "jet" (known: black-body, blue-red, blue-tan, ext-black-body, ext-kindlmann, kindlmann, purple-orange)
}
