package sim_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// The fortify rules, as values of the struct whose Mode field has the
// type of the fortify modes.
var (
	single  = sim.FortifyRules{Mode: sim.FortifySingle}
	oneStep = sim.FortifyRules{Mode: sim.FortifyOneStep}
	// Lux's moveableArmies (fortify.movable = "start").
	oneStepStart = sim.FortifyRules{Mode: sim.FortifyOneStep, Movable: sim.MovableStart}
	singleStart  = sim.FortifyRules{Mode: sim.FortifySingle, Movable: sim.MovableStart}
	connected    = sim.FortifyRules{Mode: sim.FortifyConnected}
	fortifies    = []sim.FortifyRules{single, oneStep, connected}
)

// positions returns the positions at the start of the attack phases of a
// game of 4 weakest bots under rules r (every 7th, at most max).
func positions(t testing.TB, m *sim.Map, r *sim.Rules, max int) []*sim.Position {
	t.Helper()
	g, err := sim.NewGame(m, r, 4)
	require.NoError(t, err)
	var out []*sim.Position
	k := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if e.Kind == sim.EvAttackOrder && len(out) < max && g.State().NumAlive() > 1 {
			if k++; k%7 == 0 {
				out = append(out, g.Position())
			}
		}
	}))
	players := []sim.Player{&weakest{}, &weakest{}, &weakest{}, &weakest{}}
	_, err = g.Play(players, 2, 0)
	require.NoError(t, err)
	require.NotEmpty(t, out)
	return out
}

// TestLegalLists: the lists of legal actions hold exactly the actions the
// engine's checks accept, under every fortify mode.
func TestLegalLists(t *testing.T) {
	t.Parallel()
	m, r0 := classic(t, "classic")
	nt := m.NumTerritories()
	for _, fortify := range fortifies {
		mode := fortify.Mode
		r := r0.Clone()
		r.Fortify = fortify
		for _, pos := range positions(t, m, r, 15) {
			p := pos.Current
			s, err := sim.NewStateAt(m, r, pos, p)
			require.NoError(t, err)
			attacks := s.LegalAttacks(p, nil)
			moves := s.LegalFortifies(p, nil)
			for a := range nt {
				for b := range nt {
					o := sim.AttackOrder{From: a, To: b}
					assert.Equal(t, slices.Contains(attacks, o), s.CheckAttack(p, o) == nil, "attack %d->%d", a, b)
					i := slices.IndexFunc(moves, func(mv sim.Move) bool { return mv.From == a && mv.To == b })
					one := s.CheckMoves(p, []sim.Move{{From: a, To: b, Armies: 1}}) == nil
					assert.Equal(t, i >= 0, one, "%s move %d->%d", mode, a, b)
					if i >= 0 {
						assert.NoError(t, s.CheckMoves(p, moves[i:i+1]))
						mv := moves[i]
						mv.Armies++
						assert.Error(t, s.CheckMoves(p, []sim.Move{mv}), "more than the most")
					}
				}
			}
			hand := s.Hand(nil)
			sets, ok := s.ValidTrades(p, nil)
			require.True(t, ok)
			for i := range hand {
				for j := i + 1; j < len(hand); j++ {
					for k := j + 1; k < len(hand); k++ {
						set := [3]int{i, j, k}
						assert.Equal(t, slices.Contains(sets, set), s.CheckTrade(p, set) == nil)
					}
				}
			}
		}
	}
}

