package sim_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// classic loads the classic map and the named rules.
func classic(t testing.TB, rules string) (*sim.Map, *sim.Rules) {
	t.Helper()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules(rules)
	require.NoError(t, err)
	return m, r
}

// loadPos reads testdata/positions/NAME.toml for the classic map.
func loadPos(t testing.TB, m *sim.Map, r *sim.Rules, name string) *sim.Position {
	t.Helper()
	pos, err := sim.LoadPosition(filepath.Join("testdata", "positions", name+".toml"), m, r)
	require.NoError(t, err)
	return pos
}

func tid(t testing.TB, m *sim.Map, name string) int {
	t.Helper()
	id, ok := m.TerritoryID(name)
	require.True(t, ok, name)
	return id
}

func card(t testing.TB, m *sim.Map, name string) sim.Card {
	id := tid(t, m, name)
	return sim.Card{Territory: int16(id), Symbol: uint8(id % 3)}
}

var wild = sim.Card{Territory: -1, Symbol: sim.Wild}

// TestLoadPosition: the TOML form gives the position it says.
func TestLoadPosition(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "classic")
	pos := loadPos(t, m, r, "attack")
	assert.Equal(t, 3, pos.Players)
	assert.Equal(t, 5, pos.Round)
	assert.Equal(t, 0, pos.Current)
	assert.Equal(t, sim.PhaseAttack, pos.Phase)
	assert.Equal(t, 1, pos.SetsTraded)
	assert.Equal(t, 0, pos.Owner[tid(t, m, "Alaska")])
	assert.Equal(t, 12, pos.Armies[tid(t, m, "Alaska")])
	assert.Equal(t, 2, pos.Owner[tid(t, m, "Kamchatka")])
	assert.Equal(t, 1, pos.Armies[tid(t, m, "Kamchatka")])
	assert.Equal(t, []sim.Card{card(t, m, "Alaska"), card(t, m, "Brazil"), wild}, pos.Hands[0])
	assert.Equal(t, []sim.Card{card(t, m, "Peru")}, pos.Hands[1])
	assert.Empty(t, pos.Hands[2])
	assert.Equal(t, []sim.Card{card(t, m, "Egypt"), card(t, m, "Ontario"), card(t, m, "Siam")}, pos.Discard)
	// The rest of the deck: 42 + 2 wild cards, less 4 in hands and 3 discarded.
	require.Len(t, pos.Deck, 44-4-3)
	assert.Equal(t, wild, pos.Deck[len(pos.Deck)-1], "the wild card is on top")
	assert.Equal(t, sim.Card{Territory: 1, Symbol: 1}, pos.Deck[0])
	assert.Empty(t, pos.Eliminated)

	pos = loadPos(t, m, r, "trade")
	assert.Equal(t, []int{2}, pos.Eliminated)
	assert.Equal(t, []int{-1, -1, 0}, pos.EliminatedBy)
	assert.Len(t, pos.Hands[1], 5)
}

// TestNewStateAt: a bot is given the State of its seat at a position and
// its decisions can be checked; the exported checks agree.
func TestNewStateAt(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "classic")
	pos := loadPos(t, m, r, "attack")
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	alaska, kam := tid(t, m, "Alaska"), tid(t, m, "Kamchatka")
	assert.Equal(t, 0, s.Seat())
	assert.Equal(t, sim.PhaseAttack, s.Phase())
	assert.Equal(t, 12, s.Armies(alaska))
	assert.Equal(t, 0, s.Current())
	assert.Equal(t, 3, s.NumCards(0))
	assert.Equal(t, 1, s.NumCards(1))
	assert.Equal(t, 37, s.DeckSize())
	assert.Equal(t, pos.Hands[0], s.Hand(nil))

	order, ok := (&weakest{}).decide(s)
	require.True(t, ok)
	assert.Equal(t, sim.AttackOrder{From: alaska, To: kam, Repeat: true}, order)
	assert.NoError(t, s.CheckAttack(0, order))
	attacks := s.LegalAttacks(0, nil)
	assert.Contains(t, attacks, sim.AttackOrder{From: alaska, To: kam})
	for _, o := range attacks {
		assert.NoError(t, s.CheckAttack(0, o))
	}
	assert.Error(t, s.CheckAttack(0, sim.AttackOrder{From: kam, To: alaska}))

	// The position is copied: changing it later changes nothing.
	pos.Armies[alaska] = 1
	assert.Equal(t, 12, s.Armies(alaska))

	_, err = sim.NewStateAt(m, r, pos, 3)
	assert.ErrorContains(t, err, "seat 3: must be -1 (observer) or 0..2")
	pos.Owner[alaska] = 7
	_, err = sim.NewStateAt(m, r, pos, 0)
	assert.ErrorContains(t, err, "territories.Alaska.owner = 7: must be 0..2")
}

