package sim

import "slices"

// Map is a Risk board: territories, the continents that partition them and
// the borders between them. A Map is immutable once built (by [ParseMap],
// [LoadMap] or [NewMap]) and may be shared by any number of concurrent games:
// [NewGame] plays on a private copy (Clone), and every player sees a copy of
// its own, so neither a caller that changes a Map afterwards nor a bot that
// changes the Map it is shown can change a game.
//
// Territories and continents are identified by their index (id) in
// Territories and Continents; ids are dense, starting at 0.
type Map struct {
	// Name is the map's name, e.g. "classic".
	Name string
	// Territories lists every territory; its index is the territory id.
	Territories []Territory
	// Continents lists every continent; its index is the continent id.
	Continents []Continent
	// Layout, when the map file gives every territory a position (its x
	// and y keys), holds territory t's position at Layout[t], to draw the
	// board (x to the right, y downwards, in any unit); nil otherwise. It
	// plays no part in a game.
	Layout []Point `json:"-"`

	adj   []uint64 // adjacency bitsets, words per territory = words
	words int
	index map[string]int
}

// Territory is one territory of a Map.
type Territory struct {
	// Name is the territory's unique name.
	Name string
	// Continent is the id of the continent the territory belongs to.
	Continent int
	// Neighbors are the ids of the adjacent territories, in ascending order.
	Neighbors []int
}

// Continent is one continent of a Map.
type Continent struct {
	// Name is the continent's unique name.
	Name string
	// Bonus is the number of extra armies a player owning every territory of
	// the continent receives in each reinforcement (d_c in the MARS paper's
	// equation (1)); it may be 0.
	Bonus int
	// Territories are the ids of the continent's territories, ascending.
	Territories []int
	// Borders are the ids of the continent's territories that have a
	// neighbour outside the continent, ascending (V_nb = len(Borders)).
	Borders []int
}

// Point is a territory's position on a drawing of the board.
type Point struct{ X, Y float64 }

// maxCoordinate bounds the absolute value of a territory's coordinates.
const maxCoordinate = 1e6

// NumTerritories returns the number of territories on the map.
func (m *Map) NumTerritories() int { return len(m.Territories) }

// Neighbors returns the ids of the territories adjacent to t. The slice is
// shared and must not be modified.
func (m *Map) Neighbors(t int) []int { return m.Territories[t].Neighbors }

// Adjacent reports whether territories a and b share a border.
func (m *Map) Adjacent(a, b int) bool {
	return m.adj[a*m.words+b>>6]&(1<<(uint(b)&63)) != 0
}

// TerritoryID returns the id of the territory with the given name.
func (m *Map) TerritoryID(name string) (int, bool) {
	id, ok := m.index[name]
	if !ok || id < 0 {
		return 0, false
	}
	return id, true
}

// ContinentID returns the id of the continent with the given name.
func (m *Map) ContinentID(name string) (int, bool) {
	id, ok := m.index["\x00c:"+name]
	return id, ok
}

// NumBorders returns the number of borders (unordered adjacent pairs).
func (m *Map) NumBorders() int {
	n := 0
	for _, t := range m.Territories {
		n += len(t.Neighbors)
	}
	return n / 2
}

// finish computes the derived lookup structures (adjacency bitsets, name
// index, continent territory and border lists). Territories' Continent and
// Neighbors fields and Continents' Name and Bonus must be set.
func (m *Map) finish() {
	n := len(m.Territories)
	m.words = (n + 63) / 64
	m.adj = make([]uint64, n*m.words)
	m.index = make(map[string]int, n+len(m.Continents))
	for c := range m.Continents {
		m.Continents[c].Territories = m.Continents[c].Territories[:0]
		m.Continents[c].Borders = m.Continents[c].Borders[:0]
		m.index["\x00c:"+m.Continents[c].Name] = c
	}
	for id := range m.Territories {
		t := &m.Territories[id]
		m.index[t.Name] = id
		for _, nb := range t.Neighbors {
			m.adj[id*m.words+nb>>6] |= 1 << (uint(nb) & 63)
		}
	}
	for id := range m.Territories {
		t := &m.Territories[id]
		c := &m.Continents[t.Continent]
		c.Territories = append(c.Territories, id)
		for _, nb := range t.Neighbors {
			if m.Territories[nb].Continent != t.Continent {
				c.Borders = append(c.Borders, id)
				break
			}
		}
	}
}

// Clone returns a deep copy of m: its territories, continents and their id
// lists are fresh memory, so that changing the copy never changes m (nor m
// the copy). The unexported lookup structures behind Adjacent, TerritoryID
// and ContinentID, which nothing can change once the map is built, are
// shared. Clone(nil) is nil.
func (m *Map) Clone() *Map {
	if m == nil {
		return nil
	}
	c := new(Map)
	c.copyFrom(m)
	return c
}

// copyFrom makes m a deep copy of src (see Clone). All id lists of the copy
// are carved from one allocation with their capacity cut to their length,
// so that appending to one of them never writes into another.
func (m *Map) copyFrom(src *Map) {
	n := 0
	for i := range src.Territories {
		n += len(src.Territories[i].Neighbors)
	}
	for i := range src.Continents {
		n += len(src.Continents[i].Territories) + len(src.Continents[i].Borders)
	}
	ids := make([]int, 0, n)
	carve := func(s []int) []int {
		if s == nil {
			return nil
		}
		start := len(ids)
		ids = append(ids, s...)
		return ids[start:len(ids):len(ids)]
	}
	m.Name = src.Name
	m.Territories = slices.Clone(src.Territories)
	for i := range m.Territories {
		m.Territories[i].Neighbors = carve(src.Territories[i].Neighbors)
	}
	m.Continents = slices.Clone(src.Continents)
	for i := range m.Continents {
		m.Continents[i].Territories = carve(src.Continents[i].Territories)
		m.Continents[i].Borders = carve(src.Continents[i].Borders)
	}
	m.Layout = slices.Clone(src.Layout)
	m.adj, m.words, m.index = src.adj, src.words, src.index
}

// equalMap reports whether a and b have the same exported contents. It
// allocates nothing: the engine calls it for every player's view of the map
// at the start of every game.
func equalMap(a, b *Map) bool {
	if a.Name != b.Name || len(a.Territories) != len(b.Territories) || len(a.Continents) != len(b.Continents) ||
		!slices.Equal(a.Layout, b.Layout) {
		return false
	}
	for i := range a.Territories {
		x, y := &a.Territories[i], &b.Territories[i]
		if x.Name != y.Name || x.Continent != y.Continent || !slices.Equal(x.Neighbors, y.Neighbors) {
			return false
		}
	}
	for i := range a.Continents {
		x, y := &a.Continents[i], &b.Continents[i]
		if x.Name != y.Name || x.Bonus != y.Bonus || !slices.Equal(x.Territories, y.Territories) ||
			!slices.Equal(x.Borders, y.Borders) {
			return false
		}
	}
	return a.words == b.words
}
