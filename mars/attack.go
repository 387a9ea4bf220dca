package mars

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

// attackState is the attack phase's state: the goals the agents pursue
// (won in the placement auction or handed on by a conquering neighbour)
// and the attack auction's bids.
type attackState struct {
	// pursuits holds every agent's pursued goals (agent.phead), emptied at
	// each placement: one buffer, so that pursuing goals does not allocate
	// once it has grown.
	pursuits []pursuit
	legal    []sim.AttackOrder // the legal attacks of an attack auction
	bids     []attackChoice    // every agent's bid of an attack auction, kept only when explaining
	// atkValid (maps with neighbour masks) has the bits of the agents
	// whose attack bid (agent.atk) stands: no territory it read has
	// changed since (see chooseAttack).
	atkValid uint64

	stop stopState // the stop option's army price and counts (stop.go)
}

// pursuit is a goal an agent pursues: goal g (an index in mediator.goals,
// valid until the next placement) and pos, the index in the goal's path of
// its next target, the territory next to the agent; next is the agent's
// next pursued goal (an index in mediator.pursuits, -1 for none).
type pursuit struct {
	g, pos, next int
	memo         oddsMemo
	// rest has the bits of the path's territories from pos on (those
	// below 64: it serves maps with neighbour masks; see footprint).
	rest uint64
}

// oddsMemo remembers the odds store node of a pursued goal's remaining
// path: node (of store generation gen) holds the chain odds against the
// defenders defs[:n]. The
// attack auction runs again after every roll: the attacking agent's
// armies fall while the defenders of its other goals stay the same, so
// those are looked up in the node, not searched for in the store.
type oddsMemo struct {
	n, node, gen int
	defs         [maxGoalPath]int32
}

// clearPursued empties every agent's pursued goals.
func (m *mediator) clearPursued() {
	m.pursuits = m.pursuits[:0]
	m.atkValid = 0 // the attack bids read the pursued goals
	for t := range m.agents {
		m.agents[t].phead, m.agents[t].ptail = -1, -1
	}
}

// pursue appends goal g, with its next target at index pos of its path,
// to agent t's pursued goals.
func (m *mediator) pursue(t, g, pos int) {
	i := len(m.pursuits)
	var rest uint64
	for _, v := range m.path(g)[pos:] {
		rest |= 1 << (v & 63)
	}
	m.pursuits = append(m.pursuits, pursuit{g: g, pos: pos, next: -1, rest: rest})
	m.atkValid &^= 1 << (t & 63) // t's attack bid reads its pursued goals
	a := &m.agents[t]
	if a.ptail >= 0 {
		m.pursuits[a.ptail].next = i
	} else {
		a.phead = i
	}
	a.ptail = i
}

// attackChoice is an agent's bid in an attack auction.
type attackChoice struct {
	from, to int
	odds     float64
	// pursuit is the pursued goal (an index in mediator.pursuits) whose
	// remaining path the odds are for, or -1 for a single battle.
	pursuit int
}

// noAttack is the bid of an agent with no enemy neighbour.
var noAttack = attackChoice{from: -1, to: -1, odds: -1, pursuit: -1}

