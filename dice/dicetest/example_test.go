package dicetest_test

import (
	"context"
	"fmt"

	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/dice/dicetest"
)

// Check the engine's dice on 3 attacking armies against 2 defenders.
func ExampleBattle() {
	c := dicetest.Config{Rules: dice.Classic, Trials: 10000, Seed: 1}
	t, p, err := dicetest.Battle(context.Background(), c, 3, 2, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: exact P(win) %.4f, p-value above 0.001: %v\n", t.Name, p, t.P > 0.001)
	// Output: battle 3 vs 2: exact P(win) 0.6560, p-value above 0.001: true
}

// The standard suite: every single roll and five battles.
func ExampleSuite() {
	c := dicetest.Config{Rules: dice.Classic, Trials: 5000, Seed: 1}
	tests, err := dicetest.Suite(context.Background(), c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(tests), "tests,", dicetest.Failed(tests, 1e-4), "below alpha 1e-4")
	fmt.Println(tests[0].Name, "...", tests[len(tests)-1].Name)
	// Output:
	// 11 tests, 0 below alpha 1e-4
	// roll 1v1 ... battle 15 vs 8
}
