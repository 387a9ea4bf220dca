package lux_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/lux"
	"github.com/marslab-risk/marslab/sim"
)

// ExamplePixie seats the bots of group B, built directly with the
// registry's default parameters, in the game of marslab play -rules
// classic -players angry,communist,stinky,pixie,evilpixie -seed 20 (the
// golden game classic-lux-b-5 of package registry). ForcedSet takes the
// index of the forced_set parameter's value: 1 is best (Card.getBestSet),
// 3 getrandomset (Card.getRandomSet).
func ExamplePixie() {
	names := []string{"angry", "communist", "stinky", "pixie", "evilpixie"}
	angry, communist := new(lux.Angry), new(lux.Communist)
	angry.ForcedSet, communist.ForcedSet = 3, 1
	stinky := &lux.Stinky{Ratio: 1.5, Frenzy: 300}
	stinky.ForcedSet = 3
	players := []sim.Player{
		angry,
		communist,
		stinky,
		&lux.Pixie{Ratio: 1, CardRatio: 1, Threshold: 20, ForcedSet: 1},
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
	res, err := g.Play(players, 20, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("winner:", names[res.Winner], "in round", res.Rounds)
	fmt.Println("faults:", res.Faults)
	// Output:
	// winner: evilpixie in round 14
	// faults: [0 0 0 0 0]
}
