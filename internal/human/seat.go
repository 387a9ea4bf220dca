package human

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/marslab-risk/marslab/sim"
)

// seat is a human seat: a sim.Player whose answers come from the page
// (session.ask), after those of its script when the game is resumed.
type seat struct {
	s      *session
	index  int
	script *script
}

// The kinds of decision a prompt asks for.
const (
	askSetup   = "setup"   // PlaceInitial: one starting army
	askTrade   = "trade"   // Trade
	askPlace   = "place"   // Place (also the setup's, with InitialPerTurn)
	askAttack  = "attack"  // Attack
	askOccupy  = "occupy"  // Occupy
	askFortify = "fortify" // Fortify
)

// prompt is a decision the game waits for, with what the rules allow, as
// the page reads it. Its pending placements and moves are the seat's
// answer so far (the page sends them one at a time; the engine gets them
// whole).
type prompt struct {
	ID    int    `json:"id"`
	Seat  int    `json:"seat"`
	Kind  string `json:"kind"`
	Round int    `json:"round"`
	Phase string `json:"phase"`
	// Hand is the seat's cards, [territory, symbol]; Mission its mission.
	Hand    [][2]int `json:"hand"`
	Mission string   `json:"mission,omitempty"`
	// Trade: Forced, and the sets the seat may trade.
	Forced bool       `json:"forced"`
	Sets   []tradeSet `json:"sets,omitempty"`
	// Place and setup: the armies to place in all, those left, the
	// placements so far ([territory, armies]) and where armies may go.
	Armies int      `json:"armies,omitempty"`
	Left   int      `json:"left,omitempty"`
	Placed [][2]int `json:"placed,omitempty"`
	Owned  []int    `json:"owned,omitempty"`
	// Attack: [from, to, most dice] of every legal attack.
	Attacks [][3]int `json:"attacks,omitempty"`
	// Occupy: the conquest and the allowed range.
	From int `json:"from"`
	To   int `json:"to"`
	Min  int `json:"min"`
	Max  int `json:"max"`
	// Fortify: the rule set's variant, [from, to, most armies] of every
	// move allowed now, and the moves so far (one-step only).
	Mode  string   `json:"mode,omitempty"`
	Moves [][3]int `json:"moves,omitempty"`
	Made  [][3]int `json:"made,omitempty"`

	st     *sim.State
	answer chan answer
	place  []sim.Placement
	moves  []sim.Move
}

// tradeSet is a set the seat may trade: indices into its hand, the armies
// it is worth and the territory of the bonus (-1 for none).
type tradeSet struct {
	Cards [3]int `json:"cards"`
	Value int    `json:"value"`
	Bonus int    `json:"bonus"`
}

// answer is a seat's whole answer to a prompt.
type answer struct {
	set   [3]int
	ok    bool
	t     int
	k     int
	order sim.AttackOrder
	place []sim.Placement
	moves []sim.Move
}

func (h *seat) Start(*sim.State, int, *rand.Rand) {}

// newPrompt is the prompt of kind for the seat, with its hand.
func (h *seat) newPrompt(st *sim.State, kind string) *prompt {
	p := &prompt{Seat: h.index, Kind: kind, Round: st.Round(), Phase: st.Phase().String(), st: st, Hand: [][2]int{}}
	for _, c := range st.Hand(nil) {
		p.Hand = append(p.Hand, [2]int{int(c.Territory), int(c.Symbol)})
	}
	if m := st.MyMission(); m != nil {
		p.Mission = m.Name
	}
	return p
}

func owned(st *sim.State, seat int) []int {
	var ts []int
	for t := range st.NumTerritories() {
		if st.Owner(t) == seat {
			ts = append(ts, t)
		}
	}
	return ts
}

func (h *seat) PlaceInitial(st *sim.State) int {
	if h.script.left() {
		return h.script.placeInitial()
	}
	p := h.newPrompt(st, askSetup)
	p.Armies, p.Left, p.Owned = 1, 1, owned(st, h.index)
	a, ok := h.s.ask(p)
	if !ok {
		return st.FirstOwned(h.index)
	}
	return a.t
}

