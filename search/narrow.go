package search

import (
	"fmt"
	"math"
	"sort"

	"github.com/marslab-risk/marslab/stats"
)

// NarrowConfig configures a narrowing search: an iterated zoom over a grid
// of the searched parameters, games allocated by racing.
type NarrowConfig struct {
	// Space is the searched parameters; Points[i] is the number of grid
	// points of dimension i per level (>= 1; integer and choice
	// parameters may give fewer distinct values).
	Space  Space
	Points []int
	// Levels is the number of zoom levels, >= 1.
	Levels int
	// Rounds is the number of racing rounds per level, >= 1; Blocks the
	// blocks every cell alive plays per round, >= 1.
	Rounds, Blocks int
	// Alpha is the family-wise error rate of each racing test, in (0, 1):
	// a cell is dropped when the Holm-adjusted one-sided p-value of the
	// paired t-test "best better than it" is below Alpha.
	Alpha float64
	// Margin is the margin kept around the cells alive at the end of a
	// level, in grid spacings of that level (>= 0).
	Margin float64
	// Zoom is the largest ratio of a dimension's next window to its current
	// one, in (0, 1]: when the cells alive span more, the next window is
	// centred on the best cell (or, with Fit, on the cell alive whose
	// fitted win rate is highest).
	Zoom float64
	// Reference, when not nil, holds values (e.g. the paper's) that every
	// racing round plays beside the cells on the same blocks (candidate
	// len(Cells)), so that each level measures its cells against it on its
	// own deals (Level.Ref, the block scores of every Cell beside it): rates of different levels are
	// comparable only as such differences.
	Reference []float64
	// Halve sets aside, after every racing round of a level but the last,
	// the worse half of the cells alive (by win rate over their common
	// blocks; Cell.Halved), and doubles the blocks of each round (round r
	// plays Blocks·2^r), so that the level's blocks go to the cells that
	// decide its window: successive halving inside the level. A cell set
	// aside is not shown worse; racing still drops the cells it shows
	// worse. At most 16 rounds.
	Halve bool
	// Fit centres a cut window on the cell alive of largest fitted win
	// rate, a quadratic in the normalised coordinates fitted by weighted
	// least squares to every cell of the level (weights: blocks), rather
	// than on the single best cell; the best cell when the fit has too few
	// cells.
	Fit bool
}

// check reports whether the configuration is usable.
func (c *NarrowConfig) check() error {
	switch {
	case len(c.Space) == 0:
		return fmt.Errorf("no parameter to search")
	case len(c.Points) != len(c.Space):
		return fmt.Errorf("%d point counts for %d parameters", len(c.Points), len(c.Space))
	case c.Levels < 1 || c.Levels > maxLevels:
		return fmt.Errorf("levels %d: want 1..%d", c.Levels, maxLevels)
	case c.Rounds < 1 || c.Rounds > maxRounds:
		return fmt.Errorf("rounds %d: want 1..%d", c.Rounds, maxRounds)
	case c.Blocks < 1 || c.Blocks > maxBlocks:
		return fmt.Errorf("blocks %d: want 1..%d", c.Blocks, maxBlocks)
	case !(c.Alpha > 0 && c.Alpha < 1):
		return fmt.Errorf("alpha %v: want in (0, 1)", c.Alpha)
	case !(c.Margin >= 0) || math.IsInf(c.Margin, 0):
		return fmt.Errorf("margin %v: want >= 0", c.Margin)
	case !(c.Zoom > 0 && c.Zoom <= 1):
		return fmt.Errorf("zoom %v: want in (0, 1]", c.Zoom)
	}
	cells := 1
	for i, p := range c.Points {
		if p < 1 || p > maxPoints {
			return fmt.Errorf("parameter %s: points %d: want 1..%d", c.Space[i].Param.Name, p, maxPoints)
		}
		if cells *= p; cells > maxCells {
			return fmt.Errorf("points %v: more than %d cells: want at most %d", c.Points, maxCells, maxCells)
		}
	}
	if cells*c.Blocks > maxStepBlocks {
		return fmt.Errorf("blocks %d on %d cells: %d per round: want at most %d", c.Blocks, cells, cells*c.Blocks, maxStepBlocks)
	}
	if c.Halve && (c.Rounds > 16 || c.Blocks<<(c.Rounds-1) > maxBlocks) {
		return fmt.Errorf("halve with %d rounds of %d blocks: want at most 16 rounds and %d blocks in the last", c.Rounds, c.Blocks, maxBlocks)
	}
	for _, d := range c.Space {
		if err := d.validate(); err != nil {
			return err
		}
	}
	return nil
}

