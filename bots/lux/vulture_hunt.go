package lux

import "github.com/marslab-risk/marslab/sim"

// maxRouteSteps bounds the depth-first steps of one simple-route search
// (vultureHunt.walk). CountryCluster.getSimpleRoute has no bound: it is an
// exhaustive search for a Hamiltonian path, which its own documentation
// calls possibly very slow, and Vulture calls it only for clusters of fewer
// than 21 territories. The bound keeps a turn's time finite on any map; a
// search that reaches it finds no route (Vulture then places as Cluster).
// On the classic map, whose prey clusters are small and sparse, it is far
// above what a search takes.
const maxRouteSteps = 1 << 20

// maxHuntCluster is the size from which Vulture looks for no route through
// the prey's cluster (Vulture.java placeToKill: fewer than 21 countries).
const maxHuntCluster = 21

// vultureHunt is Vulture's hunt of a weak player (Vulture.java
// setToKillPlayer, placeToKill, attackAlongRoute) with the searches it
// relies on (CountryClusterSet.getAllCountriesOwnedBy,
// CountryCluster.getSimpleRoute and getSimpleRouteStartingAt,
// BoardHelper.easyCostCountryWithOwner, CountryRoute.append,
// costNotCountingPlayer and getArmies). Every buffer is sized for the map
// at the first search and reused, so a turn allocates nothing.
type vultureHunt struct {
	p int // the bot's seat

	cluster []int  // the prey's cluster, in breadth-first order from its lowest id
	member  []bool // the set the route walk covers
	used    []bool // the walk's current path, as a set
	path    []int  // the walk's current path
	idx     []int  // the walk: the next neighbour index at each depth
	steps   int    // the walk's steps so far (see maxRouteSteps)

	croute []int // the simple route through the prey's cluster
	other  []int // croute or its reverse, as appended to the approach
	toA    []int // the approach to croute's start (from a territory of the bot)
	toB    []int // the approach to croute's end

	queue []costEntry // easyCostCountryWithOwner's sorted frontier
	prev  []int       // the territory each frontier entry was reached from
	seen  []bool      // territories already put on the frontier

	built []int // the route appendRoute builds

	// The stored attack routes (Java's attackRoutes), each the bot's
	// territory first, one after another in routes; ends[i] is the end of
	// route i. Routes are followed in order and dropped when followed.
	routes  []int
	ends    []int
	cur     int  // the route being followed
	at      int  // its next step (an index in routes): routes[at-1] attacks routes[at]; 0 before its first
	pending bool // the last order given was step at
}

// costEntry is a territory on easyCostCountryWithOwner's frontier with the
// cost of its path.
type costEntry struct{ t, cost int }

// size sizes the buffers for n territories.
func (h *vultureHunt) size(n int) {
	if len(h.member) >= n {
		return
	}
	h.member = make([]bool, n)
	h.used = make([]bool, n)
	h.seen = make([]bool, n)
	h.prev = make([]int, n)
	h.idx = make([]int, n)
	h.path = make([]int, 0, n)
	h.cluster = make([]int, 0, n)
	h.croute = make([]int, 0, n)
	h.other = make([]int, 0, n)
	h.toA = make([]int, 0, n)
	h.toB = make([]int, 0, n)
	h.queue = make([]costEntry, 0, n)
	h.built = make([]int, 0, 2*n)
	h.routes = make([]int, 0, 4*n)
}

// reset forgets the stored routes (a new game).
func (h *vultureHunt) reset() {
	h.routes, h.ends, h.cur, h.at, h.pending = h.routes[:0], h.ends[:0], 0, 0, false
}

// discounted returns q's armies less the armies its cards would bring in
// (Vulture.java setToKillPlayer): armies − worth × cards / 3, computed in
// floating point and truncated toward zero as Java's compound assignment to
// an int does.
func discounted(armies, worth, cards int) int {
	d := float64(float64(worth) * (float64(cards) / 3))
	return int(float64(armies) - d)
}

