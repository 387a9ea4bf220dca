package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// humanPlay runs marslab play with args in the background and returns
// its address with the token, and a function that waits for the
// command's error and output.
func humanPlay(t *testing.T, ctx context.Context, args ...string) (string, func() (string, error)) {
	t.Helper()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, registry.Default(), append([]string{"play"}, args...), out, io.Discard) }()
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+`)
	deadline := time.Now().Add(time.Minute)
	for {
		if u := addr.FindString(out.String()); u != "" {
			return u, func() (string, error) {
				select {
				case err := <-done:
					return out.String(), err
				case <-time.After(2 * time.Minute):
					t.Fatal("marslab play did not end")
					return "", nil
				}
			}
		}
		select {
		case err := <-done:
			t.Fatalf("marslab play ended before it served: %v\n%s", err, out.String())
		default:
		}
		require.True(t, time.Now().Before(deadline), "no address printed:\n%s", out.String())
		time.Sleep(20 * time.Millisecond)
	}
}

// answerPrompts plays the human seat through the server at url, the way
// the page does: the first set, every army on the first territory, no
// attack, no fortification; it stops after max decisions (0: none) or at
// the end.
func answerPrompts(t *testing.T, url string, max int) int {
	t.Helper()
	base, token, _ := strings.Cut(url, "/?token=")
	get := func(path string, body any) map[string]any {
		method := http.MethodGet
		var r io.Reader
		if body != nil {
			method = http.MethodPost
			b, _ := json.Marshal(body)
			r = bytes.NewReader(b)
		}
		req, err := http.NewRequest(method, base+path, r)
		require.NoError(t, err)
		req.Header.Set("X-Marslab-Token", token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var v map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
		require.Equal(t, 200, resp.StatusCode, "%v", v)
		return v
	}
	n := 0
	for max == 0 || n < max {
		s := get("/api/state?since=0&prompt=0", nil)
		for s["prompt"] == nil && s["over"] != true {
			get(fmt.Sprintf("/api/state?since=%v&prompt=0&wait=1", s["next"]), nil)
			s = get("/api/state?since=0&prompt=0", nil)
		}
		if s["over"] == true {
			return n
		}
		p := s["prompt"].(map[string]any)
		a := map[string]any{"prompt": p["id"]}
		switch p["kind"] {
		case "trade":
			a["do"], a["set"] = "trade", p["sets"].([]any)[0].(map[string]any)["cards"]
		case "setup":
			a["do"], a["territory"] = "setup", p["owned"].([]any)[0]
		case "place":
			a["do"], a["territory"], a["armies"] = "place", p["owned"].([]any)[0], p["left"]
		case "attack":
			a["do"] = "end_attack"
		case "occupy":
			a["do"], a["armies"] = "occupy", p["max"]
		case "fortify":
			a["do"] = "end_fortify"
		}
		get("/api/act", a)
		n++
	}
	return n
}

// shortMars2006 writes the mars2006 rules with a round limit of rounds
// into dir, its map beside it.
func shortMars2006(t *testing.T, dir string, rounds int) string {
	t.Helper()
	_, text, err := sim.RulesSource("mars2006")
	require.NoError(t, err)
	_, mapText, err := sim.MapSource("classic")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "classic.toml"), mapText, 0o644))
	s := regexp.MustCompile(`round_limit = \d+`).ReplaceAllString(string(text), fmt.Sprintf("round_limit = %d", rounds))
	s = strings.Replace(s, `map = "classic"`, `map = "classic.toml"`, 1)
	path := filepath.Join(dir, "short.toml")
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	return path
}

// TestPlayHuman: marslab play -players human,... serves the game, prints
// the summary at its end, and its log replays (marslab replay) and draws
// (marslab view); stopped, it prints the command that resumes it, and
// that command finishes the same game.
func TestPlayHuman(t *testing.T) {
	dir := t.TempDir()
	rules := shortMars2006(t, dir, 2)
	whole := filepath.Join(dir, "whole.jsonl")
	url, wait := humanPlay(t, context.Background(), "-players", "human,mars@paper,pixie", "-rules", rules, "-seed", "7", "-explain", "-log", whole)
	n := answerPrompts(t, url, 0)
	out, err := wait()
	require.NoError(t, err, out)
	assert.Positive(t, n)
	assert.Contains(t, out, "saved in "+whole+" as it goes")
	assert.Contains(t, out, "stalemate after 2 rounds")
	assert.Regexp(t, `0\s+human\s+`, out)
	rep, _, err := runCmd(t, "replay", whole)
	require.NoError(t, err)
	assert.Contains(t, rep, "identical")
	page := filepath.Join(dir, "whole.html")
	_, _, err = runCmd(t, "view", whole, "-out", page)
	require.NoError(t, err)

	// Stopped after 3 decisions, then resumed with the printed command.
	part := filepath.Join(dir, "part.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	url, wait = humanPlay(t, ctx, "-players", "human,mars@paper,pixie", "-rules", rules, "-seed", "7", "-explain", "-log", part)
	answerPrompts(t, url, 3)
	cancel()
	out, err = wait()
	require.Error(t, err)
	assert.NotContains(t, out, "stalemate", "no summary for a game stopped")
	cmd := "marslab play -resume " + part + " -explain"
	assert.Contains(t, err.Error(), "resume it with: "+cmd)
	saved, err := os.ReadFile(part)
	require.NoError(t, err)
	other := filepath.Join(dir, "other.jsonl")
	require.NoError(t, os.WriteFile(other, saved, 0o644))
	url, wait = humanPlay(t, context.Background(), strings.Fields(cmd)[2:]...)
	answerPrompts(t, url, 0)
	out, err = wait()
	require.NoError(t, err, out)
	a, err := os.ReadFile(whole)
	require.NoError(t, err)
	b, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b), "the resumed game is the same game")

	// The flags of a human game without a human seat, and a resume of
	// another game, are refused.
	_, _, err = runCmd(t, "play", "-players", "aggressive,random", "-idle", "1m")
	assert.ErrorContains(t, err, "-idle: only for a game with a human seat")
	_, _, err = runCmd(t, "play", "-players", "human,random", "-idle", "-1s")
	assert.ErrorContains(t, err, "-idle -1s: must be 0 (never) or more")
	_, _, err = runCmd(t, "play", "-resume", other, "-players", "human,mars@paper,aggressive", "-rules", rules, "-seed", "7")
	assert.ErrorContains(t, err, "the log's game is another: seat 2 is pixie, not aggressive")
	_, _, err = runCmd(t, "play", "-resume", part)
	assert.ErrorContains(t, err, "the log's game is over")
}

func TestLoopbackAndQuote(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:0": true, "localhost:8080": true, "[::1]:0": true, "127.1.2.3:9": true,
		":8080": false, "0.0.0.0:0": false, "192.168.1.5:80": false, "example.com:80": false} {
		got, err := loopback(addr)
		require.NoError(t, err, addr)
		assert.Equal(t, want, got, addr)
	}
	_, err := loopback("127.0.0.1")
	assert.Error(t, err, "no port")
	assert.Equal(t, "/tmp/a.jsonl", shellQuote("/tmp/a.jsonl"))
	assert.Equal(t, `'/tmp/my game'\''s.jsonl'`, shellQuote("/tmp/my game's.jsonl"))
}

