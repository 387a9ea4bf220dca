package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/BurntSushi/toml"
)

// maxPositionArmies bounds the armies on one territory of a Position, far
// from the overflow of the engine's int32 counts.
const maxPositionArmies = 1 << 24

// Position is a copyable snapshot of a game: everything the engine needs
// to play on from it. Build one in code (every slice filled, see
// Validate), read one from TOML ([ParsePosition]), or take one from a game
// ([Game.Position], [State.Position]). A game plays on from a position
// ([Game.PlayFrom]), and a bot can be asked for its decision at one
// ([NewStateAt]).
type Position struct {
	// Players is the number of seats, 2..6.
	Players int
	// Owner[t] is the seat that owns territory t (0..Players-1) and
	// Armies[t] its armies (>= 1); one entry per territory of the map.
	Owner  []int
	Armies []int
	// Hands[p] is seat p's hand (Players entries), in the order that the
	// indices of [Player.Trade] refer to. Card t of the deck shows symbol t%3
	// (Infantry, Cavalry, Artillery); wild cards are Card{-1, Wild}.
	Hands [][]Card
	// Deck is the draw pile, its top card last; Discard the cards traded
	// (and those of eliminated players when they are not taken), which are
	// shuffled into a new deck when the deck runs out. Every card of the
	// rules' deck is in exactly one hand, the deck or the discard pile.
	Deck    []Card
	Discard []Card
	// Missions[p] is seat p's mission, an index into [Rules.Missions], and
	// MissionTargets[p] the seat its "eliminate" mission names (-1 for other
	// kinds); both nil unless Rules.End.Win is "missions".
	Missions       []int
	MissionTargets []int
	// SetsTraded is the number of sets traded so far (it sets the next
	// escalating value).
	SetsTraded int
	// Round is the current round (>= 1, at most the rules' round limit) and
	// Current the seat whose turn it is (a live one).
	Round   int
	Current int
	// Phase is the current phase of Current's turn: [PhaseTrade] (the start
	// of the turn), [PhasePlace], [PhaseAttack] or [PhaseFortify].
	Phase Phase
	// Conquered reports that Current has conquered a territory this turn
	// (it draws a card at the end of the attack phase); false before the
	// attack phase.
	Conquered bool
	// Eliminated lists the eliminated seats in order of elimination: every
	// seat that owns no territory, and no other.
	Eliminated []int
	// EliminatedBy[p] is the seat that eliminated p, or -1 (for a live seat,
	// or not known). Nil means all -1. It matters only to an "eliminate"
	// mission whose target is out: one that fell to another seat turns into
	// a territory mission.
	EliminatedBy []int
}

// Clone returns a deep copy of p.
func (p *Position) Clone() *Position {
	c := *p
	c.Owner = slices.Clone(p.Owner)
	c.Armies = slices.Clone(p.Armies)
	c.Hands = make([][]Card, len(p.Hands))
	for i, h := range p.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Deck = slices.Clone(p.Deck)
	c.Discard = slices.Clone(p.Discard)
	c.Missions = slices.Clone(p.Missions)
	c.MissionTargets = slices.Clone(p.MissionTargets)
	c.Eliminated = slices.Clone(p.Eliminated)
	c.EliminatedBy = slices.Clone(p.EliminatedBy)
	return &c
}

