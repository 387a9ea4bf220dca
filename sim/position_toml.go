package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// positionFile is the TOML form of a Position (see [ParsePosition]).
type positionFile struct {
	Players        int                          `toml:"players"`
	Round          int                          `toml:"round"`
	Current        int                          `toml:"current"`
	Phase          string                       `toml:"phase"`
	SetsTraded     int                          `toml:"sets_traded"`
	Conquered      bool                         `toml:"conquered"`
	Territories    map[string]positionTerritory `toml:"territories"`
	Hands          [][]string                   `toml:"hands"`
	Deck           []string                     `toml:"deck"`
	Discard        []string                     `toml:"discard"`
	Missions       []string                     `toml:"missions"`
	MissionTargets []int                        `toml:"mission_targets"`
	Eliminated     []int                        `toml:"eliminated"`
	EliminatedBy   []int                        `toml:"eliminated_by"`
}

type positionTerritory struct {
	Owner  int `toml:"owner"`
	Armies int `toml:"armies"`
}

// LoadPosition reads a position in TOML form from the file at path (see
// [ParsePosition]).
func LoadPosition(path string, m *Map, r *Rules) (*Position, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("sim: position: %w", err)
	}
	return ParsePosition(path, data, m, r)
}

// ParsePosition reads a position of a game of map m under rules r from
// its TOML form and validates it ([Position.Validate]). source names the
// data in errors, which name the key and the allowed range:
//
//	pos.toml: territories.Alaska.owner = 4: must be 0..2
//
// The form names territories, cards and missions as the map and rules do:
//
//	players = 3            # 2..6
//	round = 4              # >= 1
//	current = 1            # the seat to move
//	phase = "attack"       # "trade" (default), "place", "attack", "fortify"
//	conquered = false      # default false
//	sets_traded = 2        # default 0
//	eliminated = []        # the seats out, in order (default none)
//	eliminated_by = []     # optional: who eliminated each seat, -1 for none
//	hands = [["Alaska", "wild"], [], ["Peru"]]  # one list per seat
//	discard = ["Brazil", "Venezuela", "wild"]   # default empty
//	deck = ["Egypt", ...]  # the draw pile, top last; default every other card
//	missions = ["Occupy Europe and Australia and one more", ...]  # mission mode
//	mission_targets = [-1, 0, -1]  # mission mode: the seat to eliminate, or -1
//
//	[territories]          # every territory of the map
//	Alaska = { owner = 0, armies = 3 }
//	"North West Territory" = { owner = 1, armies = 1 }
//
// A card is its territory's name (its symbol is fixed by the deck:
// territory t shows symbol t%3) or "wild". When deck is left out, the deck
// holds every card in no hand and not discarded, by increasing territory,
// the wild cards last (so the wild cards are drawn first). Unknown keys are
// errors.
func ParsePosition(source string, data []byte, m *Map, r *Rules) (*Position, error) {
	if m == nil || r == nil {
		return nil, fmt.Errorf("%s: ParsePosition needs a map and rules", source)
	}
	var f positionFile
	md, err := configs.DecodeStrict(source, data, &f)
	if err != nil {
		return nil, err
	}
	for _, k := range []struct{ key, hint string }{
		{"players", fmt.Sprintf("%d..%d", MinPlayers, MaxPlayers)}, {"round", ">= 1"}, {"current", "the seat to move"},
		{"territories", "a table with every territory: NAME = { owner = SEAT, armies = N }"},
	} {
		if !md.IsDefined(k.key) {
			return nil, fmt.Errorf("%s: %s: missing (%s)", source, k.key, k.hint)
		}
	}
	if f.Players < MinPlayers || f.Players > MaxPlayers {
		return nil, fmt.Errorf("%s: players = %d: must be %d..%d", source, f.Players, MinPlayers, MaxPlayers)
	}
	nt := m.NumTerritories()
	pos := &Position{
		Players:        f.Players,
		Owner:          make([]int, nt),
		Armies:         make([]int, nt),
		Hands:          make([][]Card, f.Players),
		SetsTraded:     f.SetsTraded,
		Round:          f.Round,
		Current:        f.Current,
		Phase:          PhaseTrade,
		Conquered:      f.Conquered,
		Eliminated:     slices.Clone(f.Eliminated),
		EliminatedBy:   slices.Clone(f.EliminatedBy),
		MissionTargets: slices.Clone(f.MissionTargets),
	}
	if pos.Eliminated == nil {
		pos.Eliminated = []int{}
	}
	if md.IsDefined("phase") {
		ph, ok := parsePhase(f.Phase)
		if !ok {
			return nil, fmt.Errorf("%s: phase = %q: must be \"trade\", \"place\", \"attack\" or \"fortify\"", source, f.Phase)
		}
		pos.Phase = ph
	}
	// Territories: every one, by name, with both keys.
	set := make([]bool, nt)
	names := make([]string, 0, len(f.Territories))
	for name := range f.Territories {
		names = append(names, name)
	}
	slices.Sort(names) // the first error is the same from run to run
	for _, name := range names {
		t, ok := m.TerritoryID(name)
		if !ok {
			return nil, fmt.Errorf("%s: territories.%s: no such territory on map %q", source, quoteKey(name), m.Name)
		}
		for _, k := range []string{"owner", "armies"} {
			if !md.IsDefined("territories", name, k) {
				return nil, fmt.Errorf("%s: territories.%s.%s: missing", source, quoteKey(name), k)
			}
		}
		set[t] = true
		pos.Owner[t] = f.Territories[name].Owner
		pos.Armies[t] = f.Territories[name].Armies
	}
	if t := slices.Index(set, false); t >= 0 {
		return nil, fmt.Errorf("%s: territories.%s: missing (every territory of map %q is listed)", source, quoteKey(m.Territories[t].Name), m.Name)
	}
	// Cards by name.
	card := func(key, name string) (Card, error) {
		if name == "wild" {
			return Card{Territory: -1, Symbol: Wild}, nil
		}
		t, ok := m.TerritoryID(name)
		if !ok {
			return Card{}, fmt.Errorf("%s: %s = %q: no such territory on map %q (a card is a territory name or \"wild\")", source, key, name, m.Name)
		}
		return Card{Territory: int16(t), Symbol: uint8(t % 3)}, nil
	}
	cards := func(key string, names []string) ([]Card, error) {
		cs := make([]Card, 0, len(names))
		for i, name := range names {
			c, err := card(fmt.Sprintf("%s[%d]", key, i), name)
			if err != nil {
				return nil, err
			}
			cs = append(cs, c)
		}
		return cs, nil
	}
	if md.IsDefined("hands") && len(f.Hands) != f.Players {
		return nil, fmt.Errorf("%s: hands: %d hands: must be one per seat (%d)", source, len(f.Hands), f.Players)
	}
	for q := range pos.Hands {
		pos.Hands[q] = []Card{}
		if q < len(f.Hands) {
			if pos.Hands[q], err = cards(fmt.Sprintf("hands[%d]", q), f.Hands[q]); err != nil {
				return nil, err
			}
		}
	}
	if pos.Discard, err = cards("discard", f.Discard); err != nil {
		return nil, err
	}
	if md.IsDefined("deck") {
		if pos.Deck, err = cards("deck", f.Deck); err != nil {
			return nil, err
		}
	} else if r.Cards.Mode != CardsNone {
		pos.Deck = restOfDeck(pos, nt, r.Cards.Wilds)
	}
	// Missions by name.
	if md.IsDefined("missions") {
		pos.Missions = make([]int, len(f.Missions))
		for i, name := range f.Missions {
			k := slices.IndexFunc(r.Missions, func(ms Mission) bool { return ms.Name == name })
			if k < 0 {
				var known []string
				for _, ms := range r.Missions {
					known = append(known, fmt.Sprintf("%q", ms.Name))
				}
				return nil, fmt.Errorf("%s: missions[%d] = %q: no such mission in rules %q (%s)", source, i, name, r.Name, strings.Join(known, ", "))
			}
			pos.Missions[i] = k
		}
	}
	if err := pos.Validate(m, r); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return pos, nil
}

// restOfDeck returns the cards of the deck in no hand and not discarded, by
// increasing territory and then the wild cards (top last).
func restOfDeck(pos *Position, nt, wilds int) []Card {
	used := make([]bool, nt)
	usedWilds := 0
	mark := func(cs []Card) {
		for _, c := range cs {
			switch {
			case c.Symbol == Wild:
				usedWilds++
			case c.Territory >= 0 && int(c.Territory) < nt:
				used[c.Territory] = true
			}
		}
	}
	for _, h := range pos.Hands {
		mark(h)
	}
	mark(pos.Discard)
	deck := make([]Card, 0, nt+wilds)
	for t := range nt {
		if !used[t] {
			deck = append(deck, Card{Territory: int16(t), Symbol: uint8(t % 3)})
		}
	}
	for ; usedWilds < wilds; usedWilds++ {
		deck = append(deck, Card{Territory: -1, Symbol: Wild})
	}
	return deck
}

// parsePhase returns the phase with the given name (see [Phase.String]).
func parsePhase(name string) (Phase, bool) {
	for i, n := range phaseNames {
		if n == name {
			return Phase(i), true
		}
	}
	return 0, false
}
