package sim_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/marslab-risk/marslab/sim"
)

func TestConfigPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ source, arg, want string }{
		{"nb/config.toml", "mars2006", "mars2006"},
		{"nb/config.toml", "my.toml", filepath.Join("nb", "my.toml")},
		{"nb/config.toml", "rules/x", filepath.Join("nb", "rules", "x")},
		{"nb/config.toml", "/abs/x.toml", "/abs/x.toml"},
		{"config.toml", "x.toml", "x.toml"},
		{"", "x.toml", "x.toml"},
		{"/runs/exp.toml", "../r.toml", "/r.toml"},
	} {
		assert.Equal(t, tc.want, sim.ConfigPath(tc.source, tc.arg), "%s in %s", tc.arg, tc.source)
	}
}
