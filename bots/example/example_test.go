package example_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/registry"
)

// Example plays the game of marslab play -players cautious,aggressive,random
// -seed 1: the registry knows cautious once go generate ./bots/registry has
// listed the package.
func Example() {
	tab, err := registry.Default().NewTable("cautious,aggressive,random", "mars2006")
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
	// winner: cautious in round 17
	// faults: [0 0 0]
}
