package recog

import (
	"testing"

	"github.com/marslab-risk/marslab/bots/mission"
	"github.com/marslab-risk/marslab/sim"
)

// recorder keeps a copy of every event of a game.
type recorder struct{ events []sim.Event }

func (r *recorder) Observe(e *sim.Event) { r.events = append(r.events, *e) }

// recordedGame returns the events of one game of six mission(w=4) bots.
func recordedGame(b *testing.B) []sim.Event {
	g, _, _ := missionGame(b)
	var rec recorder
	g.Observe(&rec)
	players := make([]sim.Player, 6)
	for i := range players {
		players[i] = mission.NewMission(4)
	}
	if _, err := g.Play(players, 5, 0); err != nil {
		b.Fatal(err)
	}
	return rec.events
}

// benchRecognizer replays a recorded game to r: the cost of watching one
// game, in events per second, with no allocation once warm.
func benchRecognizer(b *testing.B, r Recognizer) {
	events := recordedGame(b)
	b.ReportAllocs()
	for b.Loop() {
		r.Start(6)
		for i := range events {
			r.Observe(&events[i])
		}
	}
	b.ReportMetric(float64(len(events))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkPHATT(b *testing.B) {
	_, m, rs := missionGame(b)
	r, err := NewPHATT(m, rs.Missions, DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	benchRecognizer(b, r)
}

func BenchmarkPHATTStateWeights(b *testing.B) {
	_, m, rs := missionGame(b)
	par := DefaultParams()
	par.StateWeights = true
	r, err := NewPHATT(m, rs.Missions, par)
	if err != nil {
		b.Fatal(err)
	}
	benchRecognizer(b, r)
}

func BenchmarkDataChoice(b *testing.B) {
	_, m, rs := missionGame(b)
	md, err := NewModel(m, rs.Missions, 1)
	if err != nil {
		b.Fatal(err)
	}
	d := NewData(md)
	d.Choice = true
	benchRecognizer(b, d)
}
