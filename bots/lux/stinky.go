package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Stinky is the Lux bot Stinky: random reinforcement and cautious attacks.
//
//   - Placement (and each starting army): everything on one owned border
//     territory (one with an enemy neighbour) drawn at random, uniformly.
//   - Attack: one sweep over its territories in id order per turn: each
//     owned territory attacks its weakest enemy neighbour, to the end, if
//     its armies are more than 1.5 times that neighbour's (Ratio; never at
//     1.5 times or below). Once Stinky holds more than 300 armies in all
//     (Frenzy), every territory with at least 2 armies attacks its weakest
//     enemy neighbour regardless of the ratio, and the sweep repeats until a
//     whole sweep orders no attack. A territory conquered during a sweep
//     takes its turn when the sweep reaches its id.
//   - Move-in: everything, unless the attacking territory's weakest
//     remaining enemy neighbour has fewer armies than the captured
//     territory's weakest enemy neighbour (then the engine's minimum); a
//     captured territory with no enemy neighbour gets the minimum, an
//     attacking territory with none left moves everything.
//   - No fortification; never cashes cards voluntarily.
//
// Ties go to the lowest territory id.
type Stinky struct {
	sim.BasePlayer
	// Ratio is the least ratio of armies, attacker to defender, that Stinky
	// attacks above (1.5 in Lux).
	Ratio float64
	// Frenzy is the total army count above which Stinky attacks regardless
	// of the ratio, repeatedly (300 in Lux).
	Frenzy int

	b      blocks.Board
	clock  turnClock
	next   int  // the territory id the sweep resumes at
	struck bool // whether the current sweep has ordered an attack
}

// Start prepares Stinky for a new game.
func (k *Stinky) Start(s *sim.State, seat int, rng *rand.Rand) {
	k.BasePlayer.Start(s, seat, rng)
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

// Attack orders the next attack of the turn's sweep.
func (k *Stinky) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if k.clock.newTurn(s) {
		k.next, k.struck = 0, false
	}
	k.b.Load(s)
	b, p := &k.b, k.Seat
	frenzy := b.TotalArmies(p) > k.Frenzy
	for {
		for t := k.next; t < len(b.Owner); t++ {
			if b.Owner[t] != p || b.Armies[t] < 2 {
				continue
			}
			w := b.WeakestEnemyNeighbor(p, t)
			if w < 0 {
				continue
			}
			if frenzy || float64(b.Armies[t]) > k.Ratio*float64(b.Armies[w]) {
				k.next, k.struck = t+1, true
				return blitz(t, w), true
			}
		}
		if !frenzy || !k.struck {
			k.next = len(b.Owner)
			return sim.AttackOrder{}, false
		}
		k.next, k.struck = 0, false
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