// biggestWithEnemy returns p's territory with the most armies among those
// with a neighbour of another seat, the first in id order on ties, or -1
// (BoardHelper.getPlayersBiggestArmyWithEnemyNeighbor).
func biggestWithEnemy(s *sim.State, p int) int {
	best, most := -1, -1
	for t := range s.NumTerritories() {
		if s.Owner(t) != p || s.Armies(t) <= most {
			continue
		}
		for _, u := range s.Map().Neighbors(t) {
			if s.Owner(u) != p {
				best, most = t, s.Armies(t)
				break
			}
		}
	}
	return best
}

// prey returns the seat Vulture, seat p with armies to place, sets out to
// kill this turn, or -1 (Vulture.java setToKillPlayer). Each live opponent
// is rated by its armies discounted by its cards (see discounted), the
// worth being the next set's value for three infantry cards
// (sim.State.SetValue; Lux's Board.getNextCardSetValue). An opponent is a
// candidate when p's biggest territory facing an enemy, plus the armies to
// place, exceeds the opponent's armies plus its territory count (with no
// territory facing an enemy, where Java would fail on a null, no one is);
// the
// candidate with the lowest rating (the lowest seat on ties) is hunted when
// p's armies exceed twice its rating.
func (h *vultureHunt) prey(s *sim.State, p, armies int) int {
	worth := s.SetValue([3]uint8{})
	big := biggestWithEnemy(s, p)
	lowest, who := 1000000, -1
	for q := range s.NumPlayers() {
		if q == p || s.TerritoryCount(q) == 0 {
			continue
		}
		r := discounted(s.TotalArmies(q), worth, s.NumCards(q))
		if r < lowest && big >= 0 && s.Armies(big)+armies > s.TotalArmies(q)+s.TerritoryCount(q) {
			lowest, who = r, q
		}
	}
	if s.TotalArmies(p) > 2*lowest {
		return who
	}
	return -1
}

// preyCluster fills h.cluster with the cluster of q's territories around
// its lowest id, in breadth-first order through neighbours in adjacency
// order, and reports whether it holds every territory of q (the one
// cluster of CountryClusterSet.getAllCountriesOwnedBy).
func (h *vultureHunt) preyCluster(s *sim.State, q int) bool {
	h.cluster = h.cluster[:0]
	first := -1
	for t := range s.NumTerritories() {
		if s.Owner(t) == q {
			first = t
			break
		}
	}
	if first < 0 {
		return false
	}
	for _, t := range h.cluster {
		h.used[t] = false
	}
	h.cluster = append(h.cluster, first)
	h.used[first] = true
	for i := 0; i < len(h.cluster); i++ {
		for _, u := range s.Map().Neighbors(h.cluster[i]) {
			if s.Owner(u) == q && !h.used[u] {
				h.used[u] = true
				h.cluster = append(h.cluster, u)
			}
		}
	}
	for _, t := range h.cluster {
		h.used[t] = false
	}
	return len(h.cluster) == s.TerritoryCount(q)
}

// setMembers makes ts the set the walk covers.
func (h *vultureHunt) setMembers(ts []int) {
	clear(h.member)
	for _, t := range ts {
		h.member[t] = true
	}
}

// walk looks for a route from start through every one of the k member
// territories, each step to a neighbour (CountryCluster
// getSimpleRouteStartingAt): a depth-first search trying neighbours in
// adjacency order, which finds the first such route in that order. The
// route is left in h.path. It reports false when there is none or the
// search takes more than maxRouteSteps steps in all (h.steps).
func (h *vultureHunt) walk(m *sim.Map, start, k int) bool {
	h.path = append(h.path[:0], start)
	h.used[start] = true
	h.idx[0] = 0
	found := false
	for len(h.path) > 0 {
		if len(h.path) == k {
			found = true
			break
		}
		d := len(h.path) - 1
		nb := m.Neighbors(h.path[d])
		next := -1
		for h.idx[d] < len(nb) {
			u := nb[h.idx[d]]
			h.idx[d]++
			if h.member[u] && !h.used[u] {
				next = u
				break
			}
		}
		if h.steps++; h.steps > maxRouteSteps {
			break
		}
		if next < 0 {
			h.used[h.path[d]] = false
			h.path = h.path[:d]
			continue
		}
		h.used[next] = true
		h.path = append(h.path, next)
		h.idx[d+1] = 0
	}
	for _, t := range h.path {
		h.used[t] = false
	}
	return found
}

