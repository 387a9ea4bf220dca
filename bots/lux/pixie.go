package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Pixie is the Lux bot Pixie (LuxSDK Pixie.java, extending
// SmartAgentBase.java), and with Evil set its variant EvilPixie
// (EvilPixie.java, extending Pixie.java), as the published source behaves,
// quirks included. It picks the continents it can take cheaply and fights
// for them.
//
// Wanted continents (Pixie.setupOurConts): for each continent, need =
// enemy armies in it - Pixie's armies in it - Pixie's armies on
// territories outside it adjoining its border territories; the continent
// is wanted when need < armies to place / number of continents and its
// bonus is positive. The set is computed at every placement (the turn's,
// and one after an elimination's forced trade) and read by the attacks and
// move-ins that follow; EvilPixie leaves it as it was when its hog wild
// placement or its kill dominant placement decides (see below).
//
// Placement (Pixie.placeArmies). Armies placed count at once: every later
// test of the same placement sees them.
//   - Nothing wanted: every army through place to take continent
//     (SmartAgentBase.placeArmiesToTakeCont) into the easiest continent
//     (SmartAgentBase.getEasiestContToTake: the positive-bonus continent
//     with the highest ratio of Pixie's armies in it to the others'
//     armies in it, the lowest id on ties, an owned one first).
//   - Otherwise rounds over the continents in id order: each wanted
//     continent that needs help (Pixie.continentNeedsHelp: not owned, or
//     one of its border territories holds at most Threshold armies)
//     receives one army through place to take continent, until a round
//     finds none that needs help. Java checks the count of armies only
//     between rounds, so its last round can ask for more armies than it
//     has; the engine takes exactly the armies given, and the asks beyond
//     them are dropped.
//   - The rest (Pixie.placeRemainder, placeNearEnemies): one army at a
//     time, round-robin from id 0, to its territories with an enemy
//     neighbour.
//
// Place to take continent c, one army (SmartAgentBase.placeArmiesToTakeCont):
// if Pixie owns c, on the weakest of c's border territories that is not
// enveloped (SmartAgentBase.weOwnContsArround: every neighbour outside c
// lies in a continent Pixie owns), the first in id order on ties, or on a
// random border territory of c when every one is enveloped; otherwise on
// its territory in c with the most enemy neighbours in c (the first in id
// order on ties), or, with none, on the start of the cheapest route into c
// (blocks.Search.RouteToContinent).
//
// Attack (Pixie.attackPhase), one pass, resumed at each call of Attack
// from a cursor kept in the bot (the engine asks for one order at a time):
//   - in each wanted continent (id order; Pixie.attackInContinent), each
//     territory not Pixie's when the pass reaches it (id order), each of its
//     neighbours in the map's neighbour order that Pixie owns and that holds
//     more than Ratio times the target's armies while the target is still
//     not Pixie's attacks it to the end. A repelled attack passes to the next
//     neighbour; a conquest ends the target. Territories conquered in the
//     pass attack from then on, but a target passed is never visited again,
//     so this is a single pass, not a repetition until nothing is left. The
//     comparison is made in 32-bit floating point, as Java's float
//     outnumberBy (1.3 × 90 is 116.99999 there, so 117 armies attack 90);
//   - then attack for card (SmartAgentBase.attackForCard(1)): with cards in
//     the game and nothing conquered this turn, the attack with the best
//     ratio of armies if it exceeds CardRatio (blocks.AttackForCard);
//   - then hog wild (SmartAgentBase.attackHogWild: armies above all
//     enemies' together) and the stalemate breaker (attackStalemate: more
//     than 1,500 armies), each tested once when the pass reaches it, then
//     attacking until nothing is left (blocks.HogWild).
//
// Move-in (Pixie.moveArmiesIn), which reads the captured territory as
// Pixie's (the engine shows it still as the defender's with 0 armies when
// it asks): compare the enemy neighbours of the attacking and of the
// captured territory. The attacker has more: the minimum; the captured
// more: everything; tied above 0: half the attacker's armies, rounded down;
// tied at 0: half if both or neither lie in a wanted continent, the minimum
// if only the attacker's does, everything if only the captured's does.
// Java's answer is rounded into the engine's bounds, as Lux does.
//
// Fortify (Pixie.fortifyPhase), continent after continent in id order, with
// each territory's movable armies its armies at the start of the phase
// less one (armies that arrive do not move on; Lux lets a territory that
// received armies send all of its own, the engine keeps one back):
//   - a continent Pixie owns (Pixie.fortifyContinent): breadth-first from
//     its border territories inward through the continent, each interior
//     territory, when reached, sends all its movable armies to the
//     territory that reached it, one step toward the continent's border,
//     even a border facing only continents Pixie owns;
//   - a continent it does not own (Pixie.fortifyContinentScraps): each of
//     its territories there with movable armies, front line included,
//     sends them all to its neighbour whose weakest enemy neighbour is the
//     weakest (the first in the map's neighbour order on ties) if that
//     enemy is weaker than its own weakest enemy neighbour, or if it has
//     none. A territory two steps or more from an enemy, outside an owned
//     continent, keeps its armies: they are stranded, as in Java.
//
// Under the fortify modes that allow one move only, the largest of these
// moves is made.
//
// Cards: Pixie never cashes voluntarily (the engine trades when forced).
//
// EvilPixie (Evil true, Ratio 1.3, CardRatio 5) changes, as EvilPixie.java
// does:
//   - Threshold (borderForce) is drawn once per game, 7 + a uniform integer
//     in [0, 14] (the constructor).
//   - Cards (cardsPhase, SmartAgentBase.cashCardsIfPossible): one set per
//     turn, the one blocks.Cashier ranks first, when it holds one.
//   - Placement (placeArmies): first kill dominant player
//     (SmartAgentBase.placeArmiesToKillDominantPlayer): when an opponent
//     holds at least half of all armies, income or territories, everything
//     on the start of the cheapest route into one of its continents, and
//     the wanted continents become those with need < 0. Then hog wild
//     (placeHogWild): when its armies exceed all enemies' together, every
//     army goes through place to outnumber enemies and the wanted
//     continents are left as they were. Otherwise Pixie's placement, with
//     two overrides: a border territory needs help only if it holds at most
//     Threshold armies and is not enveloped (borderCountryNeedsHelp), and
//     place to take continent on an owned continent puts the army on the
//     weakest border territory that needs help (placeArmiesToTakeCont),
//     which is Pixie's choice whenever a border needs help, the only case
//     in which the rounds ask it; the rest goes through place to
//     outnumber enemies (placeRemainder).
//   - Place to outnumber enemies (placeToOutnumberEnemies): every enemy
//     territory that none of its neighbours of EvilPixie's outnumbers (as
//     the armies stand when it starts) is, in id order, reinforced from its
//     last neighbour of EvilPixie's in the map's neighbour order (Java's
//     search for the strongest never raises its running maximum) with
//     max(enemy - that neighbour's armies, 1) armies, which reaches only a
//     tie; the rest round-robin as Pixie's. Java places the count without
//     looking at the armies left; the engine forces a placement that sums
//     to the armies given, so the last reinforcement is cut to the armies
//     left (the only clamp).
//   - Attack (attackPhase): first kill dominant player against the
//     opponent chosen at the placement (SmartAgentBase.attackToKillPlayer;
//     blocks.KillDominantAttack); then for each continent in id order,
//     Pixie's attacks in it if wanted, then take out continent
//     (takeOutContinentCheck): if one enemy owns the whole continent, the
//     first of its border territories in id order that a neighbour of
//     EvilPixie's outnumbers (more armies, the first such neighbour in the
//     map's order) is attacked to the end, and that one attack, won or
//     lost, ends the check for the turn; then take out player
//     (takeOutPlayerCheck), for each other seat in order whose armies
//     EvilPixie's exceed five times when the check starts: each of its
//     territories in id order is attacked to the end from every neighbour
//     of EvilPixie's holding at least 2 armies, in the map's order, with no
//     odds check, until it falls; then attack for card(5), hog wild and the
//     stalemate breaker as Pixie.
//   - Fortify: on an owned continent Pixie's moves, then one pass over the
//     ordered pairs of adjacent border territories of the continent (id
//     order), the larger sending half the difference (rounded down) of the
//     armies as they stand, at most its movable armies (fortifyContinent);
//     on a continent it does not own, first each of its territories there
//     sends all its movable armies to its first neighbour, in the map's
//     order, lying in a continent EvilPixie owns (fortifyContinentScraps),
//     then Pixie's rule for what is left.
//   - Move-in: Pixie's (Java's EvilPixie keeps Pixie.moveArmiesIn, which
//     ignores the move-in memory of the kill dominant attacks).
//
// The initial territory pick of Lux does not arise: the engine deals the
// territories. Each starting army the engine asks for is placed as the
// first army of a placement of 1 (Lux's placeInitialArmies calls
// placeArmies).
type Pixie struct {
	sim.BasePlayer
	// Ratio is outnumberBy: an attack in a wanted continent needs more than
	// Ratio times the defender's armies (1 for Pixie, 1.3 for EvilPixie).
	Ratio float64
	// CardRatio is the ratio the best attack must exceed for attack for
	// card (1 for Pixie, 5 for EvilPixie).
	CardRatio float64
	// Threshold is borderForce for Pixie: a border territory of an owned
	// wanted continent holding at most Threshold armies needs help (20).
	// EvilPixie draws its own at Start and ignores it.
	Threshold int
	// Evil selects EvilPixie's overrides (see the type's doc).
	Evil bool

	threshold int // the game's borderForce (EvilPixie draws it)
	b         blocks.Board
	r         blocks.Search
	clock     turnClock
	cash      blocks.Cashier
	cashed    bool // EvilPixie traded its voluntary set this turn

	wanted []bool          // ourConts: the wanted continents of the last placement
	owned  []bool          // per continent: owned by the bot at the placement
	add    []int           // per territory: armies placed by the current placement
	mark   []bool          // scratch flags per territory, false between uses
	queue  []int           // scratch: the breadth-first queue of fortifyContinent
	route  []int           // scratch: a route into a continent
	pl     []sim.Placement // scratch: placements of a block
	cur    []int           // fortify: armies as the moves leave them
	spare  []int           // fortify: movable armies left

	kill int         // EvilPixie: mustKillPlayer, the dominant opponent, or -1
	cur0 pixieCursor // where the attack pass stands
}

// pixieCursor is the position of Pixie's attack pass within Java's nested
// loops: the stage, the continent, and the indices into the territory list
// and the neighbour list that the next order is looked for from.
type pixieCursor struct {
	stage int
	c     int  // continent (stageContinents) or seat (stagePlayers)
	i, j  int  // territory index in the list the stage walks, neighbour index
	check bool // stageContinents: the continent's own attacks are done (EvilPixie's check is next)
	on    bool // stagePlayers: the check of seat c holds; stageHogWild, stageStalemate: the block runs
	init  bool // stagePlayers, stageHogWild, stageStalemate: the entry test is made
}

// The stages of the attack pass, in order.
const (
	stageKill       = iota // EvilPixie: kill dominant player
	stageContinents        // wanted continents (and EvilPixie's take out continent)
	stagePlayers           // EvilPixie: take out player
	stageCard              // attack for card
	stageHogWild           // hog wild
	stageStalemate         // stalemate breaker
	stageDone
)

// Start prepares Pixie for a new game.
func (x *Pixie) Start(s *sim.State, seat int, rng *rand.Rand) {
	x.BasePlayer.Start(s, seat, rng)
	x.threshold = x.Threshold
	if x.Evil && rng != nil {
		x.threshold = 7 + rng.IntN(15)
	}
	x.clock.reset()
	x.wanted = x.wanted[:0]
	x.kill = -1
	x.cur0 = pixieCursor{}
	x.cashed = false
}

// beginTurn resets the state of a turn at the first call of a new turn
// (Java's cardsPhase clears mustKillPlayer).
func (x *Pixie) beginTurn(s *sim.State) {
	if !x.clock.newTurn(s) {
		return
	}
	x.cur0 = pixieCursor{}
	x.kill = -1
	x.cashed = false
}

// Trade cashes one set at the first ask of a turn when it holds one
// (EvilPixie only: EvilPixie.cardsPhase), and again whenever the engine
// forces a trade (Lux cashes for a bot left with too many cards).
func (x *Pixie) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if !x.Evil {
		return [3]int{}, false
	}
	x.beginTurn(s)
	if x.cashed && !forced {
		return [3]int{}, false
	}
	x.cashed = true
	return x.cash.Best(s, x.Seat)
}

