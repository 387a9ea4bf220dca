package bots

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
	r.next()
	m := s.Map()
	q := append(r.queue[:0], a)
	r.mark[a] = r.gen
	for i := 0; i < len(q); i++ {
		for _, nb := range m.Territories[q[i]].Neighbors {
			if r.mark[nb] != r.gen && s.Owner(nb) == p {
				r.mark[nb] = r.gen
				q = append(q, nb)
			}
		}
	}
	r.queue = q
	return q
}

// connected reports whether territories a and b (both p's) are joined by a
// path of p's territories.
func (r *reach) connected(s *sim.State, p, a, b int) bool {
	if a == b {
		return true
	}
	r.next()
	m := s.Map()
	q := append(r.queue[:0], a)
	r.mark[a] = r.gen
	for i := 0; i < len(q); i++ {
		for _, nb := range m.Territories[q[i]].Neighbors {
			if r.mark[nb] != r.gen && s.Owner(nb) == p {
				if nb == b {
					r.queue = q
					return true
				}
				r.mark[nb] = r.gen
				q = append(q, nb)
			}
		}
	}
	r.queue = q
	return false
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
