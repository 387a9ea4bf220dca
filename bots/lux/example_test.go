package lux_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/registry"
)

// Example plays the first ten games of marslab batch -rules mars2006
// -players vulture,cluster,aggressive -seed 1 and counts each seat's wins.
func Example() {
	tab, err := registry.Default().NewTable("vulture,cluster,aggressive", "mars2006")
	if err != nil {
		panic(err)
	}
	wins := map[string]int{}
	for i := range uint64(10) {
		res, err := tab.Play(1, i)
		if err != nil {
			panic(err)
		}
		if res.Winner >= 0 {
			wins[tab.Seats[res.Winner].Label]++
		}
	}
	fmt.Println("wins:", wins)
	// Output:
	// wins: map[cluster:3 vulture:7]
}
