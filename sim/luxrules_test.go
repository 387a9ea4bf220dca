package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// setupCall is one call of a player during setup.
type setupCall struct {
	seat, armies int
	initial      bool // PlaceInitial (else Place)
}

// setupRecorder wraps a player and records its setup calls into a log
// shared by every seat, in call order.
type setupRecorder struct {
	sim.Player
	seat int
	log  *[]setupCall
	// split places every army of a setup call on its own territory (one
	// placement each, cycling over the owned territories); bad answers
	// one army too many from the call with index bad on (-1: never).
	split bool
	bad   int
	calls int
}

func (r *setupRecorder) Start(s *sim.State, seat int, rng *rand.Rand) {
	r.seat, r.calls = seat, 0
	r.Player.Start(s, seat, rng)
}

func (r *setupRecorder) PlaceInitial(s *sim.State) int {
	if s.Phase() == sim.PhaseSetup {
		*r.log = append(*r.log, setupCall{seat: r.seat, armies: 1, initial: true})
	}
	return r.Player.PlaceInitial(s)
}

func (r *setupRecorder) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	if s.Phase() != sim.PhaseSetup {
		return r.Player.Place(s, armies, buf)
	}
	*r.log = append(*r.log, setupCall{seat: r.seat, armies: armies})
	r.calls++
	if r.bad >= 0 && r.calls > r.bad {
		return append(buf, sim.Placement{Territory: s.FirstOwned(r.seat), Armies: armies + 1})
	}
	if !r.split {
		return r.Player.Place(s, armies, buf)
	}
	var owned []int
	for t := range s.NumTerritories() {
		if s.Owner(t) == r.seat {
			owned = append(owned, t)
		}
	}
	for i := range armies {
		buf = append(buf, sim.Placement{Territory: owned[i%len(owned)], Armies: 1})
	}
	return buf
}

// luxRules returns the embedded rule set name with f applied.
func luxRules(t *testing.T, name string, f func(r *sim.Rules)) *sim.Rules {
	t.Helper()
	r, err := sim.LoadRules(name)
	require.NoError(t, err)
	r = r.Clone()
	if f != nil {
		f(r)
	}
	require.NoError(t, r.Validate(nil))
	return r
}

// TestInitialPerTurn: with setup.initial_per_turn = k every player places
// its starting armies through Place, k at a time, players taking turns
// from seat 0 (the rest on the last turn), never through PlaceInitial; the
// ledger of sim/simtest checks every event.
func TestInitialPerTurn(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	type perTurnCase struct {
		name  string
		per   int // 0: the key left out
		n     int
		split bool
		want  []int // armies asked per setup turn of each seat
	}
	cases := []perTurnCase{
		// 6 players: 20 armies, 7 territories each, 13 left.
		{"lux 6 players", 4, 6, false, []int{4, 4, 4, 1}},
		{"split placements", 4, 6, true, []int{4, 4, 4, 1}},
		// 4 players: 30 armies, 10 or 11 territories (42 = 11+11+10+10).
		{"5 at a time, 4 players", 5, 4, false, nil},
		{"one at a time through Place", 1, 3, false, nil},
		{"PlaceInitial", 0, 6, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := luxRules(t, "lux", func(r *sim.Rules) { r.Setup.InitialPerTurn = tc.per })
			g, err := sim.NewGame(m, r, tc.n)
			require.NoError(t, err)
			var log []setupCall
			players := sim.NewChaos(tc.n, 0)
			for i := range players {
				players[i] = &setupRecorder{Player: players[i], log: &log, split: tc.split, bad: -1}
			}
			_, results := playChecked(t, g, m, r, players, 5, 3)
			for _, res := range results {
				assert.Equal(t, make([]int, tc.n), res.Faults)
			}
			// The expected calls: seats in turn from seat 0, min(per, left)
			// armies each, until every seat has placed its starting armies.
			left := make([]int, tc.n)
			for p := range left {
				territories := 42 / tc.n
				if p < 42%tc.n {
					territories++
				}
				left[p] = r.StartingArmies[tc.n] - territories
			}
			per := max(tc.per, 1)
			var want []setupCall
			perSeat := make([][]int, tc.n)
			for more := true; more; {
				more = false
				for p := range tc.n {
					if k := min(per, left[p]); k > 0 {
						want = append(want, setupCall{seat: p, armies: k, initial: tc.per == 0})
						perSeat[p] = append(perSeat[p], k)
						left[p] -= k
						more = true
					}
				}
			}
			require.Len(t, log, 3*len(want))
			assert.Equal(t, want, log[:len(want)], "the first game's setup calls")
			if tc.want != nil {
				for p := range tc.n {
					assert.Equal(t, tc.want, perSeat[p], "seat %d", p)
				}
			}
		})
	}
}

