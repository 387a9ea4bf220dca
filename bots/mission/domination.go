package mission

import (
	"github.com/marslab-risk/marslab/bots/blocks"
	"github.com/marslab-risk/marslab/sim"
)

// Mission is a continent-conquering domination player whose choice of
// continent is skewed a little toward its mission card, after the AI of the
// Domination program that Khan & Rovatsos (2013) watched: there the mission
// AI multiplies the baseline value of each continent its card asks for by a
// factor w (4 normally, 100 in their second experiment) and otherwise plays
// the domination game, breaking opponents' continents, eliminating weak
// players and attacking for cards.
//
// The baseline value of continent c is Domination's
// (AIDomination.getContinentValue):
//
//	base(c) = (bonus(c) + floor(|c| / 3)) / max(1, 2 x(c) - b(c))^2
//
// times b(c) when free > b(c), where |c| is the number of territories of c,
// b(c) the number of its border territories, x(c) the number of their
// neighbours outside c, and free the number of continents minus the number
// of players alive. Its value to the bot is
//
//	value(c) = w * base(c) if the mission asks for c, base(c) otherwise.
//
// The continents the mission asks for are the named ones and, for a card
// with "one other continent", the one outside them of which the bot owns
// the largest share (chosen afresh at every decision). On the classic map
// base ranges from 0.049 (Europe) to 3.0 (Australia), so w = 4 changes the
// choice only for some cards and positions, w = 100 for nearly all.
//
// The target continent T maximises value(c) * reach(c) over the continents
// the bot does not own wholly and has armies in or next to, where
//
//	reach(c) = (A(c) + 1) / (A(c) + E(c) + 1),
//
// A(c) the bot's armies in c and on its territories next to c, E(c) the
// other seats' armies in c (the lowest id on ties). Then:
//
//   - Place (and, with Setup = setupStack, each starting army): all armies
//     on the owned territory next to an enemy territory u of T that
//     maximises armies(t) + placed - armies(u); without a target, on the
//     border territory facing the most enemy armies beyond its own.
//   - Starting armies with Setup = setupSpread: each on the owned territory
//     t with an enemy neighbour that maximises value(c(t)) / armies(t) (c(t)
//     its continent; the lowest id on ties), so that the starting armies
//     are shared among the continents in proportion to their skewed values
//     and among a continent's territories evenly.
//   - Attack, the first that applies, each from a territory of at least 2
//     armies, the highest ratio of armies first, to the end (blitz):
//     (1) into T, with armies(from) - 1 >= armies(to);
//     (2) on a seat with at most 2 territories left, or on the seat an
//     "eliminate" card names, with armies(from) - 1 >= armies(to);
//     (3) on a continent another seat owns wholly, at ratio 2 or more;
//     (4) anywhere at ratio 3 or more;
//     (5) for a card, if nothing was conquered this turn, at ratio above 2.
//   - Move-in: everything if the conquered territory is in T and the
//     attacking one is not, or if it faces at least as many enemy armies;
//     the minimum otherwise.
//   - Fortify: interior armies one step toward the front
//     (blocks.Search.FortifyTowardFront; one move unless the fortify rule is
//     one-step).
//   - Cards: cashes a set whenever it holds one (blocks.Cashier).
//
// With w = 1 it ignores its mission altogether. Nothing here is fitted to
// the paper's recognition rates.
type Mission struct {
	player

	// W is the factor on a mission continent's value, >= 1.
	W float64
	// Setup is how the starting armies are placed (setupStack or
	// setupSpread).
	Setup int

	// target is T (-1 for none); alive the players alive.
	target int
	alive  int
	// numer, denom and borders are the map's constant parts of base(c).
	m       *sim.Map
	numer   []float64
	denom   []float64
	borders []int
	// near and enemy are A(c) and E(c); count[q] is seat q's territories.
	near, enemy []int
	count       []int
}

// NewMission returns a Mission bot with factor w (>= 1) that stacks its
// starting armies (setupStack).
func NewMission(w float64) *Mission { return &Mission{W: w} }

// Ways of placing the starting armies, the values of [Mission.Setup] and
// [Constrained.Setup]. Khan & Rovatsos (2013) do not say how the Domination
// AI placed its starting armies; their section 5.3.1 says only that during
// the setup "the probability of explanations that are consistent with the
// actions a player is performing will slowly rise".
const (
	// setupStack places every starting army where Place would put one army,
	// which for these bots stacks them on one territory.
	setupStack = iota
	// setupSpread shares the starting armies among the territories the
	// bot's goal values (see Mission and Constrained).
	setupSpread
)

