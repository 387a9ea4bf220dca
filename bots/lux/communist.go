package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Communist is the Lux bot Communist: it spreads its armies evenly, as
// Communist.java of the Lux SDK plays it.
//
//   - Placement (Communist.placeArmies, and the starting armies, which Lux's
//     placeInitialArmies forwards to it): level by level over all its
//     territories, interior ones included: find the fewest armies any of
//     them holds, put one army on each territory at that level in id order,
//     and repeat until the armies are used (the last level gets armies on
//     its first territories only).
//   - Attack (Communist.attackPhase and setExpandos): one attack per turn.
//     Walking its territories in id order and each one's neighbours in the
//     map's order, it keeps the first pair (own territory, enemy neighbour)
//     whose enemy holds strictly fewer armies than any enemy seen before:
//     the target is the weakest enemy territory next to it, and the
//     attacker the first of its territories in id order next to an enemy
//     that weak (not the strongest). It attacks to the end if the attacker
//     holds more armies than the target. Lux's Communist spares other
//     Communists unless only Communists are left; a sim.State does not say
//     which bot sits at a seat, so this Communist treats every other seat as
//     an enemy (in the paper's tournament no two Communists meet). After that
//     attack (made or not), hog wild and the stalemate breaker
//     (SmartAgentBase.attackHogWild, attackStalemate): once its armies
//     exceed all enemies' combined, or number more than 1,500,
//     attackAsMuchAsPossible: full sweeps over its territories in id order,
//     each the root of the triple attack pack repeated and of split up(0.01)
//     repeated, until a sweep launches no attack (blocks.StepHogWild,
//     blocks.StepStalemate).
//   - Move-in (Communist.moveArmiesIn): half the attacking territory's
//     armies, rounded up, within the engine's bounds.
//   - Fortify (Communist.fortifyPhase): repeatedly, over pairs of
//     neighbouring owned territories in id order, moves half of any
//     difference above 1 from the stronger to the weaker (rounded down),
//     moving only armies present at the start of the phase (Lux's
//     moveableArmies: all of them under fortify.movable = "start", each
//     move leaving one army, else all but one), so that the moves are
//     legal together under the one-step rule; under the other fortify
//     modes only the largest move is made.
//   - Cards: never cashes voluntarily; when the engine forces a trade, the
//     set of ForcedSet.
//
// Communist has one parameter, forced_set.
type Communist struct {
	cashier // sim.BasePlayer, and the forced trade's set (ForcedSet)
	b       blocks.Board
	l       blocks.Lux    // SmartAgentBase: hog wild and the stalemate breaker
	plan    []blocks.Step // the attack plan: the one attack, hog wild, stalemate
	cur     []int         // scratch: armies as the fortify moves leave them
	spare   []int         // scratch: armies that may still leave each territory
	add     []int         // scratch: armies placed on each territory
}

// Start prepares Communist for a new game.
func (c *Communist) Start(s *sim.State, seat int, rng *rand.Rand) {
	c.start(s, seat, rng)
	c.l.Start(seat, rng)
	c.plan = append(c.plan[:0],
		blocks.Step{Proc: blocks.StepCustom, Custom: communistAttack{c}},
		blocks.Step{Proc: blocks.StepHogWild},
		blocks.Step{Proc: blocks.StepStalemate})
}

// communistAttack is Communist.attackPhase's one attack as a step of the
// plan (blocks.Resumable).
type communistAttack struct{ c *Communist }

// Next returns the turn's one attack when the step starts, and ends the
// step at the next call.
func (a communistAttack) Next(l *blocks.Lux, start bool) (from, to, memory int, done, result bool) {
	if !start {
		return 0, 0, blocks.MoveUnset, true, false
	}
	b, p := &l.B, l.Seat
	from, target := -1, -1
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p && (target < 0 || b.Armies[u] < b.Armies[target]) {
				from, target = t, u
			}
		}
	}
	if target < 0 || b.Armies[from] <= b.Armies[target] {
		return 0, 0, blocks.MoveUnset, true, false
	}
	return from, target, blocks.MoveUnset, false, false
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

// level adds armies to c.add level by level (Communist.placeArmies): one
// army on each owned territory holding the fewest armies (counting c.add),
// in id order, until the armies are used.
func (c *Communist) level(armies int) {
	b, p := &c.b, c.Seat
	c.add = grow(c.add, len(b.Owner))
	for armies > 0 {
		least := -1
		for t, o := range b.Owner {
			if o == p && (least < 0 || b.Armies[t]+c.add[t] < least) {
				least = b.Armies[t] + c.add[t]
			}
		}
		if least < 0 {
			return
		}
		for t, o := range b.Owner {
			if armies > 0 && o == p && b.Armies[t]+c.add[t] == least {
				c.add[t]++
				armies--
			}
		}
	}
}

// PlaceInitial places where Place would put one army: the first territory
// in id order with the fewest armies.
func (c *Communist) PlaceInitial(s *sim.State) int {
	c.b.Load(s)
	c.level(1)
	for t, k := range c.add {
		if k > 0 {
			return t
		}
	}
	return s.FirstOwned(c.Seat)
}

// Place puts the armies level by level on the territories with the fewest
// armies.
func (c *Communist) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.b.Load(s)
	c.level(armies)
	for t, k := range c.add {
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// Attack orders the turn's one attack on the weakest adjacent enemy from
// the first territory next to it, then the attacks of hog wild and the
// stalemate breaker (SmartAgentBase.attackHogWild, attackStalemate, as
// blocks.StepHogWild and blocks.StepStalemate play them).
func (c *Communist) Attack(s *sim.State) (sim.AttackOrder, bool) {
	return c.l.NextAttack(s, c.plan)
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
			c.cur[t], c.spare[t] = b.Armies[t], movable(s.Rules(), b.Armies[t])
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
