// Package example holds Cautious, a small bot that shows how to write and
// register one (README.md, "Write and register a bot"). It is a complete
// family: Factories is what go generate ./bots/registry finds.
package example

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Factories returns the registry entry of the cautious bot.
func Factories() []bots.Factory {
	return []bots.Factory{{
		Name: "cautious",
		Doc:  "reinforces its most threatened border, attacks only at ratio:1 in armies, fortifies toward the front",
		Params: []bots.Param{{Name: "ratio", Default: 2, Min: 1, Max: 10,
			Doc: "attack only when the armies that may attack are at least ratio times the defenders"}},
		New: func(v bots.Values) (sim.Player, error) { return &Cautious{Ratio: v["ratio"]}, nil },
	}}
}

// Cautious places every army on its border territory facing the most enemy
// armies, attacks (one roll at a time, re-deciding after each) only where
// its armies that may attack outnumber the defenders Ratio to 1, trades
// its best set whenever it holds one, and fortifies by moving the armies of
// its strongest interior territory one step toward the front. The embedded
// BasePlayer records the seat and moves in the minimum after a conquest.
type Cautious struct {
	sim.BasePlayer
	// Ratio is the least ratio of attacking armies (the armies in From
	// less one) to defenders for an attack, >= 1.
	Ratio float64

	orders  []sim.AttackOrder // scratch: legal attacks
	borders []int             // scratch: owned territories with an enemy neighbour
	dist    []int             // scratch: steps to the nearest border
}

// threat returns the enemy armies adjacent to territory t.
func (c *Cautious) threat(s *sim.State, t int) int {
	n := 0
	for _, u := range s.Map().Neighbors(t) {
		if s.Owner(u) != c.Seat {
			n += s.Armies(u)
		}
	}
	return n
}

// front returns the owned territory facing the most enemy armies (the
// lowest id on a tie).
func (c *Cautious) front(s *sim.State) int {
	best, most := s.FirstOwned(c.Seat), 0
	for t := range s.NumTerritories() {
		if n := c.threat(s, t); s.Owner(t) == c.Seat && n > most {
			best, most = t, n
		}
	}
	return best
}

// PlaceInitial places each starting army on the front.
func (c *Cautious) PlaceInitial(s *sim.State) int { return c.front(s) }

// Trade trades the set worth the most armies whenever the hand holds one.
func (c *Cautious) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return sim.BestSet(s, c.Seat)
}

// Place puts all armies on the front.
func (c *Cautious) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return append(buf, sim.Placement{Territory: c.front(s), Armies: armies})
}

// Attack orders one roll of the legal attack with the best ratio of
// attacking armies to defenders, if that ratio reaches Ratio.
func (c *Cautious) Attack(s *sim.State) (sim.AttackOrder, bool) {
	c.orders = s.LegalAttacks(c.Seat, c.orders[:0])
	best, bestRatio := sim.AttackOrder{}, 0.0
	for _, o := range c.orders {
		if r := float64(s.Armies(o.From)-1) / float64(s.Armies(o.To)); r > bestRatio {
			best, bestRatio = o, r
		}
	}
	return best, bestRatio >= c.Ratio
}

// Fortify moves all but one army of the interior territory (no enemy
// neighbour, a border reachable through its own territories) holding the
// most armies to the first neighbour one step nearer a border.
func (c *Cautious) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	c.borders = c.borders[:0]
	for t := range s.NumTerritories() {
		if s.Owner(t) == c.Seat && c.threat(s, t) > 0 {
			c.borders = append(c.borders, t)
		}
	}
	c.dist = s.Paths().Distances(s, c.Seat, c.borders, c.dist)
	from := -1
	for t, d := range c.dist {
		if d > 0 && s.Armies(t) > 1 && (from < 0 || s.Armies(t) > s.Armies(from)) {
			from = t
		}
	}
	if from < 0 {
		return buf
	}
	for _, u := range s.Map().Neighbors(from) {
		if c.dist[u] == c.dist[from]-1 {
			return append(buf, sim.Move{From: from, To: u, Armies: s.Armies(from) - 1})
		}
	}
	return buf
}