// Validate checks the position against map m and rules r: its lengths, every
// owner in range, armies 1..2^24, the eliminated seats exactly those that
// own nothing (at least two seats alive), every card of the rules' deck in
// exactly one hand or pile (none under card mode "none", no hand for an
// eliminated seat), one distinct mission per seat with a target where the
// mission needs one (mission mode only), the round within the round
// limit, the seat to move alive, and the phase one of trade, place, attack
// and fortify. The error names the key (as in the TOML form, see
// [ParsePosition]) and the allowed range, e.g.
//
//	territories.Alaska.armies = 0: must be 1..16777216
func (p *Position) Validate(m *Map, r *Rules) error {
	if p == nil || m == nil || r == nil {
		return errors.New("position: Validate needs a position, a map and rules")
	}
	nt := m.NumTerritories()
	n := p.Players
	switch {
	case n < MinPlayers || n > MaxPlayers:
		return fmt.Errorf("players = %d: must be %d..%d", n, MinPlayers, MaxPlayers)
	case len(p.Owner) != nt || len(p.Armies) != nt:
		return fmt.Errorf("territories: %d owners and %d army counts for the %d territories of map %q", len(p.Owner), len(p.Armies), nt, m.Name)
	case len(p.Hands) != n:
		return fmt.Errorf("hands: %d hands: must be one per seat (%d)", len(p.Hands), n)
	}
	count := make([]int, n)
	for t := range nt {
		name := m.Territories[t].Name
		if o := p.Owner[t]; o < 0 || o >= n {
			return fmt.Errorf("territories.%s.owner = %d: must be 0..%d", quoteKey(name), o, n-1)
		}
		if a := p.Armies[t]; a < 1 || a > maxPositionArmies {
			return fmt.Errorf("territories.%s.armies = %d: must be 1..%d", quoteKey(name), a, maxPositionArmies)
		}
		count[p.Owner[t]]++
	}
	out := make([]bool, n)
	for i, q := range p.Eliminated {
		switch {
		case q < 0 || q >= n:
			return fmt.Errorf("eliminated[%d] = %d: must be 0..%d", i, q, n-1)
		case out[q]:
			return fmt.Errorf("eliminated[%d] = %d: listed twice", i, q)
		case count[q] > 0:
			return fmt.Errorf("eliminated[%d] = %d: seat %d owns %d territories", i, q, q, count[q])
		}
		out[q] = true
	}
	for q := range n {
		if count[q] == 0 && !out[q] {
			return fmt.Errorf("eliminated = %v: seat %d owns no territory and must be listed", p.Eliminated, q)
		}
	}
	if n-len(p.Eliminated) < 2 {
		return fmt.Errorf("eliminated = %v: at least two seats must own territories (the game is over)", p.Eliminated)
	}
	if p.EliminatedBy != nil {
		if len(p.EliminatedBy) != n {
			return fmt.Errorf("eliminated_by: %d entries: must be one per seat (%d) or none", len(p.EliminatedBy), n)
		}
		for q, by := range p.EliminatedBy {
			if by < -1 || by >= n || by == q || (by >= 0 && !out[q]) {
				return fmt.Errorf("eliminated_by[%d] = %d: must be -1, or for an eliminated seat another seat 0..%d", q, by, n-1)
			}
		}
	}
	if err := p.validateCards(m, r, out); err != nil {
		return err
	}
	if err := p.validateMissions(r); err != nil {
		return err
	}
	switch {
	case p.SetsTraded < 0 || p.SetsTraded > maxArmyValue:
		return fmt.Errorf("sets_traded = %d: must be 0..%d", p.SetsTraded, maxArmyValue)
	case r.Cards.Mode == CardsNone && p.SetsTraded != 0:
		return fmt.Errorf("sets_traded = %d: must be 0 under card mode \"none\"", p.SetsTraded)
	case p.Round < 1 || (r.End.RoundLimit > 0 && p.Round > r.End.RoundLimit):
		hi := "any"
		if r.End.RoundLimit > 0 {
			hi = fmt.Sprint(r.End.RoundLimit)
		}
		return fmt.Errorf("round = %d: must be 1..%s (the round limit)", p.Round, hi)
	case p.Current < 0 || p.Current >= n:
		return fmt.Errorf("current = %d: must be 0..%d", p.Current, n-1)
	case out[p.Current]:
		return fmt.Errorf("current = %d: seat %d is eliminated", p.Current, p.Current)
	case p.Phase < PhaseTrade || p.Phase > PhaseFortify:
		return fmt.Errorf("phase = %q: must be \"trade\", \"place\", \"attack\" or \"fortify\"", p.Phase)
	case p.Conquered && p.Phase != PhaseAttack && p.Phase != PhaseFortify:
		return fmt.Errorf("conquered = true: only in the attack or fortify phase, not %q", p.Phase)
	}
	return nil
}

// validateCards checks that the hands and piles hold the rules' deck.
func (p *Position) validateCards(m *Map, r *Rules, out []bool) error {
	nt := m.NumTerritories()
	if r.Cards.Mode == CardsNone {
		for q, h := range p.Hands {
			if len(h) > 0 {
				return fmt.Errorf("hands[%d]: %d cards under card mode \"none\"", q, len(h))
			}
		}
		if len(p.Deck)+len(p.Discard) > 0 {
			return fmt.Errorf("deck, discard: %d cards under card mode \"none\"", len(p.Deck)+len(p.Discard))
		}
		return nil
	}
	seen := make([]bool, nt)
	wilds := 0
	// check returns the fault of card c without its place, which the
	// caller prefixes (formatted only on a fault: positions are validated
	// once per PlayFrom, in the search bots' playouts).
	check := func(c Card) error {
		switch {
		case c.Territory == -1 && c.Symbol == Wild:
			wilds++
			if wilds > r.Cards.Wilds {
				return fmt.Errorf(": wild card: the deck has %d wild cards", r.Cards.Wilds)
			}
		case c.Territory < 0 || int(c.Territory) >= nt:
			return fmt.Errorf(" = %v: territory %d out of range [0, %d) and not a wild card", c, c.Territory, nt)
		case int(c.Symbol) != int(c.Territory)%3:
			return fmt.Errorf(" = %v: territory %d's card shows symbol %d", c, c.Territory, int(c.Territory)%3)
		case seen[c.Territory]:
			return fmt.Errorf(": card of territory %s is in the position twice", m.Territories[c.Territory].Name)
		default:
			seen[c.Territory] = true
		}
		return nil
	}
	for q, h := range p.Hands {
		if out[q] && len(h) > 0 {
			return fmt.Errorf("hands[%d]: eliminated seat %d holds %d cards", q, q, len(h))
		}
		for i, c := range h {
			if err := check(c); err != nil {
				return fmt.Errorf("hands[%d][%d]%w", q, i, err)
			}
		}
	}
	for i, c := range p.Deck {
		if err := check(c); err != nil {
			return fmt.Errorf("deck[%d]%w", i, err)
		}
	}
	for i, c := range p.Discard {
		if err := check(c); err != nil {
			return fmt.Errorf("discard[%d]%w", i, err)
		}
	}
	if wilds != r.Cards.Wilds {
		return fmt.Errorf("hands, deck, discard: %d wild cards: the deck has %d", wilds, r.Cards.Wilds)
	}
	for t, ok := range seen {
		if !ok {
			return fmt.Errorf("hands, deck, discard: the card of territory %s is missing", m.Territories[t].Name)
		}
	}
	return nil
}

