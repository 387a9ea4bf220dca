package mars

import (
	"math"
	"math/bits"
	"slices"
)

// pPrune is the least odds a goal chain may have to be kept (a speed
// measure, not a paper parameter). A chain is dropped, and not passed on,
// when even an agent attacking with all of its armies and every new army
// has odds below pPrune of conquering it, by the true upper bound of
// odds.mayReach; extending a chain only lowers its odds, so no longer
// chain through it could be kept either. It is still a heuristic in its
// effect: a dropped chain's offensive bid is at most P_ob·pPrune·w, which
// can win an auction when every other bid is smaller, so pruning can
// change a decision (with pPrune = 0, 1 of 150 seeded six-player games,
// seed 1, ends differently; pruning saves about 6 % of the time per game).
// The test it replaces (one battle of a-(k-1) armies against the chain's
// total defenders) was no bound: 5 attackers against five 1-army
// territories have odds of 6.9 %, the battle 0.18 %.
const pPrune = 0.01

// message is a placement message travelling between territory agents: a
// chain of k enemy territories and the sum of their defending armies. The
// chain is its last territory after the chain of the message it extends
// (parent, an index in mediator.msgs, -1 for an originator's message). The
// sum of the chain's values that the agents append is taken when an agent
// stores the message (see store), from the chain.
type message struct {
	last, parent, k int32
	origin          int32 // the originator: the goal territory
	def             int
	seen            uint64 // bit t set for every territory t of the chain (maps with neighbour masks)
}

// relay is the placement's goal propagation state (see propagate): the
// messages, the goals the own agents stored and what the goals of one
// message share, rebuilt at each placement.
type relay struct {
	msgs    []message
	goals   []goal
	paths   []int
	onPath  []bool
	reached []uint64    // goal_paths = shortest, maps without neighbour masks (byOrigin on the others): bit o of row t set once a message of originator o reached agent t
	ccs     []oddsCache // per-message odds caches of this placement (goal.cc)
	ccOf    []int32     // by message, 1 + its oddsCache's index in ccs, 0 for none (relaySmall; see childCache)
	bnd     []float64   // bid-bound numerators by attacking armies (oddsCache.bo), zero beyond bndN
	bndN    int         // the numerators of bnd the placement's caches use

	// reachOwn (maps with neighbour masks) holds the own territories a
	// message can still reach, by territory and extensions left, and
	// byOrigin (goal_paths = shortest, nil otherwise; in the buffer
	// origins) those each originator's messages have reached (see
	// reachable).
	reachOwn, byOrigin, origins []uint64
	// claimed (goal_paths = shortest, maps with neighbour masks) holds,
	// by originator, the own territories next to the ends of the
	// messages extend has made so far in one pass: they store those
	// messages first (see extend).
	claimed [64]uint64
	// minDef (goal_paths = shortest, maps with neighbour masks) holds, by
	// originator and territory, the fewest defenders of a chain of that
	// originator ending there that extend has made in this placement, 0
	// for none: a later chain ending there with as many defenders or more
	// is dominated (see extend). Cleared by relaySmall.
	minDef [64][64]int32
	// agLim (goal_paths = all, maps with neighbour masks) holds, by chain
	// length k and own territory t, the least defenders of a chain of k
	// territories t may not reach (see agentLimits), set for the own
	// territories at each placement; extLim, by enemy territory, the
	// defenders below which extend sends an extension (see extLimits).
	agLim  [maxGoalPath + 1][64]int32
	extLim [64]int32
	// liveAt[j] (maps with neighbour masks) has bit v set when row j of
	// reachOwn has an own territory for v.
	liveAt [maxGoalPath]uint64
	// mine (maps with neighbour masks, board.nmask) has the own
	// territories' bits, set at each placement by reachableMasks.
	mine uint64
	// near (maps with neighbour masks) holds, by enemy territory, the
	// armies of the own territories next to it (see nearby), made at
	// newCache's first read in a placement: nearOwn has the bits of the
	// territories whose entry is made (cleared by reachableMasks).
	near    [64]nearby
	nearOwn uint64
}

// goal is a goal stored by an own territory agent: the path to conquer,
// in attack order (first the territory next to the agent), its length,
// defenders and threat are its oddsCache's (the goals of one message
// share them); w is its value (the sum of the values V_c the chain's
// agents appended, or the goal territory's V_c; see [GoalValue]), kept here
// for the bid bounds' first test.
type goal struct {
	w    float64
	from int32
	next int32 // next goal of the same agent, or -1
	cc   int32 // index of the goal's oddsCache in mediator.ccs
	won  bool  // the goal has won an auction this placement
}

