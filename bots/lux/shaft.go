package lux

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// shaftPlan is Shaft.java's attack phase (Cluster.attackPhase with
// Shaft.attackFromCluster), and with card Quo.java's attackPhase: the
// root as Cluster chooses it (the first territory of the most valuable
// owned positive continent, else the biggest army); one easy-expand pass;
// one fill-out pass only if that pass launched nothing (a repelled attack
// counts as launched); consolidate passes while one launches an attack;
// then, only if nothing was conquered this turn (board.tookOverACountry),
// the sweep of every border of the root's cluster (sweep, see shaftSweep);
// for Quo, attackForCard(1) with the move-in set to half of the attacker's
// armies before the attack (Quo.setmoveInMemoryBeforeCardAttack: integer
// half, clamped to the move-in's bounds); then hog wild and stalemate.
// The sweep's conquests move in by Cluster's default (no block sets the
// memory before them): the obvious test, else the minimum.
func shaftPlan(sweep *shaftSweep, card bool) []blocks.Step {
	plan := []blocks.Step{
		{Proc: blocks.StepRoot},
		{Proc: blocks.StepEasyExpand},
		{Proc: blocks.StepFillOut, Unless: true},
		{Proc: blocks.StepConsolidate, Repeat: true},
		{Proc: blocks.StepCustom, If: nothingConquered, Custom: sweep},
	}
	if card {
		plan = append(plan, blocks.Step{Proc: blocks.StepCard, K: 1, CardMove: halfBefore})
	}
	return append(plan, blocks.Step{Proc: blocks.StepHogWild}, blocks.Step{Proc: blocks.StepStalemate})
}

// nothingConquered reports whether the bot has conquered nothing this turn
// (Shaft.attackFromCluster's test of board.tookOverACountry).
func nothingConquered(x *blocks.Lux) bool { return !x.State().ConqueredThisTurn() }

// halfBefore is Quo.setmoveInMemoryBeforeCardAttack: the move-in of the
// card attack is half of the attacker's armies before the attack, rounded
// down.
func halfBefore(x *blocks.Lux, from int) int { return x.B.Armies[from] / 2 }

// shaft is Lux's Shaft (Shaft.java, on Cluster.java) and, with Quo set,
// Quo (Quo.java, on Shaft). Shaft is Cluster with its own attack phase
// (shaftPlan): Cluster's placement (the most valuable owned positive
// continent's cluster border, else to take the easiest continent; Shaft's
// own goal, setGoalToLeastBordersCont, serves only pickCountry, and
// territories are dealt), move-in, fortification and forced cashing. Quo
// also cashes one set a turn voluntarily (cardsPhase: Cluster's, then
// cashCardsIfPossible) and attacks for a card before hogging wild.
type shaft struct {
	cluster
	sweep shaftSweep // the plan's sweep step
}

// newShaft returns Lux's Shaft, or with quo Lux's Quo (see Shaft).
func newShaft(quo bool) *shaft {
	c := &shaft{}
	c.Cash = quo
	c.Plan = shaftPlan(&c.sweep, quo)
	return c
}

// shaftSweep is Shaft's sweep of the root cluster's borders (Shaft.java
// attackFromCluster's last step, sweepForwardBorder, startSweep,
// advanceSweep, takeOverEnveloped, takeCountry), run one attack order at a
// time: begin takes the snapshot of the borders, next gives the orders.
//
// For each border B in the snapshot's order (the cluster border in
// breadth-first discovery order, taken once when the sweep starts, as
// ClusterBorderIterator does), the sweep first simulates (simulate): it
// decides on the board as it stands, with no army counted, whether the
// enemy territories around B "compress" into one front point. When they
// do, it sweeps for real: B attacks its first enemy neighbour in adjacency
// order, with no odds check, whenever B holds 2 armies or more; then,
// round after round (advanceSweep), every territory seen so far that is
// still an enemy's is attacked from each adjacent territory of the bot
// holding more armies than it (1:1, takeOverEnveloped), and the queue moves
// on as in the simulation, each advance attacking the new territory from
// the queued one when that is the bot's with 2 armies or more, again with
// no odds check. A lost attack does not stop the sweep (Java's own comment
// in startSweep asks what happens then): the queue moves on anyway.
//
// The quirks of the Java are kept: the queue loop removes an entry and
// still steps its index, so the entry after a removed one is skipped in
// that pass (advanceSweep); the real sweep starts its queue from B's first
// enemy neighbour alone, not from the simulated queue (startSweep).
//
// Every buffer is sized for the map at the first sweep and reused: a sweep
// allocates nothing once a game is under way.
type shaftSweep struct {
	p       int   // the bot's seat
	borders []int // the root cluster's borders when the sweep began
	border  int   // index in borders of the next border to examine

	seen []int  // the territories seen, in the order they were seen
	mark []bool // mark[t]: t is in seen
	q    []int  // the queue of territories being compressed

	stage sweepStage
	i, j  int  // the cursor of the stage: seen or q index, neighbour index
	swept bool // the running advanceSweep pass moved the queue
}

// sweepStage is where the real sweep of shaftSweep stands.
type sweepStage uint8

const (
	sweepOff      sweepStage = iota // nothing to do until begin
	sweepBorders                    // the next border of the snapshot is examined
	sweepEnvelope                   // takeOverEnveloped: seen territories still an enemy's are attacked 1:1
	sweepQueue                      // the queue pass of advanceSweep
)

// begin starts the sweep of seat p over borders (copied), the root
// cluster's borders in discovery order.
func (w *shaftSweep) begin(p int, borders []int) {
	w.p = p
	w.borders = append(w.borders[:0], borders...)
	w.border = 0
	w.stage = sweepBorders
}

