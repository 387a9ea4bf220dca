package dice_test

import (
	"context"
	"fmt"
	"time"

	"github.com/marslab-risk/marslab/dice"
)

func ExampleRoll() {
	o, err := dice.Roll(dice.Classic, 3, 2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("attacker wins both: %d/%d\n", o.Count[2], o.Total)
	fmt.Printf("one each:           %d/%d\n", o.Count[1], o.Total)
	fmt.Printf("defender wins both: %d/%d\n", o.Count[0], o.Total)
	// Output:
	// attacker wins both: 2890/7776
	// one each:           2611/7776
	// defender wins both: 2275/7776
}

func ExampleNewTable() {
	t, err := dice.NewTable(dice.Classic, 30)
	if err != nil {
		panic(err)
	}
	// A territory with 6 armies attacks with 5.
	fmt.Printf("P(5 beat 5) = %.4f\n", t.Win(5, 5))
	fmt.Printf("P(1 beats 1) = %.4f\n", t.Win(1, 1))
	// Output:
	// P(5 beat 5) = 0.5062
	// P(1 beats 1) = 0.4167
}

func ExampleBattle() {
	res, err := dice.Battle(dice.Classic, 3, 2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("win %.4f, attacker loses %.3f, defender loses %.3f on average\n",
		res.Win, res.AttackerLossMean, res.DefenderLossMean)
	fmt.Printf("standard deviations %.4f and %.4f (variances %.4f and %.4f)\n",
		res.AttackerLossSD(), res.DefenderLossSD(), res.AttackerLossVar, res.DefenderLossVar)
	for _, o := range res.Outcomes[:3] {
		fmt.Printf("(%d, %d) %.4f\n", o.AttackerLeft, o.DefenderLeft, o.P)
	}
	// Output:
	// win 0.6560, attacker loses 1.406, defender loses 1.438 on average
	// standard deviations 1.2933 and 0.8260 (variances 1.6726 and 0.6823)
	// (3, 0) 0.3717
	// (2, 0) 0.1943
	// (1, 0) 0.0900
}

func ExampleChainer() {
	c := dice.NewChainer(dice.Classic, 60)
	path := []int{3, 2, 1} // defenders along the path, in order
	fmt.Printf("whole path: %.4f\n", c.Win(10, path))
	for j, p := range c.WinFirst(nil, 10, path) {
		fmt.Printf("first %d: %.4f\n", j+1, p)
	}
	// Output:
	// whole path: 0.8171
	// first 1: 0.9811
	// first 2: 0.8955
	// first 3: 0.8171
}

// An exact chain under a deadline: long paths of large armies take minutes,
// and the computation stops when the context is done.
func ExampleChainExact() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := dice.ChainExact(ctx, dice.Classic, 2, []int{1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("P(2 armies conquer 1, 1) =", res.Win.RatString())
	// Output: P(2 armies conquer 1, 1) = 625/2592
}

// When should 10 armies stop attacking a path of 3, 2 and 1 defenders, if
// a territory is worth 1 and an army 0.3?
func ExampleStop() {
	st, err := dice.Stop(dice.Classic, 10, []int{3, 2, 1}, dice.Utility{Territory: 1, Army: 0.3})
	if err != nil {
		panic(err)
	}
	fmt.Printf("optimum %.4f\n", st.Value())
	fmt.Printf("attack to the end %.4f\n", st.Threshold(0, 0))
	fmt.Printf("MARS's W_p1 = 0.25, W_p = 0.7375: %.4f\n", st.Threshold(0.25, 0.7375))
	// 2 armies against the first territory's 3 cannot take all three
	// territories: each conquest leaves an army behind.
	_, roll, win, _ := st.At(0, 2, 3)
	fmt.Printf("2 against 3: roll %v (P(taking the rest) %.4f)\n", roll, win)
	// Output:
	// optimum 4.4253
	// attack to the end 4.4157
	// MARS's W_p1 = 0.25, W_p = 0.7375: 4.1166
	// 2 against 3: roll false (P(taking the rest) 0.0000)
}

// The best way to spread 12 armies over a path of 4 territories against 20
// attacking armies.
func ExampleDefend() {
	d, err := dice.Defend(context.Background(), dice.Classic, 20, 12, 4, false)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Alloc, fmt.Sprintf("%.4f", d.Win), d.Allocations)
	// Output: [2 2 2 6] 0.8954 165
}
