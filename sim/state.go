package sim

import "fmt"

// Card symbols.
const (
	Infantry  = 0
	Cavalry   = 1
	Artillery = 2
	Wild      = 3
)

// Card is a Risk card: a territory (or -1 for a wild card) and a symbol
// (Infantry, Cavalry, Artillery or Wild).
type Card struct {
	Territory int16
	Symbol    uint8
}

// Unknown is the symbol of a card that a seat may not see: a Watcher is
// shown another seat's cards as Card{Territory: -1, Symbol: Unknown}. It
// forms no set.
const Unknown = 4

// Phase is the part of a turn being played.
type Phase uint8

// Phases of a game.
const (
	PhaseSetup Phase = iota
	PhaseTrade
	PhasePlace
	PhaseAttack
	PhaseFortify
	PhaseOver
)

var phaseNames = [...]string{"setup", "trade", "place", "attack", "fortify", "over"}

// String returns the phase's name as it appears in logs and errors ("setup" .. "over").
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// State is a read-only view of one game. Every seat's player gets a State
// of its own (and observers and other callers another), all reading the
// same game: every field is unexported and only the engine (package sim)
// changes the game. Nothing an accessor returns gives access to the
// engine's own memory: hands and eliminations are copied out (Hand,
// HandOf, AppendEliminated), and Map, Rules and MyMission return the
// player's own copy of the map and rules (see Map). Even a player that
// overwrites its *State (*s = sim.State{}) changes only its own handle,
// which the engine sets anew before every call of the player.
//
// A seat's State shows what a player at the table sees: the board, every
// seat's card count, its own hand and mission, never another seat's cards
// or mission, nor the order of the deck. The accessors for another seat's
// hidden data (HandOf, MissionOf, MissionTargetOf, CheckTrade,
// ValidTrades, [BestSet], Position) answer ok == false or [ErrHidden] unless
// Rules.Info.Open opens everything. The State of observers and callers
// that are not seats ([Game.State], and [NewStateAt] with seat -1) sees all.
type State struct {
	*state      // the engine's state, shared by every handle of the game
	v      view // the copy of map and rules this handle shows
	seat   int  // the seat this handle belongs to, -1 for observers
}

// state is the state of one game, which only the engine changes. Every
// player has a State handle of its own on it (see State).
type state struct {
	m     *Map   // the engine's private copy: the only map the engine reads
	rules *Rules // the engine's private copy: the only rules the engine reads
	n     int    // players

	views []view // views[p] is seat p's copy of map and rules, views[n] everyone else's

	owner  []int8
	armies []int32

	alive       []bool
	territories []int // owned territory count per player
	totalArmies []int // armies on the board per player
	hands       [][]Card
	missions    []int // mission index per player, -1 if none
	missionTgt  []int // eliminate-mission target seat per player, -1 if none

	deck       []Card // draw pile, top is last
	discard    []Card
	setsTraded int

	round      int // 1-based round number
	current    int // seat whose turn it is
	phase      Phase
	conquered  bool  // current player conquered this turn
	eliminated []int // seats in elimination order
	elimBy     []int // eliminator of each seat, -1
	winner     int   // -1 while running or on stalemate
}

// view is one copy of the map and rules that a State shows, with the
// path-search buffers of its holder.
type view struct {
	m     *Map
	r     *Rules
	paths *OwnedPaths
}

// Map returns the map being played. Every seat has a copy of its own,
// made by [NewGame], which Map returns while the engine asks that seat (in
// every Player method); observers and every other caller share another
// copy. A player keeps its copy (the same *Map) from one game of the Game
// to the next, even if it changes seats. The engine never reads any of
// these copies: a player that changes what it is shown misleads only
// itself, and the engine restores the copy at the start of the next game.
func (s *State) Map() *Map { return s.v.m }

// Rules returns the rules in force: the asking seat's own copy, as for Map.
func (s *State) Rules() *Rules { return s.v.r }

// Paths returns path-search buffers that belong to this State's holder
// (each seat has its own, kept from game to game), for searches through
// one seat's territories without allocating (see [OwnedPaths]). Like the
// State, they are for one goroutine at a time.
func (s *State) Paths() *OwnedPaths {
	if s.v.paths == nil {
		s.v.paths = new(OwnedPaths)
	}
	return s.v.paths
}

