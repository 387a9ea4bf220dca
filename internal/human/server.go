package human

import (
	"bytes"
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/marslab-risk/marslab/internal/pageevent"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/view"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.js
var pageScript string

//go:embed page.css
var pageStyle string

var pageTmpl = template.Must(template.New("page").Parse(pageTemplate))

// tokenHeader is the header that carries the token in the page's
// requests (the page's own address carries it as ?token=).
const tokenHeader = "X-Marslab-Token"

// maxBody is the largest request body read.
const maxBody = 1 << 14

// server answers the page: GET / (the page), GET /api/state (the events
// since the page's last, the decision the game waits for), POST /api/act
// (a choice). Every request must carry the token; a request from another
// origin, or to another host than the server's when it listens on the
// loopback, is refused.
type server struct {
	s     *session
	token string
	addr  *net.TCPAddr
	page  []byte
}

// board is what the page draws: the map, the seats, the rules it names.
type board struct {
	Title      string      `json:"title"`
	Seats      []boardSeat `json:"seats"`
	Territory  []boardTerr `json:"territories"`
	Continents []boardCont `json:"continents"`
	Borders    [][2]int    `json:"borders"`
	Wrap       bool        `json:"wrap"`
	Width      int         `json:"width"`
	Height     int         `json:"height"`
	Rules      string      `json:"rules"`
	Explain    bool        `json:"explain"`
	// Bonus is the armies a traded card's territory gets (cards.territory_bonus).
	Bonus int `json:"territory_bonus"`
}

type boardSeat struct {
	Label string `json:"label"`
	Bot   string `json:"bot"`
	Human bool   `json:"human"`
}

type boardTerr struct {
	Name      string  `json:"name"`
	Continent int     `json:"continent"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
}

type boardCont struct {
	Name  string `json:"name"`
	Bonus int    `json:"bonus"`
}

// buildPage renders the page once: it holds the board and no token.
func (sv *server) buildPage(cfg *Config) error {
	h, m := cfg.Header, sv.s.m
	r, err := sim.ParseRules("rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return err
	}
	b := board{Width: view.Width, Height: view.Height, Wrap: m.Layout != nil, Explain: cfg.Explain, Bonus: r.Cards.TerritoryBonus,
		Title: fmt.Sprintf("marslab play: %s on %s, seed %d, game %d", r.Name, m.Name, h.Seed, h.Index)}
	b.Rules = fmt.Sprintf("attacker dice up to %d, defender %d; fortify %s; cards %s", r.Attack.AttackerDice, r.Attack.DefenderDice, r.Fortify.Mode, r.Cards.Mode)
	if r.End.RoundLimit > 0 {
		b.Rules += fmt.Sprintf("; a stalemate after round %d", r.End.RoundLimit)
	}
	for _, s := range h.Seats {
		b.Seats = append(b.Seats, boardSeat{Label: s.Label, Bot: s.Bot, Human: s.Bot == Bot})
	}
	pts := view.Layout(m)
	for t, tr := range m.Territories {
		b.Territory = append(b.Territory, boardTerr{Name: tr.Name, Continent: tr.Continent, X: pts[t].X, Y: pts[t].Y})
		for _, u := range tr.Neighbors {
			if u > t {
				b.Borders = append(b.Borders, [2]int{t, u})
			}
		}
	}
	for _, c := range m.Continents {
		b.Continents = append(b.Continents, boardCont{Name: c.Name, Bonus: c.Bonus})
	}
	js, err := json.Marshal(b)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	err = pageTmpl.Execute(&page, struct {
		Title  string
		Data   template.JS
		Script template.JS
		Style  template.CSS
	}{b.Title, template.JS(js), template.JS(pageevent.BoardScript + pageScript), template.CSS(pageevent.BoardStyle + pageStyle)})
	sv.page = page.Bytes()
	return err
}

// httpError is a refused request: its status and reason.
type httpError struct {
	status int
	reason string
}

func (e *httpError) Error() string { return e.reason }

func fail(w http.ResponseWriter, status int, reason string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{reason})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// check refuses a request without the token, with another, from another
// origin or to another host.
func (sv *server) check(r *http.Request) *httpError {
	tok := r.Header.Get(tokenHeader)
	if tok == "" {
		tok = r.URL.Query().Get("token")
	}
	if tok == "" {
		return &httpError{http.StatusUnauthorized, "no token: open the address marslab play printed, ?token= included"}
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(sv.token)) != 1 {
		return &httpError{http.StatusForbidden, "wrong token: open the address marslab play printed"}
	}
	if sv.addr.IP.IsLoopback() {
		host, port, err := net.SplitHostPort(r.Host)
		ok := err == nil && port == strconv.Itoa(sv.addr.Port) && (host == "localhost" || net.ParseIP(host) != nil && net.ParseIP(host).IsLoopback())
		if !ok {
			return &httpError{http.StatusForbidden, fmt.Sprintf("host %q: the server answers only at %s", r.Host, sv.addr)}
		}
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return &httpError{http.StatusForbidden, fmt.Sprintf("origin %q: only the page at http://%s may ask", o, r.Host)}
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" {
		return &httpError{http.StatusForbidden, "a cross-site request"}
	}
	return nil
}

func (sv *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := sv.s
	s.mu.Lock()
	s.flying++
	s.active = time.Now()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.flying--
		s.active = time.Now()
		s.mu.Unlock()
	}()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if e := sv.check(r); e != nil {
		fail(w, e.status, e.reason)
		return
	}
	route := map[string]string{"/": http.MethodGet, "/api/state": http.MethodGet, "/api/act": http.MethodPost}
	method, ok := route[r.URL.Path]
	switch {
	case !ok:
		fail(w, http.StatusNotFound, fmt.Sprintf("%s: no such page (/, /api/state, /api/act)", r.URL.Path))
		return
	case r.Method != method:
		w.Header().Set("Allow", method)
		fail(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, method))
		return
	}
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:")
		w.Write(sv.page)
	case "/api/state":
		sv.state(w, r)
	case "/api/act":
		sv.act(w, r)
	}
}

// stateReply is what the page is told: the events from Since on, the
// number of events, the decision the game waits for, and the end.
type stateReply struct {
	Since  int               `json:"since"`
	Next   int               `json:"next"`
	Events []json.RawMessage `json:"events"`
	Prompt *prompt           `json:"prompt"`
	Over   bool              `json:"over"`
	Result *sim.Result       `json:"result,omitempty"`
	Closed bool              `json:"closed"`
}

// state answers GET /api/state?since=N&prompt=ID&wait=1: the events from
// the N-th on; with wait, once there is something new (an event past N, a
// prompt other than ID, the end) or after pollWait.
func (sv *server) state(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	since, err := queryInt(q.Get("since"), 0)
	if err != nil {
		fail(w, http.StatusBadRequest, "since: "+err.Error())
		return
	}
	seen, err := queryInt(q.Get("prompt"), -1)
	if err != nil {
		fail(w, http.StatusBadRequest, "prompt: "+err.Error())
		return
	}
	wait := q.Get("wait") == "1"
	s := sv.s
	deadline := time.NewTimer(pollWait)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		if since > len(s.events) {
			n := len(s.events)
			s.mu.Unlock()
			fail(w, http.StatusBadRequest, fmt.Sprintf("since %d: the game has %d events", since, n))
			return
		}
		pid := 0
		if s.prompt != nil {
			pid = s.prompt.ID
		}
		news := since < len(s.events) || pid != seen || s.over || s.closed
		if !wait || news {
			rep := stateReply{Since: since, Next: len(s.events), Events: s.events[since:len(s.events):len(s.events)],
				Prompt: s.prompt, Over: s.over, Result: s.result, Closed: s.closed}
			if rep.Events == nil {
				rep.Events = []json.RawMessage{} // a list, before the game's first event too
			}
			if s.over && s.endAt.IsZero() {
				s.endAt = time.Now()
			}
			b, err := json.Marshal(rep)
			s.mu.Unlock()
			if err != nil {
				fail(w, http.StatusInternalServerError, err.Error())
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(append(b, '\n'))
			return
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			wait = false
		case <-r.Context().Done():
			return
		}
	}
}

func queryInt(v string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < -1 {
		return 0, fmt.Errorf("%q: want a number >= -1", v)
	}
	return n, nil
}

// act answers POST /api/act: the choice in the body (an action) is
// checked against the decision the game waits for.
func (sv *server) act(w http.ResponseWriter, r *http.Request) {
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body: %v (at most %d bytes)", err, maxBody))
		return
	}
	var a action
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		fail(w, http.StatusBadRequest, "the body is not a choice: "+err.Error())
		return
	}
	if dec.More() {
		fail(w, http.StatusBadRequest, "the body is not a choice: more than one JSON value")
		return
	}
	s := sv.s
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.prompt
	switch {
	case s.over:
		fail(w, http.StatusConflict, "the game is over")
		return
	case p == nil:
		fail(w, http.StatusConflict, "the game waits for no decision now (the bots play)")
		return
	case a.Prompt != p.ID:
		fail(w, http.StatusConflict, fmt.Sprintf("prompt %d: the game now waits for decision %d (%s of seat %d)", a.Prompt, p.ID, p.Kind, p.Seat))
		return
	}
	ans, whole, err := p.apply(&a)
	var ref *refusal
	switch {
	case errors.As(err, &ref):
		fail(w, http.StatusUnprocessableEntity, ref.reason)
		return
	case err != nil:
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	if whole {
		s.prompt = nil
		p.answer <- ans
		s.notify()
		writeJSON(w, http.StatusOK, struct {
			Done bool `json:"done"`
		}{true})
		return
	}
	// A part of the answer: the prompt is a new one, so that another tab
	// sees it and a choice made against the old one is refused.
	s.seq++
	p.ID = s.seq
	s.notify()
	writeJSON(w, http.StatusOK, struct {
		Done   bool    `json:"done"`
		Prompt *prompt `json:"prompt"`
	}{false, p})
}
