package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMapLayout: the classic map gives every territory a position; x and y
// go through EncodeMap and ParseMap unchanged; a map gives positions to all
// its territories or to none, finite, within range and distinct.
func TestMapLayout(t *testing.T) {
	t.Parallel()
	m, err := LoadMap("classic")
	require.NoError(t, err)
	require.Len(t, m.Layout, 42)
	id, _ := m.TerritoryID("Kamchatka")
	assert.Equal(t, Point{935, 85}, m.Layout[id])
	var buf bytes.Buffer
	require.NoError(t, EncodeMap(&buf, m))
	back, err := ParseMap("encoded", buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, m.Layout, back.Layout)
	assert.True(t, equalMap(m, back))
	c := m.Clone()
	c.Layout[0].X++
	assert.Equal(t, 60.0, m.Layout[0].X, "a clone has a layout of its own")
	assert.False(t, equalMap(m, c))

	ring := ringMap(2, 2)
	assert.Nil(t, ring.Layout)
	buf.Reset()
	require.NoError(t, EncodeMap(&buf, ring))
	assert.NotContains(t, buf.String(), "x =")

	base := `name = "two"
[[continents]]
name = "c"
bonus = 1
[[territories]]
name = "a"
continent = "c"
neighbors = ["b"]
%A
[[territories]]
name = "b"
continent = "c"
neighbors = ["a"]
%B
`
	cases := []struct {
		name, a, b, want string
	}{
		{"both", "x = 1\ny = 2", "x = 3.5\ny = -4", ""},
		{"none", "", "", ""},
		{"one missing", "x = 1\ny = 2", "", `my.toml: territories[1].x: missing: territory "b" has no position, but 1 other territories have one`},
		{"y missing", "x = 1\ny = 2", "x = 3", `my.toml: territories[1].y: missing: territory "b" has x but no y`},
		{"x missing", "y = 2", "x = 3\ny = 4", `my.toml: territories[0].x: missing: territory "a" has y but no x`},
		{"same place", "x = 1\ny = 2", "x = 1.0\ny = 2", `my.toml: territories[1].x = 1: territory "b" is at (1, 2), the position of territories[0] ("a")`},
		{"too far", "x = 1e7\ny = 2", "x = 1\ny = 2", `my.toml: territories[0].x = 1e+07: must be a number within ±1e+06`},
		{"nan", "x = nan\ny = 2", "x = 1\ny = 2", `territories[0].x = NaN: must be a number within ±1e+06`},
		{"string", `x = "1"` + "\ny = 2", "x = 1\ny = 2", `territories[0].x`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := strings.NewReplacer("%A", c.a, "%B", c.b).Replace(base)
			m, err := ParseMap("my.toml", []byte(data))
			if c.want != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.want)
				return
			}
			require.NoError(t, err)
			if c.a == "" {
				assert.Nil(t, m.Layout)
			} else {
				assert.Equal(t, []Point{{1, 2}, {3.5, -4}}, m.Layout)
			}
		})
	}
}
