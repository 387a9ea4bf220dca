package sim

// Map is a Risk board: territories, the continents that partition them and
// the borders between them. A Map is immutable once built (by ParseMap,
// LoadMap or NewMap) and may be shared by any number of concurrent games.
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