// Cell is one grid point of a narrowing level and its games.
type Cell struct {
	// X holds the values, U the normalised coordinates.
	X, U []float64
	// Index holds the cell's grid position per dimension (into
	// Level.Axes).
	Index []int
	// Scores are the win rates of the cell's blocks, in block order.
	Scores []float64
	// Wins and Games count its games.
	Wins, Games int
	// Dropped is the racing round after which the cell was dropped, -1
	// while alive; Halved says that halving set it aside (NarrowConfig.Halve)
	// rather than racing showing it worse.
	Dropped int
	Halved  bool
	// P is the Holm-adjusted p-value of the last test that the best cell
	// is better (1 for the best cell or untested).
	P float64
}

// mean returns the cell's win rate (0 without games).
func (c *Cell) mean() float64 {
	if c.Games == 0 {
		return 0
	}
	return float64(c.Wins) / float64(c.Games)
}

// Wilson returns the 95 % Wilson interval of the cell's win rate.
func (c *Cell) Wilson() stats.Interval { return wilson95(c.Wins, c.Games) }

// wilson95 returns the 95 % Wilson interval of wins in games, [0, 1]
// where stats.Wilson refuses the counts.
func wilson95(wins, games int) stats.Interval {
	iv, err := stats.Wilson(wins, games, stats.Level)
	if err != nil {
		return stats.Interval{Lo: 0, Hi: 1}
	}
	return iv
}

// Level is one zoom level of a narrowing search.
type Level struct {
	// Lo and Hi bound the level's window in normalised coordinates.
	Lo, Hi []float64
	// Axes[i] holds the values of dimension i on the level's grid,
	// ascending.
	Axes [][]float64
	// Cells are the grid points, the last dimension varying fastest.
	Cells []Cell
	// Best is the index of the best cell alive (highest win rate) after
	// the level's last round.
	Best int
	// Ref is the reference's record on the level's blocks (nil without
	// NarrowConfig.Reference); Centre the cell the next window was centred
	// on when it was cut (-1 when it was not).
	Ref    *Cell
	Centre int
}

// alive returns the number of cells alive.
func (l *Level) alive() int {
	n := 0
	for i := range l.Cells {
		if l.Cells[i].Dropped < 0 {
			n++
		}
	}
	return n
}

// minRaceBlocks is the number of blocks a level's cells must have played
// before racing tests them.
const minRaceBlocks = 4

// Narrowing is the Method of a narrowing search (NarrowConfig). Level k
// lays a grid of Points over its window; in each of Rounds racing rounds
// every cell alive plays the same Blocks new blocks (level k, round r plays
// blocks (k·Rounds + r)·Blocks + 0..Blocks-1), then the cells that a
// one-sided paired t-test over the common blocks, Holm-corrected over the
// cells alive, shows worse than the best at level Alpha are dropped. The
// next window is the bounding box of the cells alive widened by Margin grid
// spacings, at most Zoom times the current window (centred on the best
// cell when the box is wider). The result is the best cell of the last
// level.
type Narrowing struct {
	cfg    NarrowConfig
	levels []Level
	round  int // next round of the current level
	told   int // steps told
}

// NewNarrowing returns a narrowing search.
func NewNarrowing(cfg NarrowConfig) (*Narrowing, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("search: narrowing: %w", err)
	}
	n := &Narrowing{cfg: cfg}
	lo, hi := make([]float64, len(cfg.Space)), make([]float64, len(cfg.Space))
	for i := range hi {
		hi[i] = 1
	}
	n.levels = []Level{n.grid(lo, hi)}
	return n, nil
}

