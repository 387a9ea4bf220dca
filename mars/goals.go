package mars

import "math"

// pPrune is the least odds a goal chain may have to be kept: a chain is
// discarded as soon as even an agent attacking with all of its armies and
// every new army (a) has less than pPrune odds in one battle of a-(k-1)
// armies against the chain's total defenders (k territories). It is a
// speed heuristic, not a paper parameter: such goals could never win an
// auction against any sensible alternative.
const pPrune = 0.01

// message is a placement message travelling between territory agents: a
// chain of enemy territories (originator first, stored in
// mediator.msgPath[off:off+k]), the sum of their values and the sum of
// their defending armies.
type message struct {
	off, k int
	w      float64
	def    int
	seen   uint64 // bit t set for every territory t of the chain (maps of at most 64 territories)
}

// goal is a goal stored by an own territory agent: the path to conquer,
// in attack order (first the territory next to the agent), stored in
// mediator.paths[off:off+k]; w is its value (the sum of the values V_c the
// chain's agents appended), def the sum of its defenders, threat the
// largest enemy stack next to its last territory outside the path.
type goal struct {
	from   int
	off, k int
	w      float64
	def    int
	threat int
	next   int // next goal of the same agent, or -1
	vec    int // offset of the goal's chain odds in mediator.vecs
	nvec   int // number of chain odds at vec (a = 0..nvec-1), 0 for none
	// bo is the offset in mediator.bnd of the cached numerators
	// P_ob·p̄·w·d of the goal's bid bound (see offensive) for attacking
	// armies a = alo..alo+na-1, NaN until computed.
	bo, alo, na int
	won         bool // the goal has won an auction this placement
}

// path returns the goal's territories in attack order.
func (m *mediator) path(g int) []int {
	x := &m.goals[g]
	return m.paths[x.off : x.off+x.k]
}

// propagate runs the first step of the placement phase (MARS paper,
// "Place armies"): every enemy territory agent sends a message with its
// value and its defending armies to its neighbours; an enemy agent that
// receives a message appends its own value and armies and passes it on;
// a message whose chain would exceed G_l territories is discarded; an own
// agent that receives a message stores it as a goal (and does not pass it
// on). A chain never visits a territory twice. n is the number of armies
// to be placed (used only by the pPrune heuristic). Messages travel
// breadth-first, so the goal order is deterministic.
func (m *mediator) propagate(n int) {
	b := m.b
	m.msgs = m.msgs[:0]
	m.msgPath = m.msgPath[:0]
	m.goals = m.goals[:0]
	m.paths = m.paths[:0]
	m.vecs = m.vecs[:0]
	m.bnd = m.bnd[:0]
	amax := 0
	for t := range b.owner {
		a := &m.agents[t]
		a.head, a.ngoals = -1, 0
		if b.owner[t] == b.me && b.armies[t] > amax {
			amax = b.armies[t]
		}
	}
	amax += n - 1
	gl := m.p.Gl
	for t := range b.owner {
		if b.owner[t] != b.me {
			m.msgs = append(m.msgs, message{off: len(m.msgPath), k: 1, w: m.vals[t], def: b.armies[t], seen: 1 << (t & 63)})
			m.msgPath = append(m.msgPath, t)
		}
	}
	small := len(b.owner) <= 64 // chains carry a bit set of their territories
	for h := 0; h < len(m.msgs); h++ {
		msg := m.msgs[h]
		last := m.msgPath[msg.off+msg.k-1]
	next:
		for _, u := range b.nbr[last] {
			// An own territory is never on the (enemy) chain.
			if b.owner[u] == b.me {
				m.store(u, msg, n)
				continue
			}
			if msg.k >= gl {
				continue // the chain would exceed G_l: discarded
			}
			if small {
				if msg.seen&(1<<u) != 0 {
					continue
				}
			} else {
				for _, v := range m.msgPath[msg.off : msg.off+msg.k] {
					if v == u {
						continue next
					}
				}
			}
			def := msg.def + b.armies[u]
			if m.o.win(amax-msg.k, def) < pPrune {
				continue
			}
			off := len(m.msgPath)
			m.msgPath = append(m.msgPath, m.msgPath[msg.off:msg.off+msg.k]...)
			m.msgPath = append(m.msgPath, u)
			m.msgs = append(m.msgs, message{off: off, k: msg.k + 1, w: msg.w + m.vals[u], def: def, seen: msg.seen | 1<<(u&63)})
		}
	}
}

// store lets own agent t keep msg as a goal, reversing the chain into
// attack order, unless the pPrune heuristic rules it out.
func (m *mediator) store(t int, msg message, n int) {
	b := m.b
	if m.o.win(b.armies[t]-1+n-(msg.k-1), msg.def) < pPrune {
		return
	}
	off := len(m.paths)
	for i := msg.off + msg.k - 1; i >= msg.off; i-- {
		m.paths = append(m.paths, m.msgPath[i])
		m.onPath[m.msgPath[i]] = true
	}
	end := m.msgPath[msg.off]
	threat := b.maxEnemy(end, m.onPath)
	for _, v := range m.paths[off:] {
		m.onPath[v] = false
	}
	a := &m.agents[t]
	// The agent attacks with a = armies-1+i for i = 0..n new armies; the
	// armies it wins in the auction leave fewer to bid for, so a stays in
	// this range for the whole placement.
	bo := len(m.bnd)
	for range n + 1 {
		m.bnd = append(m.bnd, math.NaN())
	}
	m.goals = append(m.goals, goal{from: t, off: off, k: msg.k, w: msg.w, def: msg.def, threat: threat, next: -1,
		bo: bo, alo: b.armies[t] - 1, na: n + 1})
	g := len(m.goals) - 1
	// Keep each agent's goals in arrival order: append at the tail.
	if a.head < 0 {
		a.head = g
	} else {
		m.goals[a.tail].next = g
	}
	a.tail = g
	a.ngoals++
}
