package dice

import (
	"context"
	"fmt"
	"math"
	"math/big"
)

// Chainer answers chain queries: a attacking armies conquer a path of
// territories holding d1, ..., dk defending armies in order; after each
// conquest with s surviving attacking armies the s armies move into the
// conquered territory, one stays there, and the next battle starts with
// s-1 attacking armies. A territory with 0 defenders is taken without a
// roll (consistent with Table.Win(a, 0) = 1).
//
// A Chainer reuses its buffers: queries do not allocate once the buffers
// have grown to the largest query. It is not safe for concurrent use; give
// each goroutine or bot its own.
type Chainer struct {
	r   Rules
	err error
	p   [maxDice + 1][maxDice + 1][maxDice + 1]float64
	// grid is the battle's mass grid, (a+1)×(d+1), row-major by attacker.
	grid []float64
	// vec[x] is P(all earlier territories conquered and x attacking armies
	// at the start of the current battle).
	vec []float64
	// surv[s] is the mass of conquests of the last territory with s
	// survivors.
	surv []float64
	// lastN and lastD are the army counts and the defenders of the last
	// Prepend, whose grid is kept until the next query (lastN = 0: none);
	// its rows from lastSat on equal row lastSat (see Prepend).
	lastN, lastD, lastSat int
}

// NewChainer returns a Chainer for rules r with buffers sized for up to
// maxArmies attacking armies and 20 defenders per territory; larger queries
// grow the buffers. If r is invalid (see [Rules.Validate]) every query
// returns NaN and Err reports why.
func NewChainer(r Rules, maxArmies int) *Chainer {
	c := &Chainer{r: r}
	rs, err := newRollSet(r)
	if err != nil {
		c.err = err
		return c
	}
	c.p = rs.p
	maxArmies = max(maxArmies, 1)
	c.vec = make([]float64, maxArmies+1)
	c.surv = make([]float64, maxArmies+1)
	c.grid = make([]float64, (maxArmies+1)*21)
	return c
}

// Err returns the error of an invalid rule set given to [NewChainer], or nil.
func (c *Chainer) Err() error { return c.err }

// Win returns P(conquering the whole path) starting with a attacking
// armies against the defenders in order; it is 1 for an empty path and
// NaN if a or a defender count is negative.
func (c *Chainer) Win(a int, defenders []int) float64 {
	if !c.run(a, defenders, nil) {
		return math.NaN()
	}
	s := 0.0
	for _, v := range c.surv[:a+1] {
		s += v
	}
	return s
}

// WinFirst appends to dst P(conquering at least the first j territories)
// for j = 1..len(defenders) and returns the extended slice. On a negative
// argument it appends NaNs.
func (c *Chainer) WinFirst(dst []float64, a int, defenders []int) []float64 {
	n := len(dst)
	for range defenders {
		dst = append(dst, math.NaN())
	}
	c.run(a, defenders, dst[n:])
	return dst
}

// survivors appends to dst, for s = 0..a, the probability of conquering
// the whole path with s armies moved into the last territory (for an empty
// path: P(s = a) = 1), and returns the extended slice. The values sum to
// Win(a, defenders). On a negative defender count it appends a+1 NaNs; for
// a < 0 it appends nothing.
func (c *Chainer) survivors(dst []float64, a int, defenders []int) []float64 {
	if a < 0 {
		return dst
	}
	if !c.run(a, defenders, nil) {
		for range a + 1 {
			dst = append(dst, math.NaN())
		}
		return dst
	}
	return append(dst, c.surv[:a+1]...)
}

