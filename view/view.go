// Package view turns a game log into one self-contained web page: the
// board drawn as SVG (every territory in its owner's colour with its
// armies, the borders, the continents shaded with their bonus), a legend
// of the seats, controls to step through the game by event, player-turn
// and round (buttons, a slider, play/pause at a chosen speed, keyboard
// shortcuts), the current event in words, a chart of territories and
// armies per seat over the rounds and, when the log carries them (marslab
// play -explain -log), the bot's explanations of its decisions beside the
// board.
//
// The page needs no server, no network and no file beside it: its script
// and style are embedded in this package and the game is a JSON element
// of the page. The script computes the position after every event from
// the events alone, as the engine does, and shows it in the element
// with id "state" (see State), so that a test can compare it with
// sim.ReplayWatch's position after the same event.
package view

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.js
var pageScript string

//go:embed page.css
var pageStyle string

var page = template.Must(template.New("page").Parse(pageTemplate))

// State is the position that the page shows, as the JSON text of its
// element with id "state" after every step.
type State struct {
	// Event is the number of game events applied (0..len(events));
	// explanation events are not counted.
	Event int `json:"event"`
	// Round is the round of the last event applied (0 during the setup).
	Round int `json:"round"`
	// Owner[t] is the seat that owns territory t (-1 before the deal) and
	// Armies[t] its armies.
	Owner  []int `json:"owner"`
	Armies []int `json:"armies"`
	// Cards[p] is the number of cards in seat p's hand.
	Cards []int `json:"cards"`
	// Eliminated lists the eliminated seats in order of elimination.
	Eliminated []int `json:"eliminated"`
	// Winner is the winner once the game_end event is applied, else -1.
	Winner int `json:"winner"`
}

// data is the game as the page's script reads it.
type data struct {
	Title      string      `json:"title"`
	Seed       uint64      `json:"seed"`
	Index      uint64      `json:"index"`
	Rules      string      `json:"rules"`
	Map        string      `json:"map"`
	Bonus      int         `json:"territory_bonus"`
	Kinds      []string    `json:"kinds"`
	Phases     []string    `json:"phases"`
	Seats      []seat      `json:"seats"`
	Territory  []territory `json:"territories"`
	Continents []continent `json:"continents"`
	Borders    [][2]int    `json:"borders"`
	Wrap       bool        `json:"wrap"`
	Width      int         `json:"width"`
	Height     int         `json:"height"`
	Events     [][]any     `json:"events"`
	Explain    [][]any     `json:"explain"`
	Result     sim.Result  `json:"result"`
}

type seat struct {
	Label string `json:"label"`
	Bot   string `json:"bot"`
}

