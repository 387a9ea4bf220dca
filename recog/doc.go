// Package recog recognises the secret mission cards of mission Risk from
// what the players do: the [PHATT]-based recogniser of Khan & Rovatsos
// (2013), its state-dependent weights (their section 6.0.3), and a
// data-driven recogniser whose action likelihoods are estimated from
// simulated games.
//
// A recogniser watches the events of a game: as a neutral spectator
// ([sim.Observer], attached with [sim.Game.Observe]) or as one seat sees them
// (Watching, a [sim.Watcher]). It uses only the board and the actions every
// seat sees (placements, moves, occupations, defences), never a card or a
// mission, so the two give the same predictions. Explanations are the
// continent cards expanded into their children (Explanations); a
// prediction is the card of the most probable explanation.
//
// See docs/recog.md for the model, the choices made where the paper is
// silent, and the experiment (marslab recognize).
package recog

import "github.com/marslab-risk/marslab/sim"

// Recognizer is a mission recogniser for one game at a time.
type Recognizer interface {
	sim.Observer
	// Start prepares for a game of players seats; call it before the
	// game's first event.
	Start(players int)
	// Predict returns the card (an index into Rules.Missions) predicted for
	// seat p; tie breaks ties among equally probable cards (see
	// [PHATT.Predict]).
	Predict(p int, tie uint64) int
	// Tied returns the number of different cards among seat p's most
	// probable explanations: 1 when one card leads, k > 1 when k cards
	// share the highest probability (Khan & Rovatsos 2013, section 5.3.3, count such a
	// split as an incorrect prediction).
	Tied(p int) int
}

var (
	_ Recognizer = (*PHATT)(nil)
	_ Recognizer = (*Data)(nil)
)

// Watching is a player with a recogniser at its seat: every event the
// engine shows the seat ([sim.Watcher]) also goes to R, and Watch is passed
// on to the player if it is a Watcher itself. R sees exactly what the seat
// may see, so a seat's recogniser works under hidden information.
type Watching struct {
	sim.Player
	R Recognizer
}

// Watch shows e to the recogniser, then to the player.
func (w *Watching) Watch(e *sim.Event) {
	w.R.Observe(e)
	if pw, ok := w.Player.(sim.Watcher); ok {
		pw.Watch(e)
	}
}
