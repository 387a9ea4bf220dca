package cmaes_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/search/cmaes"
)

// Maximise a win rate observed through games: each candidate plays
// Evals() blocks of 100 games, and the candidates Reevaluate names play a
// second, independent set. The answer is the distribution mean.
func Example() {
	opt := []float64{0.7, 0.3} // where the win rate peaks
	winRate := func(x []float64) float64 {
		d2 := (x[0]-opt[0])*(x[0]-opt[0]) + (x[1]-opt[1])*(x[1]-opt[1])
		return 1 / (1 + math.Exp(-(0.5 - 10*d2)))
	}
	games := rand.New(rand.NewPCG(1, 2))
	play := func(x []float64, blocks int) float64 {
		wins, n := 0, 100*blocks
		for range n {
			if games.Float64() < winRate(x) {
				wins++
			}
		}
		return float64(wins) / float64(n)
	}

	o, err := cmaes.New(cmaes.Config{Dim: 2, Seed: 1, Maximize: true, Noisy: true, MaxEvals: 8, MaxGenerations: 60})
	if err != nil {
		panic(err)
	}
	for {
		if stop, why := o.Stop(); stop {
			fmt.Println("stopped:", why)
			break
		}
		xs := o.Ask()
		f := make([]float64, len(xs))
		for k, x := range xs {
			f[k] = play(x, o.Evals())
		}
		var f2 []float64
		for _, k := range o.Reevaluate() {
			f2 = append(f2, play(xs[k], o.Evals()))
		}
		if err := o.Tell(f, f2); err != nil {
			panic(err)
		}
	}
	m := o.Mean()
	fmt.Printf("mean within 0.1 of the optimum: %v\n", math.Hypot(m[0]-opt[0], m[1]-opt[1]) < 0.1)
	fmt.Printf("blocks per candidate: %d\n", o.Evals())
	// Output:
	// stopped: maxgenerations: 60 generations done
	// mean within 0.1 of the optimum: true
	// blocks per candidate: 8
}