// Next runs the sweep as a step of a blocks.Lux plan (blocks.Resumable):
// at the start it takes the snapshot of the border of the root's cluster
// (blocks.Lux.AppendClusterBorder, breadth-first discovery order) and
// begins; each call gives the next order, with no move-in memory set.
// Its result is false, as sweepForwardBorder returns nothing.
func (w *shaftSweep) Next(x *blocks.Lux, start bool) (from, to, memory int, done, result bool) {
	if start {
		w.borders = x.AppendClusterBorder(w.borders[:0], x.Root)
		w.p, w.border, w.stage = x.Seat, 0, sweepBorders
	}
	if from, to, ok := w.next(x.State()); ok {
		return from, to, blocks.MoveUnset, false, false
	}
	return 0, 0, blocks.MoveUnset, true, false
}

// active reports whether the sweep has orders left to examine.
func (w *shaftSweep) active() bool { return w.stage != sweepOff }

// resetSeen empties seen, sizing mark for n territories.
func (w *shaftSweep) resetSeen(n int) {
	if len(w.mark) < n {
		w.mark = make([]bool, n)
		w.seen = make([]int, 0, n)
		w.q = make([]int, 0, n)
	}
	for _, t := range w.seen {
		w.mark[t] = false
	}
	w.seen = w.seen[:0]
}

// addSeen appends t to seen.
func (w *shaftSweep) addSeen(t int) {
	w.seen = append(w.seen, t)
	w.mark[t] = true
}

// startSeen sets seen to border's neighbours that are not the bot's, in
// adjacency order (sweepForwardBorder's first loop).
func (w *shaftSweep) startSeen(s *sim.State, border int) {
	w.resetSeen(s.NumTerritories())
	for _, u := range s.Map().Neighbors(border) {
		if s.Owner(u) != w.p {
			w.addSeen(u)
		}
	}
}

// unseenEnemies returns the number of t's neighbours that are not the
// bot's and not seen, and the last of them in adjacency order (-1 for
// none).
func (w *shaftSweep) unseenEnemies(s *sim.State, t int) (n, last int) {
	last = -1
	for _, u := range s.Map().Neighbors(t) {
		if s.Owner(u) != w.p && !w.mark[u] {
			n++
			last = u
		}
	}
	return n, last
}

// removeQ removes the entry at index i of the queue, keeping the order.
func (w *shaftSweep) removeQ(i int) {
	w.q = append(w.q[:i], w.q[i+1:]...)
}

// simulate is the test of sweepForwardBorder for border (the bot's): seen
// and the queue start as border's enemy neighbours, and passes of
// advanceSweep without attacks run until one moves nothing. In a pass each
// queued territory, by index, is dropped when it has no unseen enemy
// neighbour, is replaced by its one unseen enemy neighbour (appended to the
// queue, which the same pass then reaches, and to seen) when it has
// exactly one, and stays when it has two or more; a removal shifts the
// queue while the index still steps on, so the entry after it waits for
// the next pass. The sweep fires when exactly one queued territory is left.
// Only owners are read: no armies.
func (w *shaftSweep) simulate(s *sim.State, border int) bool {
	w.startSeen(s, border)
	w.q = append(w.q[:0], w.seen...)
	for {
		swept := false
		for i := 0; i < len(w.q); i++ {
			switch n, e := w.unseenEnemies(s, w.q[i]); n {
			case 0:
				w.removeQ(i)
			case 1:
				w.removeQ(i)
				w.q = append(w.q, e)
				w.addSeen(e)
				swept = true
			}
		}
		if !swept {
			return len(w.q) == 1
		}
	}
}

// next returns the sweep's next attack order (see shaftSweep), or false
// when every border of the snapshot has been examined. It reads the board
// as it stands at each call, so the results of the orders it gave show in
// the next ones. Every order is legal: from is the bot's and holds 2
// armies or more, to is adjacent and another seat's.
func (w *shaftSweep) next(s *sim.State) (from, to int, ok bool) {
	m := s.Map()
	for {
		switch w.stage {
		case sweepOff:
			return -1, -1, false
		case sweepBorders:
			if w.border >= len(w.borders) {
				w.stage = sweepOff
				return -1, -1, false
			}
			b := w.borders[w.border]
			w.border++
			if s.Owner(b) != w.p || !w.simulate(s, b) {
				continue
			}
			// startSweep for real: the queue is b's first enemy neighbour.
			w.startSeen(s, b)
			first := w.seen[0]
			w.q = append(w.q[:0], first)
			w.stage, w.i, w.j = sweepEnvelope, 0, 0
			if s.Armies(b) > 1 {
				return b, first, true
			}
		case sweepEnvelope:
			for ; w.i < len(w.seen); w.i, w.j = w.i+1, 0 {
				x := w.seen[w.i]
				nb := m.Neighbors(x)
				for w.j < len(nb) && s.Owner(x) != w.p {
					u := nb[w.j]
					w.j++
					if s.Owner(u) == w.p && s.Armies(u) > s.Armies(x) {
						return u, x, true
					}
				}
			}
			w.stage, w.i, w.swept = sweepQueue, 0, false
		case sweepQueue:
			for w.i < len(w.q) {
				x := w.q[w.i]
				n, e := w.unseenEnemies(s, x)
				if n != 1 {
					if n == 0 {
						w.removeQ(w.i)
					}
					w.i++
					continue
				}
				w.removeQ(w.i)
				w.q = append(w.q, e)
				w.addSeen(e)
				w.swept = true
				w.i++
				if s.Owner(x) == w.p && s.Armies(x) > 1 {
					return x, e, true
				}
			}
			if w.swept {
				w.stage, w.i, w.j = sweepEnvelope, 0, 0
			} else {
				w.stage = sweepBorders
			}
		}
	}
}
