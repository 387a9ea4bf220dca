// Package human seats people at a game against bots, in the browser: the
// human seat is a sim.Player whose every answer comes from a web page that
// a local server serves (Play). The page is the board of marslab view,
// live: on a human seat's turn it offers what the engine says the seat may
// do (the sets it may trade, its territories, its legal attacks with their
// dice, the move-in range, the fortification moves of the rule set's
// variant), the person's choice goes to the server, which checks it with
// the engine's own checks (State.CheckAttack, CheckMoves, ...) and either
// hands it to the engine or answers the reason it refused, the game
// unchanged. The bots' turns, with their explanations, play out on the
// page at the speed the person sets.
//
// The game is an ordinary game: its JSONL log replays (ReplayPlayers reads
// the human seats' answers from the log's own events) and is saved at
// every decision the game waits for, so that an interrupted game goes on
// from its log (Config.Resume).
package human

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/marslab-risk/marslab/internal/atomicfile"
	"github.com/marslab-risk/marslab/internal/pageevent"
	"github.com/marslab-risk/marslab/sim"
)

// Config is a game with human seats: the seats whose Header.Seats entry
// names bot Bot are played at the page, the others by Players.
type Config struct {
	// Game is the engine, made for the header's seats (sim.NewGame); the
	// caller may have added its own observers.
	Game *sim.Game
	// Header is the log's header: seed, index, rules and map texts, seats.
	Header sim.LogHeader
	// Players holds a player per seat; those at human seats are ignored.
	Players []sim.Player
	// Explain lets the bots that can (bots.Explainer) explain their
	// decisions: into the log and beside the board.
	Explain bool
	// LogPath is the file the game's log is saved to, whole, at every
	// decision the game waits for and at its end.
	LogPath string
	// Resume is the log of an interrupted game of the same header: its
	// human seats' decisions are played again, each checked against the
	// log, before the game goes on live.
	Resume []byte
	// Addr is the address the server listens on (host:port; port 0 picks
	// a free one).
	Addr string
	// Token is the secret every request must carry; "" draws a random one.
	Token string
	// Idle ends the game, saved, after this long without a request (0:
	// never).
	Idle time.Duration
	// ResumeCommand is the command that resumes the saved game, printed
	// when the game stops before its end.
	ResumeCommand string
	// Out receives the address to open and the messages of the server.
	Out io.Writer
	// Ready, when not nil, is called with the page's address (token
	// included) once the server listens; it may open a browser.
	Ready func(url string)
}

// ErrSaved is returned (wrapped) by Play when the game stopped before its
// end, saved in Config.LogPath: after Config.Idle without a request, or
// when ctx was cancelled.
var ErrSaved = errors.New("the game is saved")

// pollWait is the longest a request for the state waits for a change.
const pollWait = 15 * time.Second

// endLinger is how long the server stays up once a page has been sent the
// game's end, for the pages' last requests.
const endLinger = 2 * time.Second

