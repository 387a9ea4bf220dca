package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Angry is the Lux bot Angry: all-out aggression with no plan, as
// Angry.java of the Lux SDK plays it.
//
//   - Placement (and the starting armies, which Lux's placeInitialArmies
//     forwards to placeArmies): everything on the owned territory with the
//     most enemy neighbours, the lowest id on ties (Angry.placeArmies).
//   - Attack (Angry.attackPhase): whole passes over its territories with at
//     least 2 armies in id order; in a pass each attacks its weakest enemy
//     neighbour, to the end, if it has more armies than it. A pass that
//     launched any attack, won or lost, is followed by another pass; a pass
//     that launched none ends the phase. The pass walks Lux's
//     ArmiesIterator, which finds the next territory of the pass before the
//     current one attacks: a territory conquered in a pass is visited in
//     that pass only if its id comes after the next territory found then,
//     otherwise in the next pass.
//   - Move-in (Angry.moveArmiesIn): nothing beyond the dice (the engine's
//     minimum) if the attacking territory has more enemy neighbours than the
//     captured one, otherwise everything; the captured territory counts as
//     Angry's (the engine still shows it as the defender's).
//   - Fortify (Angry.fortifyPhase): each territory moves all its movable
//     armies to the owned neighbour with the most enemy neighbours, if that
//     is more than its own; an interior territory (no enemy neighbour) with
//     no such neighbour moves to a random owned neighbour. The armies that
//     move are those present at the start of the phase (Lux's
//     moveableArmies), as many as leave one army on the territory when it
//     moves: under fortify.movable = "start" a territory that received
//     armies from a lower id may send all of its own, under the engine's
//     default all but one; under the other fortify modes only the largest
//     move is made.
//   - Cards: never cashes voluntarily (Angry.cardsPhase is empty; the
//     engine cashes when forced).
//
// Angry has no parameters. Because it scatters its armies over many weak
// attacks and ignores continents, it is the bot that finishes last most
// often in the MARS paper's tournament, and among the bots of this
// package's second group as well (see TestAngryFinishesLast).
type Angry struct {
	cashier // sim.BasePlayer, and the forced trade's set (ForcedSet)

	b     blocks.Board
	clock turnClock
	next  int   // the next territory of the pass (the iterator's look-ahead), -1 at its end
	made  bool  // whether the current pass launched an attack
	cur   []int // fortify: armies as the moves leave them
}

// Start prepares Angry for a new game.
func (a *Angry) Start(s *sim.State, seat int, rng *rand.Rand) {
	a.start(s, seat, rng)
	a.clock.reset()
}

// armed returns p's first territory after id after with at least 2
// armies, or -1: the next element of Lux's ArmiesIterator(p, 2).
func armed(b *blocks.Board, p, after int) int {
	for t := after + 1; t < len(b.Owner); t++ {
		if b.Owner[t] == p && b.Armies[t] >= 2 {
			return t
		}
	}
	return -1
}

// angriest returns p's territory with the most enemy neighbours (the lowest
// id on ties).
func angriest(b *blocks.Board, p int) int {
	best, most := -1, -1
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		if n := b.EnemyNeighbors(p, t); n > most {
			best, most = t, n
		}
	}
	return best
}

// PlaceInitial places on the territory with the most enemy neighbours.
func (a *Angry) PlaceInitial(s *sim.State) int {
	a.b.Load(s)
	return angriest(&a.b, a.Seat)
}

// Place puts all armies on the territory with the most enemy neighbours.
func (a *Angry) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	a.b.Load(s)
	return append(buf, sim.Placement{Territory: angriest(&a.b, a.Seat), Armies: armies})
}

// Attack orders the next attack of the turn's passes: the next territory
// of the pass that outnumbers its weakest enemy neighbour attacks it to the
// end.
func (a *Angry) Attack(s *sim.State) (sim.AttackOrder, bool) {
	a.b.Load(s)
	b, p := &a.b, a.Seat
	if a.clock.newTurn(s) {
		a.next, a.made = armed(b, p, -1), false
	}
	for {
		if a.next < 0 {
			if !a.made {
				return sim.AttackOrder{}, false
			}
			a.next, a.made = armed(b, p, -1), false
			continue
		}
		t := a.next
		a.next = armed(b, p, t)
		if w := b.WeakestEnemyNeighbor(p, t); w >= 0 && b.Armies[t] > b.Armies[w] {
			a.made = true
			return blitz(t, w), true
		}
	}
}

// Occupy moves the minimum when from keeps more enemy neighbours than the
// captured territory has, everything otherwise.
func (a *Angry) Occupy(s *sim.State, from, to, lo, hi int) int {
	a.b.Load(s)
	if enemyNeighborsAfter(&a.b, a.Seat, from, to) > enemyNeighborsAfter(&a.b, a.Seat, to, to) {
		return lo
	}
	return hi
}

// Fortify moves each territory's movable armies toward the owned neighbour
// with the most enemy neighbours, or at random from the interior.
func (a *Angry) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	a.b.Load(s)
	b, p := &a.b, a.Seat
	start := len(buf)
	a.cur = grow(a.cur, len(b.Owner))
	copy(a.cur, b.Armies)
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		// Board.fortifyArmies moves the movable armies that leave one.
		k := min(movable(s.Rules(), b.Armies[t]), a.cur[t]-1)
		if k <= 0 {
			continue
		}
		own := b.EnemyNeighbors(p, t)
		best, most, friends := -1, own, 0
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p {
				continue
			}
			friends++
			if n := b.EnemyNeighbors(p, u); n > most {
				best, most = u, n
			}
		}
		if best < 0 && own == 0 && friends > 0 && a.RNG != nil {
			k := a.RNG.IntN(friends)
			for _, u := range b.Map.Territories[t].Neighbors {
				if b.Owner[u] == p {
					if k == 0 {
						best = u
						break
					}
					k--
				}
			}
		}
		if best >= 0 {
			a.cur[t] -= k
			a.cur[best] += k
			buf = append(buf, sim.Move{From: t, To: best, Armies: k})
		}
	}
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}
