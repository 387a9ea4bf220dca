package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/marslab-risk/marslab/bots"
)

// logLine is one line of log.jsonl: one evaluation and its result.
type logLine struct {
	// Step is the step of the search that made the evaluation.
	Step int `json:"step"`
	// Cand is the candidate's index within the step.
	Cand int `json:"cand"`
	// Block is the block index.
	Block int `json:"block"`
	// X holds the candidate's values, in Space order.
	X []float64 `json:"x"`
	// Games, Wins, Stalemates and Place are the Result.
	Games      int   `json:"games"`
	Wins       int   `json:"wins"`
	Stalemates int   `json:"stalemates"`
	Place      []int `json:"place"`
	// Won[r] is 1 when the candidate won the game of seat r, else 0.
	Won []int `json:"won"`
}

// result returns the line's result.
func (l *logLine) result() Result {
	r := Result{Games: l.Games, Wins: l.Wins, Stalemates: l.Stalemates, Place: l.Place, Won: make([]bool, len(l.Won))}
	for i, w := range l.Won {
		r.Won[i] = w == 1
	}
	return r
}

// newLine returns the log line of evaluation e of step with result r.
func newLine(step int, e Eval, r Result) logLine {
	l := logLine{Step: step, Cand: e.Cand, Block: e.Block, X: e.X, Games: r.Games, Wins: r.Wins, Stalemates: r.Stalemates, Place: r.Place, Won: make([]int, len(r.Won))}
	for i, w := range r.Won {
		if w {
			l.Won[i] = 1
		}
	}
	return l
}

// appendJSON appends the line as JSON without the newline; keys come in a
// fixed order and numbers in their shortest exact form, so equal lines give
// equal bytes:
//
//	{"step":0,"cand":2,"block":5,"x":[0.7375,170],"games":4,"wins":1,"stalemates":0,"place":[1,3,2,4],"won":[1,0,0,0]}
func (l *logLine) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"step":`, l.Step)
	b = appendInt(b, `,"cand":`, l.Cand)
	b = appendInt(b, `,"block":`, l.Block)
	b = append(b, `,"x":[`...)
	for i, v := range l.X {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, bots.FormatNum(v)...)
	}
	b = appendInt(b, `],"games":`, l.Games)
	b = appendInt(b, `,"wins":`, l.Wins)
	b = appendInt(b, `,"stalemates":`, l.Stalemates)
	b = appendInts(b, `,"place":[`, l.Place)
	b = appendInts(b, `],"won":[`, l.Won)
	return append(b, "]}"...)
}

// appendInt appends prefix (the JSON before the value) and v.
func appendInt(b []byte, prefix string, v int) []byte {
	return strconv.AppendInt(append(b, prefix...), int64(v), 10)
}

// appendInts appends prefix and the values of vs separated by commas.
func appendInts(b []byte, prefix string, vs []int) []byte {
	b = append(b, prefix...)
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}

// parseLine parses one log line and checks it: canonical encoding,
// finite values, 0 <= wins, stalemates <= games = len(place), places in
// 1..players, and as many first places as wins, plus at most one per
// stalemate.
func parseLine(data []byte, players int) (logLine, error) {
	var l logLine
	if len(bytes.TrimSpace(data)) == 0 {
		return l, errors.New("an empty line: want one evaluation, a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return l, err
	}
	for _, v := range l.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return l, fmt.Errorf("value %v is not finite", v)
		}
	}
	switch {
	case l.Step < 0 || l.Cand < 0 || l.Block < 0:
		return l, fmt.Errorf("negative step, cand or block")
	case l.Games < 1 || len(l.Place) != l.Games:
		return l, fmt.Errorf("%d games with %d places", l.Games, len(l.Place))
	case l.Wins < 0 || l.Wins > l.Games || l.Stalemates < 0 || l.Stalemates > l.Games:
		return l, fmt.Errorf("%d wins and %d stalemates of %d games", l.Wins, l.Stalemates, l.Games)
	}
	firsts := 0
	for _, p := range l.Place {
		if p < 1 || p > players {
			return l, fmt.Errorf("place %d: want 1..%d (the players per game)", p, players)
		}
		if p == 1 {
			firsts++
		}
	}
	// A stalemate ranks the seats too: its first is no win.
	if firsts < l.Wins || firsts > l.Wins+l.Stalemates {
		return l, fmt.Errorf("%d wins and %d stalemates but %d first places", l.Wins, l.Stalemates, firsts)
	}
	if len(l.Won) != l.Games {
		return l, fmt.Errorf("%d games with %d won flags", l.Games, len(l.Won))
	}
	won := 0
	for r, w := range l.Won {
		if w != 0 && w != 1 || w == 1 && l.Place[r] != 1 {
			return l, fmt.Errorf("won[%d] = %d with place %d: want 0, or 1 for a first place", r, w, l.Place[r])
		}
		won += w
	}
	if won != l.Wins {
		return l, fmt.Errorf("%d wins but %d won flags", l.Wins, won)
	}
	return l, canonical(l.appendJSON(nil), data)
}

// canonical reports how a log line, data, differs from its canonical form,
// got: byte for byte, so that a resumed log stays byte-identical to an
// uninterrupted one.
func canonical(got, data []byte) error {
	switch {
	case bytes.Equal(got, data):
		return nil
	case len(data) == len(got)+1 && data[len(got)] == '\r' && bytes.Equal(data[:len(got)], got):
		return errors.New("ends in CRLF (\\r\\n): log lines end in \\n alone (was the file converted to DOS line endings?)")
	case bytes.Equal(got, bytes.TrimSpace(data)):
		return fmt.Errorf("leading or trailing white space: want the line alone (%s)", got)
	}
	return fmt.Errorf("not in canonical form (want %s)", got)
}