// Seat returns the seat whose player this State is shown to, or -1 for an
// observer's State ([Game.State]), which sees all.
func (s *State) Seat() int { return s.seat }

// sees reports whether this State may see seat p's hidden data: its own,
// an observer's, or any under open information. The engine's copy of the
// rules decides, never the seat's copy.
func (s *State) sees(p int) bool {
	return s.seat < 0 || s.seat == p || s.rules.Info.Open
}

// NumPlayers returns the number of seats (2..6).
func (s *state) NumPlayers() int { return s.n }

// NumTerritories returns the number of territories on the map.
func (s *state) NumTerritories() int { return len(s.owner) }

// Owner returns the seat owning territory t.
func (s *state) Owner(t int) int { return int(s.owner[t]) }

// Armies returns the number of armies on territory t (>= 1).
func (s *state) Armies(t int) int { return int(s.armies[t]) }

// LoadBoard copies territory t's owner (a seat) to owner[t] and its armies
// to armies[t] for every territory: NumTerritories entries of each, which
// the slices must hold (it panics, as an index out of range, when one is shorter). It
// is Owner and Armies for every territory in one call (a bot's copy of the
// board).
func (s *state) LoadBoard(owner, armies []int) {
	src := s.owner
	if len(owner) < len(src) || len(armies) < len(s.armies) {
		panic(fmt.Sprintf("sim: LoadBoard into %d owners and %d armies, want %d", len(owner), len(armies), len(src)))
	}
	owner = owner[:len(src)]
	for t, o := range src {
		owner[t] = int(o)
	}
	srcA := s.armies
	armies = armies[:len(srcA)]
	for t, a := range srcA {
		armies[t] = int(a)
	}
}

// Alive reports whether seat p still owns a territory.
func (s *state) Alive(p int) bool { return s.alive[p] }

// NumAlive returns the number of players still in the game.
func (s *state) NumAlive() int {
	k := 0
	for _, a := range s.alive {
		if a {
			k++
		}
	}
	return k
}

// TerritoryCount returns the number of territories seat p owns.
func (s *state) TerritoryCount(p int) int { return s.territories[p] }

// TotalArmies returns the number of armies seat p has on the board.
func (s *state) TotalArmies(p int) int { return s.totalArmies[p] }

// NumCards returns the number of cards in seat p's hand.
func (s *state) NumCards(p int) int { return len(s.hands[p]) }

// Hand appends the asking seat's cards to dst, in the order that the
// indices of [Player.Trade] refer to, and returns the extended slice (an
// observer's State has no hand: dst is returned as is). The cards are a
// copy: changing them changes nothing in the game.
func (s *State) Hand(dst []Card) []Card {
	if s.seat < 0 {
		return dst
	}
	return append(dst, s.hands[s.seat]...)
}

// HandOf appends seat p's cards to dst (as Hand) and returns the extended
// slice and true, if this State may see them: its own seat's, or any seat's
// for an observer or under Rules.Info.Open. Otherwise it returns dst and
// false (NumCards says how many cards p holds).
func (s *State) HandOf(dst []Card, p int) ([]Card, bool) {
	if !s.sees(p) {
		return dst, false
	}
	return append(dst, s.hands[p]...), true
}

// MyMission returns the asking seat's mission card, or nil outside mission
// mode (and for an observer's State). The card belongs to the seat's copy
// of the rules (see Map).
func (s *State) MyMission() *Mission {
	if s.seat < 0 {
		return nil
	}
	return s.mission(s.seat)
}

// MyMissionTarget returns the seat that the asking seat's "eliminate"
// mission names, or -1.
func (s *State) MyMissionTarget() int {
	if s.seat < 0 {
		return -1
	}
	return s.missionTarget(s.seat)
}

// MissionOf returns seat p's mission card (nil outside mission mode) and
// true, if this State may see it (as HandOf); otherwise nil and false.
func (s *State) MissionOf(p int) (*Mission, bool) {
	if !s.sees(p) {
		return nil, false
	}
	return s.mission(p), true
}

// MissionTargetOf returns the seat that p's "eliminate" mission names (-1
// for none) and true, if this State may see p's mission; otherwise -1 and
// false.
func (s *State) MissionTargetOf(p int) (int, bool) {
	if !s.sees(p) {
		return -1, false
	}
	return s.missionTarget(p), true
}

