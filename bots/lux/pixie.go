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
// for them. Its wanted continents, placement, attacks, move-ins,
// fortification and cards, and what EvilPixie changes, are specified in
// the manual, docs/lux.md ("Pixie and EvilPixie").
type Pixie struct {
	// Ratio is outnumberBy: an attack in a wanted continent needs more than
	// Ratio times the defender's armies (1 for Pixie, 1.3 for EvilPixie).
	Ratio float64
	// CardRatio is attackForCard's factor: the best attack must hold more
	// than CardRatio times the defender's armies (1 for Pixie, 5 for
	// EvilPixie).
	CardRatio int
	// Threshold is borderForce for Pixie: a border territory of an owned
	// wanted continent holding at most Threshold armies needs help (20).
	// EvilPixie draws its own at Start and ignores it.
	Threshold int
	// Evil selects EvilPixie's overrides (see the type's doc).
	Evil bool
	// AskLost is the reading of placeToOutnumberEnemies's asks above the
	// armies left (Board.placeArmies is a stub in the SDK): false cuts the
	// ask to the armies left; true has the board refuse it, placing
	// nothing, and Java's count, less the ask, ends the method; the armies
	// the call leaves go one at a time round-robin on its territories with
	// an enemy neighbour (Pixie.placeNearEnemies), as the engine takes
	// every army.
	AskLost bool
	// ForcedSet is the set traded when the engine forces a trade (Pixie
	// never cashes by choice): forcedBest, Card.getBestSet, the set
	// SmartAgentBase.cardsPhase says the game cashes ("our best set"),
	// forcedRandomSet, Card.getRandomSet, or forcedEngine, the engine's
	// sim.BestSet. EvilPixie cashes Card.getBestSet itself.
	ForcedSet int
	// DeadIncome is the reading of a dead seat's income
	// (Board.getPlayerIncome) in EvilPixie's dominant-player test
	// (blocks.Lux.DeadIncome).
	DeadIncome bool

	l         blocks.Lux    // SmartAgentBase: the board, its blocks and the attack plan's cursor
	plan      []blocks.Step // the attack plan
	threshold int           // the game's borderForce (EvilPixie draws it)

	wanted []bool          // ourConts: the wanted continents of the last placement
	owned  []bool          // per continent: owned by the bot at the placement
	add    []int           // per territory: armies placed by the current placement
	mark   []bool          // scratch flags per territory, false between uses
	queue  []int           // scratch: the breadth-first queue of fortifyContinent
	pl     []sim.Placement // scratch: placements of a block
	cur    []int           // fortify: armies as the moves leave them
	spare  []int           // fortify: movable armies left
	k      pixieCursor     // where Pixie's own attacks stand
}

// pixieCursor is the position of Pixie's own attacks within Java's nested
// loops: the stage, the continent or seat, and the indices into the
// territory list and the neighbour list that the next order is looked for
// from.
type pixieCursor struct {
	stage int
	c     int  // continent (stageContinents) or seat (stagePlayers)
	i, j  int  // territory index in the list the stage walks, neighbour index
	check bool // stageContinents: the continent's own attacks are done (EvilPixie's check is next)
	on    bool // stagePlayers: the check of seat c holds
	init  bool // stagePlayers: the check of seat c is evaluated
}

// The stages of Pixie's own attacks, in order.
const (
	stageContinents = iota // wanted continents (and EvilPixie's take out continent)
	stagePlayers           // EvilPixie: take out player
	stageDone
)

// pixieAttacks runs Pixie's own attacks as a step of the plan
// (blocks.Resumable).
type pixieAttacks struct{ x *Pixie }

// Start prepares Pixie for a new game.
func (x *Pixie) Start(s *sim.State, seat int, rng *rand.Rand) {
	x.l.Start(seat, rng)
	x.l.DeadIncome = x.DeadIncome
	x.threshold = x.Threshold
	if x.Evil && rng != nil {
		x.threshold = 7 + rng.IntN(15)
	}
	x.wanted = x.wanted[:0]
	x.k = pixieCursor{}
	own := blocks.Step{Proc: blocks.StepCustom, Custom: pixieAttacks{x}}
	x.plan = x.plan[:0]
	if x.Evil {
		x.plan = append(x.plan, blocks.Step{Proc: blocks.StepKill})
	}
	x.plan = append(x.plan, own,
		blocks.Step{Proc: blocks.StepCard, K: x.CardRatio},
		blocks.Step{Proc: blocks.StepHogWild},
		blocks.Step{Proc: blocks.StepStalemate})
}

// Trade cashes one set a turn, and whenever the engine forces a trade
// (EvilPixie only; blocks.Lux.CashOne).
func (x *Pixie) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if !x.Evil {
		return forcedSet(&x.l, s, forced, x.ForcedSet)
	}
	x.l.Load(s)
	return x.l.CashOne(s, forced)
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
	b := &x.l.B
	cs := b.Map.Continents
	any := false
	for c := range cs {
		n := need(b, x.l.Seat, &cs[c], x.mark)
		// need < armies/len(cs), in exact arithmetic.
		x.wanted[c] = n*len(cs) < armies && cs[c].Bonus > 0
		any = any || x.wanted[c]
	}
	return any
}

