package recog_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots/mission"
	"github.com/marslab-risk/marslab/recog"
	"github.com/marslab-risk/marslab/sim"
)

// ExamplePHATT watches a game of six mission bots as a spectator and
// names each player's card at the end.
func ExamplePHATT() {
	r, _ := sim.LoadRules("missions")
	r.Missions = r.Missions[:6] // the six continent cards
	m, _ := r.LoadMap()
	g, _ := sim.NewGame(m, r, 6)
	ph, _ := recog.NewPHATT(m, r.Missions, recog.DefaultParams())
	g.Observe(ph)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mission.NewMission(100)
	}
	ph.Start(6)
	g.Play(players, 1, 0)
	cards := g.Position().Missions
	for p := range players {
		guess := ph.Predict(p, 0)
		fmt.Printf("seat %d holds %q, predicted %q\n", p, r.Missions[cards[p]].Name, r.Missions[guess].Name)
	}
	// Output:
	// seat 0 holds "Occupy Asia and Africa", predicted "Occupy Asia and Africa"
	// seat 1 holds "Occupy North America and Africa", predicted "Occupy North America and Africa"
	// seat 2 holds "Occupy Europe, Australia and one other continent", predicted "Occupy North America and Australia"
	// seat 3 holds "Occupy North America and Australia", predicted "Occupy North America and Australia"
	// seat 4 holds "Occupy Europe, South America and one other continent", predicted "Occupy Asia and South America"
	// seat 5 holds "Occupy Asia and South America", predicted "Occupy Europe, South America and one other continent"
}
