package mcts

import (
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Policy names, the choices of the policy parameter.
var policyNames = []string{"greedy", "random"}

// Rollout policies.
const (
	policyGreedy = iota
	policyRandom
)

// Factory returns the registry entry of the mcts bot.
func Factory() bots.Factory {
	return bots.Factory{
		Name: "mcts",
		Doc:  "information-set Monte Carlo tree search over the engine: macro-actions, UCT, rollouts, dice sampled",
		Params: []bots.Param{
			{Name: "playouts", Default: 400, Min: 1, Max: 100000, Integer: true, Log: true,
				Doc: "simulated continuations per searched decision"},
			{Name: "explore", Default: 0.25, Min: 0, Max: 10,
				Doc: "UCT exploration constant c in mean + c*sqrt(ln(available)/visits), values in [0, 1]"},
			{Name: "depth", Default: 6, Min: 1, Max: 1000, Integer: true,
				Doc: "player-turns a playout plays after the bot's own turn before the position is scored"},
			{Name: "policy", Default: policyGreedy, Choices: policyNames, Max: float64(len(policyNames) - 1), Integer: true,
				Doc: "rollout policy of every seat: greedy (best-ratio attacks, armies on the best border) or random"},
			{Name: "ratio", Default: 1.5, Min: 0.1, Max: 10,
				Doc: "greedy rollouts attack while the attacking armies less one are at least ratio times the defenders"},
			{Name: "evalmix", Default: 0.5, Min: 0, Max: 1,
				Doc: "score of an unfinished playout: evalmix*(share of armies) + (1-evalmix)*(share of income)"},
			{Name: "width", Default: 8, Min: 2, Max: 64, Integer: true,
				Doc: "most macro-actions considered per decision"},
			{Name: "stopat", Default: 2, Min: 1, Max: 100, Integer: true,
				Doc: "an attack macro rolls until the target falls or the attacking territory holds stopat armies or fewer"},
			{Name: "reuse", Default: 1, Min: 0, Max: 1, Integer: true,
				Doc: "1: keep the subtree under the action played for the next decision of the same turn; 0: a new tree per decision"},
		},
		New: func(v bots.Values) (sim.Player, error) {
			return &bot{config: config{
				Playouts: int(v["playouts"]), Explore: v["explore"], Depth: int(v["depth"]), Policy: int(v["policy"]),
				Ratio: v["ratio"], EvalMix: v["evalmix"], Width: int(v["width"]), StopAt: int(v["stopat"]), Reuse: v["reuse"] != 0,
			}}, nil
		},
	}
}

// config holds the bot's parameters (see Factory for their ranges).
type config struct {
	Playouts int     // playouts per searched decision
	Explore  float64 // UCT exploration constant
	Depth    int     // player-turns after the bot's own turn before scoring
	Policy   int     // rollout policy: 0 greedy, 1 random
	Ratio    float64 // greedy rollouts' least attack ratio
	EvalMix  float64 // weight of the army share in the score
	Width    int     // most macro-actions per decision
	StopAt   int     // armies at which an attack macro stops
	Reuse    bool    // keep the subtree for the next decision of the turn
}

// bot is the mcts player; it plays one game at a time.
type bot struct {
	config
	seat int
	rng  *rand.Rand
	sr   *searcher

	// reuse is the node to start the next decision of this turn from.
	reuse     *node
	reuseTurn [2]int // round and seat of the turn reuse belongs to

	// counts for GameStats
	decisions, playouts int64

	acts   []action
	orders []sim.AttackOrder
	moves  []sim.Move
}

// Start prepares the bot for a game at seat, drawing from rng.
func (b *bot) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	b.reuse = nil
	b.decisions, b.playouts = 0, 0
	if b.sr == nil || !b.sr.fits(s) {
		b.sr = newSearcher(s)
	}
	b.sr.cfg = b.config
}

// GameStats appends the decisions searched and the playouts played in the
// game (bots.StatReporter).
func (b *bot) GameStats(buf []bots.Stat) []bots.Stat {
	return append(buf, bots.Stat{Name: "decisions", Count: b.decisions}, bots.Stat{Name: "playouts", Count: b.playouts})
}