// weakest attacks the weakest enemy territory next to its strongest one.
type weakest struct{ sim.BasePlayer }

func (w *weakest) decide(s *sim.State) (sim.AttackOrder, bool) {
	best, bestGap := sim.AttackOrder{}, 1
	for _, o := range s.LegalAttacks(s.Seat(), nil) {
		if gap := s.Armies(o.From) - s.Armies(o.To); gap > bestGap {
			best, bestGap = sim.AttackOrder{From: o.From, To: o.To, Repeat: true}, gap
		}
	}
	return best, bestGap > 1
}

func (w *weakest) Attack(s *sim.State) (sim.AttackOrder, bool) { return w.decide(s) }

// TestPositionFromGame: the position of a running game, taken at every
// event, validates and reads back the state; a seat's view hides the
// others' cards, the deck and the others' missions.
func TestLoadBoard(t *testing.T) {
	m, r := classic(t, "classic")
	pos := loadPos(t, m, r, "attack")
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	n := s.NumTerritories()
	owner, armies := make([]int, n+1), make([]int, n+1)
	owner[n], armies[n] = -7, -7 // past the territories: left alone
	s.LoadBoard(owner, armies)
	assert.Equal(t, pos.Owner, owner[:n])
	assert.Equal(t, pos.Armies, armies[:n])
	assert.Equal(t, 12, armies[tid(t, m, "Alaska")])
	assert.Equal(t, []int{-7, -7}, []int{owner[n], armies[n]})
	assert.Panics(t, func() { s.LoadBoard(owner[:n-1], armies) }, "too short")
}

func TestPositionFromGame(t *testing.T) {
	t.Parallel()
	for _, rules := range []string{"classic", "missions"} {
		m, r := classic(t, rules)
		g, err := sim.NewGame(m, r, 4)
		require.NoError(t, err)
		checked := 0
		g.Observe(sim.ObserverFunc(func(e *sim.Event) {
			if e.Kind != sim.EvTurn && e.Kind != sim.EvAttackOrder && e.Kind != sim.EvEndPhase {
				return
			}
			s := g.State()
			if s.NumAlive() < 2 {
				return
			}
			pos := g.Position()
			require.NoError(t, pos.Validate(m, r), "event %v round %d", e.Kind, e.Round)
			assert.Equal(t, s.Phase(), pos.Phase)
			for p := range pos.Players {
				assert.Equal(t, s.NumCards(p), len(pos.Hands[p]))
			}
			assert.Equal(t, pos, s.Position(), "the observers' State sees all")
			assert.Equal(t, pos, pos.Clone())
			checked++
		}))
		players := make([]sim.Player, 4)
		for i := range players {
			players[i] = &weakest{}
		}
		_, err = g.Play(players, 5, 1)
		require.NoError(t, err)
		assert.Greater(t, checked, 20, rules)

		// A seat's view.
		pos := g.Position()
		pos.Phase, pos.Conquered = sim.PhaseTrade, false
		pos.Eliminated = pos.Eliminated[:0]
		for q := range pos.Owner { // a board on which every seat is alive
			pos.Owner[q] = q % 4
		}
		for q := range pos.Hands {
			pos.Discard = append(pos.Discard, pos.Hands[q]...)
			pos.Hands[q] = nil
		}
		pos.Hands[2] = append(pos.Hands[2], pos.Discard[:min(2, len(pos.Discard))]...)
		pos.Discard = pos.Discard[min(2, len(pos.Discard)):]
		pos.EliminatedBy = nil
		pos.Round = 1
		require.NoError(t, pos.Validate(m, r))
		s, err := sim.NewStateAt(m, r, pos, 1)
		require.NoError(t, err)
		view := s.Position()
		unknown := sim.Card{Territory: -1, Symbol: sim.Unknown}
		assert.Len(t, view.Hands[2], len(pos.Hands[2]))
		for _, c := range append(append(view.Hands[2], view.Deck...), view.Discard...) {
			assert.Equal(t, unknown, c)
		}
		if rules == "missions" {
			assert.Equal(t, pos.Missions[1], view.Missions[1])
			assert.Equal(t, -1, view.Missions[2])
		}
		assert.Equal(t, pos.Owner, view.Owner)
		assert.Error(t, view.Validate(m, r), "a view with hidden cards validates")
	}
}