// simpleRoute looks for a simple route through h.cluster, q's territories,
// for p's attack (CountryCluster.getSimpleRoute with a single owner and an
// attacking player) and leaves it in h.croute: first from each territory
// next to one of p's, in the cluster's order, then from each other one
// with a neighbour that is not q's.
func (h *vultureHunt) simpleRoute(s *sim.State, p, q int) bool {
	m := s.Map()
	h.setMembers(h.cluster)
	h.steps = 0
	for pass := range 2 {
		for _, t := range h.cluster {
			touchesP, touchesOther := false, false
			for _, u := range m.Neighbors(t) {
				touchesP = touchesP || s.Owner(u) == p
				touchesOther = touchesOther || s.Owner(u) != q
			}
			if pass == 0 && !touchesP || pass == 1 && (touchesP || !touchesOther) {
				continue
			}
			if h.walk(m, t, len(h.cluster)) {
				h.croute = append(h.croute[:0], h.path...)
				return true
			}
			if h.steps > maxRouteSteps {
				return false
			}
		}
	}
	return false
}

// easyCost appends to dst the easiest path from a territory of p to cc
// (BoardHelper.easyCostCountryWithOwner): p's territory first, cc last.
// The search starts at cc and expands, from the cheapest entry on its
// frontier, every neighbour not yet reached at the entry's cost plus the
// neighbour's armies (minus them for p's territories, which therefore come
// off the frontier first); an entry goes before the first one of its cost
// or more, so the last of equal cost comes off first
// (CountryPathStack.pushWithValueAndHistory), and the search ends when a
// territory of p comes off the frontier. A cc of p's is a path of its own.
// ok is false when no territory of p is reached.
func (h *vultureHunt) easyCost(s *sim.State, p, cc int, dst []int) ([]int, bool) {
	dst = dst[:0]
	if s.Owner(cc) == p {
		return append(dst, cc), true
	}
	clear(h.seen)
	h.queue = h.queue[:0]
	h.seen[cc] = true
	t, cost := cc, 0
	for {
		for _, u := range s.Map().Neighbors(t) {
			if h.seen[u] {
				continue
			}
			c := cost + s.Armies(u)
			if s.Owner(u) == p {
				c = cost - s.Armies(u)
			}
			h.prev[u] = t
			h.seen[u] = true
			i := 0
			for i < len(h.queue) && h.queue[i].cost < c {
				i++
			}
			h.queue = append(h.queue, costEntry{})
			copy(h.queue[i+1:], h.queue[i:])
			h.queue[i] = costEntry{u, c}
		}
		if len(h.queue) == 0 {
			return dst, false
		}
		t, cost = h.queue[0].t, h.queue[0].cost
		h.queue = append(h.queue[:0], h.queue[1:]...)
		if s.Owner(t) == p {
			break
		}
	}
	for ; t != cc; t = h.prev[t] {
		dst = append(dst, t)
	}
	return append(dst, cc), true
}

// costBeside returns the armies on route's territories owned by neither a
// nor b (CountryRoute.costNotCountingPlayer; b = a for one player).
func costBeside(s *sim.State, route []int, a, b int) int {
	n := 0
	for _, t := range route {
		if o := s.Owner(t); o != a && o != b {
			n += s.Armies(t)
		}
	}
	return n
}

// appendRoute sets h.built to the approach followed by h.other
// (CountryRoute.append): the approach is copied up to its first territory
// on h.other; when that is the approach's last territory, all of h.other
// follows; when it is h.other's last, h.other follows reversed; otherwise
// the first route through h.other's territories from a neighbour of the
// last territory copied (in its adjacency order) follows, or, failing
// that, h.other as it is (Java's "partly garbage route").
func (h *vultureHunt) appendRoute(s *sim.State, approach []int) {
	h.setMembers(h.other)
	h.built = h.built[:0]
	entry := -1
	for _, t := range approach {
		if h.member[t] {
			entry = t
			break
		}
		h.built = append(h.built, t)
	}
	last := len(h.other) - 1
	switch {
	case entry == approach[len(approach)-1]:
		h.built = append(h.built, h.other...)
		return
	case entry == h.other[last]:
		for i := last; i >= 0; i-- {
			h.built = append(h.built, h.other[i])
		}
		return
	}
	if len(h.built) > 0 {
		m := s.Map()
		h.steps = 0
		for _, u := range m.Neighbors(h.built[len(h.built)-1]) {
			if h.member[u] && h.walk(m, u, len(h.other)) {
				h.built = append(h.built, h.path...)
				return
			}
		}
	}
	h.built = append(h.built, h.other...)
}

