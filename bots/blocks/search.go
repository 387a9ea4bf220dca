package blocks

import "github.com/marslab-risk/marslab/sim"

// Search answers questions about paths over a board with reusable
// buffers. The searches through a player's own territories (component,
// connected, Linked, appendClusterBorder, FortifyTowardFront) are the
// engine's own, [sim.OwnedPaths], run on the board's owners; RouteToContinent,
// through other players' territories and weighted by their armies, is a
// search of its own (answered for every continent at once by routesInto). Nothing is allocated once the buffers are sized for
// the map (the first search on a map sizes them). The zero value is ready
// to use. A result slice returned by a method is reused by the next call.
type Search struct {
	paths sim.OwnedPaths
	comp  []int  // component's result
	mark  []bool // scratch membership flags, all false between calls
	steps []int  // owned steps from a cluster's root or from the front
	srcs  []int  // the front: sources of FortifyTowardFront

	// The buffers of RouteToContinent and routesInto.
	done  []uint32 // done[t] == gen: t settled in the current search
	gen   uint32
	dist  []int
	prev  []int
	first []int       // per continent: its first territory settled, -1 if none
	heap  []routeItem // the search's frontier
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

// component returns the territories of p reachable from root through p's
// territories (root first, then in breadth-first order): the cluster of
// root (see [sim.OwnedPaths.Component]). It is empty if root is not p's.
func (r *Search) component(b *Board, p, root int) []int {
	r.comp = r.paths.ComponentOn(b.Map, b.Owner, p, root, r.comp[:0])
	return r.comp
}

// connected reports whether territories a and c, both p's, are joined by a
// path of p's territories (see [sim.OwnedPaths.Connected]); it is false if
// either is not p's.
func (r *Search) connected(b *Board, p, a, c int) bool {
	return r.paths.ConnectedOn(b.Map, b.Owner, p, a, c)
}

// Linked reports whether p may fortify from a to c under the fortify mode
// ([sim.FortifySingle], [sim.FortifyOneStep] or [sim.FortifyConnected]):
// adjacent territories for the first two, a path of p's territories for
// the third (the engine's check, [sim.State.CheckMoves], on the board).
func (r *Search) Linked(b *Board, mode sim.FortifyMode, p, a, c int) bool {
	if mode == sim.FortifyConnected {
		return r.connected(b, p, a, c)
	}
	return b.Map.Adjacent(a, c)
}

// appendClusterBorder appends the border territories (see [Board.IsBorder])
// of the cluster of root (see Component), in ascending id order, to dst.
// It appends nothing if root is not p's.
func (r *Search) appendClusterBorder(dst []int, b *Board, p, root int) []int {
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
	end := r.routes(b, p, c, int(^uint(0)>>1), 0)
	if end < 0 {
		return dst, 0, false
	}
	return r.appendRoute(dst, end), r.dist[end], true
}

// routesInto runs the search of RouteToContinent for p into the continents of
// the bit set into (ids below 64; 0 for every continent) at once, keeping
// only the routes that cost less than below; route then answers for those
// continents until the next search of r. route(dst, c) after routesInto(b, p,
// below, into) gives what RouteToContinent(dst, b, p, c) gives when that
// route costs less than below, and no route otherwise, at the cost of one
// search, which stops once it has reached every continent of into or a
// cost of below.
func (r *Search) routesInto(b *Board, p, below int, into uint64) {
	r.routes(b, p, -1, below, into)
}

// route appends to dst the cheapest route into continent c found by the
// last routesInto, and returns it with its cost (see RouteToContinent); ok is
// false when the route does not exist.
func (r *Search) route(dst []int, c int) (route []int, cost int, ok bool) {
	if c < 0 || c >= len(r.first) || r.first[c] < 0 {
		return dst, 0, false
	}
	end := r.first[c]
	return r.appendRoute(dst, end), r.dist[end], true
}

// appendRoute appends the route of the last search ending at end.
func (r *Search) appendRoute(dst []int, end int) []int {
	start := len(dst)
	for t := end; t >= 0; t = r.prev[t] {
		dst = append(dst, t)
	}
	for i, j := start, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// routes runs Dijkstra's search from all of p's territories through the
// other players' territories, each entered at the cost of its armies. It
// settles the territories in order of cost, the lowest id first among
// equal costs, and records in r.first the first territory settled in each
// continent. It stops when it settles a territory of continent stop (never
// for stop < 0), and returns that territory, or -1; when the cheapest
// territory left costs below or more; and when it has reached every
// continent of the bit set into (if not 0).
func (r *Search) routes(b *Board, p, stop, below int, into uint64) int {
	n := b.NumTerritories()
	r.prepareRoute(n)
	nc := len(b.Map.Continents)
	if cap(r.first) < nc {
		r.first = make([]int, nc)
	}
	r.first = r.first[:nc]
	for c := range r.first {
		r.first[c] = -1
	}
	const inf = int(^uint(0) >> 1)
	h := r.heap[:0]
	for t := range n {
		r.prev[t] = -1
		if b.Owner[t] == p {
			r.dist[t] = 0
			h = append(h, routeItem{0, t}) // ascending: already a heap
		} else {
			r.dist[t] = inf
		}
	}
	end := -1
	for len(h) > 0 {
		var it routeItem
		it, h = heapPop(h)
		u := it.t
		if r.done[u] == r.gen || it.d != r.dist[u] {
			continue // a stale entry
		}
		if it.d >= below {
			break
		}
		r.done[u] = r.gen
		c := b.Map.Territories[u].Continent
		if r.first[c] < 0 {
			r.first[c] = u
			if c < 64 && into&(1<<c) != 0 {
				if into &^= 1 << c; into == 0 {
					break
				}
			}
		}
		if c == stop {
			end = u
			break
		}
		for _, v := range b.Map.Territories[u].Neighbors {
			if b.Owner[v] == p || r.done[v] == r.gen {
				continue
			}
			if d := r.dist[u] + b.Armies[v]; d < r.dist[v] {
				r.dist[v], r.prev[v] = d, u
				h = heapPush(h, routeItem{d, v})
			}
		}
	}
	r.heap = h[:0]
	return end
}

// routeItem is an entry of the search's heap: territory t at cost d.
type routeItem struct{ d, t int }

// less orders heap entries by cost, then territory id.
func (a routeItem) less(b routeItem) bool { return a.d < b.d || a.d == b.d && a.t < b.t }

// ordered is an item of a binary min-heap: less orders two items.
type ordered[T any] interface{ less(T) bool }

// heapPush adds it to the binary min-heap h and returns the heap.
func heapPush[T ordered[T]](h []T, it T) []T {
	h = append(h, it)
	for i := len(h) - 1; i > 0; {
		j := (i - 1) / 2
		if !h[i].less(h[j]) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	return h
}

// heapPop removes and returns the least entry of the non-empty binary
// min-heap h, and the heap.
func heapPop[T ordered[T]](h []T) (T, []T) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if l+1 < len(h) && h[l+1].less(h[l]) {
			m = l + 1
		}
		if !h[m].less(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top, h
}

// FortifyTowardFront appends to buf the moves that push every interior
// territory's movable armies one step toward p's front: each territory of
// p without an enemy neighbour, holding at least 2 armies and connected
// through p's territories to a border territory, moves all but one army to
// its neighbour one step nearer the border (the lowest id among them).
// The moves are legal together under [sim.FortifyOneStep]; under the other
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
