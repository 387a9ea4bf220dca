package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/sim"
)

// TestGoldenPlayReplay: for every golden game of bots/registry, marslab
// play with the rules, seats (their labels are seat specs), seed and index
// of the log's header writes the golden log byte for byte, and marslab
// replay reports it identical. Under the race detector it plays every
// third game: bots/registry's TestGolden plays them all there, and make
// test-full runs this test whole.
func TestGoldenPlayReplay(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "bots", "registry", "testdata", "golden", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	if race.Enabled {
		var some []string
		for i := 0; i < len(files); i += 3 {
			some = append(some, files[i])
		}
		files = some
	}
	dir := t.TempDir()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			golden, err := os.ReadFile(f)
			require.NoError(t, err)
			lr, err := sim.NewLogReader(bytes.NewReader(golden))
			require.NoError(t, err)
			h := lr.Header()
			specs := make([]string, len(h.Seats))
			for i, s := range h.Seats {
				specs[i] = s.Label
			}
			log := filepath.Join(dir, filepath.Base(f))
			_, _, err = runCmd(t, "play", "-rules", h.RulesName, "-map", h.MapName, "-players", strings.Join(specs, ","),
				"-seed", fmt.Sprint(h.Seed), "-index", fmt.Sprint(h.Index), "-log", log)
			require.NoError(t, err)
			got, err := os.ReadFile(log)
			require.NoError(t, err)
			require.True(t, bytes.Equal(golden, got), "marslab play -log differs from %s", f)

			_, _, res, err := sim.ReadLog(bytes.NewReader(golden))
			require.NoError(t, err)
			out, _, err := runCmd(t, "replay", f)
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("%s: replayed %d events: identical (winner %d, %d rounds)\n",
				f, bytes.Count(golden, []byte{'\n'})-2, res.Winner, res.Rounds), out)
		})
	}
}
