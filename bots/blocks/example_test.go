package blocks_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// ExampleSearch_RouteToContinent finds the cheapest way into Australia on
// the classic map for a player holding only Alaska.
func ExampleSearch_RouteToContinent() {
	m, err := sim.LoadMap("classic")
	if err != nil {
		panic(err)
	}
	b := blocks.NewBoard(m)
	for t := range b.Owner {
		b.Owner[t], b.Armies[t] = 1, 2
	}
	alaska, _ := m.TerritoryID("Alaska")
	b.Owner[alaska] = 0
	australia, _ := m.ContinentID("Australia")
	var r blocks.Search
	route, cost, _ := r.RouteToContinent(nil, b, 0, australia)
	for _, t := range route {
		fmt.Print(m.Territories[t].Name, "; ")
	}
	fmt.Println("armies to beat:", cost)
	fmt.Println("border:", b.AppendBorder(nil, 0), "enemy neighbours:", b.EnemyNeighbors(0, alaska))
	// Output:
	// Alaska; Kamchatka; Mongolia; China; Siam; Indonesia; armies to beat: 10
	// border: [0] enemy neighbours: 3
}
