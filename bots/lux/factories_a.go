package lux

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Attack plans of the Cluster family (see Cluster).
var (
	// clusterPlan: easy expand repeatedly, fill out, easy expand
	// repeatedly, consolidate repeatedly, split up(1.2) repeatedly, hog wild,
	// stalemate breaker.
	clusterPlan = []planStep{{stepEasyExpand, false}, {stepFillOut, true}, {stepEasyExpand, false},
		{stepConsolidate, false}, {stepSplitUp, false}, {stepHogWild, false}, {stepStalemate, false}}
	// shaftAttack: Shaft's attack from its cluster: easy expand once, fill
	// out once (reached at once when the easy expand finds nothing),
	// consolidate repeatedly, then the sweep (see Cluster.planSweep: a lone
	// stack breaks out when it can take every enemy it faces and the chains
	// beyond close to one point), planned only while nothing is conquered
	// this turn. Few attacks a turn keep its armies home: the reading that
	// matches the paper's Shaft, the most frequent runner-up.
	shaftAttack = []planStep{{stepEasyExpand, true}, {stepFillOut, true}, {stepConsolidate, false}, {stepSweep, false}}
	// shaftPlan: shaftAttack, then hog wild and the stalemate breaker, which
	// Shaft, a Cluster variant, keeps from Cluster (the description replaces
	// only Cluster's attack from its cluster). Without them our Shaft never
	// won a game of the paper tournament; the paper's won 14.8 %.
	shaftPlan = append(append([]planStep(nil), shaftAttack...),
		planStep{stepHogWild, false}, planStep{stepStalemate, false})
	// quoPlan: shaftAttack, attack for card(1), hog wild, stalemate breaker.
	quoPlan = append(append([]planStep(nil), shaftAttack...),
		planStep{stepCard, true}, planStep{stepHogWild, false}, planStep{stepStalemate, false})
	// yakoolPlan: kill dominant player, the triple pack repeatedly, the
	// conditional split up(1.2), attack for card, hog wild, stalemate.
	yakoolPlan = []planStep{{stepKill, false}, {stepTriple, false}, {stepSplitUpIf, false},
		{stepCard, true}, {stepHogWild, false}, {stepStalemate, false}}
	// boscoePlan: Yakool's without split up.
	boscoePlan = []planStep{{stepKill, false}, {stepTriple, false},
		{stepCard, true}, {stepHogWild, false}, {stepStalemate, false}}
	// bortPlan: Boscoe's with easy expand once, fill out once, consolidate
	// in place of the triple pack.
	bortPlan = []planStep{{stepKill, false}, {stepEasyExpand, true}, {stepFillOut, true}, {stepConsolidate, false},
		{stepCard, true}, {stepHogWild, false}, {stepStalemate, false}}
)

// clusterFactory returns the registry entry of a Cluster-family bot.
func clusterFactory(name, doc string, v variant) bots.Factory {
	return bots.Factory{Name: name, Doc: doc,
		New: func(bots.Values) (sim.Player, error) { return newCluster(v), nil }}
}

// factoriesA returns the entries of the Cluster family.
func factoriesA() []bots.Factory {
	return []bots.Factory{
		clusterFactory("cluster", "Lux Cluster: grows a cluster around its best continent, all-or-nothing move-in",
			variant{plan: clusterPlan}),
		clusterFactory("shaft", "Lux Shaft: Cluster aiming at the smallest continent, few attacks a turn",
			variant{smallestGoal: true, plan: shaftPlan}),
		clusterFactory("quo", "Lux Quo: Shaft that cashes cards, attacks for a card and hogs wild",
			variant{smallestGoal: true, cash: true, cardHalf: true, plan: quoPlan}),
		clusterFactory("yakool", "Lux Yakool: Cluster that hunts a dominant player first",
			variant{killDominant: true, plan: yakoolPlan}),
		clusterFactory("boscoe", "Lux Boscoe: Yakool without split up, cashes cards",
			variant{killDominant: true, cash: true, plan: boscoePlan}),
		clusterFactory("bort", "Lux Bort: Boscoe with single easy-expand and fill-out attacks",
			variant{killDominant: true, cash: true, cardHalf: true, plan: bortPlan}),
		{Name: "vulture", Doc: "Vulture (stands in for Nefarious): hunts the weakest neighbour it outnumbers 2:1, else Cluster",
			New: func(bots.Values) (sim.Player, error) { return newVulture(), nil }},
	}
}
