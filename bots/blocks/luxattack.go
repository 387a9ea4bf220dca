package blocks

import (
	"math/bits"

	"github.com/marslab-risk/marslab/sim"
)

// NextAttack returns the next attack order of the plan, or ok false when
// the plan has run to its end (see Lux, "Resuming the attack phase"). The
// first call in a turn starts the plan at its first step (a bot calls
// NewTurn at placement; a call in a round NewTurn has not seen starts a new
// turn too). Each call loads the board from s, reads the outcome of the
// last order, resets Memory (Java resets it when board.attack returns) and
// resumes the plan; the order returned carries Repeat (Java's
// attackTillDead) with the most dice, and Memory is set for the move-in.
func (x *Lux) NextAttack(s *sim.State, plan []Step) (sim.AttackOrder, bool) {
	x.Load(s)
	if x.masks() {
		x.own = ownerMask(x.B.Owner, x.Seat)
	}
	if s.Round() != x.round {
		x.round = s.Round()
		x.MustKill = -1
		x.stopAttack()
	}
	x.Memory = MoveUnset
	for x.pc < len(plan) {
		st := &plan[x.pc]
		start := x.restart
		x.restart = false
		if !x.stepOn {
			if st.Unless && x.last || st.If != nil && !st.If(x) {
				x.last = false
				x.pc++
				continue
			}
			x.stepOn, x.any, start = true, false, true
		}
		from, to, mem, done, res := x.run(st, start)
		if !done {
			x.wait, x.to, x.Memory = true, to, mem
			return sim.AttackOrder{From: from, To: to, Repeat: true}, true
		}
		x.any = x.any || res
		if st.Repeat && res {
			x.restart = true // while (block(root)) {}: run it again
			continue
		}
		x.last, x.stepOn = x.any, false
		x.pc++
	}
	return sim.AttackOrder{}, false
}

// run starts or resumes the procedure of step st.
func (x *Lux) run(st *Step, start bool) (from, to, mem int, done, res bool) {
	switch st.Proc {
	case StepRoot:
		x.Root = x.ClusterRoot()
		return 0, 0, 0, true, false
	case StepEasyExpand, StepFillOut, StepConsolidate, StepSplitUp:
		return x.leafRun(start, st.Proc, x.Root, st.Ratio)
	case StepTriple:
		return x.tripleRun(start, x.Root)
	case StepHogWild, StepStalemate:
		if start {
			own := x.B.TotalArmies(x.Seat)
			if st.Proc == StepHogWild && own <= x.othersArmies() ||
				st.Proc == StepStalemate && own <= stalemateArmies {
				return 0, 0, 0, true, false
			}
		}
		from, to, mem, done, _ = x.sweepRun(start)
		return from, to, mem, done, false
	case StepCard:
		return x.cardRun(start, st)
	case StepKill:
		from, to, mem, done, _ = x.killRun(start)
		return from, to, mem, done, false
	case StepCustom:
		x.takeOutcome()
		return st.Custom.Next(x, start)
	}
	return 0, 0, 0, true, false
}

// othersArmies returns the armies of every player but the bot.
func (x *Lux) othersArmies() int {
	n := 0
	for t, o := range x.B.Owner {
		if o != x.Seat {
			n += x.B.Armies[t]
		}
	}
	return n
}

// takeOutcome clears the pending order and reports whether it conquered
// its target; ok is false when no order was pending.
func (x *Lux) takeOutcome() (conquered, ok bool) {
	if !x.wait {
		return false, false
	}
	x.wait = false
	return x.conquered(x.to), true
}

