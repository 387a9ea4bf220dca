package blocks

import (
	"github.com/marslab-risk/marslab/sim"
)

// OneMoveUnlessOneStep returns moves as they are under the fortify mode
// [sim.FortifyOneStep], which allows them together, and otherwise only the
// move carrying the most armies (the first on ties), the one move the
// other modes allow; it reuses moves' storage. Every move must be between
// adjacent territories, as those of fortifyCluster and
// [Search.FortifyTowardFront] are.
func OneMoveUnlessOneStep(mode sim.FortifyMode, moves []sim.Move) []sim.Move {
	if mode == sim.FortifyOneStep || len(moves) <= 1 {
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

// stalemateArmies is the army total above which the Lux "stalemate
// breaker" attacks like hog wild ([StepStalemate]): more than 1,500 armies.
const stalemateArmies = 1500

// Dominates reports whether p's armies exceed the armies of all other
// players combined: the condition of the Lux "hog wild" block.
func Dominates(b *Board, p int) bool {
	own, other := 0, 0
	for t, o := range b.Owner {
		if o == p {
			own += b.Armies[t]
		} else {
			other += b.Armies[t]
		}
	}
	return own > other
}

// attackForCard returns the Lux "attack for card(k)" attack for p: the
// attack with the best ratio of armies (see [BestRatioAttack]) when that
// ratio exceeds k. The caller applies it only when nothing was conquered
// this turn (sim.State.ConqueredThisTurn). ok is false otherwise.
func attackForCard(b *Board, p int, k float64) (from, to int, ok bool) {
	from, to, ratio, ok := BestRatioAttack(b, p)
	if !ok || ratio <= k {
		return -1, -1, false
	}
	return from, to, true
}

// dominantPlayer returns the live opponent of p that holds at least half
// of all armies, of all income (sim.State.Income, cards not counted) or of
// all territories, the lowest seat if several do, or -1 if none does: the
// target of the Lux "kill dominant player" block.
func dominantPlayer(s *sim.State, p int) int {
	armies, income, terrs := 0, 0, s.NumTerritories()
	// The incomes of the first seats, kept from the first loop for the
	// second (Income walks the continents).
	var kept [8]int
	for q := range s.NumPlayers() {
		if s.Alive(q) {
			armies += s.TotalArmies(q)
			in := s.Income(q)
			income += in
			if q < len(kept) {
				kept[q] = in
			}
		}
	}
	for q := range s.NumPlayers() {
		if q == p || !s.Alive(q) {
			continue
		}
		in := 0
		if q < len(kept) {
			in = kept[q]
		} else {
			in = s.Income(q)
		}
		if 2*s.TotalArmies(q) >= armies || 2*in >= income || 2*s.TerritoryCount(q) >= terrs {
			return q
		}
	}
	return -1
}

// ownedByBonus returns the continent owned wholly by q with the largest
// bonus (lowest id on ties) among those not in done (a bit set of
// continent ids, up to 64), or -1.
func ownedByBonus(b *Board, q int, done uint64) int {
	best := -1
	for c, cont := range b.Map.Continents {
		if c < 64 && done&(1<<c) != 0 || !b.OwnsContinent(q, c) {
			continue
		}
		if best < 0 || cont.Bonus > b.Map.Continents[best].Bonus {
			best = c
		}
	}
	return best
}

// ownedMask returns the bit set of the continents with ids below 64 that q
// owns wholly.
func ownedMask(b *Board, q int) uint64 {
	var m uint64
	for c := range min(len(b.Map.Continents), 64) {
		if b.OwnsContinent(q, c) {
			m |= 1 << c
		}
	}
	return m
}

// killDominantPlace returns where the Lux "kill dominant player" block
// places p's armies against opponent q: the start of the cheapest route
// (see [Search.RouteToContinent]; one Search.routesInto for all of them) into
// any continent q owns. It returns the
// route buffer for reuse; ok is false when q owns no continent or p cannot
// reach one.
func killDominantPlace(route []int, r *Search, b *Board, p, q int) (at int, buf []int, ok bool) {
	var into uint64 // q's continents, or 0 (all) if one has an id >= 64
	for c := range b.Map.Continents {
		if b.OwnsContinent(q, c) {
			if c >= 64 {
				into = 0
				break
			}
			into |= 1 << c
		}
	}
	at, best := -1, 0
	searched := false
	for c := range b.Map.Continents {
		if !b.OwnsContinent(q, c) {
			continue
		}
		if !searched {
			r.routesInto(b, p, int(^uint(0)>>1), into)
			searched = true
		}
		var cost int
		var found bool
		route, cost, found = r.route(route[:0], c)
		if found && (at < 0 || cost < best) {
			at, best = route[0], cost
		}
	}
	return at, route, at >= 0
}

// killDominantAttack returns the next attack of the Lux "kill dominant
// player" block against opponent q: for each continent q owns, largest
// bonus first, the cheapest route into it (see [Search.RouteToContinent];
// one Search.routesInto for all of them);
// the first whose start holds more armies than the route's cost is
// attacked along its first step. It returns the route buffer for reuse; ok
// is false when no route qualifies.
func killDominantAttack(route []int, r *Search, b *Board, p, q int) (from, to int, buf []int, ok bool) {
	var done uint64
	searched := false
	for {
		c := ownedByBonus(b, q, done)
		if c < 0 || c >= 64 {
			return -1, -1, route, false
		}
		done |= 1 << c
		if !searched {
			// Only a route cheaper than p's strongest territory qualifies.
			strongest, _ := b.StrongestOwned(p)
			if strongest < 0 {
				return -1, -1, route, false
			}
			r.routesInto(b, p, b.Armies[strongest], ownedMask(b, q))
			searched = true
		}
		var cost int
		var found bool
		route, cost, found = r.route(route[:0], c)
		if found && len(route) >= 2 && b.Armies[route[0]] > cost && b.Armies[route[0]] >= 2 {
			return route[0], route[1], route, true
		}
	}
}

// addPlacement adds n armies on t to buf, merging with an existing entry.
func addPlacement(buf []sim.Placement, t, n int) []sim.Placement {
	for i := range buf {
		if buf[i].Territory == t {
			buf[i].Armies += n
			return buf
		}
	}
	return append(buf, sim.Placement{Territory: t, Armies: n})
}

// placed returns the armies buf already puts on t.
func placed(buf []sim.Placement, t int) int {
	for _, pl := range buf {
		if pl.Territory == t {
			return pl.Armies
		}
	}
	return 0
}

// exposed reports whether t, a border territory of continent c, has a
// neighbour outside c in a continent p does not own.
func exposed(b *Board, p, c, t int) bool {
	for _, u := range b.Map.Territories[t].Neighbors {
		if d := b.Map.Territories[u].Continent; d != c && !b.OwnsContinent(p, d) {
			return true
		}
	}
	return false
}

// placeToTakeContinent appends to buf the Lux "place to take continent(c)"
// placement of armies (> 0) for p, and returns it with the route buffer
// for reuse:
//   - if p owns c, one army at a time on the weakest (armies plus those
//     already placed, lowest id on ties) of c's border territories that
//     are exposed (have a neighbour in a continent p does not own), or of
//     all of c's border territories when none is exposed, or on c's lowest
//     territory when c has no border;
//   - else, if a territory of p in c has an enemy neighbour in c,
//     everything on the one with the most (lowest id on ties);
//   - else everything on the start of the cheapest route into c (see
//     Search.RouteToContinent).
//
// ok is false (buf unchanged) when p owns no territory.
func placeToTakeContinent(buf []sim.Placement, route []int, r *Search, b *Board, p, c, armies int) ([]sim.Placement, []int, bool) {
	cont := &b.Map.Continents[c]
	if b.OwnsContinent(p, c) {
		anyExposed := false
		for _, t := range cont.Borders {
			if exposed(b, p, c, t) {
				anyExposed = true
				break
			}
		}
		if len(cont.Borders) == 0 {
			return addPlacement(buf, cont.Territories[0], armies), route, true
		}
		for range armies {
			best, least := -1, 0
			for _, t := range cont.Borders {
				if anyExposed && !exposed(b, p, c, t) {
					continue
				}
				if a := b.Armies[t] + placed(buf, t); best < 0 || a < least {
					best, least = t, a
				}
			}
			buf = addPlacement(buf, best, 1)
		}
		return buf, route, true
	}
	if best := b.innerFront(p, c, 0); best >= 0 {
		return addPlacement(buf, best, armies), route, true
	}
	route, _, ok := r.RouteToContinent(route[:0], b, p, c)
	if !ok {
		return buf, route, false
	}
	return addPlacement(buf, route[0], armies), route, true
}

// placeOnClusterBorder appends to buf the Lux "place on cluster border"
// placement of armies (> 0) for p around root (p's): repeatedly
// max(1, armies/100) armies on the weakest border territory of root's
// cluster (see Search.appendClusterBorder; armies plus those already
// placed, lowest id on ties), or everything on root when the cluster has
// no border. It returns buf and the border buffer for reuse.
func placeOnClusterBorder(buf []sim.Placement, border []int, r *Search, b *Board, p, root, armies int) ([]sim.Placement, []int) {
	border = r.appendClusterBorder(border[:0], b, p, root)
	if len(border) == 0 {
		return addPlacement(buf, root, armies), border
	}
	step := max(1, armies/100)
	for left := armies; left > 0; left -= step {
		step = min(step, left)
		best, least := -1, 0
		for _, t := range border {
			if a := b.Armies[t] + placed(buf, t); best < 0 || a < least {
				best, least = t, a
			}
		}
		buf = addPlacement(buf, best, step)
	}
	return buf, border
}

// fortifyCluster appends to buf the Lux "fortify cluster" moves of p
// around root (p's): every territory of root's cluster without an enemy
// neighbour moves all its movable armies one step toward the cluster's
// border (see [Search.FortifyTowardFront]). The moves are legal together
// under [sim.FortifyOneStep]; under the other modes the caller takes one.
func fortifyCluster(buf []sim.Move, r *Search, b *Board, p, root int) []sim.Move {
	start := len(buf)
	buf = r.FortifyTowardFront(buf, b, p)
	if len(buf) == start {
		return buf
	}
	// The cluster of root, marked once, decides every move.
	n := b.NumTerritories()
	if len(r.mark) < n {
		r.mark = make([]bool, n)
	}
	comp := r.component(b, p, root)
	for _, t := range comp {
		r.mark[t] = true
	}
	keep := buf[:start]
	for _, m := range buf[start:] {
		if r.mark[m.From] {
			keep = append(keep, m)
		}
	}
	for _, t := range comp {
		r.mark[t] = false
	}
	return keep
}

// Cashier chooses card sets for the Lux "cash cards if possible" block,
// with reusable buffers. The zero value is ready to use.
type Cashier struct {
	trades [][3]int
	hand   []sim.Card
}

// Best returns the set of p's hand (indices, as [sim.Player.Trade] answers)
// with the most cards of territories p owns, the fewest wild cards among
// those, the first in [sim.State.ValidTrades] order among those; ok is false
// when p holds no set or s hides p's hand.
func (c *Cashier) Best(s *sim.State, p int) (set [3]int, ok bool) {
	c.trades, ok = s.ValidTrades(p, c.trades[:0])
	if !ok || len(c.trades) == 0 {
		return set, false
	}
	if p == s.Seat() {
		c.hand = s.Hand(c.hand[:0])
	} else if c.hand, ok = s.HandOf(c.hand[:0], p); !ok {
		return set, false
	}
	bestOwned, bestWild := -1, 0
	for _, tr := range c.trades {
		owned, wild := 0, 0
		for _, i := range tr {
			card := c.hand[i]
			if card.Territory < 0 {
				wild++
			} else if s.Owner(int(card.Territory)) == p {
				owned++
			}
		}
		if owned > bestOwned || owned == bestOwned && wild < bestWild {
			set, bestOwned, bestWild = tr, owned, wild
		}
	}
	return set, true
}
