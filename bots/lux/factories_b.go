package lux

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// forcedParam is the forced_set parameter of the bots that never trade by
// choice, its default the reading def (forcedEngine...).
func forcedParam(def int) bots.Param {
	return bots.Param{Name: "forced_set", Default: float64(def), Max: 3, Integer: true, Choices: forcedChoices,
		Doc: "the set traded when the engine forces a trade (Lux cashes for the bot; the SDK does not say which set): engine (sim.BestSet), best (Card.getBestSet), random (drawn uniformly from the valid sets) or getrandomset (Card.getRandomSet, which draws nothing: the first three of a kind in symbol order, else one of each, in hand order)"}
}

// factoriesB returns the entries of the second group of bots: angry,
// communist, stinky, pixie and evilpixie.
func factoriesB() []bots.Factory {
	return []bots.Factory{
		{
			Name:   "angry",
			Doc:    "Lux Angry: reinforces the territory with the most enemy neighbours, attacks every weaker neighbour",
			Params: []bots.Param{forcedParam(forcedRandomSet)},
			New: func(v bots.Values) (sim.Player, error) {
				return &Angry{cashier: cashier{ForcedSet: int(v["forced_set"])}}, nil
			},
		},
		{
			Name:   "communist",
			Doc:    "Lux Communist: spreads armies evenly, one attack per turn on the weakest neighbour, moves half in",
			Params: []bots.Param{forcedParam(forcedBest)},
			New: func(v bots.Values) (sim.Player, error) {
				return &Communist{cashier: cashier{ForcedSet: int(v["forced_set"])}}, nil
			},
		},
		{
			Name: "stinky",
			Doc:  "Lux Stinky: reinforces a random border, attacks above 1.5:1 (anything above 300 armies)",
			Params: []bots.Param{
				{Name: "ratio", Default: 1.5, Min: 1, Max: 10,
					Doc: "attack only when the attacking territory holds more than ratio times the defender's armies"},
				{Name: "frenzy", Default: 300, Min: 0, Max: 100000, Integer: true,
					Doc: "total armies above which every possible attack is made, repeatedly, whatever the ratio"},
				forcedParam(forcedRandomSet),
			},
			New: func(v bots.Values) (sim.Player, error) {
				return &Stinky{cashier: cashier{ForcedSet: int(v["forced_set"])}, Ratio: v["ratio"], Frenzy: int(v["frenzy"])}, nil
			},
		},
		{
			Name: "pixie",
			Doc:  "Lux Pixie: fights for the continents it can take cheaply, spreads the rest along its front",
			Params: []bots.Param{
				{Name: "ratio", Default: 1, Min: 1, Max: 10,
					Doc: "attack in a wanted continent only from a territory holding more than ratio times the defender's armies"},
				{Name: "card_ratio", Default: 1, Min: 0, Max: 100, Integer: true,
					Doc: "attack for a card (nothing conquered yet this turn) when the best attack holds more than card_ratio times the defender's armies"},
				{Name: "threshold", Default: 20, Min: 1, Max: 1000, Integer: true,
					Doc: "borderForce: armies at or below which a border territory of an owned wanted continent needs help"},
				forcedParam(forcedBest),
			},
			New: func(v bots.Values) (sim.Player, error) {
				return &Pixie{Ratio: v["ratio"], CardRatio: int(v["card_ratio"]), Threshold: int(v["threshold"]),
					ForcedSet: int(v["forced_set"])}, nil
			},
		},
		{
			Name: "evilpixie",
			Doc:  "Lux EvilPixie: Pixie that cashes a set a turn, tries to break enemy continents, hunts weak players, out-places enemy fronts",
			Params: []bots.Param{
				{Name: "ratio", Default: 1.3, Min: 1, Max: 10,
					Doc: "attack in a wanted continent only from a territory holding more than ratio times the defender's armies"},
				{Name: "card_ratio", Default: 5, Min: 0, Max: 100, Integer: true,
					Doc: "attack for a card (nothing conquered yet this turn) when the best attack holds more than card_ratio times the defender's armies"},
				{Name: "ask", Default: 0, Max: 1, Integer: true, Choices: []string{"cut", "lost"},
					Doc: "placeToOutnumberEnemies's ask above the armies left (Board.placeArmies, silent in the SDK): cut to the armies left, or refused, ending the method, the rest spread as placeNearEnemies"},
				deadIncomeParam,
			},
			New: func(v bots.Values) (sim.Player, error) {
				return &Pixie{Ratio: v["ratio"], CardRatio: int(v["card_ratio"]), Threshold: 20, Evil: true,
					AskLost: v["ask"] == 1, DeadIncome: v["dead_income"] == 1}, nil
			},
		},
	}
}
