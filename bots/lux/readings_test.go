package lux_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// movableState is gridState in the fortify phase under mars2006 (one-step
// fortification) with fortify.movable set to movable.
func movableState(t *testing.T, spec, board string, movable sim.FortifyMovable) (sim.Player, *sim.State) {
	t.Helper()
	m, r, pos := boardPosition(t, "testdata/grid.toml", "mars2006", board, "[[], []]", sim.PhaseFortify)
	r.Fortify.Movable = movable
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	return bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(1, 2)))
}

// TestFortifyMovable: the fortify phases of Pixie, EvilPixie, Communist
// and Angry with Lux's moveableArmies (LuxAgent.fortifyPhase: each
// territory's armies when the phase starts, decremented by each move,
// Board.fortifyArmies leaving one army) when the rules allow it
// (fortify.movable = "start"), and with the engine's default (the armies
// at the start less one).
func TestFortifyMovable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, spec, board string
		spare, start      []sim.Move
	}{
		// Pixie.fortifyContinentScraps, North then Middle (neither seat
		// 0's): b (4; weakest enemy 9) sends its movable armies to e, whose
		// weakest enemy h (5) is weaker: 3 either way, b keeping one; then
		// e (3 + 3; weakest enemy 5) sends to f, whose weakest enemy i (1)
		// is weaker: under Lux all 3 of its own, under the engine 2.
		{"pixie scraps", "pixie", "1:9 0:4 1:9 1:9 0:3 0:2 1:9 1:5 1:1",
			[]sim.Move{{From: gb, To: ge, Armies: 3}, {From: ge, To: gf, Armies: 2}},
			[]sim.Move{{From: gb, To: ge, Armies: 3}, {From: ge, To: gf, Armies: 3}}},
		{"evilpixie scraps", "evilpixie", "1:9 0:4 1:9 1:9 0:3 0:2 1:9 1:5 1:1",
			[]sim.Move{{From: gb, To: ge, Armies: 3}, {From: ge, To: gf, Armies: 2}},
			[]sim.Move{{From: gb, To: ge, Armies: 3}, {From: ge, To: gf, Armies: 3}}},
		// Communist.fortifyPhase, pairs of neighbours in id order until a
		// pass moves nothing: a (9) gives b (1) half the difference, 4;
		// b (5) then gives c (1) half of 4, 2, at most its movable armies:
		// its 1 under Lux (it received first), none under the engine.
		{"communist", "communist", "0:9 0:1 0:1 1:3 1:3 1:3 1:3 1:3 1:3",
			[]sim.Move{{From: ga, To: gb, Armies: 4}},
			[]sim.Move{{From: ga, To: gb, Armies: 4}, {From: gb, To: gc, Armies: 1}}},
		// Angry.fortifyPhase in id order: a (no enemy neighbour) sends to
		// b (1 enemy, the first of its neighbours with more than a's 0); b
		// then to e (2 enemies): both of its own under Lux, one under the
		// engine; d (1 enemy) to e.
		{"angry", "angry", "0:5 0:2 1:3 0:2 0:1 1:3 1:3 1:3 1:3",
			[]sim.Move{{From: ga, To: gb, Armies: 4}, {From: gb, To: ge, Armies: 1}, {From: gd, To: ge, Armies: 1}},
			[]sim.Move{{From: ga, To: gb, Armies: 4}, {From: gb, To: ge, Armies: 2}, {From: gd, To: ge, Armies: 1}}},
		// SmartAgentBase.fortifyCluster: each territory sends before any
		// army reaches it, so both readings move the same armies.
		{"cluster", "cluster", "0:5 0:2 1:3 0:2 0:1 1:3 1:3 1:3 1:3",
			[]sim.Move{{From: ga, To: gb, Armies: 4}},
			[]sim.Move{{From: ga, To: gb, Armies: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := movableState(t, tt.spec, tt.board, "")
			assert.Equal(t, tt.spare, simtest.Fortify(t, p, s, 0), "spare")
			p, s = movableState(t, tt.spec, tt.board, sim.MovableStart)
			assert.Equal(t, tt.start, simtest.Fortify(t, p, s, 0), "start")
		})
	}
}

// deadSeatState is seat 0's State on board (testdata/grid.toml, mars2006,
// phase ph) with a third seat, eliminated, and a started player of spec.
func deadSeatState(t *testing.T, spec, board string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	m, r, pos := boardPosition(t, "testdata/grid.toml", "mars2006", board, "[[], []]", ph)
	pos.Players = 3
	pos.Hands = append(pos.Hands, nil)
	pos.Eliminated = []int{2}
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	return bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(1, 2)))
}

