package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"sync/atomic"
)

// Result is the outcome of one game. Its slices are fresh for every game.
type Result struct {
	// Winner is the winning seat, or -1 on a stalemate.
	Winner int
	// Stalemate reports that the round limit was reached.
	Stalemate bool
	// Rounds is the number of rounds started (the round of the last turn).
	Rounds int
	// Turns is the number of player-turns played (all seats counted).
	Turns int
	// Placement[seat] is the seat's finishing position, 1 (winner) to n.
	// Eliminated players rank by reverse elimination order; survivors that
	// did not win rank by territories, then armies, then seat.
	Placement []int
	// Eliminated lists the eliminated seats in order.
	Eliminated []int
	// Faults[seat] counts the seat's illegal answers and panics.
	Faults []int
}

// GameSeed derives the seed of game index from an experiment seed (a
// SplitMix64 mix of both), so that every game's random streams depend only
// on (experiment seed, game index), whatever the worker or shard.
func GameSeed(expSeed, index uint64) uint64 {
	return splitmix(splitmix(expSeed^0x6a09e667f3bcc909) ^ index)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// ErrPlayers is returned by Play when the number of players does not match
// the Game's number of seats.
var ErrPlayers = errors.New("sim: wrong number of players")

// ErrInterrupted is wrapped by the error of a Play that Interrupt stopped,
// and of a PlayContext whose context was done.
var ErrInterrupted = errors.New("sim: game interrupted")

// maxTradesPerPhase bounds a trading loop (a hand can hold at most every
// card, so this is never reached by legal play).
const maxTradesPerPhase = 64

// Game plays games of one map and rule set with a fixed number of seats. It
// owns all the buffers a game needs and reuses them from one Play to the
// next: use one Game per goroutine (only Interrupt may be called from
// another). The dice and the deal come from one random stream per game,
// each bot gets its own (see [GameSeed]).
type Game struct {
	m       *Map   // private copy of the map: the only one the engine reads
	r       *Rules // private copy of the rules: the only one the engine reads
	n       int
	st      state
	handles []State // handles[p]: seat p's view of st, handles[n] the observers'

	stop atomic.Bool // set by Interrupt, consumed by the Play it stops

	obs []Observer
	on  bool // someone receives events: an observer or a Watcher

	watchers []Watcher // watchers[p]: seat p's player if it is a Watcher
	nwatch   int       // number of Watchers in this game
	wev      Event     // the copy of an event that a Watcher is shown
	hookErr  []error   // hookErr[p]: seat p's Watch panicked (a fault to report)
	flushing bool      // hook faults are being reported

	pcg    rand.PCG
	rng    *rand.Rand
	botPCG []rand.PCG
	botRNG []*rand.Rand

	players  []Player
	holders  []Player // holders[p]: the player that last saw views[p] (see keepViews)
	broken   []bool   // a bot that panicked passes for the rest of the game
	setupOut []bool   // a bot that answered PlaceInitial illegally, for the rest of the setup
	faults   []int
	turns    int

	startPhase  Phase   // the phase the first turn of loop starts at
	missionCont [][]int // continent ids of each mission (MissionContinents)

	placeBuf []Placement
	moveBuf  []Move
	paths    OwnedPaths // the engine's owned-path search (FortifyConnected)
	scratch  []int
	perSeat  [][]int
	ev       Event
}

// NewGame prepares a reusable game of map m under rules r with the given
// number of seats (2..6). The rules are validated against the map. The game
// keeps deep copies of m and r (see [Map.Clone] and [Rules.Clone]): one that
// the engine plays by, one per seat that the seat's player sees, and one
// for observers and other callers. Later changes to m or r do not change
// the game.
func NewGame(m *Map, r *Rules, players int) (*Game, error) {
	if m == nil || r == nil {
		return nil, errors.New("sim: NewGame needs a map and rules")
	}
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("sim: %d players: must be %d..%d", players, MinPlayers, MaxPlayers)
	}
	if err := r.Validate(m); err != nil {
		return nil, err
	}
	nt := m.NumTerritories()
	if r.StartingArmies[players]*players < nt {
		return nil, fmt.Errorf("sim: %s: %d players x %d starting armies cannot cover %d territories",
			r.label(), players, r.StartingArmies[players], nt)
	}
	if r.End.Win == "missions" && len(r.Missions) < players {
		return nil, fmt.Errorf("sim: %s: %d missions for %d players", r.label(), len(r.Missions), players)
	}
	m, r = m.Clone(), r.Clone()
	g := &Game{m: m, r: r, n: players}
	g.rng = rand.New(&g.pcg)
	g.botPCG = make([]rand.PCG, players)
	g.botRNG = make([]*rand.Rand, players)
	for i := range g.botRNG {
		g.botRNG[i] = rand.New(&g.botPCG[i])
	}
	g.broken = make([]bool, players)
	g.watchers = make([]Watcher, players)
	g.hookErr = make([]error, players)
	g.holders = make([]Player, players)
	g.setupOut = make([]bool, players)
	g.faults = make([]int, players)
	g.paths.prepare(nt)
	g.scratch = make([]int, 0, nt+8)
	g.perSeat = make([][]int, players)
	for i := range g.perSeat {
		g.perSeat[i] = make([]int, 0, nt)
	}
	g.missionCont = make([][]int, len(r.Missions))
	for i, ms := range r.Missions {
		for _, name := range ms.Continents {
			c, ok := m.ContinentID(name)
			if !ok {
				return nil, fmt.Errorf("sim: %s: mission %q: no continent %q on map %q", r.label(), ms.Name, name, m.Name)
			}
			g.missionCont[i] = append(g.missionCont[i], c)
		}
	}
	s := &g.st
	s.m, s.rules, s.n = m, r, players
	s.views = make([]view, players+1)
	for i := range s.views {
		s.views[i] = view{m.Clone(), r.Clone(), newOwnedPaths(m)}
	}
	g.handles = make([]State, players+1)
	g.view(players)
	s.owner = make([]int8, nt)
	s.armies = make([]int32, nt)
	s.alive = make([]bool, players)
	s.territories = make([]int, players)
	s.totalArmies = make([]int, players)
	s.hands = make([][]Card, players)
	for i := range s.hands {
		s.hands[i] = make([]Card, 0, 16)
	}
	ncards := nt + r.Cards.Wilds
	s.deck = make([]Card, 0, ncards)
	s.discard = make([]Card, 0, ncards)
	if r.End.Win == "missions" {
		s.missions = make([]int, players)
		s.missionTgt = make([]int, players)
	}
	s.eliminated = make([]int, 0, players)
	s.elimBy = make([]int, players)
	return g, nil
}