func (h *seat) Trade(st *sim.State, forced bool) ([3]int, bool) {
	if h.script.left() {
		return h.script.trade(st)
	}
	p := h.newPrompt(st, askTrade)
	p.Forced = forced
	sets, _ := st.ValidTrades(h.index, nil)
	if len(sets) == 0 {
		return [3]int{}, false
	}
	hand := st.Hand(nil)
	for _, set := range sets {
		ts := tradeSet{Cards: set, Value: st.SetValue([3]uint8{hand[set[0]].Symbol, hand[set[1]].Symbol, hand[set[2]].Symbol}), Bonus: -1}
		if st.Rules().Cards.TerritoryBonus > 0 {
			for _, k := range set {
				if t := int(hand[k].Territory); t >= 0 && st.Owner(t) == h.index {
					ts.Bonus = t
					break
				}
			}
		}
		p.Sets = append(p.Sets, ts)
	}
	a, ok := h.s.ask(p)
	if !ok {
		return [3]int{}, false
	}
	return a.set, a.ok
}

func (h *seat) Place(st *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	if h.script.left() {
		return h.script.place(st, armies, buf)
	}
	p := h.newPrompt(st, askPlace)
	p.Armies, p.Left, p.Owned = armies, armies, owned(st, h.index)
	a, ok := h.s.ask(p)
	if !ok {
		return append(buf, sim.Placement{Territory: st.FirstOwned(h.index), Armies: armies})
	}
	return append(buf, a.place...)
}

func (h *seat) Attack(st *sim.State) (sim.AttackOrder, bool) {
	if h.script.left() {
		return h.script.attack()
	}
	p := h.newPrompt(st, askAttack)
	most := st.Rules().Attack.AttackerDice
	for _, o := range st.LegalAttacks(h.index, nil) {
		p.Attacks = append(p.Attacks, [3]int{o.From, o.To, min(most, st.Armies(o.From)-1)})
	}
	a, ok := h.s.ask(p)
	if !ok {
		return sim.AttackOrder{}, false
	}
	return a.order, a.ok
}

func (h *seat) Occupy(st *sim.State, from, to, lo, hi int) int {
	if h.script.left() {
		return h.script.occupy()
	}
	p := h.newPrompt(st, askOccupy)
	p.From, p.To, p.Min, p.Max = from, to, lo, hi
	a, ok := h.s.ask(p)
	if !ok {
		return lo
	}
	return a.k
}

func (h *seat) Fortify(st *sim.State, buf []sim.Move) []sim.Move {
	if h.script.left() {
		return h.script.fortify(buf)
	}
	p := h.newPrompt(st, askFortify)
	p.Mode = string(st.Rules().Fortify.Mode)
	p.fortifyMoves()
	a, ok := h.s.ask(p)
	if !ok {
		return buf
	}
	return append(buf, a.moves...)
}

// fortifyMoves sets the moves the seat may still make, each with the most
// armies it may move: under one-step, after the moves so far, the most the
// engine's CheckMoves accepts (so that the rule set's fortify.movable
// decides); under the other variants, where one move ends the phase, the
// engine's LegalFortifies.
func (p *prompt) fortifyMoves() {
	p.Moves = p.Moves[:0]
	p.Made = p.Made[:0]
	for _, x := range p.moves {
		p.Made = append(p.Made, [3]int{x.From, x.To, x.Armies})
	}
	st := p.st
	if st.Rules().Fortify.Mode != sim.FortifyOneStep {
		if len(p.moves) == 0 {
			for _, mv := range st.LegalFortifies(p.Seat, nil) {
				p.Moves = append(p.Moves, [3]int{mv.From, mv.To, mv.Armies})
			}
		}
		return
	}
	m := st.Map()
	list := append(slices.Clone(p.moves), sim.Move{})
	last := &list[len(list)-1]
	for t := range st.NumTerritories() {
		if st.Owner(t) != p.Seat {
			continue
		}
		hi := st.Armies(t) // no more than the territory held, plus what it received
		for _, x := range p.moves {
			if x.To == t {
				hi += x.Armies
			}
		}
		for _, u := range m.Territories[t].Neighbors {
			if st.Owner(u) != p.Seat {
				continue
			}
			*last = sim.Move{From: t, To: u, Armies: 1}
			if st.CheckMoves(p.Seat, list) != nil {
				continue
			}
			lo, top := 1, hi // the most legal count lies in [lo, top]
			for lo < top {
				mid := (lo + top + 1) / 2
				last.Armies = mid
				if st.CheckMoves(p.Seat, list) == nil {
					lo = mid
				} else {
					top = mid - 1
				}
			}
			p.Moves = append(p.Moves, [3]int{t, u, lo})
		}
	}
}

// action is a choice the page sends: what the person chose in reply to
// prompt Prompt.
type action struct {
	Prompt int `json:"prompt"`
	// Do is trade, no_trade, setup, place, undo, attack, end_attack,
	// occupy, move, end_fortify.
	Do        string `json:"do"`
	Set       []int  `json:"set"`
	Territory *int   `json:"territory"`
	Armies    *int   `json:"armies"`
	From      *int   `json:"from"`
	To        *int   `json:"to"`
	Dice      int    `json:"dice"`
	Repeat    bool   `json:"repeat"`
	StopAt    int    `json:"stop_at"`
}

