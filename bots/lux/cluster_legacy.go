package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// step is one block of a bot's attack plan.
type step uint8

const (
	stepEasyExpand  step = iota // blocks.EasyExpand
	stepFillOut                 // blocks.FillOut
	stepConsolidate             // blocks.TriplePack's consolidate part, via TriplePack when the others fail
	stepSplitUp                 // split up(1.2) on the weakest enemy neighbour
	stepCard                    // blocks.AttackForCard(1), only with nothing conquered this turn
	stepHogWild                 // blocks.HogWild when blocks.Dominates
	stepStalemate               // blocks.HogWild when blocks.Stalemate
)

// planStep is a step of a plan; Once steps give at most one attack per turn.
type planStep struct {
	step step
	once bool
}

// variant configures legacyCluster: Vulture's fallback.
type variant struct {
	cash     bool       // trades voluntarily (blocks.Cashier)
	cardHalf bool       // a card attack moves half in (else the minimum)
	plan     []planStep // the attack plan, in order
}

// legacyCluster is the reading of Vulture's fallback from the shared
// notes' descriptions, not from the Java source: the Lux-source Cluster
// family is Cluster (cluster.go), on blocks.Lux. Every turn it chooses a
// goal continent: the most valuable positive-bonus continent it owns, if
// any (it then places on the border of the cluster around it,
// blocks.PlaceOnClusterBorder); otherwise the continent with the best
// ratio of its armies to enemy armies (plus one) inside it, which it
// places to take (blocks.PlaceToTakeContinent).
//
// Attacks follow the plan's blocks in order, each re-evaluated after every
// attack ("repeatedly") unless marked once; each is an order to attack
// until one side is gone with the most dice. The blocks scan all of the
// bot's territories rather than the root's cluster alone. After a conquest
// it moves everything in when the captured territory's weakest enemy
// neighbour (preferring those inside the goal continent, and counting the
// captured territory itself, which the engine still shows as the
// defender's) is no stronger than the attacker's, else the minimum. It
// fortifies its goal cluster toward its border (blocks.FortifyCluster; one
// move, the largest, where the rules allow one), and trades only when
// forced.
type legacyCluster struct {
	sim.BasePlayer
	v variant

	b      blocks.Board
	r      blocks.Search
	cash   blocks.Cashier
	route  []int
	border []int

	goal     int  // goal continent of the turn, -1 for none
	root     int  // root territory of the goal cluster
	stage    int  // index of the plan step being run
	lastCard bool // the last attack order was a card attack
}

func newLegacyCluster(v variant) *legacyCluster { return &legacyCluster{v: v, goal: -1} }

// Start records the seat and clears the last game's goal, root and plan step.
func (c *legacyCluster) Start(s *sim.State, seat int, rng *rand.Rand) {
	c.BasePlayer.Start(s, seat, rng)
	c.goal, c.root, c.stage, c.lastCard = -1, -1, 0, false
}

// chooseGoal sets the goal continent and the root of its cluster.
func (c *legacyCluster) chooseGoal() {
	b, p := &c.b, c.Seat
	c.goal, c.root = -1, -1
	for k, cont := range b.Map.Continents {
		if cont.Bonus > 0 && b.OwnsContinent(p, k) && (c.goal < 0 || cont.Bonus > b.Map.Continents[c.goal].Bonus) {
			c.goal = k
		}
	}
	if c.goal >= 0 {
		c.root = b.Map.Continents[c.goal].Territories[0]
		return
	}
	bestNum, bestDen := -1, 1
	for k, cont := range b.Map.Continents {
		if cont.Bonus <= 0 {
			continue
		}
		own, enemy := 0, 0
		for _, t := range cont.Territories {
			if b.Owner[t] == p {
				own += b.Armies[t]
			} else {
				enemy += b.Armies[t]
			}
		}
		// own/(enemy+1) > bestNum/bestDen, without division.
		num, den := own, enemy+1
		if c.goal < 0 || num*bestDen > bestNum*den {
			c.goal, bestNum, bestDen = k, num, den
		}
	}
	c.root = -1
	if c.goal >= 0 {
		for _, t := range b.Map.Continents[c.goal].Territories {
			if b.Owner[t] == p && (c.root < 0 || b.Armies[t] > b.Armies[c.root]) {
				c.root = t
			}
		}
	}
	if c.root < 0 {
		c.root, _ = b.StrongestOwned(p)
	}
}

