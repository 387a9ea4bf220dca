package human

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// position is a 3-seat position on the classic map under rules: seat t%3
// owns territory t with 1 + t%4 armies, seat 0 holds the cards of
// territories 0, 3, 1, 4 and 7 (infantry, infantry, cavalry, cavalry,
// cavalry), and it is seat 0's phase.
func position(t testing.TB, rules string, phase sim.Phase) *sim.State {
	t.Helper()
	return positionOf(t, rules, phase, func(t int) (int, int) { return t % 3, 1 + t%4 })
}

// positionOf is position with seat and armies of every territory t given
// by board(t).
func positionOf(t testing.TB, rules string, phase sim.Phase, board func(t int) (seat, armies int)) *sim.State {
	t.Helper()
	return positionHand(t, rules, phase, board, []int{0, 3, 1, 4, 7})
}

// positionHand is positionOf with seat 0 holding the cards of the
// territories inHand (the symbol of territory t's card is t%3).
func positionHand(t testing.TB, rules string, phase sim.Phase, board func(t int) (seat, armies int), inHand []int) *sim.State {
	t.Helper()
	r, err := sim.LoadRules(rules)
	require.NoError(t, err)
	m, err := r.LoadMap()
	require.NoError(t, err)
	nt := len(m.Territories)
	pos := &sim.Position{Players: 3, Owner: make([]int, nt), Armies: make([]int, nt), Hands: make([][]sim.Card, 3),
		Round: 1, Current: 0, Phase: phase}
	for t := range nt {
		pos.Owner[t], pos.Armies[t] = board(t)
	}
	for _, t := range inHand {
		pos.Hands[0] = append(pos.Hands[0], sim.Card{Territory: int16(t), Symbol: uint8(t % 3)})
	}
	for t := range nt {
		if !slices.Contains(inHand, t) {
			pos.Deck = append(pos.Deck, sim.Card{Territory: int16(t), Symbol: uint8(t % 3)})
		}
	}
	for range r.Cards.Wilds {
		pos.Deck = append(pos.Deck, sim.Card{Territory: -1, Symbol: sim.Wild})
	}
	st, err := sim.NewStateAt(m, r, pos, 0)
	require.NoError(t, err)
	return st
}

func ptr(x int) *int { return &x }

// pairs returns, on st's board, one (from, to) pair of seat 0 for each
// of: an attack from a territory of 1 army, an attack from one of 2 or
// more, two of seat 0's territories that do not border each other, and
// two that do (from holding 2 or more).
func pairs(st *sim.State) (weak, strong, apart, near [2]int) {
	m := st.Map()
	for t := range st.NumTerritories() {
		if st.Owner(t) != 0 {
			continue
		}
		for _, u := range m.Territories[t].Neighbors {
			switch {
			case st.Owner(u) != 0 && st.Armies(t) == 1:
				weak = [2]int{t, u}
			case st.Owner(u) != 0 && st.Armies(t) >= 2:
				strong = [2]int{t, u}
			case st.Owner(u) == 0 && st.Armies(t) >= 2:
				near = [2]int{t, u}
			}
		}
		for u := range st.NumTerritories() {
			if st.Owner(u) == 0 && u != t && !m.Adjacent(t, u) {
				apart = [2]int{t, u}
			}
		}
	}
	return
}

