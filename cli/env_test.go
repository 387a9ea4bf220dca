package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
)

func runEnv(t *testing.T, stdin string, args ...string) ([]map[string]any, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), registry.Default(), append([]string{"env"}, args...), strings.NewReader(stdin), &out, &errb)
	var res []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		res = append(res, m)
	}
	return res, err
}

func TestEnvServe(t *testing.T) {
	t.Parallel()
	got, err := runEnv(t, `{"cmd":"reset","seed":7}
{"cmd":"step","action":1}
{"cmd":"step","action":"one"}
{"cmd":"step"}
{"cmd":"step","action":0}
{"cmd":"close"}
`, "serve")
	require.NoError(t, err)
	require.Len(t, got, 6)
	assert.Equal(t, 3.0, got[0]["actions"])
	assert.Len(t, got[0]["obs"], 11)
	assert.Equal(t, -1.0, got[1]["reward"])
	assert.Contains(t, got[2]["error"], `step: action "one": want an integer`)
	assert.Contains(t, got[3]["error"], `step: missing key "action"`)
	assert.Equal(t, 2.0, got[4]["info"].(map[string]any)["step"])
	assert.Equal(t, true, got[5]["closed"])
}

func TestEnvServeConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "env.toml")
	require.NoError(t, os.WriteFile(path, []byte("players = 3\nactions = [\"passive\", \"aggressive\"]\nfeatures = [\"territories\"]\n[rewards]\nplacement = [3.0, 2.0, 1.0]\n"), 0o644))
	got, err := runEnv(t, `{"cmd":"reset","seed":1}`+"\n", "serve", path)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, 2.0, got[0]["actions"])
	assert.Equal(t, []any{"territories"}, got[0]["features"])
	assert.InDelta(t, 14.0/42, got[0]["obs"].([]any)[0], 1e-12)

	require.NoError(t, os.WriteFile(path, []byte("players = 9\n"), 0o644))
	_, err = runEnv(t, "", "serve", path)
	require.ErrorContains(t, err, "env: "+path+": key players: 9: want 2..6")
	_, err = runEnv(t, "", "serve", filepath.Join(dir, "none.toml"))
	require.ErrorContains(t, err, "no such file")
	_, err = runEnv(t, "", "play")
	require.ErrorContains(t, err, `env: want "serve [CONFIG]"`)
}

func TestEnvThroughRun(t *testing.T) {
	t.Parallel()
	// The registered command reads the stdin given to Run.
	var out, errb bytes.Buffer
	stdin := strings.NewReader(`{"cmd":"close"}` + "\n")
	require.NoError(t, Run(context.Background(), registry.Default(), []string{"env", "serve"}, stdin, &out, &errb))
	assert.Equal(t, `{"closed":true}`+"\n", out.String())
}
