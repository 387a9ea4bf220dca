package search_test

import (
	"context"
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
)

// A narrowing search of two parameters, a linear and a log-scale one, on a
// synthetic win rate whose optimum is known (the logistic of a quadratic,
// at u = (0.3, 0.7) of the normalised box): three levels of a 7 x 7 grid,
// four racing rounds of ten 4-game blocks per level.
func ExampleNarrowing() {
	space := search.Space{
		{Param: bots.Param{Name: "W_p", Max: 1}, Lo: 0.3, Hi: 0.95},
		{Param: bots.Param{Name: "P_ob", Min: 0.01, Max: 10000, Log: true}, Lo: 5, Hi: 5000},
	}
	// The win probability: the logistic of 0.5 - 10·|u - (0.3, 0.7)|², u
	// the normalised coordinates.
	p := func(x []float64) float64 {
		d0, d1 := space[0].Unit(x[0])-0.3, space[1].Unit(x[1])-0.7
		return 1 / (1 + math.Exp(-(0.5 - 10*(d0*d0+d1*d1))))
	}
	cfg := search.NarrowConfig{Space: space, Points: []int{7, 7}, Levels: 3, Rounds: 4, Blocks: 10, Alpha: 0.05, Margin: 1, Zoom: 0.5}
	s := &search.Search[*search.Narrowing]{ // Dir "": in memory, no log
		New:  func() (*search.Narrowing, error) { return search.NewNarrowing(cfg) },
		Eval: &search.Bernoulli{Games: 4, Seed: 1, P: p},
	}
	st, err := s.Run(context.Background(), false)
	if err != nil {
		panic(err)
	}
	best, _ := st.Method.Best()
	fmt.Println("optimum:", space.Label(space.Values([]float64{0.3, 0.7})))
	fmt.Println("found:  ", space.Label(best.X))
	// Output:
	// optimum: W_p=0.495;P_ob=629.5
	// found:   W_p=0.4625;P_ob=500
}
