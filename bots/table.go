package bots

import (
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// Table is a game ready to play: the engine for one rule set and map, and
// one player per seat, reused from game to game.
type Table struct {
	// Seats are the parsed seat specifications, in seat order.
	Seats []Seat
	// Players holds one player per seat, made by Seats[i].New.
	Players []sim.Player
	// Game is the engine, on the rules' own map.
	Game *sim.Game
}

// NewTable seats players (a comma-separated seat list, as ParseSeats reads
// it) at a game of the rule set rules (an embedded name such as "mars2006",
// or a TOML file) on the map the rules name.
func (r *Registry) NewTable(players, rules string) (*Table, error) {
	seats, err := r.ParseSeats(players, nil)
	if err != nil {
		return nil, err
	}
	rs, err := sim.LoadRules(rules)
	if err != nil {
		return nil, err
	}
	m, err := rs.LoadMap()
	if err != nil {
		return nil, err
	}
	g, err := sim.NewGame(m, rs, len(seats))
	if err != nil {
		return nil, fmt.Errorf("table %q: %w", players, err)
	}
	t := &Table{Seats: seats, Players: make([]sim.Player, len(seats)), Game: g}
	for i, s := range seats {
		if t.Players[i], err = s.New(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Play plays game index of the experiment seed ([sim.Game.Play]) with the
// table's players.
func (t *Table) Play(seed, index uint64) (sim.Result, error) {
	return t.Game.Play(t.Players, seed, index)
}

// ReplayPlayers builds the players of a logged game's seats (its bots,
// parameter values and labels) from r, as [sim.Replay] asks for them:
//
//	rep, err := sim.Replay(ctx, log, reg.ReplayPlayers)
//
// A bot r does not know is an error naming the seat.
func (r *Registry) ReplayPlayers(h sim.LogHeader) ([]sim.Player, error) {
	ps := make([]sim.Player, len(h.Seats))
	for i, st := range h.Seats {
		fac, ok := r.Lookup(st.Bot)
		if !ok {
			return nil, fmt.Errorf("seat %d: unknown bot %q", i, st.Bot)
		}
		p, err := Seat{Factory: fac, Params: st.Params, Label: st.Label}.New()
		if err != nil {
			return nil, fmt.Errorf("seat %d (%s): %w", i, st.Label, err)
		}
		ps[i] = p
	}
	return ps, nil
}
