package recog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/mission"
	"github.com/marslab-risk/marslab/sim"
)

// missionGame returns a six-seat game of the missions rules restricted to
// the six continent cards, and its map and rules.
func missionGame(t testing.TB) (*sim.Game, *sim.Map, *sim.Rules) {
	t.Helper()
	r, err := sim.LoadRules("missions")
	require.NoError(t, err)
	r.Missions = r.Missions[:6]
	m, err := r.LoadMap()
	require.NoError(t, err)
	g, err := sim.NewGame(m, r, 6)
	require.NoError(t, err)
	return g, m, r
}

// TestSeatSeesWhatSpectatorSees: a recogniser at seat 0, shown the events
// as seat 0 may see them, predicts every other seat exactly as a neutral
// spectator does (the recogniser needs no hidden information).
func TestSeatSeesWhatSpectatorSees(t *testing.T) {
	t.Parallel()
	g, m, r := missionGame(t)
	spec, err := NewPHATT(m, r.Missions, DefaultParams())
	require.NoError(t, err)
	seat, err := NewPHATT(m, r.Missions, DefaultParams())
	require.NoError(t, err)
	g.Observe(spec)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mission.NewMission(4)
	}
	players[0] = &Watching{Player: players[0], R: seat}
	for game := uint64(0); game < 3; game++ {
		spec.Start(6)
		seat.Start(6)
		_, err := g.Play(players, 7, game)
		require.NoError(t, err)
		for p := 1; p < 6; p++ {
			assert.Equal(t, spec.Probabilities(p), seat.Probabilities(p), "game %d seat %d", game, p)
		}
		sum := 0.0
		for _, x := range spec.Probabilities(3) {
			sum += x
		}
		assert.InDelta(t, 1, sum, 1e-9)
	}
}

// TestConstrainedIsRecognised: against the paper's constrained play, PHATT
// names the card of most players at the end of the game, far above the
// 1/6 of a guess (the paper: 80 % of 102 players), and the data-driven
// recogniser trained on other games does too.
func TestConstrainedIsRecognised(t *testing.T) {
	t.Parallel()
	g, m, r := missionGame(t)
	ph, err := NewPHATT(m, r.Missions, DefaultParams())
	require.NoError(t, err)
	md, err := NewModel(m, r.Missions, 1)
	require.NoError(t, err)
	var tr Trainer
	g.Observe(ph)
	g.Observe(&tr)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mission.NewConstrained()
	}
	const train, test = 30, 10
	correct, dataCorrect := 0, 0
	dr := NewData(md)
	g.Observe(dr)
	for game := uint64(0); game < train+test; game++ {
		ph.Start(6)
		tr.Start(6)
		dr.Start(6)
		_, err := g.Play(players, 11, game)
		require.NoError(t, err)
		cards := g.Position().Missions
		if game < train {
			tr.Commit(md, cards)
			continue
		}
		for p := range 6 {
			if ph.Predict(p, 0) == cards[p] {
				correct++
			}
			if dr.Predict(p, 0) == cards[p] {
				dataCorrect++
			}
		}
	}
	t.Logf("PHATT %d/60, data %d/60", correct, dataCorrect)
	// 1/6 of 60 is 10; P(>= 24 | 1/6) < 1e-5.
	assert.GreaterOrEqual(t, correct, 24)
	assert.GreaterOrEqual(t, dataCorrect, 24)
}