// oddsCache holds, for one placement, what the goals stored from one
// message share: the agents next to the chain's end store goals with the
// same path, value, defenders and threat, so the path, the threat, the
// chain odds (a node of the odds store, shared further by every chain
// with the same defenders) and the numerators of the bid bound by attacking
// armies a are kept once. It lives until the next propagate.
type oddsCache struct {
	// off and threat are the goals' path offset in mediator.paths and
	// their threat (the largest enemy stack next to the last territory
	// outside the path), the same for all of them; k, def and w their path
	// length, the sum of their defenders and their value (goal.w).
	off, threat int
	k, def      int
	w           float64
	// defs[:k] are the defenders of the path in attack order, maxD the
	// largest of them.
	defs  [maxGoalPath]int32
	maxD  int
	cv    int // the chain odds' node in the odds store, -1 until needed
	cvGen int // the store generation of cv
	// bo is the offset in mediator.bnd of the numerators P_ob·p̄·w·d of
	// the bid bound (see offensive) for attacking armies a = alo..alo+na-1
	// (every a any of the goals' agents can attack with), stored negated
	// (exact; numerators are >= 0, a computed 0 is stored as -0) so that
	// the +0 of a fresh buffer means "not computed yet". na is 0 (nothing
	// kept) when it would exceed maxBoundSpan.
	bo, alo, na int
}

// maxBoundSpan is the most attacking-army counts an oddsCache keeps bid
// bound numerators for, so that the buffer stays bounded when stacks of
// thousands of armies border a chain.
const maxBoundSpan = 1024

// path returns the goal's territories in attack order.
func (m *mediator) path(g int) []int {
	c := &m.ccs[m.goals[g].cc]
	return m.paths[c.off : c.off+c.k]
}

// propagate runs the first step of the placement phase (MARS paper,
// "Place armies"): every enemy territory agent sends a message with its
// value and its defending armies to its neighbours; an enemy agent that
// receives a message appends its own value and armies and passes it on;
// a message whose chain would exceed G_l territories is discarded; an own
// agent that receives a message stores it as a goal (and does not pass it
// on). A chain never visits a territory twice. Chains whose odds are
// below pPrune even with every army MARS could bring are dropped (see
// pPrune; n, the number of armies to be placed, is used only there).
// Messages travel breadth-first, so the goal order is deterministic.
// Under goal_paths = shortest an own agent keeps only the first message of
// each originator to reach it, one of the fewest territories (see store).
//
// The messages travel by one of two loops that make the same goals in the
// same order (TestRelaySmallMatchesGeneral): relaySmall on maps with
// neighbour masks (board.nmask: at most 64 territories, every map the
// loader reads), which also does not send a message where neither it nor
// any longer chain through it could be stored (see reachable and
// mayStore), and relayLists, which follows the neighbour lists and sends
// every chain, on the others.
func (m *mediator) propagate(n int) {
	b := m.b
	if m.p.GoalPaths == GoalPathsShortest && b.nmask == nil {
		words := (len(b.Owner) + 63) / 64
		if need := len(b.Owner) * words; cap(m.reached) < need {
			m.reached = make([]uint64, need)
		} else {
			m.reached = m.reached[:need]
			clear(m.reached)
		}
	}
	m.msgs = m.msgs[:0]
	m.ccOf = m.ccOf[:0] // kept by relaySmall only
	m.goals = m.goals[:0]
	m.paths = m.paths[:0]
	// The numerators the last placement used are zeroed ("not
	// computed") at once; new caches take their ranges from bnd[bndN:].
	clear(m.bnd[:m.bndN])
	m.bndN = 0
	m.ccs = m.ccs[:0]
	amax := 0
	for t := range b.Owner {
		a := &m.agents[t]
		a.head, a.ngoals = -1, 0
		a.ra = -1
		a.seed = [2]int{-1, -1}
		a.defN = -1
		if b.Owner[t] == b.me {
			amax = max(amax, b.Armies[t])
			a.reach[0] = -1 // a.reach is set by the agent's first store
		}
	}
	amax += n - 1
	gl := m.p.Gl
	// reach[k] is the least total defenders of a k-territory chain that
	// amax attackers may not reach (mayReach: def < reach[k] keeps it).
	var reach [maxGoalPath + 1]int
	for k := 1; k <= gl; k++ {
		if amax-k >= 0 {
			reach[k] = m.o.limit(amax - k)
		}
	}
	masks := b.nmask != nil
	if masks {
		m.reachable(gl)
	} else {
		m.byOrigin = nil // relayLists marks the agents reached in m.reached
	}
	// Under goal_value = target every goal of an originator is worth its
	// value V_c: where that is not positive, none would ever bid (see
	// roughBounds and goalBid), so the originator sends nothing.
	target := m.p.GoalValue == GoalValueTarget
	for t := range b.Owner {
		if b.Owner[t] != b.me && (!target || m.vals[t] > 0) && (!masks || m.mayStore(t, t, gl-1)) {
			m.msgs = append(m.msgs, message{last: int32(t), parent: -1, k: 1, origin: int32(t), def: b.Armies[t], seen: 1 << (t & 63)})
		}
	}
	if masks {
		m.relaySmall(n, gl, &reach)
	} else {
		m.relayLists(n, gl, &reach)
	}
}

