package sim

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// narrator is a chaos player that explains every placement, in two lines
// written in pieces, the second without its newline until the next write.
type narrator struct {
	*chaos
	w io.Writer
}

func (n *narrator) Place(s *State, armies int, buf []Placement) []Placement {
	fmt.Fprintf(n.w, "seat %d round %d", n.Seat, s.Round())
	fmt.Fprintf(n.w, " places %d\n\tweird \x01 \xff ok\n", armies)
	return n.chaos.Place(s, armies, buf)
}

// logNarrated plays a chaos game whose seats narrate their placements
// through ExplainWriters into the log.
func logNarrated(t *testing.T, n int) []byte {
	t.Helper()
	m, r := ringMap(3, 4), testRules(FortifyOneStep)
	var rt, mt bytes.Buffer
	require.NoError(t, EncodeRules(&rt, r))
	require.NoError(t, EncodeMap(&mt, m))
	g, err := NewGame(m, r, n)
	require.NoError(t, err)
	h := LogHeader{Seed: 3, Index: 1, RulesTOML: rt.String(), MapTOML: mt.String()}
	for i := range n {
		h.Seats = append(h.Seats, LogSeat{Label: fmt.Sprintf("chaos%d", i), Bot: "chaos"})
	}
	var buf bytes.Buffer
	lw, err := NewLogWriter(&buf, h)
	require.NoError(t, err)
	g.Observe(lw)
	ps := newChaos(n, 0)
	ews := make([]*ExplainWriter, n)
	for i := range ps {
		ews[i] = NewExplainWriter(lw, g, i)
		ps[i] = &narrator{chaos: ps[i].(*chaos), w: ews[i]}
	}
	res, err := g.Play(ps, h.Seed, h.Index)
	require.NoError(t, err)
	for _, w := range ews {
		w.Flush()
	}
	require.NoError(t, lw.Close(res))
	return buf.Bytes()
}

// TestExplainEvents: explanation lines are events of their own in the log
// (written before the events of the decision, with the game's round and
// phase, control characters and invalid UTF-8 replaced); the reader
// returns them; Replay skips them and its watch sees only the game's
// events, each with the position after it.
func TestExplainEvents(t *testing.T) {
	e := Event{Kind: EvExplain, Round: 3, Phase: PhaseAttack, Player: 1, Other: -1, From: -1, To: -1, Text: "attack: a>b \"x\""}
	assert.Equal(t, `{"e":"explain","round":3,"phase":"attack","player":1,"text":"attack: a>b \"x\""}`, string(e.AppendJSON(nil)))

	log := logNarrated(t, 3)
	_, events, _, err := ReadLog(bytes.NewReader(log))
	require.NoError(t, err)
	var explains, game int
	for i, e := range events {
		if e.Kind != EvExplain {
			game++
			continue
		}
		explains++
		switch explains % 2 {
		case 1:
			assert.True(t, strings.HasPrefix(e.Text, fmt.Sprintf("seat %d round %d places ", e.Player, e.Round)), e.Text)
			assert.Equal(t, PhasePlace, e.Phase)
			assert.Equal(t, EvPlace, events[i+2].Kind, "the explanation comes before the placement")
			assert.Equal(t, e.Player, events[i+2].Player)
		default:
			assert.Equal(t, "\tweird \uFFFD \uFFFD ok", e.Text)
		}
	}
	require.Positive(t, explains)

	var watched []EventKind
	var armies []int
	rep, err := ReplayWatch(context.Background(), bytes.NewReader(log), chaosSeats0,
		func(e *Event, g *Game) {
			watched = append(watched, e.Kind)
			armies = append(armies, g.State().TotalArmies(0))
		})
	require.NoError(t, err)
	assert.Equal(t, game, rep.Events)
	require.Len(t, watched, game)
	assert.NotContains(t, watched, EvExplain)
	assert.Equal(t, EvGameEnd, watched[len(watched)-1])
	assert.Equal(t, 1, armies[slicesIndexKind(events, EvDeal, 0)], "after seat 0's first deal")

	// An explanation line out of place is still an explanation: Replay
	// skips it wherever it is.
	lines := strings.SplitAfter(string(log), "\n")
	moved := append([]string{lines[0], `{"e":"explain","round":0,"phase":"setup","player":2,"text":"hello"}` + "\n"}, lines[1:]...)
	_, err = Replay(context.Background(), strings.NewReader(strings.Join(moved, "")), chaosSeats0)
	require.NoError(t, err)
	bad := append([]string{lines[0], `{"e":"explain","round":0,"phase":"setup","player":2}` + "\n"}, lines[1:]...)
	_, err = Replay(context.Background(), strings.NewReader(strings.Join(bad, "")), chaosSeats0)
	assert.ErrorContains(t, err, `line 2: "text" missing`)
}

// chaosSeats0 returns the players of a logged chaos game (bad 0).
func chaosSeats0(h LogHeader) ([]Player, error) { return newChaos(len(h.Seats), 0), nil }

// slicesIndexKind returns the number of game events (explanations left
// out) up to and including the first event of kind k of player p.
func slicesIndexKind(events []Event, k EventKind, p int) int {
	n := -1
	for _, e := range events {
		if e.Kind == EvExplain {
			continue
		}
		n++
		if e.Kind == k && e.Player == p {
			return n
		}
	}
	return -1
}

// FuzzExplainWriter checks that whatever a bot writes, every line becomes
// an explanation event that the log reader reads back as written.
func FuzzExplainWriter(f *testing.F) {
	f.Add([]byte("place 3 armies\n\tbids \"a\" \\ b\n"))
	f.Add([]byte("\x00\x7f\xff\u2028\U0001F600\U000E0001\r\nlast"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := ringMap(2, 2)
		var mt bytes.Buffer
		require.NoError(t, EncodeMap(&mt, m))
		var rt bytes.Buffer
		r := testRules(FortifySingle)
		require.NoError(t, EncodeRules(&rt, r))
		g, err := NewGame(m, r, 2)
		require.NoError(t, err)
		var log bytes.Buffer
		lw, err := NewLogWriter(&log, LogHeader{RulesTOML: rt.String(), MapTOML: mt.String()})
		require.NoError(t, err)
		w := NewExplainWriter(lw, g, 1)
		n, err := w.Write(data)
		require.NoError(t, err)
		require.Equal(t, len(data), n)
		w.Flush()
		require.NoError(t, lw.Close(Result{Winner: -1, Stalemate: true}))
		_, events, _, err := ReadLog(&log)
		require.NoError(t, err, "%q", data)
		want := strings.Count(string(data), "\n")
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		require.Len(t, events, want)
		for _, e := range events {
			assert.Equal(t, EvExplain, e.Kind)
			assert.Equal(t, 1, e.Player)
			assert.True(t, utf8.ValidString(e.Text))
			assert.NotContains(t, e.Text, "\n")
		}
	})
}
