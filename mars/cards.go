package mars

import "marslab/sim"

// cardAgent is MARS's card agent. Its cost/reward rule (the paper gives
// none): the reward of a set is its value in armies plus the territory
// bonus if MARS owns a territory shown on it; among all valid sets of the
// hand it picks the one of the highest reward (ties to the lowest card
// indices). It trades when forced, when the hand holds four or more cards
// (holding on costs the freedom to choose the set when a fifth card
// forces a trade), or when the reward is at least half of the turn's
// income from territories and continents (the armies matter now); else
// holding on costs nothing and keeps the option of a better set.
type cardAgent struct{}

// choose returns the set to trade, or ok == false to hold the cards.
func (cardAgent) choose(s *sim.State, me int, forced bool) (set [3]int, reward int, ok bool) {
	h := s.Hand(make([]sim.Card, 0, 64))
	best := -1
	for i := 0; i < len(h); i++ {
		for j := i + 1; j < len(h); j++ {
			for k := j + 1; k < len(h); k++ {
				sym := [3]uint8{h[i].Symbol, h[j].Symbol, h[k].Symbol}
				if !sim.ValidSet(sym) {
					continue
				}
				r := s.SetValue(sym)
				for _, c := range [3]sim.Card{h[i], h[j], h[k]} {
					if c.Territory >= 0 && s.Owner(int(c.Territory)) == me {
						r += s.Rules().Cards.TerritoryBonus
						break
					}
				}
				if r > best {
					best, set = r, [3]int{i, j, k}
				}
			}
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
