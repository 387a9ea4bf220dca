package baseline

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/gamebench"
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
	gamebench.Play(b, func(i uint64) (int, error) {
		res, err := g.Play(players, 1, i)
		return res.Turns, err
	})
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
	benchGame(b, "mars2006", func() sim.Player { return newRandom(defaultRandomStop) })
}
