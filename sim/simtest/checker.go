// Package simtest checks sim games from the outside: the invariant
// checker that the engine's and marslab's bots' tests play under, and
// [TestPlayer], which plays a bot (any [sim.Player], from this module or
// another) under every embedded rule set and checks every invariant after
// every event, as testing/fstest.TestFS checks a file system in one call.
//
// A Checker is an observer with a ledger of its own: it recomputes from the
// map and the rules that the game was created with (never from the engine's
// arithmetic) how many armies each player starts with, what every turn's
// reinforcement and every traded set are worth and where the territory
// bonus goes, and it follows every card. After every event it compares the
// ledger and the board with the game's state: armies are conserved (the
// starting armies plus the reinforcements and territory bonuses the rules
// give, minus the losses the dice show), the armies placed in each
// placement equal what the rules give (less armies forfeited by a fault),
// every territory is owned with at least one army, eliminated players own
// nothing, and the cards in the deck, the discard pile and the hands add up.
// (A roll is checked against the dice and the rules; the whole board is
// checked after every other event, so at the latest after the occupation
// or failed occupation that ends every attack order.)
//
// The package imports only sim and configs of the module, so a bot
// author's module can use it without anything else of marslab.
package simtest

import (
	"fmt"
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

// Checker is a [sim.Observer] that checks a game's invariants after every
// event (explanation events, [sim.EvExplain], are counted and skipped). Attach it with Game.Observe to one Game, play games, and call Err
// after each of them.
type Checker struct {
	g *sim.Game
	m *sim.Map
	r *sim.Rules
	n int

	members [][]int // territories of each continent, from the territories' Continent

	err error
	// Counts counts the events seen, by kind, over all games.
	Counts [sim.NumEventKinds]int

	// The ledger of the current game.
	events   int
	board    int   // armies that should be on the board
	placed   []int // starting armies placed per seat (deal and setup)
	started  bool  // the setup is over
	budget   int   // armies still to place: income and card values, less placements and forfeits
	sets     int   // sets traded in the game
	hands    [][]sim.Card
	deck     int
	discard  int
	elim     []int
	lastDice int // attacking dice of the last roll

	buf  []sim.Card
	ibuf []int
}

// NewChecker returns a checker for games of g, which was created from map
// m and rules r (the caller's values, which the checker copies).
func NewChecker(g *sim.Game, m *sim.Map, r *sim.Rules) *Checker {
	c := &Checker{g: g, m: m.Clone(), r: r.Clone(), n: g.State().NumPlayers()}
	c.members = make([][]int, len(c.m.Continents))
	for t, tr := range c.m.Territories {
		c.members[tr.Continent] = append(c.members[tr.Continent], t)
	}
	c.placed = make([]int, c.n)
	c.hands = make([][]sim.Card, c.n)
	return c
}

// Err returns the first violation found, or nil.
func (c *Checker) Err() error { return c.err }

func (c *Checker) failf(e *sim.Event, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("event %d (%v, round %d, seat %d): %s", c.events, e.Kind, e.Round, e.Player, fmt.Sprintf(format, args...))
	}
}

