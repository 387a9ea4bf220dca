package mars

import (
	"fmt"
	"math"
	"slices"

	"marslab/dice"
)

// tableSize is the largest army count looked up in the bot's battle table
// (0.5 MB per bot); larger battles fall back to the chainer (exact,
// slower), except when the table already gives the attacker certainty to
// within saturation (see odds.win).
const tableSize = 256

// maxTableSize is the largest the table grows to (8 MB) when a long game
// brings bigger stacks; battles beyond it are scaled down (see odds.win).
const maxTableSize = 1024

// saturation: if W(tableSize, d) > 1-saturation, W(a, d) for a larger a
// is taken as 1 (it lies between the two).
const saturation = 1e-12

// odds answers the dice questions of the agents: single battles from a
// per-bot table, chains from a per-bot dice.Chainer (not shared: a Chainer
// is not safe for concurrent use).
type odds struct {
	r   dice.Rules
	tbl *dice.Table
	ch  *dice.Chainer
	// q and lim are the chain-odds bound of mayReach: q is the least
	// per-army kill probability whose independent trials dominate every
	// roll of the rules, lim[b] the least total defenders at which the
	// bound falls below pPrune for a loss budget b (grown on demand).
	q   float64
	lim []int
	// resA and resD are the attacking armies and the defenders per
	// territory that ch's buffers are known to hold, and resBuf receives
	// the odds of the query that grew them (see reserve).
	resA, resD int
	resBuf     []float64
	// store keeps the chain odds of defender sequences for the game.
	store *chainStore
}

func newOdds(r dice.Rules) (*odds, error) {
	t, err := dice.NewTable(r, tableSize)
	if err != nil {
		return nil, err
	}
	ch := dice.NewChainer(r, tableSize)
	if err := ch.Err(); err != nil {
		return nil, err
	}
	q, err := killOdds(r)
	if err != nil {
		return nil, err
	}
	return &odds{r: r, tbl: t, ch: ch, q: q, resA: tableSize, resD: chainerDefenders, store: newChainStore(ch)}, nil
}

// chainerDefenders is the defenders per territory a new dice.Chainer's
// buffers hold.
const chainerDefenders = 20

// reserve makes sure that ch's buffers hold chains of up to a attacking
// armies against up to d defenders per territory. The Chainer grows its
// buffers to the exact size a query needs, which in a long game of growing
// stacks means an allocation every few turns; reserve grows them in
// powers of two instead, by one query of the reserved size.
func (o *odds) reserve(a, d int) {
	if a <= o.resA && d <= o.resD {
		return
	}
	for o.resA < a {
		o.resA *= 2
	}
	for o.resD < d {
		o.resD = 2*o.resD + 1
	}
	o.resBuf = o.ch.WinAll(o.resBuf[:0], o.resA, []int{o.resD})
}

// win returns P(a attacking armies conquer d defenders), a battle fought
// to the end.
func (o *odds) win(a, d int) float64 {
	if d <= 0 {
		return 1
	}
	if a <= 0 {
		return 0
	}
	if o.tbl.Contains(a, d) {
		return o.tbl.Win(a, d)
	}
	n := o.tbl.N()
	if d <= n && o.tbl.Win(n, d) > 1-saturation {
		return 1
	}
	need := max(a, d)
	if n < maxTableSize {
		// Grow the table (once per bot and size) rather than run the
		// chainer's O(a·d) pass on every query of a long game.
		if t, err := dice.NewTable(o.r, min(maxTableSize, (need+tableSize-1)/tableSize*tableSize)); err == nil {
			o.tbl, n = t, t.N()
		}
	}
	if need <= n {
		return o.tbl.Win(a, d)
	}
	// Beyond the largest table (stacks of over a thousand armies, seen
	// only in long escalating-card games) MARS approximates the battle by
	// one with both sides scaled down in proportion to fit the table; at
	// that size the odds are decided by the ratio of the armies.
	return o.tbl.Win(a*n/need, d*n/need)
}

// chain returns p_i of equation (4): P(a attacking armies conquer every
// territory of the path, holding the given defenders, in order), with the
// dice package's chain semantics (survivors move on, one stays behind).
func (o *odds) chain(a int, defs []int) float64 {
	if a <= 0 {
		return 0
	}
	if len(defs) == 1 {
		return o.win(a, defs[0])
	}
	o.reserve(a, slices.Max(defs))
	return o.ch.Win(a, defs)
}