// TestInitialPerTurnFault: a setup placement CheckPlacement refuses is a
// fault; the engine places the rest of that player's starting armies at
// random and never asks it again during setup; the game goes on.
func TestInitialPerTurnFault(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r := luxRules(t, "lux", nil)
	g, err := sim.NewGame(m, r, 6)
	require.NoError(t, err)
	var log []setupCall
	players := sim.NewChaos(6, 0)
	for i := range players {
		bad := -1
		if i == 2 {
			bad = 1 // the second setup turn answers 5 armies for 4
		}
		players[i] = &setupRecorder{Player: players[i], log: &log, bad: bad}
	}
	_, results := playChecked(t, g, m, r, players, 9, 1)
	assert.Equal(t, []int{0, 0, 1, 0, 0, 0}, results[0].Faults)
	n := 0
	for _, c := range log {
		if c.seat == 2 {
			n++
		}
	}
	assert.Equal(t, 2, n, "seat 2 is not asked again after its faulty setup turn")
}

// tradeCall is one Trade call at the start of a turn.
type tradeCall struct {
	round, seat, hand int
	forced            bool
}

// greedyTrader wraps a player: it records the Trade calls of the trade
// phase at the start of its turns and trades every set it can.
type greedyTrader struct {
	sim.Player
	seat int
	log  *[]tradeCall
}

func (g *greedyTrader) Start(s *sim.State, seat int, rng *rand.Rand) {
	g.seat = seat
	g.Player.Start(s, seat, rng)
}

func (g *greedyTrader) Trade(s *sim.State, forced bool) ([3]int, bool) {
	if !s.ConqueredThisTurn() { // not the trade after an elimination
		*g.log = append(*g.log, tradeCall{round: s.Round(), seat: g.seat, hand: s.NumCards(g.seat), forced: forced})
	}
	return sim.BestSet(s, g.seat)
}

// TestVoluntaryPerTurn: with cards.voluntary_per_turn = 1 a player that
// would trade every set is asked again in the same trade phase only while
// it holds forced_trade_at cards or more; without the key it trades on.
func TestVoluntaryPerTurn(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	type voluntaryCase struct {
		name      string
		voluntary int
		forcedAt  int
	}
	for _, tc := range []voluntaryCase{{"one a turn", 1, 6}, {"two a turn", 2, 6}, {"one a turn, forced at 5", 1, 5}, {"unbounded", 0, 6}} {
		t.Run(tc.name, func(t *testing.T) {
			r := luxRules(t, "lux", func(r *sim.Rules) { r.Cards.VoluntaryPerTurn, r.Cards.ForcedTradeAt = tc.voluntary, tc.forcedAt })
			g, err := sim.NewGame(m, r, 4)
			require.NoError(t, err)
			var log []tradeCall
			players := sim.NewChaos(4, 0)
			for i := range players {
				players[i] = &greedyTrader{Player: players[i], log: &log}
			}
			playChecked(t, g, m, r, players, 3, 40)
			beyond := 0 // unforced calls after the allowance of a phase
			for i := 0; i < len(log); {
				j := i + 1
				for j < len(log) && log[j].round == log[i].round && log[j].seat == log[i].seat && log[j].hand < log[j-1].hand {
					j++
				}
				for k, c := range log[i:j] {
					if tc.voluntary > 0 && k >= tc.voluntary {
						assert.True(t, c.forced, "call %d of a trade phase unforced: %+v", k, log[i:j])
						assert.GreaterOrEqual(t, c.hand, tc.forcedAt)
					}
					if k >= max(tc.voluntary, 1) && !c.forced {
						beyond++
					}
				}
				i = j
			}
			if tc.voluntary == 0 {
				assert.Positive(t, beyond, "without a bound the greedy traders trade a second unforced set: the test can see it")
			} else {
				assert.Zero(t, beyond)
			}
		})
	}
}