// chooseAttack runs one attack auction (MARS paper, "Attack"): every
// eligible agent (the From of a legal attack: an own territory with an
// enemy neighbour and more than one army, as sim.State.LegalAttacks lists
// them) bids its success odds (attackBid), and the highest bid attacks if
// it reaches the threshold thr: W_p1 before the turn's first conquest, W_p
// after. The highest bid wins, ties to the lowest attacking territory id.
// ok is false when no bid reaches thr; c is then the best bid (odds -1 if
// no agent is eligible).
func (m *mediator) chooseAttack(conquered bool) (c attackChoice, thr float64, ok bool) {
	thr = m.p.Wp1
	if conquered {
		thr = m.p.Wp
	}
	if m.p.Stop == StopOptimal {
		thr = 0 // every goal bids; stopDecide decides (stop.go)
	}
	c = noAttack
	m.bids = m.bids[:0]
	b := m.b
	if b.nmask != nil {
		// The legal attacks of one agent at a time, from the masks, in
		// legalAttacks's order. An agent's bid depends only on the
		// territories of its footprint (agent.atkFP) and on the
		// threshold: a bid none of whose territories has changed since
		// it was made (board.changed; a roll changes the attacker's and
		// the defender's, an occupation also moves goals between those
		// two agents) is the one attackBid would make again.
		mine, strong := b.ownMasks()
		if ch := b.changed; ch != 0 {
			for v := m.atkValid; v != 0; v &= v - 1 {
				if t := bits.TrailingZeros64(v); m.agents[t].atkFP&ch != 0 {
					m.atkValid &^= 1 << t
				}
			}
			b.changed = 0
		}
		for own := strong; own != 0; own &= own - 1 {
			t := bits.TrailingZeros64(own)
			if b.nmask[t]&^mine == 0 {
				continue // no enemy neighbour: no legal attack
			}
			a := &m.agents[t]
			if m.atkValid&(1<<t) == 0 || a.atkThr != thr {
				m.legal = b.appendAttacks(m.legal[:0], t, mine)
				a.atk, a.atkThr, a.atkFP = m.attackBid(m.legal, thr), thr, m.footprint(t, mine)
				m.atkValid |= 1 << t
			}
			c = m.takeBid(c, a.atk)
		}
		return c, thr, c.odds >= 0 && c.odds >= thr
	}
	m.legal = m.legalAttacks(m.legal[:0])
	for i := 0; i < len(m.legal); {
		j := i + 1
		for j < len(m.legal) && m.legal[j].From == m.legal[i].From {
			j++
		}
		c = m.takeBid(c, m.attackBid(m.legal[i:j], thr))
		i = j
	}
	return c, thr, c.odds >= 0 && c.odds >= thr
}

// footprint returns the bits of the territories agent t's attack bid
// reads, on maps with neighbour masks (mine has MARS's territories): t,
// its enemy neighbours, and the remaining paths of the goals it pursues.
// Its own neighbours' armies are not read, and between two loads of the
// board an own territory stays own (board.update re-reads the attacker's
// territory, which stays MARS's, and the defender's, which may become
// MARS's).
func (m *mediator) footprint(t int, mine uint64) uint64 {
	fp := 1<<t | m.b.nmask[t]&^mine
	for i := m.agents[t].phead; i >= 0; i = m.pursuits[i].next {
		fp |= m.pursuits[i].rest
	}
	return fp
}

// takeBid returns the better of the auction's best bid c and an agent's
// bid x (c on a tie: the agents bid by increasing territory id), keeping x
// for the explanation when explaining (unless it is noAttack: under
// attack_targets = goals an agent without a live goal within reach of the
// threshold bids nothing).
func (m *mediator) takeBid(c, x attackChoice) attackChoice {
	if m.w != nil && x.from >= 0 {
		m.bids = append(m.bids, x) // not an agent without a bid (attack_targets = goals)
	}
	if x.odds > c.odds {
		return x
	}
	return c
}

// legalAttacks appends to buf the legal attacks of the board's player,
// as sim.State.LegalAttacks does (by increasing From, then in the
// neighbour lists' order), from the neighbour masks where the map has
// them.
func (m *mediator) legalAttacks(buf []sim.AttackOrder) []sim.AttackOrder {
	b := m.b
	if b.nmask == nil {
		return b.s.LegalAttacks(b.me, buf)
	}
	mine, strong := b.ownMasks()
	for own := strong; own != 0; own &= own - 1 {
		buf = b.appendAttacks(buf, bits.TrailingZeros64(own), mine)
	}
	return buf
}

// appendAttacks appends to buf the attacks from territory t into its
// neighbours outside mine (the board's player's territories), in the
// neighbour list's order, on maps with neighbour masks.
func (b *board) appendAttacks(buf []sim.AttackOrder, t int, mine uint64) []sim.AttackOrder {
	for x := b.nmask[t] &^ mine; x != 0; x &= x - 1 {
		buf = append(buf, sim.AttackOrder{From: t, To: bits.TrailingZeros64(x)})
	}
	return buf
}