// hold is d of equations (4) and (5): the probability that x armies hold a
// territory against its strongest enemy neighbour of e armies, which can
// attack with e-1 (MARS's choice: one attacker, fought to the end; the
// paper only says "given the current neighbourhood"). It is 1 when e <= 1.
func (o *odds) hold(x, e int) float64 {
	if e <= 1 {
		return 1
	}
	return 1 - o.win(e-1, x)
}

// mayReach reports whether a attacking armies may conquer a chain of k
// territories holding def defending armies in all with odds of at least
// pPrune, by a true upper bound of the chain odds (so it is false only
// when the exact odds, for any order of the defenders, are below pPrune).
//
// The bound: to conquer the chain the attacker kills def armies and, as it
// leaves one army in each of the first k-1 territories and moves at least
// one into the last, loses at most b = a-k. Every roll is a number of
// one-to-one exchanges (the dice compared), and the defender's losses in a
// roll are stochastically dominated by as many independent exchanges that
// each kill a defender with probability q (killOdds). Coupling the rolls
// with those exchanges, a conquest implies def kills in the first def+b
// exchanges of the dominating sequence, so
//
//	P(chain) <= P(Binomial(def+b, q) >= def),
//
// which falls with def; lim[b] is the least def for which it is below
// pPrune. (5 attackers against five 1-army territories: exact odds 6.9 %,
// bound q^5 = 12.5 % under classic dice.) The test is one comparison.
func (o *odds) mayReach(a, k, def int) bool {
	b := a - k
	if b < 0 {
		return false // too few armies to leave one in each territory
	}
	for len(o.lim) <= b {
		o.lim = append(o.lim, pruneLimit(o.q, len(o.lim)))
	}
	return def < o.lim[b]
}

// pruneLimit returns the least d with P(Binomial(d+b, q) >= d) < pPrune,
// that is the least d such that fewer than b+1 failures come before the
// d-th success with probability below pPrune: the number of successes S
// before the (b+1)-th failure is negative binomial, P(S = s) =
// C(s+b, s)·q^s·(1-q)^(b+1), and the answer is the least d with
// P(S >= d) < pPrune. The terms are summed from log space, as (1-q)^(b+1)
// underflows for large b.
func pruneLimit(q float64, b int) int {
	if pPrune <= 0 {
		return math.MaxInt // nothing is pruned
	}
	lq, lr := math.Log(q), math.Log1p(-q)
	lp := float64(b+1) * lr // log P(S = 0)
	cdf := 0.0
	for s := 0; ; s++ {
		cdf += math.Exp(lp)
		if 1-cdf < pPrune {
			return s + 1
		}
		lp += lq + math.Log(float64(s+1+b)/float64(s+1))
	}
}

// killOdds returns the least q such that, for every roll the rules allow
// (na attacking against nd defending dice), the defender's losses are
// stochastically dominated by a Binomial(min(na, nd), q): for every t,
// P(losses >= t) <= P(Binomial(e, q) >= t). Under classic dice it is the
// 3-against-1 roll's 0.660 (2 against 2, 3 against 2 and the others are
// dominated by it), plus a margin for rounding.
func killOdds(r dice.Rules) (float64, error) {
	q := 0.0
	for na := 1; na <= r.AttackerDice; na++ {
		for nd := 1; nd <= r.DefenderDice; nd++ {
			ro, err := dice.Roll(r, na, nd)
			if err != nil {
				return 0, fmt.Errorf("mars: kill odds of %d against %d dice: %w", na, nd, err)
			}
			e := ro.Pairs()
			for t := 1; t <= e; t++ {
				tail := 0.0
				for j := t; j <= e; j++ {
					tail += ro.P(j)
				}
				// The binomial tail grows with q: bisect for the q where
				// it reaches tail.
				lo, hi := q, 1.0
				if binomTail(e, t, lo) >= tail {
					continue
				}
				for range 60 {
					mid := (lo + hi) / 2
					if binomTail(e, t, mid) >= tail {
						hi = mid
					} else {
						lo = mid
					}
				}
				q = hi
			}
		}
	}
	return min(1, q+1e-12), nil
}

// binomTail returns P(Binomial(e, q) >= t) for small e.
func binomTail(e, t int, q float64) float64 {
	s := 0.0
	for j := t; j <= e; j++ {
		c := 1.0
		for i := range j {
			c = c * float64(e-i) / float64(i+1)
		}
		s += c * math.Pow(q, float64(j)) * math.Pow(1-q, float64(e-j))
	}
	return s
}