// need returns continent c's need for p (Pixie.setupOurConts): enemy
// armies in it less p's armies in it and on p's territories outside it
// adjoining its border territories, each counted once. mark is all false
// and is left so.
func need(b *blocks.Board, p int, c *sim.Continent, mark []bool) int {
	n := 0
	for _, t := range c.Territories {
		if b.Owner[t] == p {
			n -= b.Armies[t]
		} else {
			n += b.Armies[t]
		}
	}
	for _, t := range c.Borders {
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && b.Map.Territories[u].Continent != b.Map.Territories[t].Continent && !mark[u] {
				mark[u] = true
				n -= b.Armies[u]
			}
		}
	}
	for _, t := range c.Borders {
		for _, u := range b.Map.Territories[t].Neighbors {
			mark[u] = false
		}
	}
	return n
}

// setupWanted sets the wanted continents for a placement of armies armies
// (Pixie.setupOurConts) and reports whether any is wanted.
func (x *Pixie) setupWanted(armies int) bool {
	b, p := &x.b, x.Seat
	cs := b.Map.Continents
	any := false
	for c := range cs {
		n := need(b, p, &cs[c], x.mark)
		// need < armies/len(cs), in exact arithmetic.
		x.wanted[c] = n*len(cs) < armies && cs[c].Bonus > 0
		any = any || x.wanted[c]
	}
	return any
}