// attackBid returns the bid of own agent t in an attack auction of
// threshold thr, given t's legal attacks (orders, all From t, one per
// enemy neighbour; the next target of a live goal is one of them). The
// paper has the agents carry the goals that won the placement auction, a
// conquering agent handing its goal path on to the conquered territory's
// agent; MARS reads this as follows. The agent bids the best
// odds, over its live pursued goals (those whose next target is still an
// enemy's), of conquering the goal's whole remaining path with its
// armies-1 attacking armies (the path ends early at a territory MARS
// already owns), against that goal's next target. If none of them reaches
// thr, or it pursues no live goal, it bids, like an agent without goals,
// its best odds of conquering one enemy neighbour in a single battle.
//
// The fallback gives up hardly any goal attack of this turn: during the
// attack phase the threshold only rises (W_p1 to W_p, with the paper's
// W_p >= W_p1) and a goal's odds do not rise unless a battle on its own
// path goes well (its agent's armies only fall, and other agents change
// its defenders only by conquering one of its territories, which cuts the
// path short), so a goal below the threshold now would not be attacked
// later in the turn either; if a battle does lift it, the auction, which
// runs again after every roll, bids it again. Armies placed for a goal
// are thus spent on it while its odds are good enough, and otherwise on
// the agent's likeliest conquest rather than left idle.
//
// Ties go to the lowest target territory id, then (between goals with the
// same target) to the goal the agent got first.
func (m *mediator) attackBid(orders []sim.AttackOrder, thr float64) attackChoice {
	b := m.b
	t := orders[0].From
	att := b.Armies[t] - 1
	best := noAttack
	for i := m.agents[t].phead; i >= 0; i = m.pursuits[i].next {
		p := &m.pursuits[i]
		path := m.path(p.g)
		if p.pos >= len(path) || b.Owner[path[p.pos]] == b.me {
			continue // achieved, or its next target is already MARS's
		}
		v := path[p.pos]
		// The goal's odds are at most Π_j W(att-(j-1), d_j): the j-th
		// battle starts with at most att-(j-1) armies.
		if u := m.goalBound(p, att, max(thr, best.odds)); u < thr || u < best.odds {
			continue
		}
		o := m.goalOdds(p, att)
		if o > best.odds || (o == best.odds && v < best.to) {
			best = attackChoice{from: t, to: v, odds: o, pursuit: i}
		}
	}
	if best.odds >= thr || m.p.Attack == AttackGoals {
		return best
	}
	best = noAttack
	for _, x := range orders {
		u := x.To
		if o := m.o.win(att, b.Armies[u]); o > best.odds || (o == best.odds && u < best.to) {
			best = attackChoice{from: t, to: u, odds: o, pursuit: -1}
		}
	}
	return best
}

// goalOdds returns the odds of att >= 1 attacking armies conquering the
// rest of pursued goal p, whose next target must be enemy-held; a path cut
// short by a territory MARS already owns ends there. The odds for every
// army count up to att come from the odds store (chainStore), whose node
// p.memo keeps while the defenders stay the same.
func (m *mediator) goalOdds(p *pursuit, att int) float64 {
	m.remaining(*p)
	defs := m.scratch
	if len(defs) == 1 {
		return m.o.win(att, defs[0])
	}
	if len(defs) > maxGoalPath || !exactChain(att, slices.Max(defs)) {
		return m.o.chainOdds(defs, att)
	}
	mm := &p.memo
	st := m.o.store
	same := mm.n == len(defs) && mm.gen == st.gen && att < st.covers(mm.node)
	for j := 0; same && j < mm.n; j++ {
		same = int(mm.defs[j]) == defs[j]
	}
	if !same {
		mm.node = st.lookup(defs, att+1)
		mm.gen = st.gen
		mm.n = len(defs)
		for j, d := range defs {
			mm.defs[j] = int32(d)
		}
	}
	return st.odds(mm.node, att)
}

