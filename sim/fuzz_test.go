package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// bytePlayer answers every question from a byte stream, so that the fuzzer
// explores arbitrary (mostly illegal) actions.
type bytePlayer struct {
	sim.BasePlayer
	data []byte
	pos  int
}

func (p *bytePlayer) next() int {
	if len(p.data) == 0 {
		return 0
	}
	b := p.data[p.pos%len(p.data)]
	p.pos++
	return int(int8(b))
}

func (p *bytePlayer) PlaceInitial(s *sim.State) int { return p.next() }
func (p *bytePlayer) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return [3]int{p.next(), p.next(), p.next()}, p.next()%2 == 0
}
func (p *bytePlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	for k := p.next() & 3; k >= 0; k-- {
		buf = append(buf, sim.Placement{Territory: p.next(), Armies: p.next()})
	}
	if p.next()%3 == 0 {
		buf = append(buf[:0], sim.Placement{Territory: s.FirstOwned(p.Seat), Armies: armies})
	}
	return buf
}
func (p *bytePlayer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if p.next()%5 == 0 {
		return sim.AttackOrder{}, false
	}
	return sim.AttackOrder{From: p.next(), To: p.next(), Dice: p.next(), Repeat: p.next()%2 == 0, StopAt: p.next()}, true
}
func (p *bytePlayer) Occupy(s *sim.State, from, to, lo, hi int) int { return lo + p.next() }
func (p *bytePlayer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	for k := p.next() & 3; k > 0; k-- {
		buf = append(buf, sim.Move{From: p.next(), To: p.next(), Armies: p.next()})
	}
	return buf
}

// FuzzActions plays games in which one seat's every answer comes from the
// fuzzer; the invariants are checked after every event.
func FuzzActions(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte{255, 7, 1, 0, 9, 2, 2, 1, 3}, uint8(1))
	f.Add([]byte("attack from everywhere"), uint8(2))
	m := sim.RingMap(3, 4)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		r := sim.RulesForTest(fortifyModes[int(mode)%len(fortifyModes)])
		r.End.RoundLimit = 30
		g, err := sim.NewGame(m, r, 3)
		require.NoError(t, err)
		c := simtest.NewChecker(g, m, r)
		g.Observe(c)
		chaos := sim.NewChaos(2, 0)
		res, err := g.Play([]sim.Player{&bytePlayer{data: data}, chaos[0], chaos[1]}, 3, uint64(len(data)))
		require.NoError(t, err)
		require.NoError(t, c.CheckResult(res))
		require.Equal(t, []int{0, 0}, res.Faults[1:], "legal players faulted")
	})
}
