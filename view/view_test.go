package view_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/baseline"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/view"
)

// logGame plays a game of aggressive baseline bots on map m (classic when
// nil) under the classic rules and returns its log.
func logGame(t testing.TB, m *sim.Map, n int, seed uint64) []byte {
	t.Helper()
	log, err := playLog(m, n, seed)
	require.NoError(t, err)
	return log
}

func playLog(m *sim.Map, n int, seed uint64) ([]byte, error) {
	return playLogWith(m, n, seed, aggressive)
}

// playLogWith is playLog with the players that players returns; the seats
// that can explain their decisions narrate into the log (sim.Narrate).
func playLogWith(m *sim.Map, n int, seed uint64, players func(sim.LogHeader) ([]sim.Player, error)) ([]byte, error) {
	r, err := sim.LoadRules("classic")
	if err != nil {
		return nil, err
	}
	_, rt, err := sim.RulesSource("classic")
	if err != nil {
		return nil, err
	}
	if m == nil {
		if m, err = sim.LoadMap("classic"); err != nil {
			return nil, err
		}
	}
	var mt bytes.Buffer
	if err := sim.EncodeMap(&mt, m); err != nil {
		return nil, err
	}
	g, err := sim.NewGame(m, r, n)
	if err != nil {
		return nil, err
	}
	h := sim.LogHeader{Seed: seed, RulesName: "classic", MapName: m.Name, RulesTOML: string(rt), MapTOML: mt.String()}
	for i := range n {
		h.Seats = append(h.Seats, sim.LogSeat{Label: fmt.Sprint("aggressive", i), Bot: "aggressive"})
	}
	ps, err := players(h)
	if err != nil {
		return nil, err
	}
	h.Explain = sim.ExplainSeats(ps)
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	g.Observe(lw)
	narrators, err := sim.Narrate(lw, g, ps, h.Explain)
	if err != nil {
		return nil, err
	}
	res, err := g.Play(ps, seed, 0)
	if err != nil {
		return nil, err
	}
	for _, w := range narrators {
		w.Flush()
	}
	if err := lw.Close(res); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// aggressive builds the players of a logged game of playLog: one
// aggressive baseline bot per seat.
func aggressive(h sim.LogHeader) ([]sim.Player, error) {
	ps := make([]sim.Player, len(h.Seats))
	for i := range ps {
		ps[i] = baseline.NewSciberras(baseline.Aggressive)
	}
	return ps, nil
}

// encodeLog writes a log of a header, events and result, as sim.ReadLog
// returns them.
func encodeLog(t *testing.T, h sim.LogHeader, events []sim.Event, res sim.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	lw, err := sim.NewLogWriter(&buf, h)
	require.NoError(t, err)
	for i := range events {
		lw.Observe(&events[i])
	}
	require.NoError(t, lw.Close(res))
	return buf.Bytes()
}

// gameData returns the JSON game embedded in a page.
func gameData(t *testing.T, page string) map[string]any {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="game">(.*?)</script>`).FindStringSubmatch(page)
	require.NotNil(t, m, "no game element")
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(m[1]), &d))
	return d
}

// TestWrite: the page holds its script, style and game, and nothing that
// it would fetch; every game event is in it, in order; it is the same
// bytes every time.
func TestWrite(t *testing.T) {
	log := logGame(t, nil, 3, 4)
	_, events, _, err := sim.ReadLog(bytes.NewReader(log))
	require.NoError(t, err)
	var page, again bytes.Buffer
	require.NoError(t, view.Write(context.Background(), &page, log, aggressive))
	require.NoError(t, view.Write(context.Background(), &again, log, aggressive))
	assert.True(t, bytes.Equal(page.Bytes(), again.Bytes()), "the same log gives the same page, byte for byte")
	s := page.String()
	assert.Contains(t, s, "<title>marslab: classic on classic, seed 4, game 0</title>")
	assert.Contains(t, s, "window.marslabView")
	assert.NotRegexp(t, `(?i)\s(src|href)=`, s, "nothing is fetched")
	assert.NotContains(t, s, "https://")
	d := gameData(t, s)
	evs := d["events"].([]any)
	require.Len(t, evs, len(events))
	for i, e := range events {
		ev := evs[i].(map[string]any)
		assert.Equal(t, e.Kind.String(), ev["kind"], "event %d", i)
		if e.To >= 0 {
			assert.Equal(t, float64(e.To), ev["to"], "event %d", i)
		} else {
			assert.NotContains(t, ev, "to", "event %d: no territory", i)
		}
	}
	assert.Len(t, d["territories"], 42)
	assert.Len(t, d["borders"], 83)
	assert.Equal(t, true, d["wrap"])
	assert.Empty(t, d["explain"])
}

// TestWriteErrors: a header without its map or with a bad one, an event
// naming a territory or seat that does not exist, or an event that the
// replay does not make, is an error naming the line.
func TestWriteErrors(t *testing.T) {
	h, events, res, err := sim.ReadLog(bytes.NewReader(logGame(t, nil, 2, 1)))
	require.NoError(t, err)
	cases := []struct {
		name   string
		change func(h *sim.LogHeader, ev []sim.Event)
		want   string
	}{
		{"no map", func(h *sim.LogHeader, _ []sim.Event) { h.MapTOML, h.MapName = "", "atlantis" },
			`line 1 (header): map_toml and rules_toml are required to draw the game (map "atlantis"`},
		{"territory", func(_ *sim.LogHeader, ev []sim.Event) { ev[5].To = 42 },
			"line 7: deal event: territory 42 (to): the map has territories 0..41"},
		{"seat", func(_ *sim.LogHeader, ev []sim.Event) { ev[9].Player = 2 },
			"line 11: deal event: seat 2: the game has seats 0..1"},
		{"another deal", func(_ *sim.LogHeader, ev []sim.Event) { ev[5].To = (ev[5].To + 1) % 42 },
			"line 7: the replay differs"},
		{"a changed roll", func(_ *sim.LogHeader, ev []sim.Event) {
			i := slices.IndexFunc(ev, func(e sim.Event) bool { return e.Kind == sim.EvRoll })
			ev[i].AttackerLoss, ev[i].DefenderLoss = ev[i].DefenderLoss, ev[i].AttackerLoss+1
		}, "the replay differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h2, ev := h, append([]sim.Event(nil), events...)
			c.change(&h2, ev)
			var page bytes.Buffer
			err := view.Write(context.Background(), &page, encodeLog(t, h2, ev, res), aggressive)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Zero(t, page.Len(), "no page")
		})
	}
	t.Run("bad map", func(t *testing.T) {
		log := bytes.Replace(encodeLog(t, h, events, res), []byte(`"map_toml":"`), []byte(`"map_toml":"name = 3\n`), 1)
		var page bytes.Buffer
		err := view.Write(context.Background(), &page, log, aggressive)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "map_toml")
		assert.Zero(t, page.Len(), "no page")
	})
}

// TestLayout: the classic map is drawn from its own positions, scaled
// into the drawing; a map without positions gets a force-directed layout
// that is the same every time, keeps territories apart, and puts
// neighbours nearer each other than other pairs.
func TestLayout(t *testing.T) {
	m, err := sim.LoadMap("classic")
	require.NoError(t, err)
	pts := view.Layout(m)
	require.Len(t, pts, 42)
	a, _ := m.TerritoryID("Alaska")
	k, _ := m.TerritoryID("Kamchatka")
	assert.Less(t, pts[a].X, pts[k].X)
	inside(t, pts)

	bare := m.Clone()
	bare.Layout = nil
	fl := view.Layout(bare)
	assert.Equal(t, fl, view.Layout(bare), "deterministic")
	inside(t, fl)
	var near, far []float64
	for i := range fl {
		for j := i + 1; j < len(fl); j++ {
			d := math.Hypot(fl[i].X-fl[j].X, fl[i].Y-fl[j].Y)
			assert.Greater(t, d, 5.0, "%s and %s overlap", m.Territories[i].Name, m.Territories[j].Name)
			if m.Adjacent(i, j) {
				near = append(near, d)
			} else {
				far = append(far, d)
			}
		}
	}
	assert.Less(t, 2*mean(near), mean(far), "neighbours are drawn near each other")
}

func inside(t *testing.T, pts []sim.Point) {
	t.Helper()
	for i, p := range pts {
		assert.True(t, p.X >= view.Margin && p.X <= view.Width-view.Margin && p.Y >= view.Margin && p.Y <= view.Height-view.Margin,
			"territory %d at %v", i, p)
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// A map without positions (here a ring of territories from NewMap) is
// laid out from its borders.
func ExampleLayout() {
	var ts []sim.Territory
	for i := range 6 {
		ts = append(ts, sim.Territory{Name: fmt.Sprint("t", i), Neighbors: []int{(i + 5) % 6, (i + 1) % 6}})
	}
	m, err := sim.NewMap("ring", []sim.Continent{{Name: "all", Bonus: 2}}, ts)
	if err != nil {
		panic(err)
	}
	pts := view.Layout(m)
	fmt.Println(len(pts), m.Layout == nil)
	// Output: 6 true
}

// Write draws a logged game as one web page.
func ExampleWrite() {
	log, err := playLog(nil, 2, 1) // a logged game (see marslab play -log)
	if err != nil {
		panic(err)
	}
	var page strings.Builder
	if err := view.Write(context.Background(), &page, log, aggressive); err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(page.String(), "<!DOCTYPE html>"))
	// Output: true
}

// scripted is an aggressive baseline bot that narrates each placement
// with a text that tries to close the page's script element.
type scripted struct {
	sim.Player
	w io.Writer
}

func (s *scripted) SetExplain(w io.Writer) { s.w = w }

func (s *scripted) Place(st *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	fmt.Fprintf(s.w, "why </script> not\nround %d\n", st.Round())
	return s.Player.Place(st, armies, buf)
}

// narrating builds the players of a logged game in which seat 1 narrates
// (scripted).
func narrating(h sim.LogHeader) ([]sim.Player, error) {
	ps, err := aggressive(h)
	ps[1] = &scripted{Player: ps[1], w: io.Discard}
	return ps, err
}

// TestWriteExplanations: an explanation is kept apart from the game's
// events with the number of game events before it (its anchor), its seat,
// round, phase and text; a log whose explanations were edited gets no
// page, as an edited event does.
func TestWriteExplanations(t *testing.T) {
	log, err := playLogWith(nil, 2, 3, narrating)
	require.NoError(t, err)
	_, events, _, err := sim.ReadLog(bytes.NewReader(log))
	require.NoError(t, err)
	var want []any
	game := 0
	for _, e := range events {
		if e.Kind != sim.EvExplain {
			game++
			continue
		}
		want = append(want, map[string]any{"at": float64(game), "player": 1.0, "round": float64(e.Round), "phase": sim.PhasePlace.String(), "text": e.Text})
	}
	require.Greater(t, len(want), 2)
	var page bytes.Buffer
	require.NoError(t, view.Write(context.Background(), &page, log, narrating))
	d := gameData(t, page.String())
	assert.Len(t, d["events"], game)
	assert.Equal(t, want, d["explain"])
	assert.Contains(t, page.String(), `why \u003c/script\u003e not`, "the text cannot close the script element")
	assert.NotContains(t, page.String(), "why </script>")

	forged := bytes.Replace(log, []byte("why </script> not"), []byte("why not attack"), 1)
	err = view.Write(context.Background(), io.Discard, forged, narrating)
	assert.ErrorContains(t, err, "the replay differs")
}

// TestLayoutExtremePositions re-runs issue 36, item 12: a map's own
// positions however close together or far apart are drawn inside the
// board at finite places, and the page of a game on it is written.
func TestLayoutExtremePositions(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  func(i int) sim.Point
		// valid: a map file may hold these positions (within ±1e6, each
		// territory at its own place), and a game on it is drawn.
		valid bool
	}{
		{"5e-324 apart", func(i int) sim.Point { return sim.Point{X: float64(i%7) * 5e-324, Y: float64(i/7) * 5e-324} }, true},
		{"a row 5e-324 apart", func(i int) sim.Point { return sim.Point{X: float64(i) * 5e-324} }, true},
		{"1e6 and 5e-324 apart", func(i int) sim.Point { return sim.Point{X: float64(i%2) * 1e6, Y: float64(i) * 5e-324} }, true},
		{"-1.7e308 to 1.7e308", func(i int) sim.Point {
			return sim.Point{X: 1.7e308 * (float64(i%7)/3 - 1), Y: 1.7e308 * (float64(i/7)/3 - 1)}
		}, false},
		{"one point", func(int) sim.Point { return sim.Point{X: 1, Y: 1} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := sim.LoadMap("classic")
			require.NoError(t, err)
			for i := range m.Layout {
				m.Layout[i] = tc.pos(i)
			}
			pts := view.Layout(m)
			inside(t, pts)
			if tc.name != "one point" {
				assert.NotEqual(t, pts[0], pts[len(pts)-1], "the positions are told apart")
			}
			if !tc.valid {
				return
			}
			var page bytes.Buffer
			require.NoError(t, view.Write(context.Background(), &page, logGame(t, m, 3, 1), aggressive))
		})
	}
}

// overlaps counts the pairs of discs (radius view.Disc) that overlap.
func overlaps(pts []sim.Point) int {
	n := 0
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			if math.Hypot(pts[i].X-pts[j].X, pts[i].Y-pts[j].Y) < 2*view.Disc {
				n++
			}
		}
	}
	return n
}

// TestLayoutLargeMaps: maps without positions of up to 200 territories
// are drawn with no overlapping discs, neighbours nearer each other than
// other pairs; a 20x10 grid is drawn as a grid (its rows and columns in
// order).
func TestLayoutLargeMaps(t *testing.T) {
	grid := func(w, h int) []sim.Territory {
		ts := make([]sim.Territory, w*h)
		for y := range h {
			for x := range w {
				t := &ts[y*w+x]
				t.Name = fmt.Sprintf("t%d_%d", x, y)
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					if nx, ny := x+d[0], y+d[1]; nx >= 0 && nx < w && ny >= 0 && ny < h {
						t.Neighbors = append(t.Neighbors, ny*w+nx)
					}
				}
			}
		}
		return ts
	}
	ring := func(n int) []sim.Territory {
		ts := make([]sim.Territory, n)
		for i := range ts {
			ts[i] = sim.Territory{Name: fmt.Sprint("t", i), Neighbors: []int{(i + n - 1) % n, (i + 1) % n}}
		}
		return ts
	}
	// tree: territory i borders (i-1)/3, a tree of 200 with a hub at 0.
	tree := func(n int) []sim.Territory {
		ts := make([]sim.Territory, n)
		for i := range ts {
			ts[i].Name = fmt.Sprint("t", i)
		}
		for i := 1; i < n; i++ {
			p := (i - 1) / 3
			ts[i].Neighbors = append(ts[i].Neighbors, p)
			ts[p].Neighbors = append(ts[p].Neighbors, i)
		}
		return ts
	}
	for _, tc := range []struct {
		name string
		ts   []sim.Territory
	}{{"grid 20x10", grid(20, 10)}, {"ring 200", ring(200)}, {"tree 200", tree(200)}, {"grid 7x6", grid(7, 6)}} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := sim.NewMap(tc.name, []sim.Continent{{Name: "all", Bonus: 2}}, tc.ts)
			require.NoError(t, err)
			pts := view.Layout(m)
			inside(t, pts)
			assert.Zero(t, overlaps(pts), "overlapping discs")
			var near, far []float64
			for i := range pts {
				for j := i + 1; j < len(pts); j++ {
					d := math.Hypot(pts[i].X-pts[j].X, pts[i].Y-pts[j].Y)
					if m.Adjacent(i, j) {
						near = append(near, d)
					} else {
						far = append(far, d)
					}
				}
			}
			assert.Less(t, 2*mean(near), mean(far), "neighbours are drawn near each other")
		})
	}
}

// BenchmarkLayoutGrid lays out a 20x10 grid map without positions
// (IsomapR2, then the discs spread apart).
func BenchmarkLayoutGrid(b *testing.B) {
	const w, h = 20, 10
	ts := make([]sim.Territory, w*h)
	for i := range ts {
		x, y := i%w, i/w
		ts[i].Name = fmt.Sprint("t", i)
		if x > 0 {
			ts[i].Neighbors = append(ts[i].Neighbors, i-1)
		}
		if x < w-1 {
			ts[i].Neighbors = append(ts[i].Neighbors, i+1)
		}
		if y > 0 {
			ts[i].Neighbors = append(ts[i].Neighbors, i-w)
		}
		if y < h-1 {
			ts[i].Neighbors = append(ts[i].Neighbors, i+w)
		}
	}
	m, err := sim.NewMap("grid", []sim.Continent{{Name: "all", Bonus: 2}}, ts)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		view.Layout(m)
	}
}
