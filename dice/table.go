package dice

import (
	"context"
	"fmt"
	"math/big"
)

// maxTableN is the largest n accepted by [NewTable] and [NewTableExact]:
// a table holds (n+1)² float64 values (200 MB at 5000).
const maxTableN = 5000

// Table holds P(the attacker conquers) for every battle (a, d) with
// 0 <= a, d <= N() under fixed dice rules, in one flat row-major slice so
// that a lookup is one multiply-add and one load. A Table is immutable and
// safe for concurrent use.
type Table struct {
	r      Rules
	n      int
	stride int
	win    []float64 // win[a*stride+d]
}

// NewTable computes P(win) for all 0 <= a, d <= n under r by dynamic
// programming over the acyclic battle graph, in Θ(n²) time:
//
//	W(a, 0) = 1, W(0, d) = 0 for d > 0,
//	W(a, d) = Σ_j P_{na,nd}(j) · W(a - (m-j), d - j),
//
// where na = min(r.AttackerDice, a), nd = min(r.DefenderDice, d),
// m = min(na, nd) and P_{na,nd}(j) is the probability that one roll costs
// the defender j armies and the attacker m-j.
func NewTable(r Rules, n int) (*Table, error) {
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > maxTableN {
		return nil, fmt.Errorf("dice: table size %d outside [0, %d]", n, maxTableN)
	}
	s := n + 1
	t := &Table{r: r, n: n, stride: s, win: make([]float64, s*s)}
	w := t.win
	w[0] = 1 // W(0, 0) = 1 by convention; W(0, d > 0) = 0.
	for a := 1; a <= n; a++ {
		w[a*s] = 1
		pullRow(w, &rs.p, a, s, r.AttackerDice, r.DefenderDice)
	}
	return t, nil
}

// pullRow fills the cells (x, y), 1 <= y < s, of row x of the grid w
// (stride s, cell (x, y) at x*s+y) by the backward recurrence
//
//	w(x, y) = Σ_j P_{na,nd}(j) · w(x - (m-j), y - j),
//
// with na = min(capA, x), nd = min(capD, y), m = min(na, nd). Column 0 of
// row x and every row above it must already be filled. [NewTable] and
// [Chainer.WinAll] share it: it is the one hot loop of both.
func pullRow(w []float64, p *[maxDice + 1][maxDice + 1][maxDice + 1]float64, x, s, capA, capD int) {
	na := min(capA, x)
	row := x * s
	y := 1
	// Cells with fewer defenders than the defender's dice cap.
	for ; y < s && y < capD; y++ {
		w[row+y] = cell(w, &p[na][y], row+y, s, min(na, y))
	}
	if y >= s {
		return
	}
	// From here on nd = capD: the coefficients are constant along the row.
	m := min(na, capD)
	q := &p[na][capD]
	cur := w[row : row+s]
	switch m {
	case 1:
		// Attacker loses one (row above) or defender loses one.
		p0, p1 := q[0], q[1]
		prev := w[row-s : row][:len(cur)]
		c1 := cur[y-1]
		for ; y < len(cur); y++ {
			c1 = p0*prev[y] + p1*c1
			cur[y] = c1
		}
	case 2:
		p0, p1, p2 := q[0], q[1], q[2]
		prev := w[row-s : row][:len(cur)]
		prev2 := w[row-2*s : row-s][:len(cur)] // m = 2 needs na >= 2, so x >= 2
		// Carry cur[y-2], cur[y-1] and prev[y-1] in registers.
		c2, c1, r := cur[y-2], cur[y-1], prev[y-1]
		for ; y < len(cur); y++ {
			v := p0*prev2[y] + p1*r + p2*c2
			cur[y] = v
			c2, c1, r = c1, v, prev[y]
		}
	default:
		for ; y < s; y++ {
			w[row+y] = cell(w, q, row+y, s, m)
		}
	}
}

// cell returns Σ_j p[j]·w[i - (m-j)·s - j], the value of the cell at flat
// index i whose roll compares m pairs of dice.
func cell(w []float64, p *[maxDice + 1]float64, i, s, m int) float64 {
	v := 0.0
	for j := 0; j <= m; j++ {
		v += p[j] * w[i-(m-j)*s-j]
	}
	return v
}

// Win returns P(the attacker conquers) with a attacking armies against d
// defending armies: 1 for d = 0, 0 for a = 0 < d. It takes O(1) time and
// does not allocate. Like an index expression it panics if a or d is
// outside [0, N()]; use Contains to check first.
func (t *Table) Win(a, d int) float64 {
	if uint(a) > uint(t.n) || uint(d) > uint(t.n) {
		panic(fmt.Sprintf("dice: Table.Win(%d, %d) outside table of size %d", a, d, t.n))
	}
	return t.win[a*t.stride+d]
}

// Values returns the table's probabilities in one row-major slice:
// W(a, d) is at index a*(N()+1)+d. The slice is the table's own and must
// not be modified; it lets a hot loop index it without Win's bounds
// checks.
func (t *Table) Values() []float64 { return t.win }

// Contains reports whether Win(a, d) is within the table.
func (t *Table) Contains(a, d int) bool {
	return uint(a) <= uint(t.n) && uint(d) <= uint(t.n)
}

// N returns the table's size: it covers 0 <= a, d <= N().
func (t *Table) N() int { return t.n }

// rules returns the dice rules of the table.
func (t *Table) rules() Rules { return t.r }

// TableExact holds exact P(win) for every battle (a, d) with
// 0 <= a, d <= N(). It is the slow reference for Table.
type TableExact struct {
	n   int
	win [][]*big.Rat // win[a][d]
}

// NewTableExact computes the table of [NewTable] in exact rational
// arithmetic; it stops with ctx's error
// (wrapped) when ctx is done; it checks ctx every few cells.
func NewTableExact(ctx context.Context, r Rules, n int) (*TableExact, error) {
	rs, err := newRollSet(r)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > maxTableN {
		return nil, fmt.Errorf("dice: table size %d outside [0, %d]", n, maxTableN)
	}
	t := &TableExact{n: n, win: make([][]*big.Rat, n+1)}
	var term big.Rat
	var st stopper
	for a := 0; a <= n; a++ {
		t.win[a] = make([]*big.Rat, n+1)
		for d := 0; d <= n; d++ {
			v := new(big.Rat)
			t.win[a][d] = v
			switch {
			case d == 0:
				v.SetInt64(1)
			case a == 0:
			default:
				if err := st.check(ctx); err != nil {
					return nil, err
				}
				na, nd := min(r.AttackerDice, a), min(r.DefenderDice, d)
				m := min(na, nd)
				o := &rs.odds[na][nd]
				for j := 0; j <= m; j++ {
					term.Mul(o.rat(j), t.win[a-(m-j)][d-j])
					v.Add(v, &term)
				}
			}
		}
	}
	return t, nil
}

// Win returns exact P(win) for a attacking against d defending armies; it
// panics outside [0, N()] like [Table.Win]. The result must not be modified.
func (t *TableExact) Win(a, d int) *big.Rat {
	if uint(a) > uint(t.n) || uint(d) > uint(t.n) {
		panic(fmt.Sprintf("dice: TableExact.Win(%d, %d) outside table of size %d", a, d, t.n))
	}
	return t.win[a][d]
}

// N returns the table's size.
func (t *TableExact) N() int { return t.n }
