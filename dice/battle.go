package dice

import (
	"context"
	"fmt"
	"math"
	"math/big"
)

// MaxBattleArmies bounds a and d in Battle, Chain and their exact twins
// (the end-state computation takes Θ(a·d) memory: 32 MB at the bound).
const MaxBattleArmies = 2000

// Outcome is one end state of a battle and its probability.
type Outcome struct {
	// AttackerLeft and DefenderLeft are the armies left on each side:
	// DefenderLeft = 0 is a conquest, otherwise the attacker has stopped
	// with AttackerLeft <= the stop level.
	AttackerLeft, DefenderLeft int
	// P is the probability of ending in this state.
	P float64
}

// BattleResult is the end-state distribution of one battle and the
// moments of the losses.
type BattleResult struct {
	// Rules are the dice rules.
	Rules Rules
	// A and D are the attacking and defending armies at the start; Stop is
	// the level at which the attacker stops (0: fight to the end).
	A, D, Stop int
	// Win is P(DefenderLeft = 0), the probability of conquest.
	Win float64
	// Outcomes lists the end states with non-zero probability: conquests
	// by AttackerLeft descending, then the attacker's stops by
	// DefenderLeft ascending. The P sum to 1.
	Outcomes []Outcome
	// AttackerLossMean and AttackerLossVar are the mean and variance of
	// A - AttackerLeft; DefenderLossMean and DefenderLossVar of
	// D - DefenderLeft. AttackerLossSD and DefenderLossSD give the
	// standard deviations.
	AttackerLossMean, AttackerLossVar float64
	DefenderLossMean, DefenderLossVar float64
}

// AttackerLossSD returns the standard deviation of the attacker's losses,
// the square root of AttackerLossVar.
func (r *BattleResult) AttackerLossSD() float64 { return math.Sqrt(r.AttackerLossVar) }

// DefenderLossSD returns the standard deviation of the defender's losses,
// the square root of DefenderLossVar.
func (r *BattleResult) DefenderLossSD() float64 { return math.Sqrt(r.DefenderLossVar) }

// Battle returns the end-state distribution of a battle of a attacking
// against d defending armies fought until one side has no armies left.
func Battle(r Rules, a, d int) (*BattleResult, error) { return BattleStop(r, a, d, 0) }

// BattleStop is Battle where the attacker stops as soon as its attacking
// armies fall to stop or below (stop >= 0; a roll costing it two armies
// can take it to stop-1). If a <= stop or d = 0 no dice are rolled.
func BattleStop(r Rules, a, d, stop int) (*BattleResult, error) {
	rs, err := checkBattle(r, a, d, stop)
	if err != nil {
		return nil, err
	}
	w := d + 1
	grid := make([]float64, (a+1)*w)
	grid[a*w+d] = 1
	for x := a; x > stop; x-- {
		na := min(r.AttackerDice, x)
		for y := d; y > 0; y-- {
			v := grid[x*w+y]
			if v == 0 {
				continue
			}
			nd := min(r.DefenderDice, y)
			m := min(na, nd)
			p := &rs.p[na][nd]
			for j := 0; j <= m; j++ {
				grid[(x-(m-j))*w+y-j] += v * p[j]
			}
		}
	}
	res := &BattleResult{Rules: r, A: a, D: d, Stop: stop}
	add := func(x, y int) {
		v := grid[x*w+y]
		if v == 0 {
			return
		}
		res.Outcomes = append(res.Outcomes, Outcome{AttackerLeft: x, DefenderLeft: y, P: v})
	}
	forEachEnd(a, d, stop, add)
	res.Win, res.AttackerLossMean, res.AttackerLossVar, res.DefenderLossMean, res.DefenderLossVar =
		moments(a, d, res.Outcomes)
	return res, nil
}

