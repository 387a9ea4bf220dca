package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMergeErrors(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	s0 := filepath.Join(base, "s0")
	s1 := filepath.Join(base, "s1")
	batchIn(t, s0, "-shard", "0/2")
	batchIn(t, s1, "-shard", "1/2")
	other := filepath.Join(base, "other")
	log, err := runOut(t, "batch", "-quiet", "-players", "random,random", "-games", "30", "-seed", "3", "-shard", "1/2", "-out", other)
	require.NoError(t, err, log)
	out := filepath.Join(base, "m")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{s0, s1}, "merge: -out is required"},
		{[]string{"-out", out}, "no shard directories given"},
		{[]string{"-out", out, s0}, "shard(s) 1/2 missing"},
		{[]string{"-out", out, s0, s0, s1}, "shard 0/2 is given twice"},
		{[]string{"-out", out, s0, other}, "seats [aggressive,random,aggressive] vs [random,random]"},
		{[]string{"-out", out, s0, filepath.Join(base, "nope")}, "no such file"},
	}
	for _, tt := range tests {
		_, err := runOut(t, append([]string{"merge"}, tt.args...)...)
		assert.ErrorContains(t, err, tt.want, "merge %v", tt.args)
	}
	_, err = runOut(t, "merge", "-quiet", "-out", out, s1, s0)
	require.NoError(t, err)
	assert.Equal(t, 30, strings.Count(readText(t, filepath.Join(out, "games.jsonl")), "\n"), "merged games")
}
