package lux_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Seat 0 holds a, b, d and e; e has two enemy neighbours (f and h), b and
// d one each, a none.
const angryBoard = "0:1 0:3 1:2 0:2 0:5 1:4 1:1 1:3 1:1"

func TestAngryPlace(t *testing.T) {
	t.Parallel()
	p, s := gridState(t, "angry", "classic", angryBoard, sim.PhasePlace)
	pl := p.Place(s, 7, nil)
	assert.Equal(t, []sim.Placement{{Territory: ge, Armies: 7}}, pl)
	require.NoError(t, s.CheckPlacement(0, 7, pl))
	assert.Equal(t, ge, p.PlaceInitial(s))
}

func TestAngryAttack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, board string
		want        sim.AttackOrder
		ok          bool
	}{
		// b (3) beats its weakest enemy neighbour c (2): the first in id order.
		{"first weaker neighbour", angryBoard, sim.AttackOrder{From: gb, To: gc, Repeat: true}, true},
		// b (2) does not outnumber c (2); d (2) outnumbers g (1).
		{"ties are not attacked", "0:1 0:2 1:2 0:2 0:1 1:4 1:1 1:3 1:1", sim.AttackOrder{From: gd, To: gg, Repeat: true}, true},
		// Only the weakest neighbour is considered: e (3) faces f (3) and h (4).
		{"only the weakest neighbour", "0:1 0:1 1:2 0:1 0:3 1:3 1:1 1:4 1:1", sim.AttackOrder{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, "angry", "classic", tt.board, sim.PhaseAttack)
			o, ok := simtest.Attack(t, p, s, 0)
			require.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, o)
		})
	}
}

func TestAngryOccupy(t *testing.T) {
	t.Parallel()
	// Seat 0 holds b, c, e and i. Taking f leaves e two enemy neighbours (d,
	// h) and f none: e keeps its armies. Taking d leaves e two (f, h) and d
	// two (a, g): everything moves in.
	board := "1:1 0:3 0:3 1:1 0:9 1:1 1:1 1:1 0:3"
	p, s := gridState(t, "angry", "classic", board, sim.PhaseAttack)
	assert.Equal(t, 3, p.Occupy(s, ge, gf, 3, 8))
	assert.Equal(t, 8, p.Occupy(s, ge, gd, 3, 8))
}

func TestAngryFortify(t *testing.T) {
	t.Parallel()
	// a (interior) sends 4 to b, the first of its neighbours with an enemy
	// neighbour; d (one enemy neighbour) sends 2 to e (two); e stays.
	board := "0:5 0:1 1:2 0:3 0:2 1:4 1:1 1:3 1:1"
	checkFortify(t, []fortifyCase{
		{"mars2006", "angry", "mars2006", board, []sim.Move{{From: ga, To: gb, Armies: 4}, {From: gd, To: ge, Armies: 2}}},
		{"classic", "angry", "classic", board, []sim.Move{{From: ga, To: gb, Armies: 4}}},
	})
}

func TestAngryFortifyInterior(t *testing.T) {
	t.Parallel()
	// a's neighbours b and d have no enemy neighbour either: a moves to one
	// of them at random; both are drawn over many phases.
	board := "0:5 0:1 0:1 0:1 0:1 0:1 0:1 0:1 1:1"
	p, s := gridState(t, "angry", "mars2006", board, sim.PhaseFortify)
	seen := map[int]bool{}
	for range 50 {
		mv := p.Fortify(s, nil)
		require.NoError(t, s.CheckMoves(0, mv))
		require.NotEmpty(t, mv)
		assert.Equal(t, ga, mv[0].From)
		assert.Equal(t, 4, mv[0].Armies)
		seen[mv[0].To] = true
	}
	assert.Equal(t, map[int]bool{gb: true, gd: true}, seen)
}

// TestAngryFinishesLast: in the MARS paper's tournament Angry finishes
// last most often; among this group's bots, seated at random, so does ours
// (300 games; 100 under -short or the race detector, which has nothing to
// detect in games played on the test's goroutine).
func TestAngryFinishesLast(t *testing.T) {
	t.Parallel()
	games := 300
	if testing.Short() || race.Enabled {
		games = 100
	}
	seats, err := registry.Default().ParseSeats(strings.Join(botsB, ","), nil)
	require.NoError(t, err)
	g, _, _ := simtest.NewGame(t, "mars2006", len(seats))
	rng := rand.New(rand.NewPCG(5, 5))
	last := make(map[string]int)
	players := make([]sim.Player, len(seats))
	for i := range games {
		perm := rng.Perm(len(seats))
		for k, j := range perm {
			players[k], err = seats[j].New()
			require.NoError(t, err)
		}
		res, err := g.Play(players, 5, uint64(i))
		require.NoError(t, err)
		for k, j := range perm {
			if res.Placement[k] == len(seats) {
				last[seats[j].Label]++
			}
		}
	}
	for _, name := range botsB[1:] {
		assert.Greater(t, last["angry"], last[name], "last places: %v", last)
	}
}
