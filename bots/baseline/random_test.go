package baseline

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// midGame returns the position at the start of round 4 of a game of four
// Random bots under the named rules.
func midGame(t *testing.T, rules string) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	m, r := load(t, rules)
	g, err := sim.NewGame(m, r, 4)
	require.NoError(t, err)
	var pos *sim.Position
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		if pos == nil && e.Kind == sim.EvTurn && g.State().Round() == 4 {
			pos = g.Position()
		}
	}))
	players := []sim.Player{newRandom(0.3), newRandom(0.3), newRandom(0.3), newRandom(0.3)}
	_, err = g.Play(players, 5, 0)
	require.NoError(t, err)
	require.NotNil(t, pos, "the game reached round 4")
	return m, r, pos
}

// TestRandomUniform: the Random bot's attacks are uniform over
// sim.State.LegalAttacks and its single-move fortifications uniform over
// LegalFortifies, with amounts uniform over what a move may carry; under
// the one-step rule every move is one of LegalFortifies's pairs.
func TestRandomUniform(t *testing.T) {
	t.Parallel()
	const draws = 30000
	for _, mode := range []sim.FortifyMode{sim.FortifySingle, sim.FortifyConnected, sim.FortifyOneStep} {
		t.Run(mode.String(), func(t *testing.T) {
			m, r, pos := midGame(t, "classic")
			r = r.Clone()
			r.Fortify.Mode = mode
			seat := pos.Current
			s, err := sim.NewStateAt(m, r, pos, seat)
			require.NoError(t, err)
			bot := newRandom(0)
			bot.Start(s, seat, rand.New(rand.NewPCG(1, 2)))

			legal := s.LegalAttacks(seat, nil)
			require.NotEmpty(t, legal)
			count := map[[2]int]int{}
			for range draws {
				o, ok := bot.Attack(s)
				require.True(t, ok)
				require.NoError(t, s.CheckAttack(seat, o))
				count[[2]int{o.From, o.To}]++
			}
			require.Len(t, count, len(legal), "every legal attack is drawn, nothing else")
			for _, o := range legal {
				assert.InDelta(t, draws/len(legal), count[[2]int{o.From, o.To}], 0.25*draws/float64(len(legal)), "%d->%d", o.From, o.To)
			}

			moves := s.LegalFortifies(seat, nil)
			t.Logf("%d legal attacks, %d legal moves", len(legal), len(moves))
			require.NotEmpty(t, moves)
			pairs := map[[2]int]int{}
			armies := map[[3]int]int{}
			passes := 0
			var buf []sim.Move
			for range draws {
				buf = bot.Fortify(s, buf[:0])
				require.NoError(t, s.CheckMoves(seat, buf))
				if len(buf) == 0 {
					passes++
				}
				for _, mv := range buf {
					pairs[[2]int{mv.From, mv.To}]++
					armies[[3]int{mv.From, mv.To, mv.Armies}]++
				}
			}
			assert.InDelta(t, draws/4, passes, 0.05*draws)
			require.Len(t, pairs, len(moves), "every legal move is drawn, nothing else")
			if mode == sim.FortifyOneStep {
				return
			}
			moved := draws - passes
			for _, mv := range moves {
				n := pairs[[2]int{mv.From, mv.To}]
				assert.InDelta(t, moved/len(moves), n, 0.25*float64(moved)/float64(len(moves)), "%d->%d", mv.From, mv.To)
				for k := 1; k <= mv.Armies; k++ {
					assert.Positive(t, armies[[3]int{mv.From, mv.To, k}], "%d->%d with %d armies", mv.From, mv.To, k)
				}
			}
		})
	}
}

// TestRandomTrades: the Random bot trades only sets of
// sim.State.ValidTrades, and reaches every one of them.
func TestRandomTrades(t *testing.T) {
	t.Parallel()
	m, r, pos := midGame(t, "classic")
	// Give the seat to move two cards of each symbol from the deck and a
	// wild card if there is one: sets of one of each, and with the wild.
	seat := pos.Current
	var per [4]int
	deck := pos.Deck[:0]
	for _, c := range pos.Deck {
		if (c.Symbol < sim.Wild && per[c.Symbol] < 2) || (c.Symbol == sim.Wild && per[c.Symbol] < 1) {
			per[c.Symbol]++
			pos.Hands[seat] = append(pos.Hands[seat], c)
			continue
		}
		deck = append(deck, c)
	}
	pos.Deck = deck
	s, err := sim.NewStateAt(m, r, pos, seat)
	require.NoError(t, err)
	valid, ok := s.ValidTrades(seat, nil)
	require.True(t, ok)
	require.NotEmpty(t, valid)
	t.Logf("%d valid sets", len(valid))
	bot := newRandom(0)
	bot.Start(s, seat, rand.New(rand.NewPCG(3, 4)))
	seen := map[[3]int]int{}
	for range 2000 {
		set, ok := bot.Trade(s, true)
		require.True(t, ok, "a forced trade with sets in hand")
		require.NoError(t, s.CheckTrade(seat, set))
		sorted := set
		for i := range 2 {
			for j := 2; j > i; j-- {
				if sorted[j] < sorted[j-1] {
					sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
				}
			}
		}
		seen[sorted]++
	}
	assert.Len(t, seen, len(valid))
	for _, v := range valid {
		assert.Positive(t, seen[v], "set %v", v)
	}
}

// TestBotsNoAllocs: once started on a map, the baseline bots answer every
// call without allocating, under each fortify rule.
func TestBotsNoAllocs(t *testing.T) {
	for _, rules := range []string{"classic", "mars2006", "fixedcards"} {
		t.Run(rules, func(t *testing.T) {
			m, r, pos := midGame(t, rules)
			seat := pos.Current
			s, err := sim.NewStateAt(m, r, pos, seat)
			require.NoError(t, err)
			for _, bot := range []sim.Player{newRandom(0.1), NewSciberras(Passive), NewSciberras(Pacifist), NewSciberras(Aggressive)} {
				bot.Start(s, seat, rand.New(rand.NewPCG(5, 6)))
				place := make([]sim.Placement, 0, 64)
				moves := make([]sim.Move, 0, 64)
				call := func() {
					bot.Trade(s, false)
					place = bot.Place(s, 5, place[:0])
					bot.Attack(s)
					moves = bot.Fortify(s, moves[:0])
				}
				for range 20 { // let the scratch buffers reach their size
					call()
				}
				assert.Zero(t, testing.AllocsPerRun(100, call), "%T", bot)
			}
		})
	}
}
