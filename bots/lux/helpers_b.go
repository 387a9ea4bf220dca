package lux

import (
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