// TestCheckMoves: the fortify rules, case by case.
func TestCheckMoves(t *testing.T) {
	t.Parallel()
	// One ring of 6: territories 0..5, i adjacent to i+-1 mod 6.
	m := sim.RingMap(1, 6)
	pos := &sim.Position{Players: 2, Owner: []int{0, 0, 0, 1, 0, 0}, Armies: []int{5, 3, 1, 2, 4, 1},
		Hands: [][]sim.Card{nil, nil}, Round: 1, Phase: sim.PhaseFortify}
	cases := []struct {
		fortify sim.FortifyRules
		moves   []sim.Move
		want    string
	}{
		{single, []sim.Move{{0, 1, 4}}, ""},
		{single, []sim.Move{{0, 1, 5}}, "moves 5 armies out of territory 0, which can spare 4"},
		{single, []sim.Move{{0, 2, 1}}, "move 0->2: territories are not adjacent"},
		{single, []sim.Move{{0, 1, 1}, {1, 2, 1}}, "2 moves: at most one"},
		{single, []sim.Move{{2, 3, 1}}, "move 2->3: both territories must be yours"},
		{single, []sim.Move{{0, 1, 0}}, "move 0->1: 0 armies: must be >= 1"},
		{single, []sim.Move{{0, 0, 1}}, "move 0->0: same territory"},
		{single, []sim.Move{{0, 6, 1}}, "move 0->6: territory out of range [0, 6)"},
		{connected, []sim.Move{{0, 2, 4}}, ""},
		{connected, []sim.Move{{1, 4, 2}}, ""},
		{connected, []sim.Move{{2, 4, 0}}, "2->4: 0 armies"},
		{connected, []sim.Move{{0, 3, 1}}, "both territories must be yours"},
		{oneStep, []sim.Move{{0, 1, 2}, {0, 5, 2}, {1, 2, 2}, {4, 5, 3}}, ""},
		{oneStep, []sim.Move{{0, 1, 2}, {0, 5, 3}}, "moves 5 armies out of territory 0, which can spare 4"},
		{oneStep, []sim.Move{{0, 1, 4}, {1, 2, 3}}, "moves 3 armies out of territory 1, which can spare 2"},
		{oneStep, []sim.Move{{0, 2, 1}}, "not adjacent"},
		{oneStep, []sim.Move{{2, 1, 1}}, "can spare 0"},
		// fortify.movable = "start" (Lux's moveableArmies): 1 receives 2,
		// then sends all 3 of its own; 0 sends all 5 only after receiving.
		{oneStepStart, []sim.Move{{0, 1, 2}, {1, 2, 3}}, ""},
		{oneStepStart, []sim.Move{{1, 2, 3}, {0, 1, 2}}, "moves 3 armies out of territory 1, which held 3 at the start and received 0 before: it must keep 1"},
		{oneStepStart, []sim.Move{{0, 1, 2}, {1, 2, 4}}, "moves 4 armies out of territory 1, which held 3 at the start and received 2 before"},
		{oneStepStart, []sim.Move{{1, 0, 2}, {0, 5, 5}}, ""},
		{oneStepStart, []sim.Move{{0, 1, 5}}, "moves 5 armies out of territory 0, which held 5"},
		{oneStepStart, []sim.Move{{0, 1, 4}, {1, 0, 4}}, "moves 4 armies out of territory 1, which held 3"},
		{singleStart, []sim.Move{{0, 1, 5}}, "moves 5 armies out of territory 0, which held 5"},
	}
	for _, c := range cases {
		r := sim.RulesForTest(c.fortify.Mode)
		r.Fortify.Movable = c.fortify.Movable
		r.Cards = sim.CardRules{Mode: "none"}
		s, err := sim.NewStateAt(m, r, pos, 0)
		require.NoError(t, err)
		err = s.CheckMoves(0, c.moves)
		if c.want == "" {
			assert.NoError(t, err, "%s %v", c.fortify.Mode, c.moves)
		} else {
			assert.ErrorContains(t, err, c.want, "%s %v", c.fortify.Mode, c.moves)
		}
	}
	// Connected: cut the ring at 3 and at 5; 4 is cut off from 0..2.
	pos.Owner[5] = 1
	r := sim.RulesForTest(sim.FortifyConnected)
	r.Cards = sim.CardRules{Mode: "none"}
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	assert.ErrorContains(t, s.CheckMoves(0, []sim.Move{{0, 4, 1}}), "move 0->4: no path through your territories")
}

