package human

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/browsertest"
	"github.com/marslab-risk/marslab/sim"
)

// update rewrites docs/figures/play.png (TestPlayInBrowser).
var update = flag.Bool("update", false, "rewrite docs/figures/play.png from TestPlayInBrowser's game")

// pageView is what the page shows: its #state element.
type pageView struct {
	Event  int    `json:"event"`
	Round  int    `json:"round"`
	Owner  []int  `json:"owner"`
	Armies []int  `json:"armies"`
	Cards  []int  `json:"cards"`
	Winner int    `json:"winner"`
	Prompt *int   `json:"prompt"`
	Kind   string `json:"kind"`
	Over   bool   `json:"over"`
}

// TestPlayInBrowser plays a whole game in headless Chromium as a person
// would: a human seat against MARS (explaining its decisions) and Pixie,
// under the mars2006 rules cut to three rounds, by clicking the
// territories and the buttons of the page with the simple strategy of
// choose (trade the first set, everything on the strongest front, attack
// until the conquest from stacks of 4 or more, move the most in, end the
// turn). The page's board must be the engine's at every decision and at
// the end, MARS's reasoning must be beside it, no script error may be
// logged, and the game's log must replay. A screenshot in the middle of
// the game goes to the test's folder (and with -update to
// docs/figures/play.png).
func TestPlayInBrowser(t *testing.T) {
	bctx := browsertest.Start(t)
	dir := t.TempDir()
	logPath := filepath.Join(dir, "game.jsonl")
	cfg := newConfig(t, shortRules(t, dir, "mars2006", 3), "human,mars@paper,pixie", 7, logPath)
	cfg.Explain = true
	m, err := sim.ParseMap("m", []byte(cfg.Header.MapTOML))
	require.NoError(t, err)
	// The engine's board at every decision, for the page's to be compared with.
	engine := map[int][]int{}
	g := start(t, cfg)
	ctx, scriptErrors := browsertest.Open(t, bctx, g.url+"/?token="+g.token, 3*time.Minute)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...), what)
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return v
	}
	// read returns what the page shows and the decision on screen, read at
	// once.
	read := func() (pageView, *prompt) {
		t.Helper()
		text := eval(`JSON.stringify({view: JSON.parse(document.getElementById("state").textContent), prompt: marslabPlay.prompt()})`)
		var v struct {
			View   pageView `json:"view"`
			Prompt *prompt  `json:"prompt"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &v), text)
		return v.View, v.Prompt
	}
	// The bots play at 1 event a second until the first bots' turns have
	// been seen at that pace, then at once ("at once" in the speed list).
	run("the speed", chromedp.SetValue(chromedp.CSS("#speed"), "1"))
	paced := false
	click := func(sel string) {
		t.Helper()
		run("clicking "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	}
	st := newSimple(m)
	decisions, shot := 0, false
	last := -1
	deadline := time.Now().Add(150 * time.Second)
	for {
		if !time.Now().Before(deadline) {
			srv := g.state(0, 0, false)
			t.Fatalf("the game did not end in time (%d decisions): the page shows %s, panel %q, message %q; the server has %d events, prompt %+v",
				decisions, eval(`document.getElementById("state").textContent`), eval(`document.getElementById("act").textContent`),
				eval(`document.getElementById("msg").textContent`), srv.Next, srv.Prompt)
		}
		v, pp := read()
		if v.Over {
			break
		}
		if v.Prompt == nil || pp == nil || *v.Prompt == last {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		p := *pp
		require.Equal(t, *v.Prompt, p.ID)
		last = p.ID
		st.owner, st.armies = v.Owner, v.Armies
		engine[p.ID] = append(append([]int{}, v.Owner...), v.Armies...)
		// The server's view of the game at this decision is the page's.
		r := g.state(0, p.ID, false)
		require.NotNil(t, r.Prompt)
		srv := newSimple(m)
		srv.read(r.Events)
		require.Equal(t, srv.owner, v.Owner, "the page's owners at decision %d", p.ID)
		require.Equal(t, srv.armies, v.Armies, "the page's armies at decision %d", p.ID)

		a := choose(st, &p)
		decisions++
		switch a["do"] {
		case "trade":
			click("#trade-0")
		case "setup":
			click(fmt.Sprintf("#t%d", a["territory"]))
		case "place":
			click(fmt.Sprintf("#t%d", a["territory"]))
			click("#do")
		case "attack":
			click(fmt.Sprintf("#t%d", a["from"]))
			click(fmt.Sprintf("#t%d", a["to"]))
			run("until the conquest", chromedp.SetValue(chromedp.CSS("#mode"), "until"), chromedp.SetValue(chromedp.CSS("#stop"), "2"))
			if !shot && v.Round >= 2 {
				shot = true
				browsertest.Shot(t, ctx, filepath.Join(dir, "play.png"))
				if *update {
					browsertest.Shot(t, ctx, filepath.Join("..", "..", "docs", "figures", "play.png"))
				}
			}
			click("#do")
		case "end_attack":
			click("#end")
		case "occupy":
			click("#do")
		case "end_fortify":
			click("#end")
			if !paced {
				paced = true
				pace(t, g, read, eval)
				click("#skip") // "show all now": the page catches up, to the human's next decision
				run("the speed", chromedp.SetValue(chromedp.CSS("#speed"), "0"))
			}
		default:
			t.Fatalf("no click for %v", a)
		}
	}
	res, err := g.wait()
	require.NoError(t, err)
	end, _ := read()
	final := cfg.Game.State()
	for t2 := range m.Territories {
		require.Equal(t, final.Owner(t2), end.Owner[t2], "the page's owner of %s at the end", m.Territories[t2].Name)
		require.Equal(t, final.Armies(t2), end.Armies[t2], "the page's armies on %s at the end", m.Territories[t2].Name)
	}
	assert.Equal(t, res.Winner, end.Winner)
	assert.True(t, shot, "a screenshot in round 2")
	assert.True(t, paced, "the bots' turns seen at 1 event a second")
	assert.Greater(t, decisions, 6, "the human decided")
	explain := eval(`document.getElementById("explain").textContent`)
	assert.Contains(t, explain, "attack", "MARS's reasoning beside the board")
	words := eval(`document.getElementById("log").textContent`)
	assert.Regexp(t, `seat 0 \(human\) orders an attack on [A-Za-z ]+ \(seat \d \(\w+\)\) from [A-Za-z ]+, repeated until the conquest or [A-Za-z ]+ holds 2 armies or fewer`, words, "the events in words")
	title := eval(`document.getElementById("act-title").textContent`)
	assert.True(t, strings.HasPrefix(title, "the game is over"), title)
	rep := replays(t, logPath)
	assert.Equal(t, res, rep.Result)
	assert.Empty(t, scriptErrors(), "script errors")
	t.Logf("%d decisions, %d events, result %+v", decisions, rep.Events, res)

}

// pace checks that the bots' events play out on the page at the speed set,
// 1 a second: the page shows fewer events than the server has, "(N to
// show)", and about one more of the bots' after a second (the human's own
// events are shown at once).
func pace(t *testing.T, g *game, read func() (pageView, *prompt), eval func(string) string) {
	t.Helper()
	// The game's events as the page counts them (the server's list has the
	// explanations too).
	events := func() []pageEvent {
		var list []pageEvent
		for _, raw := range g.state(0, 0, false).Events {
			var e pageEvent
			require.NoError(t, json.Unmarshal(raw, &e))
			if e.Kind != "explain" {
				list = append(list, e)
			}
		}
		return list
	}
	// Until the page has received the bots' events and shows them one by
	// one (checked here, not in require.Eventually's goroutine: the
	// helpers fail the test).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		v, _ := read()
		if len(events())-v.Event >= 3 && strings.Contains(eval(`document.getElementById("pos").textContent`), "to show") {
			break
		}
		require.True(t, time.Now().Before(deadline), "the bots' events do not wait to be shown")
	}
	v0, _ := read()
	time.Sleep(1500 * time.Millisecond)
	v1, _ := read()
	list := events()
	require.Less(t, v1.Event, len(list), "the page still has events to show")
	bots := 0
	for _, e := range list[v0.Event:v1.Event] {
		if e.Player != 0 && e.Kind != "deal" && e.Kind != "setup_place" && e.Kind != "start" {
			bots++
		}
	}
	assert.InDelta(t, 1.5, float64(bots), 1.5, "the bots' events shown in 1.5 s at 1 a second (of %d shown)", v1.Event-v0.Event)
}
