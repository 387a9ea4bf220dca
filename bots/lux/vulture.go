package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// vultureHogWild is the attack of Vulture's hunting turns after its
// routes: its own attackHogWild (Vulture.java attackPhase), no Cluster
// attack and no stalemate breaker.
var vultureHogWild = []blocks.Step{{Proc: blocks.StepHogWild}}

// vulture is Lux's Vulture (sillysoft/LuxSDK, agent/Vulture.java), which
// stands in for the unpublished Nefarious in every table (the paper's
// twelve Lux bots do not include Vulture, whose source joined the SDK in
// Lux 5.2). It extends SmartAgentBase and hands most decisions to a
// private Cluster, its backer (Java's field backer): the initial
// placement, every move-in, the fortification, and the placement and
// attack of the turns it does not hunt.
//
//   - Cards (cardsPhase): it cashes one set voluntarily
//     (cashCardsIfPossible, Card.getBestSet), then lets the backer's
//     cardsPhase run (nothing to cash: Cluster cashes only when forced).
//   - Placement (placeArmies): it looks for a player to kill
//     (setToKillPlayer, see vultureHunt.prey) and, if there is one, plans
//     the hunt (placeToKill, see vultureHunt.plan): everything goes on the
//     first territory of the attack route, which is stored. Without a prey
//     or an affordable route the backer places.
//   - Attack (attackPhase): after a hunting placement, it follows the
//     stored routes (attackAlongRoute, see vultureHunt.next), each
//     conquest moving everything in, and then only hogs wild
//     (attackHogWild: no Cluster attack, no stalemate breaker); otherwise
//     the backer's attack phase runs.
//   - Move-in: the backer's moveArmiesIn, with the backer's memory: the
//     route sets it to everything before each step (Vulture.java
//     attackAlongRoute writes the backer's moveInMemory). Vulture's own
//     hog wild sets Vulture's memory, which nobody reads: the backer
//     answers its conquests by Cluster's default, the obvious test and
//     then the minimum (the move-in memory quirk of Vulture.java, whose
//     blocks and move-in live in two objects).
type vulture struct {
	blocks.Lux // Vulture's own SmartAgentBase: cashing and the hog wild of hunting turns

	backer *cluster // the private Cluster (Java's backer)
	hunt   vultureHunt

	placedToKill bool // the last placement was a hunt's (Java's placedToKill)
	hunting      bool // this turn's attack phase follows the routes
	round        int  // the round whose attack phase began, -1 before any
	routesDone   bool // the routes of this attack phase are over: hog wild
}

func newVulture() *vulture { return &vulture{backer: newLuxCluster(), round: -1} }

// vultureFactory returns the registry entry of Vulture.
func vultureFactory() bots.Factory {
	return bots.Factory{Name: "vulture",
		Doc: "Lux Vulture (Vulture.java), standing in for Nefarious: kills a weak player along a route through its territories, else Cluster",
		New: func(bots.Values) (sim.Player, error) { return newVulture(), nil }}
}

// Start starts a new game at seat: the backer and Vulture's own blocks
// start, and no route is stored.
func (v *vulture) Start(s *sim.State, seat int, rng *rand.Rand) {
	v.Lux.Start(seat, rng)
	v.backer.Start(s, seat, rng)
	v.hunt.reset()
	v.placedToKill, v.hunting, v.round, v.routesDone = false, false, -1, false
}

// GameStats appends the backer's move-in counts (see Cluster.GameStats):
// every move-in of Vulture is the backer's.
func (v *vulture) GameStats(buf []bots.Stat) []bots.Stat { return v.backer.GameStats(buf) }

// PlaceInitial places a starting army as the backer does
// (placeInitialArmies is the backer's).
func (v *vulture) PlaceInitial(s *sim.State) int { return v.backer.PlaceInitial(s) }

// Trade cashes one set a turn voluntarily and the best set when forced
// (blocks.Lux.CashOne).
func (v *vulture) Trade(s *sim.State, forced bool) ([3]int, bool) {
	v.Load(s)
	return v.CashOne(s, forced)
}

// Place plans a hunt or lets the backer place (see Vulture).
func (v *vulture) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	v.placedToKill = false
	if q := v.hunt.prey(s, v.Seat, armies); q >= 0 {
		if at, ok := v.hunt.plan(s, v.Seat, q, armies); ok {
			v.placedToKill = true
			return append(buf, sim.Placement{Territory: at, Armies: armies})
		}
	}
	return v.backer.Place(s, armies, buf)
}

// Attack follows the stored routes and hogs wild after a hunting
// placement, and runs the backer's attack phase otherwise (see Vulture).
// Whether the turn hunts is decided at its first attack order, as Java's
// attackPhase tests placedToKill when it begins.
func (v *vulture) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if r := s.Round(); r != v.round {
		v.round, v.hunting, v.routesDone = r, v.placedToKill, false
	}
	if !v.hunting {
		return v.backer.Attack(s)
	}
	if !v.routesDone {
		if from, to, ok := v.hunt.next(s); ok {
			v.backer.Memory = blocks.MoveAll
			return sim.AttackOrder{From: from, To: to, Repeat: true}, true
		}
		v.routesDone = true
	}
	v.backer.Memory = blocks.MoveUnset
	return v.NextAttack(s, vultureHogWild)
}

// Occupy is the backer's move-in (see Vulture).
func (v *vulture) Occupy(s *sim.State, from, to, lo, hi int) int {
	return v.backer.Occupy(s, from, to, lo, hi)
}

// Fortify is the backer's fortification.
func (v *vulture) Fortify(s *sim.State, buf []sim.Move) []sim.Move { return v.backer.Fortify(s, buf) }
