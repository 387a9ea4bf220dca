package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A parameter file's key holding an escape sequence reaches the terminal
// as text: Main prints errorLine, whose control characters are escaped.
func TestErrorLineQuotesControls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.toml")
	require.NoError(t, os.WriteFile(path, []byte("bot = \"mars\"\n[params]\n\"W\\u001b[31m_p\" = 0.5\n"), 0o644))
	_, _, err := runCmd(t, "play", "-players", "mars@"+path+",random")
	require.Error(t, err)
	require.Contains(t, err.Error(), "\x1b", "the error holds the raw key")
	line := errorLine(err)
	assert.NotContains(t, line, "\x1b")
	assert.Contains(t, line, `W\x1b[31m_p`)
	assert.True(t, strings.HasPrefix(line, "marslab: play: "), line)
}