// Observe adds an observer that receives every event of every later Play.
// With no observer, events cost nothing.
func (g *Game) Observe(o Observer) {
	if o != nil {
		g.obs = append(g.obs, o)
		g.on = true
	}
}

// State returns the game's state (valid during and after Play, until the
// next Play). Outside a player's call its Map and Rules are the copies that
// observers and callers share, never the engine's own.
func (g *Game) State() *State { return g.view(g.n) }

// Play plays one whole game with players[i] in seat i (seat 0 moves first).
// Its random streams derive from (expSeed, index) only. The error is non-nil
// only for a wrong number of players ([ErrPlayers]) or an interrupted game
// ([ErrInterrupted], with a zero Result): faults of the players are recorded
// in the Result and as [EvFault] events.
func (g *Game) Play(players []Player, expSeed, index uint64) (Result, error) {
	if len(players) != g.n {
		return Result{}, fmt.Errorf("%w: got %d, game has %d seats", ErrPlayers, len(players), g.n)
	}
	g.begin(players)
	g.reset(GameSeed(expSeed, index))
	g.setup()
	g.st.round = 1
	g.startPhase = PhaseTrade
	return g.finish()
}

// begin prepares a game for players: their views and their hooks.
func (g *Game) begin(players []Player) {
	g.players = players
	g.keepViews()
	g.nwatch = 0
	for p, pl := range players {
		w, _ := pl.(Watcher)
		g.watchers[p] = w
		g.hookErr[p] = nil
		if w != nil {
			g.nwatch++
		}
	}
	g.on = len(g.obs) > 0 || g.nwatch > 0
}

// finish plays the game's turns from its state and ends it: the Enders'
// End, then the game_end event.
func (g *Game) finish() (Result, error) {
	if !g.loop() {
		return Result{}, fmt.Errorf("%w in round %d after %d player-turns", ErrInterrupted, g.st.round, g.turns)
	}
	res := g.result()
	g.end(&res)
	if g.on {
		g.emit(g.event(EvGameEnd, g.st.winner))
	}
	return res, nil
}

// Interrupt stops the game being played: Play returns, before the next
// player-turn, an error wrapping [ErrInterrupted] (no game_end event is
// emitted). If no game is being played, the next Play stops before its
// first turn. Each call stops at most one game. Interrupt may be called
// from any goroutine, at any time; the Game stays usable.
func (g *Game) Interrupt() { g.stop.Store(true) }

// PlayContext is Play that stops when ctx is done (see Interrupt): its
// error then wraps both [ErrInterrupted] and the context's cause. A context
// already done plays nothing.
func (g *Game) PlayContext(ctx context.Context, players []Player, expSeed, index uint64) (Result, error) {
	return g.withContext(ctx, func() (Result, error) { return g.Play(players, expSeed, index) })
}

