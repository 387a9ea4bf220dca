package baseline

import (
	"fmt"
	"math/rand/v2"

	"marslab/bots"
	"marslab/bots/blocks"
	"marslab/sim"
)

// DefaultRandomStop is the Random bot's default probability of ending its
// attack phase before each attack order.
const DefaultRandomStop = 0.2

// Random is a player whose every decision is a uniformly random legal one.
// It is the engine's tester: over many games it reaches every legal corner
// of the Player interface. Its choices, all drawn from its own stream:
//
//   - PlaceInitial: a uniformly random owned territory.
//   - Trade: when the hand holds sets, one of them uniformly; it trades with
//     probability 1/2, always when forced.
//   - Place: with probability 1/2 everything on one random owned territory,
//     otherwise each army on a random owned territory, one Placement per
//     army (so a territory may appear several times in the list).
//   - Attack: before each order it stops with probability Stop; otherwise a
//     uniformly random legal (from, to), a random dice count 0..max (0 is
//     "the most"), and with probability 1/2 a single roll, else a Repeat
//     ("blitz") order with StopAt uniform in 0..armies(from).
//   - Occupy: uniform in [min, max].
//   - Fortify, by the rule in force, passing with probability 1/4:
//     single: one random adjacent owned pair, a random amount;
//     connected: a random source and a random territory of its owned
//     component, a random amount; one-step: every territory with spare
//     armies, with probability 1/2, sends a random share of its spare armies
//     in one or more moves to random owned neighbours.
//
// A Random value keeps its buffers between games and allocates nothing per
// call once they have grown.
type Random struct {
	// Stop is the probability in [0, 1] of ending the attack phase before
	// each attack order.
	Stop float64

	seat   int
	rng    *rand.Rand
	pairs  [][2]int // scratch: attack or move pairs
	sets   [][3]int // scratch: valid sets in hand
	nbs    []int    // scratch: owned neighbours
	board  blocks.Board
	search blocks.Search
}

// NewRandom returns a Random player with the given stop probability.
func NewRandom(stop float64) *Random { return &Random{Stop: stop} }

// Start resets the per-game state.
func (b *Random) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	nt := s.NumTerritories()
	if cap(b.nbs) < nt {
		b.nbs = make([]int, 0, nt)
	}
}

// PlaceInitial returns a uniformly random owned territory.
func (b *Random) PlaceInitial(s *sim.State) int { return b.randomOwned(s) }

// Trade trades a random valid set with probability 1/2, always if forced.
func (b *Random) Trade(s *sim.State, forced bool) ([3]int, bool) {
	hand := s.Hand(make([]sim.Card, 0, 64))
	b.sets = b.sets[:0]
	for i := 0; i < len(hand); i++ {
		for j := i + 1; j < len(hand); j++ {
			for k := j + 1; k < len(hand); k++ {
				if sim.ValidSet([3]uint8{hand[i].Symbol, hand[j].Symbol, hand[k].Symbol}) {
					b.sets = append(b.sets, [3]int{i, j, k})
				}
			}
		}
	}
	if len(b.sets) == 0 || (!forced && b.rng.IntN(2) == 0) {
		return [3]int{}, false
	}
	set := b.sets[b.rng.IntN(len(b.sets))]
	// Shuffle the order of the indices too: the engine accepts any order.
	for i := 2; i > 0; i-- {
		j := b.rng.IntN(i + 1)
		set[i], set[j] = set[j], set[i]
	}
	return set, true
}

// Place puts all armies on one random territory or each on a random one.
func (b *Random) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	if b.rng.IntN(2) == 0 {
		return append(buf, sim.Placement{Territory: b.randomOwned(s), Armies: armies})
	}
	for i := 0; i < armies; i++ {
		buf = append(buf, sim.Placement{Territory: b.randomOwned(s), Armies: 1})
	}
	return buf
}

// Attack returns a random legal order, or stops with probability Stop.
func (b *Random) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if b.Stop > 0 && b.rng.Float64() < b.Stop {
		return sim.AttackOrder{}, false
	}
	m := s.Map()
	b.pairs = b.pairs[:0]
	for t, nt := 0, s.NumTerritories(); t < nt; t++ {
		if s.Owner(t) != b.seat || s.Armies(t) < 2 {
			continue
		}
		for _, nb := range m.Territories[t].Neighbors {
			if s.Owner(nb) != b.seat {
				b.pairs = append(b.pairs, [2]int{t, nb})
			}
		}
	}
	if len(b.pairs) == 0 {
		return sim.AttackOrder{}, false
	}
	pr := b.pairs[b.rng.IntN(len(b.pairs))]
	a := s.Armies(pr[0])
	maxDice := min(s.Rules().Attack.AttackerDice, a-1)
	o := sim.AttackOrder{From: pr[0], To: pr[1], Dice: b.rng.IntN(maxDice + 1)}
	if b.rng.IntN(2) == 0 {
		o.Repeat = true
		o.StopAt = b.rng.IntN(a + 1)
	}
	return o, true
}

