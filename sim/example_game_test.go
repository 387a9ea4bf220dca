package sim_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// quiet is a bot that places everything on its first territory and never
// attacks: games between quiet bots end in a stalemate.
type quiet struct{ sim.BasePlayer }

func ExampleGame_Play() {
	m, err := sim.LoadMap("classic")
	if err != nil {
		panic(err)
	}
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		panic(err)
	}
	g, err := sim.NewGame(m, r, 3)
	if err != nil {
		panic(err)
	}
	rolls := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvRoll {
			rolls++
		}
	}))
	res, err := g.Play([]sim.Player{&quiet{}, &quiet{}, &quiet{}}, 1, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("stalemate:", res.Stalemate, "rounds:", res.Rounds, "turns:", res.Turns, "rolls:", rolls)
	// Output:
	// stalemate: true rounds: 100 turns: 300 rolls: 0
}

func ExampleGameSeed() {
	// Game 12 of experiment 2006 has the same seed on every machine, and
	// its neighbours have unrelated ones.
	a, b := sim.GameSeed(2006, 12), sim.GameSeed(2006, 13)
	fmt.Printf("%#x %v\n", a, a != b)
	// Output: 0xd946461e506faca4 true
}
