package sim

// Ender is an optional interface of a Player: the engine calls End once at
// the end of every game that ends (not one that Interrupt stops), before
// the [EvGameEnd] event, with the seat's State (the final position) and the
// game's result (a copy of its own): a learner's final reward. A player
// that panicked earlier in the game is not called.
type Ender interface {
	End(s *State, res Result)
}

// Watcher is an optional interface of a Player: the engine shows it every
// event of the game as its seat may see it, in order, from the game's
// [EvStart] (the deal comes before [Player.Start]) to its [EvGameEnd]. Another
// seat's traded and drawn cards are hidden (their symbols are Unknown and
// their territories -1; the number of cards is not hidden, nor the
// territory that a trade's bonus goes to, which the board shows), unless
// Rules.Info.Open. The *Event is the seat's own copy, valid only during
// the call. A player that panicked earlier in the game is not shown more.
type Watcher interface {
	Watch(e *Event)
}

// Both hooks are detected by type assertion when a game begins, so a
// player that implements neither costs nothing. A panicking hook is
// treated as a panicking player method: a fault, and the player passes for
// the rest of the game.

// end calls the Enders' End with the final result; a panic is a fault,
// counted in res.
func (g *Game) end(res *Result) {
	for p, pl := range g.players {
		e, ok := pl.(Ender)
		if !ok || g.broken[p] {
			continue
		}
		own := *res
		own.Placement = append([]int(nil), res.Placement...)
		own.Eliminated = append([]int(nil), res.Eliminated...)
		own.Faults = append([]int(nil), res.Faults...)
		if err := g.callEnd(p, e, own); err != nil {
			g.fault(p, "end: %v", err)
			res.Faults[p]++
		}
	}
}

func (g *Game) callEnd(p int, e Ender, res Result) (err error) {
	defer g.recovered(p, &err)
	e.End(g.view(p), res)
	return nil
}

// watch shows e to every Watcher, hiding what its seat may not see, and
// then reports the panics of Watch as faults (whose events the Watchers
// are shown in turn).
func (g *Game) watch(e *Event) {
	open := g.r.Info.Open
	for p, w := range g.watchers {
		if w == nil || g.broken[p] {
			continue
		}
		g.wev = *e
		if !open && g.wev.Player != p {
			switch g.wev.Kind {
			case EvTrade:
				for i := range g.wev.Cards {
					g.wev.Cards[i] = Card{Territory: -1, Symbol: Unknown}
				}
			case EvCard:
				g.wev.Cards[0] = Card{Territory: -1, Symbol: Unknown}
			}
		}
		if err := g.callWatch(p, w); err != nil {
			g.hookErr[p] = err
		}
	}
	if g.flushing {
		return // the outer watch reports the faults
	}
	g.flushing = true
	for again := true; again; {
		again = false
		for p, err := range g.hookErr {
			if err != nil {
				g.hookErr[p] = nil
				g.fault(p, "watch: %v", err)
				again = true
			}
		}
	}
	g.flushing = false
}

func (g *Game) callWatch(p int, w Watcher) (err error) {
	defer g.recovered(p, &err)
	w.Watch(&g.wev)
	return nil
}
