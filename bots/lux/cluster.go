package lux

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// cluster is Lux's Cluster (sillysoft/LuxSDK, agent/Cluster.java, on
// SmartAgentBase.java) and, with another Plan and switches, the bots that
// extend it (Yakool, Boscoe, Bort; see the factories). It is built on
// blocks.Lux, whose doc comment describes every block and its quirks;
// the fields below hold what differs between the family's bots.
//
// cluster, as Cluster.java behaves:
//   - Placement (placeArmies; starting armies too, placeInitialArmies):
//     if it owns a continent with a positive bonus, on the border of the
//     cluster of the first territory of the most valuable one
//     (placeArmiesOnClusterBorder: max(1, left/100) armies at a time on
//     the weakest border territory, in the border's breadth-first order on
//     ties); otherwise placeArmiesToTakeCont(getEasiestContToTake()): the
//     positive continent with the best own/enemy army ratio in float32
//     (own/0 is +Inf, so a continent whose enemies hold nothing wins).
//   - Attack (attackPhase): the root is the first territory of the most
//     valuable owned positive continent, else the biggest army (the
//     lowest id on ties), chosen once when the phase starts; from it,
//     easy expand repeatedly, fill out once (one pass), easy expand
//     repeatedly, consolidate repeatedly, split up(1.2) repeatedly; then
//     hog wild and stalemate. Each pass walks a snapshot of the root
//     cluster's border taken when the pass starts, so a territory
//     conquered during a pass acts only in a later pass; "repeatedly"
//     stops at a pass that launches nothing, and a repelled attack counts
//     as launched (except in fill out, whose result is a conquest).
//   - Move-in (moveArmiesIn): the obvious test (everything if the attacker
//     has one neighbour, the minimum if the conquered territory has one),
//     then the memory of the block that ordered the attack (easy expand,
//     consolidate, the kill path: everything; fill out: the minimum; split
//     up: the border's armies divided by its enemy count, both taken
//     before its first attack, clamped to the bounds). Without either it
//     compares the weakest enemy neighbours inside goalCont; goalCont is
//     set only when territories are picked, never with dealt ones, so it
//     is -1, the conquered territory has no such neighbour, and the answer
//     is the minimum (Cluster.moveArmiesIn). The move-in reads only the map
//     and the attacker, so it is the same whether the engine still shows
//     the conquered territory as the defender's (as marslab's does) or
//     not.
//   - Fortification (fortifyPhase): fortifyCluster from the same root
//     rule, chosen at the fortification: every interior territory of the
//     cluster sends all its movable armies to the territory that reached
//     it in a breadth-first search inward from the border, one step (one
//     move, the largest, where the rules allow only one).
//   - Cards: only when forced (the engine's cashing, Card.getBestSet's
//     order).
//
// The initial territory pick (pickCountry, pickGoalContChoosing) is not
// modelled: territories are dealt.
type cluster struct {
	blocks.Lux // its Seat is the bot's seat

	// Plan is the attack phase (see blocks.Step).
	Plan []blocks.Step
	// KillDominant places against a dominant player first
	// (placeArmiesToKillDominantPlayer, Yakool.placeArmies); the plan's
	// StepKill attacks it.
	KillDominant bool
	// Cash cashes one set a turn voluntarily (cashCardsIfPossible in
	// cardsPhase: Boscoe, Bort).
	Cash bool

	buf []sim.Placement // PlaceInitial's placement

	// occupy counts this game's move-ins by cause and by amount, in the
	// order of occupyStats.
	occupy [len(occupyStats)]int64
}

// occupyStats names the move-in counts a Cluster reports
// (bots.StatReporter): by what decided the move-in (the memory of the
// block that ordered the attack: everything for easy expand, consolidate
// and the kill path; the minimum for fill out and Boscoe's card attack; a
// number for split up and Bort's card attack; or the obvious test; or
// neither, the default minimum), then by the amount moved (everything,
// the minimum, anything else; a move-in whose bounds meet counts as
// everything).
var occupyStats = [...]string{"occupy_memory_all", "occupy_memory_min", "occupy_memory_number",
	"occupy_obvious", "occupy_default", "occupy_moved_all", "occupy_moved_min", "occupy_moved_other"}

// GameStats appends the move-in counts of the game (see occupyStats).
func (c *cluster) GameStats(buf []bots.Stat) []bots.Stat {
	for i, name := range occupyStats {
		buf = append(buf, bots.Stat{Name: name, Count: c.occupy[i]})
	}
	return buf
}

// Start starts a new game at seat.
func (c *cluster) Start(s *sim.State, seat int, rng *rand.Rand) {
	c.Lux.Start(seat, rng)
	c.occupy = [len(occupyStats)]int64{}
}

// place appends the placement of n armies (Cluster.placeArmies, with
// Yakool's kill-dominant placement first when KillDominant); the board
// is loaded.
func (c *cluster) place(s *sim.State, n int, buf []sim.Placement) []sim.Placement {
	if c.KillDominant {
		if out, ok := c.PlaceToKillDominant(s, buf, n); ok {
			return out
		}
	}
	if c.OwnsAnyPositiveCont() {
		return c.PlaceOnClusterBorder(buf, c.FirstIn(c.MostValuableOwnedCont()), n)
	}
	return c.PlaceToTakeCont(buf, n, c.EasiestCont())
}

// PlaceInitial places a starting army where Place would put one army
// (placeInitialArmies calls placeArmies); a dominant player found there
// is not kept for the turns.
func (c *cluster) PlaceInitial(s *sim.State) int {
	c.Load(s)
	keep := c.MustKill
	c.buf = c.place(s, 1, c.buf[:0])
	c.MustKill = keep
	return c.buf[0].Territory
}

// Place starts the turn (cardsPhase resets the dominant player) and
// places the armies.
func (c *cluster) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.NewTurn(s)
	c.Load(s)
	return c.place(s, armies, buf)
}

// Trade cashes one set a turn when Cash, and the best set when forced.
func (c *cluster) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if c.Cash {
		return c.CashOne(s, forced)
	}
	if !forced {
		return [3]int{}, false
	}
	return c.BestSet(s)
}

// Attack gives the plan's next order (blocks.Lux.NextAttack).
func (c *cluster) Attack(s *sim.State) (sim.AttackOrder, bool) {
	return c.NextAttack(s, c.Plan)
}

// Occupy answers with the obvious and memory tests, else the minimum
// (see Cluster).
func (c *cluster) Occupy(s *sim.State, from, to, lo, hi int) int {
	m := s.Map()
	cause := 4 // the default
	switch {
	case len(m.Territories[from].Neighbors) == 1 || len(m.Territories[to].Neighbors) == 1:
		cause = 3
	case c.Memory == blocks.MoveAll:
		cause = 0
	case c.Memory == blocks.MoveMin:
		cause = 1
	case c.Memory != blocks.MoveUnset:
		cause = 2
	}
	k, ok := c.MoveIn(s, from, to, lo, hi)
	if !ok {
		k = lo
	}
	c.occupy[cause]++
	switch k {
	case hi:
		c.occupy[5]++
	case lo:
		c.occupy[6]++
	default:
		c.occupy[7]++
	}
	return k
}

// Fortify fortifies the root's cluster toward its border (see Cluster).
func (c *cluster) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	c.Load(s)
	start := len(buf)
	buf = c.FortifyCluster(buf, c.ClusterRoot())
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}