func (s *State) mission(p int) *Mission {
	if s.missions == nil || s.missions[p] < 0 {
		return nil
	}
	r := s.Rules()
	if r == nil || s.missions[p] >= len(r.Missions) {
		return nil // a copy that its owner has cut short
	}
	return &r.Missions[s.missions[p]]
}

func (s *state) missionTarget(p int) int {
	if s.missionTgt == nil {
		return -1
	}
	return s.missionTgt[p]
}

// SetsTraded returns the number of card sets traded so far in the game.
func (s *state) SetsTraded() int { return s.setsTraded }

// DeckSize returns the number of cards left in the draw pile.
func (s *state) DeckSize() int { return len(s.deck) }

// Round returns the current round, starting at 1.
func (s *state) Round() int { return s.round }

// Current returns the seat whose turn it is.
func (s *state) Current() int { return s.current }

// Phase returns the current phase.
func (s *state) Phase() Phase { return s.phase }

// ConqueredThisTurn reports whether the current player has conquered a
// territory this turn.
func (s *state) ConqueredThisTurn() bool { return s.conquered }

// NumEliminated returns the number of seats eliminated so far.
func (s *state) NumEliminated() int { return len(s.eliminated) }

// AppendEliminated appends the seats eliminated so far, in order of
// elimination, to dst and returns the extended slice.
func (s *state) AppendEliminated(dst []int) []int { return append(dst, s.eliminated...) }

// Winner returns the winning seat, or -1 while the game runs or after a
// stalemate.
func (s *state) Winner() int { return s.winner }

// OwnsContinent reports whether seat p owns every territory of continent c.
func (s *state) OwnsContinent(p, c int) bool {
	for _, t := range s.m.Continents[c].Territories {
		if int(s.owner[t]) != p {
			return false
		}
	}
	return true
}

// FirstOwned returns the lowest-id territory owned by p, or -1.
func (s *state) FirstOwned(p int) int {
	for t, o := range s.owner {
		if int(o) == p {
			return t
		}
	}
	return -1
}

// Income returns the armies seat p would receive from territories and
// continents at the start of a turn (cards not counted), equation (1).
func (s *state) Income(p int) int {
	r := &s.rules.Reinforce
	n := s.territories[p]
	a := n / r.Divisor
	if r.Rounding == "ceil" {
		a = (n + r.Divisor - 1) / r.Divisor
	}
	if a < r.Min {
		a = r.Min
	}
	if r.ContinentBonus {
		for c := range s.m.Continents {
			if s.OwnsContinent(p, c) {
				a += s.m.Continents[c].Bonus
			}
		}
	}
	return a
}

// SetValue returns the armies the next traded set is worth for the given
// symbols (before the territory bonus), under the card rules.
func (s *state) SetValue(symbols [3]uint8) int {
	c := &s.rules.Cards
	switch c.Mode {
	case "fixed":
		return fixedSetValue(c.FixedValues, symbols)
	case "escalating":
		k := s.setsTraded
		if k < len(c.Escalating) {
			return c.Escalating[k]
		}
		last := 0
		if len(c.Escalating) > 0 {
			last = c.Escalating[len(c.Escalating)-1]
		}
		return last + (k-len(c.Escalating)+1)*c.EscalatingStep
	}
	return 0
}

// fixedSetValue values a set under fixed trading: three of a kind are worth
// their symbol's value, a mixed set (or one completed by wilds that can be
// read either way) the best value it can stand for.
func fixedSetValue(v [4]int, sym [3]uint8) int {
	best := 0
	// A set is valid as "all of symbol k" if each card is k or wild, and as
	// "one of each" if its non-wild symbols are distinct.
	for k := 0; k < 3; k++ {
		ok := true
		for _, x := range sym {
			if x != uint8(k) && x != Wild {
				ok = false
			}
		}
		if ok && v[k] > best {
			best = v[k]
		}
	}
	if distinctNonWild(sym) && v[3] > best {
		best = v[3]
	}
	return best
}

func distinctNonWild(sym [3]uint8) bool {
	var seen [4]bool
	for _, x := range sym {
		if x == Wild {
			continue
		}
		if x > Wild || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// ValidSet reports whether three cards form a tradeable set: three of a
// kind, one of each, or any set completed by wild cards.
func ValidSet(sym [3]uint8) bool {
	for k := uint8(0); k < 3; k++ {
		ok := true
		for _, x := range sym {
			if x != k && x != Wild {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return distinctNonWild(sym)
}
