// Package bottest holds the test helpers of marslab's bot families that
// take [bots.Seat] values: sim/simtest's game loop and start-up for seats
// parsed by a [bots.Registry], and the whole-game benchmark of a
// [bots.Table]. (sim/simtest itself imports only sim and configs, so that a
// bot author's module can use it.)
package bottest

import (
	"math/rand/v2"
	"testing"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/gamebench"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Players makes one player per seat; a failure fails tb.
func Players(tb testing.TB, seats []bots.Seat) []sim.Player {
	tb.Helper()
	players := make([]sim.Player, len(seats))
	for i, s := range seats {
		var err error
		if players[i], err = s.New(); err != nil {
			tb.Fatalf("seat %d (%s): %v", i, s.Label, err)
		}
	}
	return players
}

// Play is [simtest.Play] with one player per seat, made by the seat (see
// [simtest.Play]): games 0..games-1 of seed under the rule set rules,
// every event checked, and the events of each kind by seat and the
// faults of each seat summed over the games.
func Play(tb testing.TB, seats []bots.Seat, rules string, seed uint64, games int) (counts [][sim.NumEventKinds]int, faults []int) {
	tb.Helper()
	return simtest.Play(tb, Players(tb, seats), rules, seed, games)
}

// StartAt makes the player of seat and starts it as seat 0 of the State
// that seat 0 sees at pos (on map m under rules r) with rng (nil: the
// player's own choice); a failure fails tb.
func StartAt(tb testing.TB, seat bots.Seat, m *sim.Map, r *sim.Rules, pos *sim.Position, rng *rand.Rand) (sim.Player, *sim.State) {
	tb.Helper()
	s, err := sim.NewStateAt(m, r, pos, 0)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := seat.New()
	if err != nil {
		tb.Fatalf("seat %s: %v", seat.Label, err)
	}
	p.Start(s, 0, rng)
	return p, s
}

// BenchGames benchmarks whole games with [gamebench.Play]: play (the
// signature of [bots.Table.Play]) plays game index of seed 1.
func BenchGames(b *testing.B, play func(seed, index uint64) (sim.Result, error)) {
	b.Helper()
	gamebench.Play(b, func(i uint64) (int, error) {
		res, err := play(1, i)
		return res.Turns, err
	})
}
