package lux_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/lux"
	"github.com/marslab-risk/marslab/sim"
)

// ExamplePixie seats the bots of group B, built directly with the
// registry's default parameters, in the game of marslab play -rules
// classic -players angry,communist,stinky,pixie,evilpixie -seed 17 (the
// golden game classic-lux-b-5 of package registry).
func ExamplePixie() {
	names := []string{"angry", "communist", "stinky", "pixie", "evilpixie"}
	players := []sim.Player{
		new(lux.Angry),
		new(lux.Communist),
		&lux.Stinky{Ratio: 1.5, Frenzy: 300},
		&lux.Pixie{Ratio: 1, CardRatio: 1, Threshold: 20},
		&lux.Pixie{Ratio: 1.3, CardRatio: 5, Threshold: 20, Evil: true},
	}
	r, err := sim.LoadRules("classic")
	if err != nil {
		panic(err)
	}
	m, err := r.LoadMap()
	if err != nil {
		panic(err)
	}
	g, err := sim.NewGame(m, r, len(players))
	if err != nil {
		panic(err)
	}
	res, err := g.Play(players, 17, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", names[res.Winner], "in round", res.Rounds)
	fmt.Println("faults:", res.Faults)
	// Output:
	// winner: pixie in round 12
	// faults: [0 0 0 0 0]
}
