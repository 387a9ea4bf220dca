package baseline

import (
	"fmt"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// defaultRandomStop is the Random bot's default probability of ending its
// attack phase before each attack order.
const defaultRandomStop = 0.2

// Random is a player whose every decision is a uniformly random legal one.
// It is the engine's tester: over many games it reaches every legal corner
// of the Player interface. It draws from the engine's own lists of legal
// actions ([sim.State.ValidTrades], LegalAttacks, LegalFortifies). Its
// choices, all drawn from its own stream:
//
//   - PlaceInitial: a uniformly random owned territory.
//   - Trade: when the hand holds sets (ValidTrades), one of them uniformly,
//     its three indices in random order; it trades with probability 1/2,
//     always when forced.
//   - Place: with probability 1/2 everything on one random owned territory,
//     otherwise each army on a random owned territory, one Placement per
//     army (so a territory may appear several times in the list).
//   - Attack: before each order it stops with probability Stop; otherwise a
//     uniformly random (from, to) of LegalAttacks, a random dice count
//     0..max (0 is "the most"), and with probability 1/2 a single roll,
//     else a Repeat ("blitz") order with StopAt uniform in 0..armies(from).
//   - Occupy: uniform in [min, max].
//   - Fortify, passing with probability 1/4: under the single and connected
//     rules one uniformly random move of LegalFortifies with a uniformly
//     random amount of the armies it may move; under the one-step rule
//     every source of LegalFortifies, with probability 1/2, sends a random
//     share of its spare armies in one or more moves to random targets of
//     its moves in the list.
//
// A Random value keeps its buffers between games and allocates nothing per
// call once they have grown.
type Random struct {
	// Stop is the probability in [0, 1] of ending the attack phase before
	// each attack order.
	Stop float64

	seat    int
	rng     *rand.Rand
	sets    [][3]int          // scratch: ValidTrades
	attacks []sim.AttackOrder // scratch: LegalAttacks
	moves   []sim.Move        // scratch: LegalFortifies
}

// newRandom returns a Random player with the given stop probability.
func newRandom(stop float64) *Random { return &Random{Stop: stop} }

// Start resets the per-game state.
func (b *Random) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	n := pairs(s.Map())
	if cap(b.attacks) < n {
		b.attacks = make([]sim.AttackOrder, 0, n)
	}
	if cap(b.moves) < n {
		b.moves = make([]sim.Move, 0, n)
	}
}

// PlaceInitial returns a uniformly random owned territory.
func (b *Random) PlaceInitial(s *sim.State) int { return b.randomOwned(s) }

// Trade trades a random valid set with probability 1/2, always if forced.
func (b *Random) Trade(s *sim.State, forced bool) ([3]int, bool) {
	b.sets, _ = s.ValidTrades(b.seat, b.sets[:0])
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
	b.attacks = s.LegalAttacks(b.seat, b.attacks[:0])
	if len(b.attacks) == 0 {
		return sim.AttackOrder{}, false
	}
	o := b.attacks[b.rng.IntN(len(b.attacks))]
	a := s.Armies(o.From)
	o.Dice = b.rng.IntN(min(s.Rules().Attack.AttackerDice, a-1) + 1)
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
	b.moves = s.LegalFortifies(b.seat, b.moves[:0])
	if s.Rules().Fortify.Mode != sim.FortifyOneStep {
		if len(b.moves) == 0 {
			return buf
		}
		mv := b.moves[b.rng.IntN(len(b.moves))]
		mv.Armies = 1 + b.rng.IntN(mv.Armies)
		return append(buf, mv)
	}
	// One step: the moves of each source are consecutive in the list.
	for i := 0; i < len(b.moves); {
		j := i + 1
		for j < len(b.moves) && b.moves[j].From == b.moves[i].From {
			j++
		}
		if b.rng.IntN(2) != 0 {
			// Move a random total of the spare armies, in random pieces.
			left := 1 + b.rng.IntN(b.moves[i].Armies)
			for left > 0 {
				k := 1 + b.rng.IntN(left)
				buf = append(buf, sim.Move{From: b.moves[i].From, To: b.moves[i+b.rng.IntN(j-i)].To, Armies: k})
				left -= k
			}
		}
		i = j
	}
	return buf
}

// pairs returns the number of ordered pairs of neighbouring territories
// of m: the most attack orders sim.State.LegalAttacks lists, and the most
// moves LegalFortifies lists under the single and one-step rules.
func pairs(m *sim.Map) int {
	n := 0
	for _, t := range m.Territories {
		n += len(t.Neighbors)
	}
	return n
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

// randomFactory is the registry entry of the Random bot, "random", with
// one parameter, stop (see [Random.Stop]).
func randomFactory() bots.Factory {
	return bots.Factory{
		Name: "random",
		Doc:  "uniformly random legal choices everywhere (the engine's tester)",
		Params: []bots.Param{{
			Name:    "stop",
			Default: defaultRandomStop,
			Min:     0,
			Max:     1,
			Doc:     "probability of ending the attack phase before each attack order",
		}},
		New: func(p bots.Values) (sim.Player, error) {
			stop, ok := p["stop"]
			if !ok || !(stop >= 0 && stop <= 1) {
				return nil, fmt.Errorf("random: stop = %v: must be in [0, 1]", stop)
			}
			return newRandom(stop), nil
		},
	}
}