// setupChoices are the names of setupStack and setupSpread, in order, for
// the registry's "setup" parameter.
var setupChoices = []string{"stack", "spread"}

// Attack thresholds of Mission (see its doc).
const (
	breakRatio  = 2
	expandRatio = 3
	cardRatio   = 2
	// weakSeat is the most territories a seat may hold to be a target of
	// the elimination attack.
	weakSeat = 2
)

// prepare computes the map's constant parts of the continent values.
func (m *Mission) prepare(mp *sim.Map) {
	if m.m == mp {
		return
	}
	m.m = mp
	nc := len(mp.Continents)
	m.numer, m.denom, m.borders = make([]float64, nc), make([]float64, nc), make([]int, nc)
	m.near, m.enemy = make([]int, nc), make([]int, nc)
	for c, co := range mp.Continents {
		m.numer[c] = float64(co.Bonus + len(co.Territories)/3)
		x := 0
		for _, t := range co.Borders {
			for _, u := range mp.Territories[t].Neighbors {
				if mp.Territories[u].Continent != c {
					x++
				}
			}
		}
		d := float64(max(1, 2*x-len(co.Borders)))
		m.denom[c] = d * d
		m.borders[c] = len(co.Borders)
	}
}

func (m *Mission) load(s *sim.State) {
	m.b.Load(s)
	m.prepare(m.b.Map)
	m.g.load(s, &m.b, m.Seat)
	n := s.NumPlayers()
	if cap(m.count) < n {
		m.count = make([]int, n)
	}
	m.count = m.count[:n]
	clear(m.count)
	for _, o := range m.b.Owner {
		if o >= 0 && o < n {
			m.count[o]++
		}
	}
	m.alive = 0
	for q := range n {
		if s.Alive(q) {
			m.alive++
		}
	}
	m.target = m.chooseTarget()
}

// base returns base(c) of the position last loaded.
func (m *Mission) base(c int) float64 {
	v := m.numer[c] / m.denom[c]
	if free := len(m.numer) - m.alive; free > m.borders[c] {
		v *= float64(m.borders[c])
	}
	return v
}

// value returns value(c): base(c), times W for a mission continent.
func (m *Mission) value(c int) float64 {
	v := m.base(c)
	if !m.g.open && m.g.target < 0 && m.g.inMission[c] {
		v *= m.W
	}
	return v
}

// chooseTarget returns T, -1 when there is none.
func (m *Mission) chooseTarget() int {
	b, p := &m.b, m.Seat
	clear(m.near)
	clear(m.enemy)
	for t, o := range b.Owner {
		c := b.Map.Territories[t].Continent
		if o != p {
			m.enemy[c] += b.Armies[t]
			continue
		}
		m.near[c] += b.Armies[t]
	}
	// A(c) adds p's armies on territories outside c next to c, each
	// territory once per continent.
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		c := b.Map.Territories[t].Continent
		var seen uint64
		for _, u := range b.Map.Territories[t].Neighbors {
			cu := b.Map.Territories[u].Continent
			if cu != c && cu < 64 && seen&(1<<cu) == 0 {
				seen |= 1 << cu
				m.near[cu] += b.Armies[t]
			}
		}
	}
	best, bestScore := -1, 0.0
	for c := range m.near {
		if m.near[c] == 0 || m.enemy[c] == 0 {
			continue
		}
		a := float64(m.near[c])
		sc := m.value(c) * (a + 1) / (a + float64(m.enemy[c]) + 1)
		if best < 0 || sc > bestScore {
			best, bestScore = c, sc
		}
	}
	return best
}

// Target returns the continent the bot pursues in s (-1 for none): T of
// the type's doc.
func (m *Mission) Target(s *sim.State) int {
	m.load(s)
	return m.target
}

// placeAt returns the territory that Place puts armies armies on.
func (m *Mission) placeAt(armies int) int {
	b, p := &m.b, m.Seat
	best, bestScore := -1, 0
	if m.target >= 0 {
		for _, u := range b.Map.Continents[m.target].Territories {
			if b.Owner[u] == p {
				continue
			}
			for _, t := range b.Map.Territories[u].Neighbors {
				if b.Owner[t] != p {
					continue
				}
				if sc := b.Armies[t] + armies - b.Armies[u]; best < 0 || sc > bestScore || sc == bestScore && t < best {
					best, bestScore = t, sc
				}
			}
		}
		if best >= 0 {
			return best
		}
	}
	for t, o := range b.Owner {
		if o != p || !b.IsBorder(p, t) {
			continue
		}
		if sc := b.EnemyArmiesAround(p, t) - b.Armies[t]; best < 0 || sc > bestScore {
			best, bestScore = t, sc
		}
	}
	if best < 0 {
		best = b.WeakestOwned(p)
	}
	return best
}

