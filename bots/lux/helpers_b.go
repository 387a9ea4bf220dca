package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// blitz is the Lux attack order from one territory on another: attack
// until one side is gone, always rolling the most dice allowed.
func blitz(from, to int) sim.AttackOrder {
	return sim.AttackOrder{From: from, To: to, Repeat: true}
}

// turnClock tells a bot when one of its turns begins, so that a bot whose
// attack spans several calls of Attack (one per order) can keep per-turn
// state. The zero value is ready; Start must call reset.
type turnClock struct {
	round int
}

// reset forgets the last turn (at the start of a game).
func (c *turnClock) reset() { c.round = -1 }

// newTurn reports whether s is in a turn of the player other than the one
// seen at the last call, and records it.
func (c *turnClock) newTurn(s *sim.State) bool {
	if r := s.Round(); r != c.round {
		c.round = r
		return true
	}
	return false
}

// enemyNeighborsAfter returns the number of t's neighbours not owned by p,
// counting territory won (about to be conquered by p) as p's.
func enemyNeighborsAfter(b *blocks.Board, p, t, won int) int {
	n := 0
	for _, u := range b.Map.Territories[t].Neighbors {
		if u != won && b.Owner[u] != p {
			n++
		}
	}
	return n
}

// weakestEnemyAfter returns t's neighbour not owned by p with the fewest
// armies (the lowest id on ties), counting territory won as p's, or -1.
func weakestEnemyAfter(b *blocks.Board, p, t, won int) int {
	best := -1
	for _, u := range b.Map.Territories[t].Neighbors {
		if u != won && b.Owner[u] != p && (best < 0 || b.Armies[u] < b.Armies[best]) {
			best = u
		}
	}
	return best
}

// movable returns the armies a territory holding armies armies at the start
// of the fortify phase may send over the phase (Lux's moveableArmies, set
// to the territory's armies before fortifyPhase and decremented by each
// move, while the territory keeps one army after each move): all of them
// when the rules allow it (sim.FortifyOneStep with sim.MovableStart; a
// move must still leave one army, so only a territory that received armies
// first can send them all), otherwise the engine's armies less one.
func movable(r *sim.Rules, armies int) int {
	if r.Fortify.Mode == sim.FortifyOneStep && r.Fortify.Movable == sim.MovableStart {
		return armies
	}
	return armies - 1
}

// The readings of the set a bot that never trades by choice gives up when
// the engine forces a trade (LuxAgent.cardsPhase: Lux cashes "enough
// sets" for a bot left with too many cards, and the SDK does not say
// which).
const (
	// forcedEngine: the engine's best set (sim.BestSet).
	forcedEngine = iota
	// forcedBest: Card.getBestSet (blocks.Lux.BestSet), "our best set" of
	// SmartAgentBase.cardsPhase's comment (Pixie, Communist).
	forcedBest
	// forcedRandom: a set drawn uniformly from the bot's valid sets with
	// its random stream, "a random set of ours" read literally (no SDK
	// method draws one).
	forcedRandom
	// forcedRandomSet: Card.getRandomSet on the whole hand
	// (blocks.Lux.RandomSet), the SDK's method for "a random set of ours"
	// of Angry's and Stinky's cardsPhase comments; it draws nothing (the
	// first three of a kind in symbol order, else one of each, in hand
	// order).
	forcedRandomSet
)

// forcedChoices names the ForcedSet readings in the bots' forced_set
// parameter: getrandomset after the SDK method, random for the uniform
// draw.
var forcedChoices = []string{"engine", "best", "random", "getrandomset"}

// forcedSet answers sim.Player.Trade for a bot that never trades by
// choice: no set unless forced, then the set of reading how: forcedEngine
// leaves it to the engine (sim.BestSet), forcedBest is l.BestSet,
// forcedRandom a set drawn from s.ValidTrades with l's random stream
// (l.RandomSet without one) and forcedRandomSet l.RandomSet.
func forcedSet(l *blocks.Lux, s *sim.State, forced bool, how int) ([3]int, bool) {
	switch {
	case !forced || how == forcedEngine:
		return [3]int{}, false
	case how == forcedBest:
		return l.BestSet(s)
	case how == forcedRandom && l.RNG != nil:
		sets, ok := s.ValidTrades(l.Seat, nil)
		if !ok || len(sets) == 0 {
			return [3]int{}, false
		}
		return sets[l.RNG.IntN(len(sets))], true
	}
	return l.RandomSet(s)
}

// cashier is sim.BasePlayer with the Trade of a bot that never trades by
// choice: when the engine forces a trade, the set of ForcedSet.
type cashier struct {
	sim.BasePlayer
	// ForcedSet is the set traded when the engine forces a trade:
	// forcedEngine (sim.BestSet), forcedBest (Card.getBestSet),
	// forcedRandom (a valid set drawn with the bot's stream) or
	// forcedRandomSet (Card.getRandomSet).
	ForcedSet int

	cards blocks.Lux // the forced trade's set
}

// start starts the embedded BasePlayer and the set's searches.
func (c *cashier) start(s *sim.State, seat int, rng *rand.Rand) {
	c.BasePlayer.Start(s, seat, rng)
	c.cards.Start(seat, rng)
}

// Trade trades only when forced, the set of ForcedSet.
func (c *cashier) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return forcedSet(&c.cards, s, forced, c.ForcedSet)
}