// goalBound returns an upper bound of the odds of att attacking armies
// conquering the rest of pursued goal p (as goalOdds gives them): the
// product over its remaining territories of W(att-(j-1), d_j), the odds
// of the j-th battle with all the armies that can reach it, with W = 1
// for a battle beyond the largest battle table, and 1 where goalOdds
// scales the chain (exactChain is false). Once the product is below stop
// it is not multiplied further.
func (m *mediator) goalBound(p *pursuit, att int, stop float64) float64 {
	b := m.b
	u, maxD := 1.0, 0
	for j, v := range m.path(p.g)[p.pos:] {
		if b.Owner[v] == b.me {
			break
		}
		d := b.Armies[v]
		maxD = max(maxD, d)
		if u >= stop { // below stop, only maxD is still wanted
			u *= m.o.boundWin(att-j, d)
		}
	}
	if !exactChain(att, maxD) {
		return 1
	}
	return u
}

// remaining sets mediator.scratch to the defenders of the rest of pursued
// goal p, up to the first territory MARS owns, and returns their sum.
func (m *mediator) remaining(p pursuit) int {
	m.scratch = m.scratch[:0]
	sum := 0
	for _, v := range m.path(p.g)[p.pos:] {
		if m.b.Owner[v] == m.b.me {
			break
		}
		m.scratch = append(m.scratch, m.b.Armies[v])
		sum += m.b.Armies[v]
	}
	return sum
}

// live reports whether pursued goal p goes on: its next target exists
// and is an enemy's.
func (m *mediator) live(p pursuit) bool {
	path := m.path(p.g)
	return p.pos < len(path) && m.b.Owner[path[p.pos]] != m.b.me
}

// bestLive returns the defenders left on agent t's best live goal, the
// one with the highest odds for att attacking armies (the first on ties),
// and false if t pursues no live goal.
func (m *mediator) bestLive(t, att int) (def int, ok bool) {
	best := -1.0
	for i := m.agents[t].phead; i >= 0; i = m.pursuits[i].next {
		p := &m.pursuits[i]
		if !m.live(*p) {
			continue
		}
		if o := m.goalOdds(p, att); o > best {
			best, def, ok = o, m.remaining(*p), true
		}
	}
	return def, ok
}

// thresholdName names the attack threshold in force, with its value.
func (m *mediator) thresholdName(conquered bool) string {
	if conquered {
		return fmt.Sprintf("W_p=%g", m.p.Wp)
	}
	return fmt.Sprintf("W_p1=%g", m.p.Wp1)
}

// explainBids is the number of attack bids an explanation lists, best
// first; the rest are counted.
const explainBids = 5

// explainAttack narrates an attack auction: its outcome (the winning bid
// against the threshold, or why no attack is made), then the bids of the
// auction's agents (every eligible agent bids once), the explainBids best
// of them (highest odds first, ties to the lowest attacking territory, so
// the first is the auction's best) and the count of the rest.
func (m *mediator) explainAttack(c attackChoice, conquered, ok bool) {
	thr := m.thresholdName(conquered)
	switch {
	case !ok && c.odds < 0 && m.p.Attack == AttackGoals:
		fmt.Fprintf(m.w, "  attack: stop, no pursued goal can reach %s (attack_targets = goals)\n", thr)
		return
	case !ok && c.odds < 0:
		fmt.Fprintf(m.w, "  attack: no eligible agent\n")
		return
	case !ok:
		fmt.Fprintf(m.w, "  attack: stop, best bid %s>%s odds %.3f < %s\n", m.name(c.from), m.name(c.to), c.odds, thr)
	default:
		fmt.Fprintf(m.w, "  attack: %s(%d)>%s(%d) odds %.3f >= %s (%s)\n",
			m.name(c.from), m.b.Armies[c.from], m.name(c.to), m.b.Armies[c.to], c.odds, thr, m.bidKind(c))
	}
	slices.SortStableFunc(m.bids, func(x, y attackChoice) int {
		switch {
		case x.odds > y.odds:
			return -1
		case x.odds < y.odds:
			return 1
		}
		return x.from - y.from
	})
	n := min(len(m.bids), explainBids)
	fmt.Fprintf(m.w, "    bids of %d agents", len(m.bids))
	if n < len(m.bids) {
		fmt.Fprintf(m.w, ", best %d", n)
	}
	fmt.Fprintf(m.w, ":")
	for i, x := range m.bids[:n] {
		sep := ";"
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(m.w, "%s %s(%d)>%s(%d) %.3f (%s)", sep,
			m.name(x.from), m.b.Armies[x.from], m.name(x.to), m.b.Armies[x.to], x.odds, m.bidKind(x))
	}
	if n < len(m.bids) {
		fmt.Fprintf(m.w, "; %d more", len(m.bids)-n)
	}
	fmt.Fprintln(m.w)
}