// grid lays the grid of a level over the window [lo, hi].
func (n *Narrowing) grid(lo, hi []float64) Level {
	l := Level{Lo: lo, Hi: hi, Axes: make([][]float64, len(n.cfg.Space)), Centre: -1}
	if n.cfg.Reference != nil {
		l.Ref = &Cell{X: n.cfg.Reference, U: n.cfg.Space.units(n.cfg.Reference), Dropped: -1, P: 1}
	}
	for i, d := range n.cfg.Space {
		p := n.cfg.Points[i]
		var vals []float64
		for k := 0; k < p; k++ {
			u := (lo[i] + hi[i]) / 2
			if p > 1 {
				u = lo[i] + (hi[i]-lo[i])*float64(k)/float64(p-1)
			}
			v := d.value(u)
			if len(vals) == 0 || v != vals[len(vals)-1] {
				vals = append(vals, v)
			}
		}
		sort.Float64s(vals)
		l.Axes[i] = vals
	}
	idx := make([]int, len(l.Axes))
	for {
		x := make([]float64, len(idx))
		for i, k := range idx {
			x[i] = l.Axes[i][k]
		}
		l.Cells = append(l.Cells, Cell{X: x, U: n.cfg.Space.units(x), Index: append([]int(nil), idx...), Dropped: -1, P: 1})
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(l.Axes[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	return l
}

// steps returns Levels·Rounds.
func (n *Narrowing) steps() int { return n.cfg.Levels * n.cfg.Rounds }

// Config returns the search's configuration.
func (n *Narrowing) Config() NarrowConfig { return n.cfg }

// Levels returns the levels so far (the current one last).
func (n *Narrowing) Levels() []Level { return n.levels }

// next returns the current round's evaluations: every cell alive on the
// round's blocks.
func (n *Narrowing) next() ([]Eval, error) {
	if n.told >= n.steps() {
		return nil, fmt.Errorf("narrowing: no step after %d", n.steps())
	}
	l := &n.levels[len(n.levels)-1]
	first, nb := n.roundBlocks()
	var ev []Eval
	for c := range l.Cells {
		if l.Cells[c].Dropped >= 0 {
			continue
		}
		for b := 0; b < nb; b++ {
			ev = append(ev, Eval{Cand: c, X: l.Cells[c].X, Block: first + b})
		}
	}
	if l.Ref != nil {
		for b := 0; b < nb; b++ {
			ev = append(ev, Eval{Cand: len(l.Cells), X: l.Ref.X, Block: first + b})
		}
	}
	return ev, nil
}

// roundBlocks returns the first block and the number of blocks of the
// current round: level k, round r plays (k·Rounds + r)·Blocks onwards, or
// with Halve k·Blocks·(2^Rounds − 1) + Blocks·(2^r − 1) onwards,
// Blocks·2^r of them.
func (n *Narrowing) roundBlocks() (first, count int) {
	k := len(n.levels) - 1
	if !n.cfg.Halve {
		return (k*n.cfg.Rounds + n.round) * n.cfg.Blocks, n.cfg.Blocks
	}
	return k*n.cfg.Blocks*(1<<n.cfg.Rounds-1) + n.cfg.Blocks*(1<<n.round-1), n.cfg.Blocks << n.round
}

// halve sets aside the worse half of the cells alive of l, by win rate
// over their common blocks (ties: the lower index stays).
func (n *Narrowing) halve(l *Level) {
	var alive []int
	for c := range l.Cells {
		if l.Cells[c].Dropped < 0 {
			alive = append(alive, c)
		}
	}
	sort.SliceStable(alive, func(i, j int) bool { return l.Cells[alive[i]].mean() > l.Cells[alive[j]].mean() })
	for _, c := range alive[(len(alive)+1)/2:] {
		l.Cells[c].Dropped, l.Cells[c].Halved = n.round, true
	}
}

// tell records the round's results, races, and after the last round of a
// level lays the next level's grid.
func (n *Narrowing) tell(res []Result) error {
	l := &n.levels[len(n.levels)-1]
	_, nb := n.roundBlocks()
	k := 0
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Dropped >= 0 {
			continue
		}
		if k+nb > len(res) {
			return fmt.Errorf("narrowing: %d results: want %d per cell alive", len(res), nb)
		}
		for _, r := range res[k : k+nb] {
			cell.Scores = append(cell.Scores, r.score())
			cell.Wins += r.Wins
			cell.Games += r.Games
		}
		k += nb
	}
	if l.Ref != nil {
		if k+nb > len(res) {
			return fmt.Errorf("narrowing: %d results: want %d with the reference's", len(res), k+nb)
		}
		for _, r := range res[k : k+nb] {
			l.Ref.Scores = append(l.Ref.Scores, r.score())
			l.Ref.Wins += r.Wins
			l.Ref.Games += r.Games
		}
		k += nb
	}
	if k != len(res) {
		return fmt.Errorf("narrowing: %d results: want %d", len(res), k)
	}
	if err := n.race(l); err != nil {
		return err
	}
	if n.cfg.Halve && n.round+1 < n.cfg.Rounds {
		n.halve(l)
	}
	n.told++
	n.round++
	if n.round == n.cfg.Rounds {
		n.round = 0
		if len(n.levels) < n.cfg.Levels {
			lo, hi := n.window(l)
			n.levels = append(n.levels, n.grid(lo, hi))
		}
	}
	return nil
}

// race drops the cells shown worse than the best.
func (n *Narrowing) race(l *Level) error {
	best := -1
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Dropped < 0 && (best < 0 || cell.mean() > l.Cells[best].mean()) {
			best = c
		}
	}
	l.Best = best
	if len(l.Cells[best].Scores) < minRaceBlocks {
		return nil
	}
	var who []int
	var ps []float64
	for c := range l.Cells {
		cell := &l.Cells[c]
		if cell.Dropped >= 0 || c == best {
			continue
		}
		p, err := stats.PairedT(l.Cells[best].Scores, cell.Scores, stats.Level)
		if err != nil {
			return fmt.Errorf("narrowing: racing: %w", err)
		}
		// One-sided p-value of "best better than cell".
		one := p.P / 2
		switch {
		case p.SD == 0 && p.Mean > 0:
			// Every block favours the best by the same amount: the t
			// statistic is infinite; use the exact sign test instead.
			one = math.Pow(0.5, float64(p.N))
		case p.Mean <= 0:
			one = 1 - p.P/2
		}
		if math.IsNaN(one) {
			one = 1
		}
		who = append(who, c)
		ps = append(ps, math.Max(0, math.Min(1, one)))
	}
	if len(ps) == 0 {
		return nil
	}
	adj, err := stats.Holm(ps)
	if err != nil {
		return fmt.Errorf("narrowing: racing: %w", err)
	}
	for i, c := range who {
		l.Cells[c].P = adj[i]
		if adj[i] < n.cfg.Alpha {
			l.Cells[c].Dropped = n.round
		}
	}
	return nil
}

// window returns the next level's window.
func (n *Narrowing) window(l *Level) (lo, hi []float64) {
	d := len(n.cfg.Space)
	lo, hi = make([]float64, d), make([]float64, d)
	for i := 0; i < d; i++ {
		a, b := math.Inf(1), math.Inf(-1)
		for c := range l.Cells {
			if l.Cells[c].Dropped < 0 {
				a = math.Min(a, l.Cells[c].U[i])
				b = math.Max(b, l.Cells[c].U[i])
			}
		}
		w := l.Hi[i] - l.Lo[i]
		sp := w
		if p := n.cfg.Points[i]; p > 1 {
			sp = w / float64(p-1)
		}
		a, b = a-n.cfg.Margin*sp, b+n.cfg.Margin*sp
		if max := n.cfg.Zoom * w; b-a > max {
			if l.Centre < 0 {
				l.Centre = l.Best
				if n.cfg.Fit {
					l.Centre = fittedBest(l)
				}
			}
			m := l.Cells[l.Centre].U[i]
			a, b = m-max/2, m+max/2
		}
		// Shift inside [0, 1].
		if a < 0 {
			b, a = math.Min(1, b-a), 0
		}
		if b > 1 {
			a, b = math.Max(0, a-(b-1)), 1
		}
		lo[i], hi[i] = a, b
	}
	return lo, hi
}

// Best returns the best cell of the last level played (the result), and
// that level.
func (n *Narrowing) Best() (Cell, *Level) {
	// The current level has no games until its first round is told.
	for i := len(n.levels) - 1; i >= 0; i-- {
		l := &n.levels[i]
		if l.Cells[l.Best].Games > 0 {
			return l.Cells[l.Best], l
		}
	}
	return n.levels[0].Cells[0], &n.levels[0]
}

// status describes the level, round, cells alive and the best so far.
func (n *Narrowing) status() string {
	l := &n.levels[len(n.levels)-1]
	s := fmt.Sprintf("level %d/%d round %d/%d, %d/%d cells alive", len(n.levels), n.cfg.Levels, n.round+1, n.cfg.Rounds, l.alive(), len(l.Cells))
	if n.told >= n.steps() {
		s = fmt.Sprintf("done: %d levels, %d/%d cells alive at the last", len(n.levels), l.alive(), len(l.Cells))
	}
	if b, _ := n.Best(); b.Games > 0 {
		iv := b.Wilson()
		s += fmt.Sprintf("; best %s %.3f [%.3f, %.3f]", n.cfg.Space.Label(b.X), b.mean(), iv.Lo, iv.Hi)
	}
	return s
}
