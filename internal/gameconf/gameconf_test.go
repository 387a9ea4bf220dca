package gameconf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "exp.toml")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "here.toml"), nil, 0o644))
	tests := []struct {
		arg, want string
	}{
		{"classic", "classic"},
		{"here.toml", filepath.Join(dir, "here.toml")},
		{"missing.toml", "missing.toml"},
		{"/abs/r.toml", "/abs/r.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			assert.Equal(t, tt.want, Path(src, tt.arg))
		})
	}
}

func TestLoad(t *testing.T) {
	r, m, err := Load("exp.toml", "mars2006", "")
	require.NoError(t, err)
	assert.Equal(t, 42, m.NumTerritories())
	assert.NotNil(t, r)

	tests := []struct {
		name, rules, mapArg, err string
	}{
		{"unknown rules", "atlantis", "", "exp.toml: key rules: "},
		{"unknown map", "classic", "atlantis", "exp.toml: key map: "},
		{"missing rules file", "nope/r.toml", "", "exp.toml: key rules: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Load("exp.toml", tt.rules, tt.mapArg)
			require.Error(t, err)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}
