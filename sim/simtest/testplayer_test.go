package simtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/sim"
)

// cheat attacks from a territory it does not own: an illegal answer the
// engine counts as a fault.
type cheat struct{ sim.BasePlayer }

func (c *cheat) Attack(s *sim.State) (sim.AttackOrder, bool) {
	for t := range s.NumTerritories() {
		if s.Owner(t) != c.Seat {
			for _, u := range s.Map().Neighbors(t) {
				if s.Owner(u) == c.Seat {
					return sim.AttackOrder{From: t, To: u}, true
				}
			}
		}
	}
	return sim.AttackOrder{}, false
}

// panicker panics in its first placement of every game.
type panicker struct{ sim.BasePlayer }

func (p *panicker) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	panic("out of ideas")
}

func newAttacker(int) sim.Player { return &attacker{} }

// TestCheckPlayerRuns: the default options play every embedded rule set
// with every seat count it can seat.
func TestCheckPlayerRuns(t *testing.T) {
	t.Parallel()
	runs, err := Options{}.runs()
	require.NoError(t, err)
	names := map[string]int{}
	for _, r := range runs {
		names[r.rules]++
		assert.True(t, r.seats >= 2 && r.seats <= 6, r)
	}
	for _, n := range configs.RulesNames() {
		assert.Positive(t, names[n], "rule set %s not played", n)
	}
	assert.Equal(t, "classic/4 seats", run{"classic", 4}.String())
}

func TestCheckPlayer(t *testing.T) {
	t.Parallel()
	quick := Options{Rules: []string{"classic", "missions"}, Seats: []int{2, 4}, Games: 2}
	tests := []struct {
		name string
		bot  func(int) sim.Player
		opt  Options
		want string // part of the error; "" for none
	}{
		{"clean self-play", newAttacker, Options{Games: 1}, ""},
		{"clean against others", newAttacker, Options{Games: 3, Opponent: func(int) sim.Player { return &sim.BasePlayer{} }}, ""},
		{"fault", func(int) sim.Player { return &cheat{} }, quick, "classic/2 seats: game 0: the bot in seat"},
		{"panic", func(int) sim.Player { return &panicker{} }, quick, "faults (illegal answers or panics the engine replaced)"},
		{"fault of the bot's seat only", func(int) sim.Player { return &cheat{} },
			Options{Rules: []string{"classic"}, Seats: []int{3}, Games: 3, Opponent: newAttacker}, "game 0: the bot in seat 0 made"},
		{"an opponent's fault is not the bot's", newAttacker,
			Options{Rules: []string{"classic"}, Seats: []int{3}, Games: 3, Opponent: func(int) sim.Player { return &cheat{} }}, ""},
		{"nil player", func(int) sim.Player { return nil }, quick, "newPlayer(0) returned nil"},
		{"nil opponent", newAttacker, Options{Rules: []string{"classic"}, Seats: []int{2}, Opponent: func(int) sim.Player { return nil }}, "Opponent(0) returned nil"},
		{"seat count", newAttacker, Options{Rules: []string{"classic"}, Seats: []int{7}}, "rules classic, 7 seats: sim: 7 players: must be 2..6"},
		{"unknown rules", newAttacker, Options{Rules: []string{"atlantis"}}, "atlantis"},
		{"nothing to play", newAttacker, Options{Rules: []string{}}, "no rule set and seat count to play"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPlayer(tt.bot, tt.opt)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestTestPlayer: TestPlayer runs one subtest per rule set and seat count.
func TestTestPlayer(t *testing.T) {
	t.Parallel()
	var seats []int
	TestPlayer(t, func(seat int) sim.Player { seats = append(seats, seat); return &attacker{} },
		Options{Rules: []string{"mars2006"}, Seats: []int{2, 3}, Games: 1})
	assert.Equal(t, []int{0, 1, 0, 1, 2}, seats, "one player per seat of each run")
}
