package dice

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// Utility is what the end of an attack along a path is worth to the
// attacker; Stop finds the policy that maximises its expectation.
//
// An attack starts with A attacking armies (not counting the army that
// stays behind) against a path of territories; it ends when the attacker
// stops, runs out of attacking armies, or has taken the whole path. At the
// end the attacker has conquered k territories, keeps x + k of its A
// armies (x still attacking, one in each conquered territory) and has
// destroyed some of the defender's armies. The utility is linear,
//
//	Territory·k + Army·(x + k) + Kill·(defending armies destroyed)
//	  + Path·[k = the whole path],
//
// unless Goal > 0: then it is the probability target 1 if k >= Goal and
// x >= Keep at the end, 0 otherwise (the linear values must be 0).
type Utility struct {
	// Territory is the value of each territory conquered.
	Territory float64
	// Army is the value of each of the attacker's armies that survives
	// (equivalently, minus the cost of each army lost).
	Army float64
	// Kill is the value of each defending army destroyed.
	Kill float64
	// Path is the value of taking the whole path (a goal reached), on top
	// of its territories' values.
	Path float64
	// Goal, if positive, makes the objective P(at least Goal territories
	// conquered and at least Keep attacking armies left).
	Goal, Keep int
}

// Validate reports whether u is a utility for a path of n territories
// and a attacking armies: finite values, 0 <= Goal <= n, 0 <= Keep <= a,
// Keep only with a Goal, and a Goal only without the linear values.
func (u Utility) Validate(n, a int) error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"territory", u.Territory}, {"army", u.Army}, {"kill", u.Kill}, {"path", u.Path}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Errorf("dice: utility: %s value %v is not finite", v.name, v.x)
		}
	}
	if u.Goal < 0 || u.Goal > n {
		return fmt.Errorf("dice: utility: goal %d territories outside [0, %d]", u.Goal, n)
	}
	if u.Keep < 0 || u.Keep > a {
		return fmt.Errorf("dice: utility: keep %d armies outside [0, %d]", u.Keep, a)
	}
	if u.Goal == 0 && u.Keep > 0 {
		return errors.New("dice: utility: keep needs a goal (a number of territories)")
	}
	if u.Goal > 0 && (u.Territory != 0 || u.Army != 0 || u.Kill != 0 || u.Path != 0) {
		return errors.New("dice: utility: a goal (probability target) excludes the linear values")
	}
	return nil
}

// String describes u, as "territory 1, army 0.2, kill 0" (and ", path
// 5" when Path is not 0) or "P(>= 2 territories, >= 3 armies left)".
func (u Utility) String() string {
	if u.Goal > 0 {
		return fmt.Sprintf("P(>= %d territories, >= %d armies left)", u.Goal, u.Keep)
	}
	s := fmt.Sprintf("territory %g, army %g, kill %g", u.Territory, u.Army, u.Kill)
	if u.Path != 0 {
		s += fmt.Sprintf(", path %g", u.Path)
	}
	return s
}

// maxStopStates bounds the states of an optimal-stopping problem (32 MB of
// float64 tables at the bound).
const maxStopStates = 1 << 20

// stopSpace indexes the states (k, x, y) of an attack along a path: k
// territories conquered, x attacking armies, y defenders left in territory
// k (k < n); k = n is the whole path taken, with y = 0.
type stopSpace struct {
	r    Rules
	a    int
	defs []int
	// off[k] is the index of (k, 0, 0); territory k has rows x = 0..a-k
	// of width defs[k]+1 (1 for k = n).
	off []int
	// killedBefore[k] is the defenders of territories 0..k-1.
	killedBefore []int
	p            [maxDice + 1][maxDice + 1][maxDice + 1]float64
	rs           *rollSet
}