// prepare loads s and sizes the per-placement buffers.
func (x *Pixie) prepare(s *sim.State) {
	x.l.Load(s)
	b := &x.l.B
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
		x.owned[c] = b.OwnsContinent(x.l.Seat, c)
	}
	if len(x.wanted) != nc {
		if cap(x.wanted) < nc {
			x.wanted = make([]bool, nc)
		}
		x.wanted = x.wanted[:nc]
		clear(x.wanted)
	}
}

// put places k armies on t: on the board, which the rest of the placement
// reads (Lux places at once), and in x.add.
func (x *Pixie) put(t, k int) {
	x.l.B.Armies[t] += k
	x.add[t] += k
}

// took records in x.add the placements a block of blocks.Lux made (it
// updates the board itself).
func (x *Pixie) took(pl []sim.Placement) {
	for _, p := range pl {
		x.add[p.Territory] += p.Armies
	}
}

// enveloped reports whether every neighbour of t outside t's continent lies
// in a continent owned by the bot (SmartAgentBase.weOwnContsArround).
func (x *Pixie) enveloped(t int) bool {
	m := x.l.B.Map
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
	return x.l.B.Armies[t] <= x.threshold && !(x.Evil && x.enveloped(t))
}

// needsHelp reports whether continent c needs help (Pixie.continentNeedsHelp).
func (x *Pixie) needsHelp(c int) bool {
	if !x.owned[c] {
		return true
	}
	for _, t := range x.l.B.Map.Continents[c].Borders {
		if x.borderNeedsHelp(t) {
			return true
		}
	}
	return false
}

// takeCont places n armies to take continent c
// (SmartAgentBase.placeArmiesToTakeCont, with EvilPixie's override on an
// owned continent: the weakest border territory that needs help, the
// first in id order on ties).
func (x *Pixie) takeCont(n, c int) {
	if x.Evil && c >= 0 && x.owned[c] {
		for range n {
			best := -1
			for _, t := range x.l.B.Map.Continents[c].Borders {
				if x.borderNeedsHelp(t) && (best < 0 || x.l.B.Armies[t] < x.l.B.Armies[best]) {
					best = t
				}
			}
			if best < 0 {
				// Java places on no territory (an id of -1); its callers
				// never get here, as a border needing help is what sends
				// them. Pixie's choice stands in.
				x.pl = x.l.PlaceToTakeCont(x.pl[:0], 1, c)
				x.took(x.pl)
				continue
			}
			x.put(best, 1)
		}
		return
	}
	x.pl = x.l.PlaceToTakeCont(x.pl[:0], n, c)
	x.took(x.pl)
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
	return s.FirstOwned(x.l.Seat)
}

