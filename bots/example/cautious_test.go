package example_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// forkState returns the State that seat 0 of the position in
// testdata/fork-pos.toml (on the map testdata/fork.toml, classic rules) is
// shown in phase ph, and the cautious player of seat spec.
func forkState(t *testing.T, spec string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	m, r, pos := simtest.LoadPosition(t, "testdata/fork.toml", "classic", "testdata/fork-pos.toml")
	pos.Phase = ph
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	return bottest.StartAt(t, seat, m, r, pos, nil)
}

// Territory ids of testdata/fork.toml.
const (
	a = iota
	b
	c
	d
	e
	f
)

func TestCautiousPlace(t *testing.T) {
	t.Parallel()
	p, s := forkState(t, "cautious", sim.PhasePlace)
	// c faces 4 armies (on e), d only 1 (on f).
	pl := p.Place(s, 5, nil)
	assert.Equal(t, []sim.Placement{{Territory: c, Armies: 5}}, pl)
	require.NoError(t, s.CheckPlacement(0, 5, pl))
	assert.Equal(t, c, p.PlaceInitial(s))
}

func TestCautiousTrade(t *testing.T) {
	t.Parallel()
	p, s := forkState(t, "cautious", sim.PhaseTrade)
	// Seat 0 holds the cards of a, b and c: one of each symbol.
	set, ok := p.Trade(s, false)
	require.True(t, ok)
	assert.Equal(t, [3]int{0, 1, 2}, set)
	require.NoError(t, s.CheckTrade(0, set))
}

func TestCautiousAttack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec string
		want sim.AttackOrder
		ok   bool
	}{
		// d has 2 armies that may attack f's 1: ratio 2; c's 2 against
		// e's 4 is 0.5.
		{"cautious", sim.AttackOrder{From: d, To: f}, true},
		{"cautious(ratio=2)", sim.AttackOrder{From: d, To: f}, true},
		{"cautious(ratio=2.5)", sim.AttackOrder{}, false},
		{"cautious(ratio=1)", sim.AttackOrder{From: d, To: f}, true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			p, s := forkState(t, tt.spec, sim.PhaseAttack)
			o, ok := simtest.Attack(t, p, s, 0)
			require.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, o)
		})
	}
}

func TestCautiousFortify(t *testing.T) {
	t.Parallel()
	p, s := forkState(t, "cautious", sim.PhaseFortify)
	// a (5 armies, two steps from the borders c and d) sends 4 to b.
	mv := p.Fortify(s, nil)
	assert.Equal(t, []sim.Move{{From: a, To: b, Armies: 4}}, mv)
	require.NoError(t, s.CheckMoves(0, mv))
}

// TestCautiousAllocs: once its buffers have grown, no decision allocates.
func TestCautiousAllocs(t *testing.T) {
	p, s := forkState(t, "cautious", sim.PhaseFortify)
	assert.Zero(t, simtest.TurnAllocs(p, s, false, 100))
}

// TestCautiousGames plays cautious against the baseline bots under every
// embedded rule set (each fortify mode among them), checks every event with
// the ledger of github.com/marslab-risk/marslab/sim/simtest, and requires that cautious makes
// no fault and attacks, conquers and fortifies.
func TestCautiousGames(t *testing.T) {
	t.Parallel()
	games := 30
	if testing.Short() || race.Enabled {
		games = 5
	}
	reg := registry.Default()
	seats, err := reg.ParseSeats("cautious,aggressive,random,cautious(ratio=1.5)", nil)
	require.NoError(t, err)
	for _, rn := range []string{"classic", "mars2006", "fixedcards", "missions"} {
		t.Run(rn, func(t *testing.T) {
			counts, faults := bottest.Play(t, seats, rn, 7, games)
			assert.Equal(t, []int{0, 0, 0, 0}, faults)
			for _, k := range []sim.EventKind{sim.EvAttackOrder, sim.EvOccupation, sim.EvMove} {
				assert.NotZero(t, counts[0][k]+counts[3][k], fmt.Sprint(k))
			}
		})
	}
}

func BenchmarkCautiousGame(b *testing.B) {
	tab, err := registry.Default().NewTable("cautious,aggressive,random,cautious", "mars2006")
	require.NoError(b, err)
	bottest.BenchGames(b, tab.Play)
}
