package arena

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

// TestReplay: Replay gives game g's record byte-identical to its line of
// games.jsonl, for a rotation and for subsets of a larger pool, and its
// log holds the same game, with MARS's explanations.
func TestReplay(t *testing.T) {
	t.Parallel()
	subsets, err := NewSubsets(5, 3, 2, 11)
	require.NoError(t, err)
	_, rules, err := sim.RulesSource("mars2006")
	require.NoError(t, err)
	_, classic, err := sim.MapSource("classic")
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		players string
		sched   Schedule
		games   int
		replay  []int
	}{
		{"rotation", "mars@paper,aggressive,random", nil, 6, []int{1, 5}},
		{"subsets", "mars@paper,aggressive,random,pacifist,passive", subsets, 12, []int{0, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, tc.players, tc.games)
			cfg.Schedule, cfg.Workers = tc.sched, 2
			dir := t.TempDir()
			runTo(t, cfg, dir)
			lines := bytes.Split(bytes.TrimSuffix(readFile(t, dir, gamesFile), []byte{'\n'}), []byte{'\n'})
			require.Len(t, lines, tc.games)
			for _, g := range tc.replay {
				rec, log, err := Replay(context.Background(), cfg, g, sim.LogHeader{RulesName: "mars2006", MapName: "classic",
					RulesTOML: string(rules), MapTOML: string(classic)})
				require.NoError(t, err, "game %d", g)
				assert.Equal(t, string(lines[g]), string(rec.AppendJSON(nil)), "game %d", g)
				h, events, res, err := sim.ReadLog(bytes.NewReader(log))
				require.NoError(t, err, "game %d", g)
				assert.Equal(t, sim.GameSeed(cfg.Seed, h.Index), rec.Seed)
				require.Len(t, h.Seats, len(rec.Seating))
				for i, s := range h.Seats {
					assert.Equal(t, rec.Seating[i], s.Label, "game %d seat %d", g, i)
				}
				assert.Equal(t, rec.Winner, res.Winner)
				assert.Equal(t, rec.Turns, res.Turns)
				explained := 0
				for i := range events {
					if events[i].Kind == sim.EvExplain {
						explained++
					}
				}
				if bytes.Contains(lines[g], []byte("mars@paper")) {
					assert.Positive(t, explained, "game %d: MARS explains its decisions", g)
				} else {
					assert.Zero(t, explained, "game %d", g)
				}
			}
		})
	}
}

func TestReplayErrors(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, "aggressive,random", 4)
	for _, tc := range []struct {
		name string
		g    int
		want string
	}{
		{"negative", -1, "arena: game -1: the batch has games 0..3"},
		{"past the end", 4, "arena: game 4: the batch has games 0..3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Replay(context.Background(), cfg, tc.g, sim.LogHeader{})
			assert.EqualError(t, err, tc.want)
		})
	}
	bad := cfg
	bad.Seats = nil
	_, _, err := Replay(context.Background(), bad, 0, sim.LogHeader{})
	assert.ErrorContains(t, err, "arena: 0 seats")
	_, _, err = Replay(context.Background(), cfg, 0, sim.LogHeader{RulesTOML: "not toml ="})
	assert.ErrorContains(t, err, "arena: game 0: ")
}
