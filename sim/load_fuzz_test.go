package sim

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"marslab/configs"
)

// FuzzParseMap checks that ParseMap never panics and either reports an
// error naming the source or returns a map that satisfies every rule of
// a valid map (checked here independently) and survives EncodeMap.
func FuzzParseMap(f *testing.F) {
	classic, err := configs.Map("classic")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(classic)
	f.Add([]byte(tinyMap))
	f.Add([]byte(strings.Replace(tinyMap, `["a2", "b1"]`, `["a2"]`, 1)))
	f.Add([]byte(strings.Replace(tinyMap, `continent = "B"`, `continent = "A"`, 1)))
	f.Add([]byte("name = \"x\"\n[[continents]]\nname = \"A\"\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = [\"b\"]\n" +
		"[[territories]]\nname = \"b\"\ncontinent = \"A\"\nneighbors = [\"a\"]\n"))
	f.Add([]byte("name = 1"))
	f.Add([]byte(strings.Replace(tinyMap, "bonus = 0\n", "", 1)))
	f.Add([]byte("name = \"x\"\ncontinents = [{name = \"A\", bonus = 1}, {name = \"B\", colour = 2}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("fuzz.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml: ") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		checkValidMap(t, m)
		var buf bytes.Buffer
		if err := EncodeMap(&buf, m); err != nil {
			t.Fatal(err)
		}
		m2, err := ParseMap("again", buf.Bytes())
		if err != nil {
			t.Fatalf("re-parsing the encoded map: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatal("map differs after EncodeMap and ParseMap")
		}
	})
}

// checkValidMap checks the map rules without using the validation code.
func checkValidMap(t *testing.T, m *Map) {
	t.Helper()
	n := m.NumTerritories()
	if n < 2 || n > MaxTerritories || m.Name == "" || len(m.Continents) == 0 {
		t.Fatalf("map %q with %d territories, %d continents", m.Name, n, len(m.Continents))
	}
	names := map[string]bool{}
	for c, ct := range m.Continents {
		if ct.Name == "" || names["c:"+ct.Name] || ct.Bonus < 0 || len(ct.Territories) == 0 {
			t.Fatalf("continent %d %+v", c, ct)
		}
		names["c:"+ct.Name] = true
		if id, ok := m.ContinentID(ct.Name); !ok || id != c {
			t.Fatalf("ContinentID(%q) = %d, %v", ct.Name, id, ok)
		}
		for _, id := range ct.Territories {
			if m.Territories[id].Continent != c {
				t.Fatalf("continent %q lists %q of another continent", ct.Name, m.Territories[id].Name)
			}
		}
	}
	reached := []int{0}
	seen := make([]bool, n)
	seen[0] = true
	for a, ta := range m.Territories {
		if ta.Name == "" || names["t:"+ta.Name] {
			t.Fatalf("territory %d name %q", a, ta.Name)
		}
		names["t:"+ta.Name] = true
		if id, ok := m.TerritoryID(ta.Name); !ok || id != a {
			t.Fatalf("TerritoryID(%q) = %d, %v", ta.Name, id, ok)
		}
		if len(ta.Neighbors) == 0 || !slices.IsSorted(ta.Neighbors) {
			t.Fatalf("%q neighbours %v", ta.Name, ta.Neighbors)
		}
		for i, b := range ta.Neighbors {
			if b == a || b < 0 || b >= n || (i > 0 && ta.Neighbors[i-1] == b) || !slices.Contains(m.Territories[b].Neighbors, a) {
				t.Fatalf("%q neighbours %v", ta.Name, ta.Neighbors)
			}
		}
	}
	for i := 0; i < len(reached); i++ {
		for _, b := range m.Neighbors(reached[i]) {
			if !seen[b] {
				seen[b] = true
				reached = append(reached, b)
			}
		}
	}
	if len(reached) != n {
		t.Fatalf("only %d of %d territories are connected", len(reached), n)
	}
}

// FuzzParseRules checks that ParseRules never panics and either reports
// an error naming the source or returns rules within every documented
// range that survive EncodeRules, and that Validate against the classic
// map never panics.
func FuzzParseRules(f *testing.F) {
	for _, name := range configs.RulesNames() {
		data, err := configs.Rules(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(bytes.Replace(data, []byte("forced_trade_at = 5"), []byte("forced_trade_at = 3"), 1))
		f.Add(bytes.Replace(data, []byte("one_per_turn = true\n"), nil, 1))
		f.Add(bytes.Replace(data, []byte("[[missions]]\n"), []byte("[[missions]]\ncolour = 1\n"), 1))
	}
	f.Add([]byte("players = 3\n[cards]\nmode = \"none\"\n"))
	f.Add([]byte(noCards(f)))
	classic := loadClassic(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRules("fuzz.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml: ") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		checkRulesRanges(t, r)
		if err := r.Validate(nil); err != nil {
			t.Fatalf("ParseRules accepted rules that Validate(nil) rejects: %v", err)
		}
		_ = r.Validate(classic)
		var buf bytes.Buffer
		if err := EncodeRules(&buf, r); err != nil {
			t.Fatal(err)
		}
		r2, err := ParseRules("again", buf.Bytes())
		if err != nil {
			t.Fatalf("re-parsing the encoded rules: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(normRules(r), normRules(r2)) {
			t.Fatalf("rules differ after EncodeRules and ParseRules:\n%+v\n%+v", r, r2)
		}
	})
}

// checkRulesRanges checks the documented ranges without the validation code.
func checkRulesRanges(t *testing.T, r *Rules) {
	t.Helper()
	in := func(v, lo, hi int) bool { return lo <= v && v <= hi }
	ok := r.Name != "" && r.Map != "" && in(r.Players, 2, 6) &&
		r.StartingArmies[0] == 0 && r.StartingArmies[1] == 0 &&
		r.Setup.Deal == "random" && (r.Setup.InitialArmies == "random" || r.Setup.InitialArmies == "bots") &&
		(r.Reinforce.Rounding == "floor" || r.Reinforce.Rounding == "ceil") && r.Reinforce.Divisor >= 1 && r.Reinforce.Min >= 0 &&
		in(r.Cards.Wilds, 0, 10) && r.Cards.TerritoryBonus >= 0 &&
		in(r.Attack.AttackerDice, 1, 3) && in(r.Attack.DefenderDice, 1, 2) &&
		slices.Contains([]FortifyMode{FortifySingle, FortifyOneStep, FortifyConnected}, r.Fortify.Mode) &&
		(r.End.Win == "domination" || r.End.Win == "missions") && r.End.RoundLimit >= 0
	for k := 2; k <= 6; k++ {
		ok = ok && r.StartingArmies[k] >= 1
	}
	switch r.Cards.Mode {
	case "none":
		ok = ok && (r.Cards.ForcedTradeAt == 0 || in(r.Cards.ForcedTradeAt, 5, 10))
	case "fixed":
		ok = ok && in(r.Cards.ForcedTradeAt, 5, 10) && !slices.ContainsFunc(r.Cards.FixedValues[:], func(v int) bool { return v < 1 })
	case "escalating":
		ok = ok && in(r.Cards.ForcedTradeAt, 5, 10) && len(r.Cards.Escalating) > 0 && r.Cards.EscalatingStep >= 0 &&
			!slices.ContainsFunc(r.Cards.Escalating, func(v int) bool { return v < 1 })
	default:
		ok = false
	}
	if r.End.Win == "missions" {
		ok = ok && len(r.Missions) >= r.Players
	} else {
		ok = ok && len(r.Missions) == 0
	}
	for _, ms := range r.Missions {
		switch ms.Kind {
		case MissionContinents:
			ok = ok && ms.Extra >= 0 && len(ms.Continents)+ms.Extra >= 1
		case MissionTerritories:
			ok = ok && ms.Count >= 1 && ms.MinArmies >= 1
		case MissionEliminate:
		default:
			ok = false
		}
	}
	if !ok {
		t.Fatalf("accepted rules out of range: %+v", r)
	}
}

// normRules returns a copy of r with empty slices set to nil.
func normRules(r *Rules) *Rules {
	c := withoutSource(r)
	if len(c.Cards.Escalating) == 0 {
		c.Cards.Escalating = nil
	}
	if len(c.Missions) == 0 {
		c.Missions = nil
	}
	for i := range c.Missions {
		if len(c.Missions[i].Continents) == 0 {
			c.Missions[i].Continents = nil
		}
	}
	return c
}
