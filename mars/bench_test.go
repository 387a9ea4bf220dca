package mars_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/cputime"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// baseline returns the MARS seat spec (a registry seat: "mars@paper",
// "mars(goal_paths=all;G_l=6)", ...) in seat 0 and five baseline bots.
func baseline(tb testing.TB, spec string) []sim.Player {
	tb.Helper()
	reg := registry.Default()
	ps := make([]sim.Player, 0, 6)
	for _, name := range []string{spec, "aggressive", "pacifist", "passive", "random", "aggressive"} {
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

// marsReadings are the MARS seats BenchmarkMarsGame plays, by
// sub-benchmark name: the paper's parameters and readings (mars@paper:
// goal_paths = all, G_l = 5), the same under goal_paths = shortest, the
// calibrated set of cmaesField (goal_paths = all, G_l = 5) and the
// paper's set under goal_paths = all at G_l 5, 6 and 8, whose goal count
// grows fastest with G_l.
var marsReadings = []struct{ name, spec string }{
	{"paper", "mars@paper"},
	{"shortest", "mars@paper(goal_paths=shortest)"},
	{"paperfield", cmaesField},
	{"all-Gl5", "mars(goal_paths=all)"},
	{"all-Gl6", "mars(goal_paths=all;G_l=6)"},
	{"all-Gl8", "mars(goal_paths=all;G_l=8)"},
}

// BenchmarkMarsGame plays whole six-player games (MARS against aggressive,
// pacifist, passive, random and aggressive; mars2006 rules, classic map),
// one sub-benchmark per MARS reading of marsReadings (their games differ).
// Besides the wall time (ns/op, ms/game) it reports the process's CPU time
// per game (cpu-ms/game, where the platform gives it), which a machine
// shared with other work inflates far less.
func BenchmarkMarsGame(b *testing.B) {
	for _, r := range marsReadings {
		b.Run(r.name, func(b *testing.B) { benchGame(b, r.spec) })
	}
}

// benchGame is BenchmarkMarsGame for the MARS seat spec.
func benchGame(b *testing.B, spec string) {
	g := newGame(b)
	ps := baseline(b, spec)
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

// luxField is the calibration-paper notebook's field: the twelve Lux bots
// of the paper tournament (configs/experiments/calibration-paper.toml).
// cmaesField is the CMA-ES calibration in the paper's field (278,148
// games; mars@paperfield before SPSA's calibration replaced it), its values
// written out so that the benchmarks' figures in docs/speed.md stay
// comparable whatever the shipped mars@paperfield becomes.
const cmaesField = "mars@paper(P_db=9.993;P_ob=743.7;W_p=0.5163;W_p1=0.1536;C_sv=65.87;C_fn=0.926;C_en=-1.329;" +
	"C_fnu=0.1206;C_enu=-0.2484;C_cb=0.8508;C_oc=43.65;C_eoc=6.284)"

var luxField = []string{"angry", "communist", "stinky", "cluster", "pixie", "shaft",
	"yakool", "boscoe", "bort", "evilpixie", "quo", "vulture"}

// BenchmarkFieldGame plays the games the calibration-paper notebook plays:
// six-player games of mars2006 with cmaesField in seat 0 and five of
// the twelve Lux bots of luxField, game i seating bots 5i+1 to 5i+5 (mod
// 12). Its CPU time a game is MARS's and the Lux bots' together, the
// figure a calibration's throughput follows: kept plays every game with
// the same players, fresh with players made anew every 24 games, as a
// search's pools make them.
func BenchmarkFieldGame(b *testing.B) {
	b.Run("kept", func(b *testing.B) { fieldGames(b, 0) })
	// A search's pool makes its players anew for each evaluation: with 2
	// workers and an SPSA step of 16 blocks of 6 games, a bot plays about
	// 48 games; fresh makes every seat anew every 24 games.
	b.Run("fresh", func(b *testing.B) { fieldGames(b, 24) })
}

// fieldGames plays BenchmarkFieldGame's games, making every seat anew
// every fresh games (never for 0).
func fieldGames(b *testing.B, fresh uint64) {
	g := newGame(b)
	reg := registry.Default()
	var seats []sim.Player
	names := append([]string{cmaesField}, luxField...)
	newSeats := func() {
		seats = seats[:0]
		for _, name := range names {
			seat, err := reg.ParseSeat(name, nil)
			require.NoError(b, err)
			p, err := seat.New()
			require.NoError(b, err)
			seats = append(seats, p)
		}
	}
	newSeats()
	ps := make([]sim.Player, 6)
	b.ReportAllocs()
	i := uint64(0)
	cpu0, cpuOK := cputime.Process()
	for b.Loop() {
		if fresh > 0 && i > 0 && i%fresh == 0 {
			newSeats()
		}
		ps[0] = seats[0]
		for k := 1; k < len(ps); k++ {
			ps[k] = seats[1+(5*int(i)+k-1)%len(luxField)]
		}
		_, err := g.Play(ps, 1, i)
		require.NoError(b, err)
		i++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(i)/sec, "games/s")
	b.ReportMetric(sec*1000/float64(i), "ms/game")
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		b.ReportMetric((cpu1-cpu0).Seconds()*1000/float64(i), "cpu-ms/game")
	}
}