func newStopSpace(r Rules, a int, defs []int) (*stopSpace, error) {
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	if len(defs) == 0 {
		return nil, errors.New("dice: optimal stopping needs a path of at least one territory")
	}
	if a < 0 || a > MaxBattleArmies {
		return nil, fmt.Errorf("dice: attacking armies %d outside [0, %d]", a, MaxBattleArmies)
	}
	s := &stopSpace{r: r, a: a, defs: slices.Clone(defs), rs: rs, p: rs.p}
	n := len(defs)
	s.off = make([]int, n+2)
	s.killedBefore = make([]int, n+1)
	for k := 0; k <= n; k++ {
		w := 1
		if k < n {
			d := defs[k]
			if d < 1 || d > MaxBattleArmies {
				return nil, fmt.Errorf("dice: defenders of territory %d: %d outside [1, %d]", k+1, d, MaxBattleArmies)
			}
			w = d + 1
			s.killedBefore[k+1] = s.killedBefore[k] + d
		}
		rows := max(a-k+1, 0)
		s.off[k+1] = s.off[k] + rows*w
		if s.off[k+1] > maxStopStates {
			return nil, fmt.Errorf("dice: optimal stopping: more than %d states (armies %d, path %v)", maxStopStates, a, defs)
		}
	}
	return s, nil
}

// n returns the number of territories of the path.
func (s *stopSpace) n() int { return len(s.defs) }

// width returns the row width of territory k.
func (s *stopSpace) width(k int) int {
	if k == len(s.defs) {
		return 1
	}
	return s.defs[k] + 1
}

// index returns the state index of (k, x, y), or -1 outside the space.
func (s *stopSpace) index(k, x, y int) int {
	if k < 0 || k > s.n() || x < 0 || x > s.a-k || y < 0 || y >= s.width(k) {
		return -1
	}
	return s.off[k] + x*s.width(k) + y
}

// reward returns the utility of ending in (k, x, y).
func (s *stopSpace) reward(u Utility, k, x, y int) float64 {
	if u.Goal > 0 {
		if k >= u.Goal && x >= u.Keep {
			return 1
		}
		return 0
	}
	killed := s.killedBefore[k]
	if k < s.n() {
		killed += s.defs[k] - y
	}
	v := u.Territory*float64(k) + u.Army*float64(x+k) + u.Kill*float64(killed)
	if k == s.n() {
		v += u.Path
	}
	return v
}

// next returns the state a roll from (k, x, y) leads to when the defender
// loses j of the m compared pairs: the same battle, or after a conquest
// the next battle with the survivors less the army that stays behind.
func (s *stopSpace) next(k, x, y, m, j int) int {
	x2, y2 := x-(m-j), y-j
	if y2 > 0 {
		return s.index(k, x2, y2)
	}
	if k+1 == s.n() {
		return s.index(k+1, x2-1, 0)
	}
	return s.index(k+1, x2-1, s.defs[k+1])
}

// decision reports whether (k, x, y) is a state where the attacker may
// roll: a battle is on and it has an attacking army.
func (s *stopSpace) decision(k, x, y int) bool { return k < s.n() && x >= 1 && y >= 1 }

// solve fills val with the value of every state under a policy: the
// optimum if cont is nil (and then fills cont), else the given policy.
// rollVal[i] receives the expected value of rolling once from state i and
// then following the policy (NaN where no roll is possible).
func (s *stopSpace) solve(u Utility, val, rollVal []float64, cont []bool, fixed bool) {
	n := s.n()
	for k := n; k >= 0; k-- {
		w := s.width(k)
		for x := 0; x <= s.a-k; x++ {
			for y := 0; y < w; y++ {
				i := s.off[k] + x*w + y
				stop := s.reward(u, k, x, y)
				if !s.decision(k, x, y) {
					val[i], rollVal[i] = stop, math.NaN()
					continue
				}
				na, nd := min(s.r.AttackerDice, x), min(s.r.DefenderDice, y)
				m := min(na, nd)
				p := &s.p[na][nd]
				roll := 0.0
				for j := 0; j <= m; j++ {
					roll += p[j] * val[s.next(k, x, y, m, j)]
				}
				rollVal[i] = roll
				if !fixed {
					cont[i] = roll > stop
				}
				if cont[i] {
					val[i] = roll
				} else {
					val[i] = stop
				}
			}
		}
	}
}

