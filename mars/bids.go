package mars

import "math"

// bidding is the placement auction's state (see place and offensive).
type bidding struct {
	// bidv holds every agent's submitted bid value (agent.bid.Value),
	// set with it by bidFor and firstBid, in one slice for the auction's
	// scan for the highest bid.
	bidv  []float64
	own   []int  // own territories, ascending
	cands []cand // goals with bid bounds
	rough []cand // the agents' rough bounds from their first bids (agent.ro)

	st auctionStats // the game's placement auctions by winning bid
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

// noBid is the bid of an agent that bids nothing: below every bid made.
var noBid = bid{Value: -1, Goal: -1}

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
// armies(t) counts the armies the agent has already won in this
// placement: they stand on its territory, so a bid for a second goal
// counts the armies won for the first one again (MARS's choice; the paper
// does not say). The goals an agent pursues share its armies, and the
// attack phase spends them on one goal at a time (see attackBid).
//
// Speed: the exact chain odds are computed only for goals that can still
// win. An upper bound of each goal's bid uses p_i <= Π_j W(a-(j-1), d_j)
// (an attacker reaches the j-th territory with at most a-(j-1) armies and
// W grows with the attackers); goals are examined in decreasing order of
// that bound and the search stops once the bound cannot beat the best
// exact bid; within a goal every i is examined until P_ob·w/i cannot beat
// it. The bound's numerator grows with a, so the numerator for all n
// armies is a rough bound of the whole goal: the goal with the largest
// rough bound and the goals of the agent's previous bid (agent.seed) give
// exact bids, a floor under the result, and goals whose rough or exact
// bound is below the floor are never examined, as they would not be in
// the full search either. The result is the same as examining every goal
// and every i (TestOffensiveBrute). An agent re-bids after every auction
// it wins, so everything that depends only on the chain and the attacking
// armies a (the bound's numerator) is computed once per placement and
// kept in the mediator's buffers (oddsCache per message), and the chain
// odds P(a) of a defender sequence are computed once per game (see
// chainStore).
func (m *mediator) offensive(t, n int, allowZero bool) bid {
	best := noBid
	ag := &m.agents[t]
	mArm := m.b.Armies[t]
	i0 := 1
	if allowZero {
		i0 = 0
	}
	// floor is an exact bid of one of the agent's goals (the seeds, then
	// the rough favourite below), so the result is at least floor: a goal
	// whose bound is below it can never be examined by the search below
	// and is left out, and its bound scan stops once the bound of the
	// remaining i is below floor.
	floor := -1.0
	// exact holds the exact bids computed for floor (the seeds' and the
	// rough favourite's): the search below takes them as they are.
	var exact [3]bid
	ne := 0
	for _, g := range ag.seed {
		if g >= 0 && !m.goals[g].won {
			exact[ne] = m.goalBid(g, mArm, i0, n)
			floor = max(floor, exact[ne].Value)
			ne++
		}
	}
	// A rough bound of every goal's bid first: its numerator for all n
	// armies (i0 <= 1: over at most one army); the goal with the largest
	// one usually wins.
	top := -1
	if j := m.roughList(ag, mArm-1+n, floor); j >= 0 {
		top = m.cands[j].g
	}
	if top >= 0 && top != ag.seed[0] && top != ag.seed[1] {
		exact[ne] = m.goalBid(top, mArm, i0, n)
		floor = max(floor, exact[ne].Value)
		ne++
	}
	// The exact bound of the goals that floor leaves in.
	cs := m.cands[:0]
cands:
	for _, c := range m.cands {
		if c.ub < floor {
			continue
		}
		g := c.g
		for _, e := range exact[:ne] {
			if e.Goal == g {
				// The goal's bid is known: it bounds itself (with the
				// margin, so that a tie is still examined).
				if e.Value > 0 && e.Value >= floor {
					cs = append(cs, cand{g: g, ub: e.Value * roundMargin})
				}
				continue cands
			}
		}
		ub := m.scanBound(&m.ccs[m.goals[g].cc], mArm, i0, n, c.ub, floor)
		// The margin absorbs rounding: the chain odds of two or more
		// territories near certainty can exceed the product of their
		// battles' odds in the last bit.
		if ub *= roundMargin; ub > 0 && ub >= floor {
			cs = append(cs, cand{g: g, ub: ub})
		}
	}
	m.cands = cs
	// Examine the candidates in decreasing order of their bound (ties to
	// the lower goal id), taking the next one from a heap only when
	// needed: the search usually stops after a few.
	heapify(cs)
	second := -1 // the last examined goal other than the best
	for len(cs) > 0 {
		c := cs[0]
		if c.ub <= best.Value {
			break
		}
		cs = heapPop(cs)
		g := c.g
		x := &m.goals[g]
		prev := best.Goal
		// A goal whose exact bid is known and differs from the best so
		// far replaces it or not as the search over i below would (that
		// search keeps a goal's first best i); an equal one, a tie to
		// the lower goal id, is searched.
		known := false
		for _, e := range exact[:ne] {
			if e.Goal == g && e.Value != best.Value {
				if e.Value > best.Value {
					best = e
				}
				known = true
				break
			}
		}
		if !known {
			topN := m.boundNum(g, mArm-1+n) * roundMargin
			// Every i up to n may beat the best bid so far: the bound
			// only says that none beats ub, not where the goal's best i
			// lies. The bid for i is at most P_ob·w/i and at most topN/i
			// (p_i <= p̄, numerators grow with a); the second test stops
			// only where no later i can even tie the best bid.
			for i := i0; i <= n; i++ {
				if i >= 1 && (m.p.Pob*x.w/float64(i) <= best.Value || topN/float64(i) < best.Value) {
					break
				}
				a := mArm - 1 + i
				p := m.chain(x, a, mArm-1+n)
				d := m.goalHold(x, a)
				v := m.p.Pob * p * x.w * d / float64(max(i, 1))
				if v > best.Value || (v == best.Value && g < best.Goal) {
					best = bid{Value: v, I: i, Goal: g, P: p, W: x.w, D: d}
				}
			}
		}
		if best.Goal != prev {
			second = prev // the old best is now the best other goal
		} else if g != best.Goal {
			second = g
		}
	}
	ag.seed = [2]int{best.Goal, second}
	return best
}

// goalBid returns the best exact offensive bid of goal g (equation (4))
// of an agent of mArm armies over i = i0..n new armies, the first i of
// the largest bid (noBid for none): the bid the search in offensive would
// give the goal.
func (m *mediator) goalBid(g, mArm, i0, n int) bid {
	x := &m.goals[g]
	best := noBid
	if x.w <= 0 {
		return best
	}
	for i := i0; i <= n; i++ {
		if i >= 1 && m.p.Pob*x.w/float64(i) <= best.Value {
			break
		}
		a := mArm - 1 + i
		p := m.chain(x, a, mArm-1+n)
		d := m.goalHold(x, a)
		if v := m.p.Pob * p * x.w * d / float64(max(i, 1)); v > best.Value {
			best = bid{Value: v, I: i, Goal: g, P: p, W: x.w, D: d}
		}
	}
	return best
}

// boundNum returns the numerator P_ob·p̄·w·d of goal g's bid bound for
// a attacking armies (p̄ = Π_j W(a-(j-1), d_j), see offensive), cached
// per goal and a in mediator.bnd for the whole placement (the path's
// defenders do not change).
func (m *mediator) boundNum(g, a int) float64 {
	c := &m.ccs[m.goals[g].cc]
	if i := a - c.alo; uint(i) < uint(c.na) {
		s := &m.bnd[c.bo+i]
		if math.Float64bits(*s) == 0 {
			*s = -m.numerator(c, a)
		}
		return -*s
	}
	return m.numerator(c, a)
}

// roughBounds puts in mediator.cands, with its bound numerator for a
// attacking armies times the rounding margin as its bound, every goal of
// agent ag that has not won, has a positive value, may reach floor
// (a numerator is at most P_ob·w) and has a positive numerator, and
// returns the index in cands of the one with the largest (the first on
// ties), -1 for none. For the armies the agent can attack with at most,
// the numerator is the largest of the goal's: numerators grow with a. The
// numerators are read where kept, and kept, as boundNum does, without its
// call.
func (m *mediator) roughBounds(ag *agent, a int, floor float64) int {
	m.cands = m.cands[:0]
	top, topU := -1, 0.0
	for g := ag.head; g >= 0; g = int(m.goals[g].next) {
		x := &m.goals[g]
		if x.w <= 0 || x.won || m.p.Pob*x.w*roundMargin < floor {
			continue
		}
		c := &m.ccs[x.cc]
		var num float64
		if i := a - c.alo; uint(i) >= uint(c.na) {
			num = m.numerator(c, a)
		} else if s := &m.bnd[c.bo+i]; math.Float64bits(*s) != 0 {
			num = -*s
		} else {
			num = m.numerator(c, a)
			*s = -num
		}
		if u := num * roundMargin; u > 0 {
			m.cands = append(m.cands, cand{g: g, ub: u})
			if u > topU {
				top, topU = len(m.cands)-1, u
			}
		}
	}
	return top
}

// roughList is roughBounds for offensive: where the agent's first bid of
// the placement kept its rough bounds for ra >= a attacking armies
// (agent.ra), it puts in mediator.cands the kept bounds of at least floor,
// in their order, and returns the index of the largest (the first on
// ties), -1 for none, without reading the goals; otherwise it calls
// roughBounds. Within a placement a = armies-1+n never exceeds the first
// bid's: an agent that wins keeps it (the armies it won come out of the n
// left), one that re-bids for fewer armies lowers it. For ra = a the
// candidates it leaves out are those offensive drops for a bound below
// floor; roughBounds would also list them, and pick one as the largest
// only if none reaches floor, whose exact bid is then below floor and
// changes nothing. For ra > a the bounds are looser (numerators grow with
// the attacking armies; the margin absorbs rounding): offensive may
// examine more goals, and finds the same bid (TestOffensiveBrute,
// TestRoughListMatchesBounds).
func (m *mediator) roughList(ag *agent, a int, floor float64) int {
	if ag.ra < a {
		return m.roughBounds(ag, a, floor)
	}
	cs := m.cands[:0]
	top, topU := -1, 0.0
	for _, c := range m.rough[ag.ro : ag.ro+ag.rn] {
		if c.ub >= floor && c.ub > 0 {
			cs = append(cs, c)
			if c.ub > topU {
				top, topU = len(cs)-1, c.ub
			}
		}
	}
	m.cands = cs
	return top
}

// markWon marks goal g of agent t as won: it bids no more in this
// placement (goal.won, and its kept rough bound, see agent.ro).
func (m *mediator) markWon(t, g int) {
	m.goals[g].won = true
	a := &m.agents[t]
	if a.ra < 0 {
		return
	}
	for j := range m.rough[a.ro : a.ro+a.rn] {
		if c := &m.rough[a.ro+j]; c.g == g {
			c.ub = math.Inf(-1)
			return
		}
	}
}

// scanBound returns max_i N̄(a)/max(i, 1) over i = i0..n new armies
// (a = mArm-1+i attacking armies) for the goals of oddsCache oc, N̄ the
// bound numerator P_ob·p̄·w·d (see offensive), without the rounding margin,
// or a smaller value where that maximum is below floor. topN is an upper
// bound of N̄ over those a, with the margin: the scan stops at the first
// i where topN/i can beat neither the maximum so far nor floor. With a
// positive floor the numerator of the last i whose topN/i reaches floor
// first replaces topN where it is smaller, and returns 0 at once where it
// shows the maximum below floor. The numerators computed are kept, as
// boundNum keeps them.
func (m *mediator) scanBound(oc *oddsCache, mArm, i0, n int, topN, floor float64) float64 {
	ub := 0.0
	bnd := m.bnd[oc.bo : oc.bo+oc.na]
	// j indexes the kept numerator of i, fi is max(i, 1). The scan starts
	// at the first i whose a = mArm-1+i reaches the path's k territories:
	// the numerators before are 0 (see numerator), leave ub at 0, and the
	// stop test, which only tightens with i, is made at the first i
	// scanned.
	is := max(i0, oc.k-mArm+1)
	if floor > 0 {
		// Only i <= topN/floor may reach floor, and the numerator of the
		// last of them bounds every one before (numerators grow with
		// the attacking armies; the margin absorbs rounding): where that
		// bound, over the smallest max(i, 1), is below floor, so is the
		// maximum, and one numerator shows it.
		last := n
		if x := topN / floor; x < float64(n) {
			last = int(x)
		}
		if last < is {
			return 0
		}
		// That numerator also bounds the scan below in place of topN.
		topN = min(topN, m.keptNum(oc, mArm-1+last)*roundMargin)
		if topN/float64(max(is, 1)) < floor {
			return 0
		}
	}
	j, fi := mArm-1+is-oc.alo, float64(max(is, 1))
	for i := is; i <= n; i, j, fi = i+1, j+1, float64(i+1) {
		if q := topN / fi; q <= ub || q < floor {
			break
		}
		var num float64
		if uint(j) >= uint(len(bnd)) {
			num = m.numerator(oc, mArm-1+i)
		} else if math.Float64bits(bnd[j]) != 0 {
			num = -bnd[j]
		} else {
			num = m.numerator(oc, mArm-1+i)
			bnd[j] = -num // as boundNum keeps it
		}
		if v := num / fi; v > ub {
			ub = v
		}
	}
	return ub
}

// keptNum returns the bound numerator of the goals of oddsCache c for a
// attacking armies, kept as boundNum keeps it.
func (m *mediator) keptNum(c *oddsCache, a int) float64 {
	if i := a - c.alo; uint(i) < uint(c.na) {
		s := &m.bnd[c.bo+i]
		if math.Float64bits(*s) == 0 {
			*s = -m.numerator(c, a)
		}
		return -*s
	}
	return m.numerator(c, a)
}

// numerator computes the bound numerator P_ob·p̄·w·d of the goals of
// oddsCache c for a attacking armies (see boundNum), with W and d from the
// battle table where it holds them: the products of odds.win and
// goalHold, in the same order, with the same values. Beyond the exact
// odds the bound stays a bound of what chain returns: where the chain odds
// themselves are scaled (exactChain is false) p̄ is 1, and a battle beyond
// the largest battle table (which odds.win scales) counts W = 1.
func (m *mediator) numerator(c *oddsCache, a int) float64 {
	if a < c.k {
		// The k-th battle starts with at most a-(k-1) <= 0 armies: W is 0
		// (every territory has a defender), and so is the product.
		return 0
	}
	o := m.o
	tw, tn := o.tw, o.tn
	defs := c.defs[:c.k]
	p := 1.0 // where the chain's odds are scaled (exactChain is false)
	switch {
	case !exactChain(a, c.maxD):
	case a <= tn && c.maxD <= tn:
		// Every W(a-j, d_j) is in the table: row a-j, column d_j.
		r := a * (tn + 1)
		for _, d := range defs {
			p *= tw[r+int(d)]
			r -= tn + 1
		}
	default:
		for j, d := range defs {
			p *= o.boundWin(a-j, int(d))
		}
	}
	hold := 1.0 // o.hold(x, c.threat) for the expected survivors x
	if e := c.threat; e > 1 {
		x := max(1, a-c.def-(c.k-1))
		if e-1 <= tn && x <= tn {
			hold = 1 - tw[(e-1)*(tn+1)+x]
		} else {
			hold = 1 - o.win(e-1, x)
		}
	}
	return m.p.Pob * p * c.w * hold
}

// maxHintChain bounds the attacking armies chain computes a node's odds
// for ahead of a query (see chain): with stacks of hundreds or thousands,
// the armies to place can double a node's vector, and most of it goes
// unread.
const maxHintChain = 256

// chain returns p_i of equation (4) for goal x: the chain odds of a
// attacking armies of the goal's defenders, from the odds store (see
// chainStore). The goals of one message share the store node in their
// oddsCache for the placement (the defenders do not change). top >= a is
// the most attacking armies the caller may ask for next (the agent's
// armies with every army to place): a node the store must compute or grow
// is computed for top where top is below maxHintChain and its odds are
// exact there too, so that the caller's larger a do not grow it again (the
// store's values do not depend on how far a node is computed).
func (m *mediator) chain(x *goal, a, top int) float64 {
	c := &m.ccs[x.cc]
	if a < c.k {
		// Too few attackers to leave one in each territory before the
		// last: the odds are 0 (see TestChainTooFew).
		return 0
	}
	st := m.o.store
	if c.cv < 0 || c.cvGen != st.gen || a >= st.covers(c.cv) {
		m.scratch = m.scratch[:0]
		maxD := 0
		for _, v := range m.paths[c.off : c.off+c.k] {
			m.scratch = append(m.scratch, m.b.Armies[v])
			maxD = max(maxD, m.b.Armies[v])
		}
		if !exactChain(a, maxD) {
			return m.o.chainOdds(m.scratch, a) // bounded work
		}
		need := a + 1
		if top > a && top < maxHintChain && exactChain(top, maxD) {
			need = top + 1
		}
		c.cv = st.lookup(m.scratch, need)
		c.cvGen = st.gen
	}
	if a <= 0 {
		return 0
	}
	return st.odds(c.cv, a)
}

// goalHold is d_i of equation (4): the probability that the expected
// survivors of a attacking armies hold goal x's last territory.
func (m *mediator) goalHold(x *goal, a int) float64 {
	c := &m.ccs[x.cc]
	return m.o.hold(max(1, a-c.def-(c.k-1)), c.threat)
}

// roundMargin multiplies a bound numerator used as a bound for fewer
// attacking armies: the numerators grow with a in exact arithmetic, the
// margin absorbs rounding in the tables.
const roundMargin = 1 + 1e-9

// cand is a goal with an upper bound of its offensive bid.
type cand struct {
	g  int
	ub float64
}

// before reports whether candidate c comes before d in the offensive
// search: a larger bound first, the lower goal id on ties.
func (c cand) before(d cand) bool {
	return c.ub > d.ub || (c.ub == d.ub && c.g < d.g)
}

// heapify orders cs as a binary heap whose first element comes before
// every other (cand.before).
func heapify(cs []cand) {
	for i := len(cs)/2 - 1; i >= 0; i-- {
		siftDown(cs, i)
	}
}

// heapPop removes the first candidate of heap cs and returns the rest, a
// heap.
func heapPop(cs []cand) []cand {
	n := len(cs) - 1
	cs[0] = cs[n]
	cs = cs[:n]
	siftDown(cs, 0)
	return cs
}

// siftDown moves cs[i] down heap cs to its place.
func siftDown(cs []cand, i int) {
	n := len(cs)
	for {
		j := 2*i + 1
		if j >= n {
			return
		}
		if r := j + 1; r < n && cs[r].before(cs[j]) {
			j = r
		}
		if !cs[j].before(cs[i]) {
			return
		}
		cs[i], cs[j] = cs[j], cs[i]
		i = j
	}
}

// defensive computes agent t's best defensive bid, equation (5), for
// i = 1..n new armies. Under defensive_bid = gain (the default)
//
//	b_d = max_i P_db * v * (d_(m+i) - d_m) / i
//
// reads d_(m+i) in (5) as the gain in holding probability that the i
// armies buy (with the literal d_(m+i), the safest territory of the
// highest value would win every defensive auction); the zero-army case is
// then worth nothing and is not bid. Under defensive_bid = literal it is
// (5) as printed, times P_db: P_db·v·d_m for i = 0 (only if allowZero, as
// for offensive bids) and P_db·v·d_(m+i)/i for i >= 1. v is V_c of the
// territory, m its armies, d the hold probability against its strongest
// enemy neighbour; a territory without an enemy neighbour of 2 or more
// armies, or of value v <= 0, bids nothing under either reading. Under
// hold_unit = percent, d_m and d_(m+i) are in percent (see [HoldUnit]), and
// the bid's D0 and D1 hold them in that unit.
func (m *mediator) defensive(t, n int, allowZero bool) bid {
	best := noBid
	e := m.b.maxEnemy(t, nil)
	v := m.vals[t]
	if e <= 1 || v <= 0 {
		return best
	}
	mArm := m.b.Armies[t]
	unit := 1.0 // the unit of d (hold_unit)
	if m.p.HoldUnit == HoldPercent {
		unit = 100
	}
	d0 := unit * m.o.hold(mArm, e)
	if m.p.Defensive == DefensiveLiteral {
		if allowZero {
			best = bid{Value: m.p.Pdb * v * d0, I: 0, Goal: -1, V: v, D0: d0, D1: d0}
		}
		for i := 1; i <= n; i++ {
			if m.p.Pdb*v*unit/float64(i) <= best.Value {
				break
			}
			d1 := unit * m.o.hold(mArm+i, e)
			if bv := m.p.Pdb * v * d1 / float64(i); bv > best.Value {
				best = bid{Value: bv, I: i, Goal: -1, V: v, D0: d0, D1: d1}
			}
		}
		return best
	}
	for i := 1; i <= n; i++ {
		if m.p.Pdb*v*(unit-d0)/float64(i) <= best.Value {
			break
		}
		d1 := unit * m.o.hold(mArm+i, e)
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
	// The defensive bid is the first best over i <= n: with the same
	// armies and permission and its i still allowed, fewer armies to
	// place leave it as it is.
	if arm := m.b.Armies[t]; a.defArm != arm || a.defZero == a.zeroUsed || n > a.defN || a.def.I > n {
		a.def = m.defensive(t, n, !a.zeroUsed)
		a.defArm, a.defZero, a.defN = arm, !a.zeroUsed, n
	}
	a.bid = a.off
	if a.def.Value > a.bid.Value {
		a.bid = a.def
	}
	m.bidv[t] = a.bid.Value
}

// firstBid gives agent t its first bid of the placement for n armies
// lazily: the defensive bid, if it beats every offensive bid the agent
// could make, or else a stale bid (I = n+1, more than can remain) worth
// an upper bound of the agent's bid, re-bid exactly only if it is picked
// in an auction round (see place). The bound is the largest over the
// agent's goals of the exact bid bound of offensive, max_i N̄(a)/max(i, 1)
// with N̄ the bound numerator for a = armies-1+i attacking armies, with a
// margin for rounding: a looser bound (the numerator for all n armies
// alone) would leave most stale bids above the winning bid, and an agent
// picked on a stale bid re-bids exactly in full (see offensive). The goal
// with the largest numerator for all n armies is scanned first; a goal
// whose numerator for all n armies cannot beat the bound so far is not
// scanned.
func (m *mediator) firstBid(t, n int) {
	a := &m.agents[t]
	a.def = m.defensive(t, n, !a.zeroUsed)
	a.defArm, a.defZero, a.defN = m.b.Armies[t], !a.zeroUsed, n
	a.off = noBid
	mArm := m.b.Armies[t]
	arm := mArm - 1 + n
	i0 := 1
	if !a.zeroUsed {
		i0 = 0
	}
	// The numerator for all n armies of every goal first, then the bound
	// of the goal with the largest one, which usually bounds the agent's
	// bid, and of every other goal whose largest numerator can beat it.
	top := m.roughBounds(a, arm, 0)
	a.ro, a.rn, a.ra = len(m.rough), len(m.cands), arm
	m.rough = append(m.rough, m.cands...)
	u := 0.0
	if top >= 0 {
		c := m.cands[top]
		u = m.scanBound(&m.ccs[m.goals[c.g].cc], mArm, i0, n, c.ub, 0) * roundMargin
		for j, c := range m.cands {
			if j != top && c.ub > u {
				u = max(u, m.scanBound(&m.ccs[m.goals[c.g].cc], mArm, i0, n, c.ub, u)*roundMargin)
			}
		}
	}
	if a.def.Value > u {
		a.bid = a.def
	} else {
		a.bid = bid{Value: u, I: n + 1, Goal: -1}
	}
	m.bidv[t] = a.bid.Value
}