// relayLists is propagate's message loop on maps without neighbour masks:
// each message is stored by the own agents next to its chain's end and
// extended to every enemy neighbour off the chain (a walk up the parents)
// whose defenders some own agent may reach, in the order of the neighbour
// lists. reach is propagate's limit on the defenders of a chain by its
// length.
func (m *mediator) relayLists(n, gl int, reach *[maxGoalPath + 1]int) {
	b := m.b
	for h := 0; h < len(m.msgs); h++ {
		msg := m.msgs[h]
		last := int(msg.last)
		cc := -1 // the message's oddsCache, made at its first goal
		if int(msg.k) >= gl {
			// A longer chain would exceed G_l: the message is only stored.
			for _, u := range b.nbr[last] {
				if b.Owner[u] == b.me {
					cc = m.store(u, h, n, cc)
				}
			}
			continue
		}
	next:
		for _, u := range b.nbr[last] {
			// An own territory is never on the (enemy) chain.
			if b.Owner[u] == b.me {
				cc = m.store(u, h, n, cc)
				continue
			}
			for j := h; j >= 0; j = int(m.msgs[j].parent) {
				if int(m.msgs[j].last) == u {
					continue next
				}
			}
			def := msg.def + b.Armies[u]
			if def >= reach[msg.k+1] || len(m.msgs) >= maxRelay { // !m.o.mayReach(amax, msg.k+1, def)
				continue
			}
			m.msgs = append(m.msgs, message{last: int32(u), parent: int32(h), k: msg.k + 1, origin: msg.origin, def: def, seen: msg.seen | 1<<(u&63)})
		}
	}
}

// relaySmall is propagate's message loop on maps with neighbour masks
// (board.nmask): the neighbours of a chain's end that are not on the chain
// are the bits of one word, visited from the lowest, in the order of the
// neighbour lists, so the messages, the goals and their order are those of
// propagate's general loop. reach is propagate's limit on the defenders of
// a chain by its length.
func (m *mediator) relaySmall(n, gl int, reach *[maxGoalPath + 1]int) {
	b := m.b
	mine, nmask := m.mine, b.nmask
	nt := len(b.Owner)
	bo := m.byOrigin // nil unless goal_paths = shortest
	m.ccOf = m.ccOf[:0]
	if bo != nil {
		for _, msg := range m.msgs { // the originators' messages
			clear(m.minDef[msg.origin][:])
		}
	} else {
		m.agentLimits(n, gl)
	}
	// Messages travel breadth-first: msgs[start:end] are those of k
	// territories, and their extensions follow them.
	for start := 0; start < len(m.msgs); {
		end, k := len(m.msgs), int(m.msgs[start].k)
		// ccOf[start:end] zeroed: no oddsCache until a store makes one.
		m.ccOf = append(m.ccOf, make([]int32, end-start)...)
		ccOf := m.ccOf[:end]
		// The agents next to each chain's end store it, in the messages'
		// order; then the chains are extended. Under goal_paths = shortest
		// an extension that could reach only agents a message of this
		// length has reached would arrive after it and store nothing.
		for h := start; h < end; h++ {
			msg := &m.msgs[h]
			own := nmask[msg.last] & mine
			if bo != nil {
				own &^= bo[msg.origin]
			}
			cc := -1 // the message's oddsCache, made at its first goal
			for ; own != 0; own &= own - 1 {
				cc = m.store(bits.TrailingZeros64(own), h, n, cc)
			}
			if cc >= 0 {
				ccOf[h] = int32(cc + 1)
			}
		}
		if k < gl { // a longer chain must not exceed G_l
			row := m.reachOwn[(gl-k-1)*nt : (gl-k)*nt]
			if bo != nil {
				m.extendShortest(start, end, k, reach[k+1], row, m.liveAt[gl-k-1])
			} else {
				m.extend(start, end, k, gl, m.liveAt[gl-k-1])
			}
		}
		start = end
	}
}

