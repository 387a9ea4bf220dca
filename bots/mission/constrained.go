package mission

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Constrained plays the "constrained play" of Khan & Rovatsos (2013),
// section 5: it only reinforces, attacks and moves on territories directly
// consistent with its mission or on the shortest route to them.
//
// The mission's territories M are those of its continents (the named ones
// and, for a "one other continent" card, the continent outside them of which
// it owns the largest share, chosen afresh at every decision) or, for an
// "eliminate" card, the target seat's. dist(t) is the number of borders
// between territory t and the nearest territory of M that the bot does not
// own yet, over the whole map. A territory t is on the shortest route from
// a neighbour f when dist(t) = dist(f) - 1. Then:
//
//   - Attack: only from f (2 armies or more, and at least as many minus one
//     as the target) on an enemy neighbour t in M or on the shortest route
//     from f; the one with the highest ratio of armies, to the end (blitz).
//   - Place (and, with Setup = setupStack, each starting army): all armies
//     on the owned territory with
//     such an attack whose target is weakest relative to it (the highest
//     ratio counting the armies placed); if there is none, on the owned
//     territory nearest M (lowest dist).
//   - Starting armies with Setup = setupSpread (the default): each on the
//     owned territory of M (directly consistent with the mission) with the
//     fewest armies; if the bot owns none, on the owned territory nearest M
//     with the fewest armies (the lowest id on ties). The paper defines
//     constrained play as "only performing actions that are
//     directly-consistent with their root-goal"; its rule "Reinforce a
//     territory that is directly-consistent with their plan, or a territory
//     that is on the shortest route to" one is read here as preferring the
//     first whenever the player owns such a territory. Placing every
//     starting army on an attacker next to M (setupStack, as Place does),
//     which mostly lies outside M, is consistent with none of the
//     explanations that ask for M's continents.
//   - Move-in: everything if the conquered territory has an allowed target
//     of its own, the minimum otherwise.
//   - Fortify: one move of all the movable armies of an owned territory
//     without an allowed target into an owned neighbour nearer M (lower
//     dist) or in M with an allowed target; the largest such move.
//   - Cards: cashes a set whenever it holds one.
//
// A "territories" card (or an "eliminate" card whose target is out) asks
// for no particular territory; the bot then plays as Mission with w = 1.
type Constrained struct {
	sim.BasePlayer

	// Setup is how the starting armies are placed (setupStack or
	// setupSpread).
	Setup int

	open Mission // plays an open mission
	b    blocks.Board
	g    goal
	cash blocks.Cashier

	dist  []int // dist[t], see Constrained; -1 when M is all owned
	queue []int
}

// NewConstrained returns a Constrained bot that places its starting armies
// on its mission's territories (setupSpread).
func NewConstrained() *Constrained { return &Constrained{Setup: setupSpread, open: Mission{W: 1}} }

func (c *Constrained) load(s *sim.State) {
	c.b.Load(s)
	c.g.load(s, &c.b, c.Seat)
	c.open.Seat = c.Seat
	c.distances()
}

// distances fills c.dist by a breadth-first search from every territory of
// M the bot does not own.
func (c *Constrained) distances() {
	b, n := &c.b, c.b.NumTerritories()
	if cap(c.dist) < n {
		c.dist, c.queue = make([]int, n), make([]int, 0, n)
	}
	c.dist, c.queue = c.dist[:n], c.queue[:0]
	for t := range c.dist {
		c.dist[t] = -1
		if c.g.wants(b, t) && b.Owner[t] != c.Seat {
			c.dist[t] = 0
			c.queue = append(c.queue, t)
		}
	}
	for i := 0; i < len(c.queue); i++ {
		t := c.queue[i]
		for _, u := range b.Map.Territories[t].Neighbors {
			if c.dist[u] < 0 {
				c.dist[u] = c.dist[t] + 1
				c.queue = append(c.queue, u)
			}
		}
	}
}

// allowed reports whether an attack from f on enemy neighbour t keeps to the
// constraint: t is in M or on the shortest route from f.
func (c *Constrained) allowed(f, t int) bool {
	return c.g.wants(&c.b, t) || (c.dist[f] > 0 && c.dist[t] == c.dist[f]-1)
}

// bestAttack returns the allowed attack from f with the highest ratio of
// armies, with extra armies added to f, and the ratio; to is -1 if there is
// none. It needs armies(f)+extra >= 2 and armies(f)+extra-1 >= armies(to).
func (c *Constrained) bestAttack(f, extra int) (to int, ratio float64) {
	b := &c.b
	a := b.Armies[f] + extra
	to = -1
	if a < 2 {
		return -1, 0
	}
	for _, u := range b.Map.Territories[f].Neighbors {
		if b.Owner[u] == c.Seat || a-1 < b.Armies[u] || !c.allowed(f, u) {
			continue
		}
		if r := float64(a) / float64(b.Armies[u]); r > ratio {
			to, ratio = u, r
		}
	}
	return to, ratio
}

