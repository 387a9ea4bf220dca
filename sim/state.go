package sim

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

// State is the state of one game. Players receive a *State that they can
// only read: every field is unexported and only the engine (package sim)
// changes it. The slices returned by accessors are shared with the engine
// and must not be modified.
type State struct {
	m     *Map
	rules *Rules
	n     int // players

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
	winner     int   // -1 while running or on stalemate
}

// Map returns the map being played.
func (s *State) Map() *Map { return s.m }

// Rules returns the rules in force.
func (s *State) Rules() *Rules { return s.rules }

// NumPlayers returns the number of seats (2..6).
func (s *State) NumPlayers() int { return s.n }

// NumTerritories returns the number of territories on the map.
func (s *State) NumTerritories() int { return len(s.owner) }

// Owner returns the seat owning territory t.
func (s *State) Owner(t int) int { return int(s.owner[t]) }

// Armies returns the number of armies on territory t (>= 1).
func (s *State) Armies(t int) int { return int(s.armies[t]) }

// Alive reports whether seat p still owns a territory.
func (s *State) Alive(p int) bool { return s.alive[p] }

// NumAlive returns the number of players still in the game.
func (s *State) NumAlive() int {
	k := 0
	for _, a := range s.alive {
		if a {
			k++
		}
	}
	return k
}

// TerritoryCount returns the number of territories seat p owns.
func (s *State) TerritoryCount(p int) int { return s.territories[p] }

// TotalArmies returns the number of armies seat p has on the board.
func (s *State) TotalArmies(p int) int { return s.totalArmies[p] }

// Hand returns seat p's cards. (Hands are open information in marslab: bots
// may read any hand; see the README.)
func (s *State) Hand(p int) []Card { return s.hands[p] }

// Mission returns seat p's mission card, or nil outside mission mode.
func (s *State) Mission(p int) *Mission {
	if s.missions == nil || s.missions[p] < 0 {
		return nil
	}
	return &s.rules.Missions[s.missions[p]]
}

// MissionTarget returns the seat that p's "eliminate" mission names, or -1.
func (s *State) MissionTarget(p int) int {
	if s.missionTgt == nil {
		return -1
	}
	return s.missionTgt[p]
}

// SetsTraded returns the number of card sets traded so far in the game.
func (s *State) SetsTraded() int { return s.setsTraded }

// DeckSize returns the number of cards left in the draw pile.
func (s *State) DeckSize() int { return len(s.deck) }

// Round returns the current round, starting at 1.
func (s *State) Round() int { return s.round }

// Current returns the seat whose turn it is.
func (s *State) Current() int { return s.current }

// Phase returns the current phase.
func (s *State) Phase() Phase { return s.phase }

// ConqueredThisTurn reports whether the current player has conquered a
// territory this turn.
func (s *State) ConqueredThisTurn() bool { return s.conquered }

// Eliminated returns the seats eliminated so far, in order.
func (s *State) Eliminated() []int { return s.eliminated }

// Winner returns the winning seat, or -1 while the game runs or after a
// stalemate.
func (s *State) Winner() int { return s.winner }

// OwnsContinent reports whether seat p owns every territory of continent c.
func (s *State) OwnsContinent(p, c int) bool {
	for _, t := range s.m.Continents[c].Territories {
		if int(s.owner[t]) != p {
			return false
		}
	}
	return true
}

// FirstOwned returns the lowest-id territory owned by p, or -1.
func (s *State) FirstOwned(p int) int {
	for t, o := range s.owner {
		if int(o) == p {
			return t
		}
	}
	return -1
}

// Income returns the armies seat p would receive from territories and
// continents at the start of a turn (cards not counted), equation (1).
func (s *State) Income(p int) int {
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
func (s *State) SetValue(symbols [3]uint8) int {
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
		if seen[x] {
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
