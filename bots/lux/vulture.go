package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/sim"
)

// Vulture stands in for the unpublished Nefarious bot (every table labels
// it so). Each turn, at placement, it picks its prey: the live opponent
// owning a territory next to one of its own (reachable) with the lowest
// strength, its armies plus the armies its cards would trade for (one set
// per three cards, each at the next set's value for three infantry,
// sim.State.SetValue), lowest seat on ties. When its own armies exceed
// twice that strength it hunts: it places everything on its territory next
// to the prey with the most armies (lowest id on ties), attacks the prey
// until no attack is left (each time the pair, its territory with at least
// 2 armies next to a prey territory with fewer armies, with the best ratio
// of armies; lowest ids on ties), and after a conquest moves everything in
// if the captured territory borders the prey, else the minimum. Otherwise,
// and for the rest of a hunting turn, it plays as Cluster.
type Vulture struct {
	*legacyCluster
	prey int // seat hunted this turn, -1 for none
}

func newVulture() *Vulture {
	return &Vulture{legacyCluster: newLegacyCluster(variant{plan: legacyClusterPlan}), prey: -1}
}

// choosePrey sets the prey of the turn (see Vulture); c.b is loaded.
func (v *Vulture) choosePrey(s *sim.State) {
	v.prey = -1
	p, b := v.Seat, &v.b
	best := 0
	for q := range s.NumPlayers() {
		if q == p || !s.Alive(q) || !v.reachable(q) {
			continue
		}
		str := s.TotalArmies(q) + s.NumCards(q)/3*s.SetValue([3]uint8{})
		if v.prey < 0 || str < best {
			v.prey, best = q, str
		}
	}
	if v.prey >= 0 && b.TotalArmies(p) <= 2*best {
		v.prey = -1
	}
}

// reachable reports whether q owns a territory next to one of v's.
func (v *Vulture) reachable(q int) bool {
	b := &v.b
	for t, o := range b.Owner {
		if o != q {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == v.Seat {
				return true
			}
		}
	}
	return false
}

// Place hunts the prey or places as Cluster.
func (v *Vulture) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	v.stage = 0
	v.b.Load(s)
	v.choosePrey(s)
	if v.prey >= 0 {
		at := -1
		for t, o := range v.b.Owner {
			if o == v.Seat && v.borders(t, v.prey) && (at < 0 || v.b.Armies[t] > v.b.Armies[at]) {
				at = t
			}
		}
		if at >= 0 {
			return append(buf, sim.Placement{Territory: at, Armies: armies})
		}
	}
	return v.legacyCluster.place(s, armies, buf)
}

// borders reports whether t has a neighbour owned by q.
func (v *Vulture) borders(t, q int) bool {
	for _, u := range v.b.Map.Territories[t].Neighbors {
		if v.b.Owner[u] == q {
			return true
		}
	}
	return false
}

// Attack attacks the prey while it can, then as Cluster.
func (v *Vulture) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if v.prey >= 0 && s.Alive(v.prey) {
		v.b.Load(s)
		from, to := -1, -1
		b := &v.b
		for t, o := range b.Owner {
			if o != v.Seat || b.Armies[t] < 2 {
				continue
			}
			for _, u := range b.Map.Territories[t].Neighbors {
				if b.Owner[u] != v.prey || b.Armies[u] >= b.Armies[t] {
					continue
				}
				if from < 0 || b.Armies[t]*b.Armies[to] > b.Armies[from]*b.Armies[u] {
					from, to = t, u
				}
			}
		}
		if from >= 0 {
			v.lastCard = false
			return sim.AttackOrder{From: from, To: to, Repeat: true}, true
		}
	}
	return v.legacyCluster.Attack(s)
}

// Occupy moves everything in toward the prey, else as Cluster.
func (v *Vulture) Occupy(s *sim.State, from, to, lo, hi int) int {
	if v.prey >= 0 && s.Alive(v.prey) {
		v.b.Load(s)
		if v.borders(to, v.prey) {
			return hi
		}
		return lo
	}
	return v.legacyCluster.Occupy(s, from, to, lo, hi)
}

// Start records the seat and clears the prey.
func (v *Vulture) Start(s *sim.State, seat int, rng *rand.Rand) {
	v.legacyCluster.Start(s, seat, rng)
	v.prey = -1
}
