package sim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
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
	case EvFault:
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
	// Seed and Index are the experiment seed and game index (see GameSeed).
	Seed  uint64 `json:"seed"`
	Index uint64 `json:"index"`
	// RulesName and MapName say where the configuration came from.
	RulesName string `json:"rules_name"`
	MapName   string `json:"map_name"`
	// RulesTOML and MapTOML are the configuration texts that were played.
	RulesTOML string `json:"rules_toml"`
	MapTOML   string `json:"map_toml"`
	// Seats describe the players in seat order.
	Seats []LogSeat `json:"seats"`
}

// LogSeat records one seat of a logged game: the bot's registry name and
// every parameter value it played with.
type LogSeat struct {
	Label  string             `json:"label"`
	Bot    string             `json:"bot"`
	Params map[string]float64 `json:"params,omitempty"`
}

// LogFormat is the value of LogHeader.Format.
const LogFormat = "marslab-game-log/1"

// LogWriter is an Observer that writes a game as JSONL: the header, one
// line per event, and a closing line {"result":...}.
type LogWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
}

// NewLogWriter writes the header to w and returns the observer.
func NewLogWriter(w io.Writer, h LogHeader) (*LogWriter, error) {
	h.Format = LogFormat
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

// ReadLog reads a JSONL game log: its header, its event lines (raw, without
// the newline) and its closing result line. A log whose result line is
// missing, truncated (not a JSON object with a "result" object) or followed
// by more lines is an error: the game it records did not end, or the log
// was cut or edited.
func ReadLog(r io.Reader) (LogHeader, [][]byte, []byte, error) {
	var h LogHeader
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return h, nil, nil, err
		}
		return h, nil, nil, errors.New("empty log")
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		return h, nil, nil, fmt.Errorf("line 1 (header): %w", err)
	}
	if h.Format != LogFormat {
		return h, nil, nil, fmt.Errorf("line 1: format %q, want %q", h.Format, LogFormat)
	}
	var events [][]byte
	var result []byte
	line := 1
	for sc.Scan() {
		line++
		if result != nil {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			return h, nil, nil, fmt.Errorf("line %d: a line after the result line", line)
		}
		text := append([]byte(nil), sc.Bytes()...)
		if bytes.HasPrefix(text, []byte(`{"result":`)) {
			var res struct {
				Result map[string]json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(text, &res); err != nil || res.Result == nil {
				return h, nil, nil, fmt.Errorf("line %d: truncated or malformed result line: %s", line, text)
			}
			result = text
			continue
		}
		events = append(events, text)
	}
	if err := sc.Err(); err != nil {
		return h, nil, nil, err
	}
	if result == nil {
		return h, nil, nil, fmt.Errorf("line %d: no result line: the log is truncated or its game did not end", line+1)
	}
	return h, events, result, nil
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