// refusal is a choice the rules refuse, with the reason.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }

func refuse(format string, args ...any) error { return &refusal{fmt.Sprintf(format, args...)} }

// name is territory t's name, or its id out of range.
func (p *prompt) name(t int) string {
	m := p.st.Map()
	if t < 0 || t >= len(m.Territories) {
		return fmt.Sprintf("territory %d", t)
	}
	return m.Territories[t].Name
}

var territoryID = regexp.MustCompile(`territory (\d+)`)
var moveIDs = regexp.MustCompile(`^move \d+->\d+: `)

// named rewrites an engine's reason with territory names for ids.
func (p *prompt) named(err error) string {
	msg := moveIDs.ReplaceAllString(err.Error(), "")
	return territoryID.ReplaceAllStringFunc(msg, func(s string) string {
		t, _ := strconv.Atoi(strings.TrimPrefix(s, "territory "))
		return p.name(t)
	})
}

func armiesWord(k int) string {
	if k == 1 {
		return "1 army"
	}
	return fmt.Sprintf("%d armies", k)
}

// apply checks a against the prompt with the engine's checks. It returns
// the whole answer and true when the decision is complete, false when a
// part of it (a placement, a one-step move, an undo) was recorded; a
// refusal leaves the prompt as it was.
func (p *prompt) apply(a *action) (answer, bool, error) {
	st, seat := p.st, p.Seat
	need := func(v *int, what string) (int, error) {
		if v == nil {
			return 0, refuse("%s: %s missing", a.Do, what)
		}
		return *v, nil
	}
	wrong := func() error { return refuse("%s: the game asks for a %s decision now", a.Do, p.Kind) }
	switch a.Do {
	case "trade":
		if p.Kind != askTrade {
			return answer{}, false, wrong()
		}
		if len(a.Set) != 3 {
			return answer{}, false, refuse("trade: %d cards: a set is 3", len(a.Set))
		}
		set := [3]int{a.Set[0], a.Set[1], a.Set[2]}
		if err := st.CheckTrade(seat, set); err != nil {
			return answer{}, false, refuse("trade cards %d, %d, %d: %v", set[0], set[1], set[2], err)
		}
		return answer{set: set, ok: true}, true, nil
	case "no_trade":
		if p.Kind != askTrade {
			return answer{}, false, wrong()
		}
		if p.Forced {
			return answer{}, false, refuse("no trade: you hold %d cards, and the rules force a trade at %d", len(p.Hand), st.Rules().Cards.ForcedTradeAt)
		}
		return answer{}, true, nil
	case "setup":
		if p.Kind != askSetup {
			return answer{}, false, wrong()
		}
		t, err := need(a.Territory, "territory")
		if err != nil {
			return answer{}, false, err
		}
		if err := st.CheckPlacement(seat, 1, []sim.Placement{{Territory: t, Armies: 1}}); err != nil {
			return answer{}, false, refuse("place a starting army on %s: %s", p.name(t), p.placeReason(t, err))
		}
		return answer{t: t}, true, nil
	case "place":
		if p.Kind != askPlace {
			return answer{}, false, wrong()
		}
		t, err := need(a.Territory, "territory")
		if err != nil {
			return answer{}, false, err
		}
		k, err := need(a.Armies, "armies")
		if err != nil {
			return answer{}, false, err
		}
		if k < 1 || k > p.Left {
			return answer{}, false, refuse("place %s on %s: %s left to place: 1..%d", armiesWord(k), p.name(t), armiesWord(p.Left), p.Left)
		}
		if err := st.CheckPlacement(seat, k, []sim.Placement{{Territory: t, Armies: k}}); err != nil {
			return answer{}, false, refuse("place %s on %s: %s", armiesWord(k), p.name(t), p.placeReason(t, err))
		}
		list := append(slices.Clone(p.place), sim.Placement{Territory: t, Armies: k})
		if p.Left > k {
			p.place, p.Left = list, p.Left-k
			p.Placed = append(p.Placed, [2]int{t, k})
			return answer{}, false, nil
		}
		if err := st.CheckPlacement(seat, p.Armies, list); err != nil {
			return answer{}, false, refuse("place: %s", p.named(err))
		}
		return answer{place: list}, true, nil
	case "undo":
		switch p.Kind {
		case askPlace:
			p.place, p.Placed, p.Left = nil, nil, p.Armies
		case askFortify:
			p.moves = nil
			p.fortifyMoves()
		default:
			return answer{}, false, wrong()
		}
		return answer{}, false, nil
	case "attack":
		if p.Kind != askAttack {
			return answer{}, false, wrong()
		}
		from, err := need(a.From, "from")
		if err != nil {
			return answer{}, false, err
		}
		to, err := need(a.To, "to")
		if err != nil {
			return answer{}, false, err
		}
		o := sim.AttackOrder{From: from, To: to, Dice: a.Dice, Repeat: a.Repeat, StopAt: a.StopAt}
		if err := st.CheckAttack(seat, o); err != nil {
			return answer{}, false, refuse("attack from %s to %s: %s", p.name(from), p.name(to), p.attackReason(o, err))
		}
		return answer{order: o, ok: true}, true, nil
	case "end_attack":
		if p.Kind != askAttack {
			return answer{}, false, wrong()
		}
		return answer{}, true, nil
	case "occupy":
		if p.Kind != askOccupy {
			return answer{}, false, wrong()
		}
		k, err := need(a.Armies, "armies")
		if err != nil {
			return answer{}, false, err
		}
		if err := sim.CheckOccupy(p.Min, p.Max, k); err != nil {
			return answer{}, false, refuse("move %s from %s into %s: must be %d..%d", armiesWord(k), p.name(p.From), p.name(p.To), p.Min, p.Max)
		}
		return answer{k: k}, true, nil
	case "move":
		if p.Kind != askFortify {
			return answer{}, false, wrong()
		}
		from, err := need(a.From, "from")
		if err != nil {
			return answer{}, false, err
		}
		to, err := need(a.To, "to")
		if err != nil {
			return answer{}, false, err
		}
		k, err := need(a.Armies, "armies")
		if err != nil {
			return answer{}, false, err
		}
		list := append(slices.Clone(p.moves), sim.Move{From: from, To: to, Armies: k})
		if err := st.CheckMoves(seat, list); err != nil {
			return answer{}, false, refuse("move %s from %s to %s (fortify %s): %s", armiesWord(k), p.name(from), p.name(to), p.Mode, p.named(err))
		}
		if st.Rules().Fortify.Mode != sim.FortifyOneStep {
			return answer{moves: list}, true, nil
		}
		p.moves = list
		p.fortifyMoves()
		return answer{}, false, nil
	case "end_fortify":
		if p.Kind != askFortify {
			return answer{}, false, wrong()
		}
		return answer{moves: p.moves}, true, nil
	}
	return answer{}, false, refuse("unknown choice %q: want trade, no_trade, setup, place, undo, attack, end_attack, occupy, move or end_fortify", a.Do)
}