// WinAll appends to dst P(conquering the whole path) for every starting
// number of attacking armies a = 0..amax, and returns the extended slice.
// It costs one backward pass over the battle grid per territory — about
// the price of a single Win query — instead of one query per army count:
// with V(x) the odds of taking the rest of the path when the next battle
// starts with x armies (V = 1 past the last territory), a territory of d
// defenders gives U(x, 0) = V(x-1) (x survivors move in, one stays),
// U(0, y) = 0 for y > 0, U(x, y) = Σ_j P_{na,nd}(j)·U(x-(m-j), y-j), and
// the new V(x) = U(x, d). For amax < 0 nothing is appended; a negative
// defender count appends amax+1 NaNs.
func (c *Chainer) WinAll(dst []float64, amax int, defenders []int) []float64 {
	if amax < 0 {
		return dst
	}
	maxD := 0
	for _, d := range defenders {
		maxD = max(maxD, d)
		if d < 0 {
			maxD = -1
			break
		}
	}
	if c.err != nil || maxD < 0 {
		for range amax + 1 {
			dst = append(dst, math.NaN())
		}
		return dst
	}
	c.lastN = 0
	n := amax + 1
	if len(c.vec) < n {
		c.vec = make([]float64, n)
		c.surv = make([]float64, n)
	}
	if need := n * (maxD + 1); len(c.grid) < need {
		c.grid = make([]float64, need)
	}
	v := c.vec[:n]
	for x := range v {
		v[x] = 1
	}
	capA, capD := c.r.AttackerDice, c.r.DefenderDice
	for k := len(defenders) - 1; k >= 0; k-- {
		d := defenders[k]
		w := d + 1
		u := c.grid[:n*w]
		u[0] = v[0] // 0 armies take an empty territory with 0 survivors
		for y := 1; y <= d; y++ {
			u[y] = 0
		}
		for x := 1; x < n; x++ {
			u[x*w] = v[x-1]
			pullRow(u, &c.p, x, w, capA, capD)
		}
		for x := range v {
			v[x] = u[x*w+d]
		}
	}
	return append(dst, v...)
}

// Prepend appends to dst the odds of conquering a longer path for every
// starting number of attacking armies a = 0..len(rest)-1, and returns the
// extended slice: the path is a first territory of d defenders followed by
// a path whose odds are rest (rest[x] is P(conquering it) when its first
// battle starts with x attacking armies; all ones for the empty path). It
// is one backward pass of WinAll, with the same arithmetic, so chaining
// Prepend from the last territory to the first gives WinAll's values bit
// for bit, and a caller can keep the odds of a path's suffixes to share
// them between paths. A negative d appends NaNs.
//
// With many more attackers than defenders the odds round to a constant:
// once rest is constant and the grid's last rows are equal bit for bit,
// every later row is the same function of equal rows and equals them, so
// the pass stops there and repeats that row (see saturated). A stack of
// thousands against tens of defenders costs a few hundred rows.
func (c *Chainer) Prepend(dst, rest []float64, d int) []float64 {
	n := len(rest)
	c.lastN = 0
	if c.err != nil || d < 0 {
		for range n {
			dst = append(dst, math.NaN())
		}
		return dst
	}
	if n == 0 {
		return dst
	}
	w := d + 1
	if need := n * w; len(c.grid) < need {
		c.grid = make([]float64, need)
	}
	// rest is constant from index r0 on.
	r0 := n - 1
	for r0 > 0 && rest[r0-1] == rest[n-1] {
		r0--
	}
	u := c.grid[:n*w]
	u[0] = rest[0] // 0 armies take an empty territory with 0 survivors
	for y := 1; y <= d; y++ {
		u[y] = 0
	}
	capA, capD := c.r.AttackerDice, c.r.DefenderDice
	back := min(capA, capD) // the rows a cell reaches back
	sat := n
	for x := 1; x < n; x++ {
		u[x*w] = rest[x-1]
		pullRow(u, &c.p, x, w, capA, capD)
		if x > r0 && x > capA+back && saturated(u, x, w, back) {
			sat = x
			break
		}
	}
	c.lastN, c.lastD, c.lastSat = n, d, sat
	for x := range n {
		dst = append(dst, u[min(x, sat)*w+d])
	}
	return dst
}

// saturated reports whether rows x-back..x of the grid u (stride w) are
// equal bit for bit. Row x+1 is then computed from rows x+1-back..x, all
// equal to row x, and from the same rest value and dice as row x was:
// when rest is constant from x-1 on, every later row equals row x.
func saturated(u []float64, x, w, back int) bool {
	row := u[x*w : (x+1)*w]
	for k := 1; k <= back; k++ {
		prev := u[(x-k)*w : (x-k+1)*w]
		// The last column, the slowest to settle, first.
		for y := w - 1; y >= 0; y-- {
			if math.Float64bits(prev[y]) != math.Float64bits(row[y]) {
				return false
			}
		}
	}
	return true
}

