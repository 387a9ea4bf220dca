package human

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Bot is the registry name of the human seat: a seat list that names it
// (marslab play -players human,mars@paper,...) seats a person at the
// browser, and a log's seat with this bot is replayed from its logged
// decisions (ReplayPlayers).
const Bot = "human"

// script is a seat's decisions as the events of a game log record them,
// in order: its setup placements (when the players place their starting
// armies), trades, placements, attack orders and the ends of its attack
// and fortify phases, move-ins and fortification moves. Every answer of a
// human seat is one of these, so that a log replays the seat's answers
// from its own events: a declined trade leaves no event, and is read as
// such when the seat's next decision is not a trade.
type script struct {
	seat   int
	events []sim.Event
	next   int
}

// decisionKind reports whether an event of kind k is (part of) a seat's
// answer; setupByPlayers says whether the rules let the players place
// their starting armies (otherwise the engine does, and setup_place
// events are not answers).
func decisionKind(k sim.EventKind, setupByPlayers bool) bool {
	switch k {
	case sim.EvTrade, sim.EvPlace, sim.EvAttackOrder, sim.EvEndPhase, sim.EvOccupation, sim.EvMove:
		return true
	case sim.EvSetupPlace:
		return setupByPlayers
	}
	return false
}

// readScripts reads a game log and returns the scripts of the seats for
// which want is true (nil for the others), the log's game event lines
// (explanations aside) and whether the log has its result line (the game
// ended). A log without its result line is a game saved before its end;
// any other fault of the log is an error. A fault of a wanted seat is an
// error too: its illegal answer is not in the log.
func readScripts(log io.Reader, want func(seat int) bool) (h sim.LogHeader, scripts []*script, lines [][]byte, ended bool, err error) {
	lc := &lineCounter{r: log}
	lr, err := sim.NewLogReader(lc)
	if err != nil {
		return h, nil, nil, false, err
	}
	h = lr.Header()
	r, err := sim.ParseRules("line 1 (header): rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return h, nil, nil, false, err
	}
	byPlayers := r.Setup.InitialArmies == sim.InitialBots
	scripts = make([]*script, len(h.Seats))
	for i := range scripts {
		if want(i) {
			scripts[i] = &script{seat: i}
		}
	}
	read := 1 // lines read: the header and every event line
	for lr.Next() {
		read++
		e := lr.Event()
		if e.Kind == sim.EvExplain {
			continue
		}
		lines = append(lines, slices.Clone(lr.Raw()))
		if e.Player < 0 || e.Player >= len(scripts) || scripts[e.Player] == nil {
			continue
		}
		if e.Kind == sim.EvFault {
			return h, nil, nil, false, fmt.Errorf("line %d: seat %d (%s) faulted (%s): a human seat's illegal answer cannot be replayed",
				lr.Line(), e.Player, h.Seats[e.Player].Label, e.Text)
		}
		if decisionKind(e.Kind, byPlayers) {
			scripts[e.Player].events = append(scripts[e.Player].events, *e)
		}
	}
	if _, err := lr.Result(); err == nil {
		return h, scripts, lines, true, nil
	} else if read != lc.lines() {
		return h, nil, nil, false, err // a line that is not an event
	}
	return h, scripts, lines, false, nil
}

// lineCounter counts the lines of what is read through it.
type lineCounter struct {
	r        io.Reader
	newlines int
	last     byte
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.newlines += bytes.Count(p[:n], []byte{'\n'})
		c.last = p[n-1]
	}
	return n, err
}

// lines is the number of lines read, a last one without its newline
// counted.
func (c *lineCounter) lines() int {
	if c.last != '\n' && c.last != 0 {
		return c.newlines + 1
	}
	return c.newlines
}

// left reports whether the script has decisions left.
func (s *script) left() bool { return s != nil && s.next < len(s.events) }

// peek returns the next decision event, or nil.
func (s *script) peek() *sim.Event {
	if !s.left() {
		return nil
	}
	return &s.events[s.next]
}

// take returns the next decision event, which must be of kind k; the
// engine records a panic as a fault, which a replay then reports as the
// line that differs.
func (s *script) take(k sim.EventKind) *sim.Event {
	e := s.peek()
	if e == nil {
		panic(fmt.Sprintf("human seat %d: the log has no more decisions (want %v)", s.seat, k))
	}
	if e.Kind != k {
		panic(fmt.Sprintf("human seat %d: the log's next decision is %v (round %d), the game asks for %v", s.seat, e.Kind, e.Round, k))
	}
	s.next++
	return e
}

func (s *script) placeInitial() int { return s.take(sim.EvSetupPlace).To }

// trade answers with the logged set when the seat's next decision is a
// trade, and declines otherwise.
func (s *script) trade(st *sim.State) ([3]int, bool) {
	e := s.peek()
	if e == nil || e.Kind != sim.EvTrade {
		return [3]int{}, false
	}
	s.next++
	hand := st.Hand(nil)
	var set [3]int
	used := make([]bool, len(hand))
	for i, c := range e.Cards {
		k := slices.IndexFunc(hand, func(h sim.Card) bool { return h == c })
		for k >= 0 && used[k] {
			n := slices.IndexFunc(hand[k+1:], func(h sim.Card) bool { return h == c })
			if n < 0 {
				k = -1
				break
			}
			k += 1 + n
		}
		if k < 0 {
			panic(fmt.Sprintf("human seat %d: the logged trade's card %v is not in the hand", s.seat, c))
		}
		used[k] = true
		set[i] = k
	}
	return set, true
}

