package lux

import (
	"math/rand/v2"
	"slices"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Pixie is the Lux bot Pixie, and with Evil set its variant EvilPixie:
// it picks the continents it can take cheaply and fights for them.
//
// Wanted continents: for each continent, need = enemy armies in it - its
// armies in it - its armies on territories outside it adjoining it; the
// continent is wanted when need < (armies to place / number of continents)
// and its bonus is positive. The set is computed at each placement and kept
// for the turn's attacks.
//
//   - Placement: round after round, one army to each wanted continent that
//     needs help (not owned, or one of its border territories, those with a
//     neighbour outside it, holds at most Threshold armies, counting armies
//     placed), through place to take continent (see takeContinentTarget),
//     until no wanted continent needs help; the rest one at a time,
//     round-robin in id order, to its territories with an enemy neighbour.
//     Place to take continent reinforces only exposed border territories
//     (those with a neighbour in a continent Pixie does not own), so an
//     owned continent with a weak border territory facing only its own
//     continents needs help to the end of the placement, and its exposed
//     borders take those armies. With nothing wanted, every army
//     goes to take the easiest continent (least need, positive bonus; the
//     lowest id on ties). Each starting army is placed as the first army of
//     a placement of 1.
//   - Attack: in each wanted continent (id order), every enemy territory
//     (id order) is attacked, to the end, from any owned neighbour with more
//     armies: the first in the map's neighbour order that holds at least 2
//     and more than Ratio times its armies (anyOutnumbering; after a failed
//     attack the next such neighbour takes over); then attack for
//     card(1): if nothing was conquered this turn, blocks.AttackForCard
//     with k = CardRatio; then hog wild and the stalemate breaker
//     (blocks.HogWild).
//   - Move-in: everything if the attacking territory has no enemy neighbour
//     left; the minimum if the captured territory has none; otherwise
//     everything if only the captured territory is in a wanted continent,
//     the minimum if only the attacking one is, and half the attacking
//     territory's armies (rounded up, within the engine's bounds) else.
//   - Fortify: only territories without an enemy neighbour move, all their
//     movable armies: inside a continent it owns, one step toward the
//     nearest front (blocks.Search.FortifyTowardFront); elsewhere to the
//     owned neighbour whose weakest enemy neighbour is the weakest, or, with
//     no owned neighbour facing an enemy, one step toward the front. The
//     moves are legal together under the one-step rule; under the other
//     fortify modes only the largest is made.
//   - Cards: Pixie never cashes voluntarily.
//
// EvilPixie (Evil true, Ratio 1.3, CardRatio 5) differs: its Threshold is
// drawn at random in [7, 21] at the start of each game; it cashes cards
// whenever it can (blocks.Cashier: the set with the most cards of its own
// territories, wilds last); it plays "kill dominant player" first: when an
// opponent holds at least half of all armies, income or territories
// (blocks.DominantPlayer), it places everything at the start of the
// cheapest route into one of that opponent's continents
// (blocks.KillDominantPlace) and attacks along such routes before anything
// else (blocks.KillDominantAttack); when its armies exceed all
// enemies' combined, and for the armies left once no wanted continent
// needs help, it places, for each enemy territory in id order next to one of
// its own that does not yet outnumber it, just enough armies on that
// strongest neighbour to hold one more army than it (leftovers then go
// round-robin as Pixie's). Before the continent attacks it attacks to break
// any continent an enemy owns (the weakest enemy territory of the
// continent that one of its territories outnumbers by Ratio) and to
// eliminate any player holding less than a fifth of its armies (that
// player's weakest territory that it outnumbers by Ratio), each from the
// strongest owned neighbour (outnumbering): the description names no
// attacking territory for these, and the strongest is the one that
// outnumbers the target if any does. Fortify:
// balances the armies of the border territories of each continent it owns
// (half the difference, as Communist does) besides Pixie's moves.
//
// The initial territory pick of Lux (the smallest continent) does not arise:
// the engine deals the territories.
type Pixie struct {
	sim.BasePlayer
	// Ratio is the least ratio of attacker to defender armies, exceeded, for
	// an attack inside a wanted continent (1 for Pixie, 1.3 for EvilPixie).
	Ratio float64
	// CardRatio is the ratio the best attack must exceed for attack for
	// card (1 for Pixie, 5 for EvilPixie).
	CardRatio float64
	// Threshold is the army count at or below which a border territory of
	// an owned wanted continent needs help (20 for Pixie).
	Threshold int
	// Evil selects EvilPixie's extra placement, attacks, card cashing and
	// fortification (see the type's doc).
	Evil bool

	threshold int // the game's threshold (EvilPixie draws it)
	b         blocks.Board
	r         blocks.Search
	wanted    []bool // wanted continents, from the last placement
	add       []int  // scratch: armies placed on each territory
	route     []int  // scratch: a route into a continent
	cur       []int  // scratch: armies as fortify moves leave them
	spare     []int  // scratch: armies that may still leave a territory
	front     []sim.Move
	pl        []sim.Placement
	target    []int  // per continent: the placement's target, or unknownTarget
	owned     []bool // per continent: owned by Pixie at the placement
	cash      blocks.Cashier
}

// Start prepares Pixie for a new game.
func (x *Pixie) Start(s *sim.State, seat int, rng *rand.Rand) {
	x.BasePlayer.Start(s, seat, rng)
	x.threshold = x.Threshold
	if x.Evil && rng != nil {
		x.threshold = 7 + rng.IntN(15)
	}
	x.wanted = x.wanted[:0]
}

// Trade cashes the most valuable set whenever it can (EvilPixie only).
func (x *Pixie) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if !x.Evil {
		return [3]int{}, false
	}
	return x.cash.Best(s, x.Seat)
}

