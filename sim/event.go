package sim

// EventKind identifies what an Event records.
type EventKind uint8

// Event kinds. Player is the acting seat unless stated otherwise.
const (
	// EvStart: the game starts; Armies is the starting armies per player.
	EvStart EventKind = iota
	// EvDeal: territory To is dealt to Player with one army.
	EvDeal
	// EvSetupPlace: Player places one starting army on To.
	EvSetupPlace
	// EvTurn: Player's turn in round Round begins.
	EvTurn
	// EvTrade: Player trades Cards for Armies armies: the set's card value
	// alone, which joins the armies of the following placement ([EvPlace]
	// events). The territory bonus is not in Armies: when a traded card
	// shows a territory the player owns, Rules.Cards.TerritoryBonus armies
	// are put on it at once, without an [EvPlace] event, and To is that
	// territory; otherwise To is -1.
	EvTrade
	// EvReinforce: Player receives Armies armies from territories and
	// continents (equation (1)), before any card armies.
	EvReinforce
	// EvPlace: Player places Armies armies on To.
	EvPlace
	// EvRoll: Player attacks To (owned by Other) from From; the dice and the
	// losses of both sides are recorded.
	EvRoll
	// EvOccupation: Player conquered To (from Other, a failed defence) and
	// moved Armies armies in from From.
	EvOccupation
	// EvFailedOccupation: Player's attack order from From on To ended
	// without a conquest.
	EvFailedOccupation
	// EvDefence: Player (the defender) kept To against Other's attack order
	// from From (a successful defence).
	EvDefence
	// EvCard: Player draws a card (Cards[0]).
	EvCard
	// EvElimination: Player eliminated Other; Armies is the number of cards
	// taken.
	EvElimination
	// EvMove: Player moves Armies armies from From to To (fortification).
	EvMove
	// EvFault: Player answered illegally or panicked in phase Phase; Text
	// says what was wrong. Armies is the number of armies forfeited, if any.
	EvFault
	// EvGameEnd: the game ends; Player is the winner or -1 on a stalemate.
	EvGameEnd
	// EvAttackOrder: Player orders an attack from From on To (owned by
	// Other), as its [AttackOrder] says: Dice dice per roll (0: the most
	// allowed), Repeat to keep rolling until the conquest or until From
	// holds StopAt armies or fewer. It is emitted once the order is found
	// legal, before its first [EvRoll].
	EvAttackOrder
	// EvEndPhase: Player ends phase Phase by its own answer: the attack
	// phase when Attack answers ok == false, the fortify phase once the
	// moves of its (legal) Fortify answer, if any, are made. A phase ended
	// by a fault, a win or the engine (a broken player) has no EvEndPhase.
	EvEndPhase
	// EvExplain: one line of Player's account of its own decision (see
	// bots.Explainer), in Text, without its newline; Round and Phase are the
	// game's when the line was written, before the events of the decision
	// it explains. The engine never emits it: `marslab play -explain -log`
	// writes MARS's narration into the log as these events, and [LogReader]
	// returns them while Replay and the invariant checks skip them.
	EvExplain
	// NumEventKinds is the number of event kinds (kinds are 0..NumEventKinds-1).
	NumEventKinds
)

// numEventKinds is [NumEventKinds] for the package's own code.
const numEventKinds = NumEventKinds

var eventNames = [numEventKinds]string{"start", "deal", "setup_place", "turn", "trade", "reinforce", "place", "roll",
	"occupation", "failed_occupation", "defence", "card", "elimination", "move", "fault", "game_end",
	"attack_order", "end_phase", "explain"}

// String returns the kind's name as written in JSONL logs.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// parseEventKind returns the kind with the given name.
func parseEventKind(name string) (EventKind, bool) {
	for i, n := range eventNames {
		if n == name {
			return EventKind(i), true
		}
	}
	return 0, false
}

// Event is one thing that happened in a game. Fields not used by a kind are
// zero (territories and seats that do not apply are -1).
type Event struct {
	Kind   EventKind
	Round  int
	Phase  Phase
	Player int
	Other  int
	From   int
	To     int
	Armies int
	// AttackerDice and DefenderDice hold the rolled dice, sorted in
	// descending order; NAttack and NDefend say how many were rolled.
	AttackerDice [3]uint8
	DefenderDice [2]uint8
	NAttack      uint8
	NDefend      uint8
	// AttackerLoss and DefenderLoss are the armies lost in a roll.
	AttackerLoss int
	DefenderLoss int
	// Cards are the cards traded ([EvTrade]) or drawn ([EvCard], Cards[0]).
	// A Watcher is shown another seat's cards as unknown cards (see Unknown).
	Cards [3]Card
	// Dice, Repeat and StopAt are the attack order's ([EvAttackOrder]; see
	// [AttackOrder]).
	Dice   int
	Repeat bool
	StopAt int
	// Text explains a fault ([EvFault]) or is a line of a bot's explanation
	// ([EvExplain]).
	Text string
}

// Observer receives every event of the games it observes, in order. The
// *Event is valid only during the call: copy it to keep it.
type Observer interface {
	Observe(e *Event)
}

// ObserverFunc adapts a function to the Observer interface.
type ObserverFunc func(e *Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e *Event) { f(e) }
