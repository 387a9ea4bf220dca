package human

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/browsertest"
	"github.com/marslab-risk/marslab/sim"
)

// bench serves the page of a 3-seat game on rules with seat 0 human, whose
// decisions a test asks on positions of its own (position, positionOf):
// the server and the page as in a game, without the game.
type bench struct {
	*game
	seat *seat
}

func newBench(t *testing.T, rules string) *bench {
	t.Helper()
	cfg := newConfig(t, rules, "human,pixie,pixie", 1, filepath.Join(t.TempDir(), "g.jsonl"))
	s := &session{}
	require.NoError(t, s.init(&cfg, func(i int) bool { return i == 0 }))
	ctx, cancel := context.WithCancel(context.Background())
	s.ctx = ctx
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	sv := &server{s: s, token: "0123456789abcdef", addr: ln.Addr().(*net.TCPAddr)}
	require.NoError(t, sv.buildPage(&cfg))
	hs := &http.Server{Handler: sv}
	go hs.Serve(ln)
	t.Cleanup(func() {
		cancel()
		s.close()
		hs.Close()
	})
	return &bench{game: &game{t: t, url: "http://" + ln.Addr().String(), token: sv.token}, seat: &seat{s: s, index: 0}}
}

// decide runs a decision of the seat in the background; its answer comes
// on the channel.
func decide[T any](f func() T) <-chan T {
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	return ch
}

// prompted waits for a decision of the seat numbered past after.
func (b *bench) prompted(after int) *prompt {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if r := b.state(0, 0, false); r.Prompt != nil && r.Prompt.ID > after {
			return r.Prompt
		}
		require.True(b.t, time.Now().Before(deadline), "no decision asked")
		time.Sleep(5 * time.Millisecond)
	}
}

func answerOf[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatal("the seat got no answer")
		panic("unreachable")
	}
}

// TestTradeDecision: a seat holding a set is asked to trade with the sets
// the engine allows (ValidTrades) and their worth; a forced trade refuses
// "no trade" with its reason, an optional one takes it; a hand without a
// set is not asked.
func TestTradeDecision(t *testing.T) {
	t.Parallel()
	b := newBench(t, "classic")
	// Before the game's first event the events are an empty list.
	code, body := b.request(http.MethodGet, "/api/state?since=0", nil, nil)
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, string(body), `"events":[]`)
	st := position(t, "classic", sim.PhaseTrade)
	sets, _ := st.ValidTrades(0, nil)
	require.NotEmpty(t, sets)
	type traded struct {
		set [3]int
		ok  bool
	}
	last := 0
	for _, forced := range []bool{true, false} {
		ch := decide(func() traded { s, ok := b.seat.Trade(st, forced); return traded{s, ok} })
		p := b.prompted(last)
		last = p.ID
		require.Equal(t, askTrade, p.Kind)
		assert.Equal(t, forced, p.Forced)
		assert.Equal(t, [][2]int{{0, 0}, {3, 0}, {1, 1}, {4, 1}, {7, 1}}, p.Hand)
		require.Len(t, p.Sets, len(sets))
		hand := st.Hand(nil)
		for i, set := range sets {
			assert.Equal(t, set, p.Sets[i].Cards)
			assert.Equal(t, st.SetValue([3]uint8{hand[set[0]].Symbol, hand[set[1]].Symbol, hand[set[2]].Symbol}), p.Sets[i].Value)
			bonus := -1
			for _, k := range set {
				if tt := int(hand[k].Territory); bonus < 0 && st.Owner(tt) == 0 {
					bonus = tt
				}
			}
			assert.Equal(t, bonus, p.Sets[i].Bonus, "the territory of the bonus")
		}
		if forced {
			code, msg := b.act(map[string]any{"prompt": p.ID, "do": "no_trade"})
			assert.Equal(t, http.StatusUnprocessableEntity, code)
			assert.Equal(t, "no trade: you hold 5 cards, and the rules force a trade at 5", msg)
			code, msg = b.act(map[string]any{"prompt": p.ID, "do": "trade", "set": []int{0, 1, 2}})
			assert.Equal(t, http.StatusUnprocessableEntity, code)
			assert.Equal(t, "trade cards 0, 1, 2: cards do not form a set", msg)
			code, msg = b.act(map[string]any{"prompt": p.ID, "do": "trade", "set": p.Sets[0].Cards})
			require.Equal(t, http.StatusOK, code, msg)
			assert.Equal(t, traded{sets[0], true}, answerOf(t, ch))
		} else {
			code, msg := b.act(map[string]any{"prompt": p.ID, "do": "no_trade"})
			require.Equal(t, http.StatusOK, code, msg)
			assert.Equal(t, traded{}, answerOf(t, ch))
		}
	}
	// No set in the hand: no question.
	st = positionHand(t, "classic", sim.PhaseTrade, func(t int) (int, int) { return t % 3, 1 + t%4 }, []int{0, 1})
	set, ok := b.seat.Trade(st, false)
	assert.False(t, ok)
	assert.Equal(t, [3]int{}, set)
	assert.Nil(t, b.state(0, 0, false).Prompt)
}

