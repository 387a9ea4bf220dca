package sim

import (
	"errors"
	"fmt"
)

// The checks below are the engine's own: it validates every answer of a
// player with exactly these functions, so a bot that checks its answer
// with them never faults. Each returns nil for a legal answer and
// otherwise an error saying what is wrong. The lists of legal actions
// append to a caller's buffer and allocate nothing once it is large enough.

// ErrHidden is returned (wrapped) when a seat asks about another seat's
// hidden information: its cards or its mission (see State).
var ErrHidden = errors.New("sim: hidden information")

// CheckTrade reports whether set (three indices into seat p's hand, in the
// order [State.HandOf] lists it) is a set p may trade. Another seat's hand is
// hidden ([ErrHidden]) unless the rules open it (Rules.Info.Open).
func (s *State) CheckTrade(p int, set [3]int) error {
	if !s.sees(p) {
		return fmt.Errorf("seat %d's hand: %w", p, ErrHidden)
	}
	return s.checkSet(p, set)
}

func (s *state) checkSet(p int, set [3]int) error {
	hand := s.hands[p]
	for i, k := range set {
		if k < 0 || k >= len(hand) {
			return fmt.Errorf("card index %d out of range [0, %d)", k, len(hand))
		}
		for j := 0; j < i; j++ {
			if set[j] == k {
				return fmt.Errorf("card index %d used twice", k)
			}
		}
	}
	if !ValidSet([3]uint8{hand[set[0]].Symbol, hand[set[1]].Symbol, hand[set[2]].Symbol}) {
		return errors.New("cards do not form a set")
	}
	return nil
}

// ValidTrades appends to buf every set seat p may trade (indices into its
// hand, increasing within a set, sets in lexicographic order) and returns
// the extended slice and true. Another seat's hand is hidden: ValidTrades
// returns buf and false, unless the rules open it (Rules.Info.Open).
func (s *State) ValidTrades(p int, buf [][3]int) ([][3]int, bool) {
	if !s.sees(p) {
		return buf, false
	}
	hand := s.hands[p]
	for i := 0; i < len(hand); i++ {
		for j := i + 1; j < len(hand); j++ {
			for k := j + 1; k < len(hand); k++ {
				if ValidSet([3]uint8{hand[i].Symbol, hand[j].Symbol, hand[k].Symbol}) {
					buf = append(buf, [3]int{i, j, k})
				}
			}
		}
	}
	return buf, true
}

// CheckPlacement reports whether the placements put exactly armies armies
// (> 0) on territories of seat p, each a positive count.
func (s *state) CheckPlacement(p, armies int, pl []Placement) error {
	sum := 0
	for _, x := range pl {
		switch {
		case x.Territory < 0 || x.Territory >= len(s.owner):
			return fmt.Errorf("territory %d out of range [0, %d)", x.Territory, len(s.owner))
		case int(s.owner[x.Territory]) != p:
			return fmt.Errorf("territory %d is not yours", x.Territory)
		case x.Armies <= 0 || x.Armies > armies:
			return fmt.Errorf("%d armies on territory %d: must be 1..%d", x.Armies, x.Territory, armies)
		}
		sum += x.Armies
		if sum > armies {
			break
		}
	}
	if sum != armies {
		return fmt.Errorf("placed %d armies, must place exactly %d", sum, armies)
	}
	return nil
}

// CheckAttack reports whether seat p may give attack order o: From is p's
// with at least 2 armies, To an adjacent territory of another seat, Dice 0
// (the most) or at most both the rules' attacker dice and the armies in
// From less one, StopAt >= 0.
func (s *state) CheckAttack(p int, o AttackOrder) error {
	nt := len(s.owner)
	switch {
	case o.From < 0 || o.From >= nt || o.To < 0 || o.To >= nt:
		return fmt.Errorf("territory out of range [0, %d)", nt)
	case int(s.owner[o.From]) != p:
		return errors.New("attacking territory is not yours")
	case int(s.owner[o.To]) == p:
		return errors.New("cannot attack your own territory")
	case !s.m.Adjacent(o.From, o.To):
		return errors.New("territories are not adjacent")
	case s.armies[o.From] < 2:
		return errors.New("attacking territory has fewer than 2 armies")
	case o.Dice < 0 || o.Dice > s.rules.Attack.AttackerDice || o.Dice > int(s.armies[o.From])-1:
		return fmt.Errorf("%d dice: must be 0 (most) or 1..%d", o.Dice, min(s.rules.Attack.AttackerDice, int(s.armies[o.From])-1))
	case o.StopAt < 0:
		return fmt.Errorf("stop level %d: must be >= 0", o.StopAt)
	}
	return nil
}

// LegalAttacks appends to buf one order (Dice 0, one roll) for every pair
// of a territory of seat p holding at least 2 armies and an adjacent enemy
// territory, by increasing From and then in the map's neighbour order, and
// returns the extended slice.
func (s *state) LegalAttacks(p int, buf []AttackOrder) []AttackOrder {
	for t, o := range s.owner {
		if int(o) != p || s.armies[t] < 2 {
			continue
		}
		for _, nb := range s.m.Territories[t].Neighbors {
			if int(s.owner[nb]) != p {
				buf = append(buf, AttackOrder{From: t, To: nb})
			}
		}
	}
	return buf
}

