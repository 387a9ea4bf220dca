package mars

import "marslab/dice"

// tableSize is the largest army count looked up in the bot's battle table;
// larger battles fall back to the chainer (exact, slower).
const tableSize = 128

// odds answers the dice questions of the agents: single battles from a
// per-bot table, chains from a per-bot dice.Chainer (not shared: a Chainer
// is not safe for concurrent use).
type odds struct {
	r   dice.Rules
	tbl *dice.Table
	ch  *dice.Chainer
	one [1]int
}

func newOdds(r dice.Rules) (*odds, error) {
	t, err := dice.NewTable(r, tableSize)
	if err != nil {
		return nil, err
	}
	return &odds{r: r, tbl: t, ch: dice.NewChainer(r, tableSize)}, nil
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
	o.one[0] = d
	return o.ch.Win(a, o.one[:])
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