// hasTarget reports whether f has an enemy neighbour it may attack under
// the constraint, whatever the armies.
func (c *Constrained) hasTarget(f int) bool {
	for _, u := range c.b.Map.Territories[f].Neighbors {
		if c.b.Owner[u] != c.Seat && c.allowed(f, u) {
			return true
		}
	}
	return false
}

// placeAt returns the territory Place puts armies armies on.
func (c *Constrained) placeAt(armies int) int {
	b, p := &c.b, c.Seat
	best, bestRatio := -1, 0.0
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p || !c.allowed(t, u) {
				continue
			}
			if r := float64(b.Armies[t]+armies) / float64(b.Armies[u]); r > bestRatio {
				best, bestRatio = t, r
			}
		}
	}
	if best >= 0 {
		return best
	}
	for t, o := range b.Owner {
		if o == p && c.dist[t] >= 0 && (best < 0 || c.dist[t] < c.dist[best]) {
			best = t
		}
	}
	if best < 0 {
		best = b.WeakestOwned(p)
	}
	return best
}

// PlaceInitial places on the territory Place would choose for one army.
func (c *Constrained) PlaceInitial(s *sim.State) int {
	c.load(s)
	if c.g.open {
		c.open.Setup = c.Setup
		return c.open.PlaceInitial(s)
	}
	if c.Setup == setupSpread {
		return c.spreadAt()
	}
	return c.placeAt(1)
}

// spreadAt returns the owned territory of M with the fewest armies or, if
// the bot owns none, the owned territory nearest M with the fewest armies;
// the lowest id on ties.
func (c *Constrained) spreadAt() int {
	b, p := &c.b, c.Seat
	best, bestIn, bestDist := -1, false, 0
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		in, d := c.g.wants(b, t), c.dist[t]
		if d < 0 {
			d = b.NumTerritories()
		}
		var better bool
		switch {
		case best < 0 || in != bestIn:
			better = best < 0 || in
		case !in && d != bestDist:
			better = d < bestDist
		default:
			better = b.Armies[t] < b.Armies[best]
		}
		if better {
			best, bestIn, bestDist = t, in, d
		}
	}
	return best
}

// Place puts every army on the allowed attacker with the best odds.
func (c *Constrained) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.load(s)
	if c.g.open {
		return c.open.Place(s, armies, buf)
	}
	return append(buf, sim.Placement{Territory: c.placeAt(armies), Armies: armies})
}

// Attack orders the allowed attack with the highest ratio of armies.
func (c *Constrained) Attack(s *sim.State) (sim.AttackOrder, bool) {
	c.load(s)
	if c.g.open {
		return c.open.Attack(s)
	}
	from, to, best := -1, -1, 0.0
	for t, o := range c.b.Owner {
		if o != c.Seat {
			continue
		}
		if u, r := c.bestAttack(t, 0); u >= 0 && r > best {
			from, to, best = t, u, r
		}
	}
	if from < 0 {
		return sim.AttackOrder{}, false
	}
	return sim.AttackOrder{From: from, To: to, Repeat: true}, true
}

// Occupy moves everything into a territory that has an allowed target of
// its own, the minimum otherwise.
func (c *Constrained) Occupy(s *sim.State, from, to, lo, hi int) int {
	c.load(s)
	if c.g.open {
		return c.open.Occupy(s, from, to, lo, hi)
	}
	// The engine shows the board before the move-in: count to as ours.
	c.b.Owner[to] = c.Seat
	c.distances()
	if c.hasTarget(to) {
		return hi
	}
	return lo
}

// Fortify makes the largest move from a territory without an allowed target
// into a neighbour nearer the mission or with an allowed target.
func (c *Constrained) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	c.load(s)
	if c.g.open {
		return c.open.Fortify(s, buf)
	}
	b, p := &c.b, c.Seat
	var mv sim.Move
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 || c.hasTarget(t) {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p {
				continue
			}
			nearer := c.dist[u] >= 0 && (c.dist[t] < 0 || c.dist[u] < c.dist[t])
			if (nearer || c.hasTarget(u)) && b.Armies[t]-1 > mv.Armies {
				mv = sim.Move{From: t, To: u, Armies: b.Armies[t] - 1}
			}
		}
	}
	if mv.Armies == 0 {
		return buf
	}
	return append(buf, mv)
}

// Trade cashes the set [blocks.Cashier] prefers whenever there is one.
func (c *Constrained) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return c.cash.Best(s, c.Seat)
}
