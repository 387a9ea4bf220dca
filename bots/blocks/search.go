package blocks

import "marslab/sim"

// Search answers questions about paths over a board with reusable
// buffers: marks are generation-stamped, so a search costs nothing to
// reset, and nothing is allocated once the buffers are sized for the map
// (the first search on a map sizes them). The zero value is ready to use. A
// result slice returned by a method is reused by the next call.
type Search struct {
	mark  []uint32 // mark[t] == gen: t reached in the current search
	gen   uint32
	queue []int
	dist  []int
	prev  []int
}

// prepare sizes the buffers for a map of n territories and starts a new
// search.
func (r *Search) prepare(n int) {
	if len(r.mark) < n {
		r.mark = make([]uint32, n)
		r.queue = make([]int, 0, n)
		r.dist = make([]int, n)
		r.prev = make([]int, n)
		r.gen = 0
	}
	r.gen++
	if r.gen == 0 { // wrapped: clear the stamps once every 2^32 searches
		clear(r.mark)
		r.gen = 1
	}
}

// Component returns the territories of p reachable from root through p's
// territories (root included, first), in breadth-first order: the cluster
// of root. Root must be p's.
func (r *Search) Component(b *Board, p, root int) []int {
	q, _ := r.bfs(b, p, root, -1)
	return q
}

// Connected reports whether territories a and c, both p's, are joined by a
// path of p's territories.
func (r *Search) Connected(b *Board, p, a, c int) bool {
	_, found := r.bfs(b, p, a, c)
	return found
}

// Linked reports whether p may fortify from a to c under the fortify mode
// (sim.FortifySingle, sim.FortifyOneStep or sim.FortifyConnected):
// adjacent territories for the first two, a path of p's territories for
// the third.
func (r *Search) Linked(b *Board, mode sim.FortifyMode, p, a, c int) bool {
	if mode == sim.FortifyConnected {
		return r.Connected(b, p, a, c)
	}
	return b.Map.Adjacent(a, c)
}

// AppendClusterBorder appends the border territories (see Board.IsBorder)
// of the cluster of root (see Component), in ascending id order, to dst.
func (r *Search) AppendClusterBorder(dst []int, b *Board, p, root int) []int {
	r.Component(b, p, root)
	for t := range b.Owner {
		if r.mark[t] == r.gen && b.IsBorder(p, t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// bfs runs a breadth-first search from a through p's territories, stopping
// early when it reaches target (a territory, or -1 for none). It returns
// the territories reached, in order, and whether target was one.
func (r *Search) bfs(b *Board, p, a, target int) ([]int, bool) {
	r.prepare(b.NumTerritories())
	q := append(r.queue[:0], a)
	r.mark[a] = r.gen
	found := a == target
	for i := 0; i < len(q) && !found; i++ {
		for _, u := range b.Map.Territories[q[i]].Neighbors {
			if r.mark[u] != r.gen && b.Owner[u] == p {
				r.mark[u] = r.gen
				q = append(q, u)
				if u == target {
					found = true
					break
				}
			}
		}
	}
	r.queue = q
	return q, found
}

// RouteToContinent appends to dst the cheapest route for p into continent
// c, and returns it with its cost: the route starts at a territory of p,
// continues through territories of other players and ends at the first
// territory of c it reaches; its cost is the total armies on the
// territories after the start (the armies to beat on the way). A territory
// of p inside c is a route of its own at cost 0. Among routes of equal cost
// the one found first from the lowest ids wins. ok is false when p owns no
// territory.
func (r *Search) RouteToContinent(dst []int, b *Board, p, c int) (route []int, cost int, ok bool) {
	n := b.NumTerritories()
	r.prepare(n)
	const inf = int(^uint(0) >> 1)
	for t := range n {
		r.prev[t] = -1
		if b.Owner[t] == p {
			r.dist[t] = 0
		} else {
			r.dist[t] = inf
		}
	}
	// Dijkstra with a linear scan for the nearest unsettled territory: the
	// maps are small, and the scan needs no heap.
	end := -1
	for {
		u := -1
		for t := range n {
			if r.mark[t] != r.gen && r.dist[t] < inf && (u < 0 || r.dist[t] < r.dist[u]) {
				u = t
			}
		}
		if u < 0 {
			break
		}
		r.mark[u] = r.gen
		if b.Map.Territories[u].Continent == c {
			end = u
			break
		}
		for _, v := range b.Map.Territories[u].Neighbors {
			if b.Owner[v] == p || r.mark[v] == r.gen {
				continue
			}
			if d := r.dist[u] + b.Armies[v]; d < r.dist[v] {
				r.dist[v], r.prev[v] = d, u
			}
		}
	}
	if end < 0 {
		return dst, 0, false
	}
	start := len(dst)
	for t := end; t >= 0; t = r.prev[t] {
		dst = append(dst, t)
	}
	for i, j := start, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst, r.dist[end], true
}

// FortifyTowardFront appends to buf the moves that push every interior
// territory's movable armies one step toward p's front: each territory of
// p without an enemy neighbour, holding at least 2 armies and connected
// through p's territories to a border territory, moves all but one army to
// its neighbour one step nearer the border (the lowest id among them).
// The moves are legal together under sim.FortifyOneStep; under the other
// modes only one move is allowed, so a caller takes one of them.
func (r *Search) FortifyTowardFront(buf []sim.Move, b *Board, p int) []sim.Move {
	n := b.NumTerritories()
	r.prepare(n)
	q := r.queue[:0]
	for t := range n {
		if b.IsBorder(p, t) {
			r.mark[t], r.dist[t] = r.gen, 0
			q = append(q, t)
		}
	}
	for i := 0; i < len(q); i++ {
		for _, u := range b.Map.Territories[q[i]].Neighbors {
			if r.mark[u] != r.gen && b.Owner[u] == p {
				r.mark[u], r.dist[u] = r.gen, r.dist[q[i]]+1
				q = append(q, u)
			}
		}
	}
	r.queue = q
	for t := range n {
		if b.Owner[t] != p || r.mark[t] != r.gen || r.dist[t] == 0 || b.Armies[t] < 2 {
			continue
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] == p && r.mark[u] == r.gen && r.dist[u] == r.dist[t]-1 {
				buf = append(buf, sim.Move{From: t, To: u, Armies: b.Armies[t] - 1})
				break
			}
		}
	}
	return buf
}
