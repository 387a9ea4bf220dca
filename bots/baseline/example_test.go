package baseline_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/baseline"
	"github.com/marslab-risk/marslab/sim"
)

func ExampleSciberras() {
	r, err := sim.LoadRules("mars2006")
	if err != nil {
		panic(err)
	}
	m, err := r.LoadMap() // the map the rules name: classic
	if err != nil {
		panic(err)
	}
	g, err := sim.NewGame(m, r, 3)
	if err != nil {
		panic(err)
	}
	rolls := make([]int, 3)
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvRoll {
			rolls[e.Player]++
		}
	}))
	players := []sim.Player{
		baseline.NewSciberras(baseline.Passive),
		baseline.NewSciberras(baseline.Aggressive),
		baseline.NewSciberras(baseline.Pacifist),
	}
	res, err := g.Play(players, 2022, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("passive rolled dice:", rolls[0] > 0)
	fmt.Println("aggressive and pacifist rolled dice:", rolls[1] > 0 && rolls[2] > 0)
	fmt.Println("faults:", res.Faults)
	// Output:
	// passive rolled dice: false
	// aggressive and pacifist rolled dice: true
	// faults: [0 0 0]
}
