// Package bully is a bot written outside the marslab module: it picks on
// the weakest neighbour. It shows what a bot author's own module needs: a
// sim.Player and a bots.Factory for the registry.
package bully

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Factory returns the registry entry of the bully bot, "mybot".
func Factory() bots.Factory {
	return bots.Factory{
		Name: "mybot",
		Doc:  "places on its strongest border territory, attacks the weakest neighbour while it has margin armies more",
		Params: []bots.Param{{Name: "margin", Default: 1, Min: 0, Max: 20, Integer: true,
			Doc: "attack only when the attacker's armies exceed the defender's by more than margin"}},
		New: func(v bots.Values) (sim.Player, error) { return &Bully{Margin: int(v["margin"])}, nil },
	}
}

// Bully places every army on its owned territory with an enemy neighbour
// that holds the most armies, and attacks from any territory the adjacent
// enemy with the fewest armies while its own armies exceed the defender's
// by more than Margin. It trades whenever it can; BasePlayer moves in the
// minimum and does not fortify.
type Bully struct {
	sim.BasePlayer
	// Margin is the least excess of attacking over defending armies, >= 0.
	Margin int

	orders []sim.AttackOrder // scratch: legal attacks
}

// border returns the owned territory with an enemy neighbour holding the
// most armies (the lowest id on a tie), or the first owned territory.
func (b *Bully) border(s *sim.State) int {
	best := -1
	for t := range s.NumTerritories() {
		if s.Owner(t) != b.Seat || (best >= 0 && s.Armies(t) <= s.Armies(best)) {
			continue
		}
		for _, u := range s.Map().Neighbors(t) {
			if s.Owner(u) != b.Seat {
				best = t
				break
			}
		}
	}
	if best < 0 {
		return s.FirstOwned(b.Seat)
	}
	return best
}

// PlaceInitial places each starting army on the strongest border.
func (b *Bully) PlaceInitial(s *sim.State) int { return b.border(s) }

// Trade trades the set worth the most armies whenever the hand holds one.
func (b *Bully) Trade(s *sim.State, forced bool) ([3]int, bool) { return sim.BestSet(s, b.Seat) }

// Place puts all armies on the strongest border.
func (b *Bully) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return append(buf, sim.Placement{Territory: b.border(s), Armies: armies})
}

// Attack orders one roll against the legal target with the fewest armies
// while the attacker's armies exceed them by more than Margin.
func (b *Bully) Attack(s *sim.State) (sim.AttackOrder, bool) {
	b.orders = s.LegalAttacks(b.Seat, b.orders[:0])
	best, ok := sim.AttackOrder{}, false
	for _, o := range b.orders {
		if s.Armies(o.From)-s.Armies(o.To) <= b.Margin {
			continue
		}
		if !ok || s.Armies(o.To) < s.Armies(best.To) {
			best, ok = o, true
		}
	}
	return best, ok
}