// extend sends the extensions of the messages msgs[start:end], each of k
// territories (see relaySmall), under goal_paths = all with goal chains of
// at most gl territories: to every enemy neighbour u of the chain's end
// off the chain, with a live row of mayStore's masks (live has the bits of
// the territories whose row is not empty), if some own territory may store
// the extension or a chain through it: the chain's defenders def stay
// below extLim[u] (see extLimits). A chain through the extension stored
// by an agent r territories beyond u has k+1+r territories and at least
// def+r defenders (every territory holds an army), and an agent that may
// not reach those would drop it (see store): an extension that fails the
// test, and every chain through it, stores nothing, so the goals and their
// order stay those of sending it.
func (m *mediator) extend(start, end, k, gl int, live uint64) {
	nt := len(m.b.nmask)
	nmask, armies := m.b.nmask, m.b.Armies[:nt]
	enemy := ^m.mine & live
	m.extLimits(k, gl, enemy)
	lim := m.extLim[:nt]
	msgs := m.msgs
messages:
	for h := start; h < end; h++ {
		msg := msgs[h]
		for ext := nmask[msg.last] &^ msg.seen & enemy; ext != 0; ext &= ext - 1 {
			u := bits.TrailingZeros64(ext)
			def := msg.def + armies[u]
			if def >= int(lim[u]) {
				continue
			}
			if len(msgs) >= maxRelay {
				break messages
			}
			var x *message
			msgs, x = nextSlot(msgs)
			x.last, x.parent, x.k, x.origin, x.def, x.seen = int32(u), int32(h), int32(k+1), msg.origin, def, msg.seen|1<<u
		}
	}
	m.msgs = msgs
}

// extLimits sets mediator.extLim[u], for every territory u of enemy, for
// extensions of chains of k territories to u (goal chains of at most gl
// territories): the most defenders plus one a chain of k+1 territories
// ending at u may hold for some own territory t to store it or a chain
// through it, the largest over t and r of agentLim(t, k+1+r)-r, r the
// fewest extensions after u that reach a territory next to t (t in
// mayStore's row of r extensions left for u and not in the row of r-1).
// Rows grow with r and the limits fall with the chain's length, so a later
// row gives t no larger limit.
func (m *mediator) extLimits(k, gl int, enemy uint64) {
	nt := len(m.b.nmask)
	j := gl - k - 1 // the extensions left after u
	for e := enemy; e != 0; e &= e - 1 {
		u := bits.TrailingZeros64(e)
		best := 0
		var prev uint64
		for r := 0; r <= j; r++ {
			row := m.reachOwn[r*nt+u]
			lims := &m.agLim[k+1+r]
			for x := row &^ prev; x != 0; x &= x - 1 {
				best = max(best, int(lims[bits.TrailingZeros64(x)])-r)
			}
			prev = row
		}
		m.extLim[u] = int32(min(best, math.MaxInt32))
	}
}

// nextSlot extends s by one element and returns s and that element, to be
// written in place: append would build the element aside and copy it. The
// element keeps what the buffer held there, so the caller writes every
// field it reads later. nextSlot is inlined; the growth is not.
func nextSlot[T any](s []T) ([]T, *T) {
	n := len(s)
	if n == cap(s) {
		s = growSlot(s)
	}
	s = s[:n+1]
	return s, &s[n]
}

// growSlot makes room for one more element of s (see nextSlot).
func growSlot[T any](s []T) []T { return slices.Grow(s, 1) }

