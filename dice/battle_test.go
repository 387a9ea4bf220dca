package dice

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
)

// Agreement between the float64 and the exact results, as documented in the
// package comment: a float64 value x agrees with an exact value e when
// |x - e| <= agreeTol * max(1, |e|).
const agreeTol = 1e-14

// agrees reports whether x agrees with the exact value e.
func agrees(x, e float64) bool { return math.Abs(x-e) <= agreeTol*max(1, math.Abs(e)) }

// exactEnds is the exact end-state distribution of a battle from every
// start (x, y) with 0 <= x, y <= n at once, for one stop level. It is
// computed backwards, so that all starts share the work: the distribution
// from (x, y) is the mix of the distributions after one roll from (x, y).
//
// Every probability is held as an integer over a common denominator: with
// unit = 6^(r.AttackerDice+r.DefenderDice), each roll's odds are c/T with T
// dividing unit, and every roll removes m >= 1 armies, so the distribution
// from (x, y) times unit^(x+y) is a vector of integers:
//
//	Q(x, y) = sum_j c_j (unit^m / T) Q(x-(m-j), y-j).
//
// This is far faster than big.Rat, which reduces every sum by a gcd.
type exactEnds struct {
	r       Rules
	n, stop int
	unit    *big.Int
	rs      *rollSet
	// rows holds Q for the last maxDice+1 values of x (a ring), indexed
	// [x%len(rows)][y][end], nil for 0.
	rows [][][]*big.Int
}

// endIndex returns the index of end state (x, y) in a distribution vector:
// conquests (x, 0) first, then stops (x <= stop, y >= 1).
func (e *exactEnds) endIndex(x, y int) int {
	if y == 0 {
		return x
	}
	return e.n + 1 + (e.stop-x)*e.n + y - 1
}

// endState is the inverse of endIndex.
func (e *exactEnds) endState(i int) (x, y int) {
	if i <= e.n {
		return i, 0
	}
	i -= e.n + 1
	return e.stop - i/e.n, i%e.n + 1
}

func newExactEnds(r Rules, n, stop int) (*exactEnds, error) {
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	unit := new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(r.AttackerDice+r.DefenderDice)), nil)
	e := &exactEnds{r: r, n: n, stop: stop, unit: unit, rs: rs, rows: make([][][]*big.Int, maxDice+1)}
	return e, nil
}

// row computes Q(x, y) for every y = 0..n; rows x-1, x-2, ... must have
// been computed before.
func (e *exactEnds) row(x int) [][]*big.Int {
	size := e.n + 1 + (e.stop+1)*e.n
	row := make([][]*big.Int, e.n+1)
	var coef, term big.Int
	for y := 0; y <= e.n; y++ {
		q := make([]*big.Int, size)
		row[y] = q
		if y == 0 || x <= e.stop {
			q[e.endIndex(x, y)] = new(big.Int).Exp(e.unit, big.NewInt(int64(x+y)), nil)
			continue
		}
		na, nd := min(e.r.AttackerDice, x), min(e.r.DefenderDice, y)
		o := &e.rs.odds[na][nd]
		m := o.Pairs()
		scale := new(big.Int).Exp(e.unit, big.NewInt(int64(m)), nil)
		scale.Quo(scale, big.NewInt(o.Total))
		for j := 0; j <= m; j++ {
			if o.Count[j] == 0 {
				continue
			}
			coef.Mul(scale, big.NewInt(o.Count[j]))
			var next []*big.Int
			if j == 0 {
				next = e.rows[(x-m)%len(e.rows)][y]
			} else if j == m {
				next = row[y-m]
			} else {
				next = e.rows[(x-(m-j))%len(e.rows)][y-j]
			}
			for i, v := range next {
				if v == nil {
					continue
				}
				term.Mul(v, &coef)
				if q[i] == nil {
					q[i] = new(big.Int)
				}
				q[i].Add(q[i], &term)
			}
		}
	}
	e.rows[x%len(e.rows)] = row
	return row
}

// exactStats are the exact results of one battle, rounded to float64.
type exactStats struct {
	win             float64
	ends            map[[2]int]float64
	attMean, attVar float64
	defMean, defVar float64
	// The same as big.Rat, kept only when asked for (to cross-check
	// BattleStopExact).
	winQ              *big.Rat
	endsQ             map[[2]int]*big.Rat
	attMeanQ, attVarQ *big.Rat
	defMeanQ, defVarQ *big.Rat
}

