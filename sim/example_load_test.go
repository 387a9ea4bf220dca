package sim_test

import (
	"fmt"
	"log"

	"github.com/marslab-risk/marslab/sim"
)

func ExampleLoadMap() {
	m, err := sim.LoadMap("classic")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.NumTerritories(), "territories,", m.NumBorders(), "borders")
	for _, c := range m.Continents {
		fmt.Printf("%-13s +%d  %2d territories, %d on its border\n", c.Name, c.Bonus, len(c.Territories), len(c.Borders))
	}
	// Output:
	// 42 territories, 83 borders
	// North America +5   9 territories, 3 on its border
	// South America +2   4 territories, 2 on its border
	// Europe        +5   7 territories, 4 on its border
	// Africa        +3   6 territories, 3 on its border
	// Asia          +7  12 territories, 5 on its border
	// Australia     +2   4 territories, 1 on its border
}

func ExampleParseMap() {
	m, err := sim.ParseMap("pair.toml", []byte(`
name = "pair"

[[continents]]
name = "Island"
bonus = 1

[[territories]]
name = "North"
continent = "Island"
neighbors = ["South"]

[[territories]]
name = "South"
continent = "Island"
neighbors = ["North"]
`))
	fmt.Println(m.NumTerritories(), m.NumBorders(), err)

	// The same tables written inline, South's neighbour misspelt.
	_, err = sim.ParseMap("bad.toml", []byte(`
name = "bad"
continents = [{ name = "Island", bonus = 0 }]
territories = [
  { name = "North", continent = "Island", neighbors = ["South"] },
  { name = "South", continent = "Island", neighbors = ["East"] },
]
`))
	fmt.Println(err)
	// Output:
	// 2 1 <nil>
	// bad.toml: territories[1].neighbors = "East": no such territory (neighbour of "South")
}

func ExampleLoadRules() {
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Players, "players,", r.Reinforce.Rounding, "rounding, fortify", r.Fortify.Mode, "- stalemate after", r.End.RoundLimit, "rounds")
	// Output: 6 players, ceil rounding, fortify one-step - stalemate after 100 rounds
}

func ExampleRules_Validate() {
	m, err := sim.LoadMap("classic")
	if err != nil {
		log.Fatal(err)
	}
	r, err := sim.LoadRules("classic")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Validate(m))
	r.StartingArmies[6] = 6 // 6 players cannot share 42 territories with 6 armies each
	fmt.Println(r.Validate(m))
	// Output:
	// <nil>
	// configs/rules/classic.toml: starting_armies[6] = 6: must be at least 7: 6 players share the 42 territories of map "classic"
}
