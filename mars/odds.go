package mars

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/dice"
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
// per-bot table, chains from a per-bot [dice.Chainer] (not shared: a Chainer
// is not safe for concurrent use).
type odds struct {
	r   dice.Rules
	tbl *dice.Table
	// tw and tn are tbl's values and size ([dice.Table.Values]).
	tw []float64
	tn int
	ch *dice.Chainer
	// q and lim are the chain-odds bound of mayReach: q is the least
	// per-army kill probability whose independent trials dominate every
	// roll of the rules, lim[b] the least total defenders at which the
	// bound falls below pPrune for a loss budget b (grown on demand).
	q   float64
	lim []int
	// big holds the lim values beyond exactLimits (see limit), scaled the
	// scaled defenders of a chain beyond chainCap (see chainOdds).
	big    map[int]int
	scaled []int
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
	return &odds{r: r, tbl: t, tw: t.Values(), tn: t.N(), ch: ch, q: q, store: newChainStore(ch), big: make(map[int]int)}, nil
}

// boundWin returns W(a, d) where it is exact and 1 beyond the largest
// battle table, where win scales the battle: a factor of an upper bound of
// chain odds (see mediator.numerator and goalBound).
func (o *odds) boundWin(a, d int) float64 {
	if max(a, d) > maxTableSize {
		return 1
	}
	return o.win(a, d)
}

// win returns P(a attacking armies conquer d defenders), a battle fought
// to the end.
func (o *odds) win(a, d int) float64 {
	if uint(a) <= uint(o.tn) && uint(d) <= uint(o.tn) {
		// The table: W(a, 0) = 1, W(0, d > 0) = 0 as below.
		return o.tw[a*(o.tn+1)+d]
	}
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
			o.tw, o.tn = t.Values(), n
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

// maxChainCells is the most grid cells (2 MB) one territory of a chain
// may cost: odds.chainOdds computes chains within it exactly and scales
// the others (see exactChain). Every battle of up to 1,023 attackers
// against up to 255 defenders fits; beyond, in the long escalating-card
// games whose stacks reach tens of thousands, a goal's odds are asked
// hundreds of times a turn, and a larger grid costs seconds a turn.
const maxChainCells = 1 << 18

// chainCap is the most armies, attacking or defending one territory, a
// chain beyond maxChainCells is scaled down to: below it, a scaled chain
// costs at most chainCap·chainCap = maxChainCells cells a territory, as
// the exact ones do.
const chainCap = 512

// exactChain reports whether the chain odds of a attacking armies against
// defenders of at most maxD per territory are computed exactly: the odds
// store computes them for a power of two of army counts above a (see
// chainStore.lookup), each territory a grid of that many rows and maxD+1
// columns, which must fit in maxChainCells.
func exactChain(a, maxD int) bool {
	if a < 1024 && maxD < maxChainCells/1024 {
		return true // at most 1024 rows of maxChainCells/1024 columns
	}
	return storeLen(a+1) <= maxChainCells/(maxD+1)
}

// chainOdds returns P(a attacking armies conquer every territory of the
// path, holding the given defenders, in order), with the dice package's
// chain semantics (survivors move on, one stays behind), from the odds
// store. Within maxChainCells (exactChain) they are exact (WinAll's
// values): a chain of up to 65,535 attackers against territories of up
// to 3 defenders, of 16,383 against up to 15, of 1,023 against up to 255.
// Beyond, where both sides count hundreds or more, every army count
// is halved (rounded down) until all are below chainCap, as single battles
// beyond the largest table are scaled (see win): an approximation, which
// at that size is decided mostly by the ratio of the armies, not bounded
// by a tolerance; it keeps a chain to at most chainCap·chainCap cells per
// territory.
func (o *odds) chainOdds(defs []int, a int) float64 {
	if a <= 0 {
		return 0
	}
	maxD := 0
	for _, d := range defs {
		maxD = max(maxD, d)
	}
	if exactChain(a, maxD) {
		return o.store.odds(o.store.lookup(defs, a+1), a)
	}
	// Halve every count until the largest fits: the scaled counts change
	// only every 2^k armies, so the store keeps serving a battle's rolls.
	k := 0
	for max(a, maxD)>>k >= chainCap {
		k++
	}
	o.scaled = o.scaled[:0]
	for _, d := range defs {
		o.scaled = append(o.scaled, d>>k)
	}
	as := a >> k
	return o.store.odds(o.store.lookup(o.scaled, as+1), as)
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
	return def < o.limit(b)
}

// exactLimits is the largest loss budget b whose pruning limit is the
// exact pruneLimit (kept in odds.lim: computing them all costs O(b²));
// larger budgets, seen only with stacks of thousands of armies, use the
// Chernoff bound of chernoffLimit.
const exactLimits = 2048

// limit returns the least total defenders at which the chain-odds bound
// of mayReach falls below pPrune for a loss budget b >= 0.
func (o *odds) limit(b int) int {
	if b <= exactLimits {
		for len(o.lim) <= b {
			o.lim = append(o.lim, pruneLimit(o.q, len(o.lim)))
		}
		return o.lim[b]
	}
	if d, ok := o.big[b]; ok {
		return d
	}
	if len(o.big) >= 1024 {
		clear(o.big) // a placement asks for a few budgets
	}
	d := chernoffLimit(o.q, b, o.limit(exactLimits))
	o.big[b] = d
	return d
}

// chernoffLimit returns the least d >= lo with the Chernoff bound
// exp(-N·D(d/N ‖ q)) of P(Binomial(N, q) >= d), N = d+b, below pPrune,
// where D is the Kullback–Leibler divergence of Bernoulli distributions.
// The bound is at least the exact tail, so the least such d is at least
// pruneLimit(q, b): mayReach stays a true bound, pruning no chain the
// exact limit would keep. lo must be at most the answer (pruneLimit of a
// smaller budget is: the limit grows with b).
func chernoffLimit(q float64, b, lo int) int {
	if pPrune <= 0 {
		return math.MaxInt
	}
	below := func(d int) bool {
		n := float64(d + b)
		x := float64(d) / n
		if x <= q {
			return false // the bound is 1
		}
		kl := x*math.Log(x/q) + (1-x)*math.Log((1-x)/(1-q))
		return -n*kl < math.Log(pPrune)
	}
	hi := max(lo, 1)
	for !below(hi) {
		hi *= 2
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if below(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
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