type territory struct {
	Name      string  `json:"name"`
	Continent int     `json:"continent"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
}

type continent struct {
	Name  string `json:"name"`
	Bonus int    `json:"bonus"`
}

// Write writes the page of a logged game to w: the log's header, its
// events (explanation events among them) and its result, as sim.ReadLog
// returns them. The rules and map are those of the header (rules_toml and
// map_toml); the events must be the game's, in order, which Write does
// not check against a replay (marslab view replays the log first), but an
// event that names a seat or a territory that does not exist is an error
// naming its line of the log (the header is line 1).
func Write(w io.Writer, h sim.LogHeader, events []sim.Event, res sim.Result) error {
	d, err := build(h, events, res)
	if err != nil {
		return err
	}
	js, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("view: %w", err)
	}
	return page.Execute(w, struct {
		Title  string
		Data   template.JS
		Script template.JS
		Style  template.CSS
	}{d.Title, template.JS(js), template.JS(pageScript), template.CSS(pageStyle)})
}

func build(h sim.LogHeader, events []sim.Event, res sim.Result) (*data, error) {
	if h.MapTOML == "" || h.RulesTOML == "" {
		return nil, fmt.Errorf("line 1 (header): map_toml and rules_toml are required to draw the game (map %q, rules %q)", h.MapName, h.RulesName)
	}
	m, err := sim.ParseMap("line 1 (header): map_toml", []byte(h.MapTOML))
	if err != nil {
		return nil, err
	}
	r, err := sim.ParseRules("line 1 (header): rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return nil, err
	}
	n := len(h.Seats)
	if n < sim.MinPlayers || n > sim.MaxPlayers {
		return nil, fmt.Errorf("line 1 (header): %d seats, want %d..%d", n, sim.MinPlayers, sim.MaxPlayers)
	}
	d := &data{Seed: h.Seed, Index: h.Index, Rules: r.Name, Map: m.Name, Bonus: r.Cards.TerritoryBonus,
		Width: Width, Height: Height, Wrap: m.Layout != nil, Result: res}
	d.Title = fmt.Sprintf("marslab: %s on %s, seed %d, game %d", r.Name, m.Name, h.Seed, h.Index)
	for k := sim.EventKind(0); k < sim.NumEventKinds; k++ {
		d.Kinds = append(d.Kinds, k.String())
	}
	for p := sim.PhaseSetup; p <= sim.PhaseOver; p++ {
		d.Phases = append(d.Phases, p.String())
	}
	for _, s := range h.Seats {
		d.Seats = append(d.Seats, seat{Label: s.Label, Bot: s.Bot})
	}
	pts := Layout(m)
	for t, tr := range m.Territories {
		d.Territory = append(d.Territory, territory{Name: tr.Name, Continent: tr.Continent, X: pts[t].X, Y: pts[t].Y})
		for _, u := range tr.Neighbors {
			if u > t {
				d.Borders = append(d.Borders, [2]int{t, u})
			}
		}
	}
	for _, c := range m.Continents {
		d.Continents = append(d.Continents, continent{Name: c.Name, Bonus: c.Bonus})
	}
	nt := len(m.Territories)
	d.Events = make([][]any, 0, len(events))
	d.Explain = [][]any{}
	for i := range events {
		e := &events[i]
		line := i + 2
		if err := checkEvent(e, n, nt); err != nil {
			return nil, fmt.Errorf("line %d: %v event: %w", line, e.Kind, err)
		}
		if e.Kind == sim.EvExplain {
			d.Explain = append(d.Explain, []any{len(d.Events), e.Player, e.Round, int(e.Phase), e.Text})
			continue
		}
		d.Events = append(d.Events, encodeEvent(e))
	}
	return d, nil
}

// checkEvent reports a seat or territory of e out of range.
func checkEvent(e *sim.Event, n, nt int) error {
	switch {
	case int(e.Kind) >= int(sim.NumEventKinds):
		return fmt.Errorf("unknown kind %d", e.Kind)
	case e.Player < -1 || e.Player >= n || (e.Player == -1 && !slices.Contains([]sim.EventKind{sim.EvStart, sim.EvGameEnd}, e.Kind)):
		return fmt.Errorf("seat %d: the game has seats 0..%d", e.Player, n-1)
	case e.Other < -1 || e.Other >= n:
		return fmt.Errorf("other seat %d: the game has seats 0..%d", e.Other, n-1)
	case e.From < -1 || e.From >= nt:
		return fmt.Errorf("territory %d (from): the map has territories 0..%d", e.From, nt-1)
	case e.To < -1 || e.To >= nt:
		return fmt.Errorf("territory %d (to): the map has territories 0..%d", e.To, nt-1)
	}
	return nil
}

// encodeEvent writes an event as the script reads it: [kind, round,
// phase, player, other, from, to, armies] and, for some kinds, more:
// a roll's attacker dice, defender dice, attacker and defender losses; an
// attack order's dice, repeat (0 or 1) and stop-at; a fault's text; a
// trade's or draw's card territories.
func encodeEvent(e *sim.Event) []any {
	v := []any{int(e.Kind), e.Round, int(e.Phase), e.Player, e.Other, e.From, e.To, e.Armies}
	switch e.Kind {
	case sim.EvRoll:
		att, def := make([]int, e.NAttack), make([]int, e.NDefend)
		for i := range att {
			att[i] = int(e.AttackerDice[i])
		}
		for i := range def {
			def[i] = int(e.DefenderDice[i])
		}
		v = append(v, att, def, e.AttackerLoss, e.DefenderLoss)
	case sim.EvAttackOrder:
		rep := 0
		if e.Repeat {
			rep = 1
		}
		v = append(v, e.Dice, rep, e.StopAt)
	case sim.EvFault:
		v = append(v, e.Text)
	case sim.EvTrade:
		v = append(v, []int{int(e.Cards[0].Territory), int(e.Cards[1].Territory), int(e.Cards[2].Territory)})
	}
	return v
}
