package simtest_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// CheckPlayer plays sim.BasePlayer (it never attacks) in every seat under
// every embedded rule set and finds no broken invariant and no fault. In a
// test, simtest.TestPlayer(t, newPlayer, opt) does the same with one
// subtest per rule set and seat count.
func ExampleCheckPlayer() {
	err := simtest.CheckPlayer(func(int) sim.Player { return &sim.BasePlayer{} }, simtest.Options{Games: 1})
	fmt.Println(err)
	// Output:
	// <nil>
}
