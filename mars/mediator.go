package mars

import (
	"fmt"
	"io"
)

// mediator is MARS's mediator agent (the paper's "Mediator agent"): it
// reads the game into the board, dispatches the phases to the territory
// agents, requests bids and picks the winners. Its state falls apart by
// phase, one embedded type each: the goal propagation's messages, goals
// and their odds caches (relay, goals.go), the placement auction's bids
// (bidding, bids.go and place.go), the pursued goals and attack bids
// (attackState, attack.go), and the fortification's buffers (fortifier,
// fortify.go). All buffers live here and are reused between turns.
type mediator struct {
	p      Params
	b      *board
	o      *odds
	agents []agent
	vals   []float64 // V_c of every territory for this phase, equation (2)

	scratch []int // defenders of a path

	// bidding and attackState come before relay, whose arrays take about
	// 20 KB: the offsets of their fields stay small, and the bids' loops
	// (roughBounds, roughList) take fewer instructions.
	bidding
	attackState
	relay
	fl fortifier

	w     io.Writer // explanation sink, nil for silence
	names []string  // territory names for explanations
}

// newMediator returns the mediator of a MARS bot with parameters p on
// board b, whose agents ask o their dice odds.
func newMediator(p Params, b *board, o *odds) *mediator {
	n := len(b.Owner)
	m := &mediator{p: p, b: b, o: o, agents: make([]agent, n), vals: make([]float64, n)}
	m.bidv, m.onPath = make([]float64, n), make([]bool, n)
	m.clearPursued()
	m.fl.init(n)
	return m
}

// name returns territory t's name for explanations (its id if the map
// gave none).
func (m *mediator) name(t int) string {
	if t < len(m.names) {
		return m.names[t]
	}
	return fmt.Sprint(t)
}

// agent is a territory agent. Every territory (own and enemy) has one;
// enemy agents only originate and relay placement messages (goals.go),
// own agents store goals, bid for armies, attack and trade armies in
// fortification.
type agent struct {
	// Goals stored in the placement phase: a linked list through goal.next.
	head, tail, ngoals int
	// This placement's bids: the best offensive bid (4) and the best
	// defensive bid (5) for the remaining armies, and the one submitted.
	off, def, bid bid
	// zeroUsed is set once the agent has won an auction: it may not win
	// the zero-army bid again, so every auction round makes progress.
	zeroUsed bool
	// placed is the number of armies the agent won this phase.
	placed int
	// phead and ptail are the first and last of the goals the agent
	// pursues, a list through mediator.pursuits (-1 for none), in the
	// order it got them: every goal whose offensive bid won an auction of
	// this placement ("only the goals that win a bidding will be
	// pursued"), and every goal a conquering neighbour handed on (see
	// occupy).
	phead, ptail int
	// reach[k], k >= 1, is the least total defenders of a k-territory
	// goal the agent's armies and the armies to place may not reach (see
	// odds.mayReach), set by the agent's first store of a placement
	// (propagate sets reach[0] to -1 until then).
	reach [maxGoalPath + 1]int
	// defArm, defZero and defN are the armies, the zero-army permission
	// and the armies to place of the agent's last defensive bid (def) of
	// this placement, defN -1 for none (reset by propagate): a re-bid
	// with the same armies and permission for n armies, defN >= n >=
	// def.I, would find the same bid (see bidFor).
	defArm, defN int
	defZero      bool
	// seed holds the goals of the agent's last offensive bid of this
	// placement: the winner and the last other goal examined (-1 for
	// none). Their exact bids at the agent's next re-bid give a floor
	// that prunes the search (see offensive); reset by propagate.
	seed [2]int
	// ro and rn locate in mediator.rough the agent's rough bounds from
	// its first bid of the placement, made for ra attacking armies (-1
	// for none; reset by propagate): every goal roughBounds puts in
	// mediator.cands for ra armies and floor 0, in the same order, a
	// goal that has won marked by a bound of -Inf (see roughList).
	ro, rn, ra int
	// atk is the agent's last attack bid (attackBid), made under
	// threshold atkThr; atkFP has the bits of every territory the bid
	// read (the agent's, its neighbours' and its pursued goals'
	// remaining paths'). It stands while mediator.atkValid has the
	// agent's bit (see chooseAttack).
	atk    attackChoice
	atkThr float64
	atkFP  uint64
}

// maxGoalPath is the longest goal path: the largest G_l allowed.
const maxGoalPath = 10
