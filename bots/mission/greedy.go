package mission

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// greedy is a greedy bot whose every choice is skewed toward its mission
// card: it multiplies the value of each mission territory by W in
// placement, attack and move-in alike, so that already at small W it
// plays almost only for its card. It is the upper bound of the
// recognition experiment (registered as mission-greedy(w=...)); Mission
// is the bot skewed a little, as the paper's AI was.
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
type greedy struct {
	player

	// W is the mission weight, >= 1.
	W float64
}

// newGreedy returns a Greedy bot with weight w (>= 1).
func newGreedy(w float64) *greedy { return &greedy{W: w} }

// greedyAttackThreshold is the least value(to) * ratio at which Greedy attacks.
const greedyAttackThreshold = 3

// greedyCardRatio is the least armies ratio of Greedy's attack for a card.
const greedyCardRatio = 2

func (m *greedy) load(s *sim.State) {
	m.b.Load(s)
	m.g.load(s, &m.b, m.Seat)
}

// value returns the worth to the bot of conquering enemy territory u.
func (m *greedy) value(u int) float64 {
	w := 1.0
	if m.g.wants(&m.b, u) {
		w = m.W
	}
	owned, size := m.b.ContinentShare(m.Seat, m.b.Map.Territories[u].Continent)
	return w * (1 + float64(owned)/float64(size))
}

// placeAt returns the territory that Place puts armies armies on.
func (m *greedy) placeAt(armies int) int {
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
func (m *greedy) PlaceInitial(s *sim.State) int {
	m.load(s)
	return m.placeAt(1)
}

// Place puts every army on the territory best placed to take a valuable
// neighbour.
func (m *greedy) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	m.load(s)
	return append(buf, sim.Placement{Territory: m.placeAt(armies), Armies: armies})
}

// Attack orders the most valuable attack (see Greedy), or an attack for a
// card.
func (m *greedy) Attack(s *sim.State) (sim.AttackOrder, bool) {
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
	if from >= 0 && best >= greedyAttackThreshold {
		return sim.AttackOrder{From: from, To: to, Repeat: true}, true
	}
	if !s.ConqueredThisTurn() {
		if f, u, ratio, ok := blocks.BestRatioAttack(b, p); ok && ratio > greedyCardRatio {
			return sim.AttackOrder{From: f, To: u, Repeat: true}, true
		}
	}
	return sim.AttackOrder{}, false
}

// enemyValue returns the total value of t's enemy neighbours other than
// skip.
func (m *greedy) enemyValue(t, skip int) float64 {
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
func (m *greedy) Occupy(s *sim.State, from, to, lo, hi int) int {
	m.load(s)
	if m.enemyValue(to, to) >= m.enemyValue(from, to) {
		return hi
	}
	return lo
}