// withContext runs play, interrupting the game when ctx is done (see
// PlayContext).
func (g *Game) withContext(ctx context.Context, play func() (Result, error)) (Result, error) {
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("%w before it started: %w", ErrInterrupted, context.Cause(ctx))
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		g.Interrupt()
		close(fired)
	})
	res, err := play()
	if !stop() {
		// The context was done during the game: wait for the interrupt and
		// clear it in case the game ended before it noticed.
		<-fired
		g.stop.Store(false)
		if errors.Is(err, ErrInterrupted) {
			err = fmt.Errorf("%w: %w", err, context.Cause(ctx))
		}
	}
	return res, err
}

// keepViews gives every player the copy of map and rules it saw in the
// last game, whatever its seat now (arena rotates the seats): a bot that
// keeps what it derives from the map, keyed by the *Map it is shown, keeps
// it. The copies are swapped between seats, so that each seat still has
// one of its own; nothing is allocated.
func (g *Game) keepViews() {
	views := g.st.views
	for p, pl := range g.players {
		for k := p + 1; k < g.n; k++ {
			if samePlayer(g.holders[k], pl) {
				views[p], views[k] = views[k], views[p]
				g.holders[p], g.holders[k] = g.holders[k], g.holders[p]
				break
			}
		}
		g.holders[p] = pl
	}
}

