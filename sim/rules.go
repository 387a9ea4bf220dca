package sim

import (
	"fmt"
	"slices"
)

// Rules is a complete rule set. Rules are loaded from TOML ([ParseRules],
// [LoadRules]), validated, and immutable afterwards; one Rules value may be
// shared by concurrent games: [NewGame] plays by a private copy (Clone), and
// every player sees a copy of its own, so neither a caller that changes the
// Rules afterwards nor a bot that changes the Rules it is shown can change a
// game. The TOML keys are the `toml` tags below.
type Rules struct {
	// Name identifies the rule set, e.g. "classic" or "mars2006".
	Name string `toml:"name"`
	// Map is the map the rules are played on by default: an embedded map's
	// name ("classic") or the path of a map file, relative to the folder of
	// the rules file (see MapPath).
	Map string `toml:"map"`
	// Players is the default number of players, 2..6.
	Players int `toml:"players"`
	// StartingArmies[k] is the number of armies each player starts with in a
	// k-player game (index 0 and 1 unused); classic: 40, 35, 30, 25, 20 for
	// 2..6 players.
	StartingArmies [7]int `toml:"starting_armies"`

	Setup     SetupRules     `toml:"setup"`
	Reinforce ReinforceRules `toml:"reinforce"`
	Cards     CardRules      `toml:"cards"`
	Attack    AttackRules    `toml:"attack"`
	Fortify   FortifyRules   `toml:"fortify"`
	End       EndRules       `toml:"end"`
	Info      InfoRules      `toml:"info"`
	// Missions is the mission deck, used only when End.Win is [WinMissions].
	Missions []Mission `toml:"missions"`

	// source names where the rules were read from (the file path, or the
	// embedded file's path) in the errors of Validate and [NewGame]; "" for
	// rules built in code, which are named `rules "NAME"` instead.
	source string
}

// Clone returns a deep copy of r (slices included) that remembers where r
// was read from, so that its errors name the same file.
func (r *Rules) Clone() *Rules {
	if r == nil {
		return nil
	}
	c := *r
	c.Cards.Escalating = slices.Clone(r.Cards.Escalating)
	c.Missions = slices.Clone(r.Missions)
	for i := range c.Missions {
		c.Missions[i].Continents = slices.Clone(r.Missions[i].Continents)
	}
	return &c
}

// label is how errors about r name it: its source file, or `rules "NAME"`.
func (r *Rules) label() string {
	if r.source != "" {
		return r.source
	}
	return fmt.Sprintf("rules %q", r.Name)
}

// equalRules reports whether a and b hold the same rules. It allocates
// nothing: the engine calls it for every player's view of the rules at the
// start of every game.
func equalRules(a, b *Rules) bool {
	if a.Name != b.Name || a.Map != b.Map || a.Players != b.Players || a.StartingArmies != b.StartingArmies ||
		a.Setup != b.Setup || a.Reinforce != b.Reinforce || a.Attack != b.Attack || a.Fortify != b.Fortify ||
		a.End != b.End || a.Info != b.Info || a.source != b.source || len(a.Missions) != len(b.Missions) {
		return false
	}
	ca, cb := &a.Cards, &b.Cards
	if ca.Mode != cb.Mode || ca.Wilds != cb.Wilds || ca.FixedValues != cb.FixedValues ||
		!slices.Equal(ca.Escalating, cb.Escalating) || ca.EscalatingStep != cb.EscalatingStep ||
		ca.TerritoryBonus != cb.TerritoryBonus || ca.ForcedTradeAt != cb.ForcedTradeAt ||
		ca.OnePerTurn != cb.OnePerTurn || ca.TakeOnElimination != cb.TakeOnElimination ||
		ca.VoluntaryPerTurn != cb.VoluntaryPerTurn {
		return false
	}
	for i := range a.Missions {
		x, y := &a.Missions[i], &b.Missions[i]
		if x.Name != y.Name || x.Kind != y.Kind || !slices.Equal(x.Continents, y.Continents) ||
			x.Extra != y.Extra || x.Count != y.Count || x.MinArmies != y.MinArmies {
			return false
		}
	}
	return true
}

// SetupRules says how the board is set up before the first turn.
type SetupRules struct {
	// Deal is how territories are distributed: [DealRandom].
	Deal DealMode `toml:"deal"`
	// InitialArmies is how the remaining starting armies are placed:
	// [InitialRandom] or [InitialBots].
	InitialArmies InitialArmiesMode `toml:"initial_armies"`
	// InitialPerTurn, with [InitialBots], is the number of starting armies a
	// player places in each of its setup turns, players taking turns from
	// seat 0: the engine asks [Player.Place] for min(InitialPerTurn, armies
	// left), the player's normal placement, as Lux asks each agent's
	// placeInitialArmies for 4 armies at a time (LuxAgent.java) and every
	// Lux bot of the MARS paper's Table 6 forwards that call to its
	// placeArmies. 0 (the key left out) asks [Player.PlaceInitial] for one
	// army at a time, as the rule book's players place them; otherwise
	// 1..100000. The key must be left out unless InitialArmies is
	// [InitialBots].
	InitialPerTurn int `toml:"initial_per_turn,omitzero" json:",omitempty"`
}

