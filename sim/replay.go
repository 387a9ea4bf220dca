package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// Replayed describes a replay that matched its log line for line.
type Replayed struct {
	// Header is the log's header.
	Header LogHeader
	// Events is the number of event lines replayed.
	Events int
	// Result is the result of the game, equal to the log's result line.
	Result Result
}

// Replay plays a logged game again and checks it against the log. The game
// is set up from the header: the rules and map in rules_toml and map_toml,
// which must match the header's rules_sha256 and map_sha256 ([RulesDigest],
// [MapDigest]), and, when rules_name or map_name is an embedded name, be
// named so; the seed and game index; and the players that players returns
// for the header (one per seat, in seat order). Replay fails at the first
// event line that differs from the replay, naming the line and showing
// both, and on a log that is cut, malformed or lacks its result line.
// The seats of the header's explain narrate again (Narrate), and every
// explanation line ([EvExplain]) is checked in its place as a game event is:
// a log whose explanations were edited, moved, removed or added fails as
// an edited event does.
func Replay(ctx context.Context, log io.Reader, players func(LogHeader) ([]Player, error)) (*Replayed, error) {
	return ReplayWatch(ctx, log, players, nil)
}

// ReplayWatch is Replay that calls watch, when not nil, after every
// replayed event that matched its log line, with the event (valid only
// during the call) and the game, whose State is the position after the
// event: the position that a reader of the log reaches by applying the
// events up to this one.
func ReplayWatch(ctx context.Context, log io.Reader, players func(LogHeader) ([]Player, error),
	watch func(e *Event, g *Game)) (*Replayed, error) {
	lr, err := NewLogReader(log)
	if err != nil {
		return nil, err
	}
	h := lr.Header()
	r, m, err := headerConfig(&h)
	if err != nil {
		return nil, fmt.Errorf("line 1 (header): %w", err)
	}
	ps, err := players(h)
	if err != nil {
		return nil, fmt.Errorf("line 1 (header): players: %w", err)
	}
	if len(h.Seats) > 0 && len(ps) != len(h.Seats) {
		return nil, fmt.Errorf("line 1 (header): %d seats, but %d players", len(h.Seats), len(ps))
	}
	g, err := NewGame(m, r, len(ps))
	if err != nil {
		return nil, fmt.Errorf("line 1 (header): %w", err)
	}
	if err := checkExplainSeats(h.Explain, len(ps)); err != nil {
		return nil, fmt.Errorf("line 1 (header): %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmp := &replayComparer{lr: lr, stop: cancel, g: g, watch: watch}
	g.Observe(cmp)
	narrators, err := Narrate(cmp, g, ps, h.Explain)
	if err != nil {
		return nil, fmt.Errorf("line 1 (header): %w", err)
	}
	res, playErr := g.PlayContext(ctx, ps, h.Seed, h.Index)
	for _, w := range narrators {
		w.Flush()
	}
	if cmp.err != nil {
		return nil, cmp.err
	}
	if playErr != nil {
		return nil, fmt.Errorf("replay: %w", playErr)
	}
	if lr.Next() {
		return nil, fmt.Errorf("line %d: the replay has ended, the log goes on: %s", lr.Line(), quoteLine(lr.Raw()))
	}
	logged, err := lr.Result()
	if err != nil {
		return nil, err
	}
	if got, want := ResultLine(res), ResultLine(logged); !bytes.Equal(got, want) {
		return nil, fmt.Errorf("line %d: the result differs:\n  log:    %s\n  replay: %s", lr.Line(), quoteLine(want), quoteLine(got))
	}
	return &Replayed{Header: h, Events: cmp.n, Result: res}, nil
}

// headerConfig parses the rules and map of a log header and checks them
// against its digests and names.
func headerConfig(h *LogHeader) (*Rules, *Map, error) {
	if h.RulesTOML == "" || h.MapTOML == "" {
		return nil, nil, errors.New("rules_toml and map_toml are required to replay")
	}
	r, err := ParseRules("rules_toml", []byte(h.RulesTOML))
	if err != nil {
		return nil, nil, err
	}
	m, err := ParseMap("map_toml", []byte(h.MapTOML))
	if err != nil {
		return nil, nil, err
	}
	if err := r.Validate(m); err != nil {
		return nil, nil, err
	}
	for _, c := range []struct {
		key, want string
		digest    func() (string, error)
	}{
		{"rules_sha256", h.RulesSHA256, func() (string, error) { return RulesDigest(r) }},
		{"map_sha256", h.MapSHA256, func() (string, error) { return MapDigest(m) }},
	} {
		got, err := c.digest()
		if err != nil {
			return nil, nil, err
		}
		switch {
		case c.want == "":
			return nil, nil, fmt.Errorf("%s: missing", c.key)
		case got != c.want:
			return nil, nil, fmt.Errorf("%s = %q: the configuration in the header has digest %q: it is not the one the game was played with",
				c.key, c.want, got)
		}
	}
	if h.RulesName != "" && isEmbeddedName(h.RulesName) && h.RulesName != r.Name {
		return nil, nil, fmt.Errorf("rules_name = %q: the rules played (rules_toml) are named %q", h.RulesName, r.Name)
	}
	if h.MapName != "" && isEmbeddedName(h.MapName) && h.MapName != m.Name {
		return nil, nil, fmt.Errorf("map_name = %q: the map played (map_toml) is named %q", h.MapName, m.Name)
	}
	return r, m, nil
}

// replayComparer checks every replayed event against the next event line
// of the log and stops the game at the first difference.
type replayComparer struct {
	lr    *LogReader
	g     *Game
	watch func(*Event, *Game)
	stop  context.CancelFunc
	buf   []byte
	n     int
	err   error
}

func (c *replayComparer) Observe(e *Event) {
	if c.err != nil {
		return
	}
	c.buf = e.AppendJSON(c.buf[:0])
	switch {
	case c.lr.Next():
		if !bytes.Equal(c.buf, c.lr.Raw()) {
			c.err = fmt.Errorf("line %d: the replay differs:\n  log:    %s\n  replay: %s", c.lr.Line(), quoteLine(c.lr.Raw()), quoteLine(c.buf))
		}
	case c.lr.Err() != nil:
		c.err = c.lr.Err()
	default:
		c.err = fmt.Errorf("line %d: the log ends (result line), the replay goes on: %s", c.lr.Line(), quoteLine(c.buf))
	}
	if c.err != nil {
		c.stop()
		return
	}
	if e.Kind == EvExplain {
		return
	}
	c.n++
	if c.watch != nil {
		c.watch(e, c.g)
	}
}

// checkExplainSeats checks a header's explain: seats of the game, in
// increasing order.
func checkExplainSeats(seats []int, players int) error {
	for i, s := range seats {
		if s < 0 || s >= players {
			return fmt.Errorf("explain: seat %d: the game has seats 0..%d", s, players-1)
		}
		if i > 0 && s <= seats[i-1] {
			return fmt.Errorf("explain: %v: want distinct seats in increasing order", seats)
		}
	}
	return nil
}