// TestApplyRefuses: every kind of illegal choice is refused with its
// reason, by the engine's own checks, and leaves the prompt as it was;
// the legal ones are taken.
func TestApplyRefuses(t *testing.T) {
	st := position(t, "mars2006", sim.PhaseTrade)
	name := func(t int) string { return st.Map().Territories[t].Name }
	weak, strong, apart, near := pairs(st)
	require.NotZero(t, strong[1])
	far := -1 // an enemy territory that does not border strong[0]
	for u := range st.NumTerritories() {
		if st.Owner(u) != 0 && !st.Map().Adjacent(strong[0], u) {
			far = u
		}
	}
	enemy := 1 // territory 1 is seat 1's
	hand := [][2]int{{0, 0}, {3, 0}, {1, 1}, {4, 1}, {7, 1}}
	mk := func(kind string) *prompt {
		p := &prompt{Seat: 0, Kind: kind, st: st, Hand: hand}
		switch kind {
		case askTrade:
			p.Forced = true
		case askPlace:
			p.Armies, p.Left = 5, 5
		case askOccupy:
			p.From, p.To, p.Min, p.Max = strong[0], strong[1], 2, 4
		case askFortify:
			p.Mode = string(st.Rules().Fortify.Mode)
			p.fortifyMoves()
		}
		return p
	}
	tests := []struct {
		kind   string
		a      action
		reason string
	}{
		{askTrade, action{Do: "no_trade"}, "no trade: you hold 5 cards, and the rules force a trade at 5"},
		{askTrade, action{Do: "trade", Set: []int{0, 1, 2}}, "trade cards 0, 1, 2: cards do not form a set"},
		{askTrade, action{Do: "trade", Set: []int{2, 3, 9}}, "trade cards 2, 3, 9: card index 9 out of range [0, 5)"},
		{askTrade, action{Do: "trade", Set: []int{2, 2, 3}}, "trade cards 2, 2, 3: card index 2 used twice"},
		{askTrade, action{Do: "trade", Set: []int{2, 3}}, "trade: 2 cards: a set is 3"},
		{askTrade, action{Do: "attack", From: ptr(0), To: ptr(1)}, "attack: the game asks for a trade decision now"},
		{askSetup, action{Do: "setup", Territory: ptr(enemy)}, "place a starting army on " + name(enemy) + ": " + name(enemy) + " is seat 1's, not yours"},
		{askSetup, action{Do: "setup"}, "setup: territory missing"},
		{askPlace, action{Do: "place", Territory: ptr(enemy), Armies: ptr(2)}, "place 2 armies on " + name(enemy) + ": " + name(enemy) + " is seat 1's, not yours"},
		{askPlace, action{Do: "place", Territory: ptr(0), Armies: ptr(6)}, "place 6 armies on " + name(0) + ": 5 armies left to place: 1..5"},
		{askPlace, action{Do: "place", Territory: ptr(0), Armies: ptr(0)}, "place 0 armies on " + name(0) + ": 5 armies left to place: 1..5"},
		{askPlace, action{Do: "place", Territory: ptr(99), Armies: ptr(1)}, "place 1 army on territory 99: the map has territories 0..41"},
		{askPlace, action{Do: "place", Territory: ptr(0)}, "place: armies missing"},
		{askAttack, action{Do: "attack", From: ptr(weak[0]), To: ptr(weak[1])}, "attack from " + name(weak[0]) + " to " + name(weak[1]) + ": " + name(weak[0]) + " has 1 army; an attack needs at least 2"},
		{askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(near[1])}, ""},
		{askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(far)}, "attack from " + name(strong[0]) + " to " + name(far) + ": " + name(strong[0]) + " does not border " + name(far)},
		{askAttack, action{Do: "attack", From: ptr(enemy), To: ptr(0)}, "attack from " + name(enemy) + " to " + name(0) + ": " + name(enemy) + " is seat 1's, not yours"},
		{askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(strong[1]), Dice: 4}, ""},
		{askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(strong[1]), StopAt: -1}, "attack from " + name(strong[0]) + " to " + name(strong[1]) + ": stop at -1: must be 0 or more"},
		{askOccupy, action{Do: "occupy", Armies: ptr(5)}, "move 5 armies from " + name(strong[0]) + " into " + name(strong[1]) + ": must be 2..4"},
		{askOccupy, action{Do: "occupy", Armies: ptr(1)}, "move 1 army from " + name(strong[0]) + " into " + name(strong[1]) + ": must be 2..4"},
		{askFortify, action{Do: "move", From: ptr(apart[0]), To: ptr(apart[1]), Armies: ptr(1)}, ""},
		{askFortify, action{Do: "move", From: ptr(near[0]), To: ptr(near[1]), Armies: ptr(st.Armies(near[0]))}, ""},
		{askFortify, action{Do: "move", From: ptr(enemy), To: ptr(0), Armies: ptr(1)}, ""},
		{askFortify, action{Do: "end_attack"}, "end_attack: the game asks for a fortify decision now"},
		{askFortify, action{Do: "jump"}, `unknown choice "jump": want trade, no_trade, setup, place, undo, attack, end_attack, occupy, move or end_fortify`},
	}
	for _, tt := range tests {
		p := mk(tt.kind)
		before := *p
		_, whole, err := p.apply(&tt.a)
		var ref *refusal
		require.ErrorAs(t, err, &ref, "%s %+v", tt.kind, tt.a)
		assert.False(t, whole)
		if tt.reason != "" {
			assert.Equal(t, tt.reason, ref.reason)
		}
		assert.Equal(t, before.Left, p.Left)
		assert.Equal(t, before.Placed, p.Placed)
		assert.Equal(t, before.Made, p.Made)
		t.Logf("%s: %s", tt.kind, ref.reason)
	}
	// The reasons that depend on the board, named.
	reason := func(kind string, a action) string {
		_, _, err := mk(kind).apply(&a)
		require.Error(t, err)
		return err.Error()
	}
	assert.Equal(t, "attack from "+name(strong[0])+" to "+name(near[1])+": "+name(near[1])+" is yours",
		reason(askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(near[1])}))
	assert.Contains(t, reason(askAttack, action{Do: "attack", From: ptr(strong[0]), To: ptr(strong[1]), Dice: 4}), "4 dice: "+name(strong[0])+" may roll 1..")
	assert.Contains(t, reason(askFortify, action{Do: "move", From: ptr(apart[0]), To: ptr(apart[1]), Armies: ptr(1)}), "territories are not adjacent")
	assert.Contains(t, reason(askFortify, action{Do: "move", From: ptr(near[0]), To: ptr(near[1]), Armies: ptr(st.Armies(near[0]))}), "which can spare")
	assert.Contains(t, reason(askFortify, action{Do: "move", From: ptr(enemy), To: ptr(0), Armies: ptr(1)}), "both territories must be yours")

	// The legal choices: a whole trade, placements in parts, the move-in.
	a, whole, err := mk(askTrade).apply(&action{Do: "trade", Set: []int{2, 3, 4}})
	require.NoError(t, err)
	assert.True(t, whole)
	assert.Equal(t, answer{set: [3]int{2, 3, 4}, ok: true}, a)
	p := mk(askPlace)
	_, whole, err = p.apply(&action{Do: "place", Territory: ptr(0), Armies: ptr(2)})
	require.NoError(t, err)
	assert.False(t, whole)
	assert.Equal(t, 3, p.Left)
	_, _, err = p.apply(&action{Do: "place", Territory: ptr(3), Armies: ptr(4)})
	assert.EqualError(t, err, "place 4 armies on "+name(3)+": 3 armies left to place: 1..3")
	a, whole, err = p.apply(&action{Do: "place", Territory: ptr(3), Armies: ptr(3)})
	require.NoError(t, err)
	assert.True(t, whole)
	assert.Equal(t, []sim.Placement{{Territory: 0, Armies: 2}, {Territory: 3, Armies: 3}}, a.place)
	a, whole, err = mk(askOccupy).apply(&action{Do: "occupy", Armies: ptr(3)})
	require.NoError(t, err)
	assert.True(t, whole)
	assert.Equal(t, 3, a.k)
	// One-step fortification: moves in parts, then the end; undo clears them.
	p = mk(askFortify)
	require.Equal(t, "one-step", p.Mode)
	_, whole, err = p.apply(&action{Do: "move", From: ptr(near[0]), To: ptr(near[1]), Armies: ptr(1)})
	require.NoError(t, err)
	assert.False(t, whole)
	assert.Equal(t, [][3]int{{near[0], near[1], 1}}, p.Made)
	_, _, err = p.apply(&action{Do: "undo"})
	require.NoError(t, err)
	assert.Empty(t, p.Made)
	a, whole, err = p.apply(&action{Do: "end_fortify"})
	require.NoError(t, err)
	assert.True(t, whole)
	assert.Empty(t, a.moves)
}