// agentLimits fills mediator.agLim for goal_paths = all on a map with
// neighbour masks and n armies to place: for chains of k = 1..gl
// territories, agLim[k][t] is the least total defenders of a chain of k
// territories that own territory t's armies and the n new ones may not
// reach (odds.mayReach, the limit store applies; 0 for none).
func (m *mediator) agentLimits(n, gl int) {
	armies := m.b.Armies
	for k := 1; k <= gl; k++ {
		lims := &m.agLim[k]
		for x := m.mine; x != 0; x &= x - 1 {
			t := bits.TrailingZeros64(x)
			l := 0
			if r := armies[t] - 1 + n - k; r >= 0 {
				l = min(m.o.limit(r), math.MaxInt32)
			}
			lims[t] = int32(l)
		}
	}
}

// extendShortest is extend under goal_paths = shortest: to every enemy
// neighbour of the chain's end off the chain, with a live row of
// mayStore's masks, if the chain's defenders stay below lim and the row
// has an own territory the originator's messages have not reached. An
// extension is also not sent when it is dominated: an earlier chain of the
// same originator, of at most as many territories, ends at the same
// territory with at most as many defenders (mediator.minDef). Such a chain, and every longer chain through it,
// stores nothing. Take a chain P2 + S that reaches agent t, with P2 the
// dominated chain and P1 the dominating one. If P1 + S visits no territory
// twice, the messages would make it without the pruning (which drops only
// chains that store nothing): at each length its defenders are at most
// those of P2 + S, and the limit does not grow with length. It reaches t
// at a smaller length, or at the same length earlier in the messages'
// order (the lexicographic order of their territories, in which P1 comes
// first), and t keeps that message. If P1 + S visits a territory twice,
// cutting out the loop leaves a shorter chain to t's neighbour, which
// reaches t earlier still. Either way P2 + S is not the first message of
// its originator to reach t.
func (m *mediator) extendShortest(start, end, k, lim int, row []uint64, live uint64) {
	nt := len(m.b.nmask)
	nmask, armies, row := m.b.nmask, m.b.Armies[:nt], row[:nt]
	bo := m.byOrigin
	mine := m.mine
	enemy := ^mine & live
	clear(m.claimed[:])
	msgs := m.msgs
messages:
	for h := start; h < end; h++ {
		msg := msgs[h]
		o := msg.origin & 63 // an originator is a territory of the map
		for ext := nmask[msg.last] &^ msg.seen & enemy; ext != 0; ext &= ext - 1 {
			u := bits.TrailingZeros64(ext)
			def := msg.def + armies[u]
			if def >= lim {
				continue
			}
			// A dominated chain stores nothing (see extend).
			md := &m.minDef[o][u&63]
			if *md != 0 && int(*md) <= def {
				continue
			}
			if def <= math.MaxInt32 {
				*md = int32(def)
			}
			// The own territories the originator's messages have
			// reached, and those next to the ends of its extensions
			// made before this one in this pass, are stored from
			// earlier messages: a chain that could reach only those
			// would store nothing.
			if row[u]&^(bo[o]|m.claimed[o]) == 0 {
				continue
			}
			if len(msgs) >= maxRelay {
				break messages
			}
			m.claimed[o] |= nmask[u] & mine
			var x *message
			msgs, x = nextSlot(msgs)
			x.last, x.parent, x.k, x.origin, x.def, x.seen = int32(u), int32(h), int32(k+1), msg.origin, def, msg.seen|1<<u
		}
	}
	m.msgs = msgs
}

// reachable fills mediator.reachOwn for a map with neighbour masks
// (board.nmask) and goal chains of at most gl territories: row j holds,
// for every enemy territory v, the bit set of the own territories next to
// v or to the end of a chain of at most j more enemy territories from v
// (any walk: a superset of the simple chains a message can extend to). A
// message at v with j extensions left can be stored only by the agents of
// row j; under goal_paths = shortest it also clears byOrigin, the own
// territories each originator's messages have reached (see mayStore).
func (m *mediator) reachable(gl int) {
	n := len(m.b.Owner)
	if need := gl * n; cap(m.reachOwn) < need {
		m.reachOwn = make([]uint64, need)
	} else {
		m.reachOwn = m.reachOwn[:need]
	}
	m.reachableMasks(gl)
	m.byOrigin = nil
	if m.p.GoalPaths == GoalPathsShortest {
		if cap(m.origins) < n {
			m.origins = make([]uint64, n)
		}
		m.byOrigin = m.origins[:n]
		clear(m.byOrigin)
	}
}

