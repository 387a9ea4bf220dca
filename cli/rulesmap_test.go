package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/configs"
)

// TestRulesFileMap: a rules file's map key is an error of the rules file
// (not of -map), and a relative map path in it is read from the rules
// file's folder, whatever the working directory (by play and by map
// -rules); the game it plays logs and replays.
func TestRulesFileMap(t *testing.T) {
	classic, err := configs.Rules("classic")
	require.NoError(t, err)
	tiny, err := os.ReadFile(filepath.Join("..", "sim", "testdata", "load", "tiny.toml"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "maps"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "maps", "tiny.toml"), tiny, 0o644))
	withMap := func(name, mapKey string) string {
		path := filepath.Join(dir, name)
		text := strings.Replace(string(classic), `map = "classic"`, `map = "`+mapKey+`"`, 1)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
	atlantis, local := withMap("atlantis.toml", "atlantis"), withMap("local.toml", "maps/tiny.toml")
	t.Chdir(t.TempDir())

	var out, errb bytes.Buffer
	err = run(context.Background(), registry.Default(), []string{"play", "-rules", atlantis, "-players", "aggressive,random"}, &out, &errb)
	require.Error(t, err)
	assert.Contains(t, err.Error(), atlantis+`: map: no embedded map named "atlantis" (have classic)`)
	assert.NotContains(t, err.Error(), "-map")

	log := filepath.Join(dir, "game.jsonl")
	out.Reset()
	err = run(context.Background(), registry.Default(), []string{"play", "-rules", local, "-players", "aggressive,random", "-log", log}, &out, &errb)
	require.NoError(t, err, errb.String())
	assert.Contains(t, out.String(), "on map tiny")
	out.Reset()
	require.NoError(t, run(context.Background(), registry.Default(), []string{"replay", log}, &out, &errb))
	assert.Contains(t, out.String(), "identical")

	// marslab map -rules validates the rules against their own map, found
	// the same way.
	out.Reset()
	require.NoError(t, run(context.Background(), registry.Default(), []string{"map", "-rules", local}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), `map = "maps/tiny.toml"`)
}
