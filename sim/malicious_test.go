package sim_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// steady is an honest, deterministic bot whose decisions depend only on the
// board (owners, armies, adjacency) and the engine's own helpers, never on
// the exported fields of the Map and Rules it is shown, so that a bot that
// corrupts those can make exactly the same decisions.
type steady struct {
	sim.BasePlayer
	board *sim.Map // the map for Adjacent; nil: the one shown
}

func (b *steady) adjacent(s *sim.State, t, u int) bool {
	if b.board != nil {
		return b.board.Adjacent(t, u)
	}
	return s.Map().Adjacent(t, u)
}

// frontier returns p's territory with the most armies that borders an
// enemy, or its first territory.
func (b *steady) frontier(s *sim.State) int {
	best, ba := s.FirstOwned(b.Seat), -1
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != b.Seat || s.Armies(t) <= ba {
			continue
		}
		for u := 0; u < s.NumTerritories(); u++ {
			if s.Owner(u) != b.Seat && b.adjacent(s, t, u) {
				best, ba = t, s.Armies(t)
				break
			}
		}
	}
	return best
}

func (b *steady) PlaceInitial(s *sim.State) int { return b.frontier(s) }

func (b *steady) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if s.NumCards(b.Seat) < 4 && !forced {
		return [3]int{}, false
	}
	return sim.BestSet(s, b.Seat)
}

func (b *steady) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	t := b.frontier(s)
	if armies > 1 && b.RNG.IntN(2) == 0 {
		buf = append(buf, sim.Placement{Territory: s.FirstOwned(b.Seat), Armies: 1})
		armies--
	}
	return append(buf, sim.Placement{Territory: t, Armies: armies})
}

func (b *steady) Attack(s *sim.State) (sim.AttackOrder, bool) {
	bf, bt, bd := -1, -1, 0
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != b.Seat || s.Armies(t) < 3 {
			continue
		}
		for u := 0; u < s.NumTerritories(); u++ {
			if s.Owner(u) != b.Seat && b.adjacent(s, t, u) && s.Armies(t)-s.Armies(u) > bd {
				bf, bt, bd = t, u, s.Armies(t)-s.Armies(u)
			}
		}
	}
	if bf < 0 {
		return sim.AttackOrder{}, false
	}
	return sim.AttackOrder{From: bf, To: bt, Repeat: true}, true
}

func (b *steady) Occupy(s *sim.State, from, to, lo, hi int) int { return lo + (hi-lo)/2 }

// vandal makes the decisions of steady and, around every one of them,
// changes everything it is shown: the rules, the map, its cards, the
// eliminated list and its mission, and it appends to every slice it sees.
type vandal struct {
	steady
	pristine bool // the copies it was shown at Start were the original ones
	peeked   bool // it saw another seat's hand after opening its copy of the rules
	wipe     bool // also overwrite the whole Map, Rules and State values after deciding
	m        *sim.Map
	r        *sim.Rules
	hand     []sim.Card
	calls    int
}

func (v *vandal) spoil(s *sim.State) {
	v.calls++
	r, m := s.Rules(), s.Map()
	r.End.RoundLimit = 3
	r.End.Win = "missions"
	r.Cards.TerritoryBonus = 1000
	r.Cards.ForcedTradeAt = 3
	r.Cards.Mode = "fixed"
	r.Cards.FixedValues = [4]int{100, 100, 100, 100}
	r.Cards.Escalating = append(r.Cards.Escalating, 1000)
	if len(r.Cards.Escalating) > 0 {
		r.Cards.Escalating[0] = 999
	}
	r.StartingArmies[3] = 1000
	r.Reinforce = sim.ReinforceRules{Rounding: "ceil", Divisor: 1, Min: 50, ContinentBonus: true}
	r.Attack.AttackerDice, r.Attack.TiesToAttacker = 9, true
	r.Fortify.Mode = "teleport"
	r.Missions = append(r.Missions, sim.Mission{Name: "win", Kind: sim.MissionTerritories, Count: 1, MinArmies: 1})
	r.Info.Open = true // its own copy: the engine's rules keep the others' hands hidden
	if ms := s.MyMission(); ms != nil {
		ms.Kind, ms.Count, ms.MinArmies, ms.Continents = sim.MissionTerritories, 1, 1, nil
	}
	if len(m.Continents) > 0 && len(m.Territories) > 1 { // not wiped (below)
		m.Continents[0].Bonus = 500
		m.Continents[0].Territories = append(m.Continents[0].Territories, 1, 2, 3)
		m.Territories[0].Neighbors = append(m.Territories[0].Neighbors, len(m.Territories)-1)
		if nb := m.Neighbors(1); len(nb) > 0 {
			nb[0] = 1
			_ = append(nb, 0)
		}
		m.Territories[1].Continent = 0
	}
	m.Continents = append(m.Continents, sim.Continent{Name: "Atlantis", Bonus: 1000, Territories: []int{0}})
	m.Name = "vandalised"
	v.hand = s.Hand(v.hand[:0])
	if _, ok := s.HandOf(nil, (s.Seat()+1)%s.NumPlayers()); ok {
		v.peeked = true
	}
	for i := range v.hand {
		v.hand[i].Symbol = sim.Wild
		v.hand[i].Territory = 0
	}
	v.hand = append(v.hand, sim.Card{Territory: -1, Symbol: sim.Wild})
	el := s.AppendEliminated(nil)
	_ = append(el, 0, 1, 2)
}

