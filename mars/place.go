package mars

import "fmt"

// place runs the placement phase for n armies (MARS paper, "Place
// armies"): goal propagation, bids, then first-price sealed-bid auctions.
// In each auction round the mediator picks the highest bid (ties to the
// lowest territory id); the winner receives the armies it bid for and,
// for an offensive bid, adds the goal to the goals it pursues (an agent
// that wins several auctions with different goals pursues all of them);
// only the winner re-bids (with its new armies, which its later bids
// count) and the round repeats with the remaining armies. An agent whose
// bid was for more armies than remain re-bids. If no bid is positive, the
// rest go to the own territory facing the largest enemy stack. Each
// agent's armies won are in agent.placed.
func (m *mediator) place(n int) {
	b := m.b
	for t, o := range b.Owner {
		// An own territory without an enemy neighbour of two armies or
		// more makes no defensive bid, and goals are paths of enemy
		// territories: its V_c is read only by the explanation.
		if o == b.me && m.w == nil && b.maxEnemy(t, nil) <= 1 {
			continue
		}
		m.vals[t] = b.value(&m.p, t)
	}
	m.propagate(n)
	m.placeAuction(n)
}

// placeAuction runs the auction rounds of the placement phase for n armies
// over the goals of the last propagate (see place).
func (m *mediator) placeAuction(n int) {
	b := m.b
	own := m.own[:0]
	m.clearPursued()
	m.rough = m.rough[:0]
	m.stop.resetPrice()
	for t := range b.Owner {
		a := &m.agents[t]
		a.zeroUsed, a.placed = false, 0
		if b.Owner[t] == b.me {
			own = append(own, t)
			if m.w != nil {
				m.bidFor(t, n) // the explanation shows every first bid
			} else {
				m.firstBid(t, n)
			}
		}
	}
	m.own = own
	if m.w != nil {
		m.explainGoals(n)
	}
	left := n
	for round := 1; left > 0; round++ {
		// The agents whose bid is for more armies than remain re-bid
		// lazily: a re-bid ranges over fewer army counts, so it is worth
		// at most the old bid (and a stale first bid is an upper bound,
		// see firstBid), and an agent with the highest bid re-bids only
		// when it is picked; an agent with the highest bid and a current
		// one wins (ties to the lowest territory id), exactly as if every
		// agent had bid exactly and re-bid whenever its bid was for more
		// armies than remain.
		win := -1
		for {
			win = -1
			best := 0.0
			for _, t := range own {
				if v := m.bidv[t]; v > best {
					win, best = t, v
				}
			}
			if win < 0 || m.agents[win].bid.I <= left {
				break
			}
			m.bidFor(win, left)
		}
		if win < 0 {
			break
		}
		a := &m.agents[win]
		w := a.bid
		m.st.count(w)
		m.stop.notePrice(w)
		if m.w != nil {
			m.explainWin(round, win, w)
		}
		if w.Goal >= 0 {
			// A goal wins one auction: it is then pursued, with the agent's
			// other won goals, and the agent's later bids are for its other
			// goals or for defence (otherwise a near-certain goal would keep
			// winning one army at a time).
			m.pursue(win, w.Goal, 0)
			m.markWon(win, w.Goal)
		}
		a.placed += w.I
		b.Armies[win] += w.I
		left -= w.I
		a.zeroUsed = true
		if left > 0 {
			m.bidFor(win, left)
		}
	}
	if left > 0 {
		m.rest(left)
	}
	if m.w != nil {
		m.explainPursued()
	}
}

// auctionStats counts a game's placement auctions (the initial
// placement's one-army auctions included) by their winning bid: offensive
// bids of equation (4) and defensive bids of equation (5) for one army or
// more, zero-army bids of either kind, and the armies each kind won; unbid
// counts the armies no positive bid wanted (see rest).
type auctionStats struct {
	off, def, zero       int64 // auctions won
	offArmies, defArmies int64 // armies won
	unbid                int64
}

// count adds an auction won by bid w.
func (s *auctionStats) count(w bid) {
	switch {
	case w.I == 0:
		s.zero++
	case w.Goal >= 0:
		s.off++
		s.offArmies += int64(w.I)
	default:
		s.def++
		s.defArmies += int64(w.I)
	}
}

