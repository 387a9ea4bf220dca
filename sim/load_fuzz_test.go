package sim

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/configs"
)

// errLine matches the line number in a parse error.
var errLine = regexp.MustCompile(`^[^:]*(?:: line |:)(\d+): `)

// checkErrLine checks that an error naming a line names a line of data.
func checkErrLine(t *testing.T, err error, data []byte) {
	t.Helper()
	if m := errLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		assert.True(t, n >= 1 && n <= bytes.Count(data, []byte("\n"))+1, "line %d of %d: %v", n, bytes.Count(data, []byte("\n"))+1, err)
	}
}

// FuzzParseMap checks that ParseMap never panics and either reports an
// error naming the source or returns a map that satisfies every rule of
// a valid map (checked here independently) and survives EncodeMap.
func FuzzParseMap(f *testing.F) {
	classic, err := configs.Map("classic")
	require.NoError(f, err)
	tinyMap := readTiny(f)
	f.Add(classic)
	f.Add([]byte(tinyMap))
	f.Add([]byte(strings.Replace(tinyMap, `["a2", "b1"]`, `["a2"]`, 1)))
	f.Add([]byte(strings.Replace(tinyMap, `continent = "B"`, `continent = "A"`, 1)))
	f.Add([]byte("name = \"x\"\n[[continents]]\nname = \"A\"\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = [\"b\"]\n" +
		"[[territories]]\nname = \"b\"\ncontinent = \"A\"\nneighbors = [\"a\"]\n"))
	f.Add([]byte("name = 1"))
	f.Add([]byte(strings.Replace(strings.Replace(tinyMap, `neighbors = ["a2", "b1"]`, "neighbors = [\"a2\", \"b1\"]\nx = 1\ny = 2.5", 1), `continent = "B"`, "continent = \"B\"\nx = -3\ny = 1e3", 1)))
	f.Add([]byte(strings.Replace(tinyMap, "bonus = 0\n", "", 1)))
	f.Add([]byte("name = \"x\"\ncontinents = [{name = \"A\", bonus = 1}, {name = \"B\", colour = 2}]\n"))
	f.Add([]byte(strings.Replace(tinyMap, "bonus = 1", "bonus = 2.5", 1)))
	f.Add([]byte(strings.Replace(tinyMap, `["a1", "b1"]`, `"a1"`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("fuzz.toml", data)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "fuzz.toml:"), "error does not name the source: %v", err)
			checkErrLine(t, err, data)
			return
		}
		checkValidMap(t, m)
		var buf bytes.Buffer
		require.NoError(t, EncodeMap(&buf, m))
		m2, err := ParseMap("again", buf.Bytes())
		require.NoError(t, err, "re-parsing the encoded map:\n%s", buf.Bytes())
		require.Equal(t, m, m2, "map differs after EncodeMap and ParseMap")
	})
}

// checkValidMap checks the map rules without using the validation code.
func checkValidMap(t *testing.T, m *Map) {
	t.Helper()
	n := m.NumTerritories()
	require.True(t, n >= 2 && n <= maxTerritories && m.Name != "" && len(m.Continents) > 0,
		"map %q with %d territories, %d continents", m.Name, n, len(m.Continents))
	names := map[string]bool{}
	for c, ct := range m.Continents {
		require.True(t, ct.Name != "" && !names["c:"+ct.Name] && ct.Bonus >= 0 && len(ct.Territories) > 0,
			"continent %d %+v", c, ct)
		names["c:"+ct.Name] = true
		id, ok := m.ContinentID(ct.Name)
		require.True(t, ok && id == c, "ContinentID(%q) = %d, %v", ct.Name, id, ok)
		for _, id := range ct.Territories {
			require.Equal(t, c, m.Territories[id].Continent, "continent %q lists %q of another continent", ct.Name, m.Territories[id].Name)
		}
	}
	reached := []int{0}
	seen := make([]bool, n)
	seen[0] = true
	for a, ta := range m.Territories {
		require.True(t, ta.Name != "" && !names["t:"+ta.Name], "territory %d name %q", a, ta.Name)
		names["t:"+ta.Name] = true
		id, ok := m.TerritoryID(ta.Name)
		require.True(t, ok && id == a, "TerritoryID(%q) = %d, %v", ta.Name, id, ok)
		require.True(t, len(ta.Neighbors) > 0 && slices.IsSorted(ta.Neighbors), "%q neighbours %v", ta.Name, ta.Neighbors)
		for i, b := range ta.Neighbors {
			require.False(t, b == a || b < 0 || b >= n || (i > 0 && ta.Neighbors[i-1] == b) || !slices.Contains(m.Territories[b].Neighbors, a),
				"%q neighbours %v", ta.Name, ta.Neighbors)
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
	require.Len(t, reached, n, "territories connected to the first")
}

// FuzzParseRules checks that ParseRules never panics and either reports
// an error naming the source or returns rules within every documented
// range that survive EncodeRules, and that Validate against the classic
// map never panics.
func FuzzParseRules(f *testing.F) {
	for _, name := range configs.RulesNames() {
		data, err := configs.Rules(name)
		require.NoError(f, err)
		f.Add(data)
		f.Add(bytes.Replace(data, []byte("forced_trade_at = 5"), []byte("forced_trade_at = 3"), 1))
		f.Add(bytes.Replace(data, []byte("one_per_turn = true\n"), nil, 1))
		f.Add(bytes.Replace(data, []byte("[[missions]]\n"), []byte("[[missions]]\ncolour = 1\n"), 1))
		f.Add(bytes.Replace(data, []byte(`kind = "eliminate"`), []byte(`kind = 3`), 1))
		f.Add(bytes.Replace(data, []byte(`mode = "single"`), []byte(`mode = "sideways"`), 1))
	}
	f.Add([]byte("players = 3\n[cards]\nmode = \"none\"\n"))
	f.Add([]byte(noCards(f)))
	classic := loadClassic(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRules("fuzz.toml", data)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "fuzz.toml:"), "error does not name the source: %v", err)
			checkErrLine(t, err, data)
			return
		}
		checkRulesRanges(t, r)
		require.NoError(t, r.Validate(nil), "ParseRules accepted rules that Validate(nil) rejects")
		_ = r.Validate(classic)
		var buf bytes.Buffer
		require.NoError(t, EncodeRules(&buf, r))
		r2, err := ParseRules("again", buf.Bytes())
		require.NoError(t, err, "re-parsing the encoded rules:\n%s", buf.Bytes())
		require.Equal(t, normRules(r), normRules(r2), "rules differ after EncodeRules and ParseRules")
	})
}

