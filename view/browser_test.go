package view

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/browsertest"
	"github.com/marslab-risk/marslab/sim"
)

// browser starts a headless Chromium for the test, or skips it.
func browser(t *testing.T) context.Context { return browsertest.Start(t) }

// tab opens a page in a new tab and collects its script errors.
func tab(t *testing.T, bctx context.Context, path string) (context.Context, func() []string) {
	return browsertest.Open(t, bctx, "file://"+path, 2*time.Minute)
}

// pageState reads the page's state element.
func pageState(t *testing.T, ctx context.Context, js string) state {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](js+`; document.getElementById("state").textContent`))
	require.NoError(t, err)
	var s state
	require.NoError(t, json.Unmarshal([]byte(text), &s), text)
	return s
}

// recorder keeps the engine's position after every game event, as the
// page's State, while the game is played: got[k-1] after event k.
type recorder struct {
	g   *sim.Game
	k   int
	got []state
}

func (r *recorder) Observe(e *sim.Event) {
	if e.Kind == sim.EvExplain {
		return
	}
	r.k++
	s := r.g.State()
	st := state{Event: r.k, Round: e.Round, Winner: -1, Eliminated: s.AppendEliminated([]int{})}
	for t := range s.NumTerritories() {
		st.Owner = append(st.Owner, s.Owner(t))
		st.Armies = append(st.Armies, s.Armies(t))
	}
	for p := range s.NumPlayers() {
		st.Cards = append(st.Cards, s.NumCards(p))
	}
	if e.Kind == sim.EvGameEnd {
		st.Winner = e.Player
	}
	r.got = append(r.got, st)
}

// playLogged plays a game of the seats players (a seat list) under the
// embedded rule set rules, on the map m (the rules' own when nil), with
// the bots that can explaining their decisions into the log when explain.
// It returns the log and the engine's positions, recorded during the play,
// after every game event (the k-th after k events).
func playLogged(t *testing.T, rules, players string, seed uint64, m *sim.Map, explain bool) ([]byte, []state) {
	t.Helper()
	reg := registry.Default()
	seats, err := reg.ParseSeats(players, nil)
	require.NoError(t, err)
	rs, err := sim.LoadRules(rules)
	require.NoError(t, err)
	_, rt, err := sim.RulesSource(rules)
	require.NoError(t, err)
	mapName := "bare.toml"
	if m == nil {
		m, err = rs.LoadMap()
		require.NoError(t, err)
		mapName = m.Name
	}
	var mt bytes.Buffer
	require.NoError(t, sim.EncodeMap(&mt, m))
	h := sim.LogHeader{Seed: seed, RulesName: rules, MapName: mapName, RulesTOML: string(rt), MapTOML: mt.String()}
	ps := make([]sim.Player, len(seats))
	for i, s := range seats {
		h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
		ps[i], err = s.New()
		require.NoError(t, err)
	}
	g, err := sim.NewGame(m, rs, len(seats))
	require.NoError(t, err)
	if explain {
		h.Explain = sim.ExplainSeats(ps)
	}
	var log bytes.Buffer
	lw, err := sim.NewLogWriter(&log, h)
	require.NoError(t, err)
	g.Observe(lw)
	rec := &recorder{g: g}
	g.Observe(rec)
	explainers, err := sim.Narrate(lw, g, ps, h.Explain)
	require.NoError(t, err)
	res, err := g.Play(ps, seed, 0)
	require.NoError(t, err)
	for _, w := range explainers {
		w.Flush()
	}
	require.NoError(t, lw.Close(res))
	return log.Bytes(), rec.got
}