// TestHiddenInformation tries every accessor of a seat's State on another
// seat: nothing of its hand or mission leaks, its card count does. An
// observer's State, and any under [info] open, sees all.
func TestHiddenInformation(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "missions")
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	players := []sim.Player{&weakest{}, &weakest{}, &weakest{}}
	_, err = g.Play(players, 9, 0)
	require.NoError(t, err)
	pos := g.Position()
	pos.Phase, pos.Conquered = sim.PhaseTrade, false
	pos.Eliminated = pos.Eliminated[:0]
	pos.EliminatedBy = nil
	for q := range pos.Owner {
		pos.Owner[q] = q % 3
	}
	for q := range pos.Hands {
		pos.Deck = append(pos.Deck, pos.Hands[q]...)
		pos.Hands[q] = nil
	}
	// Seat 2 holds a set: three cards of distinct symbols.
	pos.Hands[2] = append(pos.Hands[2], pos.Deck[:0]...)
	for sym := uint8(0); sym < 3; sym++ {
		for i, c := range pos.Deck {
			if c.Symbol == sym {
				pos.Hands[2] = append(pos.Hands[2], c)
				pos.Deck = append(pos.Deck[:i], pos.Deck[i+1:]...)
				break
			}
		}
	}
	pos.Round = 1
	require.NoError(t, pos.Validate(m, r))

	for _, open := range []bool{false, true} {
		r := r.Clone()
		r.Info.Open = open
		for seat := -1; seat < 3; seat++ {
			s, err := sim.NewStateAt(m, r, pos, seat)
			require.NoError(t, err)
			const other = 2
			sees := open || seat == -1 || seat == other
			hand, ok := s.HandOf(nil, other)
			assert.Equal(t, sees, ok, "seat %d HandOf", seat)
			assert.Equal(t, sees, len(hand) == 3, "seat %d HandOf", seat)
			ms, ok := s.MissionOf(other)
			assert.Equal(t, sees, ok, "seat %d MissionOf", seat)
			assert.Equal(t, sees, ms != nil, "seat %d MissionOf", seat)
			_, ok = s.MissionTargetOf(other)
			assert.Equal(t, sees, ok, "seat %d MissionTargetOf", seat)
			err = s.CheckTrade(other, [3]int{0, 1, 2})
			if sees {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, sim.ErrHidden, "seat %d CheckTrade", seat)
			}
			sets, ok := s.ValidTrades(other, nil)
			assert.Equal(t, sees, ok, "seat %d ValidTrades", seat)
			assert.Equal(t, sees, len(sets) == 1, "seat %d ValidTrades", seat)
			_, ok = sim.BestSet(s, other)
			assert.Equal(t, sees, ok, "seat %d BestSet", seat)
			view := s.Position()
			assert.Equal(t, sees, view.Hands[other][0] == pos.Hands[other][0], "seat %d Position", seat)
			assert.Equal(t, sees, view.Missions[other] == pos.Missions[other], "seat %d Position", seat)
			assert.Equal(t, 3, s.NumCards(other), "card counts are open")
			if seat >= 0 {
				own, ok := s.HandOf(nil, seat)
				assert.True(t, ok)
				assert.Equal(t, own, s.Hand(nil))
				mine, ok := s.MissionOf(seat)
				assert.True(t, ok)
				assert.Same(t, mine, s.MyMission())
				tg, _ := s.MissionTargetOf(seat)
				assert.Equal(t, tg, s.MyMissionTarget())
			} else {
				assert.Empty(t, s.Hand(nil), "an observer has no hand")
				assert.Nil(t, s.MyMission())
			}
		}
	}
}

