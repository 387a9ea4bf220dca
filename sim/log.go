package sim

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendJSON appends the event as one JSON object (no newline) to buf and
// returns it. Only the fields that the kind uses are written, in a fixed
// order, so equal events give equal bytes:
//
//	{"e":"roll","round":3,"phase":"attack","player":0,"other":2,"from":5,"to":7,"att":[6,4,1],"def":[5,2],"att_loss":1,"def_loss":1}
func (e *Event) AppendJSON(buf []byte) []byte {
	buf = append(buf, `{"e":"`...)
	buf = append(buf, e.Kind.String()...)
	buf = append(buf, `","round":`...)
	buf = strconv.AppendInt(buf, int64(e.Round), 10)
	buf = append(buf, `,"phase":"`...)
	buf = append(buf, e.Phase.String()...)
	buf = append(buf, `","player":`...)
	buf = strconv.AppendInt(buf, int64(e.Player), 10)
	if e.Other >= 0 {
		buf = append(buf, `,"other":`...)
		buf = strconv.AppendInt(buf, int64(e.Other), 10)
	}
	if e.From >= 0 {
		buf = append(buf, `,"from":`...)
		buf = strconv.AppendInt(buf, int64(e.From), 10)
	}
	if e.To >= 0 {
		buf = append(buf, `,"to":`...)
		buf = strconv.AppendInt(buf, int64(e.To), 10)
	}
	if e.Armies != 0 {
		buf = append(buf, `,"armies":`...)
		buf = strconv.AppendInt(buf, int64(e.Armies), 10)
	}
	switch e.Kind {
	case EvRoll:
		buf = append(buf, `,"att":[`...)
		for i := 0; i < int(e.NAttack); i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(e.AttackerDice[i]), 10)
		}
		buf = append(buf, `],"def":[`...)
		for i := 0; i < int(e.NDefend); i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(e.DefenderDice[i]), 10)
		}
		buf = append(buf, `],"att_loss":`...)
		buf = strconv.AppendInt(buf, int64(e.AttackerLoss), 10)
		buf = append(buf, `,"def_loss":`...)
		buf = strconv.AppendInt(buf, int64(e.DefenderLoss), 10)
	case EvTrade, EvCard:
		n := 3
		if e.Kind == EvCard {
			n = 1
		}
		buf = append(buf, `,"cards":[`...)
		for i := 0; i < n; i++ {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '[')
			buf = strconv.AppendInt(buf, int64(e.Cards[i].Territory), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(e.Cards[i].Symbol), 10)
			buf = append(buf, ']')
		}
		buf = append(buf, ']')
	case EvFault, EvExplain:
		buf = append(buf, `,"text":`...)
		buf = strconv.AppendQuote(buf, e.Text)
	case EvAttackOrder:
		buf = append(buf, `,"dice":`...)
		buf = strconv.AppendInt(buf, int64(e.Dice), 10)
		buf = append(buf, `,"repeat":`...)
		buf = strconv.AppendBool(buf, e.Repeat)
		buf = append(buf, `,"stop_at":`...)
		buf = strconv.AppendInt(buf, int64(e.StopAt), 10)
	}
	return append(buf, '}')
}

// LogHeader is the first line of a JSONL game log: everything needed to
// play the game again. Rules and map are stored as their TOML text, so a log
// replays even if the files it came from have changed.
type LogHeader struct {
	// Format is "marslab-game-log/1".
	Format string `json:"format"`
	// Seed and Index are the experiment seed and game index (see [GameSeed]).
	Seed  uint64 `json:"seed"`
	Index uint64 `json:"index"`
	// RulesName and MapName say where the configuration came from.
	RulesName string `json:"rules_name"`
	MapName   string `json:"map_name"`
	// RulesTOML and MapTOML are the configuration texts that were played.
	RulesTOML string `json:"rules_toml"`
	MapTOML   string `json:"map_toml"`
	// RulesSHA256 and MapSHA256 are [RulesDigest] and [MapDigest] of the rules
	// and map in RulesTOML and MapTOML, written by [NewLogWriter] and checked
	// by Replay.
	RulesSHA256 string `json:"rules_sha256,omitempty"`
	MapSHA256   string `json:"map_sha256,omitempty"`
	// Seats describe the players in seat order.
	Seats []LogSeat `json:"seats"`
	// Explain lists, in increasing order, the seats whose players narrated
	// their decisions into the log as [EvExplain] lines (Narrate); Replay
	// has these seats narrate again and checks every explanation line as
	// it checks a game event. Empty: the log holds no explanation.
	Explain []int `json:"explain,omitempty"`
}

// LogSeat records one seat of a logged game: the bot's registry name and
// every parameter value it played with.
type LogSeat struct {
	Label  string             `json:"label"`
	Bot    string             `json:"bot"`
	Params map[string]float64 `json:"params,omitempty"`
}

// LogFormat is the value of [LogHeader.Format].
const LogFormat = "marslab-game-log/1"

// LogWriter is an Observer that writes a game as JSONL: the header, one
// line per event, and a closing line {"result":...}.
type LogWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
}

// headerDigest parses text ("" gives "") with parse, source naming it in
// errors, and returns its digest.
func headerDigest[T any](text, source string, parse func(string, []byte) (T, error), digest func(T) (string, error)) (string, error) {
	if text == "" {
		return "", nil
	}
	v, err := parse(source, []byte(text))
	if err != nil {
		return "", err
	}
	d, err := digest(v)
	if err != nil {
		return "", fmt.Errorf("log header: %w", err)
	}
	return d, nil
}