// TestViewInBrowser plays games under every embedded rule set (2 to 6
// seats, MARS explaining in two of them, one on the classic board without
// its positions, so drawn by the force-directed layout), writes their
// pages, opens them in headless Chromium and checks that the position the
// page shows equals the engine's, recorded during the play,
// after events spread over the game and after the first trade,
// occupation and elimination; that the buttons and keys step by event,
// player-turn and round; that the words of a roll and MARS's reasoning
// are shown; and that no script error is logged. Screenshots of the start
// and the end go to the test's temporary directory.
func TestViewInBrowser(t *testing.T) {
	bctx := browser(t)
	dir := t.TempDir()
	t.Logf("pages and screenshots in %s", dir)
	// The classic board without its positions: drawn by the force-directed layout.
	_, classic, err := sim.MapSource("classic")
	require.NoError(t, err)
	bare, err := sim.ParseMap("bare.toml", regexp.MustCompile(`(?m)^[xy] = .*\n`).ReplaceAll(classic, nil))
	require.NoError(t, err)
	require.Nil(t, bare.Layout)
	games := []struct {
		rules, players string
		seed           uint64
		explain        bool
		m              *sim.Map
	}{
		{"classic", "angry,aggressive", 1, false, nil},
		{"fixedcards", "pacifist,aggressive,cautious,random", 2, false, bare},
		{"mars2006", "mars,evilpixie,pixie,shaft,bort,angry", 5, true, nil},
		{"mars2006-escalating", "mars,aggressive,pixie", 3, true, nil},
		{"missions", "mission,constrained,mission,aggressive", 11, false, nil},
	}
	for _, gm := range games {
		n := strings.Count(gm.players, ",") + 1
		name := fmt.Sprintf("%s-%d", gm.rules, n)
		t.Run(name, func(t *testing.T) {
			pagePath := filepath.Join(dir, name+".html")
			log, engine := playLogged(t, gm.rules, gm.players, gm.seed, gm.m, gm.explain)
			var page bytes.Buffer
			require.NoError(t, Write(context.Background(), &page, log, registry.Default().ReplayPlayers))
			require.NoError(t, os.WriteFile(pagePath, page.Bytes(), 0o644))
			assert.Less(t, page.Len(), 2<<20, "the page is under 2 MB")
			_, all, res, err := sim.ReadLog(bytes.NewReader(log))
			require.NoError(t, err)
			var events []sim.Event // the game's events; explanations apart
			var explains []struct {
				at   int
				text string
			}
			for _, e := range all {
				if e.Kind == sim.EvExplain {
					explains = append(explains, struct {
						at   int
						text string
					}{len(events), e.Text})
					continue
				}
				events = append(events, e)
			}
			assert.Equal(t, gm.explain, len(explains) > 0)
			ne := len(events)
			want := map[int]bool{1: true, ne - 1: true, ne: true}
			for i := 1; i < 8; i++ {
				want[ne*i/8] = true
			}
			firsts := map[sim.EventKind]int{}
			for i, e := range events {
				switch e.Kind {
				case sim.EvTrade, sim.EvOccupation, sim.EvElimination, sim.EvMove, sim.EvSetupPlace:
					if _, ok := firsts[e.Kind]; !ok {
						firsts[e.Kind] = i + 1
						want[i+1] = true
					}
				}
			}
			for _, k := range []sim.EventKind{sim.EvTrade, sim.EvOccupation} {
				assert.Contains(t, firsts, k, "the game has a %v", k)
			}
			require.Len(t, engine, ne)

			ctx, scriptErrors := tab(t, bctx, pagePath)
			nEv, err := chromedp.Run(ctx, chromedp.Evaluate[int](`marslabView.events`))
			require.NoError(t, err)
			require.Equal(t, ne, nEv)
			wrap, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`JSON.parse(document.getElementById("game").textContent).wrap`))
			require.NoError(t, err)
			assert.Equal(t, gm.m == nil, wrap, "the classic map's own layout, or a force-directed one")
			for _, k := range slices.Sorted(mapsKeys(want)) {
				got := pageState(t, ctx, fmt.Sprintf("marslabView.seek(%d)", k))
				require.Equal(t, engine[k-1], got, "the page's position after event %d (%v) differs from the engine's", k, events[k-1].Kind)
			}
			// Back to an earlier event: the page computes it again.
			k := ne / 3
			assert.Equal(t, k, pageState(t, ctx, fmt.Sprintf("marslabView.seek(%d)", k)).Event)

			// A roll in words.
			roll := slices.IndexFunc(events, func(e sim.Event) bool { return e.Kind == sim.EvRoll })
			require.GreaterOrEqual(t, roll, 0)
			e := events[roll]
			desc, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`marslabView.seek(%d); document.getElementById("desc").textContent`, roll+1)))
			require.NoError(t, err)
			m := mustMap(t, log)
			digits := func(d []uint8) string {
				var b strings.Builder
				for _, x := range d {
					fmt.Fprint(&b, x)
				}
				return b.String()
			}
			seats := strings.Split(gm.players, ",")
			assert.Equal(t, fmt.Sprintf("round %d, seat %d (%s) attacks %s from %s: %d dice against %d (%s vs %s), loses %d, kills %d",
				e.Round, e.Player, seats[e.Player], m.Territories[e.To].Name, m.Territories[e.From].Name, e.NAttack, e.NDefend,
				digits(e.AttackerDice[:e.NAttack]), digits(e.DefenderDice[:e.NDefend]), e.AttackerLoss, e.DefenderLoss), desc)

			// The controls: buttons and keys.
			turns, rounds := []int{}, []int{}
			for i, e := range events {
				if e.Kind == sim.EvTurn {
					turns = append(turns, i+1)
					if e.Round == 2 && len(rounds) == 0 {
						rounds = append(rounds, i+1)
					}
				}
			}
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#b-start"))))
			assert.Equal(t, 0, pageState(t, ctx, "0").Event)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#b-turn-fwd"))))
			assert.Equal(t, turns[0], pageState(t, ctx, "0").Event, "one player-turn forward")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#b-round-fwd"))))
			assert.Equal(t, rounds[0], pageState(t, ctx, "0").Event, "one round forward: round 2 starts")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#b-fwd"))))
			assert.Equal(t, rounds[0]+1, pageState(t, ctx, "0").Event, "one event forward")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
			assert.Equal(t, rounds[0], pageState(t, ctx, "0").Event, "left arrow: one event back")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(chromedp.ModifierShift))))
			assert.Equal(t, turns[slices.Index(turns, rounds[0])-1], pageState(t, ctx, "0").Event, "shift+left: one player-turn back")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)))
			assert.Equal(t, 0, pageState(t, ctx, "0").Event, "Home")
			shot(t, ctx, filepath.Join(dir, name+"-start.png"))
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.End)))
			end := pageState(t, ctx, "0")
			assert.Equal(t, ne, end.Event, "End")
			assert.Equal(t, res.Winner, end.Winner)
			shot(t, ctx, filepath.Join(dir, name+"-end.png"))

			// Play: the position moves on by itself.
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(" ")))
			time.Sleep(300 * time.Millisecond)
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
			assert.Positive(t, pageState(t, ctx, "0").Event, "space plays")

			if gm.explain {
				x := explains[len(explains)/2]
				now, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(
					`marslabView.seek(%d); Array.from(document.querySelectorAll("#explain .now")).map((d) => d.textContent)`, x.at)))
				require.NoError(t, err)
				assert.Contains(t, now, x.text, "MARS's reasoning at event %d", x.at)
				if *update && gm.rules == "mars2006" {
					require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1500, 1000)))
					shot(t, ctx, filepath.Join("..", "docs", "figures", "viewer.png"))
				}
			}
			assert.Empty(t, scriptErrors(), "script errors")
		})
	}
}

