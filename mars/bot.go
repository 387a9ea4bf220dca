package mars

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/dice"
	"github.com/marslab-risk/marslab/sim"
)

// Bot is the MARS bot: a mediator agent, a territory agent for every
// territory and a card agent (Johansson & Olsson 2006). It implements
// [sim.Player]. A Bot keeps its buffers between games; it is used by one
// game at a time.
type Bot struct {
	p     Params
	seat  int
	rng   *rand.Rand
	m     *sim.Map
	rules dice.Rules
	o     *odds
	// spare is the odds pool of the factory that made the bot (nil for a
	// bot of New); lease holds the odds the bot took from it (see
	// takeOdds).
	spare *oddsPool
	lease *oddsLease
	med   *mediator
	cards cardAgent
	w     io.Writer
	// rolled is the attack the bot ordered in its last call (an Attack
	// that attacked, or the Occupy after it): until the engine asks
	// anything else, only its two territories can change, and the next
	// Attack or Occupy re-reads those alone (see loadRolled).
	rolled rolledAttack
}

// rolledAttack is an attack order the engine carries out between two calls
// of the bot: the State it was ordered on, that State's round, and the
// attacking and attacked territories. s == nil when there is none.
type rolledAttack struct {
	s        *sim.State
	round    int
	from, to int
}

var (
	_ bots.Explainer    = (*Bot)(nil)
	_ bots.StatReporter = (*Bot)(nil)
)

// New returns a MARS bot with parameters p, or an error naming the first
// parameter out of its range.
func New(p Params) (*Bot, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Bot{p: p}, nil
}

// Params returns the bot's parameters.
func (b *Bot) Params() Params { return b.p }

// SetExplain makes the bot narrate its decisions (goals, bids, auction
// winners, attack odds against the thresholds, fortification flows) to w;
// nil turns narration off, and then no explanation is formatted at all.
func (b *Bot) SetExplain(w io.Writer) {
	b.w = w
	if b.med != nil {
		b.med.w = w
	}
}

// Start prepares the bot for a game: the per-map board and agents are
// built when the map changes, the dice tables when the dice rules change.
func (b *Bot) Start(s *sim.State, seat int, rng *rand.Rand) {
	b.seat, b.rng = seat, rng
	ar := s.Rules().Attack
	r := dice.Rules{AttackerDice: ar.AttackerDice, DefenderDice: ar.DefenderDice, TiesToAttacker: ar.TiesToAttacker}
	if b.o == nil || r != b.rules {
		o, err := b.takeOdds(r)
		if err != nil {
			// The engine validated the rules; this cannot happen.
			panic(fmt.Sprintf("mars: dice rules %v: %v", r, err))
		}
		b.o, b.rules = o, r
		b.med = nil
	}
	if b.med == nil || s.Map() != b.m {
		b.m = s.Map()
		b.med = newMediator(b.p, boardFromMap(b.m), b.o)
		b.med.names = make([]string, b.m.NumTerritories())
		for t := range b.med.names {
			b.med.names[t] = b.m.Territories[t].Name
		}
	}
	b.med.w = b.w
	b.med.st = auctionStats{}
	b.med.stop = stopState{}
	b.med.clearPursued()
	b.rolled = rolledAttack{}
}

// GameStats appends the counts of the placement auctions of the game the
// bot is playing or last played ([bots.StatReporter]), in this order:
// place_offensive, place_defensive and place_zero, the auctions won by
// offensive bids (equation (4)), defensive bids (equation (5)) for one
// army or more and zero-army bids of either kind; armies_offensive and
// armies_defensive, the armies those bids won; armies_unbid, the armies no
// positive bid wanted. The initial placement's one-army auctions count.
// Under stop_stats = 1 the attack decisions' counts follow (see
// stopState.stats).
func (b *Bot) GameStats(buf []bots.Stat) []bots.Stat {
	var s auctionStats
	if b.med != nil {
		s = b.med.st
	}
	buf = append(buf,
		bots.Stat{Name: "place_offensive", Count: s.off},
		bots.Stat{Name: "place_defensive", Count: s.def},
		bots.Stat{Name: "place_zero", Count: s.zero},
		bots.Stat{Name: "armies_offensive", Count: s.offArmies},
		bots.Stat{Name: "armies_defensive", Count: s.defArmies},
		bots.Stat{Name: "armies_unbid", Count: s.unbid})
	if b.p.StopStats == 1 {
		var ss stopState
		if b.med != nil {
			ss = b.med.stop
		}
		buf = ss.stats(buf)
	}
	return buf
}