// rest gives the left armies that no positive bid wanted to the own
// territory facing the largest enemy stack (the lowest id on ties).
func (m *mediator) rest(left int) {
	b := m.b
	t, e := -1, -1
	for _, u := range m.own {
		if x := b.maxEnemy(u, nil); x > e {
			t, e = u, x
		}
	}
	if t >= 0 {
		m.st.unbid += int64(left)
		m.agents[t].placed += left
		b.Armies[t] += left
		if m.w != nil {
			fmt.Fprintf(m.w, "  no positive bid: %d armies to %s (largest enemy neighbour %d)\n", left, m.name(t), e)
		}
	}
}

func (m *mediator) explainGoals(n int) {
	fmt.Fprintf(m.w, "  place %d armies: %d messages, %d goals\n", n, len(m.msgs), len(m.goals))
	for _, t := range m.own {
		a := &m.agents[t]
		fmt.Fprintf(m.w, "  agent %s (armies %d, V_c %.2f): %d goals", m.name(t), m.b.Armies[t], m.vals[t], a.ngoals)
		if a.off.Goal >= 0 {
			fmt.Fprintf(m.w, "; b_o %.2f = %s for %s", a.off.Value, m.bidTerms(a.off), m.pathString(a.off.Goal, 0))
		}
		if a.def.Value >= 0 {
			fmt.Fprintf(m.w, "; b_d %.2f = %s", a.def.Value, m.bidTerms(a.def))
		}
		fmt.Fprintln(m.w)
	}
}

// bidTerms renders the equation and terms of an exact bid: those of (4)
// for an offensive bid, of (5) for a defensive one.
func (m *mediator) bidTerms(b bid) string {
	if b.Goal >= 0 {
		return fmt.Sprintf("P_ob*p*w*d/i with i=%d p=%.3f w=%.2f d=%.3f", b.I, b.P, b.W, b.D)
	}
	unit := ""
	if m.p.HoldUnit == HoldPercent {
		unit = " (d in %)"
	}
	if m.p.Defensive == DefensiveLiteral {
		return fmt.Sprintf("P_db*v*d_(m+i)/max(i,1)%s with i=%d v=%.2f d_m=%.3f d_(m+i)=%.3f", unit, b.I, b.V, b.D0, b.D1)
	}
	return fmt.Sprintf("P_db*v*(d_(m+i)-d_m)/i%s with i=%d v=%.2f d_m=%.3f d_(m+i)=%.3f", unit, b.I, b.V, b.D0, b.D1)
}

// explainWin narrates an auction round's winning bid, which is always
// exact (a stale first bid is re-bid before it can win), with the terms
// of its equation.
func (m *mediator) explainWin(round, t int, w bid) {
	if w.Goal >= 0 {
		fmt.Fprintf(m.w, "  auction %d: %s wins %d armies with b_o %.2f = %s (offensive, goal %s)\n",
			round, m.name(t), w.I, w.Value, m.bidTerms(w), m.pathString(w.Goal, 0))
		return
	}
	fmt.Fprintf(m.w, "  auction %d: %s wins %d armies with b_d %.2f = %s (defensive)\n",
		round, m.name(t), w.I, w.Value, m.bidTerms(w))
}

// explainPursued lists, after the placement, the goals each agent
// pursues (one line per agent that pursues any).
func (m *mediator) explainPursued() {
	for _, t := range m.own {
		a := &m.agents[t]
		if a.phead < 0 {
			continue
		}
		fmt.Fprintf(m.w, "  agent %s (armies %d) pursues", m.name(t), m.b.Armies[t])
		m.explainPursuits(" ", a.phead)
	}
}

// pathString renders goal g from position pos with the armies on each
// territory, e.g. "A>B(3)>C(1)"; a territory MARS has taken since is
// marked "own", e.g. "A>B(own 3)".
func (m *mediator) pathString(g, pos int) string {
	path := m.path(g)
	s := m.name(int(m.goals[g].from))
	if pos > 0 {
		s = m.name(path[pos-1]) // the agent now carrying the goal
	}
	for _, v := range path[pos:] {
		if m.b.Owner[v] == m.b.me {
			s += fmt.Sprintf(">%s(own %d)", m.name(v), m.b.Armies[v])
		} else {
			s += fmt.Sprintf(">%s(%d)", m.name(v), m.b.Armies[v])
		}
	}
	return s
}

// explainPursuits writes the goals of the pursuit list starting at head,
// the first after first and the others after "; ", and ends the line.
func (m *mediator) explainPursuits(first string, head int) {
	sep := first
	for i := head; i >= 0; i = m.pursuits[i].next {
		p := &m.pursuits[i]
		fmt.Fprintf(m.w, "%s%s", sep, m.pathString(p.g, p.pos))
		sep = "; "
	}
	fmt.Fprintln(m.w)
}