// prepare loads s and sizes the per-placement buffers.
func (x *Pixie) prepare(s *sim.State) {
	x.b.Load(s)
	b := &x.b
	n, nc := len(b.Owner), len(b.Map.Continents)
	x.add = grow(x.add, n)
	if len(x.mark) < n {
		x.mark = make([]bool, n)
	}
	if cap(x.owned) < nc {
		x.owned = make([]bool, nc)
	}
	x.owned = x.owned[:nc]
	for c := range x.owned {
		x.owned[c] = b.OwnsContinent(x.Seat, c)
	}
	if len(x.wanted) != nc {
		if cap(x.wanted) < nc {
			x.wanted = make([]bool, nc)
		}
		x.wanted = x.wanted[:nc]
		clear(x.wanted)
	}
}

// armies returns t's armies counting those the current placement adds.
func (x *Pixie) armies(t int) int { return x.b.Armies[t] + x.add[t] }

// enveloped reports whether every neighbour of t outside t's continent lies
// in a continent owned by the bot (SmartAgentBase.weOwnContsArround).
func (x *Pixie) enveloped(t int) bool {
	m := x.b.Map
	c := m.Territories[t].Continent
	for _, u := range m.Territories[t].Neighbors {
		if cu := m.Territories[u].Continent; cu != c && !x.owned[cu] {
			return false
		}
	}
	return true
}

