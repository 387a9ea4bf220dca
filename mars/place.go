package mars

import (
	"fmt"
	"io"
)

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
	// goal is the pursued goal (a won offensive bid, or one handed on by
	// a conquering neighbour) and pos the index of its next target; goal
	// is -1 when the agent pursues none.
	goal, pos int
}

// bid is an agent's bid in the placement auction, with the terms of the
// equation that produced it (kept for -explain and tests).
type bid struct {
	// Value is the bid: b_o of equation (4) or b_d of equation (5).
	Value float64
	// I is the number of armies the bid is for.
	I int
	// Goal is the goal of an offensive bid, -1 for a defensive one.
	Goal int
	// P, W and D are p_i, w_i and d_i of equation (4) (offensive bids).
	P, W, D float64
	// V, D0 and D1 are v, d_m and d_(m+i) of equation (5) (defensive bids).
	V, D0, D1 float64
}

var noBid = bid{Value: -1, Goal: -1}

// mediator is MARS's mediator agent: it reads the game into the board,
// dispatches the phases to the territory agents, requests bids and picks
// the winners. All buffers live here and are reused between turns.
type mediator struct {
	p      Params
	b      *board
	o      *odds
	agents []agent
	vals   []float64 // V_c of every territory for this phase

	msgs    []message
	msgPath []int
	goals   []goal
	paths   []int
	onPath  []bool
	own     []int     // own territories, ascending
	scratch []int     // defenders of a path
	vecs    []float64 // chain odds by attacking armies, per goal (goal.vec)
	bnd     []float64 // bid-bound numerators by attacking armies, per goal (goal.bo)
	cands   []cand    // goals with bid bounds

	w     io.Writer // explanation sink, nil for silence
	names []string  // territory names for explanations
	fl    fortifier
}

func newMediator(p Params, b *board, o *odds) *mediator {
	n := len(b.owner)
	m := &mediator{p: p, b: b, o: o,
		agents: make([]agent, n), vals: make([]float64, n), onPath: make([]bool, n)}
	for t := range m.agents {
		m.agents[t].goal = -1
	}
	m.fl.init(n)
	return m
}

func (m *mediator) name(t int) string {
	if t < len(m.names) {
		return m.names[t]
	}
	return fmt.Sprint(t)
}

// offensive computes agent t's best offensive bid, equation (4), over
// its goals and i = 0..n new armies (i = 0 only if allowZero):
//
//	b_o = max_i P_ob * p_i * w_i * d_i / max(i, 1)
//
// where p_i are the chain odds of the goal path with armies(t)-1+i
// attacking armies, w_i the goal's value and d_i the probability of
// holding the goal's last territory with the expected survivors
// ŝ = max(1, a - def - (k-1)) (each defending army costs one attacking
// army, one army stays in each of the first k-1 conquered territories)
// against the strongest enemy next to it. P_ob multiplies the bid (MARS's
// reading of "bonus multiplier").
//
// Speed: the exact chain odds are computed only for goals that can still
// win. An upper bound of each goal's bid uses p_i <= Π_j W(a-(j-1), d_j)
// (an attacker reaches the j-th territory with at most a-(j-1) armies and
// W grows with the attackers); goals are examined in decreasing order of
// that bound and the search stops once the bound cannot beat the best
// exact bid; within a goal every i is examined until P_ob·w/i cannot beat
// it. The result is the same as examining every goal and every i
// (TestOffensiveBrute). An agent re-bids after every auction it wins, so
// everything that depends only on the goal and the attacking armies a
// (the bound's numerator, the chain odds P(a) from one
// dice.Chainer.WinAll pass) is computed once per placement and kept in
// per-goal slices of the mediator's buffers.
func (m *mediator) offensive(t, n int, allowZero bool) bid {
	best := noBid
	mArm := m.b.armies[t]
	i0 := 1
	if allowZero {
		i0 = 0
	}
	m.cands = m.cands[:0]
	for g := m.agents[t].head; g >= 0; g = m.goals[g].next {
		x := &m.goals[g]
		if x.w <= 0 || x.won {
			continue
		}
		ub := 0.0
		pw := m.p.Pob * x.w
		// The bound's numerator for a = mArm-1+i, cached per goal and a
		// for the whole placement (the path's defenders do not change).
		bnd := m.bnd[x.bo : x.bo+x.na]
		for i := i0; i <= n; i++ {
			if pw/float64(max(i, 1)) <= ub {
				break
			}
			a := mArm - 1 + i
			num := bnd[a-x.alo]
			if num != num { // NaN: not computed yet
				p := 1.0
				for j, v := range m.path(g) {
					p *= m.o.win(a-j, m.b.armies[v])
				}
				num = m.p.Pob * p * x.w * m.goalHold(x, a)
				bnd[a-x.alo] = num
			}
			if v := num / float64(max(i, 1)); v > ub {
				ub = v
			}
		}
		if ub > 0 {
			m.cands = append(m.cands, cand{g: g, ub: ub})
		}
	}
	// Examine the candidates in decreasing order of their bound (ties to
	// the lower goal id), selecting the next one only when needed: the
	// search usually stops after a few.
	cs := m.cands
	for k := 0; k < len(cs); k++ {
		j := k
		for l := k + 1; l < len(cs); l++ {
			if cs[l].ub > cs[j].ub || (cs[l].ub == cs[j].ub && cs[l].g < cs[j].g) {
				j = l
			}
		}
		cs[k], cs[j] = cs[j], cs[k]
		c := cs[k]
		if c.ub <= best.Value {
			break
		}
		g := c.g
		x := &m.goals[g]
		// Every i up to n may beat the best bid so far: the bound only
		// says that none beats ub, not where the goal's best i lies.
		for i := i0; i <= n; i++ {
			if i >= 1 && m.p.Pob*x.w/float64(i) <= best.Value {
				break
			}
			a := mArm - 1 + i
			if a >= x.nvec {
				m.chainOdds(x, a)
			}
			p := 0.0
			if a > 0 {
				p = m.vecs[x.vec+a]
			}
			d := m.goalHold(x, a)
			v := m.p.Pob * p * x.w * d / float64(max(i, 1))
			if v > best.Value || (v == best.Value && g < best.Goal) {
				best = bid{Value: v, I: i, Goal: g, P: p, W: x.w, D: d}
			}
		}
		// Drop the candidates the best bid has put out of reach.
		rest := cs[k+1 : k+1]
		for _, c := range cs[k+1:] {
			if c.ub > best.Value {
				rest = append(rest, c)
			}
		}
		cs = cs[:k+1+len(rest)]
	}
	return best
}

