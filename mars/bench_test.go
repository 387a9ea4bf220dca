package mars_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/cputime"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// baseline returns MARS in seat 0 and five baseline bots.
func baseline(tb testing.TB) []sim.Player {
	tb.Helper()
	reg := registry.Default()
	ps := make([]sim.Player, 0, 6)
	bot, err := mars.New(mars.PaperParams())
	require.NoError(tb, err)
	ps = append(ps, bot)
	for _, name := range []string{"aggressive", "pacifist", "passive", "random", "aggressive"} {
		seat, err := reg.ParseSeat(name, nil)
		require.NoError(tb, err)
		p, err := seat.New()
		require.NoError(tb, err)
		ps = append(ps, p)
	}
	return ps
}

func newGame(tb testing.TB) *sim.Game {
	tb.Helper()
	g, _, _ := simtest.NewGame(tb, "mars2006", 6)
	return g
}

// BenchmarkMarsGame plays whole six-player games (MARS against aggressive,
// pacifist, passive, random and aggressive; mars2006 rules, classic map).
// Besides the wall time (ns/op, ms/game) it reports the process's CPU time
// per game (cpu-ms/game, where the platform gives it), which a machine
// shared with other work inflates far less.
func BenchmarkMarsGame(b *testing.B) {
	g := newGame(b)
	ps := baseline(b)
	b.ReportAllocs()
	turns := 0
	i := uint64(0)
	cpu0, cpuOK := cputime.Process()
	for b.Loop() {
		res, err := g.Play(ps, 1, i)
		require.NoError(b, err)
		turns += res.Turns
		i++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(i)/sec, "games/s")
	b.ReportMetric(sec*1000/float64(i), "ms/game")
	b.ReportMetric(float64(turns)/sec, "player-turns/s")
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		b.ReportMetric((cpu1-cpu0).Seconds()*1000/float64(i), "cpu-ms/game")
	}
}
