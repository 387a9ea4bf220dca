package baseline

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// The checker below re-derives every decision of the Sciberras bots from the
// events of real games, with its own reference code for the rules of
// section 4.2 of Sciberras (2022): at each event it rebuilds the position
// the bot saw (the engine applies an action before announcing it) and
// compares the bot's choice with the reference choice.

// refArg returns p's territory with the fewest (sign -1) or most (sign +1)
// armies under arm, skipping skip, lowest id on ties.
func refArg(s *sim.State, p int, arm func(int) int, sign, skip int) int {
	best := -1
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != p || t == skip {
			continue
		}
		if best < 0 || sign*arm(t) > sign*arm(best) {
			best = t
		}
	}
	return best
}

// refAttack is section 3.3's choice: small players (< 10 territories)
// first, then the largest difference, then the lowest (from, to).
func refAttack(s *sim.State, p int, arm func(int) int) (int, int) {
	type cand struct{ from, to, diff int }
	var small, all []cand
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != p || arm(t) < 2 {
			continue
		}
		for _, nb := range s.Map().Neighbors(t) {
			if o := s.Owner(nb); o != p {
				c := cand{t, nb, arm(t) - arm(nb)}
				all = append(all, c)
				if s.TerritoryCount(o) < 10 {
					small = append(small, c)
				}
			}
		}
	}
	if len(small) > 0 {
		all = small
	}
	if len(all) == 0 {
		return -1, -1
	}
	best := all[0]
	for _, c := range all[1:] {
		if c.diff > best.diff {
			best = c
		}
	}
	return best.from, best.to
}

type checker struct {
	s     *sim.State
	strat []int // Strategy per seat, or -1
	errs  []string

	cur, orders      int
	inOrder, moved   bool
	lastDice         int
	pacPlace         map[int]int // pacifist placements of the current group
	lastSetup        []int
	hist             [3][12]int // orders per turn, by strategy
	setupChecked     int
	placeChecked     int
	attackChecked    int
	occupyChecked    int
	fortifyChecked   int
	noFortifyChecked int
}

func newChecker(s *sim.State, strat []int) *checker {
	c := &checker{s: s, strat: strat, cur: -1, lastSetup: make([]int, len(strat))}
	for i := range c.lastSetup {
		c.lastSetup[i] = -1
	}
	return c
}

func (c *checker) errorf(format string, args ...any) {
	if len(c.errs) < 10 {
		c.errs = append(c.errs, fmt.Sprintf("round %d seat %d: ", c.s.Round(), c.cur)+fmt.Sprintf(format, args...))
	}
}

func (c *checker) endPlaceGroup() {
	if len(c.pacPlace) == 0 {
		return
	}
	lo, hi := 1<<30, 0
	for _, k := range c.pacPlace {
		lo, hi = min(lo, k), max(hi, k)
	}
	n := c.s.TerritoryCount(c.cur)
	switch {
	case len(c.pacPlace) < n && hi != 1:
		c.errorf("pacifist placed %v on %d of %d territories", c.pacPlace, len(c.pacPlace), n)
	case hi-lo > 1:
		c.errorf("pacifist placements %v differ by more than one", c.pacPlace)
	}
	c.placeChecked++
	c.pacPlace = nil
}

func (c *checker) endTurn() {
	c.endPlaceGroup()
	p := c.cur
	if p < 0 || c.strat[p] < 0 {
		return
	}
	st := Strategy(c.strat[p])
	c.hist[st][min(c.orders, 11)]++
	if c.s.Winner() >= 0 || c.moved || st == Pacifist {
		return
	}
	arm := c.s.Armies
	from := refArg(c.s, p, arm, 1, -1)
	to := refArg(c.s, p, arm, 1, from)
	if st == Passive {
		to = refArg(c.s, p, arm, -1, -1)
	}
	if from >= 0 && to >= 0 && from != to {
		k := arm(from) - (arm(from)+arm(to)+1)/2
		if k > 0 && c.s.CheckMoves(p, []sim.Move{{From: from, To: to, Armies: k}}) == nil {
			c.errorf("%v did not fortify %d->%d (%d armies)", st, from, to, k)
		}
	}
	c.noFortifyChecked++
}

