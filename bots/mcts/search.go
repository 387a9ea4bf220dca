package mcts

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/sim"
)

// node is a decision of the bot in the open-loop tree.
type node struct {
	kind  kind
	edges []edge
}

// edge is an action tried at a node and its statistics: n visits, w the
// sum of their scores, avail the playouts in which the action was legal
// since it was first tried.
type edge struct {
	a        action
	n, avail int
	w        float64
	next     *node
}

func (n *node) edge(a action) *edge {
	for i := range n.edges {
		if n.edges[i].a.same(a) {
			return &n.edges[i]
		}
	}
	return nil
}

// choose picks the action of a playout at node n among the legal acts: the
// first untried one (which it adds), else the one of the highest UCB1 score
// with availability counts. It counts the availability of every legal
// tried action and returns the index of the chosen edge and whether it
// was new.
func (n *node) choose(acts []action, c float64) (int, bool) {
	for _, a := range acts {
		if n.edge(a) == nil {
			for i := range n.edges {
				n.edges[i].avail += n.legal(i, acts)
			}
			n.edges = append(n.edges, edge{a: a, avail: 1})
			return len(n.edges) - 1, true
		}
	}
	best, bestU := -1, math.Inf(-1)
	for i := range n.edges {
		e := &n.edges[i]
		if n.legal(i, acts) == 0 {
			continue
		}
		e.avail++
		u := e.w/float64(e.n) + c*math.Sqrt(math.Log(float64(e.avail))/float64(e.n))
		if u > bestU {
			best, bestU = i, u
		}
	}
	return best, false
}

// legal returns 1 when edge i's action is among acts, else 0.
func (n *node) legal(i int, acts []action) int {
	for _, a := range acts {
		if a.same(n.edges[i].a) {
			return 1
		}
	}
	return 0
}

// step is one edge of a playout's path.
type step struct {
	n *node
	i int
}

// searcher plays the playouts of one bot: its own game, the players of
// every seat and the buffers of a determinisation.
type searcher struct {
	cfg     config
	g       *sim.Game
	m       *sim.Map
	r       *sim.Rules
	nplayer int
	players []sim.Player
	tree    treePlayer
	rolls   []rollout

	seat      int
	armies    int      // armies to place at a placement root
	placeActs []action // the placement macros at a placement root
	base      *sim.Position
	pos       *sim.Position
	pool      []sim.Card
	used      []bool
	path      []step
	turns     int  // player-turns begun after the bot's own
	halted    bool // Interrupt was called in this playout
	stale     bool // an Interrupt may be pending from a game that ended
}

// newSearcher returns a searcher for games like the one s belongs to.
func newSearcher(s *sim.State) *searcher {
	n := s.NumPlayers()
	m, r := s.Map(), s.Rules()
	g, err := sim.NewGame(m, r, n)
	if err != nil {
		panic("mcts: " + err.Error()) // the engine plays this very game
	}
	sr := &searcher{g: g, m: m, r: r, nplayer: n, players: make([]sim.Player, n), rolls: make([]rollout, n)}
	sr.tree.sr = sr
	for i := range sr.rolls {
		sr.rolls[i].sr = sr
	}
	return sr
}

// fits reports whether the searcher plays games of s's map, rules and
// seats.
func (sr *searcher) fits(s *sim.State) bool {
	return sr.nplayer == s.NumPlayers() && sr.r == s.Rules() && sr.m.NumTerritories() == s.NumTerritories()
}

// begin takes the position of a decision of seat at s; at a placement,
// armies are the armies to place and acts the placement macros.
func (sr *searcher) begin(s *sim.State, seat, armies int, acts []action) {
	sr.seat, sr.armies = seat, armies
	sr.placeActs = append(sr.placeActs[:0], acts...)
	sr.base = s.Position()
	for i := range sr.players {
		sr.rolls[i].policy = sr.cfg.Policy
		sr.players[i] = &sr.rolls[i]
	}
	sr.players[seat] = &sr.tree
}

