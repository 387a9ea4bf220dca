package lux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestShaftSweepSimulate: the topological test of Shaft.java
// sweepForwardBorder (startSweep and advanceSweep without attacks) on one
// border of seat 0, the armies playing no part.
func TestShaftSweepSimulate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, mapFile, spec, border string
		want                        bool
	}{
		{"one enemy facing two others", "grid.toml",
			"a:0:3 b:0:1 c:0:1 d:1:2 e:1:2 f:1:2 g:1:1 h:1:1 i:1:1", "a", true},
		{"four enemies each facing two", "grid.toml",
			"a:1:1 b:1:1 c:1:1 d:1:1 e:0:9 f:1:1 g:1:1 h:1:1 i:1:1", "e", false},
		{"a chain into a pocket closes", "grid.toml",
			"a:0:1 b:0:1 c:0:1 d:0:1 e:0:5 f:0:1 g:0:1 h:1:1 i:1:1", "e", false},
		// d has no unseen enemy and leaves the queue; f, shifted into d's
		// index, is skipped in that pass, which therefore moves nothing:
		// the queue stops at f alone (without the skip f would advance to
		// i, which closes, and the sweep would not fire).
		{"the entry after a removal is skipped", "grid.toml",
			"a:0:5 b:0:1 c:0:4 d:1:2 e:0:3 f:1:2 g:0:1 h:0:1 i:1:1", "e", true},
		{"a chain up to a fork", "sweep.toml",
			"h:0:1 b:0:5 x:1:1 y:1:1 w:1:1 v:1:1 z:1:1", "b", true},
		{"a chain up to a dead end", "sweep.toml",
			"h:0:1 b:0:5 x:1:1 y:1:1 w:0:1 v:0:1 z:0:1", "b", false},
		{"an interior territory", "sweep.toml",
			"h:0:1 b:0:5 x:1:1 y:1:1 w:1:1 v:1:1 z:1:1", "h", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, tt.mapFile, 2, "attack", tt.spec, "")
			w := shaftSweep{p: 0}
			assert.Equal(t, tt.want, w.simulate(b.state(), b.id(tt.border)))
		})
	}
}

// TestShaftSweepOrders: the real sweep of Shaft.java (sweepForwardBorder,
// startSweep, advanceSweep, takeOverEnveloped, takeCountry) over a
// snapshot of borders, one order at a time, each order's result applied
// to the board before the next is asked (outcomes: see board.outcome).
func TestShaftSweepOrders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, mapFile, spec, borders string
		outcomes                     []string
		want                         []string
	}{
		// b takes x, then x, the queued territory with one unseen enemy,
		// takes y; y faces w and v: the queue holds.
		{"a chain up to a fork", "sweep.toml",
			"h:0:1 b:0:5 x:1:1 y:1:1 w:1:1 v:1:1 z:1:1", "b",
			[]string{"win", "win"}, []string{"b>x", "x>y"}},
		// The queue moves on to y although x was not taken: no attack
		// comes from a territory that is not the bot's.
		{"the first attack repelled", "sweep.toml",
			"h:0:1 b:0:5 x:1:1 y:1:1 w:1:1 v:1:1 z:1:1", "b",
			[]string{"lose"}, []string{"b>x"}},
		{"no odds check", "sweep.toml",
			"h:0:1 b:0:2 x:1:9 y:1:1 w:1:1 v:1:1 z:1:1", "b",
			[]string{"lose"}, []string{"b>x"}},
		{"a border with one army", "sweep.toml",
			"h:0:1 b:0:1 x:1:1 y:1:1 w:1:1 v:1:1 z:1:1", "b",
			nil, nil},
		// e attacks d, its first enemy neighbour, and loses; d and f, seen
		// from e, are then attacked from the first neighbour holding more
		// armies than they do.
		{"enveloped territories taken 1:1", "grid.toml",
			"a:0:5 b:0:1 c:0:4 d:1:2 e:0:3 f:1:2 g:0:1 h:0:1 i:1:1", "e",
			[]string{"lose", "win", "win"}, []string{"e>d", "a>d", "c>f"}},
		{"an envelope needs more armies, not as many", "grid.toml",
			"a:0:5 b:0:1 c:0:2 d:1:2 e:0:3 f:1:2 g:0:1 h:0:1 i:1:1", "e",
			[]string{"lose", "win"}, []string{"e>d", "a>d"}},
		// Each border is tested on the board its predecessors left: after
		// a takes d and b takes e, c's enemy f leads along i, h and g into
		// a pocket, and c does not sweep.
		{"every border of the snapshot in turn", "grid.toml",
			"a:0:3 b:0:3 c:0:3 d:1:1 e:1:1 f:1:1 g:1:1 h:1:1 i:1:1", "a b c",
			[]string{"win", "win"}, []string{"a>d", "b>e"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(t, tt.mapFile, 2, "attack", tt.spec, "")
			var w shaftSweep
			w.begin(0, b.ids(tt.borders))
			var got []string
			for {
				s := b.state()
				from, to, ok := w.next(s)
				if !ok {
					break
				}
				require.NoError(t, s.CheckAttack(0, sim.AttackOrder{From: from, To: to, Repeat: true}))
				got = append(got, b.names(from)+">"+b.names(to))
				require.Less(t, len(got), len(tt.outcomes)+1, "orders %v", got)
				b.outcome(from, to, tt.outcomes[len(got)-1])
			}
			assert.Equal(t, tt.want, got)
			assert.False(t, w.active())
		})
	}
}

// TestShaftSweepAllocs: a sweep allocates nothing once its buffers are
// sized.
func TestShaftSweepAllocs(t *testing.T) {
	b := newBoard(t, "grid.toml", 2, "attack", "a:0:3 b:0:3 c:0:3 d:1:1 e:1:1 f:1:1 g:1:1 h:1:1 i:1:1", "")
	s := b.state()
	borders := b.ids("a b c")
	var w shaftSweep
	run := func() {
		w.begin(0, borders)
		for {
			if _, _, ok := w.next(s); !ok {
				break
			}
		}
	}
	run()
	assert.Zero(t, testing.AllocsPerRun(20, run))
}

// BenchmarkShaftSweep: the sweep of three borders on testdata/grid.toml,
// each border simulated and swept, the board left as it stands.
func BenchmarkShaftSweep(b *testing.B) {
	bd := newBoard(b, "grid.toml", 2, "attack", "a:0:3 b:0:3 c:0:3 d:1:1 e:1:1 f:1:1 g:1:1 h:1:1 i:1:1", "")
	s := bd.state()
	borders := bd.ids("a b c")
	var w shaftSweep
	b.ReportAllocs()
	for b.Loop() {
		w.begin(0, borders)
		for {
			if _, _, ok := w.next(s); !ok {
				break
			}
		}
	}
}
