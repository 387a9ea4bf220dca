package sim

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watcher is greedy with both hooks: it records the events it is shown
// and the result it is given, and panics in Watch at event panicAt (0:
// never) or in End if panicEnd.
type watcher struct {
	greedy
	seen     []Event
	panicAt  int
	panicEnd bool
	ended    []Result
	endSeat  int
	started  int
}

func (w *watcher) Start(s *State, seat int, rng *rand.Rand) {
	w.started++
	w.greedy.Start(s, seat, rng)
}

func (w *watcher) Watch(e *Event) {
	w.seen = append(w.seen, *e)
	if len(w.seen) == w.panicAt {
		panic("watch")
	}
	// A Watcher that changes its copy changes nothing for the others.
	e.Cards[0] = Card{Territory: 0, Symbol: Wild}
	e.Player = 99
}

func (w *watcher) End(s *State, res Result) {
	w.endSeat = s.Seat()
	w.ended = append(w.ended, res)
	res.Placement[0] = 42 // its own copy
	if w.panicEnd {
		panic("end")
	}
}

// recorder is an observer that keeps a copy of every event.
type recorder struct{ events []Event }

func (r *recorder) Observe(e *Event) { r.events = append(r.events, *e) }

// playHooked plays one game of 3 seats, seat 0 being w (or greedy if w is
// nil), and returns the result and every event.
func playHooked(t *testing.T, r *Rules, w *watcher, seed uint64) (Result, []Event) {
	t.Helper()
	g, err := NewGame(ringMap(3, 4), r, 3)
	require.NoError(t, err)
	rec := new(recorder)
	g.Observe(rec)
	var p0 Player = new(greedy)
	if w != nil {
		p0 = w
	}
	res, err := g.Play([]Player{p0, new(greedy), new(greedy)}, seed, 0)
	require.NoError(t, err)
	return res, rec.events
}

// TestWatcherHidesOthersCards: a Watcher is shown every event, with the
// cards of the others' trades and draws hidden (their count is not), its
// own visible; under [info] open it is shown everything. The hooks change
// nothing in the game.
func TestWatcherHidesOthersCards(t *testing.T) {
	t.Parallel()
	for _, open := range []bool{false, true} {
		r := testRules(FortifyConnected)
		r.Info.Open = open
		plainRes, plain := playHooked(t, r, nil, 7)
		w := new(watcher)
		res, all := playHooked(t, r, w, 7)
		require.Equal(t, plainRes, res, "a Watcher and Ender changes the game")
		require.Equal(t, plain, all, "a Watcher and Ender changes the events")
		require.Len(t, w.seen, len(all))
		hidden, own := 0, 0
		for i, e := range all {
			got := w.seen[i]
			cards := 0
			switch e.Kind {
			case EvTrade:
				cards = 3
			case EvCard:
				cards = 1
			}
			if cards > 0 && e.Player != 0 && !open {
				hidden++
				for k := 0; k < cards; k++ {
					assert.Equal(t, Card{Territory: -1, Symbol: Unknown}, got.Cards[k], "event %d", i)
				}
				got.Cards = e.Cards
			} else if cards > 0 {
				own++
			}
			assert.Equal(t, e, got, "event %d", i)
		}
		if !open {
			assert.Positive(t, hidden, "no card of another seat was hidden")
		}
		assert.Positive(t, own, "no card was shown")
		require.Len(t, w.ended, 1)
		assert.Equal(t, 0, w.endSeat)
		assert.Equal(t, res.Winner, w.ended[0].Winner)
		assert.NotEqual(t, 42, res.Placement[0], "an Ender changed the result")
	}
}

// TestHookPanics: a panic in Watch or End is a fault, and the player passes
// for the rest of the game (is shown no more events); the game goes on.
func TestHookPanics(t *testing.T) {
	t.Parallel()
	r := testRules(FortifySingle)
	w := &watcher{panicAt: 50}
	res, events := playHooked(t, r, w, 3)
	assert.Len(t, w.seen, 50, "a Watcher that panicked is shown more events")
	assert.Equal(t, 1, res.Faults[0])
	assert.Empty(t, w.ended, "a broken player's End was called")
	fault := events[50]
	assert.Equal(t, EvFault, fault.Kind)
	assert.Equal(t, 0, fault.Player)
	assert.Equal(t, "watch: panic: watch", fault.Text)
	assert.Equal(t, EvGameEnd, events[len(events)-1].Kind)

	// A panic at the deal (before Start): the player is never started.
	w = &watcher{panicAt: 2}
	res, _ = playHooked(t, r, w, 3)
	assert.Zero(t, w.started)
	assert.Equal(t, 1, res.Faults[0])
	assert.Len(t, w.seen, 2)

	w = &watcher{panicEnd: true}
	res, events = playHooked(t, r, w, 3)
	assert.Equal(t, 1, res.Faults[0])
	require.GreaterOrEqual(t, len(events), 2)
	last := events[len(events)-2]
	assert.Equal(t, EvFault, last.Kind)
	assert.Equal(t, "end: panic: end", last.Text)
	assert.Equal(t, EvGameEnd, events[len(events)-1].Kind)
}

