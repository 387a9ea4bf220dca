package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"marslab/sim"
)

func runMap(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"map"}, args...), &out, &errb)
	return out.String(), errb.String(), err
}

func TestMapText(t *testing.T) {
	out, _, err := runMap(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"map classic: 42 territories, 6 continents, 83 borders\n",
		"\nNorth America: bonus 5, 9 territories, 3 on the border\n",
		"\nAsia: bonus 7, 12 territories, 5 on the border\n",
		"\nAustralia: bonus 2, 4 territories, 1 on the border\n",
		"  * Alaska                 Northwest Territory, Alberta, Kamchatka (Asia)\n",
		"    Argentina              Peru, Brazil\n",
		"  * Indonesia              Siam (Asia), New Guinea, Western Australia\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(out, "  * "); n != 18 {
		t.Errorf("%d border territories starred, want 3+2+4+3+5+1 = 18", n)
	}
	named, _, err := runMap(t, "classic")
	if err != nil || named != out {
		t.Errorf("map classic differs from the default (err %v)", err)
	}
}

func TestMapJSON(t *testing.T) {
	out, _, err := runMap(t, "-json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Territories []struct {
			Name      string   `json:"name"`
			Continent string   `json:"continent"`
			Neighbors []string `json:"neighbors"`
		} `json:"territories"`
		Continents []struct {
			Name        string   `json:"name"`
			Bonus       int      `json:"bonus"`
			Territories []string `json:"territories"`
		} `json:"continents"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if len(v.Territories) != 42 || len(v.Continents) != 6 {
		t.Fatalf("%d territories, %d continents", len(v.Territories), len(v.Continents))
	}
	first := v.Territories[0]
	if first.Name != "Alaska" || first.Continent != "North America" ||
		strings.Join(first.Neighbors, ",") != "Northwest Territory,Alberta,Kamchatka" {
		t.Errorf("territory 0 = %+v", first)
	}
	au := v.Continents[5]
	if au.Name != "Australia" || au.Bonus != 2 ||
		strings.Join(au.Territories, ",") != "Indonesia,New Guinea,Western Australia,Eastern Australia" {
		t.Errorf("continent 5 = %+v", au)
	}
	borders := 0
	for _, t := range v.Territories {
		borders += len(t.Neighbors)
	}
	if borders != 2*83 {
		t.Errorf("%d neighbour entries, want 166", borders)
	}
}

func TestMapTOMLAndFile(t *testing.T) {
	out, _, err := runMap(t, "-toml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "copy.toml")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, _, err := runMap(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fromFile, "map classic: 42 territories, 6 continents, 83 borders\n") {
		t.Errorf("map from %s:\n%s", path, fromFile)
	}
}

func TestMapRules(t *testing.T) {
	out, _, err := runMap(t, "-rules", "mars2006")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.ParseRules("printed", []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Name != "mars2006" || r.End.RoundLimit != 100 || r.Fortify.Mode != sim.FortifyOneStep || r.Reinforce.Rounding != "ceil" {
		t.Errorf("printed rules %+v", r)
	}
}

func TestMapErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("name = \"bad\"\n[[continents]]\nname = \"A\"\nbonus = 0\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = [\"a\"]\n"+
		"[[territories]]\nname = \"b\"\ncontinent = \"A\"\nneighbors = [\"a\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pair := filepath.Join(dir, "pair.toml")
	if err := os.WriteFile(pair, []byte("name = \"pair\"\n[[continents]]\nname = \"A\"\nbonus = 0\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = [\"b\"]\n"+
		"[[territories]]\nname = \"b\"\ncontinent = \"A\"\nneighbors = [\"a\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
		{"unknown rules", []string{"-rules", "lux"}, `load rules: no embedded rules named "lux"`},
		{"rules on a small map", []string{"-rules", "missions", pair}, `configs/rules/missions.toml: missions[0].continents = "Europe": no such continent on map "pair"`},
		{"bad flag", []string{"-colour"}, "flag provided but not defined: -colour"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runMap(t, c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}