// TestApplyFortifyVariants: under the single and connected variants one
// move ends the phase; connected moves along a path of the seat's
// territories and refuses one without.
func TestApplyFortifyVariants(t *testing.T) {
	for _, rules := range []string{"classic", "fixedcards"} {
		st := position(t, rules, sim.PhaseFortify)
		_, _, apart, near := pairs(st)
		p := &prompt{Seat: 0, Kind: askFortify, st: st, Mode: string(st.Rules().Fortify.Mode)}
		p.fortifyMoves()
		a, whole, err := p.apply(&action{Do: "move", From: ptr(near[0]), To: ptr(near[1]), Armies: ptr(1)})
		require.NoError(t, err, rules)
		assert.True(t, whole, "%s: one move ends the phase", rules)
		assert.Equal(t, []sim.Move{{From: near[0], To: near[1], Armies: 1}}, a.moves)
		_, _, err = p.apply(&action{Do: "move", From: ptr(apart[0]), To: ptr(apart[1]), Armies: ptr(1)})
		require.Error(t, err)
		if rules == "fixedcards" {
			assert.Contains(t, err.Error(), "(fortify connected)")
		}
	}
}

// TestFortifyMovesFollowTheRules: under one-step the moves offered after a
// first move are those the engine's CheckMoves accepts: a territory of one
// army that received one may pass it on under fortify.movable = "start"
// (the lux rule sets), not under the default "spare" (mars2006).
func TestFortifyMovesFollowTheRules(t *testing.T) {
	for _, rules := range []string{"lux", "mars2006"} {
		// Seat 0 owns all but territories 40 and 41, with 1 army on every
		// odd territory and 3 on every even one.
		st := positionOf(t, rules, sim.PhaseFortify, func(t int) (int, int) {
			switch t {
			case 40, 41:
				return t - 39, 1
			}
			return 0, 1 + 2*(1-t%2)
		})
		m := st.Map()
		mine := func(t int) bool { return st.Owner(t) == 0 }
		var a, b, c = -1, -1, -1 // a (2 armies or more) > b (1 army) > c, all seat 0's
		for x := range st.NumTerritories() {
			if !mine(x) || st.Armies(x) != 1 {
				continue
			}
			for _, y := range m.Territories[x].Neighbors {
				for _, z := range m.Territories[x].Neighbors {
					if y != z && mine(y) && mine(z) && st.Armies(y) >= 2 {
						a, b, c = y, x, z
					}
				}
			}
		}
		require.GreaterOrEqual(t, a, 0, "a chain of seat 0's territories in the position")
		p := &prompt{Seat: 0, Kind: askFortify, st: st, Mode: string(st.Rules().Fortify.Mode)}
		p.fortifyMoves()
		for _, mv := range p.Moves {
			assert.NoError(t, st.CheckMoves(0, []sim.Move{{From: mv[0], To: mv[1], Armies: mv[2]}}))
			assert.Error(t, st.CheckMoves(0, []sim.Move{{From: mv[0], To: mv[1], Armies: mv[2] + 1}}), "%v is the most", mv)
		}
		_, _, err := p.apply(&action{Do: "move", From: ptr(a), To: ptr(b), Armies: ptr(1)})
		require.NoError(t, err)
		onward := slices.ContainsFunc(p.Moves, func(mv [3]int) bool { return mv[0] == b && mv[1] == c })
		assert.Equal(t, rules == "lux", onward, "%s: %s passes on the army it received", rules, m.Territories[b].Name)
		_, _, err = p.apply(&action{Do: "move", From: ptr(b), To: ptr(c), Armies: ptr(1)})
		assert.Equal(t, rules == "lux", err == nil, "%s: %v", rules, err)
	}
}
