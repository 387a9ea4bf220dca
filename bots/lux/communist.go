package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Communist is the Lux bot Communist: it spreads its armies evenly.
//
//   - Placement: one army at a time, each on the border territory (one with
//     an enemy neighbour) then holding the fewest armies, the lowest id on
//     ties; each starting army likewise. The description says "the weakest
//     territories"; interior territories are left out because their armies
//     could never attack, and fortification evens them out anyway.
//   - Attack: one attack per turn on the weakest enemy territory adjacent to
//     any of its own (the lowest id on ties), from its strongest owned
//     neighbour, to the end, if that neighbour has more armies than it.
//     Lux's Communist spares other Communists unless only Communists are
//     left; a sim.State does not say which bot sits at a seat, so this
//     Communist treats every other seat as an enemy (in the paper's
//     tournament no two Communists meet, so this changes nothing there).
//     After that attack (made or not), hog wild and the stalemate breaker:
//     once its armies exceed all enemies' combined, or number more than
//     1,500, it attacks as the triple attack pack and split up(0.01) find
//     until no attack is left (blocks.HogWild).
//   - Move-in: half the attacking territory's armies, rounded up, within
//     the engine's bounds.
//   - Fortify: repeatedly, over pairs of neighbouring owned territories in
//     id order, moves half of any difference above 1 from the stronger to
//     the weaker (rounded down), moving only armies present at the start of
//     the phase, so that the moves are legal together under the one-step
//     rule; under the other fortify modes only the largest move is made.
//   - Cards: never cashes voluntarily (the engine cashes when forced).
//
// Communist has no parameters.
type Communist struct {
	sim.BasePlayer

	b       blocks.Board
	clock   turnClock
	struck  bool  // whether this turn's one attack has been ordered
	borders []int // scratch: the territories placed on
	cur     []int // scratch: armies as the fortify moves leave them
	spare   []int // scratch: armies that may still leave each territory
	add     []int // scratch: armies placed on each territory
}

// Start prepares Communist for a new game.
func (c *Communist) Start(s *sim.State, seat int, rng *rand.Rand) {
	c.BasePlayer.Start(s, seat, rng)
	c.clock.reset()
}

// weakestOf returns the territory of ts with the fewest armies plus
// extra[t] (the first on ties).
func weakestOf(b *blocks.Board, ts, extra []int) int {
	best := ts[0]
	for _, t := range ts[1:] {
		if b.Armies[t]+extra[t] < b.Armies[best]+extra[best] {
			best = t
		}
	}
	return best
}

// placeable sets c.borders to Communist's border territories in id order,
// or to its weakest territory if it has no border.
func (c *Communist) placeable() {
	c.borders = c.b.AppendBorder(c.borders[:0], c.Seat)
	if len(c.borders) == 0 {
		c.borders = append(c.borders, c.b.WeakestOwned(c.Seat))
	}
}

// grow returns buf with length n, zeroed.
func grow(buf []int, n int) []int {
	if cap(buf) < n {
		buf = make([]int, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// PlaceInitial places on the weakest border territory.
func (c *Communist) PlaceInitial(s *sim.State) int {
	c.b.Load(s)
	c.add = grow(c.add, len(c.b.Owner))
	c.placeable()
	return weakestOf(&c.b, c.borders, c.add)
}

// Place puts the armies one at a time on the weakest border territory.
func (c *Communist) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.b.Load(s)
	c.add = grow(c.add, len(c.b.Owner))
	c.placeable()
	for range armies {
		c.add[weakestOf(&c.b, c.borders, c.add)]++
	}
	for t, k := range c.add {
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// Attack orders the turn's one attack on the weakest adjacent enemy, then
// the attacks of hog wild and the stalemate breaker.
func (c *Communist) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if c.clock.newTurn(s) {
		c.struck = false
	}
	c.b.Load(s)
	b, p := &c.b, c.Seat
	if c.struck {
		return hogWild(b, p)
	}
	c.struck = true
	target, from := -1, -1
	for t, o := range b.Owner {
		if o == p || (target >= 0 && b.Armies[t] >= b.Armies[target]) {
			continue
		}
		if f := b.StrongestOwnedNeighbor(p, t); f >= 0 {
			target, from = t, f
		}
	}
	if target < 0 || b.Armies[from] < 2 || b.Armies[from] <= b.Armies[target] {
		return hogWild(b, p)
	}
	return blitz(from, target), true
}

// Occupy moves half the attacking territory's armies, rounded up.
func (c *Communist) Occupy(s *sim.State, from, to, lo, hi int) int {
	return min(max((s.Armies(from)+1)/2, lo), hi)
}

// Fortify evens out neighbouring territories.
func (c *Communist) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	c.b.Load(s)
	b, p := &c.b, c.Seat
	n := len(b.Owner)
	c.cur, c.spare = grow(c.cur, n), grow(c.spare, n)
	for t, o := range b.Owner {
		if o == p {
			c.cur[t], c.spare[t] = b.Armies[t], b.Armies[t]-1
		}
	}
	start := len(buf)
	for changed := true; changed; {
		changed = false
		for t, o := range b.Owner {
			if o != p {
				continue
			}
			for _, u := range b.Map.Territories[t].Neighbors {
				if b.Owner[u] == p {
					var moved bool
					buf, moved = evenOut(c.cur, c.spare, t, u, buf, start)
					changed = changed || moved
				}
			}
		}
	}
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}

// evenOut moves half the difference of armies (cur) from t to its
// neighbour u, at most t's spare armies, when t holds more than one army
// more than u, and adds the move to the moves of buf from start on; moved
// reports whether it moved any.
func evenOut(cur, spare []int, t, u int, buf []sim.Move, start int) (_ []sim.Move, moved bool) {
	if cur[t]-cur[u] <= 1 || spare[t] == 0 {
		return buf, false
	}
	k := min((cur[t]-cur[u])/2, spare[t])
	cur[t] -= k
	cur[u] += k
	spare[t] -= k
	return appendMove(buf, start, sim.Move{From: t, To: u, Armies: k}), true
}

// appendMove appends mv to the moves buf[start:], merging it into an
// earlier move between the same territories.
func appendMove(buf []sim.Move, start int, mv sim.Move) []sim.Move {
	for i := start; i < len(buf); i++ {
		if buf[i].From == mv.From && buf[i].To == mv.To {
			buf[i].Armies += mv.Armies
			return buf
		}
	}
	return append(buf, mv)
}