// OccupyRange returns the armies that may move from `from` into a
// territory conquered with dice dice in the last roll: at least dice if
// Rules.Attack.MoveInAtLeastDice (otherwise 1), at most the armies in from
// less one (the least is capped at the most). These are the min and max
// that [Player.Occupy] is given.
func (s *state) OccupyRange(from, dice int) (lo, hi int) {
	lo = 1
	if s.rules.Attack.MoveInAtLeastDice {
		lo = dice
	}
	hi = int(s.armies[from]) - 1
	return min(lo, hi), hi
}

// CheckOccupy reports whether k armies may move in after a conquest whose
// allowed range is [lo, hi] (see OccupyRange).
func CheckOccupy(lo, hi, k int) error {
	if k < lo || k > hi {
		return fmt.Errorf("%d armies: must be %d..%d", k, lo, hi)
	}
	return nil
}

// CheckMoves reports whether seat p may make the fortification moves under
// the rules' fortify mode: at most one move unless [FortifyOneStep]; both
// ends p's and distinct; adjacent, or under [FortifyConnected] joined by a
// path of p's territories (see [OwnedPaths]); a positive count; and no
// territory giving more than its armies less one over all the moves
// (armies that arrive this phase cannot move on), or under [MovableStart]
// more than its armies, keeping one army after each move in order. The path search uses
// the State's own buffers ([State.Paths]).
func (s *State) CheckMoves(p int, moves []Move) error { return s.checkMoves(p, moves, s.Paths()) }

func (s *state) checkMoves(p int, moves []Move, paths *OwnedPaths) error {
	nt := len(s.owner)
	mode := s.rules.Fortify.Mode
	if mode != FortifyOneStep && len(moves) > 1 {
		return fmt.Errorf("%d moves: at most one", len(moves))
	}
	for i, mv := range moves {
		switch {
		case mv.From < 0 || mv.From >= nt || mv.To < 0 || mv.To >= nt:
			return fmt.Errorf("move %d->%d: territory out of range [0, %d)", mv.From, mv.To, nt)
		case int(s.owner[mv.From]) != p || int(s.owner[mv.To]) != p:
			return fmt.Errorf("move %d->%d: both territories must be yours", mv.From, mv.To)
		case mv.From == mv.To:
			return fmt.Errorf("move %d->%d: same territory", mv.From, mv.To)
		case mv.Armies <= 0:
			return fmt.Errorf("move %d->%d: %d armies: must be >= 1", mv.From, mv.To, mv.Armies)
		}
		if mode == FortifyConnected {
			if !paths.connected(s, p, mv.From, mv.To) {
				return fmt.Errorf("move %d->%d: no path through your territories", mv.From, mv.To)
			}
		} else if !s.m.Adjacent(mv.From, mv.To) {
			return fmt.Errorf("move %d->%d: territories are not adjacent", mv.From, mv.To)
		}
		out, in := 0, 0 // armies moved out of and into mv.From by the moves so far
		for _, x := range moves[:i+1] {
			if x.From == mv.From {
				out += x.Armies
			}
			if x.To == mv.From {
				in += x.Armies
			}
		}
		if start := int(s.armies[mv.From]); s.rules.Fortify.Movable == MovableStart {
			if out > start || start-out+in < 1 {
				return fmt.Errorf("move %d->%d: moves %d armies out of territory %d, which held %d at the start and received %d before: it must keep 1 (armies that arrive this phase cannot move on)",
					mv.From, mv.To, out, mv.From, start, in)
			}
		} else if spare := start - 1; out > spare {
			return fmt.Errorf("move %d->%d: moves %d armies out of territory %d, which can spare %d (armies that arrive this phase cannot move on)",
				mv.From, mv.To, out, mv.From, spare)
		}
	}
	return nil
}

// LegalFortifies appends to buf one move for every ordered pair of seat p's
// territories that the rules' fortify mode lets armies move between (from
// a territory holding at least 2 armies; adjacent, or joined by p's
// territories under [FortifyConnected]), each moving the most it may (the
// armies in From less one), by increasing From and then in the map's
// neighbour order ([FortifyConnected]: by increasing To), and returns the
// extended slice. Under [FortifyOneStep] any set of these moves whose
// sources give at most their armies less one is legal together; under the
// other modes one move of 1..Armies armies is.
func (s *State) LegalFortifies(p int, buf []Move) []Move {
	st := s.state
	if st.rules.Fortify.Mode == FortifyConnected {
		// Stamp each of p's clusters with a generation of its own: one
		// search per cluster, and u is joined to t when their stamps match.
		paths := s.Paths()
		paths.label(st.m, st.owner, p)
		for t, o := range st.owner {
			if int(o) != p || st.armies[t] < 2 {
				continue
			}
			for u, stamp := range paths.mark[:len(st.owner)] {
				if u != t && stamp == paths.mark[t] {
					buf = append(buf, Move{From: t, To: u, Armies: int(st.armies[t]) - 1})
				}
			}
		}
		return buf
	}
	for t, o := range st.owner {
		if int(o) != p || st.armies[t] < 2 {
			continue
		}
		for _, nb := range st.m.Territories[t].Neighbors {
			if int(st.owner[nb]) == p {
				buf = append(buf, Move{From: t, To: nb, Armies: int(st.armies[t]) - 1})
			}
		}
	}
	return buf
}