// bidKind names what an attack bid is for: "battle" for a single battle,
// else "goal" and the pursued goal's remaining path.
func (m *mediator) bidKind(c attackChoice) string {
	if c.pursuit < 0 {
		return "battle"
	}
	p := &m.pursuits[c.pursuit]
	return "goal " + m.pathString(p.g, p.pos)
}

// occupy decides how many armies move from `from` into the conquered
// `to`, within [lo, hi], and hands goals on. Every goal `from` pursues
// whose next target is `to` leaves it: a goal that ends at `to` is
// achieved, every other one passes to to's agent, with `to` behind it.
// Then, with the live goals (next target an enemy's) of both sides:
//
//   - a handed-on goal is live and `from` keeps none: every army allowed
//     moves in (hi; the goal's chain odds assume it);
//   - both sides have a live goal: the armies are split in proportion to
//     the defenders left on each side's best live goal (the one of highest
//     odds with from's armies-1 attackers, up to the first territory MARS
//     owns): `to` gets armies(from)·D_to/(D_to+D_from);
//   - otherwise they are split in proportion to the strongest enemy stack
//     each side faces (all stay behind if `to` faces none, all move in if
//     `from` faces none).
//
// The result is clamped to [lo, hi].
func (m *mediator) occupy(from, to, lo, hi int) int {
	b := m.b
	fa := &m.agents[from]
	ta := &m.agents[to]
	ta.phead, ta.ptail = -1, -1
	prev := -1
	for i := fa.phead; i >= 0; {
		p := m.pursuits[i] // a copy: pursue may move the buffer
		path := m.path(p.g)
		if p.pos >= len(path) || path[p.pos] != to {
			prev, i = i, p.next
			continue
		}
		// Unlink the goal from `from` and hand it on.
		m.atkValid &^= 1 << (from & 63)
		if prev >= 0 {
			m.pursuits[prev].next = p.next
		} else {
			fa.phead = p.next
		}
		if fa.ptail == i {
			fa.ptail = prev
		}
		if p.pos+1 < len(path) {
			m.pursue(to, p.g, p.pos+1)
		}
		i = p.next
	}
	total := b.Armies[from] // armies to share, one of which must stay
	dt, goesOn := m.bestLive(to, total-1)
	df, stays := m.bestLive(from, total-1)
	var k, et, ef int
	switch {
	case goesOn && !stays:
		k = hi
	case goesOn && stays && dt+df > 0:
		k = total * dt / (dt + df)
	default:
		goesOn = false // for the explanation: the enemy stacks decide
		ef = b.maxEnemy(from, nil)
		et = b.maxEnemy(to, nil)
		switch {
		case ef == 0:
			k = hi
		case et == 0:
			k = lo
		default:
			k = total * et / (et + ef)
		}
	}
	k = min(max(k, lo), hi)
	if m.w != nil {
		rule := fmt.Sprintf("strongest enemy %d ahead, %d behind", et, ef)
		switch {
		case goesOn && !stays:
			rule = "goal goes on"
		case goesOn:
			rule = fmt.Sprintf("goals on both sides, defenders %d ahead, %d behind", dt, df)
		}
		fmt.Fprintf(m.w, "  occupy %s: move %d of [%d, %d] from %s (%s)", m.name(to), k, lo, hi, m.name(from), rule)
		m.explainPursuits("; goals handed on: ", ta.phead)
	}
	return k
}