// Observe updates the ledger with e and checks the game's state.
func (c *Checker) Observe(e *sim.Event) {
	if int(e.Kind) < len(c.Counts) {
		c.Counts[e.Kind]++
	}
	if c.err != nil || e.Kind == sim.EvExplain {
		return // an explanation changes nothing on the board
	}
	c.events++
	s := c.g.State()
	nt := len(c.m.Territories)
	p := e.Player
	switch e.Kind {
	case sim.EvTrade, sim.EvReinforce, sim.EvPlace, sim.EvFault:
	default:
		if c.budget != 0 {
			c.failf(e, "%d armies of the last reinforcement were neither placed nor forfeited", c.budget)
		}
	}
	switch e.Kind {
	case sim.EvStart:
		c.events = 1
		c.board, c.budget, c.sets, c.discard, c.lastDice = 0, 0, 0, 0, 0
		c.started = false
		c.deck = 0
		if c.r.Cards.Mode != sim.CardsNone {
			c.deck = nt + c.r.Cards.Wilds
		}
		for q := range c.placed {
			c.placed[q] = 0
			c.hands[q] = c.hands[q][:0]
		}
		c.elim = c.elim[:0]
		if want := c.r.StartingArmies[c.n]; e.Armies != want {
			c.failf(e, "start event announces %d starting armies, the rules give %d", e.Armies, want)
		}
	case sim.EvDeal, sim.EvSetupPlace:
		if c.started {
			c.failf(e, "setup event after the first turn")
		}
		if e.Armies != 1 {
			c.failf(e, "%d armies: the deal and the setup place one army at a time", e.Armies)
		}
		c.board++
		c.placed[p]++
		if c.placed[p] > c.r.StartingArmies[c.n] {
			c.failf(e, "seat %d has placed %d starting armies, the rules give %d", p, c.placed[p], c.r.StartingArmies[c.n])
		}
		if s.Owner(e.To) != p {
			c.failf(e, "army placed on territory %d of seat %d", e.To, s.Owner(e.To))
		}
	case sim.EvTurn:
		if !c.started {
			c.started = true
			for q, k := range c.placed {
				if k != c.r.StartingArmies[c.n] {
					c.failf(e, "seat %d started with %d armies, the rules give %d", q, k, c.r.StartingArmies[c.n])
				}
			}
		}
		if !s.Alive(p) {
			c.failf(e, "eliminated seat %d has a turn", p)
		}
	case sim.EvTrade:
		c.trade(e, s)
	case sim.EvReinforce:
		if inc := c.income(s, p); e.Armies != inc {
			c.failf(e, "reinforcement of %d armies, the rules give %d", e.Armies, inc)
		} else {
			c.budget += inc
		}
	case sim.EvPlace:
		c.budget -= e.Armies
		c.board += e.Armies
		if e.Armies < 1 || s.Owner(e.To) != p {
			c.failf(e, "placed %d armies on territory %d of seat %d", e.Armies, e.To, s.Owner(e.To))
		}
		if c.budget < 0 {
			c.failf(e, "placed %d armies more than the rules give", -c.budget)
		}
	case sim.EvFault:
		if e.Armies > 0 {
			c.budget -= e.Armies
			if c.budget < 0 {
				c.failf(e, "forfeited %d armies more than the rules give", -c.budget)
			}
		}
	case sim.EvRoll:
		c.roll(e, s)
	case sim.EvOccupation:
		from := s.Armies(e.From) + e.Armies // before the move
		lo := 1
		if c.r.Attack.MoveInAtLeastDice {
			lo = c.lastDice
		}
		lo = min(lo, from-1)
		switch {
		case s.Owner(e.To) != p || s.Owner(e.From) != p:
			c.failf(e, "occupation %d->%d: owners %d, %d", e.From, e.To, s.Owner(e.From), s.Owner(e.To))
		case e.Armies < lo || e.Armies > from-1 || s.Armies(e.To) != e.Armies:
			c.failf(e, "moved %d armies into %d (holding %d) from %d armies: must be %d..%d",
				e.Armies, e.To, s.Armies(e.To), from, lo, from-1)
		}
	case sim.EvCard:
		if c.deck == 0 { // the discard pile is reshuffled into a new deck
			c.deck, c.discard = c.discard, 0
		}
		if c.deck == 0 {
			c.failf(e, "drew a card from an empty deck")
		}
		c.deck--
		c.hands[p] = append(c.hands[p], e.Cards[0])
	case sim.EvElimination:
		v := e.Other
		if s.Alive(v) || territories(s, v) != 0 {
			c.failf(e, "seat %d eliminated but alive or owning territories", v)
		}
		if slices.Contains(c.elim, v) {
			c.failf(e, "seat %d eliminated twice", v)
		}
		c.elim = append(c.elim, v)
		taken := 0
		if c.r.Cards.Mode != sim.CardsNone {
			if c.r.Cards.TakeOnElimination {
				taken = len(c.hands[v])
				c.hands[p] = append(c.hands[p], c.hands[v]...)
			} else {
				c.discard += len(c.hands[v])
			}
			c.hands[v] = c.hands[v][:0]
		}
		if e.Armies != taken {
			c.failf(e, "elimination event says %d cards taken, the rules give %d", e.Armies, taken)
		}
		c.ibuf = s.AppendEliminated(c.ibuf[:0])
		if !slices.Equal(c.ibuf, c.elim) {
			c.failf(e, "eliminated seats %v, events say %v", c.ibuf, c.elim)
		}
	case sim.EvMove:
		if e.Armies < 1 || s.Owner(e.From) != p || s.Owner(e.To) != p {
			c.failf(e, "fortification of %d armies %d->%d (owners %d, %d)", e.Armies, e.From, e.To, s.Owner(e.From), s.Owner(e.To))
		}
	case sim.EvAttackOrder:
		c.attackOrder(e, s)
	case sim.EvEndPhase:
		if e.Phase != sim.PhaseAttack && e.Phase != sim.PhaseFortify {
			c.failf(e, "end of phase %v: only the attack and fortify phases are ended by a player", e.Phase)
		}
		if s.Current() != p {
			c.failf(e, "seat %d ends a phase in seat %d's turn", p, s.Current())
		}
	case sim.EvGameEnd:
		c.gameEnd(e, s)
	}
	// Every series of rolls ends with an occupation or failed_occupation
	// event, after which the whole board is checked: a roll itself only
	// gets the checks of roll.
	if e.Kind != sim.EvRoll {
		c.checkBoard(e, s)
	}
	switch e.Kind {
	case sim.EvTurn, sim.EvTrade, sim.EvCard, sim.EvElimination, sim.EvGameEnd:
		c.checkCards(e, s)
	}
}