// borderNeedsHelp reports whether border territory t needs help
// (Pixie.borderCountryNeedsHelp; EvilPixie's override adds "and not
// enveloped").
func (x *Pixie) borderNeedsHelp(t int) bool {
	return x.armies(t) <= x.threshold && !(x.Evil && x.enveloped(t))
}

// needsHelp reports whether continent c needs help (Pixie.continentNeedsHelp).
func (x *Pixie) needsHelp(c int) bool {
	if !x.owned[c] {
		return true
	}
	for _, t := range x.b.Map.Continents[c].Borders {
		if x.borderNeedsHelp(t) {
			return true
		}
	}
	return false
}

// takeContinentTarget returns where place to take continent c puts one
// army (SmartAgentBase.placeArmiesToTakeCont, with EvilPixie's override on
// an owned continent), or -1 when the bot owns nothing to place on.
func (x *Pixie) takeContinentTarget(c int) int {
	b, p := &x.b, x.Seat
	cont := &b.Map.Continents[c]
	if x.owned[c] {
		best := -1
		for _, t := range cont.Borders {
			ok := !x.enveloped(t)
			if x.Evil {
				ok = x.borderNeedsHelp(t)
			}
			if ok && (best < 0 || x.armies(t) < x.armies(best)) {
				best = t
			}
		}
		switch {
		case best >= 0:
			return best
		case len(cont.Borders) == 0:
			// The whole map is one continent: Java's random border has
			// nothing to pick from; its lowest territory stands in.
			return cont.Territories[0]
		case x.Evil:
			// Java's override places on no territory here (an id of -1);
			// its callers never get here, as a border needing help is what
			// sends them. The weakest border stands in.
			for _, t := range cont.Borders {
				if best < 0 || x.armies(t) < x.armies(best) {
					best = t
				}
			}
			return best
		case x.RNG != nil:
			return cont.Borders[x.RNG.IntN(len(cont.Borders))]
		}
		return cont.Borders[0]
	}
	if t := b.InnerFront(p, c, 0); t >= 0 {
		return t
	}
	var ok bool
	if x.route, _, ok = x.r.RouteToContinent(x.route[:0], b, p, c); ok {
		return x.route[0]
	}
	return -1
}

