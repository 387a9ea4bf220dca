package human

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// shortRules writes the rule set rules with its round limit cut to
// rounds into dir and returns the file's path.
func shortRules(t *testing.T, dir, rules string, rounds int) string {
	t.Helper()
	_, text, err := sim.RulesSource(rules)
	require.NoError(t, err)
	s := string(text)
	i := strings.Index(s, "round_limit = ")
	require.GreaterOrEqual(t, i, 0)
	j := strings.IndexByte(s[i:], '\n')
	s = s[:i] + fmt.Sprintf("round_limit = %d", rounds) + s[i+j:]
	s = strings.Replace(s, `name = "`+rules+`"`, `name = "`+rules+`-short"`, 1)
	_, mapText, err := sim.MapSource("classic")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "classic.toml"), mapText, 0o644))
	s = strings.Replace(s, `map = "classic"`, `map = "classic.toml"`, 1)
	path := filepath.Join(dir, rules+"-short.toml")
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	return path
}

// newConfig is the Config of a game of the seats players (a seat list
// that may name human) under the rules file or name rules.
func newConfig(t *testing.T, rules, players string, seed uint64, logPath string) Config {
	t.Helper()
	reg, err := Registry(registry.Default())
	require.NoError(t, err)
	seats, err := reg.ParseSeats(players, nil)
	require.NoError(t, err)
	src, rt, err := sim.RulesSource(rules)
	require.NoError(t, err)
	r, err := sim.ParseRules(src, rt)
	require.NoError(t, err)
	_, mt, err := r.MapSource()
	require.NoError(t, err)
	m, err := sim.ParseMap("map", mt)
	require.NoError(t, err)
	g, err := sim.NewGame(m, r, len(seats))
	require.NoError(t, err)
	h := sim.LogHeader{Seed: seed, RulesName: rules, MapName: "classic", RulesTOML: string(rt), MapTOML: string(mt)}
	ps := make([]sim.Player, len(seats))
	for i, s := range seats {
		h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
		ps[i], err = s.New()
		require.NoError(t, err)
	}
	return Config{Game: g, Header: h, Players: ps, LogPath: logPath, Addr: "127.0.0.1:0", Idle: time.Minute,
		ResumeCommand: "marslab play -resume " + logPath, Out: io.Discard}
}

// game is a game being played by Play in the background, and an HTTP
// client of its server.
type game struct {
	t     *testing.T
	url   string // http://127.0.0.1:PORT
	token string
	done  chan struct{}
	res   sim.Result
	err   error
	stop  context.CancelFunc
}

// start plays cfg in the background and waits for its server.
func start(t *testing.T, cfg Config) *game {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &game{t: t, done: make(chan struct{}), stop: cancel}
	ready := make(chan string, 1)
	cfg.Ready = func(url string) { ready <- url }
	go func() {
		defer close(g.done)
		g.res, g.err = Play(ctx, cfg)
	}()
	select {
	case u := <-ready:
		i := strings.Index(u, "/?token=")
		g.url, g.token = u[:i], u[i+len("/?token="):]
	case <-g.done:
		t.Fatalf("Play returned before it listened: %v", g.err)
	case <-time.After(time.Minute):
		t.Fatal("the server did not start")
	}
	t.Cleanup(func() {
		cancel()
		<-g.done
	})
	return g
}

// wait waits for Play to return.
func (g *game) wait() (sim.Result, error) {
	select {
	case <-g.done:
	case <-time.After(2 * time.Minute):
		g.t.Fatal("Play did not return")
	}
	return g.res, g.err
}

// reply is a state reply as the page reads it.
type reply struct {
	Since  int               `json:"since"`
	Next   int               `json:"next"`
	Events []json.RawMessage `json:"events"`
	Prompt *prompt           `json:"prompt"`
	Over   bool              `json:"over"`
	Closed bool              `json:"closed"`
	Result *sim.Result       `json:"result"`
}