// TestPanelsInBrowser clicks through every kind of decision panel of the
// page in headless Chromium, on positions of the test's own: an optional
// and a forced trade, a placement in two parts, an attack of one roll with
// fewer dice than the most, a move-in of less than the most, and under
// one-step two fortification moves, an undo and the end of the turn. The
// seat must get exactly what was clicked.
func TestPanelsInBrowser(t *testing.T) {
	bctx := browsertest.Start(t)
	b := newBench(t, "mars2006")
	ctx, scriptErrors := browsertest.Open(t, bctx, b.url+"/?token="+b.token, time.Minute)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...), what)
	}
	click := func(sel string) {
		t.Helper()
		run("clicking "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	}
	set := func(sel, v string) {
		t.Helper()
		run("setting "+sel, chromedp.SetValue(chromedp.CSS(sel), v))
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ""`))
		require.NoError(t, err)
		return v
	}
	// shown waits until the page shows decision id.
	shown := func(id int) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`window.marslabPlay && marslabPlay.prompt() && marslabPlay.prompt().id === `+strconv.Itoa(id), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("the page does not show decision %d (%v): panel %q %q, message %q, script errors %q, state %s", id, err, text("#act-title"), text("#act-body"), text("#msg"), scriptErrors(), text("#state"))
		}
		run("decision "+strconv.Itoa(id), chromedp.Poll[chromedp.Void](`window.marslabPlay && marslabPlay.prompt() && marslabPlay.prompt().id === `+strconv.Itoa(id)))
	}
	name := func(st *sim.State, t int) string { return st.Map().Territories[t].Name }
	last := 0
	// next waits for the seat's next decision.
	next := func() *prompt {
		t.Helper()
		p := b.prompted(last)
		last = p.ID
		return p
	}

	// Trades: the optional one offers "don't trade"; the forced one does
	// not. Seat 0 holds three infantry of its own territories and two
	// cavalry: one set, with the territory bonus.
	st := positionHand(t, "mars2006", sim.PhaseTrade, func(t int) (int, int) { return t % 3, 1 + t%4 }, []int{0, 3, 6, 1, 4})
	type traded struct {
		set [3]int
		ok  bool
	}
	ch := decide(func() traded { s, ok := b.seat.Trade(st, false); return traded{s, ok} })
	shown(next().ID)
	assert.Equal(t, "seat 0 (human): trade cards", text("#act-title"))
	assert.Contains(t, text("#no-trade"), "don't trade")
	assert.Equal(t, "trade "+name(st, 0)+" infantry + "+name(st, 3)+" infantry + "+name(st, 6)+" infantry for 5 (+2 on "+name(st, 0)+")", text("#trade-0"))
	assert.Contains(t, text("#act-body"), "cards of seat 0 (human): "+name(st, 0)+" infantry, ")
	click("#trade-0")
	sets, _ := st.ValidTrades(0, nil)
	assert.Equal(t, traded{sets[0], true}, answerOf(t, ch))
	ch = decide(func() traded { s, ok := b.seat.Trade(st, true); return traded{s, ok} })
	shown(next().ID)
	assert.Equal(t, "seat 0 (human): trade cards (you must)", text("#act-title"))
	assert.Empty(t, text("#no-trade"), "no way out of a forced trade")
	click("#trade-0")
	assert.Equal(t, traded{sets[0], true}, answerOf(t, ch))

	// A placement in two parts: 2 armies, then the 3 left.
	st = position(t, "mars2006", sim.PhasePlace)
	places := decide(func() []sim.Placement { return b.seat.Place(st, 5, nil) })
	p := next()
	shown(p.ID)
	click("#t0")
	set("#n", "2")
	click("#do")
	p = next()
	require.Equal(t, 3, p.Left)
	shown(p.ID)
	assert.Contains(t, text("#act-body"), "placed 2 on "+name(st, 0))
	click("#t3")
	click("#do")
	assert.Equal(t, []sim.Placement{{Territory: 0, Armies: 2}, {Territory: 3, Armies: 3}}, answerOf(t, places))

	// An attack of one roll with 1 die, from a territory that may roll more.
	st = position(t, "mars2006", sim.PhaseAttack)
	strong := [2]int{-1, -1} // a territory of seat 0 that may roll 2 dice or more, and an enemy neighbour
	for x := range st.NumTerritories() {
		for _, u := range st.Map().Territories[x].Neighbors {
			if st.Owner(x) == 0 && st.Armies(x) >= 3 && st.Owner(u) != 0 {
				strong = [2]int{x, u}
			}
		}
	}
	require.GreaterOrEqual(t, strong[0], 0)
	type attacked struct {
		o  sim.AttackOrder
		ok bool
	}
	attacks := decide(func() attacked { o, ok := b.seat.Attack(st); return attacked{o, ok} })
	shown(next().ID)
	click("#t" + strconv.Itoa(strong[0]))
	click("#t" + strconv.Itoa(strong[1]))
	dice, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#dice option")].map((o) => o.value).join(",")`))
	require.NoError(t, err)
	most := min(3, st.Armies(strong[0])-1)
	want := ""
	for k := most; k >= 1; k-- {
		if want != "" {
			want += ","
		}
		want += strconv.Itoa(k)
	}
	assert.Equal(t, want, dice, "the dice the rules allow, the most first")
	set("#dice", "1")
	set("#mode", "once")
	click("#do")
	assert.Equal(t, attacked{sim.AttackOrder{From: strong[0], To: strong[1], Dice: 1}, true}, answerOf(t, attacks))

	// A move-in of 3 in the range 2..4.
	moved := decide(func() int { return b.seat.Occupy(st, strong[0], strong[1], 2, 4) })
	shown(next().ID)
	assert.Contains(t, text("#act-body"), "(2..4)")
	set("#n", "3")
	click("#do")
	assert.Equal(t, 3, answerOf(t, moved))

	// One-step fortification: a move, undone, then two moves and the end.
	st = position(t, "mars2006", sim.PhaseFortify)
	_, _, _, near := pairs(st)
	fortified := decide(func() []sim.Move { return b.seat.Fortify(st, nil) })
	p = next()
	assert.Equal(t, "one-step", p.Mode)
	shown(p.ID)
	assert.Equal(t, "seat 0 (human): fortify (one-step)", text("#act-title"))
	move := func() {
		t.Helper()
		click("#t" + strconv.Itoa(near[0]))
		click("#t" + strconv.Itoa(near[1]))
		set("#n", "1")
		click("#do")
		p = next()
		shown(p.ID)
	}
	move()
	require.Equal(t, [][3]int{{near[0], near[1], 1}}, p.Made)
	click("#undo")
	p = next()
	require.Empty(t, p.Made)
	shown(p.ID)
	move()
	var again [3]int
	for _, mv := range p.Moves {
		if mv[0] == near[0] && mv[1] == near[1] {
			again = mv
		}
	}
	if again[2] > 0 { // the source may spare another army
		move()
	}
	click("#end")
	want2 := []sim.Move{{From: near[0], To: near[1], Armies: 1}}
	if again[2] > 0 {
		want2 = append(want2, sim.Move{From: near[0], To: near[1], Armies: 1})
	}
	assert.Equal(t, want2, answerOf(t, fortified))
	assert.Empty(t, scriptErrors(), "script errors")
}
