package baseline

import "marslab/sim"

// reach answers reachability questions over one player's territories with a
// reusable breadth-first search: marks are generation-stamped, so a search
// costs nothing to reset and allocates nothing once the buffers are sized.
type reach struct {
	mark  []uint32 // mark[t] == gen: t reached in the current search
	gen   uint32
	queue []int
}

// prepare sizes the buffers for a map of nt territories.
func (r *reach) prepare(nt int) {
	if len(r.mark) < nt {
		r.mark = make([]uint32, nt)
		r.queue = make([]int, 0, nt)
		r.gen = 0
	}
}

// next starts a new search.
func (r *reach) next() {
	r.gen++
	if r.gen == 0 { // wrapped: clear the stamps once every 2^32 searches
		clear(r.mark)
		r.gen = 1
	}
}

// component returns the territories of seat p reachable from territory a
// through p's territories (a included), in breadth-first order. The slice
// is reused by the next search.
func (r *reach) component(s *sim.State, p, a int) []int {
	q, _ := r.search(s, p, a, -1)
	return q
}

// connected reports whether territories a and b (both p's) are joined by a
// path of p's territories.
func (r *reach) connected(s *sim.State, p, a, b int) bool {
	_, found := r.search(s, p, a, b)
	return found
}

// search runs a breadth-first search from a through p's territories,
// stopping early when it reaches target (a territory, or -1 for none). It
// returns the territories reached, in order, and whether target was one.
func (r *reach) search(s *sim.State, p, a, target int) ([]int, bool) {
	r.next()
	m := s.Map()
	q := append(r.queue[:0], a)
	r.mark[a] = r.gen
	found := a == target
	for i := 0; i < len(q) && !found; i++ {
		for _, nb := range m.Territories[q[i]].Neighbors {
			if r.mark[nb] != r.gen && s.Owner(nb) == p {
				r.mark[nb] = r.gen
				q = append(q, nb)
				if nb == target {
					found = true
					break
				}
			}
		}
	}
	r.queue = q
	return q, found
}

// linked reports whether a fortification from a to b is legal under the
// fortify rule in force: adjacent territories for sim.FortifySingle and
// sim.FortifyOneStep, a path of p's territories for sim.FortifyConnected.
func (r *reach) linked(s *sim.State, p, a, b int) bool {
	if s.Rules().Fortify.Mode == sim.FortifyConnected {
		return r.connected(s, p, a, b)
	}
	return s.Map().Adjacent(a, b)
}
