package searchreport_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// The verdict of a calibration states from its numbers whether the tuned
// candidate beats the reference: here the narrowing optimum's difference
// has a 95 % interval above 0 and a Holm-adjusted p below 0.05.
func ExampleVerdict() {
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
	fmt.Println(searchreport.Verdict(c))
	fmt.Println("shown better:", c.ShownBetter())
	// Output:
	// the narrowing optimum W_p=0.5;P_ob=100 beats mars@paper on 200 fresh blocks by 3.1 points of win rate (95 % interval [1.2, 5.0], Holm-adjusted p = 0.004)
	// shown better: true
}