// Stopping is the optimal stopping policy of an attack along a path (a
// single battle is a path of one territory) under a Utility, found by
// backward induction over every state (k, x, y): k territories conquered,
// x attacking armies, y defenders left in territory k+1 of the path. In
// each state with x >= 1 and y >= 1 the attacker either stops, ending the
// attack with the utility of the state, or rolls once. After a conquest
// with s survivors, the s armies move in, one stays, and the attacker
// decides whether to attack the next territory with s-1 armies (the
// convention of Chainer). The value of a state is
//
//	V = max(utility of stopping, Σ_j P_{na,nd}(j)·V(after the roll)),
//
// computed in float64; [StopExact] does the same in math/big.Rat. Ties go to
// stopping. It also holds P(conquering the rest of the path) from every
// state, attacking to the end, to compare with the threshold rules "roll
// while that probability is at least W".
type Stopping struct {
	sp *stopSpace
	// A is the attacking armies at the start, Defenders the defenders of
	// the path's territories in attack order, Utility the objective; they
	// are copies, changing them changes nothing.
	A         int
	Defenders []int
	Utility   Utility
	// val, rollVal and cont are the optimal values, the values of rolling
	// once and the optimal policy, by state index; win is P(taking the
	// rest of the path) attacking to the end; reach marks the states
	// reachable from the start.
	val, rollVal []float64
	cont, reach  []bool
	win          []float64
}

// Stop solves the optimal stopping problem of a attacking armies (not
// counting the one that stays behind) against a path of territories with
// the given defenders (each at least 1) under rules r and utility u.
func Stop(r Rules, a int, defenders []int, u Utility) (*Stopping, error) {
	sp, err := newStopSpace(r, a, defenders)
	if err != nil {
		return nil, err
	}
	if err := u.Validate(len(defenders), a); err != nil {
		return nil, err
	}
	ns := sp.off[sp.n()+1]
	st := &Stopping{sp: sp, A: a, Defenders: slices.Clone(defenders), Utility: u, val: make([]float64, ns), rollVal: make([]float64, ns),
		cont: make([]bool, ns), win: make([]float64, ns), reach: make([]bool, ns)}
	sp.solve(u, st.val, st.rollVal, st.cont, false)
	// P(taking the rest): the goal of the whole path, attacking to the end.
	all := make([]bool, ns)
	for i := range all {
		all[i] = true
	}
	tmp := make([]float64, ns)
	sp.solve(Utility{Goal: sp.n()}, st.win, tmp, all, true)
	st.markReach()
	return st, nil
}

// markReach marks the states reachable from the start attacking to the
// end (every state reachable under any policy).
func (st *Stopping) markReach() {
	sp := st.sp
	st.reach[sp.index(0, sp.a, sp.defs[0])] = true
	for k := 0; k < sp.n(); k++ {
		w := sp.width(k)
		for x := sp.a - k; x >= 1; x-- {
			for y := w - 1; y >= 1; y-- {
				if !st.reach[sp.off[k]+x*w+y] {
					continue
				}
				na, nd := min(sp.r.AttackerDice, x), min(sp.r.DefenderDice, y)
				m := min(na, nd)
				for j := 0; j <= m; j++ {
					if sp.p[na][nd][j] > 0 {
						st.reach[sp.next(k, x, y, m, j)] = true
					}
				}
			}
		}
	}
}

// Value returns the optimal expected utility from the start.
func (st *Stopping) Value() float64 { return st.val[st.start()] }

func (st *Stopping) start() int { return st.sp.index(0, st.sp.a, st.sp.defs[0]) }

// At returns, for the state with k territories conquered, x attacking
// armies and y defenders left in territory k+1 (y = 0 when k is the whole
// path), the optimal value, whether the optimal policy rolls there, and
// P(conquering the rest of the path) attacking to the end. ok is false
// outside the states (x > A-k, y above the territory's defenders).
func (st *Stopping) At(k, x, y int) (value float64, roll bool, win float64, ok bool) {
	i := st.sp.index(k, x, y)
	if i < 0 {
		return 0, false, 0, false
	}
	return st.val[i], st.cont[i], st.win[i], true
}

// Reachable reports whether the state (k, x, y) can occur from the start.
func (st *Stopping) Reachable(k, x, y int) bool {
	i := st.sp.index(k, x, y)
	return i >= 0 && st.reach[i]
}

// evaluate returns the expected utility from the start of the policy that
// rolls in a decision state (k, x, y) when roll(k, x, y) is true.
func (st *Stopping) evaluate(roll func(k, x, y int) bool) float64 {
	var buf evalBuf
	return st.evaluateInto(&buf, roll)
}

// evalBuf holds the tables of a policy evaluation, reused between
// evaluations.
type evalBuf struct {
	cont     []bool
	val, tmp []float64
}