// PrependFewer appends to dst what Prepend(dst, rest, d) would for the
// rest of the last Prepend, if no other query came between and d is at
// most that call's defenders, and reports whether it did (else it appends
// nothing). The battle grid of a Prepend holds the odds for every count
// of defenders up to its own, so this costs len(rest) loads, not a pass:
// a bot that re-evaluates a path after every roll of a battle on its first
// territory pays for the grid once.
func (c *Chainer) PrependFewer(dst []float64, d int) ([]float64, bool) {
	if c.lastN == 0 || d < 0 || d > c.lastD {
		return dst, false
	}
	w := c.lastD + 1
	for x := range c.lastN {
		dst = append(dst, c.grid[min(x, c.lastSat)*w+d])
	}
	return dst, true
}

// LastLen returns the number of army counts of the last Prepend whose
// grid PrependFewer can use, or 0 if there is none.
func (c *Chainer) LastLen() int { return c.lastN }

// run evaluates the chain, leaving the survivors of the last battle in
// c.surv[:a+1] and writing P(at least the first j+1 conquered) to first[j]
// if first is not nil. It reports false for invalid arguments.
func (c *Chainer) run(a int, defenders []int, first []float64) bool {
	c.lastN = 0
	if c.err != nil || a < 0 {
		return false
	}
	maxD := 0
	for _, d := range defenders {
		if d < 0 {
			return false
		}
		maxD = max(maxD, d)
	}
	if len(c.vec) < a+1 {
		c.vec = make([]float64, a+1)
		c.surv = make([]float64, a+1)
	}
	if len(c.surv) < len(c.vec) {
		c.surv = make([]float64, len(c.vec))
	}
	if need := (a + 1) * (maxD + 1); len(c.grid) < need {
		c.grid = make([]float64, need)
	}
	vec, surv := c.vec[:a+1], c.surv[:a+1]
	clear(vec)
	clear(surv)
	vec[a] = 1
	surv[a] = 1 // the empty path
	top := a    // vec[x] = 0 for x > top
	for k, d := range defenders {
		clear(surv)
		if d == 0 {
			copy(surv, vec[:top+1])
		} else {
			c.battle(vec[:top+1], d, surv)
		}
		if first != nil {
			t := 0.0
			for _, v := range surv[:top+1] {
				t += v
			}
			first[k] = t
		}
		// s survivors attack the next territory with s-1 armies.
		clear(vec)
		vec[0] = surv[0]
		for x := 1; x <= top; x++ {
			vec[x-1] += surv[x]
		}
		top = max(top-1, 0)
	}
	return true
}

// battle fights d defenders with vec[x] mass starting with x attacking
// armies and adds the mass of each conquest with x survivors to surv[x].
func (c *Chainer) battle(vec []float64, d int, surv []float64) {
	top := len(vec) - 1
	w := d + 1
	g := c.grid[:(top+1)*w]
	clear(g)
	for x, v := range vec {
		g[x*w+d] = v
	}
	capA, capD := c.r.AttackerDice, c.r.DefenderDice
	for x := top; x >= 1; x-- {
		na := min(capA, x)
		row := x * w
		y := d
		if y >= capD {
			m := min(na, capD)
			p := &c.p[na][capD]
			switch m {
			case 2:
				p0, p1, p2 := p[0], p[1], p[2]
				r2, r1, r0 := g[row-2*w:row-w], g[row-w:row], g[row:row+w]
				r2, r1 = r2[:len(r0)], r1[:len(r0)]
				// The pushes within the row go through registers: in0
				// is due to r0[y], in1 to r0[y-1].
				lo := max(capD, 2)
				if y >= lo {
					in0, in1 := 0.0, 0.0
					for ; y >= lo; y-- {
						v := r0[y] + in0
						r2[y] += v * p0
						r1[y-1] += v * p1
						in0, in1 = in1, v*p2
					}
					r0[y] += in0
					r0[y-1] += in1
				}
			case 1:
				p0, p1 := p[0], p[1]
				r1, r0 := g[row-w:row], g[row:row+w]
				r1 = r1[:len(r0)]
				if y >= 1 {
					in0 := 0.0 // due to r0[y]
					for ; y >= max(capD, 1); y-- {
						v := r0[y] + in0
						r1[y] += v * p0
						in0 = v * p1
					}
					r0[y] += in0
				}
			}
		}
		for ; y >= 1; y-- {
			v := g[row+y]
			if v == 0 {
				continue
			}
			nd := min(capD, y)
			m := min(na, nd)
			p := &c.p[na][nd]
			for j := 0; j <= m; j++ {
				g[row-(m-j)*w+y-j] += v * p[j]
			}
		}
	}
	for x := 1; x <= top; x++ {
		surv[x] += g[x*w]
	}
}

