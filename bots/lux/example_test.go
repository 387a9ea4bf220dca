package lux_test

import (
	"fmt"

	"marslab/bots/registry"
	"marslab/sim"
)

// Example plays the game of marslab play -rules mars2006 -players
// vulture,cluster,aggressive -seed 1.
func Example() {
	seats, err := registry.Default().ParseSeats("vulture,cluster,aggressive", nil)
	if err != nil {
		panic(err)
	}
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		panic(err)
	}
	m, err := r.LoadMap()
	if err != nil {
		panic(err)
	}
	g, err := sim.NewGame(m, r, len(seats))
	if err != nil {
		panic(err)
	}
	players := make([]sim.Player, len(seats))
	for i, seat := range seats {
		if players[i], err = seat.New(); err != nil {
			panic(err)
		}
	}
	res, err := g.Play(players, 1, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", seats[res.Winner].Label, "in round", res.Rounds)
	fmt.Println("faults:", res.Faults)
	// Output:
	// winner: vulture in round 9
	// faults: [0 0 0]
}