// TestPlayFrom: a game plays on from a position, the same seed giving the
// same game; it starts at the position's phase.
func TestPlayFrom(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "classic")
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	var first []sim.Event
	g.Observe(sim.ObserverFunc(func(e *sim.Event) { first = append(first, *e) }))
	players := func() []sim.Player { return []sim.Player{&weakest{}, &weakest{}, &weakest{}} }
	play := func(name string, seed uint64) (sim.Result, []sim.Event) {
		first = first[:0]
		res, err := g.PlayFrom(context.Background(), players(), loadPos(t, m, r, name), seed)
		require.NoError(t, err)
		return res, append([]sim.Event(nil), first...)
	}
	res, events := play("attack", 1)
	again, eventsAgain := play("attack", 1)
	assert.Equal(t, res, again)
	assert.Equal(t, events, eventsAgain)
	require.NotEmpty(t, events)
	assert.Equal(t, sim.EvAttackOrder, events[0].Kind, "play goes on in the attack phase")
	assert.Equal(t, 0, events[0].Player)
	assert.Equal(t, 5, events[0].Round)
	assert.Equal(t, sim.EvGameEnd, events[len(events)-1].Kind)
	assert.Positive(t, res.Turns)

	_, events = play("trade", 1)
	assert.Equal(t, sim.EvTurn, events[0].Kind)
	assert.Equal(t, 1, events[0].Player)
	assert.Equal(t, 12, events[0].Round)
	// Seat 1 holds 5 cards: a forced trade comes first.
	assert.Equal(t, sim.EvTrade, events[1].Kind)

	// The game is reusable after PlayFrom, and Play is unchanged by it.
	g2, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	want, err := g2.Play(players(), 3, 4)
	require.NoError(t, err)
	got, err := g.Play(players(), 3, 4)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	pos := loadPos(t, m, r, "attack")
	_, err = g.PlayFrom(context.Background(), players()[:2], pos, 1)
	assert.ErrorIs(t, err, sim.ErrPlayers)
	pos.Phase = sim.PhasePlace
	_, err = g.PlayFrom(context.Background(), players(), pos, 1)
	assert.ErrorContains(t, err, `phase = "place"`)
	pos.Phase = sim.PhaseSetup
	_, err = g.PlayFrom(context.Background(), players(), pos, 1)
	assert.ErrorContains(t, err, `phase = "setup": must be`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = g.PlayFrom(ctx, players(), loadPos(t, m, r, "attack"), 1)
	assert.ErrorIs(t, err, sim.ErrInterrupted)
}

