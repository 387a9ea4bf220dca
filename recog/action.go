package recog

import "github.com/marslab-risk/marslab/sim"

// Kind is the type of an observed action (Khan & Rovatsos 2013, Table 3.3:
// a territory's action set).
type Kind int

// The action kinds. Every one is public: any seat sees it in the events it
// is shown (sim.Watcher), so a recogniser needs no hidden information.
const (
	// Reinforce: the player places armies on a territory it owns (a
	// reinforcement's sim.EvPlace, or a starting army's sim.EvSetupPlace).
	Reinforce Kind = iota
	// Movement: the player moves armies into a territory it owns
	// (fortification, sim.EvMove).
	Movement
	// SuccessfulOccupation: the player conquers the territory
	// (sim.EvOccupation).
	SuccessfulOccupation
	// FailedOccupation: the player's attack order on the territory ends
	// without a conquest (sim.EvFailedOccupation).
	FailedOccupation
	// SuccessfulDefence: the player keeps the territory against an attack
	// order (sim.EvDefence).
	SuccessfulDefence
	// FailedDefence: the player loses the territory (the defender's side of
	// sim.EvOccupation).
	FailedDefence
	// NumKinds is the number of kinds.
	NumKinds
)

var kindNames = [NumKinds]string{"reinforce", "movement", "successful_occupation", "failed_occupation",
	"successful_defence", "failed_defence"}

// String returns the kind's name, e.g. "successful_occupation".
func (k Kind) String() string {
	if k < 0 || k >= NumKinds {
		return "unknown"
	}
	return kindNames[k]
}

// Action is one observed action: player p performed kind k on territory t.
type Action struct {
	Player    int
	Kind      Kind
	Territory int
}

// Actions decodes event e into the actions it shows, appending them to dst:
// none for most kinds, one for a placement, move, failed occupation or
// defence, two for an occupation (the attacker's successful occupation,
// then the defender's failed defence).
func Actions(dst []Action, e *sim.Event) []Action {
	switch e.Kind {
	case sim.EvPlace, sim.EvSetupPlace:
		dst = append(dst, Action{e.Player, Reinforce, e.To})
	case sim.EvMove:
		dst = append(dst, Action{e.Player, Movement, e.To})
	case sim.EvOccupation:
		dst = append(dst, Action{e.Player, SuccessfulOccupation, e.To}, Action{e.Other, FailedDefence, e.To})
	case sim.EvFailedOccupation:
		dst = append(dst, Action{e.Player, FailedOccupation, e.To})
	case sim.EvDefence:
		dst = append(dst, Action{e.Player, SuccessfulDefence, e.To})
	}
	return dst
}