// attackOrder checks an attack order against the board and the rules, as
// the engine must have before it rolls: From is the attacker's with at
// least two armies, To is Other's and adjacent, the dice and the stop
// level are in range.
func (c *Checker) attackOrder(e *sim.Event, s *sim.State) {
	p := e.Player
	nt := len(c.m.Territories)
	switch {
	case e.Phase != sim.PhaseAttack || s.Current() != p:
		c.failf(e, "attack order in phase %v of seat %d's turn", e.Phase, s.Current())
	case e.From < 0 || e.From >= nt || e.To < 0 || e.To >= nt:
		c.failf(e, "attack order %d->%d: territory out of range", e.From, e.To)
	case s.Owner(e.From) != p || s.Owner(e.To) != e.Other || e.Other == p:
		c.failf(e, "attack order %d->%d: owners %d, %d, defender %d", e.From, e.To, s.Owner(e.From), s.Owner(e.To), e.Other)
	case !slices.Contains(c.m.Territories[e.From].Neighbors, e.To):
		c.failf(e, "attack order %d->%d: not adjacent", e.From, e.To)
	case s.Armies(e.From) < 2:
		c.failf(e, "attack order from territory %d holding %d armies", e.From, s.Armies(e.From))
	case e.Dice < 0 || e.Dice > min(c.r.Attack.AttackerDice, s.Armies(e.From)-1) || e.StopAt < 0:
		c.failf(e, "attack order with %d dice (stop at %d) from %d armies", e.Dice, e.StopAt, s.Armies(e.From))
	}
}

// territories counts the territories p owns on the board.
func territories(s *sim.State, p int) int {
	k := 0
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) == p {
			k++
		}
	}
	return k
}

// income is equation (1) from the board and the rules: territories divided
// by the divisor, rounded as the rules say, at least the minimum, plus the
// bonus of every continent p owns whole.
func (c *Checker) income(s *sim.State, p int) int {
	rr := &c.r.Reinforce
	n := territories(s, p)
	a := n / rr.Divisor
	if rr.Rounding == "ceil" && n%rr.Divisor != 0 {
		a++
	}
	a = max(a, rr.Min)
	if !rr.ContinentBonus {
		return a
	}
	for ct, ts := range c.members {
		whole := true
		for _, t := range ts {
			whole = whole && s.Owner(t) == p
		}
		if whole {
			a += c.m.Continents[ct].Bonus
		}
	}
	return a
}

// setValue returns what a set of these symbols is worth under the card
// rules as the sets-th set of the game, and whether it is a set at all:
// every way of reading the wilds is tried, and a reading is a set if its
// three symbols are equal or all different.
func (c *Checker) setValue(sym [3]uint8) (int, bool) {
	cr := &c.r.Cards
	best, valid := 0, false
	var x [3]uint8
	for a := 0; a < 27; a++ {
		k := a
		for i, y := range sym {
			x[i] = y
			if y == sim.Wild {
				x[i] = uint8(k % 3)
				k /= 3
			} else if y > sim.Wild {
				return 0, false
			}
		}
		var v int
		switch {
		case x[0] == x[1] && x[1] == x[2]:
			v = cr.FixedValues[x[0]]
		case x[0] != x[1] && x[1] != x[2] && x[0] != x[2]:
			v = cr.FixedValues[3]
		default:
			continue
		}
		valid = true
		best = max(best, v)
	}
	if cr.Mode == sim.CardsEscalating {
		if c.sets < len(cr.Escalating) {
			best = cr.Escalating[c.sets]
		} else {
			best = cr.Escalating[len(cr.Escalating)-1] + (c.sets-len(cr.Escalating)+1)*cr.EscalatingStep
		}
	}
	return best, valid
}