// validateMissions checks the missions and their targets.
func (p *Position) validateMissions(r *Rules) error {
	n := p.Players
	if r.End.Win != "missions" {
		if len(p.Missions)+len(p.MissionTargets) > 0 {
			return fmt.Errorf("missions: only under end.win = \"missions\", not %q", r.End.Win)
		}
		return nil
	}
	if len(p.Missions) != n || len(p.MissionTargets) != n {
		return fmt.Errorf("missions, mission_targets: %d and %d entries: must be one per seat (%d)", len(p.Missions), len(p.MissionTargets), n)
	}
	for q, mi := range p.Missions {
		if mi < 0 || mi >= len(r.Missions) {
			return fmt.Errorf("missions[%d] = %d: must be 0..%d", q, mi, len(r.Missions)-1)
		}
		if i := slices.Index(p.Missions, mi); i < q {
			return fmt.Errorf("missions[%d]: mission %q is also seat %d's", q, r.Missions[mi].Name, i)
		}
		tg := p.MissionTargets[q]
		if r.Missions[mi].Kind == MissionEliminate {
			if tg < 0 || tg >= n || tg == q {
				return fmt.Errorf("mission_targets[%d] = %d: mission %q needs another seat 0..%d", q, tg, r.Missions[mi].Name, n-1)
			}
		} else if tg != -1 {
			return fmt.Errorf("mission_targets[%d] = %d: must be -1 for mission %q", q, tg, r.Missions[mi].Name)
		}
	}
	return nil
}

// Position returns a deep copy of the game's position (valid during and
// after Play, as State; after a game that ended its phase is [PhaseOver],
// which PlayFrom does not start from).
func (g *Game) Position() *Position { return g.st.position(-1) }

// Position returns a deep copy of the position this State may see. An
// observer's State (or any under Rules.Info.Open) sees the whole position;
// a seat's State sees its own hand and mission, and of the rest only the
// numbers: every other seat's cards, the deck and the discard pile are
// cards with symbol Unknown, and the others' missions and targets -1. Such a
// position does not validate until the hidden cards are filled in (as a
// search that samples the hidden information does).
func (s *State) Position() *Position {
	seat := s.seat
	if s.rules.Info.Open {
		seat = -1
	}
	return s.position(seat)
}

// position copies the state out, hiding what seat may not see (-1: all
// visible).
func (s *state) position(seat int) *Position {
	nt := len(s.owner)
	p := &Position{
		Players:    s.n,
		Owner:      make([]int, nt),
		Armies:     make([]int, nt),
		Hands:      make([][]Card, s.n),
		Deck:       slices.Clone(s.deck),
		Discard:    slices.Clone(s.discard),
		SetsTraded: s.setsTraded,
		Round:      s.round,
		Current:    s.current,
		Phase:      s.phase,
		Conquered:  s.conquered,
		Eliminated: slices.Clone(s.eliminated),
	}
	for t := range nt {
		p.Owner[t] = int(s.owner[t])
		p.Armies[t] = int(s.armies[t])
	}
	for q := range s.n {
		p.Hands[q] = slices.Clone(s.hands[q])
	}
	if s.missions != nil {
		p.Missions = slices.Clone(s.missions)
		p.MissionTargets = slices.Clone(s.missionTgt)
	}
	if s.elimBy != nil && slices.ContainsFunc(s.elimBy, func(by int) bool { return by >= 0 }) {
		p.EliminatedBy = slices.Clone(s.elimBy)
	}
	if seat < 0 {
		return p
	}
	unknown := Card{Territory: -1, Symbol: Unknown}
	hide := func(cs []Card) {
		for i := range cs {
			cs[i] = unknown
		}
	}
	for q := range s.n {
		if q != seat {
			hide(p.Hands[q])
			if p.Missions != nil {
				p.Missions[q], p.MissionTargets[q] = -1, -1
			}
		}
	}
	hide(p.Deck)
	hide(p.Discard)
	return p
}