// easiest returns the positive-bonus continent with the highest ratio of
// the bot's armies in it to the other players' armies in it, the lowest id
// on ties (an owned continent's ratio is infinite), or -1 if no continent
// has a positive bonus (SmartAgentBase.getEasiestContToTake).
func (x *Pixie) easiest() int {
	b, p := &x.b, x.Seat
	best, bo, be := -1, 0, 0
	for c, cont := range b.Map.Continents {
		if cont.Bonus <= 0 {
			continue
		}
		o, e := 0, 0
		for _, t := range cont.Territories {
			if b.Owner[t] == p {
				o += b.Armies[t]
			} else {
				e += b.Armies[t]
			}
		}
		// o/e > bo/be, with x/0 above every finite ratio.
		if best < 0 || (e == 0 && be != 0) || (e != 0 && be != 0 && o*be > bo*e) {
			best, bo, be = c, o, e
		}
	}
	return best
}

// PlaceInitial places a starting army as the first army of a placement of
// 1 (Lux's placeInitialArmies calls placeArmies).
func (x *Pixie) PlaceInitial(s *sim.State) int {
	x.place(s, 1)
	for t, k := range x.add {
		if k > 0 {
			return t
		}
	}
	return s.FirstOwned(x.Seat)
}

// Place distributes the armies as Pixie.placeArmies (EvilPixie.placeArmies)
// does.
func (x *Pixie) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	x.beginTurn(s)
	x.place(s, armies)
	return appendAdded(buf, x.add)
}

// place places armies armies in x.add as EvilPixie.placeArmies and
// Pixie.placeArmies do.
func (x *Pixie) place(s *sim.State, armies int) {
	x.prepare(s)
	if x.Evil {
		if at, ok := x.placeKillDominant(s); ok {
			x.add[at] += armies
			x.setupWanted(0)
			return
		}
	}
	x.placeArmies(armies)
}