func (c *Checker) trade(e *sim.Event, s *sim.State) {
	p := e.Player
	if c.r.Cards.Mode == sim.CardsNone {
		c.failf(e, "trade without cards")
		return
	}
	var sym [3]uint8
	for i, card := range e.Cards {
		j := slices.Index(c.hands[p], card)
		if j < 0 {
			c.failf(e, "traded card %v that seat %d does not hold", card, p)
			return
		}
		c.hands[p] = slices.Delete(c.hands[p], j, j+1)
		sym[i] = card.Symbol
	}
	value, ok := c.setValue(sym)
	if !ok {
		c.failf(e, "cards %v are not a set", e.Cards)
	}
	if e.Armies != value {
		c.failf(e, "set %v traded for %d armies, the rules give %d (set %d of the game)", e.Cards, e.Armies, value, c.sets+1)
	}
	c.sets++
	c.budget += value
	c.discard += 3
	// The territory bonus: once per trade, on a traded card's territory
	// that p owns.
	owned := false
	for _, card := range e.Cards {
		owned = owned || (card.Territory >= 0 && s.Owner(int(card.Territory)) == p)
	}
	tb := c.r.Cards.TerritoryBonus
	switch {
	case owned && tb > 0:
		c.board += tb
		onCard := slices.ContainsFunc(e.Cards[:], func(card sim.Card) bool { return int(card.Territory) == e.To })
		if !onCard || s.Owner(e.To) != p {
			c.failf(e, "territory bonus on %d, not an owned territory of the cards %v", e.To, e.Cards)
		}
	case e.To != -1:
		c.failf(e, "territory bonus on %d, but no bonus is due", e.To)
	}
}

func (c *Checker) roll(e *sim.Event, s *sim.State) {
	ar := &c.r.Attack
	na, nd := int(e.NAttack), int(e.NDefend)
	from := s.Armies(e.From) + e.AttackerLoss // before the roll
	to := s.Armies(e.To) + e.DefenderLoss
	switch {
	case s.Owner(e.From) != e.Player || s.Owner(e.To) != e.Other || e.Other == e.Player:
		c.failf(e, "attack %d->%d: owners %d, %d, defender %d", e.From, e.To, s.Owner(e.From), s.Owner(e.To), e.Other)
		return
	case !slices.Contains(c.m.Territories[e.From].Neighbors, e.To):
		c.failf(e, "attack %d->%d: not neighbours", e.From, e.To)
		return
	case na < 1 || na > min(ar.AttackerDice, from-1):
		c.failf(e, "%d attacking dice from %d armies", na, from)
		return
	case nd != min(ar.DefenderDice, to):
		c.failf(e, "%d defending dice on %d armies", nd, to)
		return
	}
	var al, dl int
	for i := 0; i < 3; i++ {
		ad := e.AttackerDice[i]
		if (i < na) != (ad >= 1 && ad <= 6) || (i > 0 && i < na && ad > e.AttackerDice[i-1]) {
			c.failf(e, "attacking dice %v", e.AttackerDice)
			return
		}
	}
	for i := 0; i < 2; i++ {
		dd := e.DefenderDice[i]
		if (i < nd) != (dd >= 1 && dd <= 6) || (i > 0 && i < nd && dd > e.DefenderDice[i-1]) {
			c.failf(e, "defending dice %v", e.DefenderDice)
			return
		}
	}
	for i := 0; i < min(na, nd); i++ {
		a, d := e.AttackerDice[i], e.DefenderDice[i]
		if a > d || (a == d && ar.TiesToAttacker) {
			dl++
		} else {
			al++
		}
	}
	if al != e.AttackerLoss || dl != e.DefenderLoss {
		c.failf(e, "dice %v against %v lose %d and %d, the event says %d and %d",
			e.AttackerDice, e.DefenderDice, al, dl, e.AttackerLoss, e.DefenderLoss)
	}
	c.board -= al + dl
	c.lastDice = na
}

func (c *Checker) gameEnd(e *sim.Event, s *sim.State) {
	w := e.Player
	switch {
	case w < 0:
		if c.r.End.RoundLimit == 0 || s.Round() != c.r.End.RoundLimit {
			c.failf(e, "stalemate in round %d, round limit %d", s.Round(), c.r.End.RoundLimit)
		}
	case !s.Alive(w):
		c.failf(e, "eliminated seat %d wins", w)
	case c.r.End.Win == "domination" && territories(s, w) != len(c.m.Territories):
		c.failf(e, "seat %d wins by domination with %d of %d territories", w, territories(s, w), len(c.m.Territories))
	}
}

