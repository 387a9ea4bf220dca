package baseline

import (
	"fmt"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Strategy is one of the three fixed strategies of Sciberras (2022),
// section 4.2 ("Learning Model"), which the paper's simple agents keep for a
// whole game.
type Strategy uint8

// The strategies of Sciberras (2022), section 4.2.
const (
	// Passive places every new army on its territory with the fewest
	// armies, never attacks, and fortifies by balancing its most- and
	// fewest-armies territories.
	Passive Strategy = iota
	// Pacifist deals new armies out one by one over its territories,
	// attacks 1 to 3 times per turn and never fortifies.
	Pacifist
	// Aggressive places every new army on its territory with the most
	// armies, attacks 7 to 9 times per turn, and fortifies by splitting its
	// most- and second-most-armies territories equally.
	Aggressive
)

var strategyNames = [...]string{"passive", "pacifist", "aggressive"}

// String returns the strategy's registry name.
func (st Strategy) String() string {
	if int(st) < len(strategyNames) {
		return strategyNames[st]
	}
	return fmt.Sprintf("Strategy(%d)", uint8(st))
}

// smallPlayer is the territory count below which Sciberras's agents prefer
// to attack a player (section 3.3, "smallPlayer": fewer than ten).
const smallPlayer = 10

// Sciberras is a player following one Strategy of Sciberras (2022). Every
// phase follows section 4.2 (and the attack choice of section 3.3); where
// the paper is silent the choice is stated here:
//
// Cards: it trades whenever it holds a set, always the most valuable one
// (the paper's section 3.2), under fixed and escalating values alike: the
// set [sim.BestSet] returns (value plus territory bonus, wild cards spared).
//
// Placement (and the setup's initial placement, one army at a time, when
// the rules let bots place): Passive puts everything on its owned territory
// with the fewest armies, Aggressive on the one with the most (ties: lowest
// territory id, as Python's list.index in the paper's Figure 21).
// Pacifist deals armies one at a time round its territories in id order;
// the deal continues across turns from the territory after the last one
// served (the paper's loop restarts at its first territory each turn, which
// would favour low ids: a choice, documented in docs/bots.md).
//
// Attacks: Passive never attacks. Pacifist draws 1..3 and Aggressive 7..9
// attack orders uniformly from its random stream at the first Attack call
// of each turn (Figure 22). Each order is a blitz with the most dice
// (sim.AttackOrder{Dice: 0, Repeat: true}) until conquest or until the
// attacker has one army left (section 3.3). The target: among every
// (from, to) with from owned holding at least 2 armies and to an enemy
// neighbour, the attacks on players owning fewer than 10 territories are
// preferred if any exist; among the candidates the one with the largest
// armies(from) - armies(to) wins, even when negative, as in the paper
// (Figure 14); ties go to the lowest from, then the lowest to. The turn ends
// early when no attack is possible.
//
// Move-in (the paper is silent): Aggressive moves every army it can (all
// but one), so its stack keeps rolling, in the spirit of "winning over
// multiple territories in a single turn"; Pacifist moves half the
// attacking armies ((max+1)/2, kept within [min, max]) to stay balanced;
// Passive never conquers (it would move the minimum).
//
// Fortify (Figure 23): Passive balances its most-armies territory with its
// fewest-armies one (the most keeps ceil(total/2)); Aggressive balances its
// most- and second-most-armies territories the same way; Pacifist passes.
// The move is made only if it is legal under the fortify rule in force (the
// paper's "valid link"): adjacent territories under [sim.FortifySingle] and
// [sim.FortifyOneStep], a path of owned territories under
// [sim.FortifyConnected]. Ties in "most"/"fewest" go to the lowest id.
//
// A consequence of following the paper literally: Aggressive reinforces its
// biggest stack even when that stack has no enemy neighbour, and it attacks
// only from territories holding 2 or more armies, so once its stack is
// interior and its other territories hold one army each it stops attacking;
// under [sim.FortifyConnected] its fortify step (splitting the stack with the
// second-biggest territory, wherever that is) usually frees it, under
// [sim.FortifySingle] and [sim.FortifyOneStep] only if the two are adjacent.
//
// A Sciberras value keeps its scratch state between games (Start resets
// it) and allocates nothing per call.
type Sciberras struct {
	// Strategy is the fixed strategy.
	Strategy Strategy

	seat        int
	rng         *rand.Rand
	turnRound   int // round whose attack budget is attacksLeft
	attacksLeft int
	cursor      int               // Pacifist: next territory id in the dealing round
	attacks     []sim.AttackOrder // scratch: LegalAttacks
	board       blocks.Board
	search      blocks.Search
}

// NewSciberras returns a player with the given strategy.
func NewSciberras(st Strategy) *Sciberras { return &Sciberras{Strategy: st} }

// Start resets the per-game state.
func (b *Sciberras) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	b.turnRound, b.attacksLeft, b.cursor = 0, 0, 0
	if n := pairs(s.Map()); cap(b.attacks) < n {
		b.attacks = make([]sim.AttackOrder, 0, n)
	}
}

// PlaceInitial places one starting army as Place would place one army.
func (b *Sciberras) PlaceInitial(s *sim.State) int {
	switch b.Strategy {
	case Passive:
		b.board.Load(s)
		return b.board.WeakestOwned(b.seat)
	case Aggressive:
		b.board.Load(s)
		t, _ := b.board.StrongestOwned(b.seat)
		return t
	}
	t := b.nextOwned(s, b.cursor)
	b.cursor = (t + 1) % s.NumTerritories()
	return t
}

