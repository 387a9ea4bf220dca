// Package mission holds bots for mission Risk (rule set "missions") that
// pursue their own secret mission card, as the Domination AI did in the
// experiments of Khan & Rovatsos (2013), section 5:
//
//   - Mission, registered as mission(w=...): a continent-conquering
//     domination player whose choice of continent is skewed a little
//     toward its mission, as the paper's AI was ("a minimal extension of
//     the core play ... its decisions skewed a little", section 5.3.2):
//     the value of each mission continent is multiplied by w (the paper
//     ran its AI with w = 4 and w = 100);
//   - Greedy, registered as mission-greedy(w=...): a greedy player whose
//     every placement, attack and move-in multiplies the value of each
//     mission territory by w, so that it plays almost only for its card
//     already at w = 4 (an upper bound for recognition);
//   - Constrained, registered as constrained: the paper's "constrained play",
//     which only reinforces, attacks and moves on territories of its mission
//     or on the shortest route to them.
//
// All read only their own mission ([sim.State.MyMission]); the engine hides
// every other seat's. They are built from the shared blocks of package
// blocks; ties go to the lowest territory id, so all are deterministic.
// Outside mission mode (no mission card) each plays as with w = 1.
package mission

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Factories returns the registry entries of the mission bots.
func Factories() []bots.Factory {
	return []bots.Factory{
		{Name: "mission", Doc: "mission Risk: a continent-conquering domination player whose continent values are multiplied by w for its mission's continents (Khan & Rovatsos 2013's AI, skewed a little)",
			Params: []bots.Param{{Name: "w", Default: 4, Min: 1, Max: 1000, Log: true,
				Doc: "factor on the value of each continent the mission asks for; the paper's AI ran with 4 and 100"}, setupParam(setupStack)},
			New: func(v bots.Values) (sim.Player, error) {
				m := NewMission(v["w"])
				m.Setup = int(v["setup"])
				return m, nil
			}},
		{Name: "mission-greedy", Doc: "mission Risk: greedy play with every mission territory's value multiplied by w in placement, attack and move-in (an upper bound for recognition)",
			Params: []bots.Param{{Name: "w", Default: 4, Min: 1, Max: 1000, Log: true,
				Doc: "weight of a target in the mission's continents (or of the eliminate card's seat) against 1 for any other"}},
			New: func(v bots.Values) (sim.Player, error) { return newGreedy(v["w"]), nil }},
		{Name: "constrained", Doc: "mission Risk: reinforces, attacks and moves only on its mission's territories or the shortest route to them (the paper's constrained play)",
			Params: []bots.Param{setupParam(setupSpread)},
			New: func(v bots.Values) (sim.Player, error) {
				c := NewConstrained()
				c.Setup = int(v["setup"])
				return c, nil
			}},
	}
}

// setupParam returns the "setup" parameter of mission and constrained, with
// default def: how the starting armies are placed (setupStack, setupSpread).
func setupParam(def int) bots.Param {
	return bots.Param{Name: "setup", Default: float64(def), Max: 1, Integer: true, Choices: setupChoices,
		Doc: "starting armies: stack (where Place would put one army: one territory) or spread (shared by the goal's values; see the bot's doc)"}
}