// place appends the placement of armies (> 0) to buf.
func (c *legacyCluster) place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.b.Load(s)
	c.chooseGoal()
	p := c.Seat
	if c.goal >= 0 && c.b.OwnsContinent(p, c.goal) {
		buf, c.border = blocks.PlaceOnClusterBorder(buf, c.border, &c.r, &c.b, p, c.root, armies)
		return buf
	}
	if c.goal >= 0 {
		var ok bool
		if buf, c.route, ok = blocks.PlaceToTakeContinent(buf, c.route, &c.r, &c.b, p, c.goal, armies); ok {
			return buf
		}
	}
	return append(buf, sim.Placement{Territory: c.root, Armies: armies})
}

// PlaceInitial places a starting army where Place would put one army.
func (c *legacyCluster) PlaceInitial(s *sim.State) int {
	var one [1]sim.Placement
	return c.place(s, 1, one[:0])[0].Territory
}

// Place starts a new turn's attack plan and places the armies.
func (c *legacyCluster) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.stage = 0
	return c.place(s, armies, buf)
}

// Trade trades the blocks.Cashier set when forced, or whenever it can for
// the variants that cash voluntarily.
func (c *legacyCluster) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if !forced && !c.v.cash {
		return [3]int{}, false
	}
	return c.cash.Best(s, c.Seat)
}

// try returns the attack of plan step st, if it applies.
func (c *legacyCluster) try(s *sim.State, st step) (from, to int, ok bool) {
	b, p := &c.b, c.Seat
	switch st {
	case stepEasyExpand:
		return blocks.EasyExpand(b, p)
	case stepFillOut:
		return blocks.FillOut(b, p)
	case stepConsolidate:
		return blocks.TriplePack(b, p)
	case stepSplitUp:
		if from, ok = blocks.SplitUp(b, p, 1.2); ok {
			return from, b.WeakestEnemyNeighbor(p, from), true
		}
	case stepCard:
		if !s.ConqueredThisTurn() {
			return blocks.AttackForCard(b, p, 1)
		}
	case stepHogWild:
		if blocks.Dominates(b, p) {
			return blocks.HogWild(b, p)
		}
	case stepStalemate:
		if blocks.Stalemate(b, p) {
			return blocks.HogWild(b, p)
		}
	}
	return -1, -1, false
}

// Attack runs the plan from the current step: the first step with an
// attack gives the order (a once step then yields to the next).
func (c *legacyCluster) Attack(s *sim.State) (sim.AttackOrder, bool) {
	c.b.Load(s)
	for ; c.stage < len(c.v.plan); c.stage++ {
		st := c.v.plan[c.stage]
		if from, to, ok := c.try(s, st.step); ok {
			c.lastCard = st.step == stepCard
			if st.once {
				c.stage++
			}
			return sim.AttackOrder{From: from, To: to, Repeat: true}, true
		}
	}
	return sim.AttackOrder{}, false
}

// weakestAround returns the armies of t's weakest enemy neighbour, those in
// the goal continent first, or -1 if t has none.
func (c *legacyCluster) weakestAround(s *sim.State, t int) int {
	best, inGoal := -1, false
	m := s.Map()
	for _, u := range m.Neighbors(t) {
		if s.Owner(u) == c.Seat {
			continue
		}
		g := m.Territories[u].Continent == c.goal
		if best < 0 || g && !inGoal || g == inGoal && s.Armies(u) < best {
			best, inGoal = s.Armies(u), g
		}
	}
	return best
}

// Occupy moves all or nothing (see legacyCluster), and half for a card
// attack of the variants that do so.
func (c *legacyCluster) Occupy(s *sim.State, from, to, lo, hi int) int {
	if c.lastCard {
		if c.v.cardHalf {
			return max(lo, min(hi, (s.Armies(from)+1)/2))
		}
		return lo
	}
	wf, wt := c.weakestAround(s, from), c.weakestAround(s, to)
	if wt < 0 || wf >= 0 && wt > wf {
		return lo
	}
	return hi
}

// Fortify pushes the goal cluster's interior armies toward its border.
func (c *legacyCluster) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	c.b.Load(s)
	if c.root < 0 || c.root >= c.b.NumTerritories() || c.b.Owner[c.root] != c.Seat {
		c.chooseGoal()
	}
	if c.root < 0 {
		return buf
	}
	start := len(buf)
	buf = blocks.FortifyCluster(buf, &c.r, &c.b, c.Seat, c.root)
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}