// need returns continent c's need for p: enemy armies in it less p's
// armies in it and on p's territories outside it adjoining it.
func need(b *blocks.Board, p int, c *sim.Continent, mark []int) int {
	n := 0
	for _, t := range c.Territories {
		if b.Owner[t] == p {
			n -= b.Armies[t]
		} else {
			n += b.Armies[t]
		}
	}
	// mark[u] == 1 flags u as counted; cleared before returning.
	for _, t := range c.Territories {
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && b.Map.Territories[u].Continent != b.Map.Territories[t].Continent && mark[u] == 0 {
				mark[u] = 1
				n -= b.Armies[u]
			}
		}
	}
	for _, t := range c.Territories {
		for _, u := range b.Map.Territories[t].Neighbors {
			mark[u] = 0
		}
	}
	return n
}

// findWanted sets x.wanted for a placement of armies armies and returns
// the easiest continent (least need among those with a positive bonus, -1
// if none).
func (x *Pixie) findWanted(armies int) int {
	b, p := &x.b, x.Seat
	cs := b.Map.Continents
	if cap(x.wanted) < len(cs) {
		x.wanted = make([]bool, len(cs))
	}
	x.wanted = x.wanted[:len(cs)]
	x.add = grow(x.add, len(b.Owner))
	if cap(x.target) < len(cs) {
		x.target = make([]int, len(cs))
	}
	x.target = x.target[:len(cs)]
	if cap(x.owned) < len(cs) {
		x.owned = make([]bool, len(cs))
	}
	x.owned = x.owned[:len(cs)]
	for c := range x.target {
		x.target[c] = unknownTarget
		x.owned[c] = b.OwnsContinent(p, c)
	}
	easiest, least := -1, 0
	share := float64(armies) / float64(len(cs))
	for c := range cs {
		n := need(b, p, &cs[c], x.add)
		x.wanted[c] = cs[c].Bonus > 0 && float64(n) < share
		if cs[c].Bonus > 0 && (easiest < 0 || n < least) {
			easiest, least = c, n
		}
	}
	return easiest
}

// exposed reports whether t, a border territory of continent c, has a
// neighbour outside c in a continent that Pixie does not own (x.owned).
func (x *Pixie) exposed(c, t int) bool {
	for _, u := range x.b.Map.Territories[t].Neighbors {
		if cu := x.b.Map.Territories[u].Continent; cu != c && !x.owned[cu] {
			return true
		}
	}
	return false
}

