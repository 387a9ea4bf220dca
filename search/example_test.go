package search_test

import (
	"context"
	"fmt"

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
	q := &search.Quadratic{Space: space, Opt: []float64{0.3, 0.7}, Peak: 0.5, Curv: 10}
	n, err := search.NewNarrowing(search.NarrowConfig{Space: space, Points: []int{7, 7}, Levels: 3, Rounds: 4,
		Blocks: 10, Alpha: 0.05, Margin: 1, Zoom: 0.5})
	if err != nil {
		panic(err)
	}
	ev := &search.Bernoulli{Games: 4, Seed: 1, P: q.P}
	if err := search.Play(context.Background(), n, ev, nil); err != nil {
		panic(err)
	}
	best, _ := n.Best()
	fmt.Println("optimum:", space.Label(space.Values(q.Opt)))
	fmt.Println("found:  ", space.Label(best.X))
	// Output:
	// optimum: W_p=0.495;P_ob=629.5
	// found:   W_p=0.4625;P_ob=500
}
