package cmaes

import (
	"fmt"
	"testing"
)

// BenchmarkAskTell measures one generation's bookkeeping (Ask, Reevaluate
// and Tell with the uncertainty handling) on a sphere, without the cost of
// evaluating the candidates.
func BenchmarkAskTell(b *testing.B) {
	for _, dim := range []int{2, 5, 20} {
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			o, err := New(Config{Dim: dim, Seed: 1, Noisy: true, MaxEvals: 4, TolX: 1e-300})
			if err != nil {
				b.Fatal(err)
			}
			f := make([]float64, o.Lambda())
			b.ReportAllocs()
			for b.Loop() {
				xs := o.Ask()
				for k, x := range xs {
					var s float64
					for _, v := range x {
						s += (v - 0.3) * (v - 0.3)
					}
					f[k] = s
				}
				re := o.Reevaluate()
				f2 := make([]float64, len(re))
				for i, k := range re {
					f2[i] = f[k]
				}
				if err := o.Tell(f, f2); err != nil {
					b.Fatal(err)
				}
				if stop, _ := o.Stop(); stop || o.Sigma() < 1e-8 { // restart before the distribution degenerates
					o, _ = New(Config{Dim: dim, Seed: uint64(o.generation()), Noisy: true, MaxEvals: 4, TolX: 1e-300})
				}
			}
		})
	}
}
