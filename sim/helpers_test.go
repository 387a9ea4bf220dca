package sim

import "fmt"

// ringMap builds a map of k continents, each a ring of size territories,
// the rings joined in a chain (territory 0 of ring c borders territory 0 of
// ring c+1). Continent c has bonus c+1.
func ringMap(k, size int) *Map {
	m := &Map{Name: fmt.Sprintf("ring%dx%d", k, size)}
	for c := 0; c < k; c++ {
		m.Continents = append(m.Continents, Continent{Name: fmt.Sprintf("C%d", c), Bonus: c + 1})
		for i := 0; i < size; i++ {
			m.Territories = append(m.Territories, Territory{Name: fmt.Sprintf("T%d.%d", c, i), Continent: c})
		}
	}
	link := func(a, b int) {
		m.Territories[a].Neighbors = append(m.Territories[a].Neighbors, b)
		m.Territories[b].Neighbors = append(m.Territories[b].Neighbors, a)
	}
	for c := 0; c < k; c++ {
		base := c * size
		for i := 0; i < size; i++ {
			j := (i + 1) % size
			if size > 2 || i == 0 {
				link(base+i, base+j)
			}
		}
		if c+1 < k {
			link(base, base+size)
		}
	}
	for i := range m.Territories {
		nb := m.Territories[i].Neighbors
		for a := 1; a < len(nb); a++ {
			for b := a; b > 0 && nb[b] < nb[b-1]; b-- {
				nb[b], nb[b-1] = nb[b-1], nb[b]
			}
		}
	}
	m.finish()
	return m
}

// testRules returns classic-like rules with the given fortify mode.
func testRules(fortify FortifyMode) *Rules {
	return &Rules{
		Name:           "test-" + string(fortify),
		Map:            "ring",
		Players:        3,
		StartingArmies: [7]int{0, 0, 40, 35, 30, 25, 20},
		Setup:          SetupRules{Deal: "random", InitialArmies: "bots"},
		Reinforce:      ReinforceRules{Rounding: "floor", Divisor: 3, Min: 3, ContinentBonus: true},
		Cards: CardRules{Mode: "escalating", Wilds: 2, Escalating: []int{4, 6, 8, 10, 12, 15}, EscalatingStep: 5,
			TerritoryBonus: 2, ForcedTradeAt: 5, OnePerTurn: true, TakeOnElimination: true},
		Attack:  AttackRules{AttackerDice: 3, DefenderDice: 2, MoveInAtLeastDice: true},
		Fortify: FortifyRules{Mode: fortify},
		End:     EndRules{Win: "domination", RoundLimit: 200},
	}
}

// chaos is a test player that makes random answers, legal most of the time
// and illegal (or panicking) with probability bad.
type chaos struct {
	BasePlayer
	bad float64
}

func (c *chaos) misbehave() bool { return c.RNG.Float64() < c.bad }

func (c *chaos) owned(s *State) []int {
	var ts []int
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) == c.Seat {
			ts = append(ts, t)
		}
	}
	return ts
}

func (c *chaos) PlaceInitial(s *State) int {
	if c.misbehave() {
		return c.RNG.IntN(s.NumTerritories()+4) - 2
	}
	ts := c.owned(s)
	return ts[c.RNG.IntN(len(ts))]
}

func (c *chaos) Trade(s *State, forced bool) ([3]int, bool) {
	if c.misbehave() {
		if c.RNG.IntN(10) == 0 {
			panic("chaos trade")
		}
		return [3]int{c.RNG.IntN(s.NumCards(c.Seat) + 2), c.RNG.IntN(3), 0}, true
	}
	if c.RNG.IntN(2) == 0 && !forced {
		return [3]int{}, false
	}
	return BestSet(s, c.Seat)
}

func (c *chaos) Place(s *State, armies int, buf []Placement) []Placement {
	ts := c.owned(s)
	if c.misbehave() {
		return append(buf, Placement{Territory: c.RNG.IntN(s.NumTerritories()), Armies: c.RNG.IntN(armies+2) - 1})
	}
	for armies > 0 {
		k := 1 + c.RNG.IntN(armies)
		buf = append(buf, Placement{Territory: ts[c.RNG.IntN(len(ts))], Armies: k})
		armies -= k
	}
	return buf
}

func (c *chaos) Attack(s *State) (AttackOrder, bool) {
	if c.RNG.IntN(12) == 0 {
		return AttackOrder{}, false
	}
	if c.misbehave() {
		if c.RNG.IntN(10) == 0 {
			panic("chaos attack")
		}
		n := s.NumTerritories()
		return AttackOrder{From: c.RNG.IntN(n+2) - 1, To: c.RNG.IntN(n), Dice: c.RNG.IntN(5) - 1, Repeat: c.RNG.IntN(2) == 0}, true
	}
	var cand [][2]int
	for _, t := range c.owned(s) {
		if s.Armies(t) < 2 {
			continue
		}
		for _, nb := range s.Map().Neighbors(t) {
			if s.Owner(nb) != c.Seat {
				cand = append(cand, [2]int{t, nb})
			}
		}
	}
	if len(cand) == 0 {
		return AttackOrder{}, false
	}
	x := cand[c.RNG.IntN(len(cand))]
	maxDice := min(3, s.Armies(x[0])-1)
	return AttackOrder{From: x[0], To: x[1], Dice: c.RNG.IntN(maxDice + 1), Repeat: c.RNG.IntN(2) == 0, StopAt: c.RNG.IntN(4)}, true
}

func (c *chaos) Occupy(s *State, from, to, lo, hi int) int {
	if c.misbehave() {
		return hi + 1
	}
	return lo + c.RNG.IntN(hi-lo+1)
}

func (c *chaos) Fortify(s *State, buf []Move) []Move {
	ts := c.owned(s)
	if c.misbehave() {
		return append(buf, Move{From: ts[c.RNG.IntN(len(ts))], To: c.RNG.IntN(s.NumTerritories()), Armies: c.RNG.IntN(5)})
	}
	n := 1
	if s.Rules().Fortify.Mode == FortifyOneStep {
		n = c.RNG.IntN(4)
	}
	out := make(map[int]int)
	for i := 0; i < n; i++ {
		from := ts[c.RNG.IntN(len(ts))]
		spare := s.Armies(from) - 1 - out[from]
		if spare < 1 {
			continue
		}
		for _, nb := range s.Map().Neighbors(from) {
			if s.Owner(nb) == c.Seat {
				k := 1 + c.RNG.IntN(spare)
				out[from] += k
				buf = append(buf, Move{From: from, To: nb, Armies: k})
				break
			}
		}
	}
	return buf
}

func newChaos(n int, bad float64) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = &chaos{bad: bad}
	}
	return ps
}
