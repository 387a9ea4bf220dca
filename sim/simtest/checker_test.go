package simtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// attacker attacks from its strongest territory while it can and trades
// whenever it can.
type attacker struct{ sim.BasePlayer }

func (a *attacker) Trade(s *sim.State, forced bool) ([3]int, bool) { return sim.BestSet(s, a.Seat) }

func (a *attacker) Attack(s *sim.State) (sim.AttackOrder, bool) {
	for t := 0; t < s.NumTerritories(); t++ {
		if s.Owner(t) != a.Seat || s.Armies(t) < 3 {
			continue
		}
		for _, u := range s.Map().Neighbors(t) {
			if s.Owner(u) != a.Seat {
				return sim.AttackOrder{From: t, To: u, Repeat: true}, true
			}
		}
	}
	return sim.AttackOrder{}, false
}

// doctor passes the events to the checker, the first one of a kind changed.
type doctor struct {
	c      *Checker
	kind   sim.EventKind
	change func(e *sim.Event)
	done   bool
}

func (d *doctor) Observe(e *sim.Event) {
	if !d.done && e.Kind == d.kind {
		d.done = true
		x := *e
		d.change(&x)
		d.c.Observe(&x)
		return
	}
	d.c.Observe(e)
}

// TestCheckerCatchesFalseEvents: the checker accepts real games, and
// rejects a game whose events disagree with the rules or the board.
func TestCheckerCatchesFalseEvents(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	r, err := sim.LoadRules("classic")
	require.NoError(t, err)
	cases := []struct {
		name   string
		kind   sim.EventKind
		change func(e *sim.Event)
		want   string // part of the violation; "" for none
	}{
		{"honest", sim.EvTurn, func(e *sim.Event) {}, ""},
		{"starting armies", sim.EvStart, func(e *sim.Event) { e.Armies++ }, "the rules give 30"},
		{"income", sim.EvReinforce, func(e *sim.Event) { e.Armies++ }, "reinforcement of"},
		{"set value", sim.EvTrade, func(e *sim.Event) { e.Armies *= 2 }, "the rules give"},
		{"bonus elsewhere", sim.EvTrade, func(e *sim.Event) { e.To = 99 }, "territory bonus on"},
		{"placement", sim.EvPlace, func(e *sim.Event) { e.Armies++ }, "the rules give"},
		{"losses", sim.EvRoll, func(e *sim.Event) {
			e.AttackerDice, e.DefenderDice = [3]uint8{1, 1, 1}, [2]uint8{6, 6}
			e.AttackerDice[0] = 6 // dice that do not give the recorded losses
		}, "lose"},
		{"card", sim.EvCard, func(e *sim.Event) { e.Cards[0].Symbol = sim.Wild }, "holds"},
		{"attack order owner", sim.EvAttackOrder, func(e *sim.Event) { e.Other = e.Player }, "attack order"},
		{"attack order dice", sim.EvAttackOrder, func(e *sim.Event) { e.Dice = 4 }, "attack order with 4 dice"},
		{"attack order stop", sim.EvAttackOrder, func(e *sim.Event) { e.StopAt = -1 }, "(stop at -1)"},
		{"attack order adjacency", sim.EvAttackOrder, func(e *sim.Event) { e.To = e.From }, "attack order"},
		{"end of phase", sim.EvEndPhase, func(e *sim.Event) { e.Phase = sim.PhasePlace }, "end of phase place"},
		{"end of phase seat", sim.EvEndPhase, func(e *sim.Event) { e.Player = (e.Player + 1) % 4 }, "ends a phase in seat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := sim.NewGame(m, r, 4)
			require.NoError(t, err)
			chk := NewChecker(g, m, r)
			g.Observe(&doctor{c: chk, kind: c.kind, change: c.change})
			res, err := g.Play([]sim.Player{&attacker{}, &attacker{}, &attacker{}, &attacker{}}, 1, 0)
			require.NoError(t, err)
			err = chk.CheckResult(res)
			if c.want == "" {
				require.NoError(t, err)
			} else {
				require.ErrorContains(t, err, c.want)
			}
			if c.name == "honest" {
				for _, k := range []sim.EventKind{sim.EvTrade, sim.EvCard, sim.EvAttackOrder, sim.EvEndPhase} {
					assert.Positive(t, chk.Counts[k], "a game without %v events", k)
				}
			}
		})
	}
}

// explainer passes an explanation event to the checker before every
// placement, as a log with MARS's narration holds them.
type explainer struct{ c *Checker }

func (x explainer) Observe(e *sim.Event) {
	if e.Kind == sim.EvPlace {
		x.c.Observe(&sim.Event{Kind: sim.EvExplain, Round: e.Round, Phase: e.Phase, Player: e.Player,
			Other: -1, From: -1, To: -1, Text: "placing"})
	}
	x.c.Observe(e)
}

// TestCheckerSkipsExplanations: explanation events are counted and change
// nothing in the ledger.
func TestCheckerSkipsExplanations(t *testing.T) {
	t.Parallel()
	g, m, r := NewGame(t, "classic", 3)
	chk := NewChecker(g, m, r)
	g.Observe(explainer{chk})
	res, err := g.Play([]sim.Player{&attacker{}, &attacker{}, &attacker{}}, 2, 0)
	require.NoError(t, err)
	require.NoError(t, chk.CheckResult(res))
	assert.Equal(t, chk.Counts[sim.EvPlace], chk.Counts[sim.EvExplain])
	assert.Positive(t, chk.Counts[sim.EvExplain])
}

// TestPlay: Play counts every seat's events and sums the faults over the
// games; the attackers attack and never fault.
func TestPlay(t *testing.T) {
	players := []sim.Player{&attacker{}, &attacker{}, &attacker{}}
	counts, faults := Play(t, players, "mars2006", 3, 4)
	assert.Equal(t, []int{0, 0, 0}, faults)
	require.Len(t, counts, 3)
	for p := range players {
		assert.Positive(t, counts[p][sim.EvAttackOrder], "seat %d", p)
		assert.Positive(t, counts[p][sim.EvOccupation], "seat %d", p)
	}
}

// TestTurnAllocs: a player that allocates in a decision is counted; the
// base player, which does not, is not.
func TestTurnAllocs(t *testing.T) {
	m, r, pos := LoadPosition(t, "../../bots/example/testdata/fork.toml", "classic", "../../bots/example/testdata/fork-pos.toml")
	s, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	assert.Zero(t, TurnAllocs(&sim.BasePlayer{}, s, false, 20))
	assert.GreaterOrEqual(t, TurnAllocs(&allocator{}, s, false, 20), 1.0)
}

// allocator allocates in every Attack.
type allocator struct {
	sim.BasePlayer
	keep [][]int
}

func (a *allocator) Attack(s *sim.State) (sim.AttackOrder, bool) {
	a.keep = append(a.keep[:0], make([]int, 64))
	return sim.AttackOrder{}, false
}
