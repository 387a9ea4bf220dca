package mars_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt from the games played")

// goldenCase is a set of games whose every event (placements, rolls,
// moves, trades) is hashed: MARS's decisions pin the digest.
type goldenCase struct {
	name    string
	rules   string
	players []string
	games   int
}

var goldenCases = []goldenCase{
	{"mixed-mars2006", "mars2006", []string{"mars", "aggressive", "pacifist", "passive", "random", "aggressive"}, 12},
	{"mixed-classic", "classic", []string{"mars", "aggressive", "pacifist", "passive", "random", "aggressive"}, 6},
	{"six-mars", "mars2006", []string{"mars", "mars", "mars", "mars", "mars", "mars"}, 4},
}

// goldenDigest plays the case's games (experiment seed 5, game i with
// index i) and returns the SHA-256 of every event's JSON line, and a line
// per game that says how it ended (winner, rounds, eliminations), so that a
// changed digest shows which games changed and how.
func goldenDigest(tb testing.TB, c goldenCase) (string, []string) {
	tb.Helper()
	m, err := sim.LoadMap("classic")
	require.NoError(tb, err)
	r, err := sim.LoadRules(c.rules)
	require.NoError(tb, err)
	g, err := sim.NewGame(m, r, len(c.players))
	require.NoError(tb, err)
	h := sha256.New()
	var buf []byte
	g.Observe(sim.ObserverFunc(func(e *sim.Event) {
		buf = e.AppendJSON(buf[:0])
		buf = append(buf, '\n')
		h.Write(buf)
	}))
	reg := registry.Default()
	ps := make([]sim.Player, len(c.players))
	for i, name := range c.players {
		if name == "mars" {
			ps[i], err = mars.New(mars.PaperParams())
			require.NoError(tb, err)
			continue
		}
		seat, err := reg.ParseSeat(name, nil)
		require.NoError(tb, err)
		ps[i], err = seat.New()
		require.NoError(tb, err)
	}
	summary := make([]string, c.games)
	for i := range c.games {
		res, err := g.Play(ps, 5, uint64(i))
		require.NoError(tb, err)
		summary[i] = gameSummary(i, c.players, res)
	}
	return hex.EncodeToString(h.Sum(nil)), summary
}

// gameSummary describes game i's end in one line: "  game 3: seat 0 (mars)
// wins in round 15; out: seat 4 (random) 1st, ...", or a stalemate.
func gameSummary(i int, players []string, res sim.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  game %d: ", i)
	if res.Winner >= 0 {
		fmt.Fprintf(&b, "seat %d (%s) wins in round %d", res.Winner, players[res.Winner], res.Rounds)
	} else {
		fmt.Fprintf(&b, "stalemate after round %d", res.Rounds)
	}
	if len(res.Eliminated) > 0 {
		b.WriteString("; eliminated in order:")
		for _, s := range res.Eliminated {
			fmt.Fprintf(&b, " %d (%s)", s, players[s])
		}
	}
	return b.String()
}

// TestGoldenGames pins MARS's decisions: the events of a few games under
// fixed seeds must hash to the digests in testdata/golden.txt. A change
// that alters a decision (a different placement, attack, move or trade)
// changes a digest; run with -update only for an intended one. Below each
// digest the file holds a line per game (winner, rounds, eliminations).
func TestGoldenGames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays whole games")
	}
	const file = "testdata/golden.txt"
	var got []string
	for _, c := range goldenCases {
		digest, summary := goldenDigest(t, c)
		got = append(got, c.name+" "+digest)
		got = append(got, summary...)
	}
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644))
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	want := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	require.Equal(t, want, got, "digests of the games' events (%s)", file)
}
