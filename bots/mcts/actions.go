package mcts

import (
	"slices"

	"github.com/marslab-risk/marslab/sim"
)

// kind is the kind of decision a node stands for.
type kind uint8

const (
	kindNone kind = iota
	kindPlace
	kindAttack
	kindFortify
)

// action is a macro-action: a placement on territory from; an attack
// from -> to until to falls or from holds StopAt armies or fewer; a move
// of n armies from -> to; or, with from < 0, stop (no attack, no move).
type action struct {
	from, to, n int
	score       float64 // heuristic order, best first
}

var stop = action{from: -1, to: -1}

func (a action) stop() bool { return a.from < 0 }

// same reports whether a and b are the same macro-action.
func (a action) same(b action) bool { return a.from == b.from && a.to == b.to }

// threat returns the enemy armies adjacent to territory t of seat p.
func threat(s *sim.State, p, t int) int {
	n := 0
	for _, u := range s.Map().Neighbors(t) {
		if s.Owner(u) != p {
			n += s.Armies(u)
		}
	}
	return n
}

// weakest returns the fewest armies on an enemy neighbour of t (0 if none).
func weakest(s *sim.State, p, t int) int {
	w := 0
	for _, u := range s.Map().Neighbors(t) {
		if s.Owner(u) != p && (w == 0 || s.Armies(u) < w) {
			w = s.Armies(u)
		}
	}
	return w
}

// byScore sorts actions by descending score, then by from and to.
func byScore(a, b action) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	case a.from != b.from:
		return a.from - b.from
	}
	return a.to - b.to
}

// placeActions appends the placement macros of seat p with armies to
// place: the border territories (owned, with an enemy neighbour) by the
// ratio of their armies after the placement to their weakest enemy
// neighbour, the best width-1, and the most threatened border if it is not
// among them.
func placeActions(s *sim.State, p, armies, width int, buf []action) []action {
	start := len(buf)
	worst, most := -1, -1
	for t := range s.NumTerritories() {
		if s.Owner(t) != p {
			continue
		}
		w := weakest(s, p, t)
		if w == 0 {
			continue
		}
		buf = append(buf, action{from: t, to: -1, score: float64(s.Armies(t)+armies-1) / float64(w)})
		if th := threat(s, p, t); th > most {
			worst, most = t, th
		}
	}
	acts := buf[start:]
	slices.SortFunc(acts, byScore)
	if len(acts) >= width {
		in := false
		for _, a := range acts[:width-1] {
			in = in || a.from == worst
		}
		k := width - 1
		if !in {
			acts[k] = action{from: worst, to: -1}
		} else {
			k = width
		}
		buf = buf[:start+k]
	}
	return buf
}

// attackActions appends stop and the attack macros of the legal orders:
// those whose attacking territory holds more than stopAt armies, by the
// ratio of attacking armies (less one) to defenders, the best width-1.
func attackActions(s *sim.State, orders []sim.AttackOrder, width, stopAt int, buf []action) []action {
	buf = append(buf, stop)
	start := len(buf)
	for _, o := range orders {
		a := s.Armies(o.From)
		if a <= stopAt {
			continue
		}
		buf = append(buf, action{from: o.From, to: o.To, score: float64(a-1) / float64(s.Armies(o.To))})
	}
	slices.SortFunc(buf[start:], byScore)
	if len(buf)-start > width-1 {
		buf = buf[:start+width-1]
	}
	return buf
}

// fortifyActions appends stop and the fortification macros of seat p
// among the legal moves (each of all spare armies): those that move armies
// to a territory facing more enemy armies than the one they leave, by the
// difference of those threats, the best width-1.
func fortifyActions(s *sim.State, p int, moves []sim.Move, width int, buf []action) []action {
	buf = append(buf, stop)
	start := len(buf)
	for _, m := range moves {
		gain := threat(s, p, m.To) - threat(s, p, m.From)
		if gain <= 0 {
			continue
		}
		buf = append(buf, action{from: m.From, to: m.To, n: m.Armies, score: float64(gain) * float64(m.Armies)})
	}
	slices.SortFunc(buf[start:], byScore)
	if len(buf)-start > width-1 {
		buf = buf[:start+width-1]
	}
	return buf
}

// occupy is the move-in after seat p conquers to from from, within
// [lo, hi]: everything when from has no other enemy neighbour, else half
// of what may move (at least lo).
func occupy(s *sim.State, p, from, to, lo, hi int) int {
	if threat(s, p, from) == 0 {
		return hi
	}
	return max(lo, min(hi, (hi+1)/2))
}
