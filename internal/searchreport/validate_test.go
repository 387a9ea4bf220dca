package searchreport

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// A mixture's field is described condition by condition, with each one's
// share of the blocks.
func TestFieldText(t *testing.T) {
	t.Parallel()
	cfg, err := search.LoadConfig("../../search/testdata/tiny-mixture.toml")
	require.NoError(t, err)
	s, err := cfg.Resolve(registry.Default())
	require.NoError(t, err)
	assert.Contains(t, FieldText(s), "mars2006/3p (share 0.667: 3 players, rules `mars2006`")
	assert.Contains(t, FieldText(s), "classic-four (share 0.333: 4 players, rules `classic`, 3 drawn from")
}

// The per-condition table gives each condition's numbers, and dashes
// where a condition has too few blocks.
func TestConditionTable(t *testing.T) {
	t.Parallel()
	cc := []search.ConditionComparison{
		{Name: "a", Comparison: search.Comparison{Blocks: 30, Games: 90, WinA: 0.4, WinB: 0.3,
			Diff: stats.Paired{Mean: 0.1, Interval: stats.Interval{Lo: 0.02, Hi: 0.18}, P: 0.012}}},
		{Name: "b", Comparison: search.Comparison{Blocks: 1, Games: 5}, Err: errors.New("1 blocks")},
	}
	tab := ConditionTable(cc)
	assert.Equal(t, []string{"condition", "blocks", "games", "win A", "win B", "A - B", "95 % interval", "p"}, tab.Header)
	assert.Equal(t, []string{"a", "30", "90", "0.400", "0.300", "+0.100", "[0.020, 0.180]", "0.012"}, tab.Rows[0])
	assert.Equal(t, []string{"b", "1", "5", "-", "-", "-", "-", "-"}, tab.Rows[1])
}
