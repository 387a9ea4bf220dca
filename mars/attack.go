package mars

import "fmt"

// attackChoice is the winning bid of an attack auction.
type attackChoice struct {
	from, to int
	odds     float64
	goal     bool // the odds are those of the agent's remaining goal path
}

// chooseAttack runs one attack auction (MARS paper, "Attack"): every
// eligible agent (own territory with an enemy neighbour and more than one
// army) bids its success odds. An agent pursuing a goal (one that won the
// placement auction, or one handed on by the conquering neighbour) bids
// only for its goal's next target, at the odds of conquering the whole
// remaining goal path with its armies-1 attacking armies: the armies were
// placed for that goal, and the paper's agents attack to carry their goals
// on. An agent without a goal (or whose goal's next target MARS already
// owns) bids its best odds of conquering a single enemy neighbour. The
// highest bid (ties to the lowest territory ids) attacks if its odds reach
// the threshold: W_p1 before the turn's first conquest, W_p after. ok is
// false when no bid reaches it.
func (m *mediator) chooseAttack(conquered bool) (c attackChoice, thr float64, ok bool) {
	b := m.b
	thr = m.p.Wp1
	if conquered {
		thr = m.p.Wp
	}
	c.odds = -1
	for _, t := range m.ownList() {
		if b.armies[t] < 2 {
			continue
		}
		a := &m.agents[t]
		if a.goal >= 0 {
			if p := m.path(a.goal); a.pos < len(p) && b.owner[p[a.pos]] != b.me {
				if o := m.goalOdds(t); o > c.odds {
					c = attackChoice{from: t, to: p[a.pos], odds: o, goal: true}
				}
				continue
			}
		}
		for _, u := range b.nbr[t] {
			if b.owner[u] == b.me {
				continue
			}
			if o := m.o.win(b.armies[t]-1, b.armies[u]); o > c.odds {
				c = attackChoice{from: t, to: u, odds: o}
			}
		}
	}
	return c, thr, c.odds >= 0 && c.odds >= thr
}

// goalOdds returns the odds of agent t conquering the rest of its goal
// path, which must be enemy-held from its next target on; a path cut
// short by a territory MARS already owns ends there.
func (m *mediator) goalOdds(t int) float64 {
	a := &m.agents[t]
	m.scratch = m.scratch[:0]
	for _, v := range m.path(a.goal)[a.pos:] {
		if m.b.owner[v] == m.b.me {
			break
		}
		m.scratch = append(m.scratch, m.b.armies[v])
	}
	return m.o.chain(m.b.armies[t]-1, m.scratch)
}

// ownList refreshes and returns the own territories in ascending order.
func (m *mediator) ownList() []int {
	m.own = m.own[:0]
	for t, o := range m.b.owner {
		if o == m.b.me {
			m.own = append(m.own, t)
		}
	}
	return m.own
}

func (m *mediator) explainAttack(c attackChoice, thr float64, ok bool) {
	if !ok {
		if c.odds < 0 {
			fmt.Fprintf(m.w, "  attack: no eligible agent\n")
			return
		}
		fmt.Fprintf(m.w, "  attack: stop, best bid %s>%s odds %.3f < threshold %.4f\n", m.name(c.from), m.name(c.to), c.odds, thr)
		return
	}
	kind := "battle"
	if c.goal {
		kind = "goal " + m.pathString(m.agents[c.from].goal, m.agents[c.from].pos)
	}
	fmt.Fprintf(m.w, "  attack: %s(%d)>%s(%d) odds %.3f >= threshold %.4f (%s)\n",
		m.name(c.from), m.b.armies[c.from], m.name(c.to), m.b.armies[c.to], c.odds, thr, kind)
}

// occupy decides how many armies move from `from` into the conquered
// `to`, within [lo, hi], and hands the goal path on: if `to` was the next
// target of from's goal, the goal passes to to's agent. When the goal
// goes on beyond `to`, every army it may take moves in (the chain odds
// assume it); otherwise the armies are split between the two territories
// in proportion to the strongest enemy stack each faces (all stay behind
// if `to` faces none, all move in if `from` faces none).
func (m *mediator) occupy(from, to, lo, hi int) int {
	b := m.b
	fa := &m.agents[from]
	ta := &m.agents[to]
	ta.goal, ta.pos = -1, 0
	goesOn := false
	if fa.goal >= 0 {
		p := m.path(fa.goal)
		if fa.pos < len(p) && p[fa.pos] == to {
			ta.goal, ta.pos = fa.goal, fa.pos+1
			goesOn = ta.pos < len(p)
			fa.goal = -1
		}
	}
	k := hi
	if !goesOn {
		ef := b.maxEnemy(from, nil)
		et := b.maxEnemy(to, nil)
		total := b.armies[from] // armies to share, one of which must stay
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
		fmt.Fprintf(m.w, "  occupy %s: move %d of [%d, %d] from %s", m.name(to), k, lo, hi, m.name(from))
		if goesOn {
			fmt.Fprintf(m.w, " (goal goes on: %s)", m.pathString(ta.goal, ta.pos))
		}
		fmt.Fprintln(m.w)
	}
	return k
}
