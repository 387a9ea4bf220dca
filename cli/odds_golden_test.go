package cli

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestOddsGolden pins the whole output (and error) of every mode of
// marslab odds, text and JSON. Run with -update to rewrite the files.
func TestOddsGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"battle", []string{"-a", "5", "-d", "5"}},
		{"battle-stop-exact", []string{"-from", "6", "-d", "5", "-stop", "2", "-exact"}},
		{"battle-json-exact", []string{"-a", "4", "-d", "3", "-json", "-exact"}},
		{"chain", []string{"-a", "10", "-chain", "3,2,1"}},
		{"chain-exact", []string{"-a", "6", "-chain", "2,0,1", "-exact"}},
		{"chain-json-exact", []string{"-a", "5", "-chain", "2,1", "-json", "-exact"}},
		{"table", []string{"-table", "6"}},
		{"table-exact", []string{"-table", "3", "-exact"}},
		{"table-json-exact", []string{"-table", "3", "-exact", "-json", "-ties-attacker"}},
		{"rolls", []string{"-rolls"}},
		{"rolls-exact", []string{"-rolls", "-exact"}},
		{"rolls-json", []string{"-rolls", "-json"}},
		{"rolls-3v3", []string{"-rolls", "-defender-dice", "3", "-ties-attacker"}},
		{"rules", []string{"-rules", "classic", "-a", "1", "-d", "1"}},
		{"verify", []string{"-verify", "-games", "3000", "-seed", "4"}},
		{"verify-json", []string{"-verify", "-games", "2000", "-json"}},
		{"verify-fails", []string{"-verify", "-games", "2000", "-alpha", "0.5"}},
		{"verify-battle", []string{"-verify", "-from", "9", "-d", "5", "-stop", "2", "-games", "4000"}},
		{"verify-chain-json", []string{"-verify", "-a", "10", "-chain", "3,2,1", "-games", "3000", "-json"}},
		{"verify-rejected", []string{"-verify", "-a", "10", "-d", "4", "-games", "3000", "-alpha", "0.9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runOdds(t, tc.args...)
			if err != nil {
				out += "error: " + err.Error() + "\n"
			}
			path := filepath.Join("testdata", "odds", tc.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), out)
		})
	}
}
