package lux_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/bottest"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
	"github.com/marslab-risk/marslab/sim/simtest"
)

// Territory ids of testdata/grid.toml.
const (
	ga = iota
	gb
	gc
	gd
	ge
	gf
	gg
	gh
	gi
)

// gridState returns the State seat 0 is shown in phase ph of round 3 on the
// grid map (testdata/grid.toml) under the rule set rules, where board lists
// the owner and armies of territories a..i as "owner:armies" fields, and
// the player of seat spec, started at seat 0 with a fixed random stream.
func gridState(t testing.TB, spec, rules, board string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	return gridStateAt(t, spec, rules, board, "[[], []]", ph)
}

// gridStateHand is gridState in the trade phase under classic rules, with
// the hands given as a TOML array of arrays of territory names.
func gridStateHand(t testing.TB, spec, board, hands string) (sim.Player, *sim.State) {
	t.Helper()
	return gridStateAt(t, spec, "classic", board, hands, sim.PhaseTrade)
}

// gridStateAt is gridState with the hands given as a TOML array.
func gridStateAt(t testing.TB, spec, rules, board, hands string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	return mapStateAt(t, spec, "testdata/grid.toml", rules, board, hands, ph)
}

// mapStateAt is gridStateAt on the map in the file mapPath (see
// boardPosition).
func mapStateAt(t testing.TB, spec, mapPath, rules, board, hands string, ph sim.Phase) (sim.Player, *sim.State) {
	t.Helper()
	m, r, pos := boardPosition(t, mapPath, rules, board, hands, ph)
	seat, err := registry.Default().ParseSeat(spec, nil)
	require.NoError(t, err)
	return bottest.StartAt(t, seat, m, r, pos, rand.New(rand.NewPCG(1, 2)))
}

// boardPosition returns the map in the file mapPath, the rule set rules
// and the position in round 3, seat 0 to play in phase ph, where board
// lists the owner and armies of the map's territories in id order as
// "owner:armies" fields (the seats are 0 to the highest owner, at least
// two) and hands is a TOML array of arrays of territory names, one per
// seat; "[[], []]" stands for no cards in every seat, whatever their
// number.
func boardPosition(t testing.TB, mapPath, rules, board, hands string, ph sim.Phase) (*sim.Map, *sim.Rules, *sim.Position) {
	t.Helper()
	m, err := sim.LoadMap(mapPath)
	require.NoError(t, err)
	r, err := sim.LoadRules(rules)
	require.NoError(t, err)
	fields := strings.Fields(board)
	require.Len(t, fields, m.NumTerritories())
	owners, armies := make([]int, len(fields)), make([]int, len(fields))
	players := 2
	for i, f := range fields {
		_, err := fmt.Sscanf(f, "%d:%d", &owners[i], &armies[i])
		require.NoError(t, err)
		players = max(players, owners[i]+1)
	}
	if hands == "[[], []]" {
		hands = "[" + strings.Repeat("[], ", players-1) + "[]]"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "players = %d\nhands = %s\nround = 3\ncurrent = 0\nphase = %q\n[territories]\n", players, hands, ph)
	for i := range fields {
		fmt.Fprintf(&sb, "%s = { owner = %d, armies = %d }\n", m.Territories[i].Name, owners[i], armies[i])
	}
	pos, err := sim.ParsePosition(mapPath+" position", []byte(sb.String()), m, r)
	require.NoError(t, err)
	return m, r, pos
}

// fortifyCase is one fortification test: seat spec's moves on board (see
// gridState) under rules.
type fortifyCase struct {
	name, spec, rules, board string
	want                     []sim.Move
}

// checkFortify runs each case as a subtest: the moves are want, and legal.
func checkFortify(t *testing.T, cases []fortifyCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			p, s := gridState(t, tt.spec, tt.rules, tt.board, sim.PhaseFortify)
			assert.Equal(t, tt.want, simtest.Fortify(t, p, s, 0))
		})
	}
}

// playB plays games games of the seats under rule set rn, checking every
// event with the sim/simtest ledger, and returns the event counts of every
// seat and the faults summed over the games.
func playB(t *testing.T, specs string, rn string, games int) (counts [][sim.NumEventKinds]int, faults []int) {
	t.Helper()
	seats, err := registry.Default().ParseSeats(specs, nil)
	require.NoError(t, err)
	return bottest.Play(t, seats, rn, 11, games)
}

// TestGamesB plays the bots of this group against each other and a
// baseline bot under every embedded rule set (each fortify mode among
// them), checks every event with the ledger of github.com/marslab-risk/marslab/sim/simtest,
// and requires that no bot faults and that each attacks and conquers.
func TestGamesB(t *testing.T) {
	t.Parallel()
	games := 20
	if testing.Short() || race.Enabled {
		games = 4
	}
	const specs = "angry,communist,stinky,pixie,evilpixie,aggressive"
	for _, rn := range []string{"classic", "mars2006", "fixedcards", "missions"} {
		t.Run(rn, func(t *testing.T) {
			counts, faults := playB(t, specs, rn, games)
			assert.Equal(t, make([]int, len(faults)), faults)
			for seat, name := range strings.Split(specs, ",")[:5] {
				for _, k := range []sim.EventKind{sim.EvAttackOrder, sim.EvOccupation} {
					assert.NotZero(t, counts[seat][k], "%s: %v", name, k)
				}
			}
			for seat, name := range map[int]string{0: "angry", 1: "communist", 3: "pixie", 4: "evilpixie"} {
				assert.NotZero(t, counts[seat][sim.EvMove], "%s moves", name)
			}
			assert.Zero(t, counts[2][sim.EvMove], "stinky never fortifies")
		})
	}
}

// BenchmarkGameB plays six-seat games of the bots of this group under
// mars2006.
func BenchmarkGameB(b *testing.B) {
	tab, err := registry.Default().NewTable("angry,communist,stinky,pixie,evilpixie,stinky", "mars2006")
	require.NoError(b, err)
	bottest.BenchGames(b, tab.Play)
}