// reachableMasks is reachable's loop: the own and enemy neighbours of a
// territory are the bits of its mask in and out of the own territories'
// set.
func (m *mediator) reachableMasks(gl int) {
	b := m.b
	n := len(b.Owner)
	var mine uint64
	for t, o := range b.Owner {
		if o == b.me {
			mine |= 1 << t
		}
	}
	m.mine = mine
	m.nearOwn = 0
	enemies := (^mine) & (1<<n - 1)
	if n == 64 {
		enemies = ^mine
	}
	nmask := b.nmask[:n]
	row := m.reachOwn[:n]
	clear(row)      // own territories: empty rows
	var live uint64 // the territories whose row is not empty
	for e := enemies; e != 0; e &= e - 1 {
		v := bits.TrailingZeros64(e)
		if r := nmask[v] & mine; r != 0 {
			row[v] = r
			live |= 1 << v
		}
	}
	m.liveAt[0] = live
	for j := 1; j < gl; j++ {
		prev := row
		row = m.reachOwn[j*n : (j+1)*n]
		clear(row)
		for e := enemies; e != 0; e &= e - 1 {
			v := bits.TrailingZeros64(e)
			r := prev[v]
			for x := nmask[v] & enemies; x != 0; x &= x - 1 {
				r |= prev[bits.TrailingZeros64(x)]
			}
			row[v] = r
			if r != 0 {
				live |= 1 << v // rows grow with j
			}
		}
		m.liveAt[j] = live
	}
}

// mayStore reports whether a message of originator o at enemy territory v
// with j extensions left can still give a goal (maps with neighbour
// masks; see reachable): some own territory it or a longer chain
// through it may reach and, under goal_paths = shortest, that no message
// of o has reached yet. Messages travel breadth-first and an originator's
// later messages are dropped where an earlier one arrived (see store), so
// a message that is not live, and every chain through it, would store no
// goal and change nothing: dropping it leaves every goal and its order as
// they are.
func (m *mediator) mayStore(v, o, j int) bool {
	r := m.reachOwn[j*len(m.b.Owner)+v]
	if m.byOrigin != nil {
		r &^= m.byOrigin[o]
	}
	return r != 0
}

// store lets own agent t keep message h as a goal, reversing the chain
// into attack order, unless its odds with all of t's armies and the n new
// ones are below pPrune (by odds.mayReach), or, under goal_paths =
// shortest, an earlier message of the same originator has reached t (kept
// or dropped: messages travel breadth-first, so the first is one of the
// shortest paths). cc is the message's oddsCache (-1 if none yet); store
// returns it, made if needed. The goals of one message share their path
// and threat. The goal's value w is the message's sum of values, or under
// goal_value = target the originator's value.
func (m *mediator) store(t, h, n, cc int) int {
	b := m.b
	msg := &m.msgs[h]
	a := &m.agents[t]
	if m.byOrigin != nil {
		// goal_paths = shortest on a map with neighbour masks: the
		// agents each originator's messages have reached are bits.
		bit := uint64(1) << (t & 63)
		if m.byOrigin[msg.origin]&bit != 0 {
			return cc
		}
		m.byOrigin[msg.origin] |= bit
	} else if m.p.GoalPaths == GoalPathsShortest {
		words := (len(b.Owner) + 63) / 64
		i, bit := t*words+int(msg.origin)/64, uint64(1)<<(msg.origin%64)
		if m.reached[i]&bit != 0 {
			return cc
		}
		m.reached[i] |= bit
	}
	if a.reach[0] < 0 {
		// a.reach[k]: the mayReach limit of a k-territory goal of t with
		// all of t's armies and the n new ones.
		a.reach[0] = 0
		for k := 1; k <= m.p.Gl; k++ {
			a.reach[k] = 0
			if r := b.Armies[t] - 1 + n - k; r >= 0 {
				a.reach[k] = m.o.limit(r)
			}
		}
	}
	if msg.def >= a.reach[msg.k] { // !m.o.mayReach(b.Armies[t]-1+n, msg.k, msg.def)
		return cc
	}
	if cc < 0 {
		cc = m.newCache(t, h, n)
	}
	c := &m.ccs[cc]
	g := len(m.goals)
	var x *goal
	m.goals, x = nextSlot(m.goals)
	x.w, x.from, x.next, x.cc, x.won = c.w, int32(t), -1, int32(cc), false
	// Keep each agent's goals in arrival order: append at the tail.
	if a.head < 0 {
		a.head = g
	} else {
		m.goals[a.tail].next = int32(g)
	}
	a.tail = g
	a.ngoals++
	return cc
}