// checkRulesRanges checks the documented ranges without the validation code.
func checkRulesRanges(t *testing.T, r *Rules) {
	t.Helper()
	in := func(v, lo, hi int) bool { return lo <= v && v <= hi }
	ok := r.Name != "" && r.Map != "" && in(r.Players, 2, 6) &&
		r.StartingArmies[0] == 0 && r.StartingArmies[1] == 0 &&
		r.Setup.Deal == DealRandom && (r.Setup.InitialArmies == InitialRandom || r.Setup.InitialArmies == InitialBots) &&
		(r.Reinforce.Rounding == RoundFloor || r.Reinforce.Rounding == RoundCeil) && r.Reinforce.Divisor >= 1 && r.Reinforce.Min >= 0 &&
		in(r.Cards.Wilds, 0, 10) && r.Cards.TerritoryBonus >= 0 &&
		in(r.Attack.AttackerDice, 1, 3) && in(r.Attack.DefenderDice, 1, 2) &&
		slices.Contains([]FortifyMode{FortifySingle, FortifyOneStep, FortifyConnected}, r.Fortify.Mode) &&
		(r.End.Win == WinDomination || r.End.Win == WinMissions) && r.End.RoundLimit >= 0
	for k := 2; k <= 6; k++ {
		ok = ok && r.StartingArmies[k] >= 1
	}
	switch r.Cards.Mode {
	case CardsNone:
		ok = ok && (r.Cards.ForcedTradeAt == 0 || in(r.Cards.ForcedTradeAt, 5, 10))
	case CardsFixed:
		ok = ok && in(r.Cards.ForcedTradeAt, 5, 10) && !slices.ContainsFunc(r.Cards.FixedValues[:], func(v int) bool { return v < 1 })
	case CardsEscalating:
		ok = ok && in(r.Cards.ForcedTradeAt, 5, 10) && len(r.Cards.Escalating) > 0 && r.Cards.EscalatingStep >= 0 &&
			!slices.ContainsFunc(r.Cards.Escalating, func(v int) bool { return v < 1 })
	default:
		ok = false
	}
	if r.End.Win == WinMissions {
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
	require.True(t, ok, "accepted rules out of range: %+v", r)
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

// FuzzReadLog checks that ReadLog never panics and that a log it accepts is
// exactly what LogWriter writes for the header, events and result it read.
func FuzzReadLog(f *testing.F) {
	f.Add(logGame(f, ringMap(2, 3), testRules(FortifySingle), 2, 0.05, 1, 0))
	f.Add([]byte(`{"format":"marslab-game-log/1","seed":1,"index":0,"rules_name":"","map_name":"","rules_toml":"","map_toml":"","seats":null}` + "\n" +
		`{"e":"roll","round":3,"phase":"attack","player":0,"other":2,"from":5,"to":7,"att":[6,4,1],"def":[5,2],"att_loss":1,"def_loss":1}` + "\n" +
		`{"result":{"winner":-1,"stalemate":true,"rounds":1,"turns":2,"placement":[1,2],"eliminated":null,"faults":[0,0]}}` + "\n"))
	f.Add([]byte(`{"format":"marslab-game-log/1"}` + "\n" + `{"e":"card","round":1,"phase":"attack","player":0,"cards":[[-1,3]]}` + "\n"))
	f.Add([]byte(`{"format":"marslab-game-log/1"}` + "\n" + `{"e":"explain","round":1,"phase":"place","player":0,"text":"\tbids \"x\" \u00e9"}` + "\n" +
		`{"result":{"winner":-1,"stalemate":true,"rounds":1,"turns":2,"placement":[1,2],"eliminated":null,"faults":[0,0]}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, events, res, err := ReadLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		got := encodeLog(t, h, events, res)
		header, _, _ := bytes.Cut(data, []byte("\n"))
		_, gotBody, _ := bytes.Cut(got, []byte("\n"))
		_, body, _ := bytes.Cut(data, []byte("\n"))
		// The header is JSON read into LogHeader; the event and result
		// lines must come back byte for byte (blank lines may follow).
		require.NotEmpty(t, header)
		require.True(t, bytes.HasPrefix(body, gotBody), "log:\n%s\nwritten again:\n%s", body, gotBody)
		require.Empty(t, bytes.TrimSpace(body[len(gotBody):]))
	})
}