func (c *checker) Observe(e *sim.Event) {
	s := c.s
	if e.Kind != sim.EvPlace {
		c.endPlaceGroup()
	}
	switch e.Kind {
	case sim.EvStart:
		for i := range c.lastSetup {
			c.lastSetup[i] = -1
		}
		c.cur = -1
		return
	case sim.EvTurn:
		c.endTurn()
		c.cur, c.orders, c.inOrder, c.moved = e.Player, 0, false, false
		return
	case sim.EvGameEnd:
		c.endTurn()
		return
	}
	p := e.Player
	if p < 0 || p >= len(c.strat) || c.strat[p] < 0 {
		if e.Kind == sim.EvOccupation || e.Kind == sim.EvFailedOccupation {
			c.inOrder = false
		}
		return
	}
	st := Strategy(c.strat[p])
	switch e.Kind {
	case sim.EvReinforce:
		hand, _ := s.HandOf(nil, p)
		for i := 0; i < len(hand); i++ {
			for j := i + 1; j < len(hand); j++ {
				for k := j + 1; k < len(hand); k++ {
					if sim.ValidSet([3]uint8{hand[i].Symbol, hand[j].Symbol, hand[k].Symbol}) {
						c.errorf("%v kept a set in hand %v", st, hand)
					}
				}
			}
		}
	case sim.EvSetupPlace:
		if s.Rules().Setup.InitialArmies != "bots" {
			return
		}
		arm := func(t int) int {
			if t == e.To {
				return s.Armies(t) - 1
			}
			return s.Armies(t)
		}
		want := -1
		switch st {
		case Passive:
			want = refArg(s, p, arm, -1, -1)
		case Aggressive:
			want = refArg(s, p, arm, 1, -1)
		case Pacifist:
			for j := 1; j <= s.NumTerritories(); j++ {
				if t := (c.lastSetup[p] + j) % s.NumTerritories(); s.Owner(t) == p {
					want = t
					break
				}
			}
			c.lastSetup[p] = e.To
		}
		if e.To != want {
			c.errorf("%v setup placement on %d, want %d", st, e.To, want)
		}
		c.setupChecked++
	case sim.EvPlace:
		if st == Pacifist {
			if c.pacPlace == nil {
				c.pacPlace = map[int]int{}
			}
			if _, dup := c.pacPlace[e.To]; dup {
				c.errorf("pacifist placed twice on %d", e.To)
			}
			c.pacPlace[e.To] = e.Armies
			return
		}
		arm := func(t int) int {
			if t == e.To {
				return s.Armies(t) - e.Armies
			}
			return s.Armies(t)
		}
		sign := 1
		if st == Passive {
			sign = -1
		}
		if want := refArg(s, p, arm, sign, -1); e.To != want {
			c.errorf("%v placed %d on %d, want %d", st, e.Armies, e.To, want)
		}
		c.placeChecked++
	case sim.EvRoll:
		if st == Passive {
			c.errorf("passive attacked %d->%d", e.From, e.To)
			return
		}
		preFrom := s.Armies(e.From) + e.AttackerLoss
		if want := min(s.Rules().Attack.AttackerDice, preFrom-1); int(e.NAttack) != want {
			c.errorf("%v rolled %d dice from %d armies, want %d", st, e.NAttack, preFrom, want)
		}
		c.lastDice = int(e.NAttack)
		if c.inOrder {
			return
		}
		c.inOrder = true
		c.orders++
		arm := func(t int) int {
			switch t {
			case e.From:
				return preFrom
			case e.To:
				return s.Armies(t) + e.DefenderLoss
			}
			return s.Armies(t)
		}
		if f, to := refAttack(s, p, arm); f != e.From || to != e.To {
			c.errorf("%v attacked %d->%d, want %d->%d", st, e.From, e.To, f, to)
		}
		c.attackChecked++
	case sim.EvFailedOccupation:
		c.inOrder = false
		if s.Armies(e.From) != 1 {
			c.errorf("%v stopped its blitz %d->%d with %d armies left", st, e.From, e.To, s.Armies(e.From))
		}
	case sim.EvOccupation:
		c.inOrder = false
		hi := s.Armies(e.From) + e.Armies - 1
		lo := 1
		if s.Rules().Attack.MoveInAtLeastDice {
			lo = c.lastDice
		}
		lo = min(lo, hi)
		want := hi
		if st == Pacifist {
			want = min(max((hi+1)/2, lo), hi)
		}
		if e.Armies != want {
			c.errorf("%v moved %d into %d (range %d..%d), want %d", st, e.Armies, e.To, lo, hi, want)
		}
		c.occupyChecked++
	case sim.EvMove:
		if st == Pacifist {
			c.errorf("pacifist fortified %d->%d", e.From, e.To)
			return
		}
		c.moved = true
		arm := func(t int) int {
			switch t {
			case e.From:
				return s.Armies(t) + e.Armies
			case e.To:
				return s.Armies(t) - e.Armies
			}
			return s.Armies(t)
		}
		from := refArg(s, p, arm, 1, -1)
		to := refArg(s, p, arm, 1, from)
		if st == Passive {
			to = refArg(s, p, arm, -1, -1)
		}
		total := arm(e.From) + arm(e.To)
		if e.From != from || e.To != to || s.Armies(e.From) != (total+1)/2 {
			c.errorf("%v moved %d armies %d->%d, want %d->%d leaving %d", st, e.Armies, e.From, e.To, from, to, (total+1)/2)
		}
		c.fortifyChecked++
	}
}

