package lux_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/registry"
)

// Example plays the game of marslab play -rules mars2006 -players
// vulture,cluster,aggressive -seed 1.
func Example() {
	tab, err := registry.Default().NewTable("vulture,cluster,aggressive", "mars2006")
	if err != nil {
		panic(err)
	}
	res, err := tab.Play(1, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", tab.Seats[res.Winner].Label, "in round", res.Rounds)
	fmt.Println("faults:", res.Faults)
	// Output:
	// winner: vulture in round 9
	// faults: [0 0 0]
}