// TestDeadIncome: SmartAgentBase.placeArmiesToKillDominantPlayer sums
// board.getPlayerIncome over every seat, the dead one included. Seat 1
// (Middle: 3 + 3) and seat 0 (North, South and six territories: 3 + 2 +
// 1) each have an income of 6. With a dead seat's income 0 (dead_income =
// zero) seat 1 holds half of the total 12 and is the dominant player:
// everything goes on the start of the cheapest route into Middle
// (BoardHelper.cheapestRouteFromOwnerToCont: Middle's borders d, e, f
// enter the queue at 0 and f, the latest pushed, leaves first; it pushes
// c and i, seat 0's, at 0 - 3, and i, the latest pushed, is the route's
// start). With the income formula's 3 for the dead seat (dead_income =
// formula) the total is 15 and nobody dominates: EvilPixie, above seat 1's
// armies (18 to 15), places to outnumber (placeHogWild,
// placeToOutnumberEnemies: d, e and f from their last neighbours of seat
// 0's, g, h and i, 5 - 3 = 2 each); Yakool places as Cluster, one army at a
// time on the weakest of North's cluster border a, b, c
// (placeArmiesOnClusterBorder). The bots' default is zero, as Oponn, an
// agent for the Lux client, reads the client's getPlayerIncome.
func TestDeadIncome(t *testing.T) {
	t.Parallel()
	const board = "0:3 0:3 0:3 1:5 1:5 1:5 0:3 0:3 0:3"
	kill := []sim.Placement{{Territory: gi, Armies: 6}}
	tests := []struct {
		spec string
		want []sim.Placement
	}{
		{"evilpixie(dead_income=zero)", kill},
		{"evilpixie(dead_income=formula)", []sim.Placement{{Territory: gg, Armies: 2}, {Territory: gh, Armies: 2}, {Territory: gi, Armies: 2}}},
		{"yakool(dead_income=zero)", kill},
		{"yakool(dead_income=formula)", []sim.Placement{{Territory: ga, Armies: 2}, {Territory: gb, Armies: 2}, {Territory: gc, Armies: 2}}},
		{"bort(dead_income=zero)", kill},
		{"bort(dead_income=formula)", []sim.Placement{{Territory: ga, Armies: 2}, {Territory: gb, Armies: 2}, {Territory: gc, Armies: 2}}},
		{"bort", kill},
		{"evilpixie", kill},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := deadSeatState(t, tt.spec, board, sim.PhasePlace)
			pl := p.Place(s, 6, nil)
			require.NoError(t, s.CheckPlacement(0, 6, pl))
			assert.Equal(t, tt.want, pl)
		})
	}
}

// TestForcedSet: the set a bot that never trades by choice gives up when
// the engine forces a trade, on two hands of seat 0, whose only card of an
// own territory is a (infantry); b, e, h are cavalry, c artillery, all
// seat 1's.
//
// Hand a, b, e, h, wild: Card.getBestSet (forced_set = best, "our best
// set" of SmartAgentBase.cardsPhase) takes a set without wild cards
// first, and no pair of other cards completes one with a: the whole hand
// without the wild card, where Card.getRandomSet takes the three 1s b, e,
// h. Card.getRandomSet on the whole hand (forced_set = getrandomset, "a
// random set of ours" of Angry's and Stinky's cardsPhase) takes the same
// three 1s (three of a kind before one of each). The engine's sim.BestSet
// (forced_set = engine) takes the most armies, the +2 of an own
// territory's card first: a, b and the wild card.
//
// Hand b, a, c, e, h: getBestSet takes a and the first pair of others
// that completes a set with it, b and c, in getRandomSet's symbol order
// a, b, c; getRandomSet on the whole hand the three 1s b, e, h; the
// engine the first set with a: b, a, c. forced_set = random draws one of
// the valid sets with the bot's stream.
func TestForcedSet(t *testing.T) {
	t.Parallel()
	const board = "0:3 1:3 1:3 0:3 1:3 0:3 0:3 1:3 0:3"
	hands := []struct {
		hand                    string
		best, randomSet, engine [3]int
	}{
		{`[["a", "b", "e", "h", "wild"], []]`, [3]int{1, 2, 3}, [3]int{1, 2, 3}, [3]int{0, 1, 4}},
		{`[["b", "a", "c", "e", "h"], []]`, [3]int{1, 0, 2}, [3]int{0, 3, 4}, [3]int{0, 1, 2}},
	}
	// The defaults follow the cardsPhase comments: best for Pixie and
	// Communist (SmartAgentBase), getrandomset for Angry and Stinky.
	for bot, reading := range map[string]string{"pixie": "best", "communist": "best", "angry": "getrandomset", "stinky": "getrandomset"} {
		for _, h := range hands {
			p, s := gridStateHand(t, bot, board, h.hand)
			set, ok := p.Trade(s, true)
			require.True(t, ok, bot)
			q, s2 := gridStateHand(t, bot+"(forced_set="+reading+")", board, h.hand)
			want, _ := q.Trade(s2, true)
			assert.Equal(t, want, set, bot)
		}
	}
	for _, bot := range []string{"pixie", "communist", "angry", "stinky"} {
		for _, h := range hands {
			for reading, want := range map[string][3]int{"engine": h.engine, "best": h.best, "getrandomset": h.randomSet} {
				spec := bot + "(forced_set=" + reading + ")"
				p, s := gridStateHand(t, spec, board, h.hand)
				_, ok := p.Trade(s, false)
				assert.False(t, ok, spec)
				set, ok := p.Trade(s, true)
				if reading == "engine" {
					assert.False(t, ok, "%s: the engine trades its own best set", spec)
					got, ok := sim.BestSet(s, 0)
					require.True(t, ok)
					assert.Equal(t, want, got, spec)
					continue
				}
				require.True(t, ok, spec)
				require.NoError(t, s.CheckTrade(0, set), spec)
				assert.Equal(t, want, set, "%s, hand %s", spec, h.hand)
			}
			// The uniform draw: the same stream draws the same set; the
			// draws cover the sets.
			spec := bot + "(forced_set=random)"
			p, s := gridStateHand(t, spec, board, h.hand)
			_, ok := p.Trade(s, false)
			assert.False(t, ok, spec)
			set, ok := p.Trade(s, true)
			require.True(t, ok, spec)
			require.NoError(t, s.CheckTrade(0, set), spec)
			p2, s2 := gridStateHand(t, spec, board, h.hand)
			again, _ := p2.Trade(s2, true)
			assert.Equal(t, set, again, spec)
			seen := map[[3]int]bool{}
			for range 200 {
				set, _ := p.Trade(s, true)
				seen[set] = true
			}
			sets, _ := s.ValidTrades(0, nil)
			assert.Len(t, seen, len(sets), spec)
		}
	}
}