// Play plays the game of cfg: it serves the page on cfg.Addr, prints its
// address (with the token) to cfg.Out, plays the game with the human
// seats waiting for the page, and returns the result once the game is
// over and a page has been sent its end (or the server has been idle for
// cfg.Idle). A game that stops before its end (cfg.Idle without a
// request, or ctx done) returns an error wrapping ErrSaved that says where
// the game is saved and how to resume it.
func Play(ctx context.Context, cfg Config) (sim.Result, error) {
	var scripts []*script
	var logged [][]byte
	n := len(cfg.Header.Seats)
	if len(cfg.Players) != n {
		return sim.Result{}, fmt.Errorf("%d seats, %d players", n, len(cfg.Players))
	}
	isHuman := func(i int) bool { return cfg.Header.Seats[i].Bot == Bot }
	if !slices.ContainsFunc(cfg.Header.Seats, func(s sim.LogSeat) bool { return s.Bot == Bot }) {
		return sim.Result{}, errNoHuman
	}
	if cfg.LogPath == "" {
		return sim.Result{}, errors.New("no log path: a game with human seats is saved as it goes")
	}
	if cfg.Resume != nil {
		var ended bool
		var err error
		var h sim.LogHeader
		h, scripts, logged, ended, err = readScripts(bytes.NewReader(cfg.Resume), isHuman)
		if err != nil {
			return sim.Result{}, fmt.Errorf("resume: %w", err)
		}
		if ended {
			return sim.Result{}, errors.New("resume: the log's game is over (it has its result line)")
		}
		if err := sameGame(h, cfg.Header); err != nil {
			return sim.Result{}, fmt.Errorf("resume: %w", err)
		}
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	token := cfg.Token
	if token == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return sim.Result{}, err
		}
		token = hex.EncodeToString(b)
	}
	ps := slices.Clone(cfg.Players)
	s := &session{}
	for i := range ps {
		if isHuman(i) {
			var sc *script
			if scripts != nil {
				sc = scripts[i]
			}
			ps[i] = &seat{s: s, index: i, script: sc}
		}
	}
	// The bots that can explain their decisions do, into the log and the
	// page; the header lists them, so that a replay has them explain again.
	cfg.Header.Explain = nil
	if cfg.Explain {
		cfg.Header.Explain = sim.ExplainSeats(ps)
	}
	if err := s.init(&cfg, isHuman); err != nil {
		return sim.Result{}, err
	}
	if cfg.Resume == nil {
		// The header alone: a game stopped before its first decision
		// resumes from the start. A resumed game's log is saved at its
		// first live decision, once its past has replayed: the game being
		// resumed stays as it was until then.
		if err := s.save(); err != nil {
			return sim.Result{}, err
		}
	}
	gctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.ctx = gctx
	g := cfg.Game
	if logged != nil {
		g.Observe(&comparer{lines: logged, stop: cancel})
	}
	g.Observe(s)
	explainers, err := sim.Narrate(s, g, ps, cfg.Header.Explain)
	if err != nil {
		return sim.Result{}, err
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return sim.Result{}, fmt.Errorf("listen: %w", err)
	}
	srv := &server{s: s, token: token, addr: ln.Addr().(*net.TCPAddr)}
	if err := srv.buildPage(&cfg); err != nil {
		ln.Close()
		return sim.Result{}, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	// On every interface (0.0.0.0, ::) the address to open here is the
	// loopback's; the others reach the port at this machine's address.
	at, elsewhere := ln.Addr().String(), ""
	if srv.addr.IP.IsUnspecified() {
		at = net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.addr.Port))
		elsewhere = fmt.Sprintf(" (from another machine: this machine's address, port %d)", srv.addr.Port)
	}
	url := fmt.Sprintf("http://%s/?token=%s", at, token)
	fmt.Fprintf(cfg.Out, "the game waits for you at %s%s\n", url, elsewhere)
	if cfg.Ready != nil {
		cfg.Ready(url)
	}
	stopServer := func() {
		s.close()
		sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		_ = hs.Shutdown(sctx)
		<-served
	}

	type outcome struct {
		res sim.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := g.PlayContext(gctx, ps, cfg.Header.Seed, cfg.Header.Index)
		for _, w := range explainers {
			w.Flush()
		}
		done <- outcome{res, err}
	}()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	saved := func(why string) error {
		stopServer()
		return fmt.Errorf("%s: %w in %s; resume it with: %s", why, ErrSaved, cfg.LogPath, cfg.ResumeCommand)
	}
	for {
		select {
		case o := <-done:
			if cause := context.Cause(gctx); o.err != nil || s.passed() {
				stopServer()
				var mm *mismatch
				if errors.As(cause, &mm) {
					return sim.Result{}, fmt.Errorf("resume: %w", mm)
				}
				if ctx.Err() != nil {
					return sim.Result{}, fmt.Errorf("interrupted (%w): %w in %s; resume it with: %s", context.Cause(ctx), ErrSaved, cfg.LogPath, cfg.ResumeCommand)
				}
				if errors.Is(cause, errIdle) {
					return sim.Result{}, fmt.Errorf("%w: %w in %s; resume it with: %s", cause, ErrSaved, cfg.LogPath, cfg.ResumeCommand)
				}
				if o.err == nil {
					o.err = cause
				}
				return sim.Result{}, o.err
			}
			if err := s.finish(o.res); err != nil {
				stopServer()
				return o.res, err
			}
			// Serve the end until a page has been sent it.
			for !s.endSent(endLinger) && !s.idle(cfg.Idle) && ctx.Err() == nil {
				<-tick.C
			}
			stopServer()
			return o.res, nil
		case <-tick.C:
			if s.idle(cfg.Idle) {
				cancel(fmt.Errorf("%w for %v", errIdle, cfg.Idle))
			}
		case <-ctx.Done():
			// The game goroutine stops at once: the human seats pass.
			o := <-done
			_ = o
			return sim.Result{}, saved(fmt.Sprintf("interrupted (%v)", context.Cause(ctx)))
		}
	}
}

