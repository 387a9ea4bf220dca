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

// hogWild returns the next attack of the Lux blocks "hog wild" and
// "stalemate breaker" for p (blocks.HogWild) when either applies: p's
// armies exceed all enemies' combined (blocks.Dominates), or number more
// than blocks.StalemateArmies.
func hogWild(b *blocks.Board, p int) (sim.AttackOrder, bool) {
	if !blocks.Dominates(b, p) && !blocks.Stalemate(b, p) {
		return sim.AttackOrder{}, false
	}
	if from, to, ok := blocks.HogWild(b, p); ok {
		return blitz(from, to), true
	}
	return sim.AttackOrder{}, false
}
