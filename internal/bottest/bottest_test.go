package bottest

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// attacker attacks from its first territory with an enemy neighbour and
// at least 3 armies, and trades whenever it can.
type attacker struct{ sim.BasePlayer }

func (a *attacker) Trade(s *sim.State, forced bool) ([3]int, bool) { return sim.BestSet(s, a.Seat) }

func (a *attacker) Attack(s *sim.State) (sim.AttackOrder, bool) {
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != a.Seat || s.Armies(t) < 3 {
			continue
		}
		for _, u := range s.Map().Neighbors(t) {
			if s.Owner(u) != a.Seat {
				return sim.AttackOrder{From: t, To: u, Repeat: true}, true
			}
		}
	}
	return sim.AttackOrder{}, false
}

// TestPlay: Play counts every seat's events and sums the faults over the
// games; the attackers attack and never fault.
func TestPlay(t *testing.T) {
	f := bots.Factory{Name: "attacker", New: func(bots.Values) (sim.Player, error) { return &attacker{}, nil }}
	seats := []bots.Seat{{Factory: &f, Label: "a"}, {Factory: &f, Label: "b"}, {Factory: &f, Label: "c"}}
	counts, faults := Play(t, seats, "mars2006", 3, 4)
	assert.Equal(t, []int{0, 0, 0}, faults)
	require.Len(t, counts, 3)
	for p := range seats {
		assert.Positive(t, counts[p][sim.EvAttackOrder], "seat %d", p)
		assert.Positive(t, counts[p][sim.EvOccupation], "seat %d", p)
	}
}

// TestBenchGames: BenchGames plays game indexes 0, 1, ... of seed 1 and
// reports their mean length.
func TestBenchGames(t *testing.T) {
	f := flag.Lookup("test.benchtime")
	old := f.Value.String()
	require.NoError(t, f.Value.Set("3x"))
	t.Cleanup(func() { require.NoError(t, f.Value.Set(old)) })
	var seeds, indexes []uint64
	res := testing.Benchmark(func(b *testing.B) {
		seeds, indexes = seeds[:0], indexes[:0]
		BenchGames(b, func(seed, index uint64) (sim.Result, error) {
			seeds, indexes = append(seeds, seed), append(indexes, index)
			return sim.Result{Turns: 7}, nil
		})
	})
	assert.Equal(t, 3, res.N)
	assert.Equal(t, []uint64{1, 1, 1}, seeds)
	assert.Equal(t, []uint64{0, 1, 2}, indexes)
	assert.InDelta(t, 7, res.Extra["turns/game"], 1e-9)
}

// TestStartAt: the player is started as seat 0 of the position's State.
func TestStartAt(t *testing.T) {
	t.Parallel()
	m, r, pos := simtest.LoadPosition(t, "../../bots/example/testdata/fork.toml", "classic", "../../bots/example/testdata/fork-pos.toml")
	var started []int
	f := bots.Factory{Name: "attacker", New: func(bots.Values) (sim.Player, error) { return &startSpy{started: &started}, nil }}
	p, s := StartAt(t, bots.Seat{Factory: &f, Label: "a"}, m, r, pos, nil)
	require.NotNil(t, p)
	assert.Equal(t, []int{0}, started)
	assert.Equal(t, pos.Owner[0], s.Owner(0))
}

// startSpy records the seats it is started as.
type startSpy struct {
	sim.BasePlayer
	started *[]int
}

func (p *startSpy) Start(s *sim.State, seat int, rng *rand.Rand) {
	*p.started = append(*p.started, seat)
	p.BasePlayer.Start(s, seat, rng)
}
