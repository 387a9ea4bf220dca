package blocks

import "marslab/sim"

// Search answers questions about paths over a board with reusable
// buffers. The searches through a player's own territories (Component,
// Connected, Linked, AppendClusterBorder, FortifyTowardFront) are the
// engine's own, sim.OwnedPaths, run on the board's owners; RouteToContinent,
// through other players' territories and weighted by their armies, is a
// search of its own. Nothing is allocated once the buffers are sized for
// the map (the first search on a map sizes them). The zero value is ready
// to use. A result slice returned by a method is reused by the next call.
type Search struct {
	paths sim.OwnedPaths
	comp  []int // Component's result
	steps []int // owned steps from a cluster's root or from the front
	srcs  []int // the front: sources of FortifyTowardFront

	// RouteToContinent's buffers.
	done []uint32 // done[t] == gen: t settled in the current search
	gen  uint32
	dist []int
	prev []int
}

// prepareRoute sizes RouteToContinent's buffers for a map of n
// territories and starts a new search.
func (r *Search) prepareRoute(n int) {
	if len(r.done) < n {
		r.done = make([]uint32, n)
		r.dist = make([]int, n)
		r.prev = make([]int, n)
		r.gen = 0
	}
	r.gen++
	if r.gen == 0 { // wrapped: clear the stamps once every 2^32 searches
		clear(r.done)
		r.gen = 1
	}
}

// Component returns the territories of p reachable from root through p's
// territories (root first, then in breadth-first order): the cluster of
// root (see sim.OwnedPaths.Component). It is empty if root is not p's.
func (r *Search) Component(b *Board, p, root int) []int {
	r.comp = r.paths.ComponentOn(b.Map, b.Owner, p, root, r.comp[:0])
	return r.comp
}

// Connected reports whether territories a and c, both p's, are joined by a
// path of p's territories (see sim.OwnedPaths.Connected); it is false if
// either is not p's.
func (r *Search) Connected(b *Board, p, a, c int) bool {
	return r.paths.ConnectedOn(b.Map, b.Owner, p, a, c)
}

// Linked reports whether p may fortify from a to c under the fortify mode
// (sim.FortifySingle, sim.FortifyOneStep or sim.FortifyConnected):
// adjacent territories for the first two, a path of p's territories for
// the third (the engine's check, sim.State.CheckMoves, on the board).
func (r *Search) Linked(b *Board, mode sim.FortifyMode, p, a, c int) bool {
	if mode == sim.FortifyConnected {
		return r.Connected(b, p, a, c)
	}
	return b.Map.Adjacent(a, c)
}

// AppendClusterBorder appends the border territories (see Board.IsBorder)
// of the cluster of root (see Component), in ascending id order, to dst.
// It appends nothing if root is not p's.
func (r *Search) AppendClusterBorder(dst []int, b *Board, p, root int) []int {
	r.srcs = append(r.srcs[:0], root)
	r.steps = r.paths.DistancesOn(b.Map, b.Owner, p, r.srcs, r.steps)
	for t, d := range r.steps {
		if d >= 0 && b.IsBorder(p, t) {
			dst = append(dst, t)
		}
	}
	return dst
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
	r.prepareRoute(n)
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
			if r.done[t] != r.gen && r.dist[t] < inf && (u < 0 || r.dist[t] < r.dist[u]) {
				u = t
			}
		}
		if u < 0 {
			break
		}
		r.done[u] = r.gen
		if b.Map.Territories[u].Continent == c {
			end = u
			break
		}
		for _, v := range b.Map.Territories[u].Neighbors {
			if b.Owner[v] == p || r.done[v] == r.gen {
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
	r.srcs = b.AppendBorder(r.srcs[:0], p)
	r.steps = r.paths.DistancesOn(b.Map, b.Owner, p, r.srcs, r.steps)
	for t, d := range r.steps {
		if d <= 0 || b.Armies[t] < 2 {
			continue // not p's, cut off from the front, on it, or nothing to move
		}
		for _, u := range b.Map.Territories[t].Neighbors {
			if r.steps[u] == d-1 {
				buf = append(buf, sim.Move{From: t, To: u, Armies: b.Armies[t] - 1})
				break
			}
		}
	}
	return buf
}
