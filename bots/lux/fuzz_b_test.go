package lux_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// botsB are the seat specs of this group's bots.
var botsB = []string{"angry", "communist", "stinky", "pixie", "evilpixie"}

// gridBoard turns fuzz bytes into a board of testdata/grid.toml for
// gridState: byte i gives territory i's owner (bit 0, so both seats own
// something in most inputs) and armies (1 + the rest, at most 128).
func gridBoard(data []byte) string {
	var sb strings.Builder
	for i := range 9 {
		var v byte
		if i < len(data) {
			v = data[i]
		}
		fmt.Fprintf(&sb, "%d:%d ", v&1, 1+int(v>>1))
	}
	return sb.String()
}

// FuzzDecisionsB asks every bot of this group for its decisions in every
// phase at arbitrary positions of the grid map, under each fortify mode,
// and requires the engine's checks to accept each answer.
func FuzzDecisionsB(f *testing.F) {
	f.Add([]byte{0, 2, 5, 0, 8, 1, 3, 9, 1}, uint8(6))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 1}, uint8(3))
	f.Add([]byte{255, 254, 1, 0, 6, 77, 2, 4, 9}, uint8(40))
	f.Fuzz(func(t *testing.T, data []byte, armies uint8) {
		board := gridBoard(data)
		if !strings.Contains(board, "0:") || !strings.Contains(board, "1:") {
			return // a position needs both seats alive
		}
		n := 1 + int(armies)
		for _, rules := range []string{"classic", "mars2006", "fixedcards"} {
			for _, spec := range botsB {
				p, s := gridState(t, spec, rules, board, sim.PhasePlace)
				pl := p.Place(s, n, nil)
				require.NoError(t, s.CheckPlacement(0, n, pl), "%s %s place %s", spec, rules, board)
				tr := p.PlaceInitial(s)
				require.Equal(t, 0, s.Owner(tr), "%s %s initial %s", spec, rules, board)
				for range 3 {
					o, ok := p.Attack(s)
					if !ok {
						break
					}
					require.NoError(t, s.CheckAttack(0, o), "%s %s attack %s", spec, rules, board)
					lo, hi := s.OccupyRange(o.From, min(3, s.Armies(o.From)-1))
					require.NoError(t, sim.CheckOccupy(lo, hi, p.Occupy(s, o.From, o.To, lo, hi)), "%s %s occupy %s", spec, rules, board)
				}
				mv := p.Fortify(s, nil)
				require.NoError(t, s.CheckMoves(0, mv), "%s %s fortify %s", spec, rules, board)
			}
		}
	})
}

// TestAllocsB: once its buffers have grown, no decision of a bot of this
// group allocates.
func TestAllocsB(t *testing.T) {
	for _, spec := range botsB {
		t.Run(spec, func(t *testing.T) {
			p, s := gridState(t, spec, "mars2006", "0:3 0:9 1:2 0:6 1:4 1:4 1:1 1:5 1:5", sim.PhaseAttack)
			pl := make([]sim.Placement, 0, 9)
			mv := make([]sim.Move, 0, 9)
			step := func() {
				p.PlaceInitial(s)
				p.Trade(s, false)
				pl = p.Place(s, 7, pl[:0])
				p.Attack(s)
				p.Occupy(s, gb, gc, 3, 8)
				mv = p.Fortify(s, mv[:0])
			}
			step()
			assert.Zero(t, testing.AllocsPerRun(100, step))
		})
	}
}
