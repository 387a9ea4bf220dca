// Package pageevent is a game event as the scripts of marslab's pages read
// it (marslab view's replayed game and marslab play's live one): the
// event's fields by name and the change of the position it made.
package pageevent

import (
	_ "embed" // board.js, board.css

	"github.com/marslab-risk/marslab/sim"
)

// BoardScript defines marslabBoard, the script that draws the board of
// marslab's pages from their JSON (the map, the owners and armies the
// events set, the last event's arrow, the seats' legend); a page's own
// script follows it in the same script element.
//
//go:embed board.js
var BoardScript string

// BoardStyle is the style of the board that BoardScript draws, of its
// legend and of the frame of marslab's pages; a page's own style follows
// it.
//
//go:embed board.css
var BoardStyle string

// Event is a game event as a page's script reads it: its fields by
// name, and the change of the position it made, as the engine's replay of
// the log gives it (the script applies no rule: it sets these values).
type Event struct {
	Kind   string `json:"kind"`
	Round  int    `json:"round"`
	Phase  string `json:"phase"`
	Player int    `json:"player"`
	// Other, From and To are absent when the event has none (-1 in
	// [sim.Event]).
	Other  *int `json:"other,omitempty"`
	From   *int `json:"from,omitempty"`
	To     *int `json:"to,omitempty"`
	Armies int  `json:"armies"`
	// A roll's dice (descending) and losses.
	Attack       []int `json:"attack,omitempty"`
	Defend       []int `json:"defend,omitempty"`
	AttackerLoss int   `json:"attacker_loss,omitempty"`
	DefenderLoss int   `json:"defender_loss,omitempty"`
	// An attack order's dice, repeat and stop-at.
	Dice   int  `json:"dice,omitempty"`
	Repeat bool `json:"repeat,omitempty"`
	StopAt int  `json:"stop_at,omitempty"`
	// A fault's text.
	Text string `json:"text,omitempty"`
	// Set lists the territories whose owner or armies the event changed,
	// as [territory, owner, armies] after it.
	Set [][3]int `json:"set,omitempty"`
	// Cards lists the seats whose hand size the event changed, as [seat,
	// cards] after it.
	Cards [][2]int `json:"cards,omitempty"`
	// Out lists the seats the event eliminated.
	Out []int `json:"out,omitempty"`
	// Winner is the winning seat, on the game_end event of a game won.
	Winner *int `json:"winner,omitempty"`
}

// Index returns x as an optional index: nil for -1 (none).
func Index(x int) *int {
	if x < 0 {
		return nil
	}
	return &x
}

// Encode names an event's fields as a page's script reads them: the
// event's own fields, with Text for a fault or an explanation; the caller
// adds the position's change (Set, Cards, Out, Winner).
func Encode(e *sim.Event) Event {
	v := Event{Kind: e.Kind.String(), Round: e.Round, Phase: e.Phase.String(), Player: e.Player,
		Other: Index(e.Other), From: Index(e.From), To: Index(e.To), Armies: e.Armies}
	switch e.Kind {
	case sim.EvRoll:
		v.Attack, v.Defend = make([]int, e.NAttack), make([]int, e.NDefend)
		for i := range v.Attack {
			v.Attack[i] = int(e.AttackerDice[i])
		}
		for i := range v.Defend {
			v.Defend[i] = int(e.DefenderDice[i])
		}
		v.AttackerLoss, v.DefenderLoss = e.AttackerLoss, e.DefenderLoss
	case sim.EvAttackOrder:
		v.Dice, v.Repeat, v.StopAt = e.Dice, e.Repeat, e.StopAt
	case sim.EvFault, sim.EvExplain:
		v.Text = e.Text
	}
	return v
}