// TestCheckPlacementAndOccupy: the placement and occupation rules.
func TestCheckPlacementAndOccupy(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(1, 4)
	pos := &sim.Position{Players: 2, Owner: []int{0, 0, 1, 1}, Armies: []int{5, 1, 3, 1},
		Hands: [][]sim.Card{nil, nil}, Round: 1, Phase: sim.PhasePlace}
	r := sim.RulesForTest(sim.FortifySingle)
	r.Cards = sim.CardRules{Mode: "none"}
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	cases := []struct {
		pl   []sim.Placement
		want string
	}{
		{[]sim.Placement{{0, 2}, {1, 3}}, ""},
		{[]sim.Placement{{0, 5}}, ""},
		{[]sim.Placement{{0, 4}}, "placed 4 armies, must place exactly 5"},
		{[]sim.Placement{{0, 3}, {1, 3}}, "placed 6 armies, must place exactly 5"},
		{[]sim.Placement{{2, 5}}, "territory 2 is not yours"},
		{[]sim.Placement{{4, 5}}, "territory 4 out of range [0, 4)"},
		{[]sim.Placement{{0, 0}, {1, 5}}, "0 armies on territory 0: must be 1..5"},
		{nil, "placed 0 armies, must place exactly 5"},
	}
	for _, c := range cases {
		err := s.CheckPlacement(0, 5, c.pl)
		if c.want == "" {
			assert.NoError(t, err, "%v", c.pl)
		} else {
			assert.ErrorContains(t, err, c.want, "%v", c.pl)
		}
	}
	lo, hi := s.OccupyRange(0, 3)
	assert.Equal(t, [2]int{3, 4}, [2]int{lo, hi}, "move in at least the dice")
	lo, hi = s.OccupyRange(0, 3)
	assert.NoError(t, sim.CheckOccupy(lo, hi, 4))
	assert.ErrorContains(t, sim.CheckOccupy(lo, hi, 2), "2 armies: must be 3..4")
	r.Attack.MoveInAtLeastDice = false
	s, err = sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	lo, hi = s.OccupyRange(0, 3)
	assert.Equal(t, [2]int{1, 4}, [2]int{lo, hi})
	lo, hi = s.OccupyRange(1, 3) // one army: nothing to move, the least capped at the most
	assert.Equal(t, [2]int{0, 0}, [2]int{lo, hi})
}

// TestOwnedPaths: paths are shortest and run through the seat's
// territories; components are the connected sets; no search allocates.
func TestOwnedPaths(t *testing.T) {
	m, r := classic(t, "classic")
	nt := m.NumTerritories()
	for _, pos := range positions(t, m, r, 10) {
		s, err := sim.NewStateAt(m, r, pos, -1)
		require.NoError(t, err)
		op := new(sim.OwnedPaths)
		for p := range pos.Players {
			// Brute force: steps between p's territories (Floyd-Warshall).
			const inf = 1 << 20
			d := make([][]int, nt)
			for a := range nt {
				d[a] = make([]int, nt)
				for b := range nt {
					switch {
					case a == b:
						d[a][b] = 0
					case pos.Owner[a] == p && pos.Owner[b] == p && m.Adjacent(a, b):
						d[a][b] = 1
					default:
						d[a][b] = inf
					}
				}
			}
			for k := range nt {
				for a := range nt {
					for b := range nt {
						d[a][b] = min(d[a][b], d[a][k]+d[k][b])
					}
				}
			}
			var path, comp, dist []int
			for a := range nt {
				if pos.Owner[a] != p {
					assert.Empty(t, op.Component(s, p, a, nil))
					continue
				}
				// Distances from a and from a's whole neighbourhood.
				dist = op.Distances(s, p, []int{a, -1, nt}, dist)
				for b := range nt {
					want := d[a][b]
					if pos.Owner[b] != p || want >= inf {
						want = -1
					}
					assert.Equal(t, want, dist[b], "steps %d->%d", a, b)
				}
				srcs := append([]int{a}, m.Neighbors(a)...)
				dist = op.Distances(s, p, srcs, dist)
				for b := range nt {
					want := -1
					for _, x := range srcs {
						if pos.Owner[x] == p && pos.Owner[b] == p && d[x][b] < inf && (want < 0 || d[x][b] < want) {
							want = d[x][b]
						}
					}
					assert.Equal(t, want, dist[b], "steps to %d from %v", b, srcs)
				}
				comp = op.Component(s, p, a, comp[:0])
				assert.Equal(t, a, comp[0])
				for b := range nt {
					in := pos.Owner[b] == p && d[a][b] < inf
					assert.Equal(t, in, slices.Contains(comp, b))
					assert.Equal(t, in, op.Connected(s, p, a, b))
					var ok bool
					path, ok = op.Path(s, p, a, b, path[:0])
					require.Equal(t, in, ok)
					if !ok {
						continue
					}
					require.Len(t, path, d[a][b]+1, "path %d->%d", a, b)
					assert.Equal(t, a, path[0])
					assert.Equal(t, b, path[len(path)-1])
					for i, x := range path {
						assert.Equal(t, p, pos.Owner[x])
						if i > 0 {
							assert.True(t, m.Adjacent(path[i-1], x))
						}
					}
				}
			}
		}
		// Out of range and foreign ends.
		assert.False(t, op.Connected(s, 0, -1, 0))
		_, ok := op.Path(s, 0, 0, nt, nil)
		assert.False(t, ok)
		p0 := pos.Owner[0]
		allocs := testing.AllocsPerRun(100, func() {
			path, _ := op.Path(s, p0, 0, 0, nil)
			_ = path
			comp := op.Component(s, p0, 0, nil)
			_ = comp
		})
		assert.LessOrEqual(t, allocs, 2.0, "only the appended results allocate")
		allocs = testing.AllocsPerRun(100, func() { op.Connected(s, p0, 0, nt-1) })
		assert.Zero(t, allocs)
		dist := make([]int, nt)
		srcs := []int{0, 1, 2}
		allocs = testing.AllocsPerRun(100, func() { dist = op.Distances(s, p0, srcs, dist) })
		assert.Zero(t, allocs)
	}
}

