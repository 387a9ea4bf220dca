package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Record is one game of a batch: one line of games.jsonl.
type Record struct {
	// Game is the game index within the batch, 0..Games-1.
	Game int `json:"game"`
	// Seed is the game's seed, sim.GameSeed(batch seed, Game).
	Seed uint64 `json:"seed"`
	// Seating lists the bot labels in seat order (seat 0 moves first).
	Seating []string `json:"seating"`
	// Winner is the winning seat, or -1 on a stalemate.
	Winner int `json:"winner"`
	// Placements[seat] is the seat's finishing position, 1 (winner) to n.
	Placements []int `json:"placements"`
	// Rounds is the number of rounds started.
	Rounds int `json:"rounds"`
	// Turns is the number of player-turns played.
	Turns int `json:"turns"`
	// Stalemate reports that the round limit ended the game.
	Stalemate bool `json:"stalemate"`
	// Faults[seat] counts the seat's illegal answers and panics.
	Faults []int `json:"faults"`
	// Stats[seat] holds the counts the seat's bot reported about its own
	// play in this game ([bots.StatReporter]), nil for a bot that reports
	// none; Stats is nil (and the key absent from the line) when no seat
	// reports any.
	Stats []map[string]int64 `json:"stats,omitempty"`
}

// AppendJSON appends the record as one line of JSON (without the newline)
// to buf. The keys come in a fixed order, so equal records give equal bytes:
//
//	{"game":0,"seed":42,"seating":["a","b"],"winner":1,"placements":[2,1],"rounds":9,"turns":17,"stalemate":false,"faults":[0,0]}
//
// A record with Stats ends in a "stats" key, one object per seat with the
// names in ascending order ({} for a seat without counts):
//
//	...,"faults":[0,0],"stats":[{"place_defensive":3,"place_offensive":40},{}]}
func (r *Record) AppendJSON(buf []byte) []byte {
	buf = append(buf, `{"game":`...)
	buf = strconv.AppendInt(buf, int64(r.Game), 10)
	buf = append(buf, `,"seed":`...)
	buf = strconv.AppendUint(buf, r.Seed, 10)
	buf = append(buf, `,"seating":[`...)
	for i, s := range r.Seating {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, s)
	}
	buf = append(buf, `],"winner":`...)
	buf = strconv.AppendInt(buf, int64(r.Winner), 10)
	buf = append(buf, `,"placements":`...)
	buf = appendInts(buf, r.Placements)
	buf = append(buf, `,"rounds":`...)
	buf = strconv.AppendInt(buf, int64(r.Rounds), 10)
	buf = append(buf, `,"turns":`...)
	buf = strconv.AppendInt(buf, int64(r.Turns), 10)
	buf = append(buf, `,"stalemate":`...)
	buf = strconv.AppendBool(buf, r.Stalemate)
	buf = append(buf, `,"faults":`...)
	buf = appendInts(buf, r.Faults)
	if r.Stats != nil {
		buf = append(buf, `,"stats":[`...)
		for i, m := range r.Stats {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendCounts(buf, m)
		}
		buf = append(buf, ']')
	}
	return append(buf, '}')
}

// appendCounts appends m as a JSON object with its keys in ascending order.
func appendCounts(buf []byte, m map[string]int64) []byte {
	buf = append(buf, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(buf, k)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, m[k], 10)
	}
	return append(buf, '}')
}

func appendInts(buf []byte, a []int) []byte {
	buf = append(buf, '[')
	for i, v := range a {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	return append(buf, ']')
}

// appendString appends s as a JSON string, escaping quotes, backslashes,
// control characters and invalid UTF-8 (as U+FFFD).
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// ParseRecord parses one games.jsonl line and checks that it is a
// consistent game of players seats: seating, placements and faults of
// length players, placements a permutation of 1..players, the winner placed
// first, and stalemate exactly when there is no winner.
func ParseRecord(line []byte, players int) (Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, err
	}
	if dec.More() {
		return r, errors.New("trailing data after the record")
	}
	if err := r.check(players); err != nil {
		return r, fmt.Errorf("game %d: %w", r.Game, err)
	}
	return r, nil
}

func (r *Record) check(players int) error {
	if r.Game < 0 {
		return errors.New("negative game index")
	}
	if len(r.Seating) != players || len(r.Placements) != players || len(r.Faults) != players {
		return fmt.Errorf("seating, placements and faults must list %d seats (have %d, %d, %d)",
			players, len(r.Seating), len(r.Placements), len(r.Faults))
	}
	seen := make([]bool, players+1)
	for _, p := range r.Placements {
		if p < 1 || p > players || seen[p] {
			return fmt.Errorf("placements %v: want a permutation of 1..%d", r.Placements, players)
		}
		seen[p] = true
	}
	for _, f := range r.Faults {
		if f < 0 {
			return fmt.Errorf("faults %v: negative count", r.Faults)
		}
	}
	if r.Stats != nil && len(r.Stats) != players {
		return fmt.Errorf("stats must list %d seats (have %d)", players, len(r.Stats))
	}
	for seat, m := range r.Stats {
		for k, v := range m {
			if v < 0 {
				return fmt.Errorf("stats of seat %d: %s = %d: negative count", seat, k, v)
			}
		}
	}
	switch {
	case r.Winner < -1 || r.Winner >= players:
		return fmt.Errorf("winner %d: want -1..%d", r.Winner, players-1)
	case r.Stalemate != (r.Winner < 0):
		return fmt.Errorf("stalemate %v with winner %d", r.Stalemate, r.Winner)
	case r.Winner >= 0 && r.Placements[r.Winner] != 1:
		return fmt.Errorf("winner seat %d placed %d", r.Winner, r.Placements[r.Winner])
	case r.Rounds < 0 || r.Turns < 0:
		return errors.New("negative rounds or turns")
	}
	return nil
}

// checkRules reports whether the record is a possible game under a rule set
// with the given round limit (0 = none): at least one round and one turn,
// between one turn per round and one per seat per round, no more rounds
// than the limit, and a stalemate only when the limit was reached.
func (r *Record) checkRules(roundLimit int) error {
	n := len(r.Seating)
	switch {
	case r.Rounds < 1:
		return fmt.Errorf("rounds %d: a game has at least one round", r.Rounds)
	case r.Turns < r.Rounds || r.Turns > n*r.Rounds:
		return fmt.Errorf("turns %d in %d rounds of %d seats: want %d..%d", r.Turns, r.Rounds, n, r.Rounds, n*r.Rounds)
	case roundLimit > 0 && r.Rounds > roundLimit:
		return fmt.Errorf("rounds %d: above the rules' round limit %d", r.Rounds, roundLimit)
	case r.Stalemate && roundLimit == 0:
		return errors.New("stalemate under rules without a round limit")
	case r.Stalemate && r.Rounds != roundLimit:
		return fmt.Errorf("stalemate in round %d: the round limit is %d", r.Rounds, roundLimit)
	}
	return nil
}
