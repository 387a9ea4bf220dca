package search_test

import (
	"context"
	"fmt"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
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
	if err := search.PlayWith(context.Background(), n, ev, search.PlayOptions{}); err != nil {
		panic(err)
	}
	best, _ := n.Best()
	fmt.Println("optimum:", space.Label(space.Values(q.Opt)))
	fmt.Println("found:  ", space.Label(best.X))
	// Output:
	// optimum: W_p=0.495;P_ob=629.5
	// found:   W_p=0.4625;P_ob=500
}

// The verdict of a calibration states from its numbers whether the tuned
// candidate beats the reference: here the narrowing optimum's difference
// has a 95 % interval above 0 and a Holm-adjusted p below 0.05.
func ExampleCalibration_Verdict() {
	diff := func(mean, lo, hi float64) stats.Paired {
		return stats.Paired{N: 200, Mean: mean, Interval: stats.Interval{Lo: lo, Hi: hi}}
	}
	c := &search.Calibration{Reference: "mars@paper", Blocks: 200,
		Validations: []search.Candidate{
			{Name: "narrowing optimum W_p=0.5;P_ob=100", Comparison: search.Comparison{Blocks: 200, Diff: diff(0.031, 0.012, 0.050)}},
			{Name: "CMA-ES final mean", Comparison: search.Comparison{Blocks: 200, Diff: diff(0.008, -0.011, 0.027)}},
		},
		Holm: []float64{0.004, 0.41},
	}
	fmt.Println(c.Verdict())
	fmt.Println("shown better:", c.ShownBetter())
	// Output:
	// the narrowing optimum W_p=0.5;P_ob=100 beats mars@paper on 200 fresh blocks by 3.1 points of win rate (95 % interval [1.2, 5.0], Holm-adjusted p = 0.004)
	// shown better: true
}

// A mixture of three conditions weighted 2:1:1: each block draws one from
// the seed and the block alone, so every candidate of a search meets the
// same condition on the same block.
func ExampleGames_Condition() {
	g := &search.Games{Seed: 7, Mixture: []search.Condition{
		{Name: "mars2006/4p", Weight: 2}, {Name: "classic/3p", Weight: 1}, {Name: "mars2006-escalating/6p", Weight: 1}}}
	counts := make([]int, len(g.Mixture))
	for b := 0; b < 10000; b++ {
		counts[g.Condition(b)]++
	}
	for i, c := range g.Mixture {
		fmt.Printf("%-24s %.2f\n", c.Name, float64(counts[i])/10000)
	}
	// Output:
	// mars2006/4p              0.50
	// classic/3p               0.25
	// mars2006-escalating/6p   0.25
}
