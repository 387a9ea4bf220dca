package plots

import (
	"io"
	"testing"
)

func BenchmarkHeatMap30(b *testing.B) {
	axis := make([]float64, 30)
	for i := range axis {
		axis[i] = float64(i + 1)
	}
	h := HeatMap{Grid: NewGrid(axis, axis, func(x, y float64) float64 { return y / (x + y) }), Contours: []float64{0.5}}
	for _, format := range []string{"png", "svg"} {
		b.Run(format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := h.Write(io.Discard, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
