package lux

import (
	"marslab/bots/blocks"
	"marslab/sim"
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

// oneMoveUnlessOneStep returns moves as they are under the one-step fortify
// rule, which allows them together, and otherwise only the move of moves
// carrying the most armies (the first on ties), the one move the other
// modes allow. Every move of moves must be between adjacent territories.
func oneMoveUnlessOneStep(s *sim.State, moves []sim.Move) []sim.Move {
	if s.Rules().Fortify.Mode == sim.FortifyOneStep || len(moves) <= 1 {
		return moves
	}
	best := 0
	for i, mv := range moves {
		if mv.Armies > moves[best].Armies {
			best = i
		}
	}
	moves[0] = moves[best]
	return moves[:1]
}

// hogWildOrder returns the next attack of the Lux "hog wild" and
// "stalemate breaker" blocks for p when either applies: p's armies exceed
// all its enemies' armies combined (hog wild), or p holds more than
// breaker armies (stalemate breaker, 1,500 in Lux). The attack is the
// first the triple attack pack finds (easy expand, then fill out, then the
// first consolidating territory able to attack), else split up(0.01): the
// first territory with at least 2 armies and more than 0.01 times the armies
// of its enemy neighbours attacks the weakest of them.
// Called once per attack order, it repeats the pack and split up until no
// attack is left. buf is scratch space, returned for reuse.
func hogWildOrder(b *blocks.Board, p, breaker int, buf []int) (sim.AttackOrder, bool, []int) {
	own, enemy := b.TotalArmies(p), enemyArmies(b, p)
	if own <= enemy && own <= breaker {
		return sim.AttackOrder{}, false, buf
	}
	if from, to, ok := blocks.EasyExpand(b, p); ok {
		return blitz(from, to), true, buf
	}
	if from, to, ok := blocks.FillOut(b, p); ok {
		return blitz(from, to), true, buf
	}
	buf, target, ok := blocks.Consolidate(buf[:0], b, p)
	if ok {
		for _, from := range buf {
			if b.Armies[from] >= 2 {
				return blitz(from, target), true, buf
			}
		}
	}
	for from, o := range b.Owner {
		if o == p && b.Armies[from] >= 2 && float64(b.Armies[from]) > 0.01*float64(b.EnemyArmiesAround(p, from)) {
			if to := b.WeakestEnemyNeighbor(p, from); to >= 0 {
				return blitz(from, to), true, buf
			}
		}
	}
	return sim.AttackOrder{}, false, buf
}

// stalemateArmies is the army count above which the Lux stalemate breaker
// attacks as hog wild does.
const stalemateArmies = 1500

// enemyArmies returns the armies on every territory not owned by p.
func enemyArmies(b *blocks.Board, p int) int {
	n := 0
	for t, o := range b.Owner {
		if o != p {
			n += b.Armies[t]
		}
	}
	return n
}
