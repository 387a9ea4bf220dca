package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Stinky is the Lux bot Stinky: random reinforcement and cautious attacks,
// as Stinky.java of the Lux SDK plays it.
//
//   - Placement (Stinky.placeArmies, and the starting armies, which Lux's
//     placeInitialArmies forwards to it): everything on one owned territory
//     with an enemy neighbour drawn at random, uniformly (Java draws
//     territories until one qualifies).
//   - Attack (Stinky.attackPhase): first one pass over its territories in
//     id order: each with more than 1 army attacks its weakest enemy
//     neighbour, to the end, if its armies are more than 1.5 times that
//     neighbour's (Ratio; never at 1.5 times or below). Then, if it holds
//     more than 300 armies in all (Frenzy, counted after that first pass),
//     passes without the ratio, each territory with more than 1 army
//     attacking its weakest enemy neighbour, until a pass launches no
//     attack. The first pass keeps the ratio whatever Stinky's armies. A
//     pass walks Lux's PlayerIterator, which finds the next territory
//     before the current one attacks: a territory conquered in a pass takes
//     its turn in that pass only if its id comes after the next territory
//     found then.
//   - Move-in (Stinky.moveArmiesIn): everything, unless the attacking
//     territory's weakest remaining enemy neighbour has fewer armies than
//     the captured territory's weakest enemy neighbour (then the engine's
//     minimum); a captured territory with no enemy neighbour gets the
//     minimum, an attacking territory with none left moves everything. The
//     captured territory counts as Stinky's (the engine still shows it as
//     the defender's).
//   - No fortification (Stinky.fortifyPhase is empty); never cashes cards
//     voluntarily.
//
// Ties go to the lowest territory id.
type Stinky struct {
	cashier // sim.BasePlayer, and the forced trade's set (ForcedSet)
	// Ratio is the least ratio of armies, attacker to defender, that Stinky
	// attacks above in its first pass (1.5 in Lux).
	Ratio float64
	// Frenzy is the total army count above which Stinky, after its first
	// pass, attacks regardless of the ratio, pass after pass (300 in Lux).
	Frenzy int
	b      blocks.Board
	clock  turnClock
	next   int  // the next territory of the pass (the iterator's look-ahead), -1 at its end
	first  bool // whether the current pass is the first, with the ratio
	made   bool // whether the current pass launched an attack
}

// Start prepares Stinky for a new game.
func (k *Stinky) Start(s *sim.State, seat int, rng *rand.Rand) {
	k.start(s, seat, rng)
	k.clock.reset()
}

// randomBorder returns one of p's border territories drawn uniformly with
// rng (the lowest-id one when rng is nil), or p's first territory when it
// has no border.
func randomBorder(b *blocks.Board, p int, rng *rand.Rand) int {
	n := 0
	for t := range b.Owner {
		if b.IsBorder(p, t) {
			n++
		}
	}
	if n == 0 {
		for t, o := range b.Owner {
			if o == p {
				return t
			}
		}
		return -1
	}
	i := 0
	if rng != nil {
		i = rng.IntN(n)
	}
	for t := range b.Owner {
		if b.IsBorder(p, t) {
			if i == 0 {
				return t
			}
			i--
		}
	}
	return -1
}

// PlaceInitial places on a random border territory.
func (k *Stinky) PlaceInitial(s *sim.State) int {
	k.b.Load(s)
	return randomBorder(&k.b, k.Seat, k.RNG)
}

// Place puts all armies on a random border territory.
func (k *Stinky) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	k.b.Load(s)
	return append(buf, sim.Placement{Territory: randomBorder(&k.b, k.Seat, k.RNG), Armies: armies})
}

// owned returns p's first territory after id after, or -1: the next
// element of Lux's PlayerIterator(p).
func owned(b *blocks.Board, p, after int) int {
	for t := after + 1; t < len(b.Owner); t++ {
		if b.Owner[t] == p {
			return t
		}
	}
	return -1
}

// Attack orders the next attack of the turn's passes.
func (k *Stinky) Attack(s *sim.State) (sim.AttackOrder, bool) {
	k.b.Load(s)
	b, p := &k.b, k.Seat
	if k.clock.newTurn(s) {
		k.next, k.first, k.made = owned(b, p, -1), true, false
	}
	for {
		if k.next < 0 {
			switch {
			case k.first:
				if b.TotalArmies(p) <= k.Frenzy {
					return sim.AttackOrder{}, false
				}
				k.first = false
			case !k.made:
				return sim.AttackOrder{}, false
			}
			k.next, k.made = owned(b, p, -1), false
			if k.next < 0 {
				return sim.AttackOrder{}, false
			}
			continue
		}
		t := k.next
		k.next = owned(b, p, t)
		w := b.WeakestEnemyNeighbor(p, t)
		if w >= 0 && b.Armies[t] > 1 && (!k.first || float64(b.Armies[t]) > k.Ratio*float64(b.Armies[w])) {
			k.made = true
			return blitz(t, w), true
		}
	}
}

// Occupy moves everything unless the attacking territory faces a weaker
// enemy than the captured one does.
func (k *Stinky) Occupy(s *sim.State, from, to, lo, hi int) int {
	k.b.Load(s)
	b, p := &k.b, k.Seat
	wf := weakestEnemyAfter(b, p, from, to)
	wt := weakestEnemyAfter(b, p, to, to)
	switch {
	case wf < 0:
		return hi
	case wt < 0 || b.Armies[wf] < b.Armies[wt]:
		return lo
	}
	return hi
}