// leafRun starts or resumes a one-pass block on root.
func (x *Lux) leafRun(start bool, proc Proc, root int, ratio float32) (from, to, mem int, done, res bool) {
	l := &x.leaf
	if start || !l.on {
		*l = leafCur{on: true, proc: proc, root: root, ratio: ratio, snap: l.snap[:0], parts: l.parts[:0]}
		if x.masks() && root >= 0 && root < len(x.B.Owner) && x.B.Owner[root] == x.Seat {
			l.snap = x.clusterBorderBits(l.snap, root, x.own) // x.own: NextAttack just loaded
		} else {
			l.snap = x.AppendClusterBorder(l.snap, root)
		}
		x.wait = false
	}
	if won, ok := x.takeOutcome(); ok {
		switch proc {
		case StepFillOut:
			l.res = l.res || won
		default:
			l.res = true
		}
		switch proc {
		case StepEasyExpand:
			l.i++
		default:
			l.j++
		}
	}
	b, p := &x.B, x.Seat
	if l.i < len(l.snap) && proc != StepSplitUp && x.masks() {
		return x.leafRunBits(l, proc)
	}
	for l.i < len(l.snap) {
		t := l.snap[l.i]
		switch proc {
		case StepEasyExpand:
			if enemy, n := x.soleEnemy(t); n == 1 && b.Armies[t] > b.Armies[enemy] && x.canAttack(t, enemy) {
				return t, enemy, MoveAll, false, false
			}
			l.i++
		case StepFillOut:
			nb := x.neighbors(t)
			for ; l.j < len(nb); l.j++ {
				u := nb[l.j]
				if b.Owner[u] != p && b.EnemyNeighbors(p, u) == 0 && b.Armies[u] < b.Armies[t] && x.canAttack(t, u) {
					return t, u, MoveMin, false, false
				}
			}
			l.i, l.j = l.i+1, 0
		case StepConsolidate:
			if !l.in {
				l.j = 0
				enemy, n := x.soleEnemy(t)
				if n == 1 && b.friendlyNeighbors(p, enemy) > 1 {
					l.parts = l.parts[:0]
					sum := 0
					for _, u := range x.neighbors(enemy) {
						if b.Owner[u] == p && b.EnemyNeighbors(p, u) == 1 {
							l.parts = append(l.parts, u)
							sum += b.Armies[u]
						}
					}
					l.in, l.enemy = sum > b.Armies[enemy], enemy
				}
				if !l.in {
					l.i++
					continue
				}
			}
			for ; l.j < len(l.parts) && b.Owner[l.enemy] != p; l.j++ {
				if u := l.parts[l.j]; b.Armies[u] > 1 && x.canAttack(u, l.enemy) {
					return u, l.enemy, MoveAll, false, false
				}
			}
			l.in = false
			l.i++
		case StepSplitUp:
			nb := x.neighbors(t)
			if !l.in {
				l.j = 0
				enemies, armies := 0, 0
				for _, u := range nb {
					if b.Owner[u] != p {
						enemies++
						armies += b.Armies[u]
					}
				}
				if float32(b.Armies[t]) > float32(armies)*l.ratio {
					l.in, l.per = true, b.Armies[t]/max(enemies, 1)
				} else {
					l.i++
					continue
				}
			}
			for ; l.j < len(nb) && b.Armies[t] > 1; l.j++ {
				if u := nb[l.j]; b.Owner[u] != p && x.canAttack(t, u) {
					return t, u, l.per, false, false
				}
			}
			l.in = false
			l.i++
		default:
			l.i = len(l.snap)
		}
	}
	l.on = false
	return 0, 0, 0, true, l.res
}

