package lux

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// clusterPlan is Cluster.attackPhase: the root, then attackFromCluster
// (easy expand repeatedly, fill out once, easy expand repeatedly,
// consolidate repeatedly, split up(1.2) repeatedly), hog wild, stalemate.
var clusterPlan = []blocks.Step{
	{Proc: blocks.StepRoot},
	{Proc: blocks.StepEasyExpand, Repeat: true},
	{Proc: blocks.StepFillOut},
	{Proc: blocks.StepEasyExpand, Repeat: true},
	{Proc: blocks.StepConsolidate, Repeat: true},
	{Proc: blocks.StepSplitUp, Ratio: 1.2, Repeat: true},
	{Proc: blocks.StepHogWild},
	{Proc: blocks.StepStalemate},
}

// yakoolPlan is Yakool.attackPhase: attackToKillPlayer when placement
// found a dominant player; the root; Yakool.attackFromCluster (the triple
// pack repeatedly, then split up(1.2) repeatedly only when yakoolSplits);
// attackForCard(1) with no move-in memory (setmoveInMemoryBeforeCardAttack
// is empty: the default minimum); hog wild; stalemate.
var yakoolPlan = []blocks.Step{
	{Proc: blocks.StepKill},
	{Proc: blocks.StepRoot},
	{Proc: blocks.StepTriple, Repeat: true},
	{Proc: blocks.StepSplitUp, Ratio: 1.2, Repeat: true, If: yakoolSplits},
	{Proc: blocks.StepCard, K: 1},
	{Proc: blocks.StepHogWild},
	{Proc: blocks.StepStalemate},
}

// seatIncome is Board.getPlayerIncome(q) for the bot of x:
// sim.State.Income of a live seat; a dead seat's 0, or with x.DeadIncome
// its income formula's value (the rules' minimum).
func seatIncome(x *blocks.Lux, s *sim.State, q int) int {
	if !x.DeadIncome && !s.Alive(q) {
		return 0
	}
	return s.Income(q)
}

// yakoolSplits is Yakool.attackFromCluster's condition for split up, on
// the board after the triple packs: the bot owns no positive continent,
// or its income is below the average enemy income (the enemies' incomes,
// seatIncome, summed and divided by the number of seats, dead
// ones included, in integers), or above every enemy's income, or its
// armies exceed all enemies' together.
func yakoolSplits(x *blocks.Lux) bool {
	s := x.State()
	sum, top, enemyArmies := 0, 0, 0
	for q := range s.NumPlayers() {
		if q == x.Seat {
			continue
		}
		enemyArmies += s.TotalArmies(q)
		in := seatIncome(x, s, q)
		sum += in
		top = max(top, in)
	}
	in := s.Income(x.Seat)
	return !x.OwnsAnyPositiveCont() || in < sum/s.NumPlayers() || in > top || s.TotalArmies(x.Seat) > enemyArmies
}

// newYakool returns Lux's Yakool (agent/Yakool.java, on Cluster): Cluster
// with these differences, quirks included:
//   - Placement (Yakool.placeArmies): placeArmiesToKillDominantPlayer
//     (SmartAgentBase) first. An opponent holding at least half of all
//     armies, of all income or of all territories is the dominant player,
//     the highest seat when several are; it is recorded (mustKillPlayer,
//     cleared each turn in cardsPhase) with the continents it owns, even
//     when it owns none. All armies then go on the start of the cheapest
//     route into the continent of its whose route costs least
//     (cheapestRouteFromOwnerToCont, whose queue takes the latest pushed of
//     equal costs and enters the bot's territories at minus their armies;
//     pathCost counts the enemy armies of the whole route, entry
//     included); with no continent, Cluster's placement.
//   - Attack (Yakool.attackPhase): attackToKillPlayer first, on the
//     continents recorded at placement with a positive bonus, largest
//     first: every own territory with 2 armies or more, in id order (an
//     ArmiesIterator: lazily, one look-ahead), takes its easiest path into
//     the continent through enemy territories (easyCostFromCountryToContinent)
//     and, when the path's enemy armies are fewer than its own, attacks
//     along the whole path (attackAlongPath), moving everything in and
//     stopping at a repulse or at a territory left with 1 army; the first
//     path taken whole ends the continent. Then the root (chosen after
//     these attacks), the triple pack repeatedly (Yakool.attackFromCluster),
//     split up(1.2) repeatedly only when yakoolSplits, attackForCard(1)
//     (the best ratio of all pairs, with nothing conquered this turn)
//     with the memory unset, so the default minimum moves in
//     (Yakool.setmoveInMemoryBeforeCardAttack is empty), hog wild and
//     stalemate.
//   - Cards: only when forced.
func newYakool() *cluster { return &cluster{Plan: yakoolPlan, KillDominant: true} }

// boscoePlan is Yakool.attackPhase with Boscoe.attackFromCluster (the
// triple pack repeatedly, no split up) and Boscoe's card move-in, the
// minimum (Boscoe.setmoveInMemoryBeforeCardAttack).
var boscoePlan = []blocks.Step{
	{Proc: blocks.StepKill},
	{Proc: blocks.StepRoot},
	{Proc: blocks.StepTriple, Repeat: true},
	{Proc: blocks.StepCard, K: 1, CardMove: func(*blocks.Lux, int) int { return blocks.MoveMin }},
	{Proc: blocks.StepHogWild},
	{Proc: blocks.StepStalemate},
}

