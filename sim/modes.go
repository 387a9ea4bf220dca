package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The rule modes are string types whose values are the spellings of the
// rules TOML: the constants below are the only valid values. Each type
// implements encoding.TextMarshaler and encoding.TextUnmarshaler, so TOML
// and JSON read and write it as its spelling and reading an unknown
// spelling is an error listing the allowed ones.

// DealMode says how territories are distributed (setup.deal).
type DealMode string

// Deal modes.
const (
	// DealRandom deals the territories round-robin in a random order, one
	// army each.
	DealRandom DealMode = "random"
)

// InitialArmiesMode says how the starting armies that remain after the
// deal are placed (setup.initial_armies).
type InitialArmiesMode string

// Initial army placements.
const (
	// InitialRandom places one army at a time on a random owned territory.
	InitialRandom InitialArmiesMode = "random"
	// InitialBots lets the players place one army at a time, in turn order,
	// via [Player.PlaceInitial].
	InitialBots InitialArmiesMode = "bots"
)

// Rounding is how n/Divisor is rounded in equation (1) (reinforce.rounding).
type Rounding string

// Roundings.
const (
	// RoundFloor rounds down, as the printed rules do.
	RoundFloor Rounding = "floor"
	// RoundCeil rounds up, as the MARS paper prints equation (1).
	RoundCeil Rounding = "ceil"
)

// CardMode is how the card deck works (cards.mode).
type CardMode string

// Card modes.
const (
	// CardsNone plays without cards.
	CardsNone CardMode = "none"
	// CardsFixed values a set by its symbols ([CardRules.FixedValues]).
	CardsFixed CardMode = "fixed"
	// CardsEscalating values the k-th set traded in the game at
	// [CardRules.Escalating][k], then EscalatingStep more per further set.
	CardsEscalating CardMode = "escalating"
)

// FortifyMode is the fortification rule (fortify.mode).
type FortifyMode string

// Fortify variants.
const (
	// FortifySingle allows one move of any number of armies between two
	// adjacent owned territories.
	FortifySingle FortifyMode = "single"
	// FortifyOneStep allows any number of moves between adjacent owned
	// territories, each army moving at most one step (the MARS house rule).
	FortifyOneStep FortifyMode = "one-step"
	// FortifyConnected allows one move along a path of owned territories.
	FortifyConnected FortifyMode = "connected"
)

// FortifyMovable says which armies may leave a territory in the
// fortification phase (fortify.movable).
type FortifyMovable string

// Movable variants.
const (
	// movableSpare ("spare"): a territory may send, over all its moves,
	// its armies at the start of the phase less one; armies that arrive
	// stay (the default, also when the key is left out).
	movableSpare FortifyMovable = "spare"
	// MovableStart: a territory may send every army it held at the start of
	// the phase (Lux's moveableArmies, LuxAgent.fortifyPhase), as long as it
	// holds at least one army after each move, in the order of the moves:
	// one that received armies earlier in the phase may send all of its
	// own. Armies that arrive still do not move on.
	MovableStart FortifyMovable = "start"
)

// WinCondition says how a game is won (end.win).
type WinCondition string

// Win conditions.
const (
	// WinDomination: own every territory.
	WinDomination WinCondition = "domination"
	// WinMissions: complete one's mission card, or be the last player
	// standing.
	WinMissions WinCondition = "missions"
)

// MissionKind is what a mission card asks for (missions[i].kind).
type MissionKind string

// Mission kinds.
const (
	// MissionContinents: own every listed continent, plus Extra more
	// continents of the player's choice.
	MissionContinents MissionKind = "continents"
	// MissionTerritories: own at least Count territories, each with at least
	// MinArmies armies.
	MissionTerritories MissionKind = "territories"
	// MissionEliminate: eliminate a player chosen when missions are dealt;
	// if that player is eliminated by another (or is oneself), the mission
	// becomes "own 24 territories".
	MissionEliminate MissionKind = "eliminate"
)

