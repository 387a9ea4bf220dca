package searchreport

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/search"
)

// The racing sentences count every cell of every level, say what halving
// set aside, and the surface of a narrowing with a reference holds every
// cell as a difference from it.
func TestRacingTextRefDiff(t *testing.T) {
	sp := search.Space{
		{Param: bots.Param{Name: "a", Min: 0, Max: 1}, Lo: 0, Hi: 1},
		{Param: bots.Param{Name: "b", Min: 0, Max: 1}, Lo: 0, Hi: 1},
	}
	p := func(x []float64) float64 { return 0.6 - 0.8*((x[0]-0.3)*(x[0]-0.3)+(x[1]-0.6)*(x[1]-0.6)) }
	cfg := search.NarrowConfig{Space: sp, Points: []int{5, 5}, Levels: 2, Rounds: 3, Blocks: 4, Alpha: 0.05, Margin: 1, Zoom: 0.5,
		Reference: []float64{0.5, 0.5}, Fit: true, Halve: true}
	s := &search.Search[*search.Narrowing]{New: func() (*search.Narrowing, error) { return search.NewNarrowing(cfg) },
		Eval: &search.Bernoulli{Games: 4, Seed: 2, P: p}}
	st, err := s.Run(context.Background(), false)
	require.NoError(t, err)
	text := racingText(st.Method)
	require.Len(t, text, 2)
	assert.True(t, strings.HasPrefix(text[0], "Level 1 (25 cells, up to 28 blocks each): "), text[0])
	assert.Contains(t, text[0], "halving set aside ")
	cells := refDiffCells(st.Method)
	assert.Len(t, cells, 50)
}