// appendAdded appends the placements of add, in id order, to buf.
func appendAdded(buf []sim.Placement, add []int) []sim.Placement {
	for t, k := range add {
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// placeKillDominant records the dominant opponent, if any, for the turn's
// attacks, and returns the start of the cheapest route into one of its
// continents (SmartAgentBase.placeArmiesToKillDominantPlayer); ok is false
// when there is no dominant opponent or it owns no continent the bot can
// reach.
func (x *Pixie) placeKillDominant(s *sim.State) (at int, ok bool) {
	q := blocks.DominantPlayer(s, x.Seat)
	if q < 0 {
		return -1, false
	}
	x.kill = q
	at, x.route, ok = blocks.KillDominantPlace(x.route, &x.r, &x.b, x.Seat, q)
	return at, ok
}

// placeArmies places armies armies in x.add as Pixie.placeArmies does
// from its hog wild hook on (EvilPixie's overrides included).
func (x *Pixie) placeArmies(armies int) {
	if x.Evil && blocks.Dominates(&x.b, x.Seat) {
		x.placeToOutnumber(armies) // EvilPixie.placeHogWild
		return
	}
	if !x.setupWanted(armies) {
		c := x.easiest()
		if c < 0 {
			x.placeOnClusterBorder(armies)
			return
		}
		for left := armies; left > 0; left-- {
			t := x.takeContinentTarget(c)
			if t < 0 {
				x.placeNearEnemies(left)
				return
			}
			x.add[t]++
		}
		return
	}
	placed := 0
	for help := true; help && placed < armies; {
		help = false
		for c, w := range x.wanted {
			if placed == armies {
				break // the engine takes exactly armies (see the type's doc)
			}
			if !w || !x.needsHelp(c) {
				continue
			}
			t := x.takeContinentTarget(c)
			if t < 0 {
				continue
			}
			x.add[t]++
			placed++
			help = true
		}
	}
	if x.Evil {
		x.placeToOutnumber(armies - placed) // EvilPixie.placeRemainder
		return
	}
	x.placeNearEnemies(armies - placed)
}

// placeOnClusterBorder places n armies on the border of the cluster of the
// bot's largest army, as place to take continent does with no continent to
// take (SmartAgentBase.placeArmiesOnClusterBorder; blocks.PlaceOnClusterBorder).
func (x *Pixie) placeOnClusterBorder(n int) {
	root, _ := x.b.StrongestOwned(x.Seat)
	if root < 0 {
		return
	}
	x.pl, x.queue = blocks.PlaceOnClusterBorder(x.pl[:0], x.queue, &x.r, &x.b, x.Seat, root, n)
	for _, pl := range x.pl {
		x.add[pl.Territory] += pl.Armies
	}
}

// placeNearEnemies places n armies one at a time, round-robin from id 0,
// on the bot's territories with an enemy neighbour (Pixie.placeNearEnemies).
// With no such territory (Java would loop for ever) they go on its weakest
// territory.
func (x *Pixie) placeNearEnemies(n int) {
	b, p := &x.b, x.Seat
	for n > 0 {
		placed := false
		for t := range b.Owner {
			if n == 0 {
				break
			}
			if b.IsBorder(p, t) {
				x.add[t]++
				n--
				placed = true
			}
		}
		if !placed {
			x.add[b.WeakestOwned(p)] += n
			return
		}
	}
}

// placeToOutnumber places n armies as EvilPixie.placeToOutnumberEnemies
// does (see the type's doc).
func (x *Pixie) placeToOutnumber(n int) {
	b, p := &x.b, x.Seat
	// x.mark[t]: enemy territory t is outnumbered by a neighbour of p's, or
	// t is p's; fixed before any army is placed, as Java's array.
	for t, o := range b.Owner {
		x.mark[t] = o == p
		if o == p {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && x.armies(u) > b.Armies[t] {
				x.mark[t] = true
				break
			}
		}
	}
	for t := range b.Owner {
		if n <= 0 {
			break
		}
		if x.mark[t] {
			continue
		}
		us := -1
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p {
				us = u // Java's running maximum stays 0: the last one wins
			}
		}
		if us < 0 {
			continue
		}
		k := min(max(b.Armies[t]-x.armies(us), 1), n)
		x.add[us] += k
		n -= k
	}
	clear(x.mark[:len(b.Owner)])
	if n > 0 {
		x.placeNearEnemies(n)
	}
}

// outnumbers reports whether from's armies exceed ratio times to's, in
// 32-bit floating point as Java's float outnumberBy.
func outnumbers(from, to int, ratio float64) bool {
	return float32(from) > float32(float32(to)*float32(ratio))
}

// Attack returns the next order of the attack pass (Pixie.attackPhase,
// EvilPixie.attackPhase), resuming where the last order left it.
func (x *Pixie) Attack(s *sim.State) (sim.AttackOrder, bool) {
	x.beginTurn(s)
	x.b.Load(s)
	b, p := &x.b, x.Seat
	k := &x.cur0
	for {
		switch k.stage {
		case stageKill:
			if x.Evil && x.kill >= 0 && s.Alive(x.kill) {
				from, to, route, ok := blocks.KillDominantAttack(x.route, &x.r, b, p, x.kill)
				x.route = route
				if ok {
					return blitz(from, to), true
				}
			}
			*k = pixieCursor{stage: stageContinents}
		case stageContinents:
			for k.c < len(b.Map.Continents) {
				if !k.check {
					if k.c < len(x.wanted) && x.wanted[k.c] {
						if from, to, ok := x.inContinent(k); ok {
							return blitz(from, to), true
						}
					}
					k.check, k.i, k.j = true, 0, 0
				}
				c := k.c
				k.c, k.check, k.i, k.j = k.c+1, false, 0, 0
				if x.Evil {
					if from, to, ok := x.takeOutContinent(c); ok {
						return blitz(from, to), true
					}
				}
			}
			*k = pixieCursor{stage: stagePlayers}
		case stagePlayers:
			if x.Evil {
				if from, to, ok := x.takeOutPlayers(s, k); ok {
					return blitz(from, to), true
				}
			}
			*k = pixieCursor{stage: stageCard}
		case stageCard:
			*k = pixieCursor{stage: stageHogWild}
			if s.Rules().Cards.Mode != sim.CardsNone && !s.ConqueredThisTurn() {
				if from, to, ok := blocks.AttackForCard(b, p, x.CardRatio); ok {
					return blitz(from, to), true
				}
			}
		case stageHogWild, stageStalemate:
			if !k.init {
				k.init = true
				if k.stage == stageHogWild {
					k.on = blocks.Dominates(b, p)
				} else {
					k.on = blocks.Stalemate(b, p)
				}
			}
			if k.on {
				if from, to, ok := blocks.HogWild(b, p); ok {
					return blitz(from, to), true
				}
			}
			*k = pixieCursor{stage: k.stage + 1}
		default:
			return sim.AttackOrder{}, false
		}
	}
}

// inContinent returns the next attack of Pixie.attackInContinent in
// continent k.c from the cursor on, and moves the cursor past it.
func (x *Pixie) inContinent(k *pixieCursor) (from, to int, ok bool) {
	b, p := &x.b, x.Seat
	ts := b.Map.Continents[k.c].Territories
	for ; k.i < len(ts); k.i, k.j = k.i+1, 0 {
		t := ts[k.i]
		nb := b.Map.Territories[t].Neighbors
		for ; k.j < len(nb) && b.Owner[t] != p; k.j++ {
			u := nb[k.j]
			if b.Owner[u] == p && outnumbers(b.Armies[u], b.Armies[t], x.Ratio) {
				k.j++
				return u, t, true
			}
		}
	}
	return -1, -1, false
}

// takeOutContinent returns EvilPixie's one attack on continent c when one
// enemy owns all of it (EvilPixie.takeOutContinentCheck): the first border
// territory in id order that a neighbour of the bot's outnumbers, from the
// first such neighbour in the map's order.
func (x *Pixie) takeOutContinent(c int) (from, to int, ok bool) {
	b, p := &x.b, x.Seat
	cont := &b.Map.Continents[c]
	q := b.Owner[cont.Territories[0]]
	if q == p || !b.OwnsContinent(q, c) {
		return -1, -1, false
	}
	for _, t := range cont.Borders {
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && b.Armies[u] > b.Armies[t] {
				return u, t, true
			}
		}
	}
	return -1, -1, false
}

