package mission_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/registry"
)

// A game of mission Risk between the mission bots at both of the paper's
// weights and the constrained bot.
func Example() {
	t, err := registry.Default().NewTable("mission(w=4),mission(w=100),constrained,mission(w=4),mission(w=100),constrained", "missions")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := t.Play(1, 0)
	fmt.Printf("winner: seat %d (%s) after %d rounds\n", res.Winner, t.Seats[res.Winner].Label, res.Rounds)
	// Output:
	// winner: seat 0 (mission(w=4)) after 3 rounds
}
