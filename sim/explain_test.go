package sim

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
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

// SetExplain makes the narrator write to w (Narrate).
func (n *narrator) SetExplain(w io.Writer) { n.w = w }

// narrators returns the players of a logged narrated game.
func narrators(h LogHeader) ([]Player, error) {
	ps := newChaos(len(h.Seats), 0)
	for i := range ps {
		ps[i] = &narrator{chaos: ps[i].(*chaos), w: io.Discard}
	}
	return ps, nil
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
	ps, err := narrators(h)
	require.NoError(t, err)
	h.Explain = ExplainSeats(ps)
	require.Len(t, h.Explain, n)
	var buf bytes.Buffer
	lw, err := NewLogWriter(&buf, h)
	require.NoError(t, err)
	g.Observe(lw)
	ews, err := Narrate(lw, g, ps, h.Explain)
	require.NoError(t, err)
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
// returns them; Replay has the header's seats narrate again and checks
// every explanation line, and its watch sees only the game's events, each
// with the position after it.
func TestExplainEvents(t *testing.T) {
	t.Parallel()
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
	rep, err := ReplayWatch(context.Background(), bytes.NewReader(log), narrators,
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

	bad := append([]string{lines(log)[0], `{"e":"explain","round":0,"phase":"setup","player":2}` + "\n"}, lines(log)[1:]...)
	_, err = Replay(context.Background(), strings.NewReader(strings.Join(bad, "")), narrators)
	assert.ErrorContains(t, err, `line 2: "text" missing`)
}

func lines(log []byte) []string { return strings.SplitAfter(string(log), "\n") }

// An explanation changed, moved, removed, added or given to another seat
// fails the replay at its line, as an edited game event does; so does a
// header whose explain lists a seat that cannot narrate, or none.
func TestReplayChecksExplanations(t *testing.T) {
	log := logNarrated(t, 3)
	ls := lines(log)
	first := -1 // the first explanation line
	for i, l := range ls {
		if strings.Contains(l, `"e":"explain"`) {
			first = i
			break
		}
	}
	require.Positive(t, first)
	edit := func(f func([]string) []string) string {
		return strings.Join(f(slices.Clone(ls)), "")
	}
	for _, tc := range []struct {
		name, log, want string
		players         func(LogHeader) ([]Player, error)
	}{
		{"changed", edit(func(l []string) []string {
			l[first] = strings.Replace(l[first], "places", "plays", 1)
			return l
		}), fmt.Sprintf("line %d: the replay differs", first+1), narrators},
		{"other seat", edit(func(l []string) []string {
			l[first] = strings.Replace(l[first], `"player":0`, `"player":1`, 1)
			return l
		}), fmt.Sprintf("line %d: the replay differs", first+1), narrators},
		{"removed", edit(func(l []string) []string { return slices.Delete(l, first, first+1) }),
			fmt.Sprintf("line %d: the replay differs", first+1), narrators},
		{"added", edit(func(l []string) []string { return slices.Insert(l, 1, l[first]) }),
			"line 2: the replay differs", narrators},
		{"moved", edit(func(l []string) []string {
			x := l[first]
			return slices.Insert(slices.Delete(l, first, first+1), first+2, x)
		}), fmt.Sprintf("line %d: the replay differs", first+1), narrators},
		{"header without explain", edit(func(l []string) []string {
			l[0] = strings.Replace(l[0], `,"explain":[0,1,2]`, "", 1)
			return l
		}), fmt.Sprintf("line %d: the replay differs", first+1), narrators},
		{"explain seat out of range", edit(func(l []string) []string {
			l[0] = strings.Replace(l[0], `"explain":[0,1,2]`, `"explain":[0,1,3]`, 1)
			return l
		}), "line 1 (header): explain: seat 3: the game has seats 0..2", narrators},
		{"explain seats repeated", edit(func(l []string) []string {
			l[0] = strings.Replace(l[0], `"explain":[0,1,2]`, `"explain":[0,0,2]`, 1)
			return l
		}), "line 1 (header): explain: [0 0 2]: want distinct seats in increasing order", narrators},
		{"a player that cannot narrate", string(log), "line 1 (header): explain: seat 0: its player cannot explain its decisions", chaosSeats0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Replay(context.Background(), strings.NewReader(tc.log), tc.players)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err := Replay(context.Background(), bytes.NewReader(log), narrators)
	require.NoError(t, err, "the log as written")
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
