package human

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestServerRefusesRequests: a request without the token, with a wrong
// one, from another origin, to another host, with a malformed body or to
// a choice the game no longer waits for gets its 4xx and changes nothing:
// the events, the prompt and the saved log stay as they were.
func TestServerRefusesRequests(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "game.jsonl")
	g := start(t, newConfig(t, shortRules(t, dir, "mars2006", 2), "human,mars@paper,pixie", 7, logPath))
	before := g.waitPrompt()
	require.NotNil(t, before.Prompt)
	require.Equal(t, askPlace, before.Prompt.Kind)
	logBefore, err := os.ReadFile(logPath)
	require.NoError(t, err)
	legal := []byte(`{"prompt":` + strconv.Itoa(before.Prompt.ID) + `,"do":"place","territory":` + strconv.Itoa(before.Prompt.Owned[0]) + `,"armies":1}`)
	host := strings.TrimPrefix(g.url, "http://")
	tests := []struct {
		name   string
		method string
		path   string
		body   []byte
		header map[string]string
		code   int
		reason string
	}{
		{"no token", "GET", "/api/state", nil, map[string]string{tokenHeader: ""}, 401, "no token"},
		{"no token, a choice", "POST", "/api/act", legal, map[string]string{tokenHeader: ""}, 401, "no token"},
		{"no token, the page", "GET", "/", nil, map[string]string{tokenHeader: ""}, 401, "no token"},
		{"wrong token", "POST", "/api/act", legal, map[string]string{tokenHeader: strings.Repeat("0", 32)}, 403, "wrong token"},
		{"another origin", "POST", "/api/act", legal, map[string]string{"Origin": "http://evil.example"}, 403, `origin "http://evil.example"`},
		{"another origin, the state", "GET", "/api/state", nil, map[string]string{"Origin": "http://127.0.0.1:1"}, 403, "origin"},
		{"cross-site", "POST", "/api/act", legal, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-site"},
		{"another host", "POST", "/api/act", legal, map[string]string{"Host": "evil.example:80"}, 403, `host "evil.example:80"`},
		{"not JSON", "POST", "/api/act", legal, map[string]string{"Content-Type": "text/plain"}, 415, "must be JSON"},
		{"malformed", "POST", "/api/act", []byte(`{"prompt":1,"do":`), nil, 400, "the body is not a choice"},
		{"unknown key", "POST", "/api/act", []byte(`{"prompt":1,"do":"place","where":3}`), nil, 400, `unknown field "where"`},
		{"two values", "POST", "/api/act", append(legal, legal...), nil, 400, "more than one JSON value"},
		{"a number for a territory", "POST", "/api/act", []byte(`{"prompt":1,"do":"place","territory":"Alaska"}`), nil, 400, "the body is not a choice"},
		{"too long", "POST", "/api/act", append([]byte(`{"do":"`), bytes.Repeat([]byte("x"), maxBody)...), nil, 413, "at most"},
		{"stale prompt", "POST", "/api/act", []byte(`{"prompt":999,"do":"place","territory":0,"armies":1}`), nil, 409, "the game now waits for decision"},
		{"wrong method", "GET", "/api/act", nil, nil, 405, "use POST"},
		{"no such page", "GET", "/etc/passwd", nil, nil, 404, "no such page"},
		{"bad since", "GET", "/api/state?since=x", nil, nil, 400, "since"},
		{"since past the end", "GET", "/api/state?since=100000", nil, nil, 400, "the game has"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, g.url+tt.path, bytes.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set(tokenHeader, g.token)
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tt.header {
				switch {
				case k == "Host":
					req.Host = v
				case v == "":
					req.Header.Del(k)
				default:
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			resp.Body.Close()
			assert.Equal(t, tt.code, resp.StatusCode, "%s", b.String())
			var e struct {
				Error string `json:"error"`
			}
			require.NoError(t, json.Unmarshal(b.Bytes(), &e), "%s", b.String())
			assert.Contains(t, e.Error, tt.reason)
		})
	}
	after := g.state(0, 0, false)
	assert.Equal(t, before.Next, after.Next, "no event")
	assert.Equal(t, before.Prompt, after.Prompt, "the same decision, nothing placed")
	logAfter, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Equal(t, logBefore, logAfter)
	// With the token in the query, from the page's own origin: served.
	code, page := g.request("GET", "/?token="+g.token, nil, map[string]string{tokenHeader: "", "Origin": "http://" + host})
	assert.Equal(t, 200, code)
	assert.Contains(t, string(page), `<meta name="generator" content="marslab play">`)
	assert.NotContains(t, string(page), g.token, "the page holds no token")
}

// TestServerRefusesIllegalMoves: in a live game, illegal choices are
// refused with the engine's reason and change nothing; legal ones move
// the game on.
func TestServerRefusesIllegalMoves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := newConfig(t, shortRules(t, dir, "mars2006", 2), "human,mars@paper,pixie", 7, filepath.Join(dir, "game.jsonl"))
	m, err := sim.ParseMap("m", []byte(cfg.Header.MapTOML))
	require.NoError(t, err)
	g := start(t, cfg)
	r := g.waitPrompt()
	st := newSimple(m)
	st.read(r.Events)
	p := r.Prompt
	require.Equal(t, askPlace, p.Kind)
	enemy := -1
	for t := range st.owner {
		if st.owner[t] != 0 {
			enemy = t
			break
		}
	}
	refused := func(a map[string]any, reason string) {
		t.Helper()
		before := g.state(0, 0, false)
		code, msg := g.act(a)
		assert.Equal(t, http.StatusUnprocessableEntity, code, msg)
		assert.Contains(t, msg, reason)
		after := g.state(0, 0, false)
		assert.Equal(t, before.Next, after.Next)
		assert.Equal(t, before.Prompt, after.Prompt)
	}
	refused(map[string]any{"prompt": p.ID, "do": "place", "territory": enemy, "armies": 1}, m.Territories[enemy].Name+" is seat ")
	refused(map[string]any{"prompt": p.ID, "do": "place", "territory": p.Owned[0], "armies": p.Armies + 1}, "left to place")
	refused(map[string]any{"prompt": p.ID, "do": "attack", "from": p.Owned[0], "to": enemy}, "the game asks for a place decision now")
	// A placement in two parts: the prompt is renewed, the old one refused.
	front := st.front(p)
	code, msg := g.act(map[string]any{"prompt": p.ID, "do": "place", "territory": front, "armies": 1})
	require.Equal(t, 200, code, msg)
	r = g.state(0, 0, false)
	require.Equal(t, p.Left-1, r.Prompt.Left)
	code, msg = g.act(map[string]any{"prompt": p.ID, "do": "place", "territory": front, "armies": 1})
	assert.Equal(t, http.StatusConflict, code, msg)
	code, msg = g.act(map[string]any{"prompt": r.Prompt.ID, "do": "place", "territory": front, "armies": r.Prompt.Left})
	require.Equal(t, 200, code, msg)

	// The attack: from a territory of one army, onto one's own, too many dice.
	r = g.waitPrompt()
	st.read(r.Events)
	p = r.Prompt
	require.Equal(t, askAttack, p.Kind)
	weak, own := -1, [2]int{-1, -1}
	for t := range st.owner {
		for _, u := range m.Territories[t].Neighbors {
			if st.owner[t] == 0 && st.armies[t] == 1 && st.owner[u] != 0 {
				weak = t
			}
			if st.owner[t] == 0 && st.owner[u] == 0 {
				own = [2]int{t, u}
			}
		}
	}
	require.GreaterOrEqual(t, weak, 0)
	var wto int
	for _, u := range m.Territories[weak].Neighbors {
		if st.owner[u] != 0 {
			wto = u
		}
	}
	refused(map[string]any{"prompt": p.ID, "do": "attack", "from": weak, "to": wto},
		"attack from "+m.Territories[weak].Name+" to "+m.Territories[wto].Name+": "+m.Territories[weak].Name+" has 1 army; an attack needs at least 2")
	if own[0] >= 0 {
		refused(map[string]any{"prompt": p.ID, "do": "attack", "from": own[0], "to": own[1]}, m.Territories[own[1]].Name+" is yours")
	}
	x := p.Attacks[0]
	refused(map[string]any{"prompt": p.ID, "do": "attack", "from": x[0], "to": x[1], "dice": x[2] + 1}, "may roll 1..")
	code, msg = g.act(map[string]any{"prompt": p.ID, "do": "end_attack"})
	require.Equal(t, 200, code, msg)
	r = g.waitPrompt()
	st.read(r.Events)
	p = r.Prompt
	require.Equal(t, askFortify, p.Kind)
	refused(map[string]any{"prompt": p.ID, "do": "move", "from": enemy, "to": p.Owned0(st), "armies": 1}, "both territories must be yours")
	code, msg = g.act(map[string]any{"prompt": p.ID, "do": "end_fortify"})
	require.Equal(t, 200, code, msg)
	r = g.waitPrompt()
	require.NotNil(t, r.Prompt)
	assert.Equal(t, 2, r.Prompt.Round, "round 2: the human's next turn")
}

