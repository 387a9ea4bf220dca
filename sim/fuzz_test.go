package sim

import "testing"

// bytePlayer answers every question from a byte stream, so that the fuzzer
// explores arbitrary (mostly illegal) actions.
type bytePlayer struct {
	BasePlayer
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

func (p *bytePlayer) PlaceInitial(s *State) int { return p.next() }
func (p *bytePlayer) Trade(s *State, forced bool) ([3]int, bool) {
	return [3]int{p.next(), p.next(), p.next()}, p.next()%2 == 0
}
func (p *bytePlayer) Place(s *State, armies int, buf []Placement) []Placement {
	for k := p.next() & 3; k >= 0; k-- {
		buf = append(buf, Placement{Territory: p.next(), Armies: p.next()})
	}
	if p.next()%3 == 0 {
		buf = append(buf[:0], Placement{Territory: s.FirstOwned(p.Seat), Armies: armies})
	}
	return buf
}
func (p *bytePlayer) Attack(s *State) (AttackOrder, bool) {
	if p.next()%5 == 0 {
		return AttackOrder{}, false
	}
	return AttackOrder{From: p.next(), To: p.next(), Dice: p.next(), Repeat: p.next()%2 == 0, StopAt: p.next()}, true
}
func (p *bytePlayer) Occupy(s *State, from, to, lo, hi int) int { return lo + p.next() }
func (p *bytePlayer) Fortify(s *State, buf []Move) []Move {
	for k := p.next() & 3; k > 0; k-- {
		buf = append(buf, Move{From: p.next(), To: p.next(), Armies: p.next()})
	}
	return buf
}

// FuzzActions plays games in which one seat's every answer comes from the
// fuzzer; the invariants are checked after every event.
func FuzzActions(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte{255, 7, 1, 0, 9, 2, 2, 1, 3}, uint8(1))
	f.Add([]byte("attack from everywhere"), uint8(2))
	m := ringMap(3, 4)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		r := testRules(fortifyModes[int(mode)%len(fortifyModes)])
		r.End.RoundLimit = 30
		g, err := NewGame(m, r, 3)
		if err != nil {
			t.Fatal(err)
		}
		c := &checker{t: t, g: g}
		g.Observe(c)
		players := []Player{&bytePlayer{data: data}, &chaos{}, &chaos{}}
		res, err := g.Play(players, 3, uint64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, g, res)
		if res.Faults[1] != 0 || res.Faults[2] != 0 {
			t.Fatalf("legal players faulted: %v", res.Faults)
		}
	})
}