// place answers with the next logged placements (setup_place events in the
// setup, one an army) that add up to armies, one placement an event: the
// engine writes one event a placement, so the replay writes the same.
func (s *script) place(st *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	k := sim.EvPlace
	if st.Phase() == sim.PhaseSetup {
		k = sim.EvSetupPlace
	}
	for sum := 0; sum < armies; {
		e := s.take(k)
		buf = append(buf, sim.Placement{Territory: e.To, Armies: e.Armies})
		sum += e.Armies
	}
	return buf
}

func (s *script) attack() (sim.AttackOrder, bool) {
	e := s.peek()
	if e != nil && e.Kind == sim.EvEndPhase {
		s.next++
		return sim.AttackOrder{}, false
	}
	e = s.take(sim.EvAttackOrder)
	return sim.AttackOrder{From: e.From, To: e.To, Dice: e.Dice, Repeat: e.Repeat, StopAt: e.StopAt}, true
}

func (s *script) occupy() int { return s.take(sim.EvOccupation).Armies }

func (s *script) fortify(buf []sim.Move) []sim.Move {
	for {
		e := s.peek()
		if e != nil && e.Kind == sim.EvEndPhase {
			s.next++
			return buf
		}
		e = s.take(sim.EvMove)
		buf = append(buf, sim.Move{From: e.From, To: e.To, Armies: e.Armies})
	}
}

// replayer is a sim.Player that answers from its seat's script.
type replayer struct{ s *script }

func (r *replayer) Start(*sim.State, int, *rand.Rand) {}
func (r *replayer) PlaceInitial(*sim.State) int       { return r.s.placeInitial() }
func (r *replayer) Trade(st *sim.State, _ bool) ([3]int, bool) {
	return r.s.trade(st)
}
func (r *replayer) Place(st *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	return r.s.place(st, armies, buf)
}
func (r *replayer) Attack(*sim.State) (sim.AttackOrder, bool)       { return r.s.attack() }
func (r *replayer) Occupy(_ *sim.State, _, _, _, _ int) int         { return r.s.occupy() }
func (r *replayer) Fortify(_ *sim.State, buf []sim.Move) []sim.Move { return r.s.fortify(buf) }

// ReplayPlayers returns the players function of sim.Replay and view.Write
// for a log that may seat people: the bots of reg for the bots' seats
// and, for every seat of bot Bot, a player that answers what the log
// records that seat answered (its trades, placements, attack orders,
// move-ins, fortifications and ends of phases). reopen opens the log
// again from its start: it is called only when the header seats a
// person, so a log of bots alone is read once.
func ReplayPlayers(reg *bots.Registry, reopen func() (io.ReadCloser, error)) func(sim.LogHeader) ([]sim.Player, error) {
	return func(h sim.LogHeader) ([]sim.Player, error) {
		human := func(i int) bool { return h.Seats[i].Bot == Bot }
		if !slices.ContainsFunc(h.Seats, func(s sim.LogSeat) bool { return s.Bot == Bot }) {
			return reg.ReplayPlayers(h)
		}
		rc, err := reopen()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		_, scripts, _, _, err := readScripts(rc, human)
		if err != nil {
			return nil, err
		}
		return seatPlayers(reg, h, func(i int) sim.Player { return &replayer{s: scripts[i]} })
	}
}

// seatPlayers builds a player per seat of h: reg's bots, and human(i) at
// the seats of bot Bot.
func seatPlayers(reg *bots.Registry, h sim.LogHeader, human func(i int) sim.Player) ([]sim.Player, error) {
	ps := make([]sim.Player, len(h.Seats))
	for i, st := range h.Seats {
		if st.Bot == Bot {
			ps[i] = human(i)
			continue
		}
		fac, ok := reg.Lookup(st.Bot)
		if !ok {
			return nil, fmt.Errorf("seat %d: unknown bot %q", i, st.Bot)
		}
		p, err := bots.Seat{Factory: fac, Params: st.Params, Label: st.Label}.New()
		if err != nil {
			return nil, fmt.Errorf("seat %d (%s): %w", i, st.Label, err)
		}
		ps[i] = p
	}
	return ps, nil
}

// errNoHuman is the error of a resume whose log seats no person.
var errNoHuman = errors.New("the log seats no human (bot " + Bot + ")")

// Registry returns a registry with the bots of reg and the human seat
// (bot Bot), for the seat lists of marslab play. Its factory makes players
// that Play replaces: a human seat is played only through Play.
func Registry(reg *bots.Registry) (*bots.Registry, error) {
	out := bots.NewRegistry()
	for _, name := range reg.Names() {
		f, _ := reg.Lookup(name)
		if err := out.Register(*f); err != nil {
			return nil, err
		}
	}
	err := out.Register(bots.Factory{Name: Bot, Doc: "a person, at the page marslab play serves",
		New: func(bots.Values) (sim.Player, error) { return &sim.BasePlayer{}, nil }})
	if err != nil {
		return nil, err
	}
	return out, nil
}