// evaluateInto is evaluate with the tables in buf.
func (st *Stopping) evaluateInto(buf *evalBuf, roll func(k, x, y int) bool) float64 {
	sp := st.sp
	ns := len(st.val)
	if len(buf.cont) < ns {
		buf.cont, buf.val, buf.tmp = make([]bool, ns), make([]float64, ns), make([]float64, ns)
	}
	cont := buf.cont[:ns]
	clear(cont)
	for k := 0; k < sp.n(); k++ {
		w := sp.width(k)
		for x := 1; x <= sp.a-k; x++ {
			for y := 1; y < w; y++ {
				cont[sp.off[k]+x*w+y] = roll(k, x, y)
			}
		}
	}
	val := buf.val[:ns]
	sp.solve(st.Utility, val, buf.tmp[:ns], cont, true)
	return val[st.start()]
}

// thresholdRule returns the policy "roll while P(conquering the rest) >=
// before" until the first conquest and ">= after" from then on.
func (st *Stopping) thresholdRule(before, after float64) func(k, x, y int) bool {
	return func(k, x, y int) bool {
		w := st.win[st.sp.index(k, x, y)]
		if k == 0 {
			return w >= before
		}
		return w >= after
	}
}

// Threshold returns the expected utility from the start of the rule
// "roll while P(conquering the rest of the path) >= before" until the
// first conquest and ">= after" from then on (MARS's W_p1 and W_p).
func (st *Stopping) Threshold(before, after float64) float64 {
	return st.evaluate(st.thresholdRule(before, after))
}

// ThresholdLoss is one threshold rule "roll while P(conquering the rest of
// the path) >= W" beside the optimum.
type ThresholdLoss struct {
	// W is the threshold: every state whose win probability is at least W
	// rolls; W > 1 never rolls.
	W float64
	// Value is the rule's expected utility from the start; Loss is the
	// optimum's value minus Value (>= 0 up to rounding).
	Value, Loss float64
}

// maxThresholds bounds the thresholds Thresholds evaluates.
const maxThresholds = 400

// Thresholds returns the threshold rules "roll while P(conquering the rest
// of the path) >= W" for every W that makes a different rule on the states
// reachable from the start (each distinct win probability of a reachable
// decision state, and 2 for never rolling), ascending in W. With more than
// 400 distinct values it keeps 400 of them evenly spaced in rank, and the
// first and last.
func (st *Stopping) Thresholds() []ThresholdLoss {
	sp := st.sp
	var ws []float64
	for k := 0; k < sp.n(); k++ {
		w := sp.width(k)
		for x := 1; x <= sp.a-k; x++ {
			for y := 1; y < w; y++ {
				if i := sp.off[k] + x*w + y; st.reach[i] {
					ws = append(ws, st.win[i])
				}
			}
		}
	}
	slices.Sort(ws)
	ws = slices.Compact(ws)
	if len(ws) > maxThresholds {
		kept := make([]float64, 0, maxThresholds)
		for i := range maxThresholds {
			kept = append(kept, ws[i*(len(ws)-1)/(maxThresholds-1)])
		}
		ws = slices.Compact(kept)
	}
	ws = append(ws, 2)
	best := st.Value()
	out := make([]ThresholdLoss, len(ws))
	var buf evalBuf
	for i, w := range ws {
		v := st.evaluateInto(&buf, st.thresholdRule(w, w))
		out[i] = ThresholdLoss{W: w, Value: v, Loss: best - v}
	}
	return out
}

// indifferent is the relative difference below which rolling and stopping
// count as equally good in IsThreshold.
const indifferent = 1e-12

// IsThreshold reports whether the optimal policy is itself a threshold
// rule on the reachable decision states where the choice matters (rolling
// and stopping differ by more than 1e-12, relative): every such state where
// it rolls has a higher P(conquering the rest) than every one where it
// stops. lo and hi
// are the highest win probability of a stopping state and the lowest of a
// rolling state (-1 and 2 when there are none), so any W in (lo, hi]
// reproduces the policy when ok.
func (st *Stopping) IsThreshold() (ok bool, lo, hi float64) {
	sp := st.sp
	lo, hi = -1, 2
	for k := 0; k < sp.n(); k++ {
		w := sp.width(k)
		for x := 1; x <= sp.a-k; x++ {
			for y := 1; y < w; y++ {
				i := sp.off[k] + x*w + y
				stop := sp.reward(st.Utility, k, x, y)
				if !st.reach[i] || math.Abs(st.rollVal[i]-stop) <= indifferent*max(1, math.Abs(stop)) {
					continue
				}
				if st.cont[i] {
					hi = min(hi, st.win[i])
				} else {
					lo = max(lo, st.win[i])
				}
			}
		}
	}
	return lo < hi, lo, hi
}

