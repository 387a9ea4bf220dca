package bots_test

import (
	"fmt"

	"marslab/bots"
	"marslab/sim"
)

func ExampleRegistry_ParseSeats() {
	reg := bots.NewRegistry()
	over, err := bots.ParseOverrides([]string{"random.stop=0.5"})
	if err != nil {
		panic(err)
	}
	seats, err := reg.ParseSeats("aggressive,random,random(stop=0.25),passive", over)
	if err != nil {
		panic(err)
	}
	for _, s := range seats {
		fmt.Println(s.Label, s.Params)
	}
	// Output:
	// aggressive map[]
	// random(stop=0.5) map[stop:0.5]
	// random(stop=0.5) map[stop:0.5]
	// passive map[]
}

func ExampleRegistry_ParseSeat_error() {
	_, err := bots.NewRegistry().ParseSeat("random(stop=1.5)", nil)
	fmt.Println(err)
	// Output:
	// seat "random(stop=1.5)": stop = 1.5: must be in [0, 1]
}

func ExampleSciberras() {
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
	rolls := make([]int, 3)
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvRoll {
			rolls[e.Player]++
		}
	}))
	players := []sim.Player{
		bots.NewSciberras(bots.Passive),
		bots.NewSciberras(bots.Aggressive),
		bots.NewSciberras(bots.Pacifist),
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