// takeOutPlayers returns the next attack of EvilPixie.takeOutPlayerCheck
// over the other seats in order from the cursor on (k.c the seat, k.i the
// territory, k.j the neighbour), and moves the cursor past it.
func (x *Pixie) takeOutPlayers(s *sim.State, k *pixieCursor) (from, to int, ok bool) {
	b, p := &x.b, x.Seat
	for ; k.c < s.NumPlayers(); k.c, k.i, k.j, k.init = k.c+1, 0, 0, false {
		q := k.c
		if q == p {
			continue
		}
		if !k.init {
			k.init = true
			k.on = b.TotalArmies(p) > 5*b.TotalArmies(q)
		}
		if !k.on {
			continue
		}
		for ; k.i < len(b.Owner); k.i, k.j = k.i+1, 0 {
			t := k.i
			nb := b.Map.Territories[t].Neighbors
			for ; k.j < len(nb) && b.Owner[t] == q; k.j++ {
				u := nb[k.j]
				if b.Owner[u] == p && b.Armies[u] > 1 {
					k.j++
					return u, t, true
				}
			}
		}
	}
	return -1, -1, false
}

// inWanted reports whether territory t lies in a wanted continent.
func (x *Pixie) inWanted(t int) bool {
	c := x.b.Map.Territories[t].Continent
	return c < len(x.wanted) && x.wanted[c]
}

// Occupy decides the move-in as Pixie.moveArmiesIn does, reading the
// captured territory as the bot's (see the type's doc).
func (x *Pixie) Occupy(s *sim.State, from, to, lo, hi int) int {
	x.b.Load(s)
	b, p := &x.b, x.Seat
	ae := enemyNeighborsAfter(b, p, from, to)
	de := enemyNeighborsAfter(b, p, to, to)
	half := b.Armies[from] / 2
	want := half
	switch {
	case ae > de:
		want = lo
	case de > ae:
		want = hi
	case ae > 0:
	case x.inWanted(from) && !x.inWanted(to):
		want = lo
	case x.inWanted(to) && !x.inWanted(from):
		want = hi
	}
	return min(max(want, lo), hi)
}

