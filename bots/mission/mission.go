// Package mission holds bots for mission Risk (rule set "missions") that
// pursue their own secret mission card, as the Domination AI did in the
// experiments of Khan & Rovatsos (2013), section 5:
//
//   - Mission, registered as mission(w=...): plays a plain greedy game whose
//     placement, attack targets and move-ins are skewed toward its mission
//     by a weight w (the paper ran its AI with w = 4 and w = 100);
//   - Constrained, registered as constrained: the paper's "constrained play",
//     which only reinforces, attacks and moves on territories of its mission
//     or on the shortest route to them.
//
// Both read only their own mission (sim.State.MyMission); the engine hides
// every other seat's. They are built from the shared blocks of package
// blocks; ties go to the lowest territory id, so both are deterministic.
// Outside mission mode (no mission card) both play as Mission with w = 1.
package mission

import (
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Factories returns the registry entries of the mission bots.
func Factories() []bots.Factory {
	return []bots.Factory{
		{Name: "mission", Doc: "mission Risk: greedy play skewed toward its own mission card by weight w (Khan & Rovatsos 2013's AI)",
			Params: []bots.Param{{Name: "w", Default: 4, Min: 1, Max: 1000, Log: true,
				Doc: "weight of a target in the mission's continents (or of the eliminate card's seat) against 1 for any other; the paper's AI ran with 4 and 100"}},
			New: func(v bots.Values) (sim.Player, error) { return NewMission(v["w"]), nil }},
		{Name: "constrained", Doc: "mission Risk: reinforces, attacks and moves only on its mission's territories or the shortest route to them (the paper's constrained play)",
			New: func(bots.Values) (sim.Player, error) { return NewConstrained(), nil }},
	}
}

// Mission is a greedy bot whose choices are skewed toward its mission card.
// Every enemy territory u has a value
//
//	value(u) = weight(u) * (1 + share(u))
//
// where weight(u) is W if u is directly consistent with the mission (in a
// mission continent, including the chosen "one other continent", or owned by
// the seat of an "eliminate" card) and 1 otherwise, and share(u) is the
// fraction of u's continent the bot already owns (finishing a continent is
// worth more). Then:
//
//   - Place (and each starting army): all armies on the owned territory t
//     maximising value(u) * (armies(t) + placed) / armies(u) over its enemy
//     neighbours u.
//   - Attack: among attacks from a territory with at least 2 armies and at
//     least as many armies minus one as the target (it rolls at least as many
//     dice as the target has armies, up to 3), the one maximising
//     value(to) * armies(from) / armies(to), if that is at least 3: a target
//     outside the mission needs a ratio of 1.5 to 3, one inside it a ratio of
//     3/(W(1+share)). Attacks are to the end (blitz). If nothing was
//     conquered this turn, it also takes the best-ratio attack with a ratio
//     above 2 for the card.
//   - Move-in: everything if the conquered territory faces at least as much
//     enemy value as the one attacked from (not counting the conquered
//     territory), the minimum otherwise.
//   - Fortify: interior armies one step toward the front
//     (blocks.Search.FortifyTowardFront; one move unless the fortify rule is
//     one-step).
//   - Cards: cashes a set whenever it holds one (blocks.Cashier).
//
// With W = 1 it ignores its mission altogether.
type Mission struct {
	sim.BasePlayer

	// W is the mission weight, >= 1.
	W float64

	b    blocks.Board
	g    goal
	r    blocks.Search
	cash blocks.Cashier
}

// NewMission returns a Mission bot with weight w (>= 1).
func NewMission(w float64) *Mission { return &Mission{W: w} }

// attackThreshold is the least value(to) * ratio at which Mission attacks.
const attackThreshold = 3

// cardRatio is the least armies ratio of Mission's attack for a card.
const cardRatio = 2

func (m *Mission) load(s *sim.State) {
	m.b.Load(s)
	m.g.load(s, &m.b, m.Seat)
}

// value returns the worth to the bot of conquering enemy territory u.
func (m *Mission) value(u int) float64 {
	w := 1.0
	if m.g.wants(&m.b, u) {
		w = m.W
	}
	owned, size := m.b.ContinentShare(m.Seat, m.b.Map.Territories[u].Continent)
	return w * (1 + float64(owned)/float64(size))
}

// placeAt returns the territory that Place puts armies armies on.
func (m *Mission) placeAt(armies int) int {
	b, p := &m.b, m.Seat
	best, bestScore := -1, -1.0
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p {
				continue
			}
			sc := m.value(u) * float64(b.Armies[t]+armies) / float64(b.Armies[u])
			if sc > bestScore {
				best, bestScore = t, sc
			}
		}
	}
	if best < 0 {
		best = b.WeakestOwned(p)
	}
	return best
}

// PlaceInitial places on the territory Place would choose for one army.
func (m *Mission) PlaceInitial(s *sim.State) int {
	m.load(s)
	return m.placeAt(1)
}

// Place puts every army on the territory best placed to take a valuable
// neighbour.
func (m *Mission) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	m.load(s)
	return append(buf, sim.Placement{Territory: m.placeAt(armies), Armies: armies})
}

// Attack orders the most valuable attack (see Mission), or an attack for a
// card.
func (m *Mission) Attack(s *sim.State) (sim.AttackOrder, bool) {
	m.load(s)
	b, p := &m.b, m.Seat
	from, to, best := -1, -1, 0.0
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p || b.Armies[t]-1 < b.Armies[u] {
				continue
			}
			if sc := m.value(u) * float64(b.Armies[t]) / float64(b.Armies[u]); sc > best {
				from, to, best = t, u, sc
			}
		}
	}
	if from >= 0 && best >= attackThreshold {
		return sim.AttackOrder{From: from, To: to, Repeat: true}, true
	}
	if !s.ConqueredThisTurn() {
		if f, u, ratio, ok := blocks.BestRatioAttack(b, p); ok && ratio > cardRatio {
			return sim.AttackOrder{From: f, To: u, Repeat: true}, true
		}
	}
	return sim.AttackOrder{}, false
}

// enemyValue returns the total value of t's enemy neighbours other than
// skip.
func (m *Mission) enemyValue(t, skip int) float64 {
	v := 0.0
	for _, u := range m.b.Map.Territories[t].Neighbors {
		if u != skip && m.b.Owner[u] != m.Seat {
			v += m.value(u)
		}
	}
	return v
}

// Occupy moves everything forward when the conquered territory faces at
// least as much enemy value as the attacking one, the minimum otherwise.
func (m *Mission) Occupy(s *sim.State, from, to, lo, hi int) int {
	m.load(s)
	if m.enemyValue(to, to) >= m.enemyValue(from, to) {
		return hi
	}
	return lo
}

// Fortify pushes interior armies one step toward the front.
func (m *Mission) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	m.b.Load(s)
	start := len(buf)
	buf = m.r.FortifyTowardFront(buf, &m.b, m.Seat)
	return append(buf[:start], blocks.OneMoveUnlessOneStep(s.Rules().Fortify.Mode, buf[start:])...)
}

// Trade cashes the set blocks.Cashier prefers whenever there is one.
func (m *Mission) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return m.cash.Best(s, m.Seat)
}