// leafRunBits is leafRun's loop for easy expand, fill out and consolidate
// on a map of at most 64 territories: the same tests read from the
// neighbour masks (x.nb) and the bot's territories as bits.
func (x *Lux) leafRunBits(l *leafCur, proc Proc) (from, to, mem int, done, res bool) {
	b, p := &x.B, x.Seat
	own := x.own // NextAttack just loaded the board
	for l.i < len(l.snap) {
		t := l.snap[l.i]
		switch proc {
		case StepEasyExpand:
			if e := x.nb[t] &^ own; e != 0 && e&(e-1) == 0 {
				enemy := bits.TrailingZeros64(e)
				if b.Armies[t] > b.Armies[enemy] && x.canAttack(t, enemy) {
					return t, enemy, MoveAll, false, false
				}
			}
			l.i++
		case StepFillOut:
			nb := x.neighbors(t)
			for ; l.j < len(nb); l.j++ {
				u := nb[l.j]
				if own>>(uint(u)&63)&1 == 0 && x.nb[u]&^own == 0 && b.Armies[u] < b.Armies[t] && x.canAttack(t, u) {
					return t, u, MoveMin, false, false
				}
			}
			l.i, l.j = l.i+1, 0
		case StepConsolidate:
			if !l.in {
				l.j = 0
				if e := x.nb[t] &^ own; e != 0 && e&(e-1) == 0 {
					enemy := bits.TrailingZeros64(e)
					if bits.OnesCount64(x.nb[enemy]&own) > 1 {
						l.parts = l.parts[:0]
						sum := 0
						for _, u := range x.neighbors(enemy) {
							if own>>(uint(u)&63)&1 != 0 {
								if f := x.nb[u] &^ own; f&(f-1) == 0 { // exactly one: enemy
									l.parts = append(l.parts, u)
									sum += b.Armies[u]
								}
							}
						}
						l.in, l.enemy = sum > b.Armies[enemy], enemy
					}
				}
				if !l.in {
					l.i++
					continue
				}
			}
			for ; l.j < len(l.parts) && b.Owner[l.enemy] != p; l.j++ {
				if u := l.parts[l.j]; b.Armies[u] > 1 && x.canAttack(u, l.enemy) {
					return u, l.enemy, MoveAll, false, false
				}
			}
			l.in = false
			l.i++
		default:
			l.i = len(l.snap)
		}
	}
	l.on = false
	return 0, 0, 0, true, l.res
}

// tripleRun starts or resumes tripleAttackPack(root).
func (x *Lux) tripleRun(start bool, root int) (from, to, mem int, done, res bool) {
	c := &x.triple
	if start || !c.on {
		*c = tripleCur{on: true}
		x.leaf.on = false
	}
	for {
		var r bool
		switch c.stage {
		case 0:
			from, to, mem, done, r = x.leafRun(false, StepEasyExpand, root, 0)
		case 1:
			from, to, mem, done, r = x.leafRun(false, StepFillOut, root, 0)
		default:
			from, to, mem, done, r = x.leafRun(false, StepConsolidate, root, 0)
		}
		if !done {
			return from, to, mem, false, false
		}
		// leafRun left the leaf off: the next leafRun starts a new pass.
		switch {
		case c.stage == 1:
			c.stage = 2
		case r:
			c.won = true
		case c.stage == 0:
			c.stage = 1
		default:
			c.on = false
			return 0, 0, 0, true, c.won
		}
	}
}

// ownedFrom returns the bot's first territory with id t or more, -1 for
// none (PlayerIterator's look-ahead).
func (x *Lux) ownedFrom(t int) int {
	for ; t < len(x.B.Owner); t++ {
		if x.B.Owner[t] == x.Seat {
			return t
		}
	}
	return -1
}

// sweepRun starts or resumes attackAsMuchAsPossible.
func (x *Lux) sweepRun(start bool) (from, to, mem int, done, res bool) {
	c := &x.sweep
	if start || !c.on {
		*c = sweepCur{on: true, next: x.ownedFrom(0)}
		x.triple.on, x.leaf.on = false, false
	}
	for {
		switch c.stage {
		case 0:
			if c.next < 0 {
				if !c.attacked {
					c.on = false
					return 0, 0, 0, true, false
				}
				c.attacked, c.next = false, x.ownedFrom(0)
				continue
			}
			c.cur = c.next
			c.next = x.ownedFrom(c.cur + 1)
			c.stage = 1
		case 1:
			from, to, mem, done, res = x.tripleRun(false, c.cur)
			if !done {
				return from, to, mem, false, false
			}
			if res {
				c.attacked = true
			} else {
				c.stage = 2
			}
		default:
			from, to, mem, done, res = x.leafRun(false, StepSplitUp, c.cur, 0.01)
			if !done {
				return from, to, mem, false, false
			}
			if res {
				c.attacked = true
			} else {
				c.stage = 0
			}
		}
	}
}