// Fortify makes Pixie.fortifyPhase's moves (EvilPixie's overrides
// included; see the type's doc).
func (x *Pixie) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	x.prepare(s)
	b, p := &x.b, x.Seat
	n := len(b.Owner)
	x.cur, x.spare = grow(x.cur, n), grow(x.spare, n)
	for t, o := range b.Owner {
		if o == p {
			x.cur[t], x.spare[t] = b.Armies[t], b.Armies[t]-1
		}
	}
	start := len(buf)
	for c := range b.Map.Continents {
		if x.owned[c] {
			buf = x.fortifyContinent(c, buf, start)
			if x.Evil {
				buf = x.balanceBorders(c, buf, start)
			}
			continue
		}
		if x.Evil {
			buf = x.pullIn(c, buf, start)
		}
		buf = x.fortifyScraps(c, buf, start)
	}
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}

// move moves all of from's movable armies (if any) to to.
func (x *Pixie) move(from, to int, buf []sim.Move, start int) []sim.Move {
	k := x.spare[from]
	if k <= 0 {
		return buf
	}
	x.spare[from] = 0
	x.cur[from] -= k
	x.cur[to] += k
	return appendMove(buf, start, sim.Move{From: from, To: to, Armies: k})
}

// fortifyContinent appends Pixie.fortifyContinent's moves in owned
// continent c: breadth-first from c's border territories inward, each
// territory reached sends its movable armies to the one that reached it.
func (x *Pixie) fortifyContinent(c int, buf []sim.Move, start int) []sim.Move {
	m := x.b.Map
	x.queue = append(x.queue[:0], m.Continents[c].Borders...)
	for _, t := range x.queue {
		x.mark[t] = true
	}
	for i := 0; i < len(x.queue); i++ {
		t := x.queue[i]
		for _, u := range m.Territories[t].Neighbors {
			if x.mark[u] || m.Territories[u].Continent != c || x.b.Owner[u] != x.Seat {
				continue
			}
			buf = x.move(u, t, buf, start)
			x.mark[u] = true
			x.queue = append(x.queue, u)
		}
	}
	for _, t := range x.queue {
		x.mark[t] = false
	}
	return buf
}

// balanceBorders appends EvilPixie.fortifyContinent's balancing moves in
// owned continent c: one pass over the ordered pairs of adjacent border
// territories, the larger sending half the difference, at most its
// movable armies.
func (x *Pixie) balanceBorders(c int, buf []sim.Move, start int) []sim.Move {
	m := x.b.Map
	bs := m.Continents[c].Borders
	for _, t := range bs {
		for _, u := range bs {
			if t != u && m.Adjacent(t, u) {
				buf, _ = evenOut(x.cur, x.spare, t, u, buf, start)
			}
		}
	}
	return buf
}

// pullIn appends EvilPixie.fortifyContinentScraps's first moves in
// continent c, which the bot does not own: each of its territories there
// sends its movable armies to its first neighbour in a continent it owns.
func (x *Pixie) pullIn(c int, buf []sim.Move, start int) []sim.Move {
	m, p := x.b.Map, x.Seat
	for _, t := range m.Continents[c].Territories {
		if x.b.Owner[t] != p {
			continue
		}
		for _, u := range m.Territories[t].Neighbors {
			if x.spare[t] <= 0 {
				break
			}
			if x.b.Owner[u] == p && x.owned[m.Territories[u].Continent] {
				buf = x.move(t, u, buf, start)
			}
		}
	}
	return buf
}

// fortifyScraps appends Pixie.fortifyContinentScraps's moves in continent
// c, which the bot does not own (see the type's doc).
func (x *Pixie) fortifyScraps(c int, buf []sim.Move, start int) []sim.Move {
	b, p := &x.b, x.Seat
	for _, t := range b.Map.Continents[c].Territories {
		if b.Owner[t] != p || x.spare[t] <= 0 {
			continue
		}
		link, weakest := -1, 0
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p {
				continue
			}
			if w := b.WeakestEnemyNeighbor(p, u); w >= 0 && (link < 0 || b.Armies[w] < weakest) {
				link, weakest = u, b.Armies[w]
			}
		}
		here := b.WeakestEnemyNeighbor(p, t)
		if link >= 0 && (here < 0 || weakest < b.Armies[here]) {
			buf = x.move(t, link, buf, start)
		}
	}
	return buf
}
