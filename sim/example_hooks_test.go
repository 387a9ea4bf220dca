package sim_test

import (
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// learner is a bot with both optional hooks: it counts the cards it sees
// drawn (the others' are hidden) and keeps its final placement as a reward.
type learner struct {
	bully
	seen, hidden int
	reward       int
}

func (l *learner) Watch(e *sim.Event) {
	if e.Kind == sim.EvCard {
		if e.Cards[0].Symbol == sim.Unknown {
			l.hidden++
		} else {
			l.seen++
		}
	}
}

func (l *learner) End(s *sim.State, res sim.Result) { l.reward = res.Placement[s.Seat()] }

func ExampleWatcher() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("classic")
	g, _ := sim.NewGame(m, r, 3)
	l := &learner{}
	res, err := g.Play([]sim.Player{l, &bully{}, &bully{}}, 1, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.seen > 0, l.hidden > 0, l.reward == res.Placement[0])
	// Output: true true true
}