// checkBoard compares the board with the ledger and the state's counters.
func (c *Checker) checkBoard(e *sim.Event, s *sim.State) {
	nt := s.NumTerritories()
	var armies, count [8]int
	total := 0
	for t := 0; t < nt; t++ {
		o, a := s.Owner(t), s.Armies(t)
		total += a
		if o < 0 {
			if c.started {
				c.failf(e, "territory %d has no owner", t)
				return
			}
			continue
		}
		armies[o] += a
		count[o]++
		if a < 1 {
			c.failf(e, "territory %d has %d armies", t, a)
			return
		}
		if !s.Alive(o) {
			c.failf(e, "eliminated seat %d owns territory %d", o, t)
			return
		}
	}
	if total != c.board {
		c.failf(e, "%d armies on the board, the rules give %d", total, c.board)
		return
	}
	for q := 0; q < c.n; q++ {
		if armies[q] != s.TotalArmies(q) || count[q] != s.TerritoryCount(q) {
			c.failf(e, "seat %d: counters say %d armies on %d territories, the board %d on %d",
				q, s.TotalArmies(q), s.TerritoryCount(q), armies[q], count[q])
			return
		}
		if (e.Kind == sim.EvTurn || e.Kind == sim.EvGameEnd) && s.Alive(q) != (count[q] > 0) {
			c.failf(e, "seat %d alive=%v with %d territories", q, s.Alive(q), count[q])
			return
		}
	}
	if s.NumEliminated() != len(c.elim) {
		c.failf(e, "%d seats eliminated, events say %d", s.NumEliminated(), len(c.elim))
	}
}

// checkCards compares every hand and the deck with the ledger.
func (c *Checker) checkCards(e *sim.Event, s *sim.State) {
	held := 0
	for q := 0; q < c.n; q++ {
		c.buf, _ = s.HandOf(c.buf[:0], q)
		held += len(c.buf)
		if s.NumCards(q) != len(c.buf) || !sameCards(c.buf, c.hands[q]) {
			c.failf(e, "seat %d holds %v, the events give it %v", q, c.buf, c.hands[q])
			return
		}
	}
	if s.DeckSize() != c.deck {
		c.failf(e, "deck of %d cards, the events leave %d", s.DeckSize(), c.deck)
		return
	}
	want := 0
	if c.r.Cards.Mode != sim.CardsNone {
		want = len(c.m.Territories) + c.r.Cards.Wilds
	}
	if got := c.deck + c.discard + held; got != want {
		c.failf(e, "%d cards in the deck, the discard pile and the hands, the rules make %d", got, want)
	}
}

// sameCards reports whether a and b hold the same cards, in any order.
func sameCards(a, b []sim.Card) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if countCard(a, x) != countCard(b, x) {
			return false
		}
	}
	return true
}

func countCard(h []sim.Card, x sim.Card) int {
	k := 0
	for _, y := range h {
		if y == x {
			k++
		}
	}
	return k
}

// CheckResult checks a game's Result against the final state and the
// ledger: placements are a permutation of 1..n with the winner first and
// the eliminated players last in reverse order of elimination, and a
// stalemate happens exactly at the round limit.
func (c *Checker) CheckResult(res sim.Result) error {
	if c.err != nil {
		return c.err
	}
	s := c.g.State()
	seen := make([]bool, c.n+1)
	if len(res.Placement) != c.n || len(res.Faults) != c.n {
		return fmt.Errorf("result for %d seats: %+v", c.n, res)
	}
	for q, r := range res.Placement {
		if r < 1 || r > c.n || seen[r] {
			return fmt.Errorf("placements %v are not a permutation (seat %d)", res.Placement, q)
		}
		seen[r] = true
	}
	switch {
	case res.Winner >= 0 && (res.Placement[res.Winner] != 1 || res.Stalemate):
		return fmt.Errorf("winner %d placed %d, stalemate %v", res.Winner, res.Placement[res.Winner], res.Stalemate)
	case res.Winner < 0 && (!res.Stalemate || res.Rounds != c.r.End.RoundLimit):
		return fmt.Errorf("no winner but stalemate=%v after %d rounds (limit %d)", res.Stalemate, res.Rounds, c.r.End.RoundLimit)
	case res.Winner != s.Winner():
		return fmt.Errorf("result winner %d, state winner %d", res.Winner, s.Winner())
	case !slices.Equal(res.Eliminated, c.elim):
		return fmt.Errorf("result eliminated %v, events %v", res.Eliminated, c.elim)
	}
	for i, q := range res.Eliminated {
		if s.Alive(q) || s.TerritoryCount(q) != 0 {
			return fmt.Errorf("eliminated seat %d still alive", q)
		}
		if res.Placement[q] != c.n-i {
			return fmt.Errorf("seat %d eliminated %d-th placed %d", q, i+1, res.Placement[q])
		}
	}
	return nil
}