// TestPositionValidate: every rule of a position, broken once.
func TestPositionValidate(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "classic")
	alaska := tid(t, m, "Alaska")
	cases := []struct {
		name   string
		change func(p *sim.Position)
		want   string
	}{
		{"players", func(p *sim.Position) { p.Players = 7 }, "players = 7: must be 2..6"},
		{"territories", func(p *sim.Position) { p.Owner = p.Owner[1:] }, "41 owners and 42 army counts"},
		{"hands", func(p *sim.Position) { p.Hands = p.Hands[:2] }, "hands: 2 hands: must be one per seat (3)"},
		{"owner", func(p *sim.Position) { p.Owner[alaska] = -1 }, "territories.Alaska.owner = -1: must be 0..2"},
		{"armies", func(p *sim.Position) { p.Armies[alaska] = 0 }, "territories.Alaska.armies = 0: must be 1..16777216"},
		{"eliminated owns", func(p *sim.Position) { p.Eliminated = []int{1} }, "eliminated[0] = 1: seat 1 owns 10 territories"},
		{"not eliminated", func(p *sim.Position) {
			for t, o := range p.Owner {
				if o == 2 {
					p.Owner[t] = 1
				}
			}
		}, "seat 2 owns no territory and must be listed"},
		{"eliminated seat", func(p *sim.Position) { p.Eliminated = []int{3} }, "eliminated[0] = 3: must be 0..2"},
		{"eliminated by", func(p *sim.Position) { p.EliminatedBy = []int{1, -1, -1} }, "eliminated_by[0] = 1"},
		{"card twice", func(p *sim.Position) { p.Hands[2] = append(p.Hands[2], p.Deck[0]) }, "is in the position twice"},
		{"card missing", func(p *sim.Position) { p.Deck = p.Deck[1:] }, "the card of territory Northwest Territory is missing"},
		{"wilds", func(p *sim.Position) { p.Discard = append(p.Discard, wild, wild) }, "wild card: the deck has 2 wild cards"},
		{"symbol", func(p *sim.Position) { p.Deck[0].Symbol = 0 }, "deck[0] = {1 0}: territory 1's card shows symbol 1"},
		{"unknown card", func(p *sim.Position) { p.Deck[0] = sim.Card{Territory: -1, Symbol: sim.Unknown} }, "out of range [0, 42) and not a wild card"},
		{"missions", func(p *sim.Position) { p.Missions = []int{0, 1, 2} }, `missions: only under end.win = "missions"`},
		{"sets traded", func(p *sim.Position) { p.SetsTraded = -1 }, "sets_traded = -1: must be 0..100000"},
		{"round", func(p *sim.Position) { p.Round = 501 }, "round = 501: must be 1..500 (the round limit)"},
		{"current", func(p *sim.Position) { p.Current = 3 }, "current = 3: must be 0..2"},
		{"phase", func(p *sim.Position) { p.Phase = sim.PhaseOver }, `phase = "over": must be "trade", "place", "attack" or "fortify"`},
		{"conquered", func(p *sim.Position) { p.Phase, p.Conquered = sim.PhaseTrade, true }, "conquered = true: only in the attack or fortify phase"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos := loadPos(t, m, r, "attack")
			require.NoError(t, pos.Validate(m, r))
			c.change(pos)
			assert.ErrorContains(t, pos.Validate(m, r), c.want)
		})
	}
}

// TestParsePositionErrors: bad TOML gets an error naming the file, the
// key and the allowed values.
func TestParsePositionErrors(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "missions")
	data, err := os.ReadFile(filepath.Join("testdata", "positions", "trade.toml"))
	require.NoError(t, err)
	good := string(data) // no missions in it: an error under mission rules
	_, err = sim.ParsePosition("trade.toml", data, m, r)
	assert.ErrorContains(t, err, "trade.toml: missions, mission_targets: 0 and 0 entries: must be one per seat (3)")
	mr := "missions = [\"Occupy Asia and Africa\", \"Eliminate a player\", \"Occupy 24 territories\"]\nmission_targets = [-1, 0, -1]\n"
	_, err = sim.ParsePosition("trade.toml", []byte(mr+good), m, r)
	require.NoError(t, err)

	_, rc := classic(t, "classic")
	cases := []struct{ name, change, want string }{
		{"unknown key", "colour = 1\n", `p.toml:1: unknown key "colour" (allowed: players, round, current, phase, sets_traded, conquered, territories, hands, deck, discard, missions, mission_targets, eliminated, eliminated_by)`},
		{"no players", strings.Replace(good, "players = 3", "", 1), "p.toml: players: missing (2..6)"},
		{"players", strings.Replace(good, "players = 3", "players = 9", 1), "p.toml: players = 9: must be 2..6"},
		{"territory", good + "Atlantis = { owner = 0, armies = 1 }\n", `p.toml: territories.Atlantis: no such territory on map "classic"`},
		{"territory key", strings.Replace(good, "Alaska = { owner = 0, armies = 3 }", "Alaska = { owner = 0 }", 1), "p.toml: territories.Alaska.armies: missing"},
		{"territory missing", strings.Replace(good, "Alaska = { owner = 0, armies = 3 }", "", 1), "p.toml: territories.Alaska: missing"},
		{"territory field", strings.Replace(good, "Alaska = { owner = 0, armies = 3 }", "Alaska = { owner = 0, armies = 3, colour = 2 }", 1), `p.toml:14: unknown key "territories.Alaska.colour" (allowed: owner, armies)`},
		{"owner", strings.Replace(good, "Alaska = { owner = 0, armies = 3 }", "Alaska = { owner = 5, armies = 3 }", 1), "p.toml: territories.Alaska.owner = 5: must be 0..2"},
		{"card", strings.Replace(good, `"Ural"`, `"Urals"`, 1), `p.toml: hands[0][0] = "Urals": no such territory on map "classic" (a card is a territory name or "wild")`},
		{"hands", strings.Replace(good, `, []]`, `]`, 1), "p.toml: hands: 2 hands: must be one per seat (3)"},
		{"phase", "phase = \"lunch\"\n" + strings.Replace(good, `phase = "trade"`, "", 1), `p.toml: phase = "lunch": must be "trade", "place", "attack" or "fortify"`},
		{"type", strings.Replace(good, "round = 12", `round = "twelve"`, 1), "p.toml:"},
		{"syntax", good + "[territories\n", "p.toml:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.change
			if !strings.Contains(c.change, "[territories]") {
				data = c.change + good
			}
			_, err := sim.ParsePosition("p.toml", []byte(data), m, rc)
			assert.ErrorContains(t, err, c.want)
		})
	}
	_, err = sim.LoadPosition(filepath.Join("testdata", "positions", "none.toml"), m, rc)
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}

