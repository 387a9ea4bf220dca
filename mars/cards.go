package mars

import "github.com/marslab-risk/marslab/sim"

// cardAgent is MARS's card agent. Its cost/reward rule (the paper gives
// none): the reward of a set is its value in armies plus the territory
// bonus if MARS owns a territory shown on it; among all valid sets of the
// hand it picks the one of the highest reward; among sets of equal reward,
// the one with the fewest wild cards (a wild kept costs nothing now and
// completes a later set), then the lowest card indices. It trades when forced, when the hand holds four or more cards
// (holding on costs the freedom to choose the set when a fifth card
// forces a trade), or when the reward is at least half of the turn's
// income from territories and continents (the armies matter now); else
// holding on costs nothing and keeps the option of a better set.
//
// The sets come from the engine's own list ([sim.State.ValidTrades]), in its
// order: indices increasing within a set, sets in lexicographic order.
type cardAgent struct {
	hand []sim.Card // the hand, reused between calls
	sets [][3]int   // the valid sets of the hand, reused between calls
}

// choose returns the set to trade, or ok == false to hold the cards.
func (c *cardAgent) choose(s *sim.State, me int, forced bool) (set [3]int, reward int, ok bool) {
	c.hand = s.Hand(c.hand[:0])
	c.sets, ok = s.ValidTrades(me, c.sets[:0])
	if !ok {
		return set, 0, false
	}
	h := c.hand
	best, bestWilds := -1, 0
	for _, x := range c.sets {
		wilds := 0
		for _, k := range x {
			if h[k].Symbol == sim.Wild {
				wilds++
			}
		}
		r := s.SetValue([3]uint8{h[x[0]].Symbol, h[x[1]].Symbol, h[x[2]].Symbol})
		for _, k := range x {
			if t := h[k].Territory; t >= 0 && s.Owner(int(t)) == me {
				r += s.Rules().Cards.TerritoryBonus
				break
			}
		}
		if r > best || (r == best && wilds < bestWilds) {
			best, bestWilds, set = r, wilds, x
		}
	}
	if best < 0 {
		return set, 0, false
	}
	if forced || len(h) >= 4 || 2*best >= s.Income(me) {
		return set, best, true
	}
	return set, best, false
}
