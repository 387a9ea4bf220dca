package recog

import "github.com/marslab-risk/marslab/sim"

// actionKind is the type of an observed action (Khan & Rovatsos 2013,
// Table 3.3: a territory's action set).
type actionKind int

// The action kinds. Every one is public: any seat sees it in the events it
// is shown ([sim.Watcher]), so a recogniser needs no hidden information.
const (
	// reinforce: the player places armies on a territory it owns (a
	// reinforcement's [sim.EvPlace], or a starting army's [sim.EvSetupPlace]).
	reinforce actionKind = iota
	// movement: the player moves armies into a territory it owns
	// (fortification, [sim.EvMove]).
	movement
	// successfulOccupation: the player conquers the territory
	// ([sim.EvOccupation]).
	successfulOccupation
	// failedOccupation: the player's attack order on the territory ends
	// without a conquest ([sim.EvFailedOccupation]).
	failedOccupation
	// successfulDefence: the player keeps the territory against an attack
	// order ([sim.EvDefence]).
	successfulDefence
	// failedDefence: the player loses the territory (the defender's side of
	// [sim.EvOccupation]).
	failedDefence
	// numKinds is the number of kinds.
	numKinds
)

var kindNames = [numKinds]string{"reinforce", "movement", "successful_occupation", "failed_occupation",
	"successful_defence", "failed_defence"}

// String returns the kind's name, e.g. "successful_occupation".
func (k actionKind) String() string {
	if k < 0 || k >= numKinds {
		return "unknown"
	}
	return kindNames[k]
}

// action is one observed action: player p performed kind k on territory t.
type action struct {
	Player    int
	Kind      actionKind
	Territory int
}

// actions decodes event e into the actions it shows, appending them to dst:
// none for most kinds, one for a placement, move, failed occupation or
// defence, two for an occupation (the attacker's successful occupation,
// then the defender's failed defence).
func actions(dst []action, e *sim.Event) []action {
	switch e.Kind {
	case sim.EvPlace, sim.EvSetupPlace:
		dst = append(dst, action{e.Player, reinforce, e.To})
	case sim.EvMove:
		dst = append(dst, action{e.Player, movement, e.To})
	case sim.EvOccupation:
		dst = append(dst, action{e.Player, successfulOccupation, e.To}, action{e.Other, failedDefence, e.To})
	case sim.EvFailedOccupation:
		dst = append(dst, action{e.Player, failedOccupation, e.To})
	case sim.EvDefence:
		dst = append(dst, action{e.Player, successfulDefence, e.To})
	}
	return dst
}
