package sim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
)

// LogReader reads a JSONL game log as [LogWriter] writes it: the header (line
// 1), one Event per line, and the closing result line. Every event line must
// be exactly what [Event.AppendJSON] writes for the event it decodes to, so a
// log that reads without error re-encodes byte for byte. Errors name the
// line, e.g. "line 7: ...".
//
//	lr, err := sim.NewLogReader(f)
//	...
//	for lr.Next() {
//		e := lr.Event()
//		...
//	}
//	res, err := lr.Result()
type LogReader struct {
	sc     *bufio.Scanner
	header LogHeader
	line   int
	raw    []byte
	ev     Event
	buf    []byte
	res    Result
	done   bool // the result line was read
	err    error
}

// NewLogReader reads and checks the header line of a game log.
func NewLogReader(r io.Reader) (*LogReader, error) {
	lr := &LogReader{sc: bufio.NewScanner(r)}
	lr.sc.Buffer(make([]byte, 1<<16), 1<<26)
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			return nil, fmt.Errorf("line 1 (header): %w", err)
		}
		return nil, errors.New("empty log")
	}
	lr.line = 1
	dec := json.NewDecoder(bytes.NewReader(lr.sc.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lr.header); err != nil {
		return nil, fmt.Errorf("line 1 (header): %w", err)
	}
	if lr.header.Format != LogFormat {
		return nil, fmt.Errorf("line 1 (header): format %q, want %q", lr.header.Format, LogFormat)
	}
	return lr, nil
}

// Header returns the log's header.
func (lr *LogReader) Header() LogHeader { return lr.header }

// Next reads the next event line and reports whether there is one. It
// returns false at the result line (see Result) and on an error (see Err).
func (lr *LogReader) Next() bool {
	if lr.err != nil || lr.done {
		return false
	}
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			lr.err = fmt.Errorf("line %d: %w", lr.line+1, err)
		} else {
			lr.err = fmt.Errorf("line %d: no result line: the log is truncated or its game did not end", lr.line+1)
		}
		return false
	}
	lr.line++
	lr.raw = lr.sc.Bytes()
	if bytes.HasPrefix(lr.raw, []byte(`{"result":`)) {
		lr.readResult()
		return false
	}
	if err := lr.ev.decodeJSON(lr.raw); err != nil {
		lr.err = fmt.Errorf("line %d: %w: %s", lr.line, err, quoteLine(lr.raw))
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
			raw := quoteLine(lr.raw)
			if !lr.sc.Scan() && lr.sc.Err() == nil {
				lr.err = fmt.Errorf("line %d: cut short, and no result line: the log is truncated or its game did not end: %s", lr.line, raw)
			}
		}
		return false
	}
	lr.buf = lr.ev.AppendJSON(lr.buf[:0])
	if !bytes.Equal(lr.buf, lr.raw) {
		lr.err = fmt.Errorf("line %d: not as the log writer writes this event:\n  log:       %s\n  canonical: %s", lr.line, quoteLine(lr.raw), quoteLine(lr.buf))
		return false
	}
	return true
}