// load sets the state to the (validated) position.
func (s *state) load(p *Position) {
	for q := range s.n {
		s.alive[q] = true
		s.territories[q] = 0
		s.totalArmies[q] = 0
		s.hands[q] = append(s.hands[q][:0], p.Hands[q]...)
		s.elimBy[q] = -1
		if p.EliminatedBy != nil {
			s.elimBy[q] = p.EliminatedBy[q]
		}
	}
	for t := range s.owner {
		o := p.Owner[t]
		s.owner[t] = int8(o)
		s.armies[t] = int32(p.Armies[t])
		s.territories[o]++
		s.totalArmies[o] += p.Armies[t]
	}
	s.eliminated = append(s.eliminated[:0], p.Eliminated...)
	for _, q := range p.Eliminated {
		s.alive[q] = false
	}
	s.deck = append(s.deck[:0], p.Deck...)
	s.discard = append(s.discard[:0], p.Discard...)
	if s.missions != nil {
		copy(s.missions, p.Missions)
		copy(s.missionTgt, p.MissionTargets)
	}
	s.setsTraded = p.SetsTraded
	s.round = p.Round
	s.current = p.Current
	s.phase = p.Phase
	s.conquered = p.Conquered
	s.winner = -1
}

// NewStateAt returns a State of a game of map m under rules r at position
// pos, as seat sees it (0..Players-1; -1 for an observer's State, which
// sees all): the State a bot is given when it is asked for a decision at
// that position, so a test can call the bot's methods (Attack, Place,
// Fortify, ...) directly and check its answers. The position is validated
// first; the State keeps copies of m, r and pos.
func NewStateAt(m *Map, r *Rules, pos *Position, seat int) (*State, error) {
	if pos == nil {
		return nil, errors.New("sim: NewStateAt needs a position")
	}
	g, err := NewGame(m, r, pos.Players)
	if err != nil {
		return nil, fmt.Errorf("sim: NewStateAt: %w", err)
	}
	if err := pos.Validate(g.m, g.r); err != nil {
		return nil, fmt.Errorf("sim: NewStateAt: position: %w", err)
	}
	if seat < -1 || seat >= pos.Players {
		return nil, fmt.Errorf("sim: NewStateAt: seat %d: must be -1 (observer) or 0..%d", seat, pos.Players-1)
	}
	g.st.load(pos)
	if seat < 0 {
		return g.view(g.n), nil
	}
	return g.view(seat), nil
}

// PlayFrom plays a game on from position pos with players[i] in seat i,
// its random streams (dice, card shuffles, each bot's) derived from seed
// alone, and stops when ctx is done (as PlayContext). The position must
// validate against the game's map and rules ([Position.Validate]) and have
// the game's number of seats; it must be at the start of a turn
// ([PhaseTrade]), or in its attack or fortify phase: play then goes on from
// that phase. Every player's Start is called first. The events begin with
// the first turn (no [EvStart] or setup events); [Result.Turns] counts the
// turns played from the position (a turn begun in the position counts).
func (g *Game) PlayFrom(ctx context.Context, players []Player, pos *Position, seed uint64) (Result, error) {
	if len(players) != g.n {
		return Result{}, fmt.Errorf("%w: got %d, game has %d seats", ErrPlayers, len(players), g.n)
	}
	if pos == nil {
		return Result{}, errors.New("sim: PlayFrom needs a position")
	}
	if pos.Players != g.n {
		return Result{}, fmt.Errorf("sim: PlayFrom: position: players = %d: the game has %d seats", pos.Players, g.n)
	}
	if err := pos.Validate(g.m, g.r); err != nil {
		return Result{}, fmt.Errorf("sim: PlayFrom: position: %w", err)
	}
	if pos.Phase == PhasePlace {
		return Result{}, errors.New(`sim: PlayFrom: position: phase = "place": play starts at the trade, attack or fortify phase (the armies to place are not part of a position)`)
	}
	return g.withContext(ctx, func() (Result, error) {
		g.begin(players)
		g.reset(splitmix(seed ^ 0x243f6a8885a308d3))
		g.st.load(pos)
		g.startPhase = pos.Phase
		for p, pl := range g.players {
			g.safeStart(p, pl)
		}
		return g.finish()
	})
}

// quoteKey writes a territory name as a TOML key (quoted unless bare).
func quoteKey(name string) string { return toml.Key{name}.String() }
