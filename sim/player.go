package sim

import "math/rand/v2"

// Player is a bot. The engine calls its methods during the owner's turn
// (and Start and PlaceInitial during setup), always with the live,
// read-only *State of its seat, whose Map, Rules and MyMission are the
// seat's own copies (see [State.Map]) and which hides the other seats' cards
// and missions (see State). Every answer is validated: an illegal answer is recorded
// as a fault event and ends the current phase for that player; a panic (in
// any method, Start included) is recovered and recorded as a fault, and the
// player is never called again in that game: it passes for the rest of the
// game (the engine trades for it when forced, puts all its armies on its
// lowest-id territory, moves in the minimum, never attacks or fortifies).
// No answer can corrupt the state.
// The optional interfaces Ender and Watcher give a player the end of the
// game and the game's events.
//
// A Player value is used by one game at a time; arena reuses it across games
// (Start is called at the beginning of each), so implementations should keep
// their buffers between games rather than allocate per call.
type Player interface {
	// Start prepares the player for a new game in which it sits at seat
	// (0-based turn order) and draws its own random numbers from rng.
	Start(s *State, seat int, rng *rand.Rand)
	// PlaceInitial returns the territory (owned by the player) on which one
	// starting army is placed. Called only when Rules.Setup.InitialArmies is
	// "bots", once per army, players taking turns.
	PlaceInitial(s *State) int
	// Trade returns three indices into the player's hand, in the order
	// s.Hand(nil) lists it, forming a valid set to trade, or
	// ok == false to stop trading. forced is true when the player
	// holds at least Rules.Cards.ForcedTradeAt cards; if a forced player
	// declines or answers illegally, the engine trades for it.
	Trade(s *State, forced bool) (set [3]int, ok bool)
	// Place distributes armies new armies over owned territories, appending
	// to buf (which has length 0) and returning it. The counts must be
	// positive and sum to armies; an illegal answer forfeits the armies.
	Place(s *State, armies int, buf []Placement) []Placement
	// Attack returns the next attack order, or ok == false to end the attack
	// phase. It is called again after each executed order.
	Attack(s *State) (order AttackOrder, ok bool)
	// Occupy returns how many armies move from `from` into the conquered
	// territory `to`, within [min, max] (min is the dice rolled in the last
	// roll, or 1; max is the armies in `from` minus 1).
	Occupy(s *State, from, to, min, max int) int
	// Fortify appends the phase's moves to buf (length 0) and returns it. The
	// whole list is validated against Rules.Fortify.Mode before any move is
	// made; an illegal list is a fault and no move is made.
	Fortify(s *State, buf []Move) []Move
}

// Placement puts Armies new armies on Territory.
type Placement struct {
	Territory int
	Armies    int
}

// Move moves Armies armies from territory From to territory To.
type Move struct {
	From, To int
	Armies   int
}

// AttackOrder is an attack from an owned territory on an adjacent enemy one.
type AttackOrder struct {
	// From and To are territory ids.
	From, To int
	// Dice is the number of attacking dice per roll; 0 means the most
	// allowed (min(Rules.Attack.AttackerDice, armies in From - 1)). A larger
	// number than allowed is illegal.
	Dice int
	// Repeat keeps rolling ("blitz") until the defender is conquered or
	// From holds StopAt armies or fewer (StopAt < 2 means 1, i.e. until the
	// attacker can no longer attack). Without Repeat exactly one roll is made.
	Repeat bool
	// StopAt is the stop level for Repeat (armies left in From).
	StopAt int
}

// BasePlayer is a Player that does the minimum legal thing everywhere: it
// places all armies on its first territory, never attacks, occupies with the
// minimum and never fortifies. Embed it to implement only some methods.
type BasePlayer struct {
	// Seat is the player's seat, set by Start.
	Seat int
	// RNG is the player's random stream, set by Start.
	RNG *rand.Rand
}

// Start records the seat and the random stream.
func (b *BasePlayer) Start(s *State, seat int, rng *rand.Rand) { b.Seat, b.RNG = seat, rng }

// PlaceInitial places on the player's lowest-id territory.
func (b *BasePlayer) PlaceInitial(s *State) int { return s.FirstOwned(b.Seat) }

// Trade declines (the engine trades when forced).
func (b *BasePlayer) Trade(s *State, forced bool) ([3]int, bool) { return [3]int{}, false }

// Place puts every army on the player's lowest-id territory.
func (b *BasePlayer) Place(s *State, armies int, buf []Placement) []Placement {
	return append(buf, Placement{Territory: s.FirstOwned(b.Seat), Armies: armies})
}

// Attack never attacks.
func (b *BasePlayer) Attack(s *State) (AttackOrder, bool) { return AttackOrder{}, false }

// Occupy moves the minimum.
func (b *BasePlayer) Occupy(s *State, from, to, min, max int) int { return min }

// Fortify makes no move.
func (b *BasePlayer) Fortify(s *State, buf []Move) []Move { return buf }