// newBoscoe returns Lux's Boscoe (agent/Boscoe.java, on Yakool): Yakool
// (see newYakool) whose attack from the cluster is only the triple pack,
// repeatedly (Boscoe.attackFromCluster); its card attack moves the
// minimum in (Boscoe.setmoveInMemoryBeforeCardAttack sets the memory to
// 0, so the engine's minimum applies, unless the obvious test moves
// everything); it cashes one set a turn when it holds one
// (Boscoe.cardsPhase, cashCardsIfPossible: Card.getBestSet's set, the
// fewest wild cards, then the most cards of its own territories).
func newBoscoe() *cluster { return &cluster{Plan: boscoePlan, KillDominant: true, Cash: true} }

// bortPlan is Yakool.attackPhase with Bort.attackFromCluster (one easy
// expand pass, one fill-out pass only if it launched nothing, consolidate
// repeatedly) and Bort's card move-in, half of the attacker's armies
// before the attack (Bort.setmoveInMemoryBeforeCardAttack).
var bortPlan = []blocks.Step{
	{Proc: blocks.StepKill},
	{Proc: blocks.StepRoot},
	{Proc: blocks.StepEasyExpand},
	{Proc: blocks.StepFillOut, Unless: true},
	{Proc: blocks.StepConsolidate, Repeat: true},
	{Proc: blocks.StepCard, K: 1, CardMove: func(x *blocks.Lux, from int) int { return x.B.Armies[from] / 2 }},
	{Proc: blocks.StepHogWild},
	{Proc: blocks.StepStalemate},
}

// newBort returns Lux's Bort (agent/Bort.java, on Boscoe): Boscoe (see
// newBoscoe) whose attack from the cluster is one easy-expand pass (each
// border territory of the snapshot once: a territory it conquers waits for
// the next turn), one fill-out pass only when that pass launched nothing
// (a repelled attack counts as launched), then consolidate repeatedly
// (Bort.attackFromCluster); its card attack moves in half of the
// attacker's armies before the attack, rounded down and clamped to the
// move-in's bounds (Bort.setmoveInMemoryBeforeCardAttack). Kill dominant,
// one set cashed a turn, card(1), hog wild and stalemate are Boscoe's.
func newBort() *cluster { return &cluster{Plan: bortPlan, KillDominant: true, Cash: true} }

// newLuxCluster returns Lux's Cluster (see Cluster).
func newLuxCluster() *cluster { return &cluster{Plan: clusterPlan} }

// clusterFactory returns the registry entry of a bot of the Cluster
// family made by mk.
func clusterFactory(name, doc string, mk func() *cluster) bots.Factory {
	return bots.Factory{Name: name, Doc: doc,
		New: func(bots.Values) (sim.Player, error) { return mk(), nil }}
}

// deadIncomeParam is the dead_income parameter of the bots with the
// dominant-player test (blocks.Lux.DeadIncome). Board.getPlayerIncome is a
// stub in the SDK; the default, zero, is what the agents written against
// the Lux client read from it: Oponn (MatthewDaggitt/Oponn, Oponn.java)
// takes a seat whose income is 0 for eliminated, and the SDK's Defender
// averages the enemies' incomes over the seats left.
var deadIncomeParam = bots.Param{Name: "dead_income", Default: 0, Max: 1, Integer: true, Choices: []string{"zero", "formula"},
	Doc: "a dead seat's income in the dominant-player test and Yakool's average (Board.getPlayerIncome, silent in the SDK): zero, or the income formula's for no territories (the rules' minimum)"}

// killerFactory returns the registry entry of a bot of the Yakool line
// made by mk, with the dead_income parameter.
func killerFactory(name, doc string, mk func() *cluster) bots.Factory {
	return bots.Factory{Name: name, Doc: doc, Params: []bots.Param{deadIncomeParam},
		New: func(v bots.Values) (sim.Player, error) {
			c := mk()
			c.DeadIncome = v["dead_income"] == 1
			return c, nil
		}}
}

// factoriesA returns the entries of the Cluster family.
func factoriesA() []bots.Factory {
	return []bots.Factory{
		clusterFactory("cluster", "Lux Cluster (Cluster.java): grows the cluster around its best continent or biggest army", newLuxCluster),
		{Name: "shaft", Doc: "Lux Shaft (Shaft.java): Cluster with one easy expand, consolidation and a reckless sweep of its borders",
			New: func(bots.Values) (sim.Player, error) { return newShaft(false), nil }},
		{Name: "quo", Doc: "Lux Quo (Quo.java): Shaft that cashes a set a turn and attacks for a card",
			New: func(bots.Values) (sim.Player, error) { return newShaft(true), nil }},
		killerFactory("yakool", "Lux Yakool (Yakool.java): Cluster that hunts a dominant player first", newYakool),
		killerFactory("boscoe", "Lux Boscoe (Boscoe.java): Yakool with the triple pack only, cashes a set a turn", newBoscoe),
		killerFactory("bort", "Lux Bort (Bort.java): Boscoe with one easy-expand pass and consolidation", newBort),
		vultureFactory(),
	}
}
