package dice

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Defence is the allocation of a defender's armies along a path that
// minimises the attacker's chance of conquering the whole path (Glass and
// Neller 2015, "Optimal defensive strategies in one-dimensional RISK",
// Mathematics Magazine 88(3)). The attacker attacks the territories in
// order and fights every battle to the end; after each conquest its
// survivors move in and one stays (the convention of Chainer).
type Defence struct {
	// Alloc is an optimal allocation: Alloc[i] armies (>= 1) in the i-th
	// territory attacked.
	Alloc []int
	// Win is the attacker's P(conquering the whole path) against Alloc.
	Win float64
	// Adaptive is the attacker's chance against a defender who could
	// choose each territory's armies after seeing the attacker's armies at
	// the start of its battle: the bound the search prunes with, a lower
	// bound of Win.
	Adaptive float64
	// Allocations is the number of allocations of the armies (every
	// territory at least 1: C(armies-1, k-1)); Leaves and Nodes are how
	// many complete and partial allocations the search evaluated.
	Allocations   float64
	Leaves, Nodes int
}

// Bounds of Defend.
const (
	maxDefendArmies    = 200
	maxDefendTerritory = 20
)

// defender holds the tables of a defence problem.
type defender struct {
	a, armies, k int
	// surv[d][x*(a+1)+s] is P(x attacking armies conquer d defenders with
	// s survivors).
	surv [][]float64
	// bound[j][r*(a+1)+x] is the adaptive defender's value of j
	// territories holding r armies against x attacking armies.
	bound            [][]float64
	best             float64
	alloc, bestAlloc []int
	leaves, nodes    int
	exhaustive       bool
	ctx              context.Context
	st               stopper
	err              error
}

// Defend returns an allocation of armies (>= k) defending armies over a
// path of k territories (1..20, at least one army each) that minimises the
// attacker's P(conquering the whole path) with a attacking armies, by a
// depth-first search over the territories in attack order that prunes a
// partial allocation when its admissible lower bound (the attacker's
// chance against the adaptive defender of [Defence.Adaptive] for the
// remaining territories, summed over the distribution of the attacker's
// armies) is at least the best complete allocation so far. The result is
// optimal, not a heuristic. With exhaustive it evaluates every allocation
// instead (the check of the bound). It stops with ctx's error when ctx is
// done.
func Defend(ctx context.Context, r Rules, a, armies, k int, exhaustive bool) (*Defence, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	switch {
	case a < 0 || a > maxDefendArmies:
		return nil, fmt.Errorf("dice: defend: attacking armies %d outside [0, %d]", a, maxDefendArmies)
	case k < 1 || k > maxDefendTerritory:
		return nil, fmt.Errorf("dice: defend: territories %d outside [1, %d]", k, maxDefendTerritory)
	case armies < k || armies > maxDefendArmies:
		return nil, fmt.Errorf("dice: defend: defending armies %d outside [%d, %d] (at least one per territory)", armies, k, maxDefendArmies)
	}
	df := &defender{a: a, armies: armies, k: k, exhaustive: exhaustive, ctx: ctx, best: math.Inf(1),
		alloc: make([]int, k)}
	if err := df.tables(r); err != nil {
		return nil, err
	}
	vec := make([]float64, a+1)
	vec[a] = 1
	df.search(0, armies, vec)
	if df.err != nil {
		return nil, df.err
	}
	n := a + 1
	return &Defence{Alloc: df.bestAlloc, Win: df.best, Adaptive: df.bound[k][armies*n+a],
		Allocations: binomial(armies-1, k-1), Leaves: df.leaves, Nodes: df.nodes}, nil
}

// binomial returns C(n, k) as a float64.
func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Round(c)
}

// tables fills surv and bound.
func (df *defender) tables(r Rules) error {
	a, n := df.a, df.a+1
	dmax := df.armies
	df.surv = make([][]float64, dmax+1)
	for d := 1; d <= dmax; d++ {
		t := make([]float64, n*n)
		for x := 1; x <= a; x++ {
			res, err := Battle(r, x, d)
			if err != nil {
				return err
			}
			for _, o := range res.Outcomes {
				if o.DefenderLeft == 0 {
					t[x*n+o.AttackerLeft] = o.P
				}
			}
		}
		df.surv[d] = t
	}
	// bound[0][0][x] = 1: nothing left to conquer.
	df.bound = make([][]float64, df.k+1)
	for j := range df.bound {
		df.bound[j] = make([]float64, (df.armies+1)*n)
	}
	for x := range n {
		df.bound[0][x] = 1
	}
	for j := 1; j <= df.k; j++ {
		for rr := j; rr <= df.armies; rr++ {
			for x := 0; x <= a; x++ {
				b := math.Inf(1)
				lo := 1
				if j == 1 {
					lo = rr // the last territory takes what is left
				}
				for d := lo; d <= rr-(j-1); d++ {
					v := 0.0
					row := df.surv[d][x*n : (x+1)*n]
					next := df.bound[j-1][(rr-d)*n:]
					for s := 1; s <= x; s++ {
						v += row[s] * next[s-1]
					}
					b = min(b, v)
				}
				df.bound[j][rr*n+x] = b
			}
		}
	}
	return nil
}

// search assigns territory i with rest armies left for territories
// i..k-1, the attacker's armies at the start of battle i distributed as
// vec.
func (df *defender) search(i, rest int, vec []float64) {
	if df.err != nil {
		return
	}
	if err := df.st.check(df.ctx); err != nil {
		df.err = err
		return
	}
	df.nodes++
	n := df.a + 1
	left := df.k - i - 1 // territories after this one
	type child struct {
		d     int
		lb    float64
		after []float64
	}
	var kids []child
	lo, hi := 1, rest-left
	if left == 0 {
		lo = rest
	}
	for d := lo; d <= hi; d++ {
		after := make([]float64, n)
		for x := 1; x < n; x++ {
			v := vec[x]
			if v == 0 {
				continue
			}
			row := df.surv[d][x*n : (x+1)*n]
			for s := 1; s <= x; s++ {
				after[s-1] += v * row[s]
			}
		}
		lb := 0.0
		b := df.bound[left][(rest-d)*n:]
		for x, v := range after {
			lb += v * b[x]
		}
		kids = append(kids, child{d, lb, after})
	}
	slices.SortStableFunc(kids, func(p, q child) int {
		switch {
		case p.lb < q.lb:
			return -1
		case p.lb > q.lb:
			return 1
		}
		return 0
	})
	for _, c := range kids {
		if !df.exhaustive && c.lb >= df.best {
			break
		}
		df.alloc[i] = c.d
		if left == 0 {
			df.leaves++
			// With nothing left the bound is the attacker's chance itself.
			if c.lb < df.best {
				df.best = c.lb
				df.bestAlloc = slices.Clone(df.alloc)
			}
			continue
		}
		df.search(i+1, rest-c.d, c.after)
	}
}
