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

// ExampleLux_NextAttack asks a plan of Lux blocks for its first attack
// order: from the root a, easy expand finds a facing one enemy, b, which
// it outnumbers, and orders the attack with the memory set to move
// everything in.
func ExampleLux_NextAttack() {
	m, err := sim.LoadMap("testdata/grid.toml")
	if err != nil {
		panic(err)
	}
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		panic(err)
	}
	pos, err := sim.ParsePosition("example", []byte(`players = 2
hands = [[], []]
round = 1
current = 0
phase = "attack"
[territories]
a = { owner = 0, armies = 10 }
b = { owner = 1, armies = 2 }
c = { owner = 1, armies = 1 }
d = { owner = 0, armies = 3 }
e = { owner = 1, armies = 1 }
f = { owner = 1, armies = 1 }
g = { owner = 1, armies = 1 }
h = { owner = 1, armies = 1 }
i = { owner = 1, armies = 1 }
`), m, r)
	if err != nil {
		panic(err)
	}
	s, err := sim.NewStateAt(m, r, pos, 0)
	if err != nil {
		panic(err)
	}
	plan := []blocks.Step{
		{Proc: blocks.StepRoot},
		{Proc: blocks.StepEasyExpand, Repeat: true},
		{Proc: blocks.StepFillOut},
	}
	var x blocks.Lux
	x.Start(0, nil)
	o, ok := x.NextAttack(s, plan)
	fmt.Println(m.Territories[o.From].Name, "attacks", m.Territories[o.To].Name, ok, "memory", x.Memory == blocks.MoveAll)
	// Output: a attacks b true memory true
}
