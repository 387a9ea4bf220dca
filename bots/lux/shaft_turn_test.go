package lux

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// playTurn plays seat 0's attack phase (and fortification) of p from the
// position spec on testdata/mapFile (see newBoard) with the real engine
// and the dice of seed (simtest.PlayTurn: each move-in is asked while the
// conquered territory still shows its defender with 0 armies), requires
// no fault, and returns the orders as "from>to outcome", the outcome
// "lost" or the armies moved in with "all" or "min" when they were the
// move-in's maximum or minimum.
func playTurn(t *testing.T, p sim.Player, mapFile, spec string, seed uint64) []string {
	t.Helper()
	b := newBoard(t, mapFile, 2, "attack", spec, "")
	turn := simtest.PlayTurn(t, p, b.m, b.r, b.pos, seed)
	require.Empty(t, turn.Faults)
	return orderNames(b, turn)
}

// orderNames returns the orders of turn as "from>to outcome", the
// outcome "lost" or the armies moved in, with "all" or "min" when they
// were the move-in's maximum or minimum.
func orderNames(b *board, turn simtest.Turn) []string {
	var out []string
	for _, o := range turn.Orders {
		r := "lost"
		switch {
		case !o.Conquered:
		case o.All() && o.Min():
			r = fmt.Sprintf("%d all min", o.Moved)
		case o.All():
			r = fmt.Sprintf("%d all", o.Moved)
		case o.Min():
			r = fmt.Sprintf("%d min", o.Moved)
		default:
			r = fmt.Sprint(o.Moved)
		}
		out = append(out, b.names(o.From)+">"+b.names(o.To)+" "+r)
	}
	return out
}

// itoa formats n.
func itoa(n int) string { return fmt.Sprint(n) }

// TestShaftTurn plays Shaft's and Quo's attack phases with the real engine
// (Shaft.java attackFromCluster and sweepForwardBorder, Quo.java
// attackPhase and setmoveInMemoryBeforeCardAttack).
func TestShaftTurn(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, bot, mapFile, spec string
		seed                     uint64
		want                     []string
	}{
		// The root is a (9, the biggest army; no continent owned). One
		// easy-expand pass: a takes b, its one enemy, moving everything
		// (memory 1000000); Cluster passes again and again: b (7) takes c
		// (5), and on. The conquest rules the sweep out.
		{"one easy-expand pass", "shaft", "grid.toml", "a:0:9 b:1:1 c:1:5 d:0:1 e:0:1 f:1:5 g:0:1 h:0:1 i:1:5", 1,
			[]string{"a>b 7 all"}},
		{"Cluster expands again", "cluster", "grid.toml", "a:0:9 b:1:1 c:1:5 d:0:1 e:0:1 f:1:5 g:0:1 h:0:1 i:1:5", 1,
			[]string{"a>b 7 all", "b>c 6 all", "c>f 4 all", "f>i 2 all min"}},
		// Home is Shaft's: the root is h, the border b. b (8) does not
		// outnumber x (8): no easy expand, fill out or consolidate. x faces
		// y alone, y faces w and v: the sweep fires, b attacks x with no
		// odds check and, having taken it, x attacks y, the queue's next
		// territory, with no odds check either.
		{"a reckless sweep along a chain", "shaft", "sweep.toml", "h:0:1 b:0:8 x:1:8 y:1:1 w:1:1 v:1:1 z:1:12", 9,
			[]string{"b>x 3 all min", "x>y 2 all min"}},
		{"the sweep's first attack repelled", "shaft", "sweep.toml", "h:0:1 b:0:8 x:1:8 y:1:1 w:1:1 v:1:1 z:1:12", 2,
			[]string{"b>x lost"}},
		// e faces four enemies, each facing two unseen ones: no block and
		// no sweep. Quo then attacks for a card at the best ratio, e (9) on
		// b (4), the first of the ties, and moves in 9 / 2 = 4, half of
		// e's armies before the battle (after it, e held 6: half is 3).
		{"Quo's card attack", "quo", "grid.toml", "a:1:1 b:1:4 c:1:1 d:1:4 e:0:9 f:1:4 g:1:1 h:1:8 i:1:1", 1,
			[]string{"e>b 4"}},
		{"Shaft does not attack for a card", "shaft", "grid.toml", "a:1:1 b:1:4 c:1:1 d:1:4 e:0:9 f:1:4 g:1:1 h:1:8 i:1:1", 1,
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p sim.Player
			switch tt.bot {
			case "shaft":
				p = newShaft(false)
			case "quo":
				p = newShaft(true)
			default:
				p = newLuxCluster()
			}
			assert.Equal(t, tt.want, playTurn(t, p, tt.mapFile, tt.spec, tt.seed))
		})
	}
}

// TestQuoCashesOneSet: Quo cashes one set a turn voluntarily (Quo.java
// cardsPhase: cashCardsIfPossible once); Shaft only when forced.
func TestQuoCashesOneSet(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		quo  bool
		want int
	}{{true, 1}, {false, 0}} {
		b := newBoard(t, "grid.toml", 2, "trade", "a:0:1 b:0:1 c:0:1 d:0:1 e:0:1 f:0:1 g:1:1 h:1:1 i:1:1",
			`hands = [["a", "b", "c", "d", "e", "f"], []]`)
		p := newShaft(tt.quo)
		s := b.state()
		p.Start(s, 0, nil)
		n := 0
		for range 3 {
			if _, ok := p.Trade(s, false); ok {
				n++
			}
		}
		assert.Equal(t, tt.want, n, "quo %v", tt.quo)
	}
}
