package stats_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/stats"
)

// A bot won 0 of 10 games: the Wilson interval still bounds its win rate.
func ExampleWilson() {
	iv, err := stats.Wilson(0, 10, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(iv)
	// Output: [0.0000, 0.2775]
}

func ExampleClopperPearson() {
	iv, err := stats.ClopperPearson(5, 10, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(iv)
	// Output: [0.1871, 0.8129]
}

// Does a battle's win frequency agree with its exact probability?
func ExampleBinomialTest() {
	p, err := stats.BinomialTest(682, 925, 0.75)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("p-value %.4f\n", p)
	// Output: p-value 0.3825
}

// Defender losses 0, 1, 2 of 600 rolls against their expected counts.
func ExampleChiSquareGOF() {
	r, err := stats.ChiSquareGOF([]int{180, 200, 220}, []float64{200, 200, 200})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("chi2 %.1f df %d p %.4f\n", r.Stat, r.DF, r.P)
	// Output: chi2 4.0 df 2 p 0.1353
}

// Two bots on the same 10 seeds: points scored by each.
func ExamplePairedT() {
	a := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	b := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	r, err := stats.PairedT(a, b, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean %.2f t %.3f df %d p %.4f CI %v\n", r.Mean, r.Stat, r.DF, r.P, r.Interval)
	// Output: mean -1.58 t -4.062 df 9 p 0.0028 CI [-2.4599, -0.7001]
}

// Wins of two candidates on the same seeds.
func ExamplePairedProportions() {
	x := []bool{true, true, false, true, true, false, true, true, false, true}
	y := []bool{true, false, false, false, true, false, false, true, false, false}
	c, err := stats.CountPairs(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := stats.PairedProportions(c, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\nX %.1f Y %.1f diff %.1f CI %v McNemar p %.4f\n", c, r.PX, r.PY, r.Diff, r.Interval, r.P)
	// Output:
	// {Both:3 OnlyX:4 OnlyY:0 Neither:3}
	// X 0.7 Y 0.3 diff 0.4 CI [0.0758, 0.6055] McNemar p 0.1250
}

// Three candidates compared with the baseline: which differences survive
// the family-wise correction at 5 %?
func ExampleHolm() {
	adj, err := stats.Holm([]float64{0.01, 0.04, 0.03, 0.005})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f\n", adj)
	// Output: [0.03 0.06 0.06 0.02]
}

func ExampleSpearmanTest() {
	ours := []float64{40, 25, 20, 15, 5}
	paper := []float64{42.7, 26.0, 14.9, 17.0, 1.0}
	s, err := stats.SpearmanTest(ours, paper, 0, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("rho = %.1f, exact p = %.3f over %d permutations\n", s.Rho, s.P, s.Permutations)
	// Output: rho = 0.9, exact p = 0.083 over 120 permutations
}