func (v *vandal) Start(s *sim.State, seat int, rng *rand.Rand) {
	v.pristine = reflect.DeepEqual(s.Map(), v.m) && reflect.DeepEqual(s.Rules(), v.r)
	v.steady.Start(s, seat, rng)
	v.spoil(s)
}

func (v *vandal) PlaceInitial(s *sim.State) int {
	t := v.steady.PlaceInitial(s)
	v.spoil(s)
	return t
}

func (v *vandal) Trade(s *sim.State, forced bool) ([3]int, bool) {
	set, ok := v.steady.Trade(s, forced)
	v.spoil(s)
	return set, ok
}

func (v *vandal) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	buf = v.steady.Place(s, armies, buf)
	v.spoil(s)
	return buf
}

func (v *vandal) Attack(s *sim.State) (sim.AttackOrder, bool) {
	o, ok := v.steady.Attack(s)
	v.spoil(s)
	return o, ok
}

func (v *vandal) Occupy(s *sim.State, from, to, lo, hi int) int {
	k := v.steady.Occupy(s, from, to, lo, hi)
	v.spoil(s)
	return k
}

func (v *vandal) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	buf = v.steady.Fortify(s, buf)
	v.spoil(s)
	if v.wipe {
		// Adjacent no longer works on the wiped copy: this bot decides
		// with a map of its own (steady.board).
		*s.Map() = sim.Map{}
		*s.Rules() = sim.Rules{}
		*s = sim.State{} // its own handle: the engine sets it anew before every call
	}
	return buf
}

// recordGames plays games 0..games-1 of a new game of m and r with the
// players, and returns a digest of every event (as JSON lines) and the
// results. It reports failures with assert (it runs in goroutines).
func recordGames(t *testing.T, m *sim.Map, r *sim.Rules, players []sim.Player, games int) (string, []sim.Result) {
	g, err := sim.NewGame(m, r, len(players))
	if !assert.NoError(t, err) {
		return "", nil
	}
	h := sha256.New()
	var line []byte
	events := 0
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		line = e.AppendJSON(line[:0])
		h.Write(append(line, '\n'))
		events++
	}))
	c := simtest.NewChecker(g, m, r)
	g.Observe(c)
	var results []sim.Result
	for i := 0; i < games; i++ {
		res, err := g.Play(players, 42, uint64(i))
		if !assert.NoError(t, err) {
			return "", nil
		}
		assert.NoError(t, c.CheckResult(res), "game %d", i)
		results = append(results, res)
		// Whatever the bots did to their copies, the observers' copy is
		// the original.
		assert.Equal(t, m, g.State().Map(), "game %d: the observers' map changed", i)
		assert.Equal(t, r, g.State().Rules(), "game %d: the observers' rules changed", i)
	}
	return fmt.Sprintf("%d events, sha256 %x", events, h.Sum(nil)), results
}