// samePlayer reports whether a and b are the same player, without the
// panic of == on players of an incomparable type.
func samePlayer(a, b Player) bool {
	if a == nil || b == nil {
		return false
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

func (g *Game) reset(seed uint64) {
	g.pcg.Seed(seed, 0xda3e39cb94b95bdb)
	for i := range g.botPCG {
		g.botPCG[i].Seed(splitmix(seed+uint64(i)+1), seed^0x5851f42d4c957f2d)
	}
	s := &g.st
	for t := range s.owner {
		s.owner[t] = -1
		s.armies[t] = 0
	}
	for p := 0; p < g.n; p++ {
		s.alive[p] = true
		s.territories[p] = 0
		s.totalArmies[p] = 0
		s.hands[p] = s.hands[p][:0]
		g.broken[p] = false
		g.faults[p] = 0
		g.st.elimBy[p] = -1
	}
	s.deck = s.deck[:0]
	s.discard = s.discard[:0]
	s.setsTraded = 0
	s.round = 0
	s.current = 0
	s.phase = PhaseSetup
	s.conquered = false
	s.eliminated = s.eliminated[:0]
	s.winner = -1
	g.turns = 0
	// Restore the copies of map and rules that someone changed.
	for i := range s.views {
		v := &s.views[i]
		if !equalMap(v.m, g.m) {
			v.m.copyFrom(g.m)
		}
		if !equalRules(v.r, g.r) {
			*v.r = *g.r.Clone()
		}
	}
	g.view(g.n)
}

func (g *Game) emit(e *Event) {
	e.Round = g.st.round
	e.Phase = g.st.phase
	for _, o := range g.obs {
		o.Observe(e)
	}
	if g.nwatch > 0 {
		g.watch(e)
	}
}

// event returns the reusable event, cleared, with kind and player set.
func (g *Game) event(k EventKind, player int) *Event {
	g.ev = Event{Kind: k, Player: player, Other: -1, From: -1, To: -1}
	return &g.ev
}

// fault records an illegal answer (or a panic) of player p.
func (g *Game) fault(p int, format string, args ...any) {
	g.forfeit(p, 0, format, args...)
}

// forfeit records a fault of player p that cost it armies armies.
func (g *Game) forfeit(p, armies int, format string, args ...any) {
	g.faults[p]++
	if g.on {
		e := g.event(EvFault, p)
		e.Armies = armies
		e.Text = fmt.Sprintf(format, args...)
		g.emit(e)
	}
}

// setup deals the territories, the deck and the missions, starts the
// players and places the starting armies.
func (g *Game) setup() {
	s := &g.st
	r := g.r
	nt := len(s.owner)
	if g.on {
		e := g.event(EvStart, -1)
		e.Armies = r.StartingArmies[g.n]
		g.emit(e)
	}
	// Deck: one card per territory, symbols in turn, plus the wilds.
	if r.Cards.Mode != CardsNone {
		for t := 0; t < nt; t++ {
			s.deck = append(s.deck, Card{Territory: int16(t), Symbol: uint8(t % 3)})
		}
		for i := 0; i < r.Cards.Wilds; i++ {
			s.deck = append(s.deck, Card{Territory: -1, Symbol: Wild})
		}
		for i := len(s.deck) - 1; i > 0; i-- {
			j := g.rng.IntN(i + 1)
			s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
		}
	}
	// Deal: a random order of the territories, round-robin from seat 0.
	order := g.scratch[:nt]
	for i := range order {
		order[i] = i
	}
	g.shuffleInts(order)
	for p := range g.perSeat {
		g.perSeat[p] = g.perSeat[p][:0]
	}
	for i, t := range order {
		p := i % g.n
		s.owner[t] = int8(p)
		s.armies[t] = 1
		s.territories[p]++
		s.totalArmies[p]++
		g.perSeat[p] = append(g.perSeat[p], t)
		if g.on {
			e := g.event(EvDeal, p)
			e.To = t
			e.Armies = 1
			g.emit(e)
		}
	}
	// Missions: distinct cards; an "eliminate" card names a random opponent.
	if s.missions != nil {
		idx := g.scratch[:len(r.Missions)]
		for i := range idx {
			idx[i] = i
		}
		g.shuffleInts(idx)
		for p := 0; p < g.n; p++ {
			s.missions[p] = idx[p]
			s.missionTgt[p] = -1
			if r.Missions[idx[p]].Kind == MissionEliminate {
				o := g.rng.IntN(g.n - 1)
				if o >= p {
					o++
				}
				s.missionTgt[p] = o
			}
		}
	}
	for p, pl := range g.players {
		if !g.broken[p] { // a Watcher that panicked at the deal is not started
			g.safeStart(p, pl)
		}
	}
	// Starting armies. A bot that answers PlaceInitial illegally has the
	// rest of its starting armies placed at random (and plays the game); one
	// that panicked (here or in Start) passes for the rest of the game.
	left := g.scratch[:g.n]
	for p := range left {
		left[p] = r.StartingArmies[g.n] - s.territories[p]
		g.setupOut[p] = false
	}
	if r.Setup.InitialArmies == "bots" && r.Setup.InitialPerTurn > 0 {
		g.setupByPlace(left)
	} else if r.Setup.InitialArmies == "bots" {
		for more := true; more; {
			more = false
			for p := 0; p < g.n; p++ {
				if left[p] == 0 {
					continue
				}
				t := -1
				if !g.broken[p] && !g.setupOut[p] {
					var err error
					t, err = g.askPlaceInitial(p)
					switch {
					case err != nil:
						g.fault(p, "setup: %v", err) // a panic: broken for the rest of the game
					case t < 0 || t >= nt || int(s.owner[t]) != p:
						g.fault(p, "setup: territory %d is not yours", t)
						g.setupOut[p] = true
					}
				}
				if g.broken[p] || g.setupOut[p] {
					// The engine places the rest of a faulty bot's armies at random.
					ts := g.perSeat[p]
					t = ts[g.rng.IntN(len(ts))]
				}
				g.addArmies(t, 1)
				left[p]--
				more = more || left[p] > 0
				if g.on {
					e := g.event(EvSetupPlace, p)
					e.To = t
					e.Armies = 1
					g.emit(e)
				}
			}
		}
	} else {
		for p := 0; p < g.n; p++ {
			ts := g.perSeat[p]
			for ; left[p] > 0; left[p]-- {
				t := ts[g.rng.IntN(len(ts))]
				g.addArmies(t, 1)
				if g.on {
					e := g.event(EvSetupPlace, p)
					e.To = t
					e.Armies = 1
					g.emit(e)
				}
			}
		}
	}
}

// setupByPlace places the starting armies left[p] of every seat p with
// Rules.Setup.InitialPerTurn armies per setup turn, players taking turns
// from seat 0: each turn asks the player's Place for min(InitialPerTurn,
// left) armies. A placement CheckPlacement refuses is a fault, and the
// engine places the rest of that player's starting armies at random, as it
// does for a broken player. Every army is one [EvSetupPlace] event.
func (g *Game) setupByPlace(left []int) {
	s := &g.st
	per := g.r.Setup.InitialPerTurn
	for more := true; more; {
		more = false
		for p := 0; p < g.n; p++ {
			k := min(per, left[p])
			if k == 0 {
				continue
			}
			left[p] -= k
			more = more || left[p] > 0
			if !g.broken[p] && !g.setupOut[p] {
				buf, err := g.askPlace(p, k)
				if err == nil {
					err = s.CheckPlacement(p, k, buf)
				} else {
					g.fault(p, "setup: %v", err) // a panic: broken for the rest of the game
				}
				if err == nil {
					for _, pl := range buf {
						for range pl.Armies {
							g.setupPlace(p, pl.Territory)
						}
					}
					continue
				}
				if !g.broken[p] {
					g.fault(p, "setup: %v", err)
					g.setupOut[p] = true
				}
			}
			// The engine places the rest of a faulty bot's armies at random.
			ts := g.perSeat[p]
			for range k {
				g.setupPlace(p, ts[g.rng.IntN(len(ts))])
			}
		}
	}
}

// setupPlace places one starting army of p on t.
func (g *Game) setupPlace(p, t int) {
	g.addArmies(t, 1)
	if g.on {
		e := g.event(EvSetupPlace, p)
		e.To = t
		e.Armies = 1
		g.emit(e)
	}
}

func (g *Game) shuffleInts(a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := g.rng.IntN(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

func (g *Game) addArmies(t, k int) {
	g.st.armies[t] += int32(k)
	g.st.totalArmies[g.st.owner[t]] += k
}

// loop plays turns until a win or the round limit and reports whether the
// game ended; false means Interrupt stopped it.
func (g *Game) loop() bool {
	s := &g.st
	for {
		if g.stop.Load() && g.stop.CompareAndSwap(true, false) {
			s.phase = PhaseOver
			return false
		}
		p := s.current
		if s.alive[p] {
			g.turn(p, g.startPhase)
			g.startPhase = PhaseTrade
			if s.winner >= 0 {
				break
			}
		}
		s.current++
		if s.current == g.n {
			s.current = 0
			if g.r.End.RoundLimit > 0 && s.round >= g.r.End.RoundLimit {
				break
			}
			s.round++
		}
	}
	s.phase = PhaseOver
	return true
}

// turn plays one player-turn from phase from ([PhaseTrade]: the whole
// turn; [PhaseAttack], [PhaseFortify]: the rest of a turn begun in a position).
func (g *Game) turn(p int, from Phase) {
	s := &g.st
	g.turns++
	if from == PhaseTrade && !g.turnStart(p) {
		return
	}
	if from <= PhaseAttack {
		s.phase = PhaseAttack
		g.attackPhase(p)
		if s.winner >= 0 {
			return
		}
		if s.conquered && g.r.Cards.OnePerTurn && g.r.Cards.Mode != CardsNone {
			g.drawCard(p)
		}
	}
	s.phase = PhaseFortify
	g.fortifyPhase(p)
	g.checkMission(p)
}

// turnStart plays the trade and place phases of p's turn and reports
// whether the turn goes on (false: p completed its mission).
func (g *Game) turnStart(p int) bool {
	s := &g.st
	s.conquered = false
	if g.on {
		s.phase = PhaseTrade
		g.emit(g.event(EvTurn, p))
	}
	s.phase = PhaseTrade
	cardArmies := g.tradePhase(p)
	s.phase = PhasePlace
	income := s.Income(p)
	if g.on {
		e := g.event(EvReinforce, p)
		e.Armies = income
		g.emit(e)
	}
	g.placePhase(p, income+cardArmies)
	return !g.checkMission(p)
}

// tradePhase lets p trade sets and returns the armies the sets are worth.
// A player holding ForcedTradeAt cards or more must trade until it holds
// fewer; the engine trades for it if it declines or answers illegally.
// With Cards.VoluntaryPerTurn > 0 an unforced player is asked only while it
// has traded fewer sets than that in this phase.
func (g *Game) tradePhase(p int) int {
	s := &g.st
	c := &g.r.Cards
	if c.Mode == CardsNone {
		return 0
	}
	total, traded := 0, 0
	voluntary := !g.broken[p]
	for i := 0; i < maxTradesPerPhase; i++ {
		hand := s.hands[p]
		if len(hand) < 3 {
			break
		}
		forced := c.ForcedTradeAt > 0 && len(hand) >= c.ForcedTradeAt
		if !forced && c.VoluntaryPerTurn > 0 && traded >= c.VoluntaryPerTurn {
			break
		}
		if !voluntary && !forced {
			break
		}
		if voluntary {
			set, ok, err := g.askTrade(p, forced)
			switch {
			case err != nil:
				g.fault(p, "trade: %v", err)
				voluntary = false
			case !ok:
				voluntary = false
			default:
				if err := s.checkSet(p, set); err != nil {
					g.fault(p, "trade: %v", err)
					voluntary = false
				} else {
					total += g.trade(p, set)
					traded++
					continue
				}
			}
		}
		if forced {
			set, ok := s.bestSet(p)
			if !ok {
				break
			}
			total += g.trade(p, set)
			traded++
		}
	}
	return total
}

// BestSet returns the indices of the set in p's hand worth the most armies
// (value plus territory bonus), preferring sets without wilds; ok is false if
// the hand holds no set, or if s may not see p's hand (see State).
func BestSet(s *State, p int) (set [3]int, ok bool) {
	if !s.sees(p) {
		return set, false
	}
	return s.bestSet(p)
}

func (s *state) bestSet(p int) (set [3]int, ok bool) {
	hand := s.hands[p]
	best := -1
	for i := 0; i < len(hand); i++ {
		for j := i + 1; j < len(hand); j++ {
			for k := j + 1; k < len(hand); k++ {
				sym := [3]uint8{hand[i].Symbol, hand[j].Symbol, hand[k].Symbol}
				if !ValidSet(sym) {
					continue
				}
				v := s.SetValue(sym) * 4
				for _, x := range [3]int{i, j, k} {
					if t := hand[x].Territory; t >= 0 && int(s.owner[t]) == p {
						v += s.rules.Cards.TerritoryBonus * 4
						break
					}
				}
				for _, x := range sym {
					if x == Wild {
						v--
					}
				}
				if v > best {
					best, set, ok = v, [3]int{i, j, k}, true
				}
			}
		}
	}
	return set, ok
}

// trade removes the set from p's hand, applies the territory bonus and
// returns the set's value.
func (g *Game) trade(p int, set [3]int) int {
	s := &g.st
	hand := s.hands[p]
	var cards [3]Card
	var sym [3]uint8
	for i, k := range set {
		cards[i] = hand[k]
		sym[i] = hand[k].Symbol
	}
	value := s.SetValue(sym)
	s.setsTraded++
	bonusAt := -1
	if g.r.Cards.TerritoryBonus > 0 {
		for _, c := range cards {
			if c.Territory >= 0 && int(s.owner[c.Territory]) == p {
				bonusAt = int(c.Territory)
				break
			}
		}
	}
	// Remove the three cards, keeping the hand's order.
	a, b, c := set[0], set[1], set[2]
	if a < b {
		a, b = b, a
	}
	if b < c {
		b, c = c, b
	}
	if a < b {
		a, b = b, a
	}
	for _, k := range [3]int{a, b, c} { // descending, so indices stay valid
		hand = append(hand[:k], hand[k+1:]...)
	}
	s.hands[p] = hand
	s.discard = append(s.discard, cards[:]...)
	if bonusAt >= 0 {
		g.addArmies(bonusAt, g.r.Cards.TerritoryBonus)
	}
	if g.on {
		e := g.event(EvTrade, p)
		e.Cards = cards
		e.Armies = value
		e.To = bonusAt
		g.emit(e)
	}
	return value
}

// placePhase asks p to place armies new armies; an illegal answer forfeits
// them.
func (g *Game) placePhase(p, armies int) {
	s := &g.st
	if armies <= 0 {
		return
	}
	if g.broken[p] {
		g.place(p, s.FirstOwned(p), armies)
		return
	}
	buf, err := g.askPlace(p, armies)
	if err != nil {
		g.forfeit(p, armies, "place: %v", err)
		return
	}
	if err := s.CheckPlacement(p, armies, buf); err != nil {
		g.forfeit(p, armies, "place: %v", err)
		return
	}
	for _, pl := range buf {
		g.place(p, pl.Territory, pl.Armies)
	}
}

func (g *Game) place(p, t, k int) {
	g.addArmies(t, k)
	if g.on {
		e := g.event(EvPlace, p)
		e.To = t
		e.Armies = k
		g.emit(e)
	}
}

// attackPhase executes p's attack orders until it stops, faults or wins.
func (g *Game) attackPhase(p int) {
	s := &g.st
	ar := &g.r.Attack
	// A bot that panics (here, or in Occupy, Trade or Place after an
	// elimination) attacks no more.
	for !g.broken[p] {
		o, ok, err := g.askAttack(p)
		if err != nil {
			g.fault(p, "attack: %v", err)
			return
		}
		if !ok {
			if g.on {
				g.emit(g.event(EvEndPhase, p))
			}
			return
		}
		if err := s.CheckAttack(p, o); err != nil {
			g.fault(p, "attack %d->%d: %v", o.From, o.To, err)
			return
		}
		from, to := o.From, o.To
		def := int(s.owner[to])
		if g.on {
			e := g.event(EvAttackOrder, p)
			e.Other, e.From, e.To = def, from, to
			e.Dice, e.Repeat, e.StopAt = o.Dice, o.Repeat, o.StopAt
			g.emit(e)
		}
		stop := 1
		if o.Repeat && o.StopAt > 1 {
			stop = o.StopAt
		}
		na := 0
		for {
			na = ar.AttackerDice
			if o.Dice > 0 {
				na = o.Dice
			}
			if a := int(s.armies[from]) - 1; na > a {
				na = a
			}
			nd := ar.DefenderDice
			if d := int(s.armies[to]); nd > d {
				nd = d
			}
			var ad [3]uint8
			var dd [2]uint8
			al, dl := RollDice(g.rng, na, nd, ar.TiesToAttacker, &ad, &dd)
			s.armies[from] -= int32(al)
			s.armies[to] -= int32(dl)
			s.totalArmies[p] -= al
			s.totalArmies[def] -= dl
			if g.on {
				e := g.event(EvRoll, p)
				e.Other, e.From, e.To = def, from, to
				e.AttackerDice, e.DefenderDice = ad, dd
				e.NAttack, e.NDefend = uint8(na), uint8(nd)
				e.AttackerLoss, e.DefenderLoss = al, dl
				g.emit(e)
			}
			if s.armies[to] == 0 || !o.Repeat || int(s.armies[from]) <= stop {
				break
			}
		}
		if s.armies[to] > 0 {
			if g.on {
				e := g.event(EvFailedOccupation, p)
				e.Other, e.From, e.To = def, from, to
				g.emit(e)
				e = g.event(EvDefence, def)
				e.Other, e.From, e.To = p, from, to
				g.emit(e)
			}
			continue
		}
		if g.conquer(p, def, from, to, na) {
			return
		}
		if s.winner >= 0 {
			return
		}
	}
}

// conquer moves p into to after a won battle (na dice in the last roll),
// handles an elimination and reports whether the attack phase must end
// because of a fault.
func (g *Game) conquer(p, def, from, to, na int) (endPhase bool) {
	s := &g.st
	lo, hi := s.OccupyRange(from, na)
	k := lo
	var ans int
	var err error
	if !g.broken[p] {
		ans, err = g.askOccupy(p, from, to, lo, hi)
		if err == nil && CheckOccupy(lo, hi, ans) == nil {
			k = ans
		}
	}
	s.owner[to] = int8(p)
	s.armies[from] -= int32(k)
	s.armies[to] = int32(k)
	s.territories[p]++
	s.territories[def]--
	s.conquered = true
	if g.on {
		e := g.event(EvOccupation, p)
		e.Other, e.From, e.To, e.Armies = def, from, to, k
		g.emit(e)
	}
	// An illegal answer moves the minimum and ends the attack phase; the
	// fault is reported once the board is whole again.
	switch {
	case g.broken[p] && err == nil:
	case err != nil:
		g.fault(p, "occupy: %v", err)
		endPhase = true
	case ans < lo || ans > hi:
		g.fault(p, "occupy %d->%d: %d armies: must be %d..%d", from, to, ans, lo, hi)
		endPhase = true
	}
	if s.territories[def] == 0 {
		g.eliminate(p, def)
		if s.winner >= 0 {
			return true
		}
	}
	if g.checkMission(p) {
		return true
	}
	return endPhase
}

// eliminate removes def from the game; p takes its cards and may have to
// trade and place at once.
func (g *Game) eliminate(p, def int) {
	s := &g.st
	s.alive[def] = false
	s.eliminated = append(s.eliminated, def)
	g.st.elimBy[def] = p
	taken := 0
	if g.r.Cards.Mode != CardsNone {
		if g.r.Cards.TakeOnElimination {
			taken = len(s.hands[def])
			s.hands[p] = append(s.hands[p], s.hands[def]...)
		} else {
			s.discard = append(s.discard, s.hands[def]...)
		}
		s.hands[def] = s.hands[def][:0]
	}
	if g.on {
		e := g.event(EvElimination, p)
		e.Other, e.Armies = def, taken
		g.emit(e)
	}
	if s.NumAlive() == 1 {
		s.winner = p
		return
	}
	if g.checkMission(p) {
		return
	}
	// Cards taken may force an immediate trade, placed at once.
	c := &g.r.Cards
	if c.Mode != CardsNone && c.ForcedTradeAt > 0 && len(s.hands[p]) >= c.ForcedTradeAt {
		s.phase = PhaseTrade
		armies := g.tradePhaseForced(p)
		s.phase = PhasePlace
		g.placePhase(p, armies)
		s.phase = PhaseAttack
		g.checkMission(p)
	}
}

// tradePhaseForced trades until p holds fewer than ForcedTradeAt cards.
func (g *Game) tradePhaseForced(p int) int {
	s := &g.st
	total := 0
	for i := 0; i < maxTradesPerPhase && len(s.hands[p]) >= g.r.Cards.ForcedTradeAt; i++ {
		var set [3]int
		ok := false
		if !g.broken[p] {
			var err error
			set, ok, err = g.askTrade(p, true)
			if err != nil {
				g.fault(p, "trade: %v", err)
				ok = false
			} else if ok {
				if err := s.checkSet(p, set); err != nil {
					g.fault(p, "trade: %v", err)
					ok = false
				}
			}
		}
		if !ok {
			if set, ok = s.bestSet(p); !ok {
				break
			}
		}
		total += g.trade(p, set)
	}
	return total
}

func (g *Game) drawCard(p int) {
	s := &g.st
	if len(s.deck) == 0 {
		// Reshuffle the traded cards into a new draw pile.
		s.deck = append(s.deck, s.discard...)
		s.discard = s.discard[:0]
		for i := len(s.deck) - 1; i > 0; i-- {
			j := g.rng.IntN(i + 1)
			s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
		}
		if len(s.deck) == 0 {
			return
		}
	}
	c := s.deck[len(s.deck)-1]
	s.deck = s.deck[:len(s.deck)-1]
	s.hands[p] = append(s.hands[p], c)
	if g.on {
		e := g.event(EvCard, p)
		e.Cards[0] = c
		g.emit(e)
	}
}

// fortifyPhase asks p for its moves, validates the whole list and makes them.
func (g *Game) fortifyPhase(p int) {
	s := &g.st
	if g.broken[p] {
		return
	}
	moves, err := g.askFortify(p)
	if err != nil {
		g.fault(p, "fortify: %v", err)
		return
	}
	if len(moves) == 0 {
		if g.on {
			g.emit(g.event(EvEndPhase, p))
		}
		return
	}
	if err := s.checkMoves(p, moves, &g.paths); err != nil {
		g.fault(p, "fortify (%s): %v", g.r.Fortify.Mode, err)
		return
	}
	for _, mv := range moves {
		s.armies[mv.From] -= int32(mv.Armies)
		s.armies[mv.To] += int32(mv.Armies)
		if g.on {
			e := g.event(EvMove, p)
			e.From, e.To, e.Armies = mv.From, mv.To, mv.Armies
			g.emit(e)
		}
	}
	if g.on {
		g.emit(g.event(EvEndPhase, p))
	}
}

// checkMission ends the game if p has completed its mission (mission mode
// only) and reports whether the game is over.
func (g *Game) checkMission(p int) bool {
	s := &g.st
	if s.winner >= 0 {
		return true
	}
	if s.missions == nil {
		if s.territories[p] == len(s.owner) {
			s.winner = p
			return true
		}
		return false
	}
	if g.missionDone(p) {
		s.winner = p
		return true
	}
	return false
}

func (g *Game) missionDone(p int) bool {
	s := &g.st
	mi := s.missions[p]
	ms := &g.r.Missions[mi]
	kind, count, minArmies := ms.Kind, ms.Count, ms.MinArmies
	if kind == MissionEliminate {
		tgt := s.missionTgt[p]
		if g.st.elimBy[tgt] == p {
			return true
		}
		if s.alive[tgt] {
			return false
		}
		// The target fell to another player: the mission becomes "own 24
		// territories" (scaled to the map: 4/7 of its territories).
		kind, count, minArmies = MissionTerritories, (len(s.owner)*4+6)/7, 1
	}
	switch kind {
	case MissionContinents:
		for _, c := range g.missionCont[mi] {
			if !s.OwnsContinent(p, c) {
				return false
			}
		}
		extra := 0
		for c := range g.m.Continents {
			if s.OwnsContinent(p, c) {
				extra++
			}
		}
		return extra-len(g.missionCont[mi]) >= ms.Extra
	case MissionTerritories:
		k := 0
		for t, o := range s.owner {
			if int(o) == p && int(s.armies[t]) >= minArmies {
				k++
			}
		}
		return k >= count
	}
	return false
}

// result ranks the players.
func (g *Game) result() Result {
	s := &g.st
	res := Result{
		Winner:     s.winner,
		Stalemate:  s.winner < 0,
		Rounds:     s.round,
		Turns:      g.turns,
		Placement:  make([]int, g.n),
		Eliminated: append([]int(nil), s.eliminated...),
		Faults:     append([]int(nil), g.faults...),
	}
	rank := 1
	if s.winner >= 0 {
		res.Placement[s.winner] = rank
		rank++
	}
	alive := g.scratch[:0]
	for p := 0; p < g.n; p++ {
		if s.alive[p] && p != s.winner {
			alive = append(alive, p)
		}
	}
	sort.SliceStable(alive, func(i, j int) bool {
		a, b := alive[i], alive[j]
		if s.territories[a] != s.territories[b] {
			return s.territories[a] > s.territories[b]
		}
		return s.totalArmies[a] > s.totalArmies[b]
	})
	for _, p := range alive {
		res.Placement[p] = rank
		rank++
	}
	for i := len(s.eliminated) - 1; i >= 0; i-- {
		res.Placement[s.eliminated[i]] = rank
		rank++
	}
	return res
}