// Owned0 is a territory of the prompt's seat on the simple board.
func (p *prompt) Owned0(st *simple) int {
	for t, o := range st.owner {
		if o == p.Seat {
			return t
		}
	}
	return -1
}

// playOut answers every prompt with the simple strategy until the game is
// over or stop says to stop; it returns the choices made.
func playOut(t *testing.T, g *game, m *sim.Map, stop func(n int) bool) int {
	t.Helper()
	st := newSimple(m)
	n := 0
	for {
		r := g.waitPrompt()
		if r.Over || r.Prompt == nil {
			return n
		}
		if stop != nil && stop(n) {
			return n
		}
		st.owner = make([]int, len(m.Territories))
		st.read(r.Events)
		code, msg := g.act(choose(st, r.Prompt))
		require.Equal(t, 200, code, "%s: %s", r.Prompt.Kind, msg)
		n++
	}
}

// TestSecondTabReloadResume: a second tab sees the same game and may play
// it (the first tab's stale choice is refused); a reload gets every event
// again; a game stopped (its context cancelled) is saved, and resumed
// from its log it replays the human's choices and goes on to the end;
// the whole log replays, and equals the log of the same game played
// without a stop.
func TestSecondTabReloadResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rules := shortRules(t, dir, "mars2006", 3)
	players := "human,mars@paper,pixie"
	whole := filepath.Join(dir, "whole.jsonl")
	cfg := newConfig(t, rules, players, 11, whole)
	m, err := sim.ParseMap("m", []byte(cfg.Header.MapTOML))
	require.NoError(t, err)
	g := start(t, cfg)
	playOut(t, g, m, nil)
	res, err := g.wait()
	require.NoError(t, err)
	rep := replays(t, whole)
	assert.Equal(t, res, rep.Result)

	// The same game, stopped after 6 choices, seen from two tabs.
	part := filepath.Join(dir, "part.jsonl")
	g = start(t, newConfig(t, rules, players, 11, part))
	playOut(t, g, m, func(n int) bool { return n == 3 })
	a := g.waitPrompt() // tab A's view
	b := g.state(0, 0, false)
	assert.Equal(t, a.Next, b.Next, "tab B sees the same events")
	assert.Equal(t, a.Events, b.Events)
	assert.Equal(t, a.Prompt, b.Prompt)
	st := newSimple(m)
	st.read(b.Events)
	code, msg := g.act(choose(st, b.Prompt)) // tab B plays
	require.Equal(t, 200, code, msg)
	code, msg = g.act(choose(st, a.Prompt)) // tab A's choice is stale
	assert.Equal(t, http.StatusConflict, code, msg)
	reload := g.waitPrompt()
	assert.Greater(t, reload.Next, a.Next, "the reloaded page gets every event")
	assert.Equal(t, a.Events, reload.Events[:a.Next])
	playOut(t, g, m, func(n int) bool { return n == 2 })
	g.stop() // the server stopped
	_, err = g.wait()
	require.ErrorIs(t, err, ErrSaved)
	assert.Contains(t, err.Error(), "resume it with: marslab play -resume "+part)
	saved, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.NotContains(t, string(saved), `{"result"`)

	// Resumed: the human's choices so far replay, then the game goes on.
	cfg = newConfig(t, rules, players, 11, part)
	cfg.Resume = saved
	g = start(t, cfg)
	r := g.waitPrompt()
	assert.Equal(t, bytes.Count(saved, []byte("\n"))-1-bytes.Count(saved, []byte(`"e":"explain"`)), r.Next, "the resumed game is where the log stopped")
	playOut(t, g, m, nil)
	res2, err := g.wait()
	require.NoError(t, err)
	assert.Equal(t, res, res2, "the same choices, the same game")
	replays(t, part)
	wholeLog, err := os.ReadFile(whole)
	require.NoError(t, err)
	partLog, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.Equal(t, string(wholeLog), string(partLog), "the resumed game's log is the uninterrupted game's")

	// A log of another game, or of a game over, does not resume.
	cfg = newConfig(t, rules, "human,mars@paper,aggressive", 11, filepath.Join(dir, "x.jsonl"))
	cfg.Resume = saved
	_, err = Play(context.Background(), cfg)
	assert.ErrorContains(t, err, "the log's game is another: seat 2 is pixie, not aggressive")
	cfg = newConfig(t, rules, players, 11, filepath.Join(dir, "x.jsonl"))
	cfg.Resume = wholeLog
	_, err = Play(context.Background(), cfg)
	assert.ErrorContains(t, err, "the log's game is over")

	// A log whose past does not replay (a deal changed) is refused, and
	// left as it was.
	i := bytes.Index(saved, []byte(`{"e":"deal"`))
	require.GreaterOrEqual(t, i, 0)
	j := i + bytes.IndexByte(saved[i:], '\n')
	line := string(saved[i:j])
	edited := strings.Replace(line, `"armies":1`, `"armies":2`, 1)
	require.NotEqual(t, line, edited)
	tampered := append(append(append([]byte{}, saved[:i]...), edited...), saved[j:]...)
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, tampered, 0o644))
	cfg = newConfig(t, rules, players, 11, bad)
	cfg.Resume = tampered
	_, err = Play(context.Background(), cfg)
	assert.ErrorContains(t, err, "resume: the game does not replay the log: event")
	after, err := os.ReadFile(bad)
	require.NoError(t, err)
	assert.Equal(t, tampered, after, "the log being resumed is left as it was")
}

