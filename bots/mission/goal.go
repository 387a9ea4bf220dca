package mission

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// goal is what a seat's mission card asks of the board, recomputed at every
// decision from the seat's own mission ([sim.State.MyMission]) and the board.
// It never reads another seat's mission.
type goal struct {
	// inMission[c] reports that continent c is one the mission asks for:
	// the named continents of a "continents" card and, for a card with
	// Extra k, the k further continents chosen by chooseExtra.
	inMission []bool
	// target is the seat an "eliminate" card names (-1 for other cards, and
	// when the target is out).
	target int
	// open reports that the mission restricts nothing: a "territories" card,
	// no mission at all (a rule set without missions), or an "eliminate"
	// card whose target is out (it becomes a territories mission).
	open bool

	// scratch for chooseExtra.
	share []float64
}

// load recomputes the goal of seat p from s and the board b.
func (g *goal) load(s *sim.State, b *blocks.Board, p int) {
	m := b.Map
	nc := len(m.Continents)
	if cap(g.inMission) < nc {
		g.inMission = make([]bool, nc)
		g.share = make([]float64, nc)
	}
	g.inMission, g.share = g.inMission[:nc], g.share[:nc]
	clear(g.inMission)
	g.target, g.open = -1, false
	ms := s.MyMission()
	switch {
	case ms == nil || ms.Kind == sim.MissionTerritories:
		g.open = true
	case ms.Kind == sim.MissionEliminate:
		g.target = s.MyMissionTarget()
		if g.target < 0 || !s.Alive(g.target) {
			g.target, g.open = -1, true
		}
	default:
		for _, name := range ms.Continents {
			for c := range m.Continents {
				if m.Continents[c].Name == name {
					g.inMission[c] = true
				}
			}
		}
		g.chooseExtra(b, p, ms.Extra)
	}
}

// chooseExtra marks the k further continents of a "one other continent"
// card: the continents outside the named ones of which p owns the largest
// share of territories (owned / size; the lowest id on ties), chosen
// afresh at every decision, so the choice follows the board.
func (g *goal) chooseExtra(b *blocks.Board, p, k int) {
	for c := range g.share {
		owned, size := b.ContinentShare(p, c)
		g.share[c] = float64(owned) / float64(size)
	}
	for ; k > 0; k-- {
		best := -1
		for c := range g.share {
			if !g.inMission[c] && (best < 0 || g.share[c] > g.share[best]) {
				best = c
			}
		}
		if best < 0 {
			return
		}
		g.inMission[best] = true
	}
}

// wants reports whether territory t is directly consistent with the
// mission: in a mission continent, or owned by the seat an "eliminate" card
// names. With an open goal no territory is.
func (g *goal) wants(b *blocks.Board, t int) bool {
	if g.open {
		return false
	}
	if g.target >= 0 {
		return b.Owner[t] == g.target
	}
	return g.inMission[b.Map.Territories[t].Continent]
}

// player is what the mission bots Mission and Greedy share: the seat, their
// view of the board and mission, the searches, the card choice, and the
// fortification and trades they make alike.
type player struct {
	sim.BasePlayer

	b    blocks.Board
	g    goal
	r    blocks.Search
	cash blocks.Cashier
}

// Fortify pushes interior armies one step toward the front.
func (m *player) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	m.b.Load(s)
	start := len(buf)
	buf = m.r.FortifyTowardFront(buf, &m.b, m.Seat)
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}

// Trade cashes the set [blocks.Cashier] prefers whenever there is one.
func (m *player) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return m.cash.Best(s, m.Seat)
}
