package mars

import "marslab/dice"

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
	return &odds{r: r, tbl: t, ch: ch}, nil
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