// TestSciberrasDecisions checks every placement, attack, move-in and
// fortification of the three strategies in real games on every embedded
// rule set.
func TestSciberrasDecisions(t *testing.T) {
	t.Parallel()
	for _, rn := range ruleSets {
		m, r := load(t, rn)
		var total checker
		for _, n := range []int{3, 6} {
			g, err := sim.NewGame(m, r, n)
			require.NoError(t, err)
			strat := make([]int, n)
			players := make([]sim.Player, n)
			for i := range players {
				switch i % 4 {
				case 3:
					strat[i] = -1
					players[i] = newRandom(0.3)
				default:
					strat[i] = (i + n) % 3
					players[i] = NewSciberras(Strategy(strat[i]))
				}
			}
			c := newChecker(g.State(), strat)
			g.Observe(c)
			for i := 0; i < 12; i++ {
				// Rotate the strategies through the seats.
				for p := range players {
					if strat[p] >= 0 {
						strat[p] = (strat[p] + 1) % 3
						players[p] = NewSciberras(Strategy(strat[p]))
					}
				}
				res, err := g.Play(players, 5, uint64(i))
				require.NoError(t, err)
				for p, f := range res.Faults {
					require.Zero(t, f, "%s: seat %d made %d faults", rn, p, f)
				}
				require.Empty(t, c.errs, "%s, %d players, game %d", rn, n, i)
			}
			for st := range c.hist {
				for k, v := range c.hist[st] {
					total.hist[st][k] += v
				}
			}
			total.setupChecked += c.setupChecked
			total.placeChecked += c.placeChecked
			total.attackChecked += c.attackChecked
			total.occupyChecked += c.occupyChecked
			total.fortifyChecked += c.fortifyChecked
			total.noFortifyChecked += c.noFortifyChecked
		}
		t.Logf("%s: checked %d setup placements, %d placements, %d attacks, %d move-ins, %d moves, %d fortify phases without a move",
			rn, total.setupChecked, total.placeChecked, total.attackChecked, total.occupyChecked, total.fortifyChecked, total.noFortifyChecked)
		for _, n := range []int{total.placeChecked, total.attackChecked, total.occupyChecked, total.fortifyChecked, total.noFortifyChecked} {
			require.NotZero(t, n, "%s: some decisions were never checked", rn)
		}
		if r.Setup.InitialArmies == "bots" {
			require.NotZero(t, total.setupChecked, "%s: no setup placement checked", rn)
		}
		// Orders per turn: passive none, pacifist at most 3, aggressive at
		// most 9, and every budget value is reached.
		for k, v := range total.hist[Passive] {
			if k > 0 {
				assert.Zero(t, v, "%s: turns in which passive made %d orders", rn, k)
			}
		}
		for st, lo := range map[Strategy]int{Pacifist: 1, Aggressive: 7} {
			for k, v := range total.hist[st] {
				if k > lo+2 {
					assert.Zero(t, v, "%s: turns in which %v made %d orders", rn, st, k)
				}
				if k >= lo && k <= lo+2 {
					assert.NotZero(t, v, "%s: %v never made exactly %d orders in a turn (histogram %v)", rn, st, k, total.hist[st])
				}
			}
		}
	}
}