func BenchmarkOwnedPathsPath(b *testing.B) {
	m, r := classic(b, "classic")
	pos := positions(b, m, r, 1)[0]
	s, err := sim.NewStateAt(m, r, pos, -1)
	require.NoError(b, err)
	op := new(sim.OwnedPaths)
	buf := make([]int, 0, m.NumTerritories())
	p := pos.Owner[0]
	b.ReportAllocs()
	for b.Loop() {
		for t := range m.NumTerritories() {
			buf, _ = op.Path(s, p, 0, t, buf[:0])
		}
	}
}

func BenchmarkLegalAttacks(b *testing.B) {
	m, r := classic(b, "classic")
	pos := positions(b, m, r, 1)[0]
	s, err := sim.NewStateAt(m, r, pos, -1)
	require.NoError(b, err)
	buf := make([]sim.AttackOrder, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalAttacks(pos.Current, buf[:0])
	}
}

// FuzzLegality: an attack order or a move list made from bytes is accepted
// by the engine's checks exactly when the legal-action lists allow it, and
// an accepted move list leaves at least one army everywhere.
func FuzzLegality(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 2, 3, 4, 5}, uint8(0))
	f.Add([]byte{9, 3, 1, 1, 2, 2, 9, 9, 1, 7, 7}, uint8(1))
	f.Add([]byte{200, 40, 3, 0, 41, 1, 0}, uint8(2))
	m, r0 := classic(f, "classic")
	modes := fortifies
	states := make([][]*sim.State, len(modes))
	for i, fortify := range modes {
		r := r0.Clone()
		r.Fortify = fortify
		for _, pos := range positions(f, m, r, 5) {
			s, err := sim.NewStateAt(m, r, pos, pos.Current)
			require.NoError(f, err)
			states[i] = append(states[i], s)
		}
	}
	nt := m.NumTerritories()
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		if len(data) < 3 {
			return
		}
		mi := int(pick) % len(modes)
		s := states[mi][int(pick/3)%len(states[mi])]
		p := s.Seat()
		terr := func(b byte) int { return int(b)%(nt+2) - 1 }
		o := sim.AttackOrder{From: terr(data[0]), To: terr(data[1]), Dice: int(data[2]%5) - 1}
		legal := slices.Contains(s.LegalAttacks(p, nil), sim.AttackOrder{From: o.From, To: o.To})
		maxDice := 0
		if o.From >= 0 && o.From < nt {
			maxDice = min(3, s.Armies(o.From)-1)
		}
		legal = legal && o.Dice >= 0 && o.Dice <= maxDice
		require.Equal(t, legal, s.CheckAttack(p, o) == nil, "%+v: %v", o, s.CheckAttack(p, o))

		var moves []sim.Move
		for i := 3; i+2 < len(data) && len(moves) < 8; i += 3 {
			moves = append(moves, sim.Move{From: terr(data[i]), To: terr(data[i+1]), Armies: int(data[i+2]%8) - 1})
		}
		listed := s.LegalFortifies(p, nil)
		ok := len(moves) <= 1 || modes[mi].Mode == sim.FortifyOneStep
		out := make(map[int]int)
		for _, mv := range moves {
			ok = ok && mv.Armies >= 1 && slices.ContainsFunc(listed, func(l sim.Move) bool { return l.From == mv.From && l.To == mv.To })
			out[mv.From] += mv.Armies
			ok = ok && out[mv.From] <= s.Armies(mv.From)-1
		}
		require.Equal(t, ok, s.CheckMoves(p, moves) == nil, "%s %v: %v", modes[mi].Mode, moves, s.CheckMoves(p, moves))
	})
}