// NewLogWriter writes the header to w and returns the observer. It sets
// the header's Format, and its RulesSHA256 and MapSHA256 from RulesTOML and
// MapTOML (left empty when the text is): a text that does not parse as
// rules or as a map is an error.
func NewLogWriter(w io.Writer, h LogHeader) (*LogWriter, error) {
	h.Format = LogFormat
	var err error
	if h.RulesSHA256, err = headerDigest(h.RulesTOML, "log header: rules_toml", ParseRules, RulesDigest); err != nil {
		return nil, err
	}
	if h.MapSHA256, err = headerDigest(h.MapTOML, "log header: map_toml", ParseMap, MapDigest); err != nil {
		return nil, err
	}
	lw := &LogWriter{w: bufio.NewWriterSize(w, 1<<16)}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("log header: %w", err)
	}
	lw.w.Write(b)
	lw.w.WriteByte('\n')
	return lw, nil
}

// Observe writes one event line.
func (l *LogWriter) Observe(e *Event) {
	if l.err != nil {
		return
	}
	l.buf = e.AppendJSON(l.buf[:0])
	l.buf = append(l.buf, '\n')
	_, l.err = l.w.Write(l.buf)
}

// Close writes the result line and flushes.
func (l *LogWriter) Close(res Result) error {
	if l.err != nil {
		return l.err
	}
	l.w.Write(ResultLine(res))
	l.w.WriteByte('\n')
	return l.w.Flush()
}

// ResultLine returns the closing line of a game log, {"result":{...}},
// without the newline.
func ResultLine(res Result) []byte {
	b, _ := json.Marshal(struct {
		Result Result `json:"result"`
	}{res})
	return b
}

// MarshalJSON writes Result with snake_case keys.
func (r Result) MarshalJSON() ([]byte, error) {
	type out struct {
		Winner     int   `json:"winner"`
		Stalemate  bool  `json:"stalemate"`
		Rounds     int   `json:"rounds"`
		Turns      int   `json:"turns"`
		Placement  []int `json:"placement"`
		Eliminated []int `json:"eliminated"`
		Faults     []int `json:"faults"`
	}
	return json.Marshal(out(r))
}

// RulesDigest returns the SHA-256, in hex, of the canonical encoding of r
// ([EncodeRules]): equal rules give equal digests, however their TOML was
// laid out.
func RulesDigest(r *Rules) (string, error) {
	h := sha256.New()
	if err := EncodeRules(h, r); err != nil {
		return "", fmt.Errorf("rules digest: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// MapDigest returns the SHA-256, in hex, of the canonical encoding of m
// ([EncodeMap]).
func MapDigest(m *Map) (string, error) {
	h := sha256.New()
	if err := EncodeMap(h, m); err != nil {
		return "", fmt.Errorf("map digest: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ExplainWriter turns a seat's narration (what a bots.Explainer writes
// after SetExplain) into [EvExplain] events: every line written becomes one
// event of the seat, with the round and phase of the game at the time of
// the write, passed to an Observer (a [LogWriter], so that the explanations
// sit in the log just before the events of the decisions they explain).
// Invalid UTF-8 and the characters that [strconv.IsPrint] rejects, tabs
// aside, are written as U+FFFD, so that every line is valid JSON that reads
// back as written. Call Flush after the game for a last line without a
// newline.
type ExplainWriter struct {
	o    Observer
	g    *Game
	seat int
	line []byte
	ev   Event
}

// NewExplainWriter returns a writer of seat's explanations in game g for
// observer o.
func NewExplainWriter(o Observer, g *Game, seat int) *ExplainWriter {
	return &ExplainWriter{o: o, g: g, seat: seat}
}

// Write implements [io.Writer]; it never fails.
func (w *ExplainWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line = append(w.line, p...)
			break
		}
		w.line = append(w.line, p[:i]...)
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

// Flush writes the last line if it has no newline.
func (w *ExplainWriter) Flush() {
	if len(w.line) > 0 {
		w.emit()
	}
}

func (w *ExplainWriter) emit() {
	text := strings.Map(func(r rune) rune {
		if r != '\t' && !strconv.IsPrint(r) {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(strings.TrimRight(string(w.line), "\r"), string(utf8.RuneError)))
	w.line = w.line[:0]
	s := w.g.State()
	w.ev = Event{Kind: EvExplain, Round: s.Round(), Phase: s.Phase(), Player: w.seat, Other: -1, From: -1, To: -1, Text: text}
	w.o.Observe(&w.ev)
}

// explainer is a player that narrates its decisions into a writer: the
// method of bots.Explainer.
type explainer interface{ SetExplain(w io.Writer) }

// ExplainSeats returns the seats of ps whose players can narrate their
// decisions (a SetExplain(io.Writer) method, bots.Explainer): the
// [LogHeader.Explain] of a log that is to hold their narration.
func ExplainSeats(ps []Player) []int {
	var seats []int
	for i, p := range ps {
		if _, ok := p.(explainer); ok {
			seats = append(seats, i)
		}
	}
	return seats
}

// Narrate makes the players of seats ([ExplainSeats]) narrate their
// decisions in game g into o as [EvExplain] events, and returns the writers,
// to Flush once the game has ended.
func Narrate(o Observer, g *Game, ps []Player, seats []int) ([]*ExplainWriter, error) {
	ws := make([]*ExplainWriter, 0, len(seats))
	for _, s := range seats {
		if s < 0 || s >= len(ps) {
			return nil, fmt.Errorf("explain: seat %d of %d", s, len(ps))
		}
		e, ok := ps[s].(explainer)
		if !ok {
			return nil, fmt.Errorf("explain: seat %d: its player cannot explain its decisions", s)
		}
		w := NewExplainWriter(o, g, s)
		e.SetExplain(w)
		ws = append(ws, w)
	}
	return ws, nil
}