// FuzzParsePosition: no input makes the parser panic, and every position
// it accepts validates and reads back from a State at it.
func FuzzParsePosition(f *testing.F) {
	for _, name := range []string{"attack", "trade"} {
		data, err := os.ReadFile(filepath.Join("testdata", "positions", name+".toml"))
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("players = 2\nround = 1\ncurrent = 0\n[territories]\n"))
	m, r := classic(f, "classic")
	f.Fuzz(func(t *testing.T, data []byte) {
		pos, err := sim.ParsePosition("f.toml", data, m, r)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "f.toml:"), err.Error())
			return
		}
		require.NoError(t, pos.Validate(m, r))
		s, err := sim.NewStateAt(m, r, pos, -1)
		require.NoError(t, err)
		back := s.Position()
		back.EliminatedBy = pos.EliminatedBy // nil and all -1 are the same
		require.Equal(t, pos, back)
	})
}

// spy tries every accessor for another seat's hidden data in every call of
// a live game and counts what it was shown.
type spy struct {
	weakest
	calls, leaks int
}

func (sp *spy) look(s *sim.State) {
	sp.calls++
	for q := range s.NumPlayers() {
		if q == s.Seat() {
			continue
		}
		if _, ok := s.HandOf(nil, q); ok {
			sp.leaks++
		}
		if _, ok := s.MissionOf(q); ok {
			sp.leaks++
		}
		if _, ok := s.MissionTargetOf(q); ok {
			sp.leaks++
		}
		if _, ok := s.ValidTrades(q, nil); ok {
			sp.leaks++
		}
		if _, ok := sim.BestSet(s, q); ok {
			sp.leaks++
		}
		if s.CheckTrade(q, [3]int{0, 1, 2}) == nil {
			sp.leaks++
		}
		pos := s.Position()
		for _, c := range append(append(pos.Hands[q], pos.Deck...), pos.Discard...) {
			if c.Symbol != sim.Unknown {
				sp.leaks++
			}
		}
		if pos.Missions != nil && pos.Missions[q] != -1 {
			sp.leaks++
		}
	}
}

func (sp *spy) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	sp.look(s)
	return sp.weakest.Place(s, armies, buf)
}

func (sp *spy) Attack(s *sim.State) (sim.AttackOrder, bool) {
	sp.look(s)
	return sp.weakest.Attack(s)
}

// TestSpyInLiveGame: in a live mission game, no accessor of a seat's State
// shows another seat's cards or mission.
func TestSpyInLiveGame(t *testing.T) {
	t.Parallel()
	m, r := classic(t, "missions")
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	spies := []*spy{{}, {}, {}}
	_, err = g.Play([]sim.Player{spies[0], spies[1], spies[2]}, 4, 0)
	require.NoError(t, err)
	for i, sp := range spies {
		assert.Positive(t, sp.calls, "seat %d", i)
		assert.Zero(t, sp.leaks, "seat %d saw hidden data", i)
	}
}
