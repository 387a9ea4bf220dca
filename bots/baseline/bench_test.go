package baseline

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// benchGame plays b.N games of six bots made by mk under the given rules and
// reports games/s and player-turns/s (sim.Result.Turns).
func benchGame(b *testing.B, rules string, mk func() sim.Player) {
	m, r := load(b, rules)
	g, err := sim.NewGame(m, r, 6)
	require.NoError(b, err)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mk()
	}
	turns := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := g.Play(players, 1, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		turns += res.Turns
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(turns)/sec, "player-turns/s")
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}

// BenchmarkAggressiveGame: six aggressive bots, MARS 2006 rules.
func BenchmarkAggressiveGame(b *testing.B) {
	benchGame(b, "mars2006", func() sim.Player { return NewSciberras(Aggressive) })
}

// BenchmarkAggressiveGameClassic: six aggressive bots, classic rules.
func BenchmarkAggressiveGameClassic(b *testing.B) {
	benchGame(b, "classic", func() sim.Player { return NewSciberras(Aggressive) })
}

// BenchmarkPacifistGame: six pacifist bots, MARS 2006 rules.
func BenchmarkPacifistGame(b *testing.B) {
	benchGame(b, "mars2006", func() sim.Player { return NewSciberras(Pacifist) })
}

// BenchmarkRandomGame: six random bots, MARS 2006 rules.
func BenchmarkRandomGame(b *testing.B) {
	benchGame(b, "mars2006", func() sim.Player { return NewRandom(DefaultRandomStop) })
}
