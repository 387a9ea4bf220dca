package sim_test

import (
	"context"
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// bully attacks, from its strongest territory, the weakest enemy territory
// it borders.
type bully struct{ sim.BasePlayer }

func (b *bully) Attack(s *sim.State) (sim.AttackOrder, bool) {
	var best sim.AttackOrder
	gap := 1
	for _, o := range s.LegalAttacks(s.Seat(), nil) {
		if d := s.Armies(o.From) - s.Armies(o.To); d > gap {
			best, gap = sim.AttackOrder{From: o.From, To: o.To, Repeat: true}, d
		}
	}
	return best, gap > 1
}

// A test asks a bot for its decision at a position read from TOML, and
// plays a game on from it.
func ExampleNewStateAt() {
	m, err := sim.LoadMap("classic")
	if err != nil {
		panic(err)
	}
	r, err := sim.LoadRules("classic")
	if err != nil {
		panic(err)
	}
	pos, err := sim.LoadPosition("testdata/positions/attack.toml", m, r)
	if err != nil {
		panic(err)
	}
	s, err := sim.NewStateAt(m, r, pos, 0) // seat 0's view
	if err != nil {
		panic(err)
	}
	o, ok := (&bully{}).Attack(s)
	fmt.Println(ok, m.Territories[o.From].Name, "->", m.Territories[o.To].Name, "legal:", s.CheckAttack(0, o) == nil)
	_, seen := s.HandOf(nil, 1)
	fmt.Println("own cards:", len(s.Hand(nil)), "seat 1's cards:", s.NumCards(1), "seen:", seen)

	g, err := sim.NewGame(m, r, 3)
	if err != nil {
		panic(err)
	}
	res, err := g.PlayFrom(context.Background(), []sim.Player{&bully{}, &bully{}, &bully{}}, pos, 1)
	fmt.Println(err, res.Winner >= 0 || res.Stalemate)
	// Output:
	// true Alaska -> Kamchatka legal: true
	// own cards: 3 seat 1's cards: 1 seen: false
	// <nil> true
}

// A position in a few lines of code: a copy of a game's position, changed.
func ExamplePosition() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("classic")
	g, _ := sim.NewGame(m, r, 2)
	if _, err := g.Play([]sim.Player{&bully{}, &bully{}}, 1, 0); err != nil {
		panic(err)
	}
	pos := g.Position() // the final position: the game is over
	fmt.Println(pos.Validate(m, r))
	for t := range pos.Owner { // split the board between both seats again
		pos.Owner[t] = t % 2
	}
	pos.Eliminated, pos.EliminatedBy = nil, nil
	pos.Phase, pos.Conquered, pos.Round = sim.PhaseTrade, false, 1
	fmt.Println(pos.Validate(m, r))
	// Output:
	// phase = "over": must be "trade", "place", "attack" or "fortify"
	// <nil>
}

// A bot finds its way through its own territories without allocating.
func ExampleOwnedPaths() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("classic")
	pos, err := sim.LoadPosition("testdata/positions/attack.toml", m, r)
	if err != nil {
		panic(err)
	}
	s, _ := sim.NewStateAt(m, r, pos, 0)
	alaska, _ := m.TerritoryID("Alaska")
	mexico, _ := m.TerritoryID("Central America")
	siam, _ := m.TerritoryID("Siam")
	paths := s.Paths() // the seat's own buffers
	path, ok := paths.Path(s, 0, alaska, mexico, nil)
	for _, t := range path {
		fmt.Print(m.Territories[t].Name, "; ")
	}
	fmt.Println(ok)
	fmt.Println(len(paths.Component(s, 0, alaska, nil)), paths.Connected(s, 2, siam, alaska))
	// Output:
	// Alaska; Alberta; Western United States; Central America; true
	// 9 false
}
