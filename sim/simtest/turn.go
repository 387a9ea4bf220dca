package simtest

import (
	"context"
	"errors"
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

// Order is one attack order of a turn played by [PlayTurn], with its
// outcome.
type Order struct {
	sim.AttackOrder
	// Conquered reports that the order took its target.
	Conquered bool
	// Moved is the armies moved in after a conquest, Dice the attacking
	// dice of the last roll (the move-in's minimum) and Left the armies
	// left in From after the move-in (1 when everything moved).
	Moved, Dice, Left int
}

// All reports whether the order's move-in moved everything (its
// maximum), Min whether it moved the minimum; both are true when the two
// bounds meet.
func (o Order) All() bool { return o.Conquered && o.Left == 1 }

// Min reports whether the order's move-in moved the minimum (see All).
func (o Order) Min() bool { return o.Conquered && o.Moved == o.Dice }

// Turn is what seat pos.Current did in one turn played by [PlayTurn].
type Turn struct {
	Places []sim.Placement
	Orders []Order
	Moves  []sim.Move
	Faults []string
}

// turnRecorder records the events of the current seat's turn.
type turnRecorder struct {
	seat int
	t    Turn
	dice int
	g    *sim.Game
}

func (r *turnRecorder) Observe(e *sim.Event) {
	if e.Player != r.seat {
		return
	}
	switch e.Kind {
	case sim.EvPlace:
		r.t.Places = append(r.t.Places, sim.Placement{Territory: e.To, Armies: e.Armies})
	case sim.EvAttackOrder:
		r.t.Orders = append(r.t.Orders, Order{AttackOrder: sim.AttackOrder{From: e.From, To: e.To, Dice: e.Dice, Repeat: e.Repeat, StopAt: e.StopAt}})
	case sim.EvRoll:
		r.dice = int(e.NAttack)
	case sim.EvOccupation:
		o := &r.t.Orders[len(r.t.Orders)-1]
		o.Conquered, o.Moved, o.Dice = true, e.Armies, r.dice
		o.Left = r.g.State().Armies(e.From)
	case sim.EvMove:
		r.t.Moves = append(r.t.Moves, sim.Move{From: e.From, To: e.To, Armies: e.Armies})
	case sim.EvFault:
		r.t.Faults = append(r.t.Faults, e.Text)
	}
}

// stopAfterFortify wraps the player of the turn: its fortification ends
// the game (Interrupt) once the moves are made.
type stopAfterFortify struct {
	sim.Player
	g *sim.Game
}

func (p stopAfterFortify) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	p.g.Interrupt()
	return p.Player.Fortify(s, buf)
}

// PlayTurn plays the turn of seat pos.Current, player p, from pos with the
// real engine (dice from seed; the other seats pass) and returns what p did:
// its placements, its attack orders with their outcomes and move-ins (the
// engine asks Occupy while the conquered territory still shows its
// defender with 0 armies) and its fortification. pos must be at the start
// of the turn (PhaseTrade) or in its attack or fortify phase. A failure
// fails tb.
func PlayTurn(tb testing.TB, p sim.Player, m *sim.Map, r *sim.Rules, pos *sim.Position, seed uint64) Turn {
	tb.Helper()
	g, err := sim.NewGame(m, r, pos.Players)
	if err != nil {
		tb.Fatal(err)
	}
	rec := &turnRecorder{seat: pos.Current, g: g}
	g.Observe(rec)
	players := make([]sim.Player, pos.Players)
	for i := range players {
		players[i] = &sim.BasePlayer{}
	}
	players[pos.Current] = stopAfterFortify{p, g}
	if _, err := g.PlayFrom(context.Background(), players, pos, seed); err != nil && !errors.Is(err, sim.ErrInterrupted) {
		tb.Fatal(err)
	}
	return rec.t
}
