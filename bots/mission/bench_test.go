package mission

import (
	"testing"

	"github.com/marslab-risk/marslab/sim"
)

// benchGames plays six-seat games of the missions rules with the players
// mk makes: games per second of the bots and the engine together.
func benchGames(b *testing.B, mk func() sim.Player) {
	r, err := sim.LoadRules("missions")
	if err != nil {
		b.Fatal(err)
	}
	m, err := r.LoadMap()
	if err != nil {
		b.Fatal(err)
	}
	g, err := sim.NewGame(m, r, 6)
	if err != nil {
		b.Fatal(err)
	}
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mk()
	}
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		if _, err := g.Play(players, 1, i); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkMissionGame(b *testing.B) {
	benchGames(b, func() sim.Player { return NewMission(4) })
}

func BenchmarkConstrainedGame(b *testing.B) {
	benchGames(b, func() sim.Player { return NewConstrained() })
}

func BenchmarkGreedyGame(b *testing.B) {
	benchGames(b, func() sim.Player { return newGreedy(4) })
}