// TestDecisionEvents: every attack order is logged with its dice, repeat
// flag and stop level before its first roll; every attack phase that a
// player ends and every fortify phase it answers is logged as end_phase.
func TestDecisionEvents(t *testing.T) {
	t.Parallel()
	r := testRules(FortifyOneStep)
	res, events := playHooked(t, r, nil, 11)
	orders, ends := 0, map[Phase]int{}
	turns := 0
	for i, e := range events {
		switch e.Kind {
		case EvTurn:
			turns++
		case EvAttackOrder:
			orders++
			require.Less(t, i+1, len(events))
			next := events[i+1]
			assert.Equal(t, EvRoll, next.Kind, "event after an attack order")
			assert.Equal(t, [2]int{e.From, e.To}, [2]int{next.From, next.To})
			assert.Equal(t, next.Other, e.Other)
			assert.True(t, e.Repeat, "greedy repeats")
			assert.Zero(t, e.Dice)
		case EvEndPhase:
			ends[e.Phase]++
		case EvRoll:
			prev := events[i-1]
			assert.Contains(t, []EventKind{EvAttackOrder, EvRoll}, prev.Kind, "event %d before a roll", i)
		}
	}
	assert.Positive(t, orders)
	// greedy ends every attack phase itself and answers every fortify
	// phase, except in the turn that wins.
	last := 1
	if res.Stalemate {
		last = 0
	}
	assert.Equal(t, turns-last, ends[PhaseAttack])
	assert.Equal(t, turns-last, ends[PhaseFortify])
	assert.Len(t, ends, 2)
}

// TestDecisionEventJSON: the keys that the decision events write.
func TestDecisionEventJSON(t *testing.T) {
	t.Parallel()
	e := Event{Kind: EvAttackOrder, Round: 3, Phase: PhaseAttack, Player: 1, Other: 2, From: 4, To: 5, Dice: 2, Repeat: true, StopAt: 3}
	assert.Equal(t, `{"e":"attack_order","round":3,"phase":"attack","player":1,"other":2,"from":4,"to":5,"dice":2,"repeat":true,"stop_at":3}`,
		string(e.AppendJSON(nil)))
	e = Event{Kind: EvEndPhase, Round: 2, Phase: PhaseFortify, Player: 0, Other: -1, From: -1, To: -1}
	assert.Equal(t, `{"e":"end_phase","round":2,"phase":"fortify","player":0}`, string(e.AppendJSON(nil)))
	for k := EventKind(0); k < NumEventKinds; k++ {
		got, ok := parseEventKind(k.String())
		assert.True(t, ok, k.String())
		assert.Equal(t, k, got)
		assert.False(t, strings.Contains(k.String(), "unknown"))
	}
}

// TestInfoOpenKey: [info] open is an optional key of the rules (false by
// default); a rules file that sets it opens every hand to every seat.
func TestInfoOpenKey(t *testing.T) {
	t.Parallel()
	_, raw, err := RulesSource("classic")
	require.NoError(t, err)
	data := string(raw)
	r, err := ParseRules("closed.toml", []byte(data))
	require.NoError(t, err)
	assert.False(t, r.Info.Open)
	r, err = ParseRules("open.toml", []byte(data+"\n[info]\nopen = true\n"))
	require.NoError(t, err)
	assert.True(t, r.Info.Open)
	assert.True(t, equalRules(r, r.Clone()), "a clone keeps the key")
	closed := r.Clone()
	closed.Info.Open = false
	assert.False(t, equalRules(r, closed), "equalRules compares the key")
	_, err = ParseRules("bad.toml", []byte(data+"\n[info]\nopen = 1\n"))
	assert.ErrorContains(t, err, "bad.toml")
	_, err = ParseRules("bad.toml", []byte(data+"\n[info]\nshown = true\n"))
	assert.ErrorContains(t, err, `bad.toml:47: unknown key "info.shown" (allowed: open)`)
}