// TestVandalChangesNothing plays the same games with honest bots and with
// bots that make the same decisions but vandalise everything they are
// shown: results and event streams must be identical, the caller's map and
// rules untouched, and every vandal shown the original map and rules again
// at the start of every game. Two vandal games run concurrently on the same
// *Map and *Rules, as arena's workers do, for the race detector. Six games
// per rule set (three under -short or -race).
func TestVandalChangesNothing(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	for _, name := range []string{"classic", "mars2006", "fixedcards", "missions"} {
		t.Run(name, func(t *testing.T) {
			r, err := sim.LoadRules(name)
			require.NoError(t, err)
			m0, r0 := m.Clone(), r.Clone()
			const n = 3
			games := sweepGames(6, 3)
			honest := make([]sim.Player, n)
			for i := range honest {
				honest[i] = &steady{}
			}
			wantLog, wantRes := recordGames(t, m, r, honest, games)

			var wg sync.WaitGroup
			logs := make([]string, 2)
			results := make([][]sim.Result, 2)
			vandals := make([][]*vandal, 2)
			for k := range logs {
				ps := make([]sim.Player, n)
				for i := range ps {
					v := &vandal{m: m0, r: r0, wipe: k == 1 && i == 1}
					if v.wipe {
						v.board = m0
					}
					vandals[k] = append(vandals[k], v)
					ps[i] = v
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					logs[k], results[k] = recordGames(t, m, r, ps, games)
				}()
			}
			wg.Wait()
			for k := range logs {
				assert.Equal(t, wantRes, results[k], "vandals %d: results", k)
				assert.Equal(t, wantLog, logs[k], "vandals %d: the event streams differ", k)
				for i, v := range vandals[k] {
					assert.False(t, v.peeked, "vandals %d, seat %d: saw another seat's hand by opening its copy of the rules", k, i)
					assert.True(t, v.pristine, "vandals %d, seat %d: not shown the original at the last Start", k, i)
					assert.GreaterOrEqual(t, v.calls, 100, "vandals %d, seat %d: calls", k, i)
				}
			}
			assert.Equal(t, m0, m, "the caller's map changed")
			assert.Equal(t, r0, r, "the caller's rules changed")
		})
	}
}

// viewer records the map and rules it is shown in every call.
type viewer struct {
	sim.BasePlayer
	maps  map[*sim.Map]bool
	rules map[*sim.Rules]bool
}

func (v *viewer) Start(s *sim.State, seat int, rng *rand.Rand) {
	v.BasePlayer.Start(s, seat, rng)
	v.maps[s.Map()], v.rules[s.Rules()] = true, true
}

func (v *viewer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	v.maps[s.Map()], v.rules[s.Rules()] = true, true
	return v.BasePlayer.Place(s, armies, buf)
}

// TestEverySeatHasItsOwnView: each seat sees one copy of the map and rules
// of its own in every call; a player keeps its copy from game to game while
// the seats rotate (as in arena); observers see yet another; none is the
// caller's.
func TestEverySeatHasItsOwnView(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(2, 3)
	r := sim.RulesForTest(sim.FortifySingle)
	r.End.RoundLimit = 3
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	outside := map[*sim.Map]bool{}
	g.Observe(sim.ObserverFunc(func(e *sim.Event) { outside[g.State().Map()] = true }))
	vs := []*viewer{}
	ps := []sim.Player{}
	for range 3 {
		v := &viewer{maps: map[*sim.Map]bool{}, rules: map[*sim.Rules]bool{}}
		vs, ps = append(vs, v), append(ps, v)
	}
	for i := 0; i < 6; i++ {
		seated := []sim.Player{ps[i%3], ps[(i+1)%3], ps[(i+2)%3]}
		_, err := g.Play(seated, 1, uint64(i))
		require.NoError(t, err)
	}
	seen := map[*sim.Map]string{}
	for o := range outside {
		seen[o] = "observers"
	}
	seen[m] = "caller"
	require.Len(t, outside, 1, "observers saw several maps")
	require.NotSame(t, m, g.State().Map())
	require.NotSame(t, r, g.State().Rules())
	for i, v := range vs {
		require.Len(t, v.maps, 1, "seat %d saw several maps", i)
		require.Len(t, v.rules, 1, "seat %d saw several rules", i)
		for p := range v.maps {
			who, dup := seen[p]
			require.False(t, dup, "seat %d sees the map of the %s", i, who)
			seen[p] = fmt.Sprint("seat ", i)
		}
	}
}