// StoppingExact is the optimal stopping problem of Stopping solved in exact
// rational arithmetic (the utility's float64 values are converted exactly),
// the slow reference for tests and small problems.
type StoppingExact struct {
	sp   *stopSpace
	val  []*big.Rat
	roll []*big.Rat
	// stop is the utility of stopping in each state.
	stop []*big.Rat
	cont []bool
}

// StopExact is Stop in math/big.Rat; it stops with ctx's error (wrapped)
// when ctx is done, checking it every few states.
func StopExact(ctx context.Context, r Rules, a int, defenders []int, u Utility) (*StoppingExact, error) {
	sp, err := newStopSpace(r, a, defenders)
	if err != nil {
		return nil, err
	}
	if err := u.Validate(len(defenders), a); err != nil {
		return nil, err
	}
	var ut, ua, uk, up big.Rat
	ut.SetFloat64(u.Territory)
	ua.SetFloat64(u.Army)
	uk.SetFloat64(u.Kill)
	up.SetFloat64(u.Path)
	reward := func(k, x, y int) *big.Rat {
		v := new(big.Rat)
		if u.Goal > 0 {
			if k >= u.Goal && x >= u.Keep {
				v.SetInt64(1)
			}
			return v
		}
		killed := sp.killedBefore[k]
		if k < sp.n() {
			killed += sp.defs[k] - y
		}
		var t big.Rat
		v.Add(v, t.Mul(&ut, t.SetInt64(int64(k))))
		v.Add(v, t.Mul(&ua, t.SetInt64(int64(x+k))))
		v.Add(v, t.Mul(&uk, t.SetInt64(int64(killed))))
		if k == sp.n() {
			v.Add(v, &up)
		}
		return v
	}
	ns := sp.off[sp.n()+1]
	se := &StoppingExact{sp: sp, val: make([]*big.Rat, ns), roll: make([]*big.Rat, ns),
		stop: make([]*big.Rat, ns), cont: make([]bool, ns)}
	var st stopper
	var term big.Rat
	for k := sp.n(); k >= 0; k-- {
		w := sp.width(k)
		for x := 0; x <= sp.a-k; x++ {
			for y := 0; y < w; y++ {
				i := sp.off[k] + x*w + y
				stop := reward(k, x, y)
				se.val[i], se.stop[i] = stop, stop
				if !sp.decision(k, x, y) {
					continue
				}
				if err := st.check(ctx); err != nil {
					return nil, err
				}
				na, nd := min(sp.r.AttackerDice, x), min(sp.r.DefenderDice, y)
				m := min(na, nd)
				o := &sp.rs.odds[na][nd]
				roll := new(big.Rat)
				for j := 0; j <= m; j++ {
					roll.Add(roll, term.Mul(o.rat(j), se.val[sp.next(k, x, y, m, j)]))
				}
				se.roll[i] = roll
				if roll.Cmp(stop) > 0 {
					se.cont[i] = true
					se.val[i] = roll
				}
			}
		}
	}
	return se, nil
}

// Value returns the exact optimal expected utility from the start.
func (se *StoppingExact) Value() *big.Rat {
	return se.val[se.sp.index(0, se.sp.a, se.sp.defs[0])]
}

// at returns the exact optimal value of state (k, x, y) (see
// [Stopping.At]), whether the optimal policy rolls there, and the exact
// value of rolling once there (nil where no roll is possible); ok is false
// outside the states. The values must not be modified.
func (se *StoppingExact) at(k, x, y int) (value *big.Rat, roll bool, rollValue *big.Rat, ok bool) {
	i := se.sp.index(k, x, y)
	if i < 0 {
		return nil, false, nil, false
	}
	return se.val[i], se.cont[i], se.roll[i], true
}