// Occupy moves a uniformly random legal number of armies.
func (b *Random) Occupy(s *sim.State, from, to, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + b.rng.IntN(hi-lo+1)
}

// Fortify makes random legal moves under the fortify rule in force.
func (b *Random) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	if b.rng.IntN(4) == 0 {
		return buf
	}
	m := s.Map()
	nt := s.NumTerritories()
	switch s.Rules().Fortify.Mode {
	case sim.FortifyOneStep:
		for t := 0; t < nt; t++ {
			if s.Owner(t) != b.seat || s.Armies(t) < 2 || b.rng.IntN(2) == 0 {
				continue
			}
			b.nbs = b.nbs[:0]
			for _, nb := range m.Territories[t].Neighbors {
				if s.Owner(nb) == b.seat {
					b.nbs = append(b.nbs, nb)
				}
			}
			if len(b.nbs) == 0 {
				continue
			}
			// Move a random total of the spare armies, in random pieces.
			left := 1 + b.rng.IntN(s.Armies(t)-1)
			for left > 0 {
				k := 1 + b.rng.IntN(left)
				buf = append(buf, sim.Move{From: t, To: b.nbs[b.rng.IntN(len(b.nbs))], Armies: k})
				left -= k
			}
		}
		return buf
	case sim.FortifyConnected:
		b.nbs = b.nbs[:0]
		for t := 0; t < nt; t++ {
			if s.Owner(t) == b.seat && s.Armies(t) >= 2 {
				b.nbs = append(b.nbs, t)
			}
		}
		if len(b.nbs) == 0 {
			return buf
		}
		from := b.nbs[b.rng.IntN(len(b.nbs))]
		b.board.Load(s)
		comp := b.search.Component(&b.board, b.seat, from)
		if len(comp) < 2 {
			return buf
		}
		to := comp[1+b.rng.IntN(len(comp)-1)] // comp[0] is from
		return append(buf, sim.Move{From: from, To: to, Armies: 1 + b.rng.IntN(s.Armies(from)-1)})
	default: // sim.FortifySingle
		b.pairs = b.pairs[:0]
		for t := 0; t < nt; t++ {
			if s.Owner(t) != b.seat || s.Armies(t) < 2 {
				continue
			}
			for _, nb := range m.Territories[t].Neighbors {
				if s.Owner(nb) == b.seat {
					b.pairs = append(b.pairs, [2]int{t, nb})
				}
			}
		}
		if len(b.pairs) == 0 {
			return buf
		}
		pr := b.pairs[b.rng.IntN(len(b.pairs))]
		return append(buf, sim.Move{From: pr[0], To: pr[1], Armies: 1 + b.rng.IntN(s.Armies(pr[0])-1)})
	}
}

// randomOwned returns a uniformly random territory of the player.
func (b *Random) randomOwned(s *sim.State) int {
	k := b.rng.IntN(s.TerritoryCount(b.seat))
	for t, nt := 0, s.NumTerritories(); t < nt; t++ {
		if s.Owner(t) == b.seat {
			if k == 0 {
				return t
			}
			k--
		}
	}
	return -1
}

// RandomFactory is the registry entry of the Random bot, "random", with
// one parameter, stop (see Random.Stop).
func RandomFactory() bots.Factory {
	return bots.Factory{
		Name: "random",
		Doc:  "uniformly random legal choices everywhere (the engine's tester)",
		Params: []bots.Param{{
			Name:    "stop",
			Default: DefaultRandomStop,
			Min:     0,
			Max:     1,
			Doc:     "probability of ending the attack phase before each attack order",
		}},
		New: func(p bots.Values) (sim.Player, error) {
			stop, ok := p["stop"]
			if !ok || !(stop >= 0 && stop <= 1) {
				return nil, fmt.Errorf("random: stop = %v: must be in [0, 1]", stop)
			}
			return NewRandom(stop), nil
		},
	}
}