// request sends a request with the token (and an Origin) unless told.
func (g *game) request(method, path string, body []byte, header map[string]string) (int, []byte) {
	g.t.Helper()
	req, err := http.NewRequest(method, g.url+path, bytes.NewReader(body))
	require.NoError(g.t, err)
	req.Header.Set(tokenHeader, g.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(g.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(g.t, err)
	return resp.StatusCode, b
}

// state asks for the events since since (waiting for news when wait).
func (g *game) state(since int, prompt int, wait bool) reply {
	g.t.Helper()
	path := fmt.Sprintf("/api/state?since=%d&prompt=%d", since, prompt)
	if wait {
		path += "&wait=1"
	}
	code, b := g.request(http.MethodGet, path, nil, nil)
	require.Equal(g.t, http.StatusOK, code, "%s", b)
	var r reply
	require.NoError(g.t, json.Unmarshal(b, &r), "%s", b)
	return r
}

// waitPrompt waits for a decision (or the end) and returns the state
// from event 0.
func (g *game) waitPrompt() reply {
	g.t.Helper()
	r := g.state(0, 0, false)
	for r.Prompt == nil && !r.Over {
		g.state(r.Next, 0, true)
		r = g.state(0, 0, false)
	}
	return r
}

// act sends a choice and returns the status and the error text.
func (g *game) act(a map[string]any) (int, string) {
	g.t.Helper()
	b, err := json.Marshal(a)
	require.NoError(g.t, err)
	code, out := g.request(http.MethodPost, "/api/act", b, nil)
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(out, &e)
	return code, e.Error
}

// choose answers a prompt with a simple strategy: the first set, every
// army on the owned territory with the most armies that has an enemy
// neighbour, attacks (until the conquest or 2 armies left) from the
// territory with the most armies while it holds 4 or more, the most moved
// in, no fortification. It reads only the prompt and the board.
func choose(st *simple, p *prompt) map[string]any {
	a := map[string]any{"prompt": p.ID}
	switch p.Kind {
	case askTrade:
		a["do"], a["set"] = "trade", p.Sets[0].Cards
	case askSetup:
		a["do"], a["territory"] = "setup", p.Owned[0]
	case askPlace:
		a["do"], a["territory"], a["armies"] = "place", st.front(p), p.Left
	case askAttack:
		best := -1
		for i, x := range p.Attacks {
			if st.armies[x[0]] >= 4 && (best < 0 || st.armies[x[0]] > st.armies[p.Attacks[best][0]]) {
				best = i
			}
		}
		if best < 0 {
			a["do"] = "end_attack"
			break
		}
		x := p.Attacks[best]
		a["do"], a["from"], a["to"], a["repeat"], a["stop_at"] = "attack", x[0], x[1], true, 2
	case askOccupy:
		a["do"], a["armies"] = "occupy", p.Max
	case askFortify:
		a["do"] = "end_fortify"
	}
	return a
}

// simple is the position the simple strategy reads: the armies and owners
// that the events set.
type simple struct {
	m      *sim.Map
	owner  []int
	armies []int
}

func newSimple(m *sim.Map) *simple {
	n := len(m.Territories)
	return &simple{m: m, owner: make([]int, n), armies: make([]int, n)}
}

// read applies the events' changes.
func (s *simple) read(events []json.RawMessage) {
	for _, raw := range events {
		var e pageEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			panic(err)
		}
		for _, x := range e.Set {
			s.owner[x[0]], s.armies[x[0]] = x[1], x[2]
		}
	}
}

// front is the owned territory with the most armies that borders an enemy.
func (s *simple) front(p *prompt) int {
	best := p.Owned[0]
	for _, t := range p.Owned {
		enemy := false
		for _, u := range s.m.Territories[t].Neighbors {
			enemy = enemy || s.owner[u] != p.Seat
		}
		if enemy && (s.armies[t] > s.armies[best] || !s.hasEnemy(best, p.Seat)) {
			best = t
		}
	}
	return best
}

func (s *simple) hasEnemy(t, seat int) bool {
	for _, u := range s.m.Territories[t].Neighbors {
		if s.owner[u] != seat {
			return true
		}
	}
	return false
}

// replays checks that the log at path replays, human seats included.
func replays(t *testing.T, path string) *sim.Replayed {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rep, err := sim.Replay(context.Background(), f, ReplayPlayers(registry.Default(), func() (io.ReadCloser, error) { return os.Open(path) }))
	require.NoError(t, err)
	return rep
}

var _ = bots.Seat{}
