package sim

// OwnedPaths searches paths through the territories that one seat owns: the
// search the engine applies to a move under [FortifyConnected], and the one
// bots need for reachability, paths and clusters. It keeps its buffers from
// one search to the next (marks are generation-stamped, so a search costs
// nothing to reset): once sized for a map, no search allocates. The zero
// value is ready to use. An OwnedPaths is not safe for concurrent use.
type OwnedPaths struct {
	mark   []uint32 // mark[t] == gen: t reached in the current search
	gen    uint32
	parent []int32 // parent[t]: the territory t was reached from (Path only)
	queue  []int
}

// newOwnedPaths returns an [OwnedPaths] sized for map m.
func newOwnedPaths(m *Map) *OwnedPaths {
	o := new(OwnedPaths)
	o.prepare(m.NumTerritories())
	return o
}

// prepare sizes the buffers for a map of nt territories.
func (o *OwnedPaths) prepare(nt int) {
	if len(o.mark) < nt {
		o.mark = make([]uint32, nt)
		o.parent = make([]int32, nt)
		o.queue = make([]int, 0, nt)
		o.gen = 0
	}
}

// next starts a new search.
func (o *OwnedPaths) next() {
	o.gen++
	if o.gen == 0 { // wrapped: clear the stamps once every 2^32 searches
		clear(o.mark)
		o.gen = 1
	}
}

// owners is an owner table: the seat owning each territory, as the engine
// keeps it (int8) or as a bot's copy of a position does (int).
type owners interface{ ~int8 | ~int }

// search runs a breadth-first search from a through the territories of
// seat p (as owner lists them), stopping when it reaches target (a
// territory, or -1 for none); with parents it records where every
// territory was reached from. It returns the territories reached in
// breadth-first order (a first; the slice is reused by the next search)
// and whether target was one of them.
func (o *OwnedPaths) search(m *Map, owner []int8, p, a, target int, parents bool) ([]int, bool) {
	return search(o, m, owner, p, a, target, parents)
}

// search is OwnedPaths.search on any owner table: the one owned-path
// breadth-first search, behind every method of [OwnedPaths].
func search[O owners](o *OwnedPaths, m *Map, owner []O, p, a, target int, parents bool) ([]int, bool) {
	o.prepare(len(owner))
	o.next()
	q := append(o.queue[:0], a)
	o.mark[a] = o.gen
	if parents {
		o.parent[a] = -1
	}
	found := a == target
	for i := 0; i < len(q) && !found; i++ {
		for _, nb := range m.Territories[q[i]].Neighbors {
			if o.mark[nb] != o.gen && int(owner[nb]) == p {
				o.mark[nb] = o.gen
				if parents {
					o.parent[nb] = int32(q[i])
				}
				q = append(q, nb)
				if nb == target {
					found = true
					break
				}
			}
		}
	}
	o.queue = q
	return q, found
}

// label marks every cluster of seat p's territories with a generation of
// its own: afterwards a territory of p and any territory are joined by p's
// territories exactly when their marks are equal (every mark of p's
// territories is newer than every other territory's).
func (o *OwnedPaths) label(m *Map, owner []int8, p int) {
	nt := len(owner)
	o.prepare(nt)
	if o.gen > ^uint32(0)-uint32(nt) { // the at most nt stamps to come must not wrap
		clear(o.mark)
		o.gen = 0
	}
	base := o.gen
	for t, ot := range owner {
		if int(ot) == p && o.mark[t] <= base {
			search(o, m, owner, p, t, -1, false)
		}
	}
}

// connected is Connected on the engine's state.
func (o *OwnedPaths) connected(s *state, p, a, b int) bool {
	return connected(o, s.m, s.owner, p, a, b)
}

// connected is Connected on any owner table.
func connected[O owners](o *OwnedPaths, m *Map, owner []O, p, a, b int) bool {
	if !ownedEnds(owner, p, a, b) {
		return false
	}
	_, ok := search(o, m, owner, p, a, b, false)
	return ok
}

