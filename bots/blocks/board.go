// Package blocks holds the building blocks marslab's bots compose: position
// queries (border territories, neighbour counts, continent shares, weakest
// and strongest territories), searches (clusters and connectivity through
// a player's territories, which are the engine's [sim.OwnedPaths], and the
// cheapest route into a continent) and
// standard moves (easy expand, fill out, consolidate, split up, the
// best-ratio attack, fortifying toward the front), after the shared blocks of the Lux
// Delux bots (SillySoft, 2005) that MARS was evaluated against.
//
// The blocks read a Board, a snapshot of the owners and armies of a
// position that a bot loads from the game's [sim.State] ([Board.Load]) and a
// test builds by hand. Ties are broken toward the lowest territory id
// everywhere, so every block is deterministic. Nothing allocates once a
// Board and a Search have been sized for the map: results go to buffers the
// caller passes and gets back.
package blocks

import "github.com/marslab-risk/marslab/sim"

// Board is a snapshot of a position: the map and every territory's owner
// (a seat, 0-based) and armies, indexed by territory id.
type Board struct {
	// Map is the board's map.
	Map *sim.Map
	// Owner[t] is the seat owning territory t.
	Owner []int
	// Armies[t] is the number of armies on territory t (at least 1 in play).
	Armies []int
}

// NewBoard returns a board for map m with every territory owned by seat 0
// holding no armies; the caller sets Owner and Armies.
func NewBoard(m *sim.Map) *Board {
	n := m.NumTerritories()
	return &Board{Map: m, Owner: make([]int, n), Armies: make([]int, n)}
}

// Load copies the owners and armies of s into b, resizing b for s's map if
// needed (allocation-free once sized).
func (b *Board) Load(s *sim.State) {
	b.Map = s.Map()
	n := s.NumTerritories()
	if cap(b.Owner) < n {
		b.Owner = make([]int, n)
		b.Armies = make([]int, n)
	}
	b.Owner, b.Armies = b.Owner[:n], b.Armies[:n]
	s.LoadBoard(b.Owner, b.Armies)
}

// NumTerritories returns the number of territories on the board.
func (b *Board) NumTerritories() int { return len(b.Owner) }

// IsBorder reports whether territory t, owned by p, has a neighbour owned
// by another player (a front-line territory). It is false when p does not
// own t.
func (b *Board) IsBorder(p, t int) bool {
	if b.Owner[t] != p {
		return false
	}
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] != p {
			return true
		}
	}
	return false
}

// AppendBorder appends p's border territories (see IsBorder), in ascending
// id order, to dst.
func (b *Board) AppendBorder(dst []int, p int) []int {
	for t := range b.Owner {
		if b.IsBorder(p, t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// EnemyNeighbors returns the number of t's neighbours not owned by p.
func (b *Board) EnemyNeighbors(p, t int) int {
	n := 0
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] != p {
			n++
		}
	}
	return n
}

// friendlyNeighbors returns the number of t's neighbours owned by p.
func (b *Board) friendlyNeighbors(p, t int) int {
	return len(b.Map.Territories[t].Neighbors) - b.EnemyNeighbors(p, t)
}

// surrounded reports whether every neighbour of t is p's (friendlyNeighbors
// equal to the neighbour count, stopping at the first other).
func (b *Board) surrounded(p, t int) bool {
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] != p {
			return false
		}
	}
	return true
}

// EnemyArmiesAround returns the total armies on t's neighbours not owned
// by p.
func (b *Board) EnemyArmiesAround(p, t int) int {
	n := 0
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] != p {
			n += b.Armies[u]
		}
	}
	return n
}

// ContinentShare returns how many of continent c's territories p owns, and
// how many it has.
func (b *Board) ContinentShare(p, c int) (owned, size int) {
	ts := b.Map.Continents[c].Territories
	for _, t := range ts {
		if b.Owner[t] == p {
			owned++
		}
	}
	return owned, len(ts)
}

// OwnsContinent reports whether p owns every territory of continent c.
func (b *Board) OwnsContinent(p, c int) bool {
	owned, size := b.ContinentShare(p, c)
	return owned == size
}

// innerFront returns the territory p owns in continent c with the most
// neighbours in c that p does not own, if that is more than least (the
// first in the continent's order on a tie), or -1.
func (b *Board) innerFront(p, c, least int) int {
	best, most := -1, least
	for _, t := range b.Map.Continents[c].Territories {
		if b.Owner[t] != p {
			continue
		}
		n := 0
		for _, u := range b.Map.Territories[t].Neighbors {
			if b.Owner[u] != p && b.Map.Territories[u].Continent == c {
				n++
			}
		}
		if n > most {
			best, most = t, n
		}
	}
	return best
}

// TotalArmies returns the armies on every territory p owns.
func (b *Board) TotalArmies(p int) int {
	n := 0
	for t, o := range b.Owner {
		if o == p {
			n += b.Armies[t]
		}
	}
	return n
}

// WeakestEnemyNeighbor returns t's neighbour not owned by p with the fewest
// armies (lowest id on ties), or -1 if every neighbour is p's.
func (b *Board) WeakestEnemyNeighbor(p, t int) int {
	best := -1
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] != p && (best < 0 || b.Armies[u] < b.Armies[best]) {
			best = u
		}
	}
	return best
}

// strongestOwnedNeighbor returns t's neighbour owned by p with the most
// armies (lowest id on ties), or -1 if p owns none.
func (b *Board) strongestOwnedNeighbor(p, t int) int {
	best := -1
	for _, u := range b.Map.Territories[t].Neighbors {
		if b.Owner[u] == p && (best < 0 || b.Armies[u] > b.Armies[best]) {
			best = u
		}
	}
	return best
}

// WeakestOwned returns p's territory with the fewest armies (lowest id on
// ties), or -1 if p owns none.
func (b *Board) WeakestOwned(p int) int {
	best := -1
	for t, o := range b.Owner {
		if o == p && (best < 0 || b.Armies[t] < b.Armies[best]) {
			best = t
		}
	}
	return best
}

// StrongestOwned returns p's territories with the most and second-most
// armies (lowest id first on ties); -1 where p owns too few territories.
func (b *Board) StrongestOwned(p int) (first, second int) {
	first, second = -1, -1
	fa, sa := 0, 0
	for t, o := range b.Owner {
		if o != p {
			continue
		}
		a := b.Armies[t]
		switch {
		case first < 0 || a > fa:
			second, sa = first, fa
			first, fa = t, a
		case second < 0 || a > sa:
			second, sa = t, a
		}
	}
	return first, second
}