// Trade trades the most valuable set whenever the hand holds one.
func (b *Sciberras) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return sim.BestSet(s, b.seat)
}

// Place puts the armies as the strategy says (see the type's doc).
func (b *Sciberras) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	switch b.Strategy {
	case Passive:
		b.board.Load(s)
		return append(buf, sim.Placement{Territory: b.board.WeakestOwned(b.seat), Armies: armies})
	case Aggressive:
		b.board.Load(s)
		t, _ := b.board.StrongestOwned(b.seat)
		return append(buf, sim.Placement{Territory: t, Armies: armies})
	}
	// Pacifist: deal one by one from the cursor, in id order, wrapping.
	nt := s.NumTerritories()
	n := s.TerritoryCount(b.seat)
	if n == 0 {
		return buf
	}
	q, rem := armies/n, armies%n
	served, next := 0, b.cursor
	for j := 0; j < nt; j++ {
		t := b.cursor + j
		if t >= nt {
			t -= nt
		}
		if s.Owner(t) != b.seat {
			continue
		}
		k := q
		if served < rem {
			k++
			served++
			if served == rem {
				next = (t + 1) % nt
			}
		}
		if k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	b.cursor = next
	return buf
}

// Attack returns the next blitz order while the turn's budget lasts.
func (b *Sciberras) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if b.Strategy == Passive {
		return sim.AttackOrder{}, false
	}
	if r := s.Round(); r != b.turnRound {
		b.turnRound = r
		if b.Strategy == Pacifist {
			b.attacksLeft = 1 + b.rng.IntN(3)
		} else {
			b.attacksLeft = 7 + b.rng.IntN(3)
		}
	}
	if b.attacksLeft <= 0 {
		return sim.AttackOrder{}, false
	}
	from, to, ok := b.chooseAttack(s)
	if !ok {
		b.attacksLeft = 0
		return sim.AttackOrder{}, false
	}
	b.attacksLeft--
	return sim.AttackOrder{From: from, To: to, Dice: 0, Repeat: true}, true
}

// Occupy moves all it can (Aggressive), half (Pacifist) or the minimum.
func (b *Sciberras) Occupy(s *sim.State, from, to, lo, hi int) int {
	switch b.Strategy {
	case Aggressive:
		return hi
	case Pacifist:
		return min(max((hi+1)/2, lo), hi)
	}
	return lo
}

// Fortify balances two territories as the strategy says, if linked.
func (b *Sciberras) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	var from, to int
	switch b.Strategy {
	case Passive:
		b.board.Load(s)
		from, _ = b.board.StrongestOwned(b.seat)
		to = b.board.WeakestOwned(b.seat)
	case Aggressive:
		b.board.Load(s)
		from, to = b.board.StrongestOwned(b.seat)
	default:
		return buf
	}
	if from < 0 || to < 0 || from == to {
		return buf
	}
	a, c := s.Armies(from), s.Armies(to)
	k := a - (a+c+1)/2 // from keeps ceil(total/2)
	if k <= 0 || !b.search.Linked(&b.board, s.Rules().Fortify.Mode, b.seat, from, to) {
		return buf
	}
	return append(buf, sim.Move{From: from, To: to, Armies: k})
}

// nextOwned returns the first territory of the player at or after id t,
// wrapping round (the player owns at least one territory).
func (b *Sciberras) nextOwned(s *sim.State, t int) int {
	nt := s.NumTerritories()
	for j := 0; j < nt; j++ {
		u := t + j
		if u >= nt {
			u -= nt
		}
		if s.Owner(u) == b.seat {
			return u
		}
	}
	return -1
}

// chooseAttack returns Sciberras's attack (section 3.3): among the
// player's legal attacks (sim.State.LegalAttacks: its territories with at
// least 2 armies and their enemy neighbours), prefer defenders owning
// fewer than 10 territories, then the largest armies difference, then the
// lowest (from, to).
func (b *Sciberras) chooseAttack(s *sim.State) (from, to int, ok bool) {
	b.attacks = s.LegalAttacks(b.seat, b.attacks[:0])
	bestSmall, bestDiff := false, 0
	from, to = -1, -1
	for _, o := range b.attacks {
		small := s.TerritoryCount(s.Owner(o.To)) < smallPlayer
		diff := s.Armies(o.From) - s.Armies(o.To)
		if from < 0 || (small && !bestSmall) || (small == bestSmall && diff > bestDiff) {
			from, to, bestSmall, bestDiff = o.From, o.To, small, diff
		}
	}
	return from, to, from >= 0
}

// sciberrasFactory is the registry entry of one strategy, named by the
// strategy ([Strategy.String]); it has no parameters.
func sciberrasFactory(st Strategy) bots.Factory {
	docs := [...]string{
		"Sciberras 2022 passive agent: reinforce the weakest territory, never attack",
		"Sciberras 2022 pacifist agent: spread armies, 1-3 blitz attacks per turn",
		"Sciberras 2022 aggressive agent: pile on the strongest territory, 7-9 blitz attacks per turn",
	}
	return bots.Factory{
		Name: st.String(),
		Doc:  docs[st],
		New: func(bots.Values) (sim.Player, error) {
			return NewSciberras(st), nil
		},
	}
}
