package tourney

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/internal/fileread"
)

// A games.jsonl made sparse to gigabytes without a newline (as marslab
// compare once read whole) is refused after one line cap of reading.
func TestReadGamesSparse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	require.NoError(t, os.Truncate(path, 3900<<20))
	_, err := ReadGames(path, 6)
	require.ErrorIs(t, err, fileread.ErrLongLine)
	assert.EqualError(t, err, "tourney: "+path+": line 1: longer than the line cap of 1 MiB")
}