// PlaceInitial places on the territory Place would choose for one army
// (setupStack) or shares the starting armies by the continents' values
// (setupSpread).
func (m *Mission) PlaceInitial(s *sim.State) int {
	m.load(s)
	if m.Setup == setupSpread {
		return m.spreadAt()
	}
	return m.placeAt(1)
}

// spreadAt returns the owned territory t with an enemy neighbour that
// maximises value(c(t)) / armies(t), the lowest id on ties; the weakest
// owned territory if none has an enemy neighbour.
func (m *Mission) spreadAt() int {
	b, p := &m.b, m.Seat
	best, bestScore := -1, 0.0
	for t, o := range b.Owner {
		if o != p || !b.IsBorder(p, t) {
			continue
		}
		if sc := m.value(b.Map.Territories[t].Continent) / float64(b.Armies[t]); best < 0 || sc > bestScore {
			best, bestScore = t, sc
		}
	}
	if best < 0 {
		best = b.WeakestOwned(p)
	}
	return best
}

// Place puts every army where it best attacks the target continent.
func (m *Mission) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	m.load(s)
	return append(buf, sim.Placement{Territory: m.placeAt(armies), Armies: armies})
}

// Kinds of attack of Mission, in the order it tries them.
const (
	attackTarget = iota
	attackEliminate
	attackBreak
)

// allowed reports whether an attack of kind k may take enemy territory u.
func (m *Mission) allowed(k, u int) bool {
	b := &m.b
	q := b.Owner[u]
	switch k {
	case attackTarget:
		return b.Map.Territories[u].Continent == m.target
	case attackEliminate:
		return q >= 0 && q < len(m.count) && m.count[q] <= weakSeat || q == m.g.target
	default:
		return b.OwnsContinent(q, b.Map.Territories[u].Continent)
	}
}

// bestAttack returns the attack of kind k with the highest ratio of armies
// (the lowest from, then to, on ties) among those from a territory of at
// least 2 armies with armies(from) - 1 >= armies(to) and, for minRatio > 0,
// armies(from) >= minRatio * armies(to).
func (m *Mission) bestAttack(k int, minRatio float64) (from, to int, ok bool) {
	b, p := &m.b, m.Seat
	from, to = -1, -1
	for t, o := range b.Owner {
		if o != p || b.Armies[t] < 2 {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p || b.Armies[t]-1 < b.Armies[u] || float64(b.Armies[t]) < minRatio*float64(b.Armies[u]) || !m.allowed(k, u) {
				continue
			}
			if from < 0 || b.Armies[t]*b.Armies[to] > b.Armies[from]*b.Armies[u] {
				from, to = t, u
			}
		}
	}
	return from, to, from >= 0
}

// Attack orders the first attack of the type's list that applies.
func (m *Mission) Attack(s *sim.State) (sim.AttackOrder, bool) {
	m.load(s)
	b, p := &m.b, m.Seat
	if m.target >= 0 {
		if f, u, ok := m.bestAttack(attackTarget, 0); ok {
			return sim.AttackOrder{From: f, To: u, Repeat: true}, true
		}
	}
	if f, u, ok := m.bestAttack(attackEliminate, 0); ok {
		return sim.AttackOrder{From: f, To: u, Repeat: true}, true
	}
	if f, u, ok := m.bestAttack(attackBreak, breakRatio); ok {
		return sim.AttackOrder{From: f, To: u, Repeat: true}, true
	}
	if f, u, ratio, ok := blocks.BestRatioAttack(b, p); ok && (ratio >= expandRatio || !s.ConqueredThisTurn() && ratio > cardRatio) {
		return sim.AttackOrder{From: f, To: u, Repeat: true}, true
	}
	return sim.AttackOrder{}, false
}

// Occupy moves everything forward into the target continent or toward
// the greater threat, the minimum otherwise.
func (m *Mission) Occupy(s *sim.State, from, to, lo, hi int) int {
	m.load(s)
	b, p := &m.b, m.Seat
	ct, cf := b.Map.Territories[to].Continent, b.Map.Territories[from].Continent
	if m.target >= 0 && ct == m.target && cf != m.target || b.EnemyArmiesAround(p, to) >= b.EnemyArmiesAround(p, from) {
		return hi
	}
	return lo
}