// TestIdleSaves: a game without a request for the idle time is saved and
// Play returns ErrSaved with the command that resumes it.
func TestIdleSaves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := newConfig(t, shortRules(t, dir, "mars2006", 2), "pixie,human", 3, filepath.Join(dir, "g.jsonl"))
	cfg.Idle = 300 * time.Millisecond
	g := start(t, cfg)
	start := time.Now()
	_, err := g.wait()
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrSaved), "%v", err)
	assert.Contains(t, err.Error(), "no request for 300ms")
	assert.Contains(t, err.Error(), "resume it with: marslab play -resume "+cfg.LogPath)
	assert.Less(t, time.Since(start), 30*time.Second)
	data, err := os.ReadFile(cfg.LogPath)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"e":"reinforce"`, "saved at the human's first decision")
}

// TestHotSeat: two human seats at one page take turns: each is asked for
// its own decisions, and the game's log replays.
func TestHotSeat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := newConfig(t, shortRules(t, dir, "classic", 2), "human,pixie,human", 5, filepath.Join(dir, "g.jsonl"))
	m, err := sim.ParseMap("m", []byte(cfg.Header.MapTOML))
	require.NoError(t, err)
	g := start(t, cfg)
	seats := map[int]bool{}
	st := newSimple(m)
	for {
		r := g.waitPrompt()
		if r.Over {
			break
		}
		seats[r.Prompt.Seat] = true
		st.owner = make([]int, len(m.Territories))
		st.read(r.Events)
		code, msg := g.act(choose(st, r.Prompt))
		require.Equal(t, 200, code, msg)
	}
	res, err := g.wait()
	require.NoError(t, err)
	assert.Equal(t, map[int]bool{0: true, 2: true}, seats, "both human seats decided")
	rep := replays(t, cfg.LogPath)
	assert.Equal(t, res, rep.Result)
}

// TestAnyInterface: a server on every interface (-addr 0.0.0.0:0) prints
// the loopback's address to open on this machine, says how the others
// reach it, and answers there with the token.
func TestAnyInterface(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := newConfig(t, shortRules(t, dir, "mars2006", 2), "human,pixie", 3, filepath.Join(dir, "g.jsonl"))
	cfg.Addr = "0.0.0.0:0"
	var out bytes.Buffer
	cfg.Out = &out
	g := start(t, cfg)
	assert.True(t, strings.HasPrefix(g.url, "http://127.0.0.1:"), g.url)
	port := g.url[strings.LastIndexByte(g.url, ':')+1:]
	assert.Equal(t, "the game waits for you at "+g.url+"/?token="+g.token+" (from another machine: this machine's address, port "+port+")\n", out.String())
	assert.NotNil(t, g.waitPrompt().Prompt)
	code, _ := g.request("GET", "/api/state", nil, map[string]string{tokenHeader: ""})
	assert.Equal(t, http.StatusUnauthorized, code)
}