// moments returns P(win) and the mean and variance of both sides' losses
// over the end states of a battle from (a, d).
//
// P(win) and the means are summed with Neumaier's compensated summation,
// which keeps the rounding error of a sum of about a+d terms near one unit
// in the last place (plain summation loses up to 5e-14 on a mean of 40).
// The variances are summed in a second pass as sum p·(l - mean)², not as
// E[l²] - E[l]², which cancels catastrophically when the variance is small
// beside the squared mean (for a = 60 against d = 1 the defender's loss
// variance is 1.7e-28, and E[l²] - E[l]² gives 3e-16). That pass also
// subtracts (sum p·(l - mean))², the correction of the corrected two-pass
// algorithm (Chan, Golub and LeVeque 1983), which removes the first-order
// effect of the remaining error in the mean.
func moments(a, d int, outs []Outcome) (win, am, av, dm, dv float64) {
	var w, ma, md compensated
	for _, o := range outs {
		if o.DefenderLeft == 0 {
			w.add(o.P)
		}
		ma.add(o.P * float64(a-o.AttackerLeft))
		md.add(o.P * float64(d-o.DefenderLeft))
	}
	win, am, dm = w.sum(), ma.sum(), md.sum()
	var ac, dc float64
	for _, o := range outs {
		ea, ed := float64(a-o.AttackerLeft)-am, float64(d-o.DefenderLeft)-dm
		av += o.P * ea * ea
		dv += o.P * ed * ed
		ac += o.P * ea
		dc += o.P * ed
	}
	return win, am, max(0, av-ac*ac), dm, max(0, dv-dc*dc)
}

// compensated is a running sum with Neumaier's compensation: c collects
// the low-order bits that s loses in each addition.
type compensated struct{ s, c float64 }

func (k *compensated) add(v float64) {
	t := k.s + v
	if math.Abs(k.s) >= math.Abs(v) {
		k.c += (k.s - t) + v
	} else {
		k.c += (v - t) + k.s
	}
	k.s = t
}

func (k *compensated) sum() float64 { return k.s + k.c }

// checkBattle validates the arguments of a battle.
func checkBattle(r Rules, a, d, stop int) (*rollSet, error) {
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	if a < 0 || a > MaxBattleArmies {
		return nil, fmt.Errorf("dice: attacking armies %d outside [0, %d]", a, MaxBattleArmies)
	}
	if d < 0 || d > MaxBattleArmies {
		return nil, fmt.Errorf("dice: defending armies %d outside [0, %d]", d, MaxBattleArmies)
	}
	if stop < 0 {
		return nil, fmt.Errorf("dice: stop level %d is negative", stop)
	}
	return rs, nil
}

// forEachEnd calls f for every possible end state of a battle from (a, d)
// with stop level stop, in the order documented for [BattleResult.Outcomes].
func forEachEnd(a, d, stop int, f func(x, y int)) {
	if d == 0 || a <= stop {
		f(a, d)
		return
	}
	for x := a; x >= 1; x-- {
		f(x, 0)
	}
	// The attacker stops at stop or, after a roll costing it several
	// armies, below it.
	for y := 1; y <= d; y++ {
		for x := stop; x >= max(0, stop+1-maxDice); x-- {
			f(x, y)
		}
	}
}

// OutcomeExact is an end state of a battle with its exact probability.
type OutcomeExact struct {
	AttackerLeft, DefenderLeft int
	P                          *big.Rat
}

// BattleResultExact is [BattleResult] in exact rational arithmetic.
type BattleResultExact struct {
	Rules                             Rules
	A, D, Stop                        int
	Win                               *big.Rat
	Outcomes                          []OutcomeExact
	AttackerLossMean, AttackerLossVar *big.Rat
	DefenderLossMean, DefenderLossVar *big.Rat
}