// readResult decodes the result line and checks that only blank lines
// follow it.
func (lr *LogReader) readResult() {
	var res struct {
		Result *Result `json:"result"`
	}
	dec := json.NewDecoder(bytes.NewReader(lr.raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil || res.Result == nil {
		lr.err = fmt.Errorf("line %d: truncated or malformed result line: %s", lr.line, quoteLine(lr.raw))
		return
	}
	if got := ResultLine(*res.Result); !bytes.Equal(got, lr.raw) {
		lr.err = fmt.Errorf("line %d: not as the log writer writes this result:\n  log:       %s\n  canonical: %s", lr.line, quoteLine(lr.raw), quoteLine(got))
		return
	}
	lr.res, lr.done = *res.Result, true
	for lr.sc.Scan() {
		lr.line++
		if len(bytes.TrimSpace(lr.sc.Bytes())) != 0 {
			lr.err = fmt.Errorf("line %d: a line after the result line", lr.line)
			return
		}
	}
	if err := lr.sc.Err(); err != nil {
		lr.err = fmt.Errorf("line %d: %w", lr.line+1, err)
	}
}

// maxQuoted bounds the bytes of a log line that an error quotes.
const maxQuoted = 200

// quoteLine returns a log line as an error shows it: Go-quoted (%q), so
// that control characters and terminal escapes print as text, and cut
// after maxQuoted bytes, with the line's length.
func quoteLine(b []byte) string {
	if len(b) <= maxQuoted {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("%q... (%d bytes)", b[:maxQuoted], len(b))
}

// Event returns the event read by the last successful Next. It is valid
// until the next call of Next: copy it to keep it.
func (lr *LogReader) Event() *Event { return &lr.ev }

// Raw returns the line read by the last call of Next, without the newline.
// It is valid until the next call of Next.
func (lr *LogReader) Raw() []byte { return lr.raw }

// Line returns the number (from 1, the header) of the line read last.
func (lr *LogReader) Line() int { return lr.line }

// Err returns the first error met by Next, or nil.
func (lr *LogReader) Err() error { return lr.err }

// Result returns the game's result once Next has returned false: an error
// if the log is cut or malformed, or if Next has not reached the result
// line yet.
func (lr *LogReader) Result() (Result, error) {
	switch {
	case lr.err != nil:
		return Result{}, lr.err
	case !lr.done:
		return Result{}, fmt.Errorf("line %d: the result line has not been read yet", lr.line)
	}
	return lr.res, nil
}

// ReadLog reads a whole JSONL game log: its header, its events and its
// result. A log whose result line is missing, truncated (not a JSON object
// with a "result" object) or followed by more lines is an error: the game it
// records did not end, or the log was cut or edited.
func ReadLog(r io.Reader) (LogHeader, []Event, Result, error) {
	lr, err := NewLogReader(r)
	if err != nil {
		return LogHeader{}, nil, Result{}, err
	}
	var events []Event
	for lr.Next() {
		events = append(events, *lr.Event())
	}
	res, err := lr.Result()
	if err != nil {
		return lr.header, nil, Result{}, err
	}
	return lr.header, events, res, nil
}

// UnmarshalJSON reads Result from its snake_case keys (see MarshalJSON).
func (r *Result) UnmarshalJSON(b []byte) error {
	type in struct {
		Winner     *int  `json:"winner"`
		Stalemate  *bool `json:"stalemate"`
		Rounds     *int  `json:"rounds"`
		Turns      *int  `json:"turns"`
		Placement  []int `json:"placement"`
		Eliminated []int `json:"eliminated"`
		Faults     []int `json:"faults"`
	}
	var v in
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if v.Winner == nil || v.Stalemate == nil || v.Rounds == nil || v.Turns == nil {
		return errors.New("result: winner, stalemate, rounds and turns are required")
	}
	*r = Result{Winner: *v.Winner, Stalemate: *v.Stalemate, Rounds: *v.Rounds, Turns: *v.Turns,
		Placement: v.Placement, Eliminated: v.Eliminated, Faults: v.Faults}
	return nil
}

// eventDecoders decode the fields that [Event.AppendJSON] writes for a kind
// after the fields every kind shares (e, round, phase, player, and other,
// from, to and armies when set). A kind that writes no field of its own
// needs no entry; a kind that does needs exactly one.
var eventDecoders = map[EventKind]func(f jsonFields, e *Event) error{
	EvRoll:    decodeRoll,
	EvTrade:   func(f jsonFields, e *Event) error { return decodeCards(f, e, 3) },
	EvCard:    func(f jsonFields, e *Event) error { return decodeCards(f, e, 1) },
	EvFault:   func(f jsonFields, e *Event) error { return f.take("text", &e.Text, true) },
	EvExplain: func(f jsonFields, e *Event) error { return f.take("text", &e.Text, true) },
	EvAttackOrder: func(f jsonFields, e *Event) error {
		if err := f.take("dice", &e.Dice, true); err != nil {
			return err
		}
		if err := f.take("repeat", &e.Repeat, true); err != nil {
			return err
		}
		return f.take("stop_at", &e.StopAt, true)
	},
}

// jsonFields holds the keys of one JSON object not decoded yet.
type jsonFields map[string]json.RawMessage

// take decodes key into v and removes it; a missing key is an error only
// if required.
func (f jsonFields) take(key string, v any, required bool) error {
	raw, ok := f[key]
	if !ok {
		if required {
			return fmt.Errorf("%q missing", key)
		}
		return nil
	}
	delete(f, key)
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%q: %w", key, err)
	}
	return nil
}

// decodeJSON sets e from one event line as AppendJSON writes it.
func (e *Event) decodeJSON(line []byte) error {
	var f jsonFields
	if err := json.Unmarshal(line, &f); err != nil {
		return err
	}
	*e = Event{Other: -1, From: -1, To: -1}
	var kind, phase string
	if err := f.take("e", &kind, true); err != nil {
		return err
	}
	k, ok := parseEventKind(kind)
	if !ok {
		return fmt.Errorf("unknown event kind %q", kind)
	}
	e.Kind = k
	if err := f.take("phase", &phase, true); err != nil {
		return err
	}
	p := slices.Index(phaseNames[:], phase)
	if p < 0 {
		return fmt.Errorf("unknown phase %q", phase)
	}
	e.Phase = Phase(p)
	for _, x := range []struct {
		key      string
		v        *int
		required bool
	}{
		{"round", &e.Round, true}, {"player", &e.Player, true}, {"other", &e.Other, false},
		{"from", &e.From, false}, {"to", &e.To, false}, {"armies", &e.Armies, false},
	} {
		if err := f.take(x.key, x.v, x.required); err != nil {
			return err
		}
	}
	if dec := eventDecoders[k]; dec != nil {
		if err := dec(f, e); err != nil {
			return err
		}
	}
	if len(f) > 0 {
		keys := slices.Sorted(maps.Keys(f))
		return fmt.Errorf("unknown key %q for event %q", keys[0], kind)
	}
	return nil
}

func decodeRoll(f jsonFields, e *Event) error {
	var att, def []uint8
	if err := f.take("att", &att, true); err != nil {
		return err
	}
	if err := f.take("def", &def, true); err != nil {
		return err
	}
	if len(att) > len(e.AttackerDice) || len(def) > len(e.DefenderDice) {
		return fmt.Errorf("%d attacker and %d defender dice: at most %d and %d", len(att), len(def),
			len(e.AttackerDice), len(e.DefenderDice))
	}
	e.NAttack, e.NDefend = uint8(copy(e.AttackerDice[:], att)), uint8(copy(e.DefenderDice[:], def))
	if err := f.take("att_loss", &e.AttackerLoss, true); err != nil {
		return err
	}
	return f.take("def_loss", &e.DefenderLoss, true)
}

func decodeCards(f jsonFields, e *Event, n int) error {
	var cards [][2]int
	if err := f.take("cards", &cards, true); err != nil {
		return err
	}
	if len(cards) != n {
		return fmt.Errorf("%d cards, want %d", len(cards), n)
	}
	for i, c := range cards {
		if c[0] < -1 || c[0] > maxTerritories || c[1] < 0 || c[1] > Wild {
			return fmt.Errorf("card %s: territory must be -1..%d, symbol 0..%d", strconv.Quote(fmt.Sprint(c)), maxTerritories, Wild)
		}
		e.Cards[i] = Card{Territory: int16(c[0]), Symbol: uint8(c[1])}
	}
	return nil
}
