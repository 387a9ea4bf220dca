package lux_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// sourceSteps is a sequence of attack decisions of one bot in one turn,
// from a position file of testdata on testdata/grid.toml: each step is
// the order the bot must give (ok false: it ends the phase) and the
// outcome applied before the next step, as edits "name=owner:armies".
type sourceStep struct {
	want    sim.AttackOrder
	ok      bool
	outcome string
}

// gridEdit returns pos with the edits "name=owner:armies ..." applied.
func gridEdit(t *testing.T, m *sim.Map, pos *sim.Position, edits string) *sim.Position {
	t.Helper()
	pos = pos.Clone()
	for _, e := range strings.Fields(edits) {
		name, val, ok := strings.Cut(e, "=")
		require.True(t, ok, e)
		id, ok := m.TerritoryID(name)
		require.True(t, ok, e)
		var o, a int
		_, err := fmt.Sscanf(val, "%d:%d", &o, &a)
		require.NoError(t, err, e)
		pos.Owner[id], pos.Armies[id] = o, a
	}
	return pos
}

// playSteps starts spec as seat 0 at the position file (on the grid map,
// under rules) and checks its attack orders step by step.
func playSteps(t *testing.T, spec, rules, file string, steps []sourceStep) {
	t.Helper()
	m, r, pos := simtest.LoadPosition(t, "testdata/grid.toml", rules, "testdata/"+file)
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	p, s := bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(1, 2)))
	for i, st := range steps {
		o, ok := simtest.Attack(t, p, s, 0)
		require.Equal(t, st.ok, ok, "step %d: %+v", i, o)
		assert.Equal(t, st.want, o, "step %d", i)
		if !ok {
			return
		}
		pos = gridEdit(t, m, pos, st.outcome)
		s, err = sim.NewStateAt(m, r, pos, 0)
		require.NoError(t, err)
	}
}

// TestAngrySourcePasses: Angry.attackPhase walks its territories with 2
// armies or more in whole passes, the iterator finding the next territory
// before the current one attacks. b takes a; f (found before a fell) goes
// next and takes i; a, conquered behind the pass, attacks only in the
// second pass; the third pass launches nothing and the phase ends.
// Restarting from the lowest id after each attack would send a against d
// before f moves.
func TestAngrySourcePasses(t *testing.T) {
	t.Parallel()
	playSteps(t, "angry", "mars2006", "angry-passes.toml", []sourceStep{
		{blitzOrder(gb, ga), true, "a=0:5 b=0:1"},
		{blitzOrder(gf, gi), true, "i=0:5 f=0:1"},
		{blitzOrder(ga, gd), true, "d=0:4 a=0:1"},
		// Pass 2 goes on to i (h 9 is too strong); pass 3 finds d (e 4 is
		// a tie) and i again: no attack, the phase ends.
		{sim.AttackOrder{}, false, ""},
	})
	// A repelled attack also calls for another pass: b loses against a,
	// f takes i, and pass 2 finds i's neighbour h too strong.
	playSteps(t, "angry", "mars2006", "angry-passes.toml", []sourceStep{
		{blitzOrder(gb, ga), true, "b=0:1 a=1:1"},
		{blitzOrder(gf, gi), true, "i=0:5 f=0:1"},
		{sim.AttackOrder{}, false, ""},
	})
}

func blitzOrder(from, to int) sim.AttackOrder {
	return sim.AttackOrder{From: from, To: to, Repeat: true}
}