// TestOpenBrowser: -open runs the system's opener with the page's address.
func TestOpenBrowser(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "opened")
	opener := filepath.Join(dir, "xdg-open")
	require.NoError(t, os.WriteFile(opener, []byte("#!/bin/sh\necho \"$1\" > "+got+"\n"), 0o755))
	t.Setenv("PATH", dir)
	var stderr bytes.Buffer
	openBrowser("http://127.0.0.1:1/?token=ab", &stderr)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(got); return string(b) == "http://127.0.0.1:1/?token=ab\n" }, 10*time.Second, 20*time.Millisecond)
	assert.Empty(t, stderr.String())
	t.Setenv("PATH", t.TempDir())
	openBrowser("http://127.0.0.1:1/", &stderr)
	assert.Contains(t, stderr.String(), "-open: no browser found")
}

// TestPlayHumanIdleOpenAddr: -open runs the system's opener with the
// printed address; -addr off the loopback is warned about and the address
// printed is the one to open here; a game without a request for -idle is
// saved and the command says how to resume it (not a failure).
func TestPlayHumanIdleOpenAddr(t *testing.T) {
	dir := t.TempDir()
	rules := shortMars2006(t, dir, 2)
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	opened := filepath.Join(dir, "opened")
	require.NoError(t, os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\necho \"$1\" > "+opened+"\n"), 0o755))
	t.Setenv("PATH", bin)
	log := filepath.Join(dir, "g.jsonl")
	var stdout, stderr syncBuffer
	err := run(context.Background(), registry.Default(), []string{"play", "-players", "human,mars@paper,pixie", "-rules", rules, "-seed", "7",
		"-log", log, "-idle", "300ms", "-open", "-addr", "0.0.0.0:0"}, &stdout, &stderr)
	require.NoError(t, err, "an idle game is saved, not failed")
	out := stdout.String()
	m := regexp.MustCompile(`the game waits for you at (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32}) \(from another machine`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Contains(t, out, "no request for 300ms: the game is saved in "+log+"; resume it with: marslab play -resume "+log+" -addr 0.0.0.0:0 -idle 300ms\n")
	assert.Contains(t, stderr.String(), "warning: -addr 0.0.0.0:0: the game's server is reachable from other machines")
	require.Eventually(t, func() bool { b, _ := os.ReadFile(opened); return string(b) == m[1]+"\n" }, 10*time.Second, 20*time.Millisecond)
	saved, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Contains(t, string(saved), `"e":"reinforce"`, "saved at the human's first decision")
	assert.NotContains(t, string(saved), `{"result"`)
}