// errIdle is the cause of a game stopped for want of requests.
var errIdle = errors.New("no request")

// sameGame reports a difference between the header of a log being resumed
// and the game the flags describe.
func sameGame(log, cfg sim.LogHeader) error {
	var diffs []string
	if log.Seed != cfg.Seed || log.Index != cfg.Index {
		diffs = append(diffs, fmt.Sprintf("seed %d index %d, not seed %d index %d", log.Seed, log.Index, cfg.Seed, cfg.Index))
	}
	if log.RulesTOML != cfg.RulesTOML {
		diffs = append(diffs, fmt.Sprintf("rules %q differ from %q", log.RulesName, cfg.RulesName))
	}
	if log.MapTOML != cfg.MapTOML {
		diffs = append(diffs, fmt.Sprintf("map %q differs from %q", log.MapName, cfg.MapName))
	}
	if len(log.Seats) != len(cfg.Seats) {
		diffs = append(diffs, fmt.Sprintf("%d seats, not %d", len(log.Seats), len(cfg.Seats)))
	} else {
		for i, a := range log.Seats {
			b := cfg.Seats[i]
			if a.Bot != b.Bot || a.Label != b.Label || !equalParams(a.Params, b.Params) {
				diffs = append(diffs, fmt.Sprintf("seat %d is %s, not %s", i, a.Label, b.Label))
			}
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the log's game is another: %s", strings.Join(diffs, "; "))
	}
	return nil
}

func equalParams(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// mismatch is the error of a resumed game whose event differs from the
// log's.
type mismatch struct {
	line      int
	log, game []byte
}

func (m *mismatch) Error() string {
	return fmt.Sprintf("the game does not replay the log: event %d differs:\n  log:  %s\n  game: %s", m.line, m.log, m.game)
}

// comparer checks a resumed game's events against the log's, as long as
// the log has events.
type comparer struct {
	lines [][]byte
	k     int
	buf   []byte
	stop  context.CancelCauseFunc
}

func (c *comparer) Observe(e *sim.Event) {
	if e.Kind == sim.EvExplain || c.k >= len(c.lines) {
		return
	}
	c.buf = e.AppendJSON(c.buf[:0])
	if !bytes.Equal(c.buf, c.lines[c.k]) {
		c.stop(&mismatch{line: c.k + 1, log: c.lines[c.k], game: slices.Clone(c.buf)})
		c.k = len(c.lines)
		return
	}
	c.k++
}

// session is the state the game and the server share: the log, the page's
// events, the decision the game waits for.
type session struct {
	cfg    *Config
	ctx    context.Context
	human  func(int) bool
	m      *sim.Map
	nt, ns int

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	closed  bool
	log     bytes.Buffer // the header and every event line so far
	events  []json.RawMessage
	owner   []int
	armies  []int
	cards   []int
	nElim   int
	prompt  *prompt
	seq     int
	over    bool
	result  *sim.Result
	endAt   time.Time // when a page was first sent the end
	active  time.Time // the end of the last request
	flying  int       // requests being served
	pass    bool      // a human seat passed because the game was stopped
	saveErr error
	ebuf    []byte
}

// init sets up the session of the game of cfg, whose header it writes
// first into the log.
func (s *session) init(cfg *Config, human func(int) bool) error {
	h := cfg.Header
	h.Format = sim.LogFormat
	m, err := sim.ParseMap("map_toml", []byte(h.MapTOML))
	if err != nil {
		return err
	}
	r, err := sim.ParseRules("rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return err
	}
	if h.RulesSHA256, err = sim.RulesDigest(r); err != nil {
		return err
	}
	if h.MapSHA256, err = sim.MapDigest(m); err != nil {
		return err
	}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	nt, ns := len(m.Territories), len(h.Seats)
	*s = session{cfg: cfg, human: human, m: m, nt: nt, ns: ns, changed: make(chan struct{}),
		owner: make([]int, nt), armies: make([]int, nt), cards: make([]int, ns), active: time.Now()}
	for t := range s.owner {
		s.owner[t] = -1
	}
	s.log.Write(head)
	s.log.WriteByte('\n')
	return nil
}

// notify wakes the requests waiting for a change; s.mu is held.
func (s *session) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// save writes the log so far to the log file; s.mu is held (or the game
// has not started).
func (s *session) save() error {
	err := atomicfile.WriteFile(s.cfg.LogPath, s.log.Bytes(), 0o644)
	if err != nil {
		err = fmt.Errorf("saving the game: %w", err)
		s.saveErr = err
	}
	return err
}

// finish writes the whole log, result line included, and marks the game
// over.
func (s *session) finish(res sim.Result) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Write(sim.ResultLine(res))
	s.log.WriteByte('\n')
	s.over = true
	s.result = &res
	s.prompt = nil
	s.notify()
	if s.saveErr != nil {
		return s.saveErr
	}
	return s.save()
}

// close wakes every waiting request for the server's end.
func (s *session) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.notify()
	}
}