// ChainResult is the outcome of a chain of battles (see Chainer).
type ChainResult struct {
	// A is the number of attacking armies at the start; Defenders the
	// defending armies of the path's territories in order.
	A         int
	Defenders []int
	// Win is P(conquering the whole path).
	Win float64
	// WinFirst[j-1] is P(conquering at least the first j territories).
	WinFirst []float64
	// Survivors[s] is P(conquering the whole path with s armies moved into
	// the last territory), s = 0..A.
	Survivors []float64
}

// Chain evaluates a chain of battles with a fresh Chainer; bots that ask
// many questions should keep a Chainer instead.
func Chain(r Rules, a int, defenders []int) (*ChainResult, error) {
	if err := checkChain(r, a, defenders); err != nil {
		return nil, err
	}
	c := NewChainer(r, a)
	res := &ChainResult{A: a, Defenders: append([]int(nil), defenders...)}
	res.WinFirst = c.WinFirst(nil, a, defenders)
	res.Survivors = c.survivors(nil, a, defenders)
	for _, v := range res.Survivors {
		res.Win += v
	}
	return res, nil
}

func checkChain(r Rules, a int, defenders []int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if a < 0 || a > MaxBattleArmies {
		return fmt.Errorf("dice: attacking armies %d outside [0, %d]", a, MaxBattleArmies)
	}
	for i, d := range defenders {
		if d < 0 || d > MaxBattleArmies {
			return fmt.Errorf("dice: defenders of territory %d: %d outside [0, %d]", i+1, d, MaxBattleArmies)
		}
	}
	return nil
}

// ChainResultExact is [ChainResult] in exact rational arithmetic.
type ChainResultExact struct {
	A         int
	Defenders []int
	Win       *big.Rat
	WinFirst  []*big.Rat
	Survivors []*big.Rat
}

// ChainExact is Chain in exact rational arithmetic (slow; for checks); it
// stops with ctx's error (wrapped)
// when ctx is done; it checks ctx every few cells of each battle's grid.
func ChainExact(ctx context.Context, r Rules, a int, defenders []int) (*ChainResultExact, error) {
	if err := checkChain(r, a, defenders); err != nil {
		return nil, err
	}
	var st stopper
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	newVec := func() []*big.Rat {
		v := make([]*big.Rat, a+1)
		for i := range v {
			v[i] = new(big.Rat)
		}
		return v
	}
	res := &ChainResultExact{A: a, Defenders: append([]int(nil), defenders...), Win: new(big.Rat)}
	vec := newVec()
	vec[a].SetInt64(1)
	surv := newVec()
	surv[a].SetInt64(1)
	for _, d := range defenders {
		surv = newVec()
		if d == 0 {
			for x := range vec {
				surv[x].Set(vec[x])
			}
		} else {
			w := d + 1
			g := exactGrid(a, d)
			for x := range vec {
				g[x*w+d].Set(vec[x])
			}
			if err := rs.spreadExact(ctx, &st, r, g, a, d, 0); err != nil {
				return nil, err
			}
			for x := 1; x <= a; x++ {
				surv[x].Set(g[x*w])
			}
		}
		t := new(big.Rat)
		for _, v := range surv {
			t.Add(t, v)
		}
		res.WinFirst = append(res.WinFirst, t)
		vec = newVec()
		vec[0].Set(surv[0])
		for x := 1; x <= a; x++ {
			vec[x-1].Add(vec[x-1], surv[x])
		}
	}
	res.Survivors = surv
	for _, v := range surv {
		res.Win.Add(res.Win, v)
	}
	return res, nil
}
