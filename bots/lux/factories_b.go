package lux

import (
	"marslab/bots"
	"marslab/sim"
)

// factoriesB returns the entries of the second group of bots: angry,
// communist, stinky, pixie and evilpixie.
func factoriesB() []bots.Factory {
	return []bots.Factory{
		{
			Name: "angry",
			Doc:  "Lux Angry: reinforces the territory with the most enemy neighbours, attacks every weaker neighbour",
			New:  func(bots.Values) (sim.Player, error) { return new(Angry), nil },
		},
		{
			Name: "communist",
			Doc:  "Lux Communist: spreads armies evenly, one attack per turn on the weakest neighbour, moves half in",
			New:  func(bots.Values) (sim.Player, error) { return new(Communist), nil },
		},
		{
			Name: "stinky",
			Doc:  "Lux Stinky: reinforces a random border, attacks above 1.5:1 (anything above 300 armies)",
			Params: []bots.Param{
				{Name: "ratio", Default: 1.5, Min: 1, Max: 10,
					Doc: "attack only when the attacking territory holds more than ratio times the defender's armies"},
				{Name: "frenzy", Default: 300, Min: 0, Max: 100000, Integer: true,
					Doc: "total armies above which every possible attack is made, repeatedly, whatever the ratio"},
			},
			New: func(v bots.Values) (sim.Player, error) {
				return &Stinky{Ratio: v["ratio"], Frenzy: int(v["frenzy"])}, nil
			},
		},
	}
}