// newCache makes the oddsCache of message h for store, at the first goal
// stored from it (own agent t, n armies to place), and returns its index
// in mediator.ccs.
func (m *mediator) newCache(t, h, n int) int {
	b := m.b
	msg := &m.msgs[h]
	if p := int(msg.parent); uint(p) < uint(len(m.ccOf)) {
		if pc := m.ccOf[p]; pc > 0 {
			return m.childCache(h, int(pc-1), n)
		}
	}
	// The path in attack order and its defenders, written in place: the
	// chain has msg.k territories.
	k := int(msg.k)
	off := len(m.paths)
	if cap(m.paths)-off < k {
		m.paths = slices.Grow(m.paths, k)
	}
	m.paths = m.paths[:off+k]
	path := m.paths[off : off+k]
	var defs [maxGoalPath]int32
	maxD := 0
	msgs, armies := m.msgs, b.Armies
	j := h
	for i := range path {
		v := int(msgs[j].last)
		path[i] = v
		d := armies[v]
		defs[i] = int32(d)
		maxD = max(maxD, d)
		j = int(msgs[j].parent)
	}
	end := path[k-1] // the originator
	var threat int
	if b.nmask != nil {
		// The enemy neighbours of end off the path are bits.
		for x := b.nmask[end] &^ m.mine &^ msg.seen; x != 0; x &= x - 1 {
			threat = max(threat, b.Armies[bits.TrailingZeros64(x)])
		}
	} else {
		for _, v := range m.paths[off:] {
			m.onPath[v] = true
		}
		threat = b.maxEnemy(end, m.onPath)
		for _, v := range m.paths[off:] {
			m.onPath[v] = false
		}
	}
	// An agent attacks with a = armies-1+i for i = 0..n new armies; the
	// armies it wins in the auction leave fewer to bid for, so a stays in
	// this range for the whole placement. The cache covers the range of
	// every own agent next to the chain's end.
	var lo, hi int
	if b.nmask != nil {
		// Kept by territory for the placement (t is among them).
		l := msg.last & 63
		if m.nearOwn&(1<<l) == 0 {
			m.nearOwns(int(l))
		}
		lo, hi = m.near[l].lo, m.near[l].hi
	} else {
		lo, hi = b.Armies[t], b.Armies[t]
		for _, u := range b.nbr[msg.last] {
			if b.Owner[u] == b.me {
				lo, hi = min(lo, b.Armies[u]), max(hi, b.Armies[u])
			}
		}
	}
	// The chain's value: the originator's under goal_value = target, else
	// the sum of its territories' values, added from the originator on as
	// the agents append them.
	w := m.vals[msg.origin]
	if m.p.GoalValue != GoalValueTarget {
		path, vs := m.paths[off:off+k], m.vals
		w = vs[path[k-1]]
		for j := k - 2; j >= 0; j-- {
			w += vs[path[j]]
		}
	}
	na := hi - lo + n + 1
	if na > maxBoundSpan {
		na = 0 // computed on every call: stacks of very different size
	}
	cc := len(m.ccs)
	var c *oddsCache
	m.ccs, c = nextSlot(m.ccs)
	c.defs = defs
	c.off, c.threat, c.k, c.def, c.w = off, threat, int(msg.k), msg.def, w
	c.maxD, c.cv, c.cvGen = maxD, -1, 0
	c.bo, c.na = m.takeBnd(na)
	c.alo = lo - 1
	return cc
}

