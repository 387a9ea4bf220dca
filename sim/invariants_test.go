package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// The invariant sweeps play seeded games and check every event with the
// ledger of github.com/marslab-risk/marslab/sim/simtest, which recomputes from the rules (not
// from the engine) the starting armies, every reinforcement, every set's
// value and every territory bonus.

var fortifyModes = []sim.FortifyMode{sim.FortifySingle, sim.FortifyOneStep, sim.FortifyConnected}

// sweepGames returns the number of games a sweep plays per configuration:
// normal, or fewer under -short and the race detector (which slows the
// engine about tenfold and has nothing to detect in a sweep's games, each
// played on the test's goroutine).
func sweepGames(normal, reduced int) int {
	if testing.Short() || race.Enabled {
		return reduced
	}
	return normal
}

// playChecked plays games games of g with players (seed seed, indices
// 0..games-1) under a checker and fails at the first violation.
func playChecked(t *testing.T, g *sim.Game, m *sim.Map, r *sim.Rules, players []sim.Player, seed uint64, games int) (*simtest.Checker, []sim.Result) {
	t.Helper()
	c := simtest.NewChecker(g, m, r)
	g.Observe(c)
	results := make([]sim.Result, 0, games)
	for i := 0; i < games; i++ {
		res, err := g.Play(players, seed, uint64(i))
		require.NoError(t, err)
		require.NoError(t, c.CheckResult(res), "game %d", i)
		results = append(results, res)
	}
	return c, results
}

// TestInvariantsChaos plays random (and partly misbehaving) players on ring
// maps under every fortification rule, 2 to 6 players: 60 games per
// configuration (6 under -short or -race).
func TestInvariantsChaos(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(3, 5)
	games := sweepGames(60, 6)
	for _, mode := range fortifyModes {
		for n := 2; n <= 6; n++ {
			for _, bad := range []float64{0, 0.05} {
				t.Run(fmt.Sprintf("%s/%dp/bad%.2f", mode, n, bad), func(t *testing.T) {
					r := sim.RulesForTest(mode)
					g, err := sim.NewGame(m, r, n)
					require.NoError(t, err)
					c, results := playChecked(t, g, m, r, sim.NewChaos(n, bad), 99, games)
					if bad == 0 {
						for i, res := range results {
							require.Equal(t, make([]int, n), res.Faults, "game %d: legal players have faults", i)
						}
					}
					k := c.Counts
					for _, kind := range []sim.EventKind{sim.EvRoll, sim.EvOccupation, sim.EvMove, sim.EvTrade, sim.EvAttackOrder, sim.EvEndPhase} {
						assert.Positive(t, k[kind], "too few %v events to be a real test: %v", kind, k)
					}
					if bad > 0 {
						assert.Positive(t, k[sim.EvFault], "misbehaving players produced no fault events")
					}
				})
			}
		}
	}
}

// TestInvariantsEmbeddedRules plays random (and partly misbehaving) players
// under every embedded rule set on the classic map, 2 to 6 players, with
// the ledger checked after every event: 200 games per player count, 1000
// per rule set (8 and 40 under -short or -race).
func TestInvariantsEmbeddedRules(t *testing.T) {
	t.Parallel()
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	games := sweepGames(200, 5)
	for _, name := range []string{"classic", "mars2006", "fixedcards", "missions", "lux", "lux-escalating"} {
		r, err := sim.LoadRules(name)
		require.NoError(t, err)
		var total [sim.NumEventKinds]int
		for n := 2; n <= 6; n++ {
			t.Run(fmt.Sprintf("%s/%dp", name, n), func(t *testing.T) {
				g, err := sim.NewGame(m, r, n)
				require.NoError(t, err)
				c, _ := playChecked(t, g, m, r, sim.NewChaos(n, 0.01), 2006, games)
				for k, v := range c.Counts {
					total[k] += v
				}
			})
		}
		for _, kind := range []sim.EventKind{sim.EvRoll, sim.EvOccupation, sim.EvElimination, sim.EvTrade, sim.EvAttackOrder, sim.EvEndPhase} {
			assert.Positive(t, total[kind], "%s: no %v events: %v", name, kind, total)
		}
	}
}

// TestInvariantsMissionsRing plays mission games on a ring map (missions of
// every kind), checking every event.
func TestInvariantsMissionsRing(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(3, 4)
	r := sim.RulesForTest(sim.FortifyOneStep)
	r.End.Win = "missions"
	r.Missions = []sim.Mission{
		{Name: "C0 and C1", Kind: sim.MissionContinents, Continents: []string{"C0", "C1"}},
		{Name: "C2 and one more", Kind: sim.MissionContinents, Continents: []string{"C2"}, Extra: 1},
		{Name: "8 territories", Kind: sim.MissionTerritories, Count: 8, MinArmies: 1},
		{Name: "6 territories with 2", Kind: sim.MissionTerritories, Count: 6, MinArmies: 2},
		{Name: "eliminate", Kind: sim.MissionEliminate},
	}
	for n := 2; n <= 5; n++ {
		g, err := sim.NewGame(m, r, n)
		require.NoError(t, err)
		playChecked(t, g, m, r, sim.NewChaos(n, 0.02), 11, sweepGames(60, 15))
	}
}

// illegal is a player whose every answer is illegal or panics.
type illegal struct{ sim.BasePlayer }

func (p *illegal) PlaceInitial(s *sim.State) int { return -5 }
func (p *illegal) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return [3]int{0, 0, 0}, true
}
func (p *illegal) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return append(buf, sim.Placement{Territory: 0, Armies: armies + 1})
}
func (p *illegal) Attack(s *sim.State) (sim.AttackOrder, bool) { panic("boom") }
func (p *illegal) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	return append(buf, sim.Move{From: 0, To: 0, Armies: 1})
}

func TestIllegalPlayerCannotCorruptGame(t *testing.T) {
	t.Parallel()
	m := sim.RingMap(3, 4)
	r := sim.RulesForTest(sim.FortifyOneStep)
	g, err := sim.NewGame(m, r, 3)
	require.NoError(t, err)
	c := simtest.NewChecker(g, m, r)
	g.Observe(c)
	for i := 0; i < 20; i++ {
		chaos := sim.NewChaos(2, 0)
		res, err := g.Play([]sim.Player{&illegal{}, chaos[0], chaos[1]}, 5, uint64(i))
		require.NoError(t, err)
		require.NoError(t, c.CheckResult(res), "game %d", i)
		require.Positive(t, res.Faults[0], "game %d: illegal player has no faults", i)
		require.Equal(t, []int{0, 0}, res.Faults[1:], "game %d: legal players have faults", i)
	}
}