// stats returns the exact win probability, end states and loss moments of
// the battle from (a, d), whose distribution is q; with rats it also keeps
// them as big.Rat.
func (e *exactEnds) stats(a, d int, q []*big.Int, rats bool) exactStats {
	den := new(big.Int).Exp(e.unit, big.NewInt(int64(a+d)), nil)
	s := exactStats{ends: map[[2]int]float64{}}
	if rats {
		s.endsQ = map[[2]int]*big.Rat{}
	}
	win := new(big.Int)
	var am, a2, dm, d2, t big.Int
	for i, v := range q {
		if v == nil || v.Sign() == 0 {
			continue
		}
		x, y := e.endState(i)
		s.ends[[2]int{x, y}] = quoFloat(v, den)
		if rats {
			s.endsQ[[2]int{x, y}] = new(big.Rat).SetFrac(v, den)
		}
		if y == 0 {
			win.Add(win, v)
		}
		la, ld := big.NewInt(int64(a-x)), big.NewInt(int64(d-y))
		am.Add(&am, t.Mul(v, la))
		a2.Add(&a2, t.Mul(t.Mul(v, la), la))
		dm.Add(&dm, t.Mul(v, ld))
		d2.Add(&d2, t.Mul(t.Mul(v, ld), ld))
	}
	// Var = (S2·den - M²) / den².
	den2 := new(big.Int).Mul(den, den)
	variance := func(m, s2 *big.Int) *big.Int {
		v := new(big.Int).Mul(s2, den)
		return v.Sub(v, new(big.Int).Mul(m, m))
	}
	av, dv := variance(&am, &a2), variance(&dm, &d2)
	s.win = quoFloat(win, den)
	s.attMean, s.defMean = quoFloat(&am, den), quoFloat(&dm, den)
	s.attVar, s.defVar = quoFloat(av, den2), quoFloat(dv, den2)
	if rats {
		s.winQ = new(big.Rat).SetFrac(win, den)
		s.attMeanQ, s.defMeanQ = new(big.Rat).SetFrac(&am, den), new(big.Rat).SetFrac(&dm, den)
		s.attVarQ, s.defVarQ = new(big.Rat).SetFrac(av, den2), new(big.Rat).SetFrac(dv, den2)
	}
	return s
}

// quoFloat returns num/den as a float64, through 128-bit big.Float
// arithmetic: within one unit in the last place of the exact quotient, far
// below agreeTol.
func quoFloat(num, den *big.Int) float64 {
	const prec = 128
	n := new(big.Float).SetPrec(prec).SetInt(num)
	d := new(big.Float).SetPrec(prec).SetInt(den)
	f, _ := n.Quo(n, d).Float64()
	return f
}

// compareBattle checks the float64 result of BattleStop(r, a, d, stop)
// against the exact stats and returns a description of every disagreement.
func compareBattle(f *BattleResult, ex exactStats) []string {
	var bad []string
	check := func(what string, x, e float64) {
		if !agrees(x, e) {
			bad = append(bad, fmt.Sprintf("%s = %v, exact %v (off %.3g)", what, x, e, x-e))
		}
	}
	check("Win", f.Win, ex.win)
	seen := 0
	for _, o := range f.Outcomes {
		e, ok := ex.ends[[2]int{o.AttackerLeft, o.DefenderLeft}]
		if ok {
			seen++
		}
		check(fmt.Sprintf("P(end %d, %d)", o.AttackerLeft, o.DefenderLeft), o.P, e)
	}
	if seen != len(ex.ends) {
		bad = append(bad, fmt.Sprintf("%d end states, %d of the %d exact ones", len(f.Outcomes), seen, len(ex.ends)))
	}
	check("AttackerLossMean", f.AttackerLossMean, ex.attMean)
	check("AttackerLossVar", f.AttackerLossVar, ex.attVar)
	check("DefenderLossMean", f.DefenderLossMean, ex.defMean)
	check("DefenderLossVar", f.DefenderLossVar, ex.defVar)
	return bad
}