// childCache is newCache for message h whose parent has oddsCache pc
// (relaySmall, maps with neighbour masks): h's path in attack order is its
// last territory followed by the parent's path, so the path and the
// defenders are the parent's shifted by one, the largest defender and,
// under goal_value = sum, the value (summed from the originator on, the
// parent's sum plus the last territory's value, in the same order) follow
// from the parent's, and the threat is the parent's unless the last
// territory is next to the originator. The cache is the one newCache's
// walk of the chain would make (TestRelaySmallMatchesGeneral).
func (m *mediator) childCache(h, pc, n int) int {
	b := m.b
	msg := &m.msgs[h]
	last, k := int(msg.last), int(msg.k)
	cc := len(m.ccs)
	var c *oddsCache
	m.ccs, c = nextSlot(m.ccs)
	p := &m.ccs[pc] // after nextSlot, which may move the caches
	// The path and the defenders element by element: copy would call
	// memmove for a few words.
	off := len(m.paths)
	if cap(m.paths)-off < k {
		m.paths = slices.Grow(m.paths, k)
	}
	paths := m.paths[:off+k]
	m.paths = paths
	src, dst := paths[p.off:p.off+k-1], paths[off+1:off+k]
	paths[off] = last
	for i := range dst {
		dst[i] = src[i]
	}
	d := b.Armies[last]
	var defs [maxGoalPath]int32
	defs[0] = int32(d)
	for i := 1; i < k; i++ {
		defs[i] = p.defs[i-1]
	}
	c.defs = defs
	end := int(msg.origin)
	threat := p.threat
	if b.nmask[end]&(1<<(last&63)) != 0 {
		threat = 0
		for x := b.nmask[end] &^ m.mine &^ msg.seen; x != 0; x &= x - 1 {
			threat = max(threat, b.Armies[bits.TrailingZeros64(x)])
		}
	}
	w := m.vals[end]
	if m.p.GoalValue != GoalValueTarget {
		w = p.w + m.vals[last]
	}
	l := last & 63
	if m.nearOwn&(1<<l) == 0 {
		m.nearOwns(l)
	}
	lo, hi := m.near[l].lo, m.near[l].hi
	na := hi - lo + n + 1
	if na > maxBoundSpan {
		na = 0 // computed on every call: stacks of very different size
	}
	c.off, c.threat, c.k, c.def, c.w = off, threat, k, msg.def, w
	c.maxD, c.cv, c.cvGen = max(p.maxD, d), -1, 0
	c.bo, c.na = m.takeBnd(na)
	c.alo = lo - 1
	return cc
}

// takeBnd returns the offset in mediator.bnd of na zeroed numerators for
// a new oddsCache, and na: the buffer is zero beyond bndN (propagate
// clears the last placement's range), and grows, zeroed, only when full.
// Past maxBnd numerators in a placement a cache keeps none (na 0): its
// numerators are computed on every call, the same values.
func (m *mediator) takeBnd(na int) (bo, n int) {
	bo = m.bndN
	if bo+na > maxBnd {
		return bo, 0
	}
	if bo+na > len(m.bnd) {
		m.growBnd(bo + na)
	}
	m.bndN = bo + na
	return bo, na
}

// The bounds on one placement's work, which bound a MARS bot's memory
// whatever its parameters (docs/mars.md, "Cost of a decision"):
// maxRelay messages are relayed at most, breadth-first (the shortest
// chains first; at the limit the chains not yet sent are dropped, which
// can change a decision only at parameter values that reach it: G_l 9 or
// 10 under goal_paths = all with armies far above the defenders'), and
// at most maxBnd bid-bound numerators are kept (beyond, they are computed
// again, with the same values). A message is 40 bytes, its odds cache
// about 140 and its path 8 a territory, and each own neighbour of its end
// stores a 24-byte goal: with G_l 10 and six neighbours the buffers of a
// bot at the limit are about 60 MiB.
const (
	maxRelay = 1 << 17
	maxBnd   = 1 << 20
)

// growBnd makes mediator.bnd at least need numerators long, the new ones
// zero.
func (m *mediator) growBnd(need int) {
	nb := make([]float64, max(need, 2*len(m.bnd), 1024))
	copy(nb, m.bnd[:m.bndN])
	m.bnd = nb
}

// nearby holds, for a territory v of a map with neighbour masks, the
// fewest (lo) and the most (hi) armies of the own territories next to v
// (0 and 0 when there are none), the range of attacking armies newCache
// covers.
type nearby struct {
	lo, hi int
}

// nearOwns makes mediator.near[v].
func (m *mediator) nearOwns(v int) {
	armies := m.b.Armies
	lo, hi := 0, 0
	if x := m.b.nmask[v] & m.mine; x != 0 {
		lo = armies[bits.TrailingZeros64(x)]
		hi = lo
		for x &= x - 1; x != 0; x &= x - 1 {
			a := armies[bits.TrailingZeros64(x)]
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	e := &m.near[v&63]
	e.lo, e.hi = lo, hi
	m.nearOwn |= 1 << (v & 63)
}