func (s *session) passed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pass
}

// idle reports whether no request has been served for d (d > 0).
func (s *session) idle(d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return d > 0 && s.flying == 0 && time.Since(s.active) > d
}

// endSent reports whether a page was sent the game's end at least linger
// ago.
func (s *session) endSent(linger time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.endAt.IsZero() && time.Since(s.endAt) >= linger
}

// Observe records an event of the game: a line of the log, and for the
// page the event with the change of the position it made.
func (s *session) Observe(e *sim.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ebuf = e.AppendJSON(s.ebuf[:0])
	s.log.Write(s.ebuf)
	s.log.WriteByte('\n')
	pe := s.pageEvent(e)
	b, err := json.Marshal(pe)
	if err != nil {
		panic(err) // the page event holds only numbers and strings
	}
	s.events = append(s.events, b)
	s.notify()
}

// pageEvent is an event as the page reads it: the viewer's event, and a
// card drawn, shown only to the human seats.
type pageEvent struct {
	pageevent.Event
	Card *[2]int `json:"card,omitempty"`
}

// pageEvent encodes e and the position's change since the last event;
// s.mu is held.
func (s *session) pageEvent(e *sim.Event) pageEvent {
	v := pageEvent{Event: pageevent.Encode(e)}
	if e.Kind == sim.EvCard && s.human(e.Player) {
		v.Card = &[2]int{int(e.Cards[0].Territory), int(e.Cards[0].Symbol)}
	}
	if e.Kind == sim.EvExplain {
		return v
	}
	st := s.cfg.Game.State()
	for t := range s.nt {
		if o, a := st.Owner(t), st.Armies(t); o != s.owner[t] || a != s.armies[t] {
			s.owner[t], s.armies[t] = o, a
			v.Set = append(v.Set, [3]int{t, o, a})
		}
	}
	for p := range s.ns {
		if c := st.NumCards(p); c != s.cards[p] {
			s.cards[p] = c
			v.Cards = append(v.Cards, [2]int{p, c})
		}
	}
	if k := st.NumEliminated(); k > s.nElim {
		v.Out = st.AppendEliminated(nil)[s.nElim:]
		s.nElim = k
	}
	if e.Kind == sim.EvGameEnd && e.Player >= 0 {
		v.Winner = pageevent.Index(e.Player)
	}
	return v
}

// ask publishes p, saves the log and waits for the page's answer; ok is
// false when the game is being stopped (the seat then passes).
func (s *session) ask(p *prompt) (a answer, ok bool) {
	s.mu.Lock()
	if s.ctx.Err() != nil {
		// Stopping: no more prompts, and the log stays as last saved.
		s.pass = true
		s.mu.Unlock()
		return answer{}, false
	}
	s.seq++
	p.ID = s.seq
	p.answer = make(chan answer, 1)
	s.prompt = p
	if s.saveErr == nil {
		_ = s.save()
	}
	s.notify()
	s.mu.Unlock()
	select {
	case a = <-p.answer:
		return a, true
	case <-s.ctx.Done():
		s.mu.Lock()
		s.pass = true
		if s.prompt == p {
			s.prompt = nil
		}
		s.mu.Unlock()
		return answer{}, false
	}
}