// TestBattleAllMatchExact checks Battle and BattleStop against exact
// arithmetic for every start 0 <= a, d <= 60 at stop levels 0 and 3 (40
// under the race detector: the same checks, a third of the exact work):
// P(win), every end state's probability and the mean and variance of both
// sides' losses must agree to agreeTol (see agrees).
func TestBattleAllMatchExact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r       Rules
		n, stop int
	}{
		{Classic, 60, 0},
		{Classic, 60, 3},
		{Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}, 30, 0},
		{Rules{AttackerDice: 2, DefenderDice: 3}, 30, 2},
		{Rules{AttackerDice: 1, DefenderDice: 1}, 30, 1},
	}
	for _, tt := range tests {
		if race.Enabled {
			tt.n = min(tt.n, 40)
		}
		t.Run(fmt.Sprintf("%v/n=%d/stop=%d", tt.r, tt.n, tt.stop), func(t *testing.T) {
			ee, err := newExactEnds(tt.r, tt.n, tt.stop)
			require.NoError(t, err)
			var bad []string
			for a := 0; a <= tt.n; a++ {
				row := ee.row(a)
				for d := 0; d <= tt.n; d++ {
					f, err := BattleStop(tt.r, a, d, tt.stop)
					require.NoError(t, err)
					for _, msg := range compareBattle(f, ee.stats(a, d, row[d], false)) {
						bad = append(bad, fmt.Sprintf("BattleStop(%d, %d, stop %d): %s", a, d, tt.stop, msg))
					}
				}
			}
			if n := len(bad); n > 10 {
				bad = append(bad[:10], fmt.Sprintf("... %d disagreements in all", n))
			}
			assert.Empty(t, bad)
		})
	}
}

// TestExactEndsMatchBattleExact checks the test's own shared exact
// computation against BattleStopExact, value for value.
func TestExactEndsMatchBattleExact(t *testing.T) {
	t.Parallel()
	for _, stop := range []int{0, 3} {
		ee, err := newExactEnds(Classic, 12, stop)
		require.NoError(t, err)
		for a := 0; a <= 12; a++ {
			row := ee.row(a)
			for d := 0; d <= 12; d++ {
				s := ee.stats(a, d, row[d], true)
				ex, err := BattleStopExact(context.Background(), Classic, a, d, stop)
				require.NoError(t, err)
				for _, pair := range []struct {
					what      string
					got, want *big.Rat
				}{
					{"Win", s.winQ, ex.Win},
					{"AttackerLossMean", s.attMeanQ, ex.AttackerLossMean},
					{"AttackerLossVar", s.attVarQ, ex.AttackerLossVar},
					{"DefenderLossMean", s.defMeanQ, ex.DefenderLossMean},
					{"DefenderLossVar", s.defVarQ, ex.DefenderLossVar},
				} {
					assert.Zero(t, pair.got.Cmp(pair.want), "(%d, %d, stop %d) %s = %v, BattleStopExact %v",
						a, d, stop, pair.what, pair.got, pair.want)
				}
				assert.Len(t, s.endsQ, len(ex.Outcomes), "(%d, %d, stop %d): end states", a, d, stop)
				for _, o := range ex.Outcomes {
					p := s.endsQ[[2]int{o.AttackerLeft, o.DefenderLeft}]
					assert.True(t, p != nil && p.Cmp(o.P) == 0, "(%d, %d, stop %d) end (%d, %d) = %v, BattleStopExact %v",
						a, d, stop, o.AttackerLeft, o.DefenderLeft, p, o.P)
				}
			}
		}
	}
}

// TestBattleSmallVariance checks variances far below 1, where agreeTol's
// absolute floor says nothing: 60 armies against 1 defender lose it only
// with probability about 1.7e-28, and E[l²] - E[l]² would give 3e-16
// instead of the defender's loss variance p(1-p).
func TestBattleSmallVariance(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, d, stop int }{{60, 1, 0}, {60, 2, 0}, {40, 1, 3}, {60, 1, 3}}
	for _, tt := range tests {
		ex, err := BattleStopExact(context.Background(), Classic, tt.a, tt.d, tt.stop)
		require.NoError(t, err)
		f, err := BattleStop(Classic, tt.a, tt.d, tt.stop)
		require.NoError(t, err)
		want, _ := ex.DefenderLossVar.Float64()
		require.True(t, want > 0 && want <= 1e-10, "(%d, %d, stop %d): exact defender loss variance %v is not small",
			tt.a, tt.d, tt.stop, want)
		assert.InEpsilon(t, want, f.DefenderLossVar, 1e-12, "(%d, %d, stop %d): DefenderLossVar", tt.a, tt.d, tt.stop)
	}
}