// needsHelp reports whether continent c, counting the armies placed in
// x.add, is not p's or has a border territory (one with a neighbour
// outside c, exposed or not) holding at most the threshold.
func (x *Pixie) needsHelp(c int) bool {
	b := &x.b
	if !x.owned[c] {
		return true
	}
	for _, t := range b.Map.Continents[c].Borders {
		if b.Armies[t]+x.add[t] <= x.threshold {
			return true
		}
	}
	return false
}

// takeContinentTarget returns the territory on which the Lux block "place
// to take continent" puts p's next army for continent c, counting the
// armies already placed in add: if p owns c, its exposed border territory
// with the fewest armies (of all its border territories if none is
// exposed, as blocks.PlaceToTakeContinent does; lowest id on ties); else
// p's territory in c with the most enemy neighbours in c; else the start of
// the cheapest route into c (blocks.Search.RouteToContinent). It returns -1
// when p owns nothing. It is blocks.PlaceToTakeContinent one army at a
// time, so that Pixie can interleave its continents, with the target of a
// continent it does not own computed once per placement.
func (x *Pixie) takeContinentTarget(c int, add []int) int {
	b, p := &x.b, x.Seat
	cont := &b.Map.Continents[c]
	if x.target[c] != unknownTarget {
		return x.target[c]
	}
	if x.owned[c] {
		best, open := -1, false
		for _, t := range cont.Borders {
			e := x.exposed(c, t)
			if best < 0 || e && !open || e == open && b.Armies[t]+add[t] < b.Armies[best]+add[best] {
				best, open = t, e
			}
		}
		if best >= 0 {
			return best
		}
		return cont.Territories[0]
	}
	best := b.InnerFront(p, c, -1)
	if best < 0 {
		var ok bool
		if x.route, _, ok = x.r.RouteToContinent(x.route[:0], b, p, c); ok {
			best = x.route[0]
		}
	}
	x.target[c] = best // the same for every army of this placement
	return best
}

// unknownTarget marks a continent whose target for an army not owned
// continent has not been computed in the current placement.
const unknownTarget = -2

// PlaceInitial places a starting army as the first army of a placement.
func (x *Pixie) PlaceInitial(s *sim.State) int {
	x.pl = x.place(s, 1, x.pl[:0])
	return x.pl[0].Territory
}

// Place distributes the armies over the wanted continents and the front.
func (x *Pixie) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return x.place(s, armies, buf)
}

func (x *Pixie) place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	x.b.Load(s)
	b, p := &x.b, x.Seat
	easiest := x.findWanted(armies)
	add := x.add // zeroed by findWanted
	left := armies
	if x.Evil {
		if q := blocks.DominantPlayer(s, p); q >= 0 {
			var at int
			var ok bool
			if at, x.route, ok = blocks.KillDominantPlace(x.route, &x.r, b, p, q); ok {
				return append(buf, sim.Placement{Territory: at, Armies: armies})
			}
		}
	}
	if x.Evil && blocks.Dominates(b, p) {
		left = x.placeOutnumber(left, add)
	}
	if !slices.Contains(x.wanted, true) && easiest >= 0 {
		for ; left > 0; left-- {
			t := x.takeContinentTarget(easiest, add)
			if t < 0 {
				break
			}
			add[t]++
		}
	}
	for progress := true; progress && left > 0; {
		progress = false
		for c, w := range x.wanted {
			if left == 0 {
				break
			}
			if !w || !x.needsHelp(c) {
				continue
			}
			t := x.takeContinentTarget(c, add)
			if t < 0 {
				continue
			}
			add[t]++
			left--
			progress = true
		}
	}
	if x.Evil && left > 0 {
		left = x.placeOutnumber(left, add)
	}
	for left > 0 {
		placed := false
		for t := range b.Owner {
			if left == 0 {
				break
			}
			if b.IsBorder(p, t) {
				add[t]++
				left--
				placed = true
			}
		}
		if !placed {
			add[b.WeakestOwned(p)] += left
			left = 0
		}
	}
	for t, k := range add {
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// placeOutnumber places, of left armies, just enough next to each enemy
// territory (id order) that p does not yet outnumber to hold one army
// more, on its strongest owned neighbour, and returns the armies left.
func (x *Pixie) placeOutnumber(left int, add []int) int {
	b, p := &x.b, x.Seat
	for t, o := range b.Owner {
		if left == 0 {
			break
		}
		if o == p {
			continue
		}
		f := -1
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && (f < 0 || b.Armies[u]+add[u] > b.Armies[f]+add[f]) {
				f = u
			}
		}
		if f < 0 {
			continue
		}
		if short := b.Armies[t] + 1 - (b.Armies[f] + add[f]); short > 0 {
			k := min(short, left)
			add[f] += k
			left -= k
		}
	}
	return left
}