// Place distributes the armies as Pixie.placeArmies (EvilPixie.placeArmies)
// does.
func (x *Pixie) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	x.l.NewTurn(s)
	x.place(s, armies)
	for t, k := range x.add {
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// place places armies armies in x.add as EvilPixie.placeArmies and
// Pixie.placeArmies do.
func (x *Pixie) place(s *sim.State, armies int) {
	x.prepare(s)
	if x.Evil {
		var ok bool
		if x.pl, ok = x.l.PlaceToKillDominant(s, x.pl[:0], armies); ok {
			x.took(x.pl)
			x.setupWanted(0)
			return
		}
		if blocks.Dominates(&x.l.B, x.l.Seat) {
			x.placeToOutnumber(armies) // EvilPixie.placeHogWild
			return
		}
	}
	if !x.setupWanted(armies) {
		x.takeCont(armies, x.l.EasiestCont())
		return
	}
	placed := 0
	for help := true; help && placed < armies; {
		help = false
		for c, w := range x.wanted {
			if placed == armies {
				break // the engine takes exactly armies (see the type's doc)
			}
			if w && x.needsHelp(c) {
				x.takeCont(1, c)
				placed++
				help = true
			}
		}
	}
	if x.Evil {
		x.placeToOutnumber(armies - placed) // EvilPixie.placeRemainder
		return
	}
	x.placeNearEnemies(armies - placed)
}

// placeNearEnemies places n armies one at a time, round-robin from id 0,
// on the bot's territories with an enemy neighbour (Pixie.placeNearEnemies).
// With no such territory (Java would loop for ever) they go on its weakest
// territory.
func (x *Pixie) placeNearEnemies(n int) {
	b, p := &x.l.B, x.l.Seat
	for n > 0 {
		placed := false
		for t := range b.Owner {
			if n == 0 {
				break
			}
			if b.IsBorder(p, t) {
				x.put(t, 1)
				n--
				placed = true
			}
		}
		if !placed {
			x.put(b.WeakestOwned(p), n)
			return
		}
	}
}

// placeToOutnumber places n armies as EvilPixie.placeToOutnumberEnemies
// does (see the type's doc).
func (x *Pixie) placeToOutnumber(n int) {
	b, p := &x.l.B, x.l.Seat
	// x.mark[t]: enemy territory t is outnumbered by a neighbour of p's, or
	// t is p's; fixed before any army is placed, as Java's array.
	for t, o := range b.Owner {
		x.mark[t] = o == p
		if o == p {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && b.Armies[u] > b.Armies[t] {
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
		k := max(b.Armies[t]-b.Armies[us], 1)
		if k > n {
			if x.AskLost {
				break // refused; n - k <= 0 ends Java's loop and method
			}
			k = n
		}
		x.put(us, k)
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

// Attack returns the next order of the attack plan (Pixie.attackPhase,
// EvilPixie.attackPhase; blocks.Lux.NextAttack).
func (x *Pixie) Attack(s *sim.State) (sim.AttackOrder, bool) {
	return x.l.NextAttack(s, x.plan)
}

// Next returns the next of Pixie's own attacks, from the cursor on
// (start: from the beginning of the pass).
func (a pixieAttacks) Next(l *blocks.Lux, start bool) (from, to, memory int, done, result bool) {
	x := a.x
	k := &x.k
	if start {
		*k = pixieCursor{}
	}
	b := &l.B
	for {
		switch k.stage {
		case stageContinents:
			for k.c < len(b.Map.Continents) {
				if !k.check {
					if k.c < len(x.wanted) && x.wanted[k.c] {
						if from, to, ok := x.inContinent(k); ok {
							return from, to, blocks.MoveUnset, false, false
						}
					}
					k.check, k.i, k.j = true, 0, 0
				}
				c := k.c
				k.c, k.check, k.i, k.j = k.c+1, false, 0, 0
				if x.Evil {
					if from, to, ok := x.takeOutContinent(c); ok {
						return from, to, blocks.MoveUnset, false, false
					}
				}
			}
			*k = pixieCursor{stage: stagePlayers}
		case stagePlayers:
			if x.Evil {
				if from, to, ok := x.takeOutPlayers(l.State(), k); ok {
					return from, to, blocks.MoveUnset, false, false
				}
			}
			*k = pixieCursor{stage: stageDone}
		default:
			return 0, 0, blocks.MoveUnset, true, false
		}
	}
}

// inContinent returns the next attack of Pixie.attackInContinent in
// continent k.c from the cursor on, and moves the cursor past it.
func (x *Pixie) inContinent(k *pixieCursor) (from, to int, ok bool) {
	b, p := &x.l.B, x.l.Seat
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
	b, p := &x.l.B, x.l.Seat
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
	b, p := &x.l.B, x.l.Seat
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
	c := x.l.B.Map.Territories[t].Continent
	return c < len(x.wanted) && x.wanted[c]
}

// Occupy decides the move-in as Pixie.moveArmiesIn does, reading the
// captured territory as the bot's (see the type's doc).
func (x *Pixie) Occupy(s *sim.State, from, to, lo, hi int) int {
	x.l.Load(s)
	b, p := &x.l.B, x.l.Seat
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
	b, p := &x.l.B, x.l.Seat
	n := len(b.Owner)
	x.cur, x.spare = grow(x.cur, n), grow(x.spare, n)
	for t, o := range b.Owner {
		if o == p {
			x.cur[t], x.spare[t] = b.Armies[t], movable(s.Rules(), b.Armies[t])
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

// move moves all of from's movable armies (if any) to to, as many as
// leave one army on from (Board.fortifyArmies).
func (x *Pixie) move(from, to int, buf []sim.Move, start int) []sim.Move {
	k := min(x.spare[from], x.cur[from]-1)
	if k <= 0 {
		return buf
	}
	x.spare[from] -= k
	x.cur[from] -= k
	x.cur[to] += k
	return appendMove(buf, start, sim.Move{From: from, To: to, Armies: k})
}

// fortifyContinent appends Pixie.fortifyContinent's moves in owned
// continent c: breadth-first from c's border territories inward, each
// territory reached sends its movable armies to the one that reached it.
func (x *Pixie) fortifyContinent(c int, buf []sim.Move, start int) []sim.Move {
	m := x.l.B.Map
	x.queue = append(x.queue[:0], m.Continents[c].Borders...)
	for _, t := range x.queue {
		x.mark[t] = true
	}
	for i := 0; i < len(x.queue); i++ {
		t := x.queue[i]
		for _, u := range m.Territories[t].Neighbors {
			if x.mark[u] || m.Territories[u].Continent != c || x.l.B.Owner[u] != x.l.Seat {
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
	m := x.l.B.Map
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
	m, p := x.l.B.Map, x.l.Seat
	for _, t := range m.Continents[c].Territories {
		if x.l.B.Owner[t] != p {
			continue
		}
		for _, u := range m.Territories[t].Neighbors {
			if x.spare[t] <= 0 {
				break
			}
			if x.l.B.Owner[u] == p && x.owned[m.Territories[u].Continent] {
				buf = x.move(t, u, buf, start)
			}
		}
	}
	return buf
}

// fortifyScraps appends Pixie.fortifyContinentScraps's moves in continent
// c, which the bot does not own (see the type's doc).
func (x *Pixie) fortifyScraps(c int, buf []sim.Move, start int) []sim.Move {
	b, p := &x.l.B, x.l.Seat
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
