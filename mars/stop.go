package mars

import (
	"math"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/dice"
)

// StopRule says how MARS decides, after every roll, whether to attack once
// more (named option stop). The paper attacks while the best bid's odds
// reach W_p1 (before the turn's first conquest) or W_p (after); the
// optimal rule decides by the optimal stopping policy of the attack along
// the goal's remaining path ([dice.Stop]) under the utility MARS's own
// placement auction implies.
type StopRule int

const (
	// StopThreshold is the paper's rule (parameter value "threshold").
	StopThreshold StopRule = iota
	// StopOptimal attacks with the best bid (the auction's highest odds,
	// every goal bidding whatever its odds) when the optimal stopping
	// policy of its remaining path rolls in the current state (parameter
	// value "optimal").
	StopOptimal
)

// stopState is the mediator's state of the stop option: the price of an
// army in the last placement, and the game's counts of attack decisions
// (see stopDecide).
type stopState struct {
	// price is the value of one army in MARS's bid units: the mean
	// winning offensive bid per army of the last placement (equation (4)
	// is a value per army placed: P_ob·p·w·d/i), weighted by the armies
	// each won; without an offensive winner, the mean of every winning
	// bid (equation (5)'s too); 0 if no positive bid won an army. value
	// and armies are the placement's sums behind it, of offensive bids
	// (off) and of all.
	price               float64
	value, armies       float64
	offValue, offArmies float64
	// decisions counts the attack decisions evaluated; more those where
	// the optimal policy rolls and the threshold rule stops, less the
	// reverse; priced those with a price of at least stopMinPrice of the
	// path's value. lossMicro sums, over the priced ones, the threshold
	// rule's loss of expected utility
	// against the optimum in millionths of an army (loss / price);
	// lossGoalPPM sums, over every decision, the loss in millionths of
	// the path's value (loss / (P_ob·w)).
	decisions, more, less, priced, lossMicro, lossGoalPPM int64
}

// resetPrice starts a placement's price.
func (s *stopState) resetPrice() {
	s.price, s.value, s.armies, s.offValue, s.offArmies = 0, 0, 0, 0, 0
}

// notePrice records an auction won by bid w in the placement's price.
func (s *stopState) notePrice(w bid) {
	if w.I < 1 || w.Value <= 0 {
		return
	}
	s.value += w.Value * float64(w.I)
	s.armies += float64(w.I)
	if w.Goal >= 0 {
		s.offValue += w.Value * float64(w.I)
		s.offArmies += float64(w.I)
	}
	if s.offArmies > 0 {
		s.price = s.offValue / s.offArmies
	} else {
		s.price = s.value / s.armies
	}
}

// stopUtility returns the utility MARS's valuation implies for attacking
// along the remaining path of pursued goal i (a single battle against
// target if i < 0): taking the whole path is worth P_ob·w, the goal's
// value w of equation (4) (V_c of the target for a single battle) in the
// bid units of the placement auction, where an army costs the last
// placement's price.
func (m *mediator) stopUtility(i, target int) dice.Utility {
	w := m.vals[target]
	if i >= 0 {
		w = m.goals[m.pursuits[i].g].w
	}
	return dice.Utility{Path: m.p.Pob * w, Army: m.stop.price}
}

// stopDecide returns whether MARS attacks with the auction's best bid c
// under the stop option (ok is the threshold rule's decision, conquered
// whether MARS has conquered a territory this turn): the optimal stopping
// policy's choice for c's remaining path from the current state (all
// survivors moving in after each conquest) under [StopOptimal], ok under
// the paper's rule. With stop_stats = 1 it counts the decision against
// the paper's rule (under [StopOptimal], whose thresholds do not filter the
// bids, ok is the threshold test of c's odds). A problem too large for
// [dice.Stop] keeps ok.
func (m *mediator) stopDecide(c attackChoice, conquered, ok bool) bool {
	if c.odds < 0 {
		return false
	}
	b := m.b
	att := b.Armies[c.from] - 1
	defs := []int{b.Armies[c.to]}
	if c.pursuit >= 0 {
		m.remaining(m.pursuits[c.pursuit])
		defs = append(defs[:0], m.scratch...)
	}
	st, err := dice.Stop(m.o.r, att, defs, m.stopUtility(c.pursuit, c.to))
	if err != nil {
		return ok
	}
	_, roll, _, _ := st.At(0, att, defs[0])
	before := m.p.Wp1
	if conquered {
		before = m.p.Wp
	}
	if m.p.Stop == StopOptimal {
		ok = c.odds >= before
	}
	decide := ok
	if m.p.Stop == StopOptimal {
		decide = roll
	}
	if m.p.StopStats == 0 {
		return decide
	}
	s := &m.stop
	s.decisions++
	switch {
	case roll && !ok:
		s.more++
	case !roll && ok:
		s.less++
	}
	s.noteLoss(max(0, st.Value()-st.Threshold(before, m.p.Wp)), st.Utility.Path)
	return decide
}

// stopMinPrice is the least army price, as a share of the path's value
// P_ob·w, at which a decision counts among the priced ones. Below it an
// army is nearly free in bid units (a placement won only by bids of odds
// near 0), and the loss in armies, loss / price, grows without bound
// while the loss in path values stays small.
const stopMinPrice = 1e-3

// noteLoss adds the paper's rule's loss of expected utility against the
// optimum at one decision (in bid units; path is the path's value P_ob·w)
// to the loss in armies, if the placement's price of an army is at least
// stopMinPrice of the path's value, and to the loss in path values.
func (s *stopState) noteLoss(loss, path float64) {
	if s.price > 0 && s.price >= stopMinPrice*path {
		s.priced++
		s.lossMicro += int64(math.Round(1e6 * loss / s.price))
	}
	if path > 0 {
		s.lossGoalPPM += int64(math.Round(1e6 * loss / path))
	}
}

// stats appends the counts of stopState under stop_stats = 1, in this
// order: stop_decisions, the attack decisions; stop_more and stop_less,
// those where the optimal policy rolls and the paper's rule stops, and the
// reverse; stop_priced, those whose army price is at least a thousandth
// of the path's value (stopMinPrice); stop_loss_micro,
// the paper's rule's loss of expected utility against the optimum summed
// over the priced decisions, in millionths of an army; stop_loss_goal_ppm,
// the same loss over every decision in millionths of the path's value.
func (s stopState) stats(buf []bots.Stat) []bots.Stat {
	return append(buf,
		bots.Stat{Name: "stop_decisions", Count: s.decisions},
		bots.Stat{Name: "stop_more", Count: s.more},
		bots.Stat{Name: "stop_less", Count: s.less},
		bots.Stat{Name: "stop_priced", Count: s.priced},
		bots.Stat{Name: "stop_loss_micro", Count: s.lossMicro},
		bots.Stat{Name: "stop_loss_goal_ppm", Count: s.lossGoalPPM})
}