// playout plays one simulated continuation from the decision's position
// and backs its score up the tree from root.
func (sr *searcher) playout(root *node, rng *rand.Rand) {
	sr.pos = copyPosition(sr.pos, sr.base)
	sr.determinize(rng)
	sr.path = sr.path[:0]
	sr.turns, sr.halted = 0, false
	sr.tree.at, sr.tree.inTree = root, true
	if sr.pos.Phase == sim.PhasePlace {
		a := sr.tree.pick(sr.placeActs)
		sr.pos.Armies[a.from] += sr.armies
		sr.pos.Phase = sim.PhaseAttack
		sr.pos.Conquered = false
	}
	seed := rng.Uint64()
	if sr.stale {
		// A game that ended after Interrupt leaves the stop pending: the
		// next game stops before its first turn and clears it.
		_, _ = sr.g.PlayFrom(context.Background(), sr.players, sr.pos, seed)
		sr.stale = false
	}
	res, err := sr.g.PlayFrom(context.Background(), sr.players, sr.pos, seed)
	var v float64
	switch {
	case err == nil:
		// A win scores 1; a loss and a stalemate at the round limit, which
		// no one wins, 0.
		sr.stale = sr.halted
		v = b2f(res.Winner == sr.seat)
	case errors.Is(err, sim.ErrInterrupted):
		v = sr.score(sr.g.State())
	default:
		panic("mcts: playout: " + err.Error())
	}
	for _, st := range sr.path {
		e := &st.n.edges[st.i]
		e.n++
		e.w += v
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// score is the value of an unfinished playout for the bot: 0 when it is
// out, else EvalMix times its share of the armies plus 1-EvalMix times its
// share of the income, both among the seats alive.
func (sr *searcher) score(s *sim.State) float64 {
	if !s.Alive(sr.seat) {
		return 0
	}
	var armies, income float64
	for p := range s.NumPlayers() {
		if s.Alive(p) {
			armies += float64(s.TotalArmies(p))
			income += float64(s.Income(p))
		}
	}
	return sr.cfg.EvalMix*float64(s.TotalArmies(sr.seat))/armies + (1-sr.cfg.EvalMix)*float64(s.Income(sr.seat))/income
}

// copyPosition copies src into dst (reusing dst's slices) and returns it.
func copyPosition(dst, src *sim.Position) *sim.Position {
	if dst == nil {
		return src.Clone()
	}
	hands := dst.Hands
	*dst = sim.Position{
		Players: src.Players, SetsTraded: src.SetsTraded, Round: src.Round, Current: src.Current,
		Phase: src.Phase, Conquered: src.Conquered,
		Owner:          append(dst.Owner[:0], src.Owner...),
		Armies:         append(dst.Armies[:0], src.Armies...),
		Deck:           append(dst.Deck[:0], src.Deck...),
		Discard:        append(dst.Discard[:0], src.Discard...),
		Eliminated:     append(dst.Eliminated[:0], src.Eliminated...),
		Missions:       cloneInto(dst.Missions, src.Missions),
		MissionTargets: cloneInto(dst.MissionTargets, src.MissionTargets),
		EliminatedBy:   cloneInto(dst.EliminatedBy, src.EliminatedBy),
	}
	if len(hands) != len(src.Hands) {
		hands = make([][]sim.Card, len(src.Hands))
	}
	for i, h := range src.Hands {
		hands[i] = append(hands[i][:0], h...)
	}
	dst.Hands = hands
	return dst
}

// cloneInto copies src into dst's storage, keeping nil as nil.
func cloneInto(dst, src []int) []int {
	if src == nil {
		return nil
	}
	return append(dst[:0], src...)
}

// determinize fills the cards and missions of the position that the
// bot's seat does not see with a random deal of those it has not seen.
func (sr *searcher) determinize(rng *rand.Rand) {
	p := sr.pos
	if sr.r.Cards.Mode != sim.CardsNone {
		nt := sr.m.NumTerritories()
		if cap(sr.used) < nt {
			sr.used = make([]bool, nt)
		}
		used := sr.used[:nt]
		clear(used)
		wilds := sr.r.Cards.Wilds
		hidden := 0
		visit := func(cs []sim.Card) {
			for _, c := range cs {
				switch {
				case c.Symbol == sim.Unknown:
					hidden++
				case c.Symbol == sim.Wild:
					wilds--
				default:
					used[c.Territory] = true
				}
			}
		}
		for _, h := range p.Hands {
			visit(h)
		}
		visit(p.Deck)
		visit(p.Discard)
		if hidden > 0 {
			pool := sr.pool[:0]
			for t, u := range used {
				if !u {
					pool = append(pool, sim.Card{Territory: int16(t), Symbol: uint8(t % 3)})
				}
			}
			for range wilds {
				pool = append(pool, sim.Card{Territory: -1, Symbol: sim.Wild})
			}
			rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
			sr.pool = pool
			k := 0
			fill := func(cs []sim.Card) {
				for i := range cs {
					if cs[i].Symbol == sim.Unknown {
						cs[i] = pool[k]
						k++
					}
				}
			}
			for _, h := range p.Hands {
				fill(h)
			}
			fill(p.Deck)
			fill(p.Discard)
		}
	}
	if p.Missions != nil {
		for q, mi := range p.Missions {
			if mi >= 0 {
				continue
			}
			for {
				c := rng.IntN(len(sr.r.Missions))
				if !containsInt(p.Missions, c) {
					p.Missions[q] = c
					break
				}
			}
			p.MissionTargets[q] = -1
			if sr.r.Missions[p.Missions[q]].Kind == sim.MissionEliminate {
				t := rng.IntN(p.Players - 1)
				if t >= q {
					t++
				}
				p.MissionTargets[q] = t
			}
		}
	}
}

func containsInt(a []int, v int) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// newTurn counts a player-turn begun after the bot's own and stops the
// playout's game after Depth of them.
func (sr *searcher) newTurn() {
	sr.turns++
	if sr.turns == sr.cfg.Depth && !sr.halted {
		sr.halted = true
		sr.g.Interrupt()
	}
}

// treePlayer plays the bot's seat in a playout: by the tree while the
// playout is in it (the rest of the bot's turn), then as a rollout.
type treePlayer struct {
	sr     *searcher
	at     *node
	inTree bool
	acts   []action
	roll   rollout
	orders []sim.AttackOrder
	moves  []sim.Move
}

// pick chooses the action at the current node among acts (legal), records
// the step and moves down; after an expansion the playout leaves the tree.
func (tp *treePlayer) pick(acts []action) action {
	n := tp.at
	i, fresh := n.choose(acts, tp.sr.cfg.Explore)
	tp.sr.path = append(tp.sr.path, step{n, i})
	e := &n.edges[i]
	if fresh {
		tp.inTree = false
		return e.a
	}
	if e.next == nil {
		e.next = &node{}
	}
	tp.at = e.next
	return e.a
}

// enter reports whether the decision of kind k is made in the tree.
func (tp *treePlayer) enter(k kind) bool {
	if !tp.inTree {
		return false
	}
	if tp.at.kind == kindNone {
		tp.at.kind = k
	}
	if tp.at.kind != k {
		tp.inTree = false
	}
	return tp.inTree
}

func (tp *treePlayer) Start(s *sim.State, seat int, rng *rand.Rand) {
	tp.roll.sr = tp.sr
	tp.roll.policy = tp.sr.cfg.Policy
	tp.roll.Start(s, seat, rng)
}
func (tp *treePlayer) PlaceInitial(s *sim.State) int { return tp.roll.PlaceInitial(s) }
func (tp *treePlayer) Trade(s *sim.State, forced bool) ([3]int, bool) {
	return tp.roll.Trade(s, forced)
}
func (tp *treePlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	tp.inTree = false
	return tp.roll.Place(s, armies, buf)
}
func (tp *treePlayer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	if !tp.enter(kindAttack) {
		return tp.roll.Attack(s)
	}
	tp.orders = s.LegalAttacks(tp.roll.seat, tp.orders[:0])
	tp.acts = attackActions(s, tp.orders, tp.sr.cfg.Width, tp.sr.cfg.StopAt, tp.acts[:0])
	a := tp.pick(tp.acts)
	if a.stop() {
		return sim.AttackOrder{}, false
	}
	return sim.AttackOrder{From: a.from, To: a.to, Repeat: true, StopAt: tp.sr.cfg.StopAt}, true
}
func (tp *treePlayer) Occupy(s *sim.State, from, to, lo, hi int) int {
	return occupy(s, tp.roll.seat, from, to, lo, hi)
}
func (tp *treePlayer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	if !tp.enter(kindFortify) {
		return tp.roll.Fortify(s, buf)
	}
	tp.moves = s.LegalFortifies(tp.roll.seat, tp.moves[:0])
	tp.acts = fortifyActions(s, tp.roll.seat, tp.moves, tp.sr.cfg.Width, tp.acts[:0])
	a := tp.pick(tp.acts)
	tp.inTree = false
	if a.stop() {
		return buf
	}
	return append(buf, sim.Move{From: a.from, To: a.to, Armies: a.n})
}

// rollout is the rollout policy of a seat: greedy or random.
type rollout struct {
	sr     *searcher
	policy int
	seat   int
	rng    *rand.Rand
	orders []sim.AttackOrder
}

func (r *rollout) Start(s *sim.State, seat int, rng *rand.Rand) { r.seat, r.rng = seat, rng }

func (r *rollout) PlaceInitial(s *sim.State) int { return s.FirstOwned(r.seat) }

func (r *rollout) Trade(s *sim.State, forced bool) ([3]int, bool) { return sim.BestSet(s, r.seat) }

// Place puts every army on the border territory with the best ratio to
// its weakest enemy neighbour (greedy) or on a random border (random).
func (r *rollout) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	r.sr.newTurn()
	best, bestR, borders := s.FirstOwned(r.seat), -1.0, 0
	for t := range s.NumTerritories() {
		if s.Owner(t) != r.seat {
			continue
		}
		w := weakest(s, r.seat, t)
		if w == 0 {
			continue
		}
		borders++
		if r.policy == policyRandom {
			if r.rng.IntN(borders) == 0 {
				best = t
			}
			continue
		}
		if q := float64(s.Armies(t)+armies-1) / float64(w); q > bestR {
			best, bestR = t, q
		}
	}
	return append(buf, sim.Placement{Territory: best, Armies: armies})
}

// Attack blitzes the legal attack with the best ratio of attacking armies
// (less one) to defenders while it is at least Ratio (greedy), or a random
// legal attack with probability 1/2 (random).
func (r *rollout) Attack(s *sim.State) (sim.AttackOrder, bool) {
	r.orders = s.LegalAttacks(r.seat, r.orders[:0])
	if len(r.orders) == 0 {
		return sim.AttackOrder{}, false
	}
	if r.policy == policyRandom {
		if r.rng.IntN(2) == 0 {
			return sim.AttackOrder{}, false
		}
		o := r.orders[r.rng.IntN(len(r.orders))]
		o.Repeat = true
		return o, true
	}
	best, bestR := sim.AttackOrder{}, 0.0
	for _, o := range r.orders {
		if q := float64(s.Armies(o.From)-1) / float64(s.Armies(o.To)); q > bestR {
			best, bestR = o, q
		}
	}
	if bestR < r.sr.cfg.Ratio {
		return sim.AttackOrder{}, false
	}
	best.Repeat = true
	return best, true
}

func (r *rollout) Occupy(s *sim.State, from, to, lo, hi int) int {
	return occupy(s, r.seat, from, to, lo, hi)
}

// Fortify makes no move (rollouts stay cheap).
func (r *rollout) Fortify(s *sim.State, buf []sim.Move) []sim.Move { return buf }