// Connected reports whether territories a and b, both owned by seat p, are
// joined by a path of p's territories (a territory is joined to itself).
// It is false if either is out of range or not p's.
func (o *OwnedPaths) Connected(s *State, p, a, b int) bool { return o.connected(s.state, p, a, b) }

// Component appends to dst the territories of seat p reachable from
// territory a through p's territories (a first, then in breadth-first
// order, so by increasing number of steps) and returns the extended slice.
// It appends nothing if a is out of range or not p's.
func (o *OwnedPaths) Component(s *State, p, a int, dst []int) []int {
	return component(o, s.m, s.owner, p, a, dst)
}

// component is Component on any owner table.
func component[O owners](o *OwnedPaths, m *Map, owner []O, p, a int, dst []int) []int {
	if a < 0 || a >= len(owner) || int(owner[a]) != p {
		return dst
	}
	q, _ := search(o, m, owner, p, a, -1, false)
	return append(dst, q...)
}

// Path appends to dst a shortest path (fewest steps) from a to b through
// seat p's territories, a first and b last, and returns the extended slice
// and true; it returns dst and false if there is none (or a or b is out of
// range or not p's).
func (o *OwnedPaths) Path(s *State, p, a, b int, dst []int) ([]int, bool) {
	st := s.state
	if !ownedEnds(st.owner, p, a, b) {
		return dst, false
	}
	if _, ok := o.search(st.m, st.owner, p, a, b, true); !ok {
		return dst, false
	}
	n := len(dst)
	for t := b; t >= 0; t = int(o.parent[t]) {
		dst = append(dst, t)
	}
	// Reverse the appended part: it was written from b back to a.
	for i, j := n, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst, true
}

// ownedEnds reports whether a and b are both territories of seat p.
func ownedEnds[O owners](owner []O, p, a, b int) bool {
	return a >= 0 && a < len(owner) && b >= 0 && b < len(owner) && int(owner[a]) == p && int(owner[b]) == p
}

// Distances sets dist[t], for every territory t of seat p, to the fewest
// steps through p's territories from the nearest of sources (0 for a
// source), and to -1 for every territory not reached (another seat's, or
// cut off); sources that are not p's are ignored. It returns dist, resized
// to the map's number of territories (reusing its memory when large
// enough).
func (o *OwnedPaths) Distances(s *State, p int, sources []int, dist []int) []int {
	return distances(o, s.m, s.owner, p, sources, dist)
}

// distances is Distances on any owner table.
func distances[O owners](o *OwnedPaths, m *Map, owner []O, p int, sources []int, dist []int) []int {
	nt := len(owner)
	o.prepare(nt)
	if cap(dist) < nt {
		dist = make([]int, nt)
	}
	dist = dist[:nt]
	for t := range dist {
		dist[t] = -1
	}
	q := o.queue[:0]
	for _, t := range sources {
		if t >= 0 && t < nt && int(owner[t]) == p && dist[t] < 0 {
			dist[t] = 0
			q = append(q, t)
		}
	}
	for i := 0; i < len(q); i++ {
		t := q[i]
		for _, nb := range m.Territories[t].Neighbors {
			if dist[nb] < 0 && int(owner[nb]) == p {
				dist[nb] = dist[t] + 1
				q = append(q, nb)
			}
		}
	}
	o.queue = q
	return dist
}

// The searches below are those above on a table of owners instead of a
// State: owner[t] is the seat owning territory t of map m (len(owner) is
// m's number of territories). A bot that keeps its own copy of a position,
// and may change it to ask "what if", searches that copy with them.

// ConnectedOn is Connected on the owner table owner of map m.
func (o *OwnedPaths) ConnectedOn(m *Map, owner []int, p, a, b int) bool {
	return connected(o, m, owner, p, a, b)
}

// ComponentOn is Component on the owner table owner of map m.
func (o *OwnedPaths) ComponentOn(m *Map, owner []int, p, a int, dst []int) []int {
	return component(o, m, owner, p, a, dst)
}

// DistancesOn is Distances on the owner table owner of map m.
func (o *OwnedPaths) DistancesOn(m *Map, owner []int, p int, sources []int, dist []int) []int {
	return distances(o, m, owner, p, sources, dist)
}