// BattleStopExact is [BattleStop] in exact rational arithmetic (stop 0 is
// Battle's whole battle); it stops with ctx's error
// (wrapped) when ctx is done; it checks ctx every few cells of the grid,
// so that it returns promptly even when the fractions grow long.
func BattleStopExact(ctx context.Context, r Rules, a, d, stop int) (*BattleResultExact, error) {
	rs, err := checkBattle(r, a, d, stop)
	if err != nil {
		return nil, err
	}
	var st stopper
	w := d + 1
	grid := exactGrid(a, d)
	grid[a*w+d].SetInt64(1)
	if err := rs.spreadExact(ctx, &st, r, grid, a, d, stop); err != nil {
		return nil, err
	}
	var term big.Rat
	res := &BattleResultExact{Rules: r, A: a, D: d, Stop: stop, Win: new(big.Rat)}
	forEachEnd(a, d, stop, func(x, y int) {
		if v := grid[x*w+y]; v.Sign() != 0 {
			res.Outcomes = append(res.Outcomes, OutcomeExact{AttackerLeft: x, DefenderLeft: y, P: v})
		}
	})
	am, dm, a2, d2 := new(big.Rat), new(big.Rat), new(big.Rat), new(big.Rat)
	var la, ld big.Rat
	for _, o := range res.Outcomes {
		if o.DefenderLeft == 0 {
			res.Win.Add(res.Win, o.P)
		}
		la.SetInt64(int64(a - o.AttackerLeft))
		ld.SetInt64(int64(d - o.DefenderLeft))
		am.Add(am, term.Mul(o.P, &la))
		dm.Add(dm, term.Mul(o.P, &ld))
		a2.Add(a2, term.Mul(term.Mul(o.P, &la), &la))
		d2.Add(d2, term.Mul(term.Mul(o.P, &ld), &ld))
	}
	res.AttackerLossMean, res.DefenderLossMean = am, dm
	res.AttackerLossVar = a2.Sub(a2, new(big.Rat).Mul(am, am))
	res.DefenderLossVar = d2.Sub(d2, new(big.Rat).Mul(dm, dm))
	return res, nil
}

// WinExact returns the exact probability that a attacking armies conquer
// d defending armies under r.
func WinExact(r Rules, a, d int) (*big.Rat, error) {
	res, err := BattleStopExact(context.Background(), r, a, d, 0)
	if err != nil {
		return nil, err
	}
	return res.Win, nil
}

// stopCells is how many cells of an exact computation pass between two
// checks of its context.
const stopCells = 16

// stopper checks a context every stopCells calls of check.
type stopper struct{ n int }

// exactGrid returns the zero probabilities of a battle's states in exact
// arithmetic: cell x*(d+1)+y for x attacking and y defending armies.
func exactGrid(a, d int) []*big.Rat {
	g := make([]*big.Rat, (a+1)*(d+1))
	for i := range g {
		g[i] = new(big.Rat)
	}
	return g
}

// spreadExact plays every roll of a battle in exact arithmetic on the grid g
// of exactGrid(a, d): the probability of each state with more than stop
// attacking armies and a defender left moves to the states its roll leads
// to, from the most armies down, so a state's probability is complete when
// it is reached. The states where the battle ends keep theirs. It checks ctx
// through st.
func (rs *rollSet) spreadExact(ctx context.Context, st *stopper, r Rules, g []*big.Rat, a, d, stop int) error {
	w := d + 1
	var term big.Rat
	for x := a; x > stop; x-- {
		na := min(r.AttackerDice, x)
		for y := d; y > 0; y-- {
			v := g[x*w+y]
			if v.Sign() == 0 {
				continue
			}
			if err := st.check(ctx); err != nil {
				return err
			}
			nd := min(r.DefenderDice, y)
			m := min(na, nd)
			o := &rs.odds[na][nd]
			for j := 0; j <= m; j++ {
				term.Mul(v, o.rat(j))
				t := g[(x-(m-j))*w+y-j]
				t.Add(t, &term)
			}
		}
	}
	return nil
}

// check returns ctx's error, wrapped, every stopCells calls once ctx is
// done.
func (s *stopper) check(ctx context.Context) error {
	s.n++
	if s.n%stopCells != 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dice: exact computation stopped: %w", err)
	}
	return nil
}