// outnumbering returns p's neighbour of enemy territory t with the most
// armies if it holds at least 2 and more than ratio times t's armies, or -1.
func outnumbering(b *blocks.Board, p, t int, ratio float64) int {
	f := b.StrongestOwnedNeighbor(p, t)
	if f < 0 || b.Armies[f] < 2 || float64(b.Armies[f]) <= ratio*float64(b.Armies[t]) {
		return -1
	}
	return f
}

// anyOutnumbering returns the first of p's neighbours of enemy territory t,
// in the map's neighbour order, that holds at least 2 armies and more than
// ratio times t's armies, or -1: Pixie's "any owned neighbour with more
// armies".
func anyOutnumbering(b *blocks.Board, p, t int, ratio float64) int {
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] == p && b.Armies[u] >= 2 && float64(b.Armies[u]) > ratio*float64(b.Armies[t]) {
			return u
		}
	}
	return -1
}

// Attack orders the next attack: EvilPixie's continent breaking and
// eliminations, the attacks in the wanted continents, attack for card, hog
// wild and the stalemate breaker, in that order.
func (x *Pixie) Attack(s *sim.State) (sim.AttackOrder, bool) {
	x.b.Load(s)
	b, p := &x.b, x.Seat
	if x.Evil {
		if o, ok := x.evilAttack(s); ok {
			return o, true
		}
	}
	for c, w := range x.wanted {
		if !w {
			continue
		}
		for _, t := range b.Map.Continents[c].Territories {
			if b.Owner[t] == p {
				continue
			}
			if f := anyOutnumbering(b, p, t, x.Ratio); f >= 0 {
				return blitz(f, t), true
			}
		}
	}
	if !s.ConqueredThisTurn() {
		if from, to, ok := blocks.AttackForCard(b, p, x.CardRatio); ok {
			return blitz(from, to), true
		}
	}
	return hogWild(b, p)
}

// evilAttack returns EvilPixie's attack against a dominant player, to break
// an enemy's continent or to eliminate a player holding less than a fifth
// of its armies.
func (x *Pixie) evilAttack(s *sim.State) (sim.AttackOrder, bool) {
	b, p := &x.b, x.Seat
	if q := blocks.DominantPlayer(s, p); q >= 0 {
		from, to, route, ok := blocks.KillDominantAttack(x.route, &x.r, b, p, q)
		x.route = route
		if ok {
			return blitz(from, to), true
		}
	}
	for c := range b.Map.Continents {
		q := b.Owner[b.Map.Continents[c].Territories[0]]
		if q == p || !b.OwnsContinent(q, c) {
			continue
		}
		if o, ok := x.weakestTarget(b.Map.Continents[c].Territories, q); ok {
			return o, true
		}
	}
	own := b.TotalArmies(p)
	for q := range s.NumPlayers() {
		if q == p || !s.Alive(q) || 5*b.TotalArmies(q) >= own {
			continue
		}
		for t, o := range b.Owner {
			if o != q {
				continue
			}
			if f := outnumbering(b, p, t, x.Ratio); f >= 0 {
				// The weakest such territory of q.
				best, from := t, f
				for u := t + 1; u < len(b.Owner); u++ {
					if b.Owner[u] == q && b.Armies[u] < b.Armies[best] {
						if g := outnumbering(b, p, u, x.Ratio); g >= 0 {
							best, from = u, g
						}
					}
				}
				return blitz(from, best), true
			}
		}
	}
	return sim.AttackOrder{}, false
}

