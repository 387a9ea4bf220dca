package mars_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.txt from the games played")

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
// index i) and returns the SHA-256 of every event's JSON line.
func goldenDigest(tb testing.TB, c goldenCase) string {
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
	for i := range c.games {
		_, err := g.Play(ps, 5, uint64(i))
		require.NoError(tb, err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestGoldenGames pins MARS's decisions: the events of a few games under
// fixed seeds must hash to the digests in testdata/golden.txt. A change
// that alters a decision (a different placement, attack, move or trade)
// changes a digest; run with -update-golden only for an intended one.
func TestGoldenGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	const file = "testdata/golden.txt"
	got := make([]string, len(goldenCases))
	for i, c := range goldenCases {
		got[i] = c.name + " " + goldenDigest(t, c)
	}
	if *updateGolden {
		require.NoError(t, os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644))
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Equal(t, want, got, "digests of the games' events (%s)", file)
}