// chainOdds computes the chain odds P(a') of goal x for a' = 0..amax
// with amax >= a, kept for the placement in mediator.vecs (the path's
// defenders do not change). P(a') does not depend on amax, so the vector
// starts at about twice the armies first asked for and at least doubles
// when a later bid needs more, up to every army count the agent could
// attack with (see goal.alo).
func (m *mediator) chainOdds(x *goal, a int) {
	m.scratch = m.scratch[:0]
	for _, v := range m.paths[x.off : x.off+x.k] {
		m.scratch = append(m.scratch, m.b.armies[v])
	}
	amax := min(max(2*a, 2*x.nvec, 16), x.alo+x.na-1)
	x.vec, x.nvec = len(m.vecs), amax+1
	m.vecs = m.o.ch.WinAll(m.vecs, amax, m.scratch)
}

// goalHold is d_i of equation (4): the probability that the expected
// survivors of a attacking armies hold goal x's last territory.
func (m *mediator) goalHold(x *goal, a int) float64 {
	return m.o.hold(max(1, a-x.def-(x.k-1)), x.threat)
}

// cand is a goal with an upper bound of its offensive bid.
type cand struct {
	g  int
	ub float64
}

// defensive computes agent t's best defensive bid, equation (5), for
// i = 1..n new armies:
//
//	b_d = max_i P_db * v * (d_(m+i) - d_m) / i
//
// MARS reads d_(m+i) in (5) as the gain in holding probability that the
// i armies buy (with the literal d_(m+i), the safest territory of the
// highest value would win every defensive auction); the zero-army case is
// then worth nothing and is not bid. v is V_c of the territory, m its
// armies, d the hold probability against its strongest enemy neighbour.
func (m *mediator) defensive(t, n int) bid {
	best := noBid
	e := m.b.maxEnemy(t, nil)
	v := m.vals[t]
	if e <= 1 || v <= 0 {
		return best
	}
	mArm := m.b.armies[t]
	d0 := m.o.hold(mArm, e)
	for i := 1; i <= n; i++ {
		if m.p.Pdb*v*(1-d0)/float64(i) <= best.Value {
			break
		}
		d1 := m.o.hold(mArm+i, e)
		bv := m.p.Pdb * v * (d1 - d0) / float64(i)
		if bv > best.Value {
			best = bid{Value: bv, I: i, Goal: -1, V: v, D0: d0, D1: d1}
		}
	}
	return best
}

