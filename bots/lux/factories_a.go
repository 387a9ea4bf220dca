package lux

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Attack plans of the Cluster family's readings of the notes (see
// legacyCluster).
var (
	// legacyClusterPlan: Vulture's fallback: easy expand repeatedly, fill
	// out, easy expand repeatedly, consolidate repeatedly, split up(1.2)
	// repeatedly, hog wild, stalemate breaker.
	legacyClusterPlan = []planStep{{stepEasyExpand, false}, {stepFillOut, true}, {stepEasyExpand, false},
		{stepConsolidate, false}, {stepSplitUp, false}, {stepHogWild, false}, {stepStalemate, false}}
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

// newLuxCluster returns Lux's Cluster (see Cluster).
func newLuxCluster() *Cluster { return &Cluster{Plan: clusterPlan} }

// legacyFactory returns the registry entry of a bot of the notes' reading
// (see legacyCluster).
func legacyFactory(name, doc string, v variant) bots.Factory {
	return bots.Factory{Name: name, Doc: doc,
		New: func(bots.Values) (sim.Player, error) { return newLegacyCluster(v), nil }}
}

// clusterFactory returns the registry entry of a bot of the Cluster
// family made by mk.
func clusterFactory(name, doc string, mk func() *Cluster) bots.Factory {
	return bots.Factory{Name: name, Doc: doc,
		New: func(bots.Values) (sim.Player, error) { return mk(), nil }}
}

// factoriesA returns the entries of the Cluster family.
func factoriesA() []bots.Factory {
	return []bots.Factory{
		clusterFactory("cluster", "Lux Cluster (Cluster.java): grows the cluster around its best continent or biggest army", newLuxCluster),
		{Name: "shaft", Doc: "Lux Shaft (Shaft.java): Cluster with one easy expand, consolidation and a reckless sweep of its borders",
			New: func(bots.Values) (sim.Player, error) { return newShaft(false), nil }},
		{Name: "quo", Doc: "Lux Quo (Quo.java): Shaft that cashes a set a turn and attacks for a card",
			New: func(bots.Values) (sim.Player, error) { return newShaft(true), nil }},
		legacyFactory("yakool", "Lux Yakool: Cluster that hunts a dominant player first",
			variant{killDominant: true, plan: yakoolPlan}),
		legacyFactory("boscoe", "Lux Boscoe: Yakool without split up, cashes cards",
			variant{killDominant: true, cash: true, plan: boscoePlan}),
		legacyFactory("bort", "Lux Bort: Boscoe with single easy-expand and fill-out attacks",
			variant{killDominant: true, cash: true, cardHalf: true, plan: bortPlan}),
		{Name: "vulture", Doc: "Vulture (stands in for Nefarious): hunts the weakest neighbour it outnumbers 2:1, else Cluster",
			New: func(bots.Values) (sim.Player, error) { return newVulture(), nil }},
	}
}
