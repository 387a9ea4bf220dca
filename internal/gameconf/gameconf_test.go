package gameconf

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/configs"
)

func TestLoad(t *testing.T) {
	t.Parallel()
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

func TestCheckKeys(t *testing.T) {
	t.Parallel()
	bad := configs.KeyErrors("exp.toml")
	p := func(v int) *int { return &v }
	s := func(v int64) *int64 { return &v }
	tests := []struct {
		name    string
		players *int
		seed    *int64
		rules   string
		err     string
	}{
		{"valid", p(4), s(0), "classic", ""},
		{"players missing", nil, s(1), "classic", "exp.toml: key players: missing: want the players per game, 2..6"},
		{"players 7", p(7), s(1), "classic", "exp.toml: key players: 7: want 2..6"},
		{"players 1", p(1), s(1), "classic", "exp.toml: key players: 1: want 2..6"},
		{"seed missing", p(2), nil, "classic", "exp.toml: key seed: missing: want an integer >= 0"},
		{"seed negative", p(2), s(-1), "classic", "exp.toml: key seed: -1: want >= 0"},
		{"rules missing", p(2), s(1), "", "exp.toml: key rules: missing: want an embedded rule set ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPlayers(bad, tt.players)
			if err == nil {
				err = CheckSeedRules(bad, tt.seed, tt.rules)
			}
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.err)
		})
	}
}
