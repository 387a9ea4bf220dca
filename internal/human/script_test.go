package human

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

// TestReplayPlayersFromEvents: a logged game of bots replays with any of
// its seats marked human, that seat's answers read from its events alone,
// under every embedded rule set (setup by the players one army at a time
// and four at a time, every fortify variant, trades, eliminations).
func TestReplayPlayersFromEvents(t *testing.T) {
	t.Parallel()
	games := []struct {
		rules, players string
		seed           uint64
		human          []int
	}{
		{"classic", "aggressive,angry,random", 1, []int{0, 2}},
		{"mars2006", "mars,pixie,aggressive,random", 3, []int{0}},
		{"mars2006-escalating", "aggressive,mars,evilpixie", 2, []int{1, 2}},
		{"fixedcards", "aggressive,cautious,random,pacifist", 4, []int{3}},
		{"lux", "boscoe,bort,evilpixie", 5, []int{0, 1}},
		{"missions", "mission,aggressive,mission", 6, []int{2}},
	}
	reg := registry.Default()
	for _, gm := range games {
		t.Run(gm.rules, func(t *testing.T) {
			t.Parallel()
			tb, err := reg.NewTable(gm.players, gm.rules)
			require.NoError(t, err)
			_, rt, err := sim.RulesSource(gm.rules)
			require.NoError(t, err)
			_, mt, err := sim.MapSource("classic")
			require.NoError(t, err)
			h := sim.LogHeader{Seed: gm.seed, RulesName: gm.rules, MapName: "classic", RulesTOML: string(rt), MapTOML: string(mt)}
			for _, s := range tb.Seats {
				h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
			}
			for _, i := range gm.human {
				h.Seats[i] = sim.LogSeat{Label: "human", Bot: Bot}
			}
			var log bytes.Buffer
			lw, err := sim.NewLogWriter(&log, h)
			require.NoError(t, err)
			tb.Game.Observe(lw)
			res, err := tb.Play(gm.seed, 0)
			require.NoError(t, err)
			require.NoError(t, lw.Close(res))
			kinds := map[string]bool{}
			for _, l := range strings.Split(log.String(), "\n") {
				for _, k := range []string{"trade", "occupation", "move", "setup_place", "elimination"} {
					if strings.Contains(l, `"e":"`+k+`"`) {
						kinds[k] = true
					}
				}
			}
			assert.True(t, kinds["occupation"] && kinds["move"], "the game has conquests and moves: %v", kinds)
			data := log.Bytes()
			players := ReplayPlayers(reg, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
			rep, err := sim.Replay(context.Background(), bytes.NewReader(data), players)
			require.NoError(t, err)
			assert.Equal(t, res, rep.Result)
			t.Logf("%s: %d events, %v", gm.rules, rep.Events, kinds)
		})
	}
}

// TestReplayPlayersRefuses: a log whose human seat's decisions were
// changed fails to replay at the line that differs; a human seat's fault
// cannot be replayed; an unknown bot is named.
func TestReplayPlayersRefuses(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	tb, err := reg.NewTable("aggressive,random,pacifist", "mars2006")
	require.NoError(t, err)
	_, rt, _ := sim.RulesSource("mars2006")
	_, mt, _ := sim.MapSource("classic")
	h := sim.LogHeader{Seed: 9, RulesName: "mars2006", MapName: "classic", RulesTOML: string(rt), MapTOML: string(mt)}
	for _, s := range tb.Seats {
		h.Seats = append(h.Seats, sim.LogSeat{Label: s.Label, Bot: s.Factory.Name, Params: s.Params})
	}
	h.Seats[0] = sim.LogSeat{Label: "human", Bot: Bot}
	var log bytes.Buffer
	lw, err := sim.NewLogWriter(&log, h)
	require.NoError(t, err)
	tb.Game.Observe(lw)
	res, err := tb.Play(9, 0)
	require.NoError(t, err)
	require.NoError(t, lw.Close(res))
	replay := func(data []byte) error {
		_, err := sim.Replay(context.Background(), bytes.NewReader(data),
			ReplayPlayers(reg, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }))
		return err
	}
	require.NoError(t, replay(log.Bytes()))
	// The human seat's first placement moved to another of its territories.
	lines := strings.Split(log.String(), "\n")
	changed := false
	for i, l := range lines {
		if strings.HasPrefix(l, `{"e":"place","round":1,"phase":"place","player":0,`) {
			var other string
			for _, d := range lines {
				if strings.HasPrefix(d, `{"e":"deal","round":0,"phase":"setup","player":0,`) && !strings.Contains(l, d[strings.Index(d, `"to"`):strings.Index(d, `,"armies"`)]) {
					other = d[strings.Index(d, `"to"`):strings.Index(d, `,"armies"`)]
					break
				}
			}
			k := strings.Index(l, `"to"`)
			e := strings.Index(l, `,"armies"`)
			lines[i] = l[:k] + other + l[e:]
			changed = true
			break
		}
	}
	require.True(t, changed)
	err = replay([]byte(strings.Join(lines, "\n")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "differs")

	fault := strings.Replace(log.String(), `{"e":"turn","round":2,"phase":"trade","player":0}`,
		`{"e":"turn","round":2,"phase":"trade","player":0}`+"\n"+`{"e":"fault","round":2,"phase":"trade","player":0,"text":"x"}`, 1)
	require.NotEqual(t, log.String(), fault)
	err = replay([]byte(fault))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a human seat's illegal answer cannot be replayed")

	bad := strings.Replace(log.String(), `"bot":"random"`, `"bot":"nobody"`, 1)
	err = replay([]byte(bad))
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("unknown bot %q", "nobody"))
}

// TestReadScriptsCut: a log cut after a whole line is a game that did not
// end; a cut or malformed last line is an error naming it.
func TestReadScriptsCut(t *testing.T) {
	reg := registry.Default()
	tb, err := reg.NewTable("aggressive,pacifist", "mars2006")
	require.NoError(t, err)
	_, rt, _ := sim.RulesSource("mars2006")
	_, mt, _ := sim.MapSource("classic")
	h := sim.LogHeader{Seed: 2, RulesName: "mars2006", MapName: "classic", RulesTOML: string(rt), MapTOML: string(mt),
		Seats: []sim.LogSeat{{Label: "human", Bot: Bot}, {Label: "pacifist", Bot: "pacifist"}}}
	var log bytes.Buffer
	lw, err := sim.NewLogWriter(&log, h)
	require.NoError(t, err)
	tb.Game.Observe(lw)
	res, err := tb.Play(2, 0)
	require.NoError(t, err)
	require.NoError(t, lw.Close(res))
	human := func(i int) bool { return i == 0 }
	_, scripts, lines, ended, err := readScripts(bytes.NewReader(log.Bytes()), human)
	require.NoError(t, err)
	assert.True(t, ended)
	assert.Len(t, lines, strings.Count(log.String(), "\n")-2, "every event line, header and result aside")
	all := len(scripts[0].events)
	assert.Positive(t, all)
	assert.Nil(t, scripts[1])
	cut := strings.Join(strings.SplitAfter(log.String(), "\n")[:200], "")
	_, scripts, lines, ended, err = readScripts(strings.NewReader(cut), human)
	require.NoError(t, err)
	assert.False(t, ended)
	assert.Len(t, lines, 199)
	assert.Less(t, len(scripts[0].events), all)
	for _, bad := range []string{cut + `{"e":"turn","rou`, cut + "garbage\n"} {
		_, _, _, _, err = readScripts(strings.NewReader(bad), human)
		assert.ErrorContains(t, err, "line 201", "%q", bad[len(cut):])
	}
}
