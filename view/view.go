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
// of the page. The rules live in the engine only: Write replays the log
// ([sim.ReplayWatch]) and gives every event the change of the position it
// made (owner and armies of the territories, hand sizes, eliminations,
// the winner), which the script sets in turn, applying no rule. The page
// shows the position in the element with id "state" (see State), so that
// a test can compare it with the engine's.
package view

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/marslab-risk/marslab/internal/pageevent"
	"github.com/marslab-risk/marslab/sim"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.js
var pageScript string

//go:embed page.css
var pageStyle string

var page = template.Must(template.New("page").Parse(pageTemplate))

// state is the position that the page shows, as the JSON text of its
// element with id "state" after every step.
type state struct {
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
	Title      string            `json:"title"`
	Seed       uint64            `json:"seed"`
	Index      uint64            `json:"index"`
	Rules      string            `json:"rules"`
	Map        string            `json:"map"`
	Bonus      int               `json:"territory_bonus"`
	Seats      []seat            `json:"seats"`
	Territory  []territory       `json:"territories"`
	Continents []continent       `json:"continents"`
	Borders    [][2]int          `json:"borders"`
	Wrap       bool              `json:"wrap"`
	Width      int               `json:"width"`
	Height     int               `json:"height"`
	Events     []pageevent.Event `json:"events"`
	Explain    []explain         `json:"explain"`
	Result     sim.Result        `json:"result"`
}

// explain is a line of a bot's explanation: At is the number of game
// events before it.
type explain struct {
	At     int    `json:"at"`
	Player int    `json:"player"`
	Round  int    `json:"round"`
	Phase  string `json:"phase"`
	Text   string `json:"text"`
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

// Write writes the page of a logged game to w. The log (as marslab play
// -log writes it) is replayed first ([sim.ReplayWatch], with the players
// that players returns for its header, e.g. bots.Registry.ReplayPlayers):
// a log that is cut or changed is an error, and the positions that the
// page shows are the engine's after every event. The rules and map are
// those of the header (rules_toml and map_toml); an explanation event that
// names a seat that does not exist is an error naming its line of the log
// (the header is line 1).
func Write(ctx context.Context, w io.Writer, log []byte, players func(sim.LogHeader) ([]sim.Player, error)) error {
	h, events, res, err := sim.ReadLog(bytes.NewReader(log))
	if err != nil {
		return err
	}
	d, err := build(h, events, res)
	if err != nil {
		return err
	}
	if err := replay(ctx, d, log, players); err != nil {
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
	}{d.Title, template.JS(js), template.JS(pageevent.BoardScript + pageScript), template.CSS(pageevent.BoardStyle + pageStyle)})
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
	d.Events = make([]pageevent.Event, 0, len(events))
	d.Explain = []explain{}
	for i := range events {
		e := &events[i]
		line := i + 2
		if err := checkEvent(e, n, nt); err != nil {
			return nil, fmt.Errorf("line %d: %v event: %w", line, e.Kind, err)
		}
		if e.Kind == sim.EvExplain {
			d.Explain = append(d.Explain, explain{At: len(d.Events), Player: e.Player, Round: e.Round, Phase: e.Phase.String(), Text: e.Text})
			continue
		}
		d.Events = append(d.Events, pageevent.Encode(e))
	}
	return d, nil
}

// replay plays the logged game again and records in d.Events the change
// of the position that each event made, as the engine's State shows it.
func replay(ctx context.Context, d *data, log []byte, players func(sim.LogHeader) ([]sim.Player, error)) error {
	nt, ns := len(d.Territory), len(d.Seats)
	owner, armies, cards := make([]int, nt), make([]int, nt), make([]int, ns)
	for t := range owner {
		owner[t] = -1
	}
	var elim []int
	k := 0
	_, err := sim.ReplayWatch(ctx, bytes.NewReader(log), players, func(e *sim.Event, g *sim.Game) {
		if k >= len(d.Events) {
			k++
			return
		}
		ev := &d.Events[k]
		k++
		s := g.State()
		for t := range nt {
			if o, a := s.Owner(t), s.Armies(t); o != owner[t] || a != armies[t] {
				owner[t], armies[t] = o, a
				ev.Set = append(ev.Set, [3]int{t, o, a})
			}
		}
		for p := range ns {
			if c := s.NumCards(p); c != cards[p] {
				cards[p] = c
				ev.Cards = append(ev.Cards, [2]int{p, c})
			}
		}
		n := len(elim)
		elim = s.AppendEliminated(elim[:0])
		if len(elim) > n {
			ev.Out = slices.Clone(elim[n:])
		}
		if e.Kind == sim.EvGameEnd && e.Player >= 0 {
			w := e.Player
			ev.Winner = &w
		}
	})
	if err != nil {
		return err
	}
	if k != len(d.Events) {
		return fmt.Errorf("the replay has %d events, the log %d", k, len(d.Events))
	}
	return nil
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