// update rewrites docs/figures/viewer.png (TestViewInBrowser).
var update = flag.Bool("update", false, "rewrite docs/figures/viewer.png from the page of TestViewInBrowser's mars2006 game")

// TestBrowserSeesScriptErrors: the error collector of the browser tests
// does catch an uncaught exception and a console error.
func TestBrowserSeesScriptErrors(t *testing.T) {
	bctx := browser(t)
	page := filepath.Join(t.TempDir(), "bad.html")
	require.NoError(t, os.WriteFile(page, []byte(`<!DOCTYPE html><title>bad</title><script>console.error("oops"); setTimeout(() => { null.x; }, 0);</script>`), 0o644))
	_, scriptErrors := tab(t, bctx, page)
	var errs []string
	for range 20 {
		if errs = scriptErrors(); len(errs) >= 2 {
			break
		}
	}
	require.Len(t, errs, 2, "%q", errs)
	assert.Contains(t, strings.Join(errs, "\n"), "oops")
	assert.Contains(t, strings.Join(errs, "\n"), "TypeError")
}

func shot(t *testing.T, ctx context.Context, path string) { browsertest.Shot(t, ctx, path) }

func mustMap(t *testing.T, log []byte) *sim.Map {
	t.Helper()
	lr, err := sim.NewLogReader(bytes.NewReader(log))
	require.NoError(t, err)
	m, err := sim.ParseMap("map_toml", []byte(lr.Header().MapTOML))
	require.NoError(t, err)
	return m
}

func mapsKeys(m map[int]bool) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