// plan is Vulture's placeToKill for seat p hunting q with armies to place:
// when q's territories form one cluster of fewer than 21 territories with
// a simple route through it (simpleRoute), it takes the approach to the
// route's start or to its end, whichever costs less in the armies of third
// seats less the armies of the approach's first territory (ties: the end,
// the route then reversed), and stores the attack route, approach then the
// route through the cluster (appendRoute). It goes ahead, returning the
// approach's first territory (p's) to place every army on, when that
// territory's armies plus the armies to place exceed the armies on the
// route through the cluster plus the armies on the approach not p's, less
// those of its last territory (the route's own end, which the first term
// already counts; a territory of q's crossed on the way counts twice, as
// in Java), and the attack route is appended to the stored routes (a
// placement forced later in the turn, by cards taken at an elimination,
// may add another, followed after this one). Otherwise ok is false and
// nothing is stored.
func (h *vultureHunt) plan(s *sim.State, p, q, armies int) (at int, ok bool) {
	h.size(s.NumTerritories())
	h.p = p
	if !h.preyCluster(s, q) || len(h.cluster) >= maxHuntCluster || !h.simpleRoute(s, p, q) {
		return -1, false
	}
	var okA, okB bool
	h.toA, okA = h.easyCost(s, p, h.croute[0], h.toA)
	h.toB, okB = h.easyCost(s, p, h.croute[len(h.croute)-1], h.toB)
	if !okA || !okB {
		return -1, false
	}
	approach := h.toB
	h.other = h.other[:0]
	if costBeside(s, h.toA, p, q)-s.Armies(h.toA[0]) < costBeside(s, h.toB, p, q)-s.Armies(h.toB[0]) {
		approach = h.toA
		h.other = append(h.other, h.croute...)
	} else {
		for i := len(h.croute) - 1; i >= 0; i-- {
			h.other = append(h.other, h.croute[i])
		}
	}
	need := costBeside(s, approach, p, p) - s.Armies(approach[len(approach)-1])
	for _, t := range h.croute {
		need += s.Armies(t)
	}
	start := approach[0]
	if s.Armies(start)+armies <= need {
		return -1, false
	}
	h.appendRoute(s, approach)
	h.routes = append(h.routes, h.built...)
	h.ends = append(h.ends, len(h.routes))
	return start, true
}

// hunting reports whether a stored attack route is left to follow.
func (h *vultureHunt) hunting() bool { return h.cur < len(h.ends) }

// stepOrder reports whether the last order next gave was a step of a
// route (its conquest moves everything in, Vulture.java attackAlongRoute).
func (h *vultureHunt) stepOrder() bool { return h.pending }

// next returns the next attack of the stored routes, in order (Vulture.java
// attackPhase's loop over attackRoutes and attackAlongRoute), reading the
// board as it stands: the last step's attack, if its target is still not
// the bot's, was repelled, which ends its route; a step is attacked when
// its first territory is the bot's with 2 armies or more and its second,
// adjacent, is another seat's, and is passed over otherwise. ok is false
// when every route is over; the routes are then dropped.
func (h *vultureHunt) next(s *sim.State) (from, to int, ok bool) {
	for h.cur < len(h.ends) {
		if h.at == 0 {
			h.at = 1
			if h.cur > 0 {
				h.at += h.ends[h.cur-1]
			}
		}
		if h.at >= h.ends[h.cur] {
			h.cur, h.at = h.cur+1, 0
			continue
		}
		from, to = h.routes[h.at-1], h.routes[h.at]
		if h.pending {
			h.pending = false
			if s.Owner(to) != h.p {
				h.cur, h.at = h.cur+1, 0
				continue
			}
			h.at++
			continue
		}
		if s.Owner(from) == h.p && s.Armies(from) > 1 && s.Owner(to) != h.p && s.Map().Adjacent(from, to) {
			h.pending = true
			return from, to, true
		}
		h.at++
	}
	h.reset()
	return -1, -1, false
}
