package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/sim"
)

func runMap(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), registry.Default(), append([]string{"map"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestMapText(t *testing.T) {
	t.Parallel()
	out, _, err := runMap(t)
	require.NoError(t, err)
	for _, want := range []string{
		"map classic: 42 territories, 6 continents, 83 borders\n",
		"\nNorth America: bonus 5, 9 territories, 3 on the border\n",
		"\nAsia: bonus 7, 12 territories, 5 on the border\n",
		"\nAustralia: bonus 2, 4 territories, 1 on the border\n",
		"  * Alaska                 Northwest Territory, Alberta, Kamchatka (Asia)\n",
		"    Argentina              Peru, Brazil\n",
		"  * Indonesia              Siam (Asia), New Guinea, Western Australia\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.Equal(t, 3+2+4+3+5+1, strings.Count(out, "  * "), "border territories starred")
	named, _, err := runMap(t, "classic")
	require.NoError(t, err)
	assert.Equal(t, out, named, "map classic and the default")
}

func TestMapJSON(t *testing.T) {
	t.Parallel()
	out, _, err := runMap(t, "-json")
	require.NoError(t, err)
	var v struct {
		Territories []struct {
			Name      string   `json:"name"`
			Continent string   `json:"continent"`
			Neighbors []string `json:"neighbors"`
			X, Y      *float64
		} `json:"territories"`
		Continents []struct {
			Name        string   `json:"name"`
			Bonus       int      `json:"bonus"`
			Territories []string `json:"territories"`
		} `json:"continents"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&v))
	require.Len(t, v.Territories, 42)
	require.Len(t, v.Continents, 6)
	first := v.Territories[0]
	assert.Equal(t, "Alaska", first.Name)
	assert.Equal(t, "North America", first.Continent)
	assert.Equal(t, []string{"Northwest Territory", "Alberta", "Kamchatka"}, first.Neighbors)
	require.NotNil(t, first.X, "the classic map's layout")
	assert.Equal(t, 60.0, *first.X)
	assert.Equal(t, 80.0, *first.Y)
	au := v.Continents[5]
	assert.Equal(t, "Australia", au.Name)
	assert.Equal(t, 2, au.Bonus)
	assert.Equal(t, []string{"Indonesia", "New Guinea", "Western Australia", "Eastern Australia"}, au.Territories)
	borders := 0
	for _, t := range v.Territories {
		borders += len(t.Neighbors)
	}
	assert.Equal(t, 2*83, borders, "neighbour entries")
}

func TestMapTOMLAndFile(t *testing.T) {
	t.Parallel()
	out, _, err := runMap(t, "-toml")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "copy.toml")
	require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
	fromFile, _, err := runMap(t, path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(fromFile, "map classic: 42 territories, 6 continents, 83 borders\n"),
		"map from %s:\n%s", path, fromFile)
}

func TestMapRules(t *testing.T) {
	t.Parallel()
	out, _, err := runMap(t, "-rules", "mars2006")
	require.NoError(t, err)
	r, err := sim.ParseRules("printed", []byte(out))
	require.NoError(t, err, out)
	assert.Equal(t, "mars2006", r.Name)
	assert.Equal(t, 100, r.End.RoundLimit)
	assert.Equal(t, sim.FortifyOneStep, r.Fortify.Mode)
	assert.Equal(t, sim.RoundCeil, r.Reinforce.Rounding)
}

func TestMapErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join("testdata", "maps", "self-border.toml")
	pair := filepath.Join("testdata", "maps", "pair.toml")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown map", []string{"earth"}, `load map: no embedded map named "earth" (have classic)`},
		{"missing file", []string{filepath.Join(dir, "none.toml")}, "load map: open " + filepath.Join(dir, "none.toml")},
		{"invalid file", []string{bad}, bad + `: territories[0].neighbors = "a": a territory cannot border itself`},
		{"two maps", []string{"classic", "classic"}, `map: want at most one map, got ["classic" "classic"]`},
		{"json and toml", []string{"-json", "-toml"}, "map: -json, -toml and -rules exclude each other"},
		{"unknown rules", []string{"-rules", "hasbro"}, `load rules: no embedded rules named "hasbro"`},
		{"rules on a small map", []string{"-rules", "missions", pair}, `configs/rules/missions.toml: missions[0].continents = "Europe": no such continent on map "pair"`},
		{"bad flag", []string{"-colour"}, "flag provided but not defined: -colour"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runMap(t, c.args...)
			assert.ErrorContains(t, err, c.want)
		})
	}
}