// weakestTarget returns the attack on the weakest territory of ts owned by
// q that a territory of Pixie's outnumbers by Ratio (the first on ties).
func (x *Pixie) weakestTarget(ts []int, q int) (sim.AttackOrder, bool) {
	b, p := &x.b, x.Seat
	best, from := -1, -1
	for _, t := range ts {
		if b.Owner[t] != q || (best >= 0 && b.Armies[t] >= b.Armies[best]) {
			continue
		}
		if f := outnumbering(b, p, t, x.Ratio); f >= 0 {
			best, from = t, f
		}
	}
	if best < 0 {
		return sim.AttackOrder{}, false
	}
	return blitz(from, best), true
}

// inWanted reports whether territory t lies in a wanted continent.
func (x *Pixie) inWanted(t int) bool {
	c := x.b.Map.Territories[t].Continent
	return c < len(x.wanted) && x.wanted[c]
}

// Occupy decides the move-in by enemy neighbour counts, then wanted
// continent membership, then half.
func (x *Pixie) Occupy(s *sim.State, from, to, lo, hi int) int {
	x.b.Load(s)
	b, p := &x.b, x.Seat
	switch {
	case enemyNeighborsAfter(b, p, from, to) == 0:
		return hi
	case enemyNeighborsAfter(b, p, to, to) == 0:
		return lo
	case x.inWanted(to) && !x.inWanted(from):
		return hi
	case x.inWanted(from) && !x.inWanted(to):
		return lo
	}
	return min(max((b.Armies[from]+1)/2, lo), hi)
}

// Fortify moves interior armies toward the front (and, for EvilPixie,
// balances the borders of its continents).
func (x *Pixie) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	x.b.Load(s)
	b, p := &x.b, x.Seat
	n := len(b.Owner)
	x.front = x.r.FortifyTowardFront(x.front[:0], b, p)
	x.cur, x.spare = grow(x.cur, n), grow(x.spare, n)
	for t, o := range b.Owner {
		if o == p {
			x.cur[t], x.spare[t] = b.Armies[t], b.Armies[t]-1
		}
	}
	start := len(buf)
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 || b.EnemyNeighbors(p, t) > 0 {
			continue
		}
		to := -1
		if !b.OwnsContinent(p, b.Map.Territories[t].Continent) {
			weakest := 0
			for _, u := range b.Map.Territories[t].Neighbors {
				if b.Owner[u] != p {
					continue
				}
				if w := b.WeakestEnemyNeighbor(p, u); w >= 0 && (to < 0 || b.Armies[w] < weakest) {
					to, weakest = u, b.Armies[w]
				}
			}
		}
		if to < 0 {
			for _, mv := range x.front {
				if mv.From == t {
					to = mv.To
					break
				}
			}
		}
		if to >= 0 {
			k := x.spare[t]
			x.cur[t] -= k
			x.cur[to] += k
			x.spare[t] = 0
			buf = append(buf, sim.Move{From: t, To: to, Armies: k})
		}
	}
	if x.Evil {
		buf = x.balanceBorders(buf, start)
	}
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}

// balanceBorders appends EvilPixie's balancing moves: between neighbouring
// border territories of a continent it owns, half of any difference above
// 1, repeatedly, from the armies that have not moved yet.
func (x *Pixie) balanceBorders(buf []sim.Move, start int) []sim.Move {
	b, p := &x.b, x.Seat
	for changed := true; changed; {
		changed = false
		for c := range b.Map.Continents {
			if !b.OwnsContinent(p, c) {
				continue
			}
			bs := b.Map.Continents[c].Borders
			for _, t := range bs {
				for _, u := range bs {
					if b.Map.Adjacent(t, u) {
						var moved bool
						buf, moved = evenOut(x.cur, x.spare, t, u, buf, start)
						changed = changed || moved
					}
				}
			}
		}
	}
	return buf
}