// load reads the whole position from s.
func (b *Bot) load(s *sim.State) {
	b.rolled.s = nil
	b.med.b.load(s, b.seat)
}

// loadRolled reads the position from s for an Attack or Occupy call. If the
// bot's previous call ordered an attack (from, to) on the same State in the
// same round, the engine has since rolled that attack and, on a conquest,
// moved armies from `from` into `to`, and nothing else: every other call of
// the bot (a trade and placement after an elimination, the fortification,
// the next turn, a new game's Start) loads the whole position. Only those
// two territories are read again then; the board is the one a whole load
// gives.
func (b *Bot) loadRolled(s *sim.State) {
	r := b.rolled
	b.rolled.s = nil
	if r.s != s || r.round != s.Round() {
		b.med.b.load(s, b.seat)
		return
	}
	b.med.b.update(s, r.from, r.to)
}

func (b *Bot) header(s *sim.State, what string) {
	fmt.Fprintf(b.w, "mars seat %d round %d %s\n", b.seat, s.Round(), what)
}

// PlaceInitial places one starting army by a one-army placement auction.
func (b *Bot) PlaceInitial(s *sim.State) int {
	b.load(s)
	if b.w != nil {
		b.header(s, "initial placement")
	}
	b.med.place(1)
	for _, t := range b.med.own {
		if b.med.agents[t].placed > 0 {
			return t
		}
	}
	return s.FirstOwned(b.seat)
}

// Trade asks the card agent.
func (b *Bot) Trade(s *sim.State, forced bool) ([3]int, bool) {
	b.rolled.s = nil
	set, r, ok := b.cards.choose(s, b.seat, forced)
	if b.w != nil {
		if ok {
			b.header(s, fmt.Sprintf("card agent trades cards %v for %d armies (forced %v)", set, r, forced))
		} else if r > 0 {
			b.header(s, fmt.Sprintf("card agent holds (best set worth %d, income %d)", r, s.Income(b.seat)))
		}
	}
	return set, ok
}

// Place runs the placement auction for armies armies.
func (b *Bot) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	b.load(s)
	if b.w != nil {
		b.header(s, fmt.Sprintf("place %d", armies))
	}
	b.med.place(armies)
	for _, t := range b.med.own {
		if k := b.med.agents[t].placed; k > 0 {
			buf = append(buf, sim.Placement{Territory: t, Armies: k})
		}
	}
	return buf
}

// Attack runs one attack auction and, if the best odds reach the
// threshold, orders one roll with the most dice (MARS re-evaluates the
// odds after every roll, "until the odds are below W_p").
func (b *Bot) Attack(s *sim.State) (sim.AttackOrder, bool) {
	b.loadRolled(s)
	conquered := s.ConqueredThisTurn()
	c, _, ok := b.med.chooseAttack(conquered)
	if b.p.Stop != StopThreshold || b.p.StopStats == 1 {
		ok = b.med.stopDecide(c, conquered, ok)
	}
	if b.w != nil {
		b.med.explainAttack(c, conquered, ok)
	}
	if !ok {
		return sim.AttackOrder{}, false
	}
	b.rolled = rolledAttack{s: s, round: s.Round(), from: c.from, to: c.to}
	return sim.AttackOrder{From: c.from, To: c.to}, true
}

// Occupy hands goals on to the conquered territory's agent and moves
// armies in (see mediator.occupy).
func (b *Bot) Occupy(s *sim.State, from, to, lo, hi int) int {
	if b.rolled.from != from || b.rolled.to != to {
		b.rolled.s = nil
	}
	b.loadRolled(s)
	k := b.med.occupy(from, to, lo, hi)
	b.rolled = rolledAttack{s: s, round: s.Round(), from: from, to: to}
	return k
}

// Fortify plans the fortification under the rules' mode.
func (b *Bot) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	b.load(s)
	if b.w != nil {
		b.header(s, "fortify")
	}
	return b.med.fortify(s.Rules().Fortify.Mode, buf)
}
