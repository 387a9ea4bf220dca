package sim

import "fmt"

// The ask* methods call a player and turn a panic into an error. Before the
// call they set the seat's State handle anew (view), so that it reads the
// game and shows the seat's own copy of the map and rules (State.Map),
// whatever the player did to it before. After a panic the
// player is marked broken: it passes (the engine's minimal legal play) for
// the rest of the game, so a faulty bot cannot stop the game.

func (g *Game) recovered(p int, err *error) {
	if r := recover(); r != nil {
		g.broken[p] = true
		*err = fmt.Errorf("panic: %v", r)
	}
}

func (g *Game) safeStart(p int, pl Player) {
	var err error
	func() {
		defer g.recovered(p, &err)
		pl.Start(g.view(p), p, g.botRNG[p])
	}()
	if err != nil {
		g.fault(p, "start: %v", err)
	}
}

func (g *Game) askPlaceInitial(p int) (t int, err error) {
	defer g.recovered(p, &err)
	return g.players[p].PlaceInitial(g.view(p)), nil
}

func (g *Game) askTrade(p int, forced bool) (set [3]int, ok bool, err error) {
	defer g.recovered(p, &err)
	set, ok = g.players[p].Trade(g.view(p), forced)
	return set, ok, nil
}

func (g *Game) askPlace(p, armies int) (buf []Placement, err error) {
	defer g.recovered(p, &err)
	buf = g.players[p].Place(g.view(p), armies, g.placeBuf[:0])
	if cap(buf) > cap(g.placeBuf) {
		g.placeBuf = buf[:0]
	}
	return buf, nil
}

func (g *Game) askAttack(p int) (o AttackOrder, ok bool, err error) {
	defer g.recovered(p, &err)
	o, ok = g.players[p].Attack(g.view(p))
	return o, ok, nil
}

func (g *Game) askOccupy(p, from, to, lo, hi int) (k int, err error) {
	defer g.recovered(p, &err)
	return g.players[p].Occupy(g.view(p), from, to, lo, hi), nil
}

func (g *Game) askFortify(p int) (buf []Move, err error) {
	defer g.recovered(p, &err)
	buf = g.players[p].Fortify(g.view(p), g.moveBuf[:0])
	if cap(buf) > cap(g.moveBuf) {
		g.moveBuf = buf[:0]
	}
	return buf, nil
}

// view sets seat p's State handle (p = n: the observers') to read the game
// with the seat's copy of map and rules, and returns it.
func (g *Game) view(p int) *State {
	h := &g.handles[p]
	seat := p
	if p == g.n {
		seat = -1
	}
	*h = State{state: &g.st, v: g.st.views[p], seat: seat}
	return h
}