// bidFor makes agent t compute and submit its bid for the n remaining
// armies: the larger of its offensive and defensive bids.
func (m *mediator) bidFor(t, n int) {
	a := &m.agents[t]
	a.off = m.offensive(t, n, !a.zeroUsed)
	a.def = m.defensive(t, n)
	a.bid = a.off
	if a.def.Value > a.bid.Value {
		a.bid = a.def
	}
}

// place runs the placement phase for n armies (MARS paper, "Place
// armies"): goal propagation, bids, then first-price sealed-bid auctions.
// In each auction round the mediator picks the highest bid (ties to the
// lowest territory id); the winner receives the armies it bid for and,
// for an offensive bid, pursues the goal; only the winner re-bids (with
// its new armies) and the round repeats with the remaining armies. An
// agent whose bid was for more armies than remain re-bids. If no bid is
// positive, the rest go to the own territory facing the largest enemy
// stack. Placements are appended to out as (territory, armies) pairs in
// territory order.
func (m *mediator) place(n int) {
	b := m.b
	for t := range b.owner {
		m.vals[t] = b.value(&m.p, t)
	}
	m.propagate(n)
	own := m.own[:0]
	for t := range b.owner {
		a := &m.agents[t]
		a.zeroUsed, a.placed, a.goal, a.pos = false, 0, -1, 0
		if b.owner[t] == b.me {
			own = append(own, t)
			m.bidFor(t, n)
		}
	}
	m.own = own
	if m.w != nil {
		m.explainGoals(n)
	}
	left := n
	for round := 1; left > 0; round++ {
		win := -1
		for _, t := range own {
			a := &m.agents[t]
			if a.bid.I > left {
				m.bidFor(t, left)
			}
			if a.bid.Value > 0 && (win < 0 || a.bid.Value > m.agents[win].bid.Value) {
				win = t
			}
		}
		if win < 0 {
			break
		}
		a := &m.agents[win]
		w := a.bid
		if m.w != nil {
			m.explainWin(round, win, w)
		}
		if w.Goal >= 0 {
			// A goal wins one auction: it is then pursued, and the agent's
			// later bids are for its other goals or for defence (otherwise a
			// near-certain goal would keep winning one army at a time).
			a.goal, a.pos = w.Goal, 0
			m.goals[w.Goal].won = true
		}
		a.placed += w.I
		b.armies[win] += w.I
		left -= w.I
		a.zeroUsed = true
		if left > 0 {
			m.bidFor(win, left)
		}
	}
	if left > 0 {
		t, e := -1, -1
		for _, u := range own {
			if x := b.maxEnemy(u, nil); x > e {
				t, e = u, x
			}
		}
		if t >= 0 {
			m.agents[t].placed += left
			b.armies[t] += left
			if m.w != nil {
				fmt.Fprintf(m.w, "  no positive bid: %d armies to %s (largest enemy neighbour %d)\n", left, m.name(t), e)
			}
		}
	}
}

func (m *mediator) explainGoals(n int) {
	fmt.Fprintf(m.w, "  place %d armies: %d messages, %d goals\n", n, len(m.msgs), len(m.goals))
	for _, t := range m.own {
		a := &m.agents[t]
		fmt.Fprintf(m.w, "  agent %s (armies %d, V_c %.2f): %d goals", m.name(t), m.b.armies[t], m.vals[t], a.ngoals)
		if a.off.Goal >= 0 {
			fmt.Fprintf(m.w, "; b_o %.2f = P_ob*p*w*d/i with i=%d p=%.3f w=%.2f d=%.3f for %s",
				a.off.Value, a.off.I, a.off.P, a.off.W, a.off.D, m.pathString(a.off.Goal, 0))
		}
		if a.def.Value >= 0 {
			fmt.Fprintf(m.w, "; b_d %.2f = P_db*v*(d_(m+i)-d_m)/i with i=%d v=%.2f d_m=%.3f d_(m+i)=%.3f",
				a.def.Value, a.def.I, a.def.V, a.def.D0, a.def.D1)
		}
		fmt.Fprintln(m.w)
	}
}

func (m *mediator) explainWin(round, t int, w bid) {
	kind := "defensive"
	if w.Goal >= 0 {
		kind = "offensive, goal " + m.pathString(w.Goal, 0)
	}
	fmt.Fprintf(m.w, "  auction %d: %s wins %d armies with %.2f (%s)\n", round, m.name(t), w.I, w.Value, kind)
}

// pathString renders goal g from position pos, e.g. "A>B(3)>C(1)".
func (m *mediator) pathString(g, pos int) string {
	s := m.name(m.goals[g].from)
	for _, v := range m.path(g)[pos:] {
		s += fmt.Sprintf(">%s(%d)", m.name(v), m.b.armies[v])
	}
	return s
}