// PlaceInitial places each starting army on the owned territory with the
// most enemy armies around it.
func (b *bot) PlaceInitial(s *sim.State) int {
	best, most := s.FirstOwned(b.seat), -1
	for t := range s.NumTerritories() {
		if s.Owner(t) == b.seat {
			if n := threat(s, b.seat, t); n > most {
				best, most = t, n
			}
		}
	}
	return best
}

// Trade trades the set worth the most whenever the hand holds one.
func (b *bot) Trade(s *sim.State, forced bool) ([3]int, bool) { return sim.BestSet(s, b.seat) }

// Occupy moves in after a conquest (see occupy).
func (b *bot) Occupy(s *sim.State, from, to, lo, hi int) int {
	return occupy(s, b.seat, from, to, lo, hi)
}

// turnKey identifies the current turn for tree reuse.
func turnKey(s *sim.State) [2]int { return [2]int{s.Round(), s.Current()} }

// root returns the node a decision of kind k starts from: the kept
// subtree when it belongs to this turn and to a decision of that kind,
// else a new node.
func (b *bot) root(s *sim.State, k kind) *node {
	n := b.reuse
	b.reuse = nil
	if b.Reuse && n != nil && b.reuseTurn == turnKey(s) && n.kind == k {
		return n
	}
	return &node{kind: k}
}

// keep remembers the child of the action played for the next decision.
func (b *bot) keep(s *sim.State, root *node, a action) {
	if !b.Reuse {
		return
	}
	if e := root.edge(a); e != nil && e.next != nil {
		b.reuse, b.reuseTurn = e.next, turnKey(s)
	}
}

// Place searches where to put the turn's armies.
func (b *bot) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	b.acts = placeActions(s, b.seat, armies, b.Width, b.acts[:0])
	if len(b.acts) == 0 {
		return append(buf, sim.Placement{Territory: s.FirstOwned(b.seat), Armies: armies})
	}
	a := b.acts[0]
	// The set-up's placements (round 0, under rules that ask the bots for
	// them) are not searched: play goes on from a turn, not from the set-up.
	if len(b.acts) > 1 && s.Round() >= 1 {
		root := b.root(s, kindPlace)
		a = b.search(s, root, b.acts, armies)
		b.keep(s, root, a)
	}
	return append(buf, sim.Placement{Territory: a.from, Armies: armies})
}

// Attack searches the next attack macro, or stops.
func (b *bot) Attack(s *sim.State) (sim.AttackOrder, bool) {
	b.orders = s.LegalAttacks(b.seat, b.orders[:0])
	b.acts = attackActions(s, b.orders, b.Width, b.StopAt, b.acts[:0])
	if len(b.acts) == 1 { // only stop
		b.reuse = nil
		return sim.AttackOrder{}, false
	}
	root := b.root(s, kindAttack)
	a := b.search(s, root, b.acts, 0)
	b.keep(s, root, a)
	if a.stop() {
		return sim.AttackOrder{}, false
	}
	return sim.AttackOrder{From: a.from, To: a.to, Repeat: true, StopAt: b.StopAt}, true
}

// Fortify searches the fortification.
func (b *bot) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	b.moves = s.LegalFortifies(b.seat, b.moves[:0])
	b.acts = fortifyActions(s, b.seat, b.moves, b.Width, b.acts[:0])
	if len(b.acts) == 1 {
		b.reuse = nil
		return buf
	}
	root := b.root(s, kindFortify)
	a := b.search(s, root, b.acts, 0)
	b.reuse = nil
	if a.stop() {
		return buf
	}
	mv := sim.Move{From: a.from, To: a.to, Armies: a.n}
	if s.CheckMoves(b.seat, []sim.Move{mv}) != nil {
		return buf
	}
	return append(buf, mv)
}

// search plays the playouts of one decision from root and returns the
// most visited of the actions acts legal in the real position (the first
// listed on a tie). armies is the armies to place at a placement.
func (b *bot) search(s *sim.State, root *node, acts []action, armies int) action {
	b.decisions++
	sr := b.sr
	sr.begin(s, b.seat, armies, acts)
	for range b.Playouts {
		sr.playout(root, b.rng)
		b.playouts++
	}
	best, visits := acts[0], -1
	for _, a := range acts {
		if e := root.edge(a); e != nil && e.n > visits {
			best, visits = a, e.n
		}
	}
	return best
}