// ReinforceRules gives the reinforcement formula, MARS paper equation (1):
// a = max(Min, round(n/Divisor)) + card bonus + continent bonuses.
type ReinforceRules struct {
	// Rounding of n/Divisor: [RoundFloor] (the printed rules) or [RoundCeil]
	// (as the MARS paper prints equation (1)).
	Rounding Rounding `toml:"rounding"`
	// Divisor is the number of territories per army, usually 3.
	Divisor int `toml:"divisor"`
	// Min is the minimum territory-based reinforcement, usually 3.
	Min int `toml:"min"`
	// ContinentBonus enables the continents' bonuses.
	ContinentBonus bool `toml:"continent_bonus"`
}

// CardRules configures the card deck and trading.
type CardRules struct {
	// Mode is [CardsNone] (no cards), [CardsFixed] (a set's value depends on
	// its symbols: FixedValues) or [CardsEscalating] (the k-th set traded in
	// the game is worth Escalating[k], then +EscalatingStep per further set).
	Mode CardMode `toml:"mode"`
	// Wilds is the number of wild cards in the deck (usually 2).
	Wilds int `toml:"wilds"`
	// FixedValues are the values, in mode "fixed", of three infantry, three
	// cavalry, three artillery and one of each (4, 6, 8, 10 in Sciberras 2022).
	FixedValues [4]int `toml:"fixed_values"`
	// Escalating lists the values of the first sets traded in the game
	// (classic: 4, 6, 8, 10, 12, 15).
	Escalating []int `toml:"escalating"`
	// EscalatingStep is added per set after the listed ones (classic: 5).
	EscalatingStep int `toml:"escalating_step"`
	// TerritoryBonus is the number of extra armies placed on a traded card's
	// territory when the trader owns it (classic: 2; at most once per trade).
	TerritoryBonus int `toml:"territory_bonus"`
	// ForcedTradeAt: a player holding at least this many cards at the start
	// of its turn, or after taking an eliminated player's cards, must trade
	// until it holds fewer (classic: 5).
	ForcedTradeAt int `toml:"forced_trade_at"`
	// OnePerTurn gives a player that conquered at least one territory in its
	// turn one card at the end of the attack phase.
	OnePerTurn bool `toml:"one_per_turn"`
	// TakeOnElimination gives an eliminated player's cards to its eliminator.
	TakeOnElimination bool `toml:"take_on_elimination"`
	// VoluntaryPerTurn bounds the sets a player trades in the trade phase
	// of its turn when it is not forced to: once it has traded
	// VoluntaryPerTurn sets in the phase (forced trades included), it is
	// asked again only while it holds ForcedTradeAt cards or more. Lux's
	// voluntary cashers call cashCardsIfPossible once per turn, one set
	// (SmartAgentBase.java), and Lux cashes for any agent that leaves its
	// cardsPhase with more than 5 cards (LuxAgent.java). 0 (the key left
	// out) bounds nothing: the player is asked until it declines; otherwise
	// 1..10. The key must be left out with cards.mode "none".
	VoluntaryPerTurn int `toml:"voluntary_per_turn,omitzero" json:",omitempty"`
}

// AttackRules configures battles.
type AttackRules struct {
	// AttackerDice and DefenderDice are the maximum numbers of dice (3, 2).
	AttackerDice int `toml:"attacker_dice"`
	DefenderDice int `toml:"defender_dice"`
	// TiesToAttacker makes tied dice a defender loss (false in every
	// published rule set: ties go to the defender).
	TiesToAttacker bool `toml:"ties_to_attacker"`
	// MoveInAtLeastDice: after a conquest the attacker must move in at least
	// as many armies as dice rolled in the last roll (otherwise at least 1).
	MoveInAtLeastDice bool `toml:"move_in_at_least_dice"`
}

// FortifyRules configures the fortification phase.
type FortifyRules struct {
	// Mode is [FortifySingle], [FortifyOneStep] or [FortifyConnected].
	Mode FortifyMode `toml:"mode"`
	// Movable is which armies may leave a territory over the phase's moves
	// (optional key fortify.movable): "spare" (also the empty value:
	// its armies at the start of the phase less one) or [MovableStart] (every
	// army it held at the start, as long as it keeps one army after each
	// move in order, Lux's moveableArmies). The two differ only under
	// [FortifyOneStep], for a territory that receives armies before it sends.
	Movable FortifyMovable `toml:"movable,omitempty" json:",omitempty"`
}

// EndRules says when a game ends.
type EndRules struct {
	// Win is [WinDomination] (own every territory) or [WinMissions] (complete
	// one's mission card, or be the last player standing).
	Win WinCondition `toml:"win"`
	// RoundLimit ends the game as a stalemate after this many rounds (a
	// round is one turn of every live player); 0 means no limit.
	RoundLimit int `toml:"round_limit"`
}

// InfoRules says what a seat may see (the TOML table [info] is optional).
type InfoRules struct {
	// Open shows every seat everything: every hand, every mission, and the
	// cards in every event (default false: a seat sees its own hand and
	// mission and the others' card counts, as a player at the table does).
	Open bool `toml:"open"`
}

// Mission is a mission card (mission mode; Khan & Rovatsos 2013, 3.2.1).
type Mission struct {
	// Name is a short description, e.g. "Occupy Asia and Africa".
	Name string `toml:"name"`
	// Kind is [MissionContinents], [MissionTerritories] or [MissionEliminate].
	Kind MissionKind `toml:"kind"`
	// Continents are continent names ([MissionContinents]).
	Continents []string `toml:"continents"`
	// Extra is how many further continents of one's choice ([MissionContinents]).
	Extra int `toml:"extra"`
	// Count and MinArmies parameterise [MissionTerritories].
	Count     int `toml:"count"`
	MinArmies int `toml:"min_armies"`
}