// cardRun is attackForCard(st.K) with st.CardMove.
func (x *Lux) cardRun(start bool, st *Step) (from, to, mem int, done, res bool) {
	if !start {
		x.takeOutcome()
		return 0, 0, 0, true, false
	}
	s := x.state
	if s.Rules().Cards.Mode == sim.CardsNone || s.ConqueredThisTurn() {
		return 0, 0, 0, true, false
	}
	b, p := &x.B, x.Seat
	var best float32
	us, them := -1, -1
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		for _, u := range x.neighbors(t) {
			if b.Owner[u] == p {
				continue
			}
			if r := float64(b.Armies[t]) / float64(b.Armies[u]); r > float64(best) {
				best, us, them = float32(float64(b.Armies[t])/float64(b.Armies[u])), t, u
			}
		}
	}
	if us < 0 || b.Armies[us] <= b.Armies[them]*st.K || !x.canAttack(us, them) {
		return 0, 0, 0, true, false
	}
	mem = MoveUnset
	if st.CardMove != nil {
		mem = st.CardMove(x, us)
	}
	return us, them, mem, false, false
}

// armiesFrom returns the bot's first territory with id t or more holding
// 2 armies or more, -1 for none (ArmiesIterator's look-ahead).
func (x *Lux) armiesFrom(t int) int {
	for ; t < len(x.B.Owner); t++ {
		if x.B.Owner[t] == x.Seat && x.B.Armies[t] >= 2 {
			return t
		}
	}
	return -1
}

// killRun starts or resumes attackToKillPlayer(MustKill).
func (x *Lux) killRun(start bool) (from, to, mem int, done, res bool) {
	c := &x.kill
	if start || !c.on {
		if x.MustKill < 0 || len(x.killCont) == 0 {
			return 0, 0, 0, true, false
		}
		*c = killCur{on: true, value: c.value[:0], path: c.path[:0], cont: -1, us: -1}
		for k, owned := range x.killCont {
			v := -1
			if owned {
				v = x.B.Map.Continents[k].Bonus
			}
			c.value = append(c.value, v)
		}
	}
	b := &x.B
	if c.us >= 0 && c.i > 0 { // the outcome of the step c.i-1 -> c.i
		if won, ok := x.takeOutcome(); ok {
			if !won {
				c.us = -1 // repelled: the next territory
			} else if c.i++; c.i == len(c.path) {
				c.us, c.cont = -1, -1 // the whole path: the continent is done
			}
		}
	}
	for {
		if c.cont < 0 {
			best, value := -1, 0
			for k, v := range c.value {
				if v > value {
					best, value = k, v
				}
			}
			if best < 0 {
				c.on = false
				return 0, 0, 0, true, false
			}
			c.cont = best
			c.value[best] = -1
			c.us, c.next = -1, x.armiesFrom(0)
		}
		if c.us < 0 {
			if c.next < 0 {
				c.cont = -1
				continue
			}
			us := c.next
			c.next = x.armiesFrom(us + 1)
			path := x.easyPathToCont(us, c.cont)
			if len(path) == 0 || x.pathCost(path) >= b.Armies[us] {
				continue
			}
			c.path = append(c.path[:0], path...)
			c.us, c.i = us, 1
		}
		f, t := c.path[c.i-1], c.path[c.i]
		if b.Armies[f] == 1 || !x.canAttack(f, t) {
			c.us = -1
			continue
		}
		return f, t, MoveAll, false, false
	}
}