// The valid values of each mode, in the order error messages list them.
var (
	dealModes          = []DealMode{DealRandom}
	initialArmiesModes = []InitialArmiesMode{InitialRandom, InitialBots}
	roundings          = []Rounding{RoundFloor, RoundCeil}
	cardModes          = []CardMode{CardsNone, CardsFixed, CardsEscalating}
	fortifyModes       = []FortifyMode{FortifySingle, FortifyOneStep, FortifyConnected}
	fortifyMovables    = []FortifyMovable{movableSpare, MovableStart}
	winConditions      = []WinCondition{WinDomination, WinMissions}
	missionKinds       = []MissionKind{MissionContinents, MissionTerritories, MissionEliminate}
)

// oneOf lists the allowed values for a message: `"a", "b" or "c"`.
func oneOf[T ~string](allowed []T) string {
	var b strings.Builder
	for i, v := range allowed {
		switch {
		case i == 0:
		case i == len(allowed)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(string(v)))
	}
	return b.String()
}

// parseMode returns the value of allowed spelt text, or an error listing
// the allowed values.
func parseMode[T ~string](text []byte, allowed []T) (T, error) {
	if i := slices.Index(allowed, T(text)); i >= 0 {
		return allowed[i], nil
	}
	return "", fmt.Errorf("%q: must be %s", text, oneOf(allowed))
}

// String returns the mode's TOML spelling.
func (m DealMode) String() string { return string(m) }

// valid reports whether m is one of the deal modes.
func (m DealMode) valid() bool { return slices.Contains(dealModes, m) }

// MarshalText returns the mode's spelling.
func (m DealMode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *DealMode) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, dealModes)
	return err
}

// String returns the mode's TOML spelling.
func (m InitialArmiesMode) String() string { return string(m) }

// valid reports whether m is one of the initial army placements.
func (m InitialArmiesMode) valid() bool { return slices.Contains(initialArmiesModes, m) }

// MarshalText returns the mode's spelling.
func (m InitialArmiesMode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *InitialArmiesMode) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, initialArmiesModes)
	return err
}

// String returns the rounding's TOML spelling.
func (m Rounding) String() string { return string(m) }

// valid reports whether m is one of the roundings.
func (m Rounding) valid() bool { return slices.Contains(roundings, m) }

// MarshalText returns the rounding's spelling.
func (m Rounding) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *Rounding) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, roundings)
	return err
}

// String returns the mode's TOML spelling.
func (m CardMode) String() string { return string(m) }

// valid reports whether m is one of the card modes.
func (m CardMode) valid() bool { return slices.Contains(cardModes, m) }

// MarshalText returns the mode's spelling.
func (m CardMode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *CardMode) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, cardModes)
	return err
}

// String returns the mode's TOML spelling.
func (m FortifyMode) String() string { return string(m) }

// valid reports whether m is one of the fortify variants.
func (m FortifyMode) valid() bool { return slices.Contains(fortifyModes, m) }

// MarshalText returns the mode's spelling.
func (m FortifyMode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *FortifyMode) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, fortifyModes)
	return err
}

// String returns the condition's TOML spelling.
func (m WinCondition) String() string { return string(m) }

// valid reports whether m is one of the win conditions.
// valid reports whether m is one of the movable variants or empty (the
// key left out); [Rules.Validate] checks it.
func (m FortifyMovable) valid() bool { return m == "" || slices.Contains(fortifyMovables, m) }

func (m WinCondition) valid() bool { return slices.Contains(winConditions, m) }

// MarshalText returns the condition's spelling.
func (m WinCondition) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *WinCondition) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, winConditions)
	return err
}

// String returns the kind's TOML spelling.
func (m MissionKind) String() string { return string(m) }

// MarshalText returns the kind's spelling.
func (m MissionKind) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its spelling; an unknown one is an error.
func (m *MissionKind) UnmarshalText(text []byte) (err error) {
	*m, err = parseMode(text, missionKinds)
	return err
}

// The number of seats a game has: sim.NewGame, rule sets, positions and
// every experiment config accept [MinPlayers]..MaxPlayers.
const (
	// MinPlayers is the fewest seats of a game.
	MinPlayers = 2
	// MaxPlayers is the most seats of a game (StartingArmies has an entry
	// for each count up to it).
	MaxPlayers = 6
)