// placeReason says why armies may not go on t.
func (p *prompt) placeReason(t int, err error) string {
	st := p.st
	if t < 0 || t >= st.NumTerritories() {
		return fmt.Sprintf("the map has territories 0..%d", st.NumTerritories()-1)
	}
	if st.Owner(t) != p.Seat {
		return fmt.Sprintf("%s is seat %d's, not yours", p.name(t), st.Owner(t))
	}
	return p.named(err)
}

// attackReason words the engine's refusal of o with the names and armies
// of the territories; the engine's check (err) decided.
func (p *prompt) attackReason(o sim.AttackOrder, err error) string {
	st := p.st
	nt := st.NumTerritories()
	if o.From < 0 || o.From >= nt || o.To < 0 || o.To >= nt {
		return fmt.Sprintf("the map has territories 0..%d", nt-1)
	}
	from, to := p.name(o.From), p.name(o.To)
	most := min(st.Rules().Attack.AttackerDice, st.Armies(o.From)-1)
	switch {
	case st.Owner(o.From) != p.Seat:
		return fmt.Sprintf("%s is seat %d's, not yours", from, st.Owner(o.From))
	case st.Owner(o.To) == p.Seat:
		return fmt.Sprintf("%s is yours", to)
	case !st.Map().Adjacent(o.From, o.To):
		return fmt.Sprintf("%s does not border %s", from, to)
	case st.Armies(o.From) < 2:
		return fmt.Sprintf("%s has %s; an attack needs at least 2", from, armiesWord(st.Armies(o.From)))
	case o.Dice < 0 || o.Dice > most:
		return fmt.Sprintf("%d dice: %s may roll 1..%d (0 for the most)", o.Dice, from, most)
	case o.StopAt < 0:
		return fmt.Sprintf("stop at %d: must be 0 or more", o.StopAt)
	}
	return p.named(err)
}
