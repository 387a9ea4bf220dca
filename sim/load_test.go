package sim

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/configs"
)

func loadClassic(tb testing.TB) *Map {
	tb.Helper()
	m, err := LoadMap("classic")
	require.NoError(tb, err)
	return m
}

func TestClassicMap(t *testing.T) {
	t.Parallel()
	m := loadClassic(t)
	assert.Equal(t, "classic", m.Name)
	assert.Equal(t, 42, m.NumTerritories())
	assert.Equal(t, 83, m.NumBorders())
	// Continent sizes, bonuses and V_nb (territories with a neighbour
	// outside the continent), counted by hand on the Hasbro board.
	want := []struct {
		name           string
		size, bonus    int
		borders        []string
		someTerritory  string
		firstTerritory int
	}{
		{"North America", 9, 5, []string{"Alaska", "Greenland", "Central America"}, "Quebec", 0},
		{"South America", 4, 2, []string{"Venezuela", "Brazil"}, "Argentina", 9},
		{"Europe", 7, 5, []string{"Iceland", "Western Europe", "Southern Europe", "Ukraine"}, "Scandinavia", 13},
		{"Africa", 6, 3, []string{"North Africa", "Egypt", "East Africa"}, "Madagascar", 20},
		{"Asia", 12, 7, []string{"Ural", "Kamchatka", "Afghanistan", "Middle East", "Siam"}, "Japan", 26},
		{"Australia", 4, 2, []string{"Indonesia"}, "Eastern Australia", 38},
	}
	require.Len(t, m.Continents, len(want))
	for c, w := range want {
		got := m.Continents[c]
		assert.Equal(t, w.name, got.Name, "continent %d", c)
		assert.Len(t, got.Territories, w.size, w.name)
		assert.Equal(t, w.bonus, got.Bonus, w.name)
		var names []string
		for _, id := range got.Borders {
			names = append(names, m.Territories[id].Name)
		}
		assert.Equal(t, w.borders, names, "%s borders", w.name)
		id, ok := m.TerritoryID(w.someTerritory)
		require.True(t, ok, w.someTerritory)
		assert.Equal(t, c, m.Territories[id].Continent, "%s is not in %s", w.someTerritory, w.name)
		assert.Equal(t, w.firstTerritory, got.Territories[0], "%s starts at", w.name)
		cid, ok := m.ContinentID(w.name)
		assert.True(t, ok, w.name)
		assert.Equal(t, c, cid, "ContinentID(%q)", w.name)
	}
	// Symmetric, sorted, no self-loops.
	for a, ta := range m.Territories {
		assert.IsIncreasing(t, ta.Neighbors, "%s: neighbours not ascending", ta.Name)
		for _, b := range ta.Neighbors {
			assert.NotEqual(t, a, b, "%s borders itself", ta.Name)
			assert.True(t, m.Adjacent(b, a), "border %s-%s is not symmetric", ta.Name, m.Territories[b].Name)
		}
	}
	// A few well-known borders, and non-borders.
	pairs := []struct {
		a, b string
		adj  bool
	}{
		{"Alaska", "Kamchatka", true},
		{"Greenland", "Iceland", true},
		{"Brazil", "North Africa", true},
		{"Siam", "Indonesia", true},
		{"Middle East", "Egypt", true},
		{"Middle East", "East Africa", true},
		{"Middle East", "Southern Europe", true},
		{"Middle East", "Ukraine", true},
		{"Middle East", "Afghanistan", true},
		{"Middle East", "India", true},
		{"Ukraine", "Ural", true},
		{"Western Europe", "North Africa", true},
		{"Egypt", "Southern Europe", true},
		{"Alaska", "Greenland", false},
		{"Brazil", "Western Europe", false},
		{"India", "Indonesia", false},
		{"Japan", "Yakutsk", false},
		{"Egypt", "Congo", false},
	}
	for _, p := range pairs {
		a, okA := m.TerritoryID(p.a)
		b, okB := m.TerritoryID(p.b)
		require.True(t, okA && okB, "unknown territory %q or %q", p.a, p.b)
		assert.Equal(t, p.adj, m.Adjacent(a, b), "Adjacent(%s, %s)", p.a, p.b)
		assert.Equal(t, p.adj, m.Adjacent(b, a), "Adjacent(%s, %s)", p.b, p.a)
	}
	// Degree sum: 2 * 83.
	deg := map[string]int{"Ontario": 6, "Ukraine": 6, "China": 6, "Middle East": 6, "East Africa": 6,
		"North Africa": 6, "Southern Europe": 6, "Argentina": 2, "Japan": 2, "Madagascar": 2, "Eastern Australia": 2}
	for name, d := range deg {
		id, ok := m.TerritoryID(name)
		require.True(t, ok, name)
		assert.Len(t, m.Neighbors(id), d, "neighbours of %s", name)
	}
}

func TestEmbeddedRulesValues(t *testing.T) {
	t.Parallel()
	m := loadClassic(t)
	classicArmies := [7]int{0, 0, 40, 35, 30, 25, 20}
	cases := []struct {
		name      string
		players   int
		initial   InitialArmiesMode
		rounding  Rounding
		cards     CardMode
		fixed     [4]int
		wilds     int
		fortify   FortifyMode
		win       WinCondition
		limit     int
		missions  int
		escalates []int
	}{
		{"classic", 6, InitialBots, RoundFloor, CardsEscalating, [4]int{}, 2, FortifySingle, WinDomination, 500, 0, []int{4, 6, 8, 10, 12, 15}},
		{"mars2006", 6, InitialRandom, RoundCeil, CardsFixed, [4]int{5, 5, 5, 5}, 2, FortifyOneStep, WinDomination, 100, 0, nil},
		{"mars2006-escalating", 6, InitialRandom, RoundCeil, CardsEscalating, [4]int{}, 2, FortifyOneStep, WinDomination, 100, 0, []int{4, 6, 8, 10, 12, 15}},
		{"fixedcards", 4, InitialRandom, RoundFloor, CardsFixed, [4]int{4, 6, 8, 10}, 0, FortifyConnected, WinDomination, 200, 0, nil},
		{"missions", 6, InitialBots, RoundFloor, CardsEscalating, [4]int{}, 2, FortifySingle, WinMissions, 500, 9, []int{4, 6, 8, 10, 12, 15}},
		{"lux", 6, InitialBots, RoundFloor, CardsFixed, [4]int{5, 5, 5, 5}, 2, FortifyOneStep, WinDomination, 100, 0, nil},
		{"lux-escalating", 6, InitialBots, RoundFloor, CardsEscalating, [4]int{}, 2, FortifyOneStep, WinDomination, 100, 0, []int{4, 6, 8, 10, 12, 15}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := LoadRules(c.name)
			require.NoError(t, err)
			require.NoError(t, r.Validate(m))
			assert.Equal(t, c.name, r.Name)
			assert.Equal(t, "classic", r.Map)
			assert.Equal(t, c.players, r.Players)
			assert.Equal(t, classicArmies, r.StartingArmies)
			// The lux rule sets: 4 starting armies per setup turn through
			// Place, forced trades above 5 cards, one unforced set a turn.
			lux := strings.HasPrefix(c.name, "lux")
			perTurn, forcedAt, voluntary := 0, 5, 0
			if lux {
				perTurn, forcedAt, voluntary = 4, 6, 1
			}
			assert.Equal(t, SetupRules{Deal: DealRandom, InitialArmies: c.initial, InitialPerTurn: perTurn}, r.Setup)
			assert.Equal(t, ReinforceRules{Rounding: c.rounding, Divisor: 3, Min: 3, ContinentBonus: true}, r.Reinforce)
			step := 0
			if c.cards == CardsEscalating {
				step = 5
			}
			assert.Equal(t, CardRules{Mode: c.cards, Wilds: c.wilds, FixedValues: c.fixed, Escalating: c.escalates,
				EscalatingStep: step, TerritoryBonus: 2, ForcedTradeAt: forcedAt, OnePerTurn: true, TakeOnElimination: true,
				VoluntaryPerTurn: voluntary}, r.Cards)
			assert.Equal(t, AttackRules{AttackerDice: 3, DefenderDice: 2, MoveInAtLeastDice: true}, r.Attack)
			assert.Equal(t, c.fortify, r.Fortify.Mode)
			assert.Equal(t, EndRules{Win: c.win, RoundLimit: c.limit}, r.End)
			assert.Len(t, r.Missions, c.missions)
		})
	}
}

// TestEmbeddedNames: every embedded map and rule set is named after its
// file, so that a log's rules_name and map_name can be checked by Replay.
func TestEmbeddedNames(t *testing.T) {
	t.Parallel()
	for _, name := range configs.MapNames() {
		m, err := LoadMap(name)
		require.NoError(t, err)
		assert.Equal(t, name, m.Name)
	}
	for _, name := range configs.RulesNames() {
		r, err := LoadRules(name)
		require.NoError(t, err)
		assert.Equal(t, name, r.Name)
	}
}

func TestMissionDeck(t *testing.T) {
	t.Parallel()
	r, err := LoadRules("missions")
	require.NoError(t, err)
	want := []Mission{
		{Kind: MissionContinents, Continents: []string{"Europe", "Australia"}, Extra: 1},
		{Kind: MissionContinents, Continents: []string{"Europe", "South America"}, Extra: 1},
		{Kind: MissionContinents, Continents: []string{"North America", "Africa"}},
		{Kind: MissionContinents, Continents: []string{"North America", "Australia"}},
		{Kind: MissionContinents, Continents: []string{"Asia", "South America"}},
		{Kind: MissionContinents, Continents: []string{"Asia", "Africa"}},
		{Kind: MissionTerritories, Count: 24, MinArmies: 1},
		{Kind: MissionTerritories, Count: 18, MinArmies: 2},
		{Kind: MissionEliminate},
	}
	require.Len(t, r.Missions, len(want))
	for i, w := range want {
		got := r.Missions[i]
		assert.NotEmpty(t, got.Name, "mission %d", i)
		w.Name = got.Name
		assert.Equal(t, w, got, "mission %d", i)
	}
}

// readTiny returns testdata/load/tiny.toml, a triangle: a1 and a2 in
// continent A (+1), b1 in B (+0).
func readTiny(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "load", "tiny.toml"))
	require.NoError(tb, err)
	return string(data)
}

func TestParseMapTiny(t *testing.T) {
	t.Parallel()
	m, err := ParseMap("tiny.toml", []byte(readTiny(t)))
	require.NoError(t, err)
	assert.Equal(t, 3, m.NumTerritories())
	assert.Equal(t, 3, m.NumBorders())
	assert.Equal(t, []int{0, 1}, m.Neighbors(2), "b1 neighbours (sorted ids)")
	assert.Equal(t, []int{0, 1}, m.Continents[0].Territories)
	assert.Equal(t, []int{0, 1}, m.Continents[0].Borders)
	assert.Equal(t, []int{2}, m.Continents[1].Territories)
	assert.Equal(t, []int{2}, m.Continents[1].Borders)
}

func TestParseMapErrors(t *testing.T) {
	t.Parallel()
	tinyMap := readTiny(t)
	cases := []struct {
		name     string
		old, new string // replace old by new in tinyMap; old == "" means the whole text is new
		want     string
	}{
		{"syntax", `bonus = 1`, `bonus = `, `tiny.toml: toml: line 5`},
		{"type", `bonus = 1`, `bonus = "one"`, `tiny.toml:5: continents[0].bonus = "one": must be an integer (TOML value has type string)`},
		{"float bonus in the first table", `bonus = 1`, `bonus = 2.5`, `tiny.toml:5: continents[0].bonus = 2.5: must be an integer (TOML value has type float)`},
		{"type error in a middle table", `neighbors = ["a1", "b1"]`, `neighbors = "a1"`, `tiny.toml:19: territories[1].neighbors = "a1": must be an array (TOML value has type string)`},
		{"type error in an inline table", "", "name = \"x\"\ncontinents = [{name = \"A\", bonus = 1},\n {name = \"B\", bonus = true}]\n",
			`tiny.toml:3: continents[1].bonus = true: must be an integer (TOML value has type bool)`},
		{"unknown key", `name = "tiny"`, "name = \"tiny\"\ncolour = \"red\"", `tiny.toml:2: unknown key "colour" (allowed: name, continents, territories)`},
		{"unknown table key", `bonus = 1`, "bonus = 1\nsize = 3", `tiny.toml:6: unknown key "continents[0].size" (allowed: name, bonus)`},
		{"unknown key in a later table", `continent = "B"`, "continent = \"B\"\ncolour = \"red\"", `tiny.toml:24: unknown key "territories[2].colour" (allowed: name, continent, neighbors, x, y)`},
		{"unknown keys in two tables", `bonus = 0`, "bonus = 0\nsize = 3", `tiny.toml:10: unknown key "continents[1].size" (allowed: name, bonus)`},
		{"unknown key in an inline table", "", "name = \"x\"\ncontinents = [{name = \"A\", bonus = 1}, {name = \"B\", bonus = 0, colour = \"red\"}]\n",
			`tiny.toml:2: unknown key "continents[1].colour" (allowed: name, bonus)`},
		{"no name", `name = "tiny"`, ``, `tiny.toml: name: missing (the map's name)`},
		{"empty name", `name = "tiny"`, `name = ""`, `tiny.toml: name = "": must not be empty`},
		{"no bonus", "bonus = 0\n", ``, `tiny.toml: continents[1].bonus: missing (0..100000)`},
		{"no continent name", "name = \"A\"\n", ``, `tiny.toml: continents[0].name: missing (a unique name)`},
		{"no territory name", "name = \"a2\"\n", ``, `tiny.toml: territories[1].name: missing (a unique name)`},
		{"no territory continent", "continent = \"B\"\n", ``, `tiny.toml: territories[2].continent: missing (a continent's name)`},
		{"no neighbours key", "neighbors = [\"a2\", \"a1\"]\n", ``, `tiny.toml: territories[2].neighbors: missing (the names of the adjacent territories)`},
		{"name spaces", `name = "tiny"`, `name = " tiny"`, `tiny.toml: name = " tiny": must not begin or end with spaces`},
		{"no continents", "", "name = \"x\"\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = [\"b\"]\n",
			`tiny.toml: continents: no continents: need at least 1`},
		{"one territory", "", "name = \"x\"\n[[continents]]\nname = \"A\"\nbonus = 0\n[[territories]]\nname = \"a\"\ncontinent = \"A\"\nneighbors = []\n",
			`tiny.toml: territories: 1 territories: must be 2..10000`},
		{"duplicate continent", `name = "B"`, `name = "A"`, `tiny.toml: continents[1].name = "A": duplicate of continents[0]`},
		{"control character", `name = "B"`, `name = "B\u0007"`, `tiny.toml: continents[1].name = "B\a": must not contain control characters`},
		{"negative bonus", `bonus = 0`, `bonus = -1`, `tiny.toml: continents[1].bonus = -1: must be 0..100000`},
		{"huge bonus", `bonus = 0`, `bonus = 100001`, `tiny.toml: continents[1].bonus = 100001: must be 0..100000`},
		{"duplicate territory", `name = "a2"`, `name = "a1"`, `tiny.toml: territories[1].name = "a1": duplicate of territories[0]`},
		{"empty territory name", `name = "a2"`, `name = ""`, `tiny.toml: territories[1].name = "": must not be empty`},
		{"unknown continent", `continent = "B"`, `continent = "C"`, `tiny.toml: territories[2].continent = "C": no such continent (territory "b1")`},
		{"unknown neighbour", `["a1", "b1"]`, `["a1", "c9"]`, `tiny.toml: territories[1].neighbors = "c9": no such territory (neighbour of "a2")`},
		{"self-loop", `["a1", "b1"]`, `["a1", "a2", "b1"]`, `tiny.toml: territories[1].neighbors = "a2": a territory cannot border itself`},
		{"repeated neighbour", `["a1", "b1"]`, `["a1", "b1", "a1"]`, `tiny.toml: territories[1].neighbors = "a1": listed twice (neighbours of "a2")`},
		{"no neighbours", `["a2", "a1"]`, `[]`, `tiny.toml: territories[2].neighbors: territory "b1" has no neighbours`},
		{"asymmetric", `["a2", "b1"]`, `["a2"]`, `tiny.toml: territories[2].neighbors = "a1": "a1" does not list "b1" back (borders must be symmetric)`},
		{"empty continent", `bonus = 0`, "bonus = 0\n[[continents]]\nname = \"C\"\nbonus = 4", `tiny.toml: continents[2].name = "C": no territory belongs to this continent`},
		{"disconnected", "", tinyMap + "[[territories]]\nname = \"x1\"\ncontinent = \"B\"\nneighbors = [\"x2\"]\n" +
			"[[territories]]\nname = \"x2\"\ncontinent = \"B\"\nneighbors = [\"x1\"]\n",
			`tiny.toml: territories: the map is not connected: "x1" cannot be reached from "a1"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.new
			if c.old != "" {
				require.Contains(t, tinyMap, c.old)
				text = strings.Replace(tinyMap, c.old, c.new, 1)
			}
			_, err := ParseMap("tiny.toml", []byte(text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestNewMap(t *testing.T) {
	t.Parallel()
	conts := []Continent{{Name: "A", Bonus: 1}, {Name: "B"}}
	terr := func() []Territory {
		return []Territory{
			{Name: "a1", Continent: 0, Neighbors: []int{2, 1}},
			{Name: "a2", Continent: 0, Neighbors: []int{0, 2}},
			{Name: "b1", Continent: 1, Neighbors: []int{1, 0}},
		}
	}
	m, err := NewMap("tiny", conts, terr())
	require.NoError(t, err)
	parsed, err := ParseMap("tiny.toml", []byte(readTiny(t)))
	require.NoError(t, err)
	assert.Equal(t, parsed, m, "NewMap and ParseMap differ")
	cases := []struct {
		name   string
		change func(ts []Territory)
		want   string
	}{
		{"continent id", func(ts []Territory) { ts[1].Continent = 2 }, `NewMap "tiny": territories[1].continent = 2: must be a continent id 0..1`},
		{"neighbour id", func(ts []Territory) { ts[2].Neighbors[0] = -1 }, `NewMap "tiny": territories[2].neighbors = -1: must be a territory id 0..2`},
		{"asymmetric", func(ts []Territory) { ts[0].Neighbors = []int{1} },
			`NewMap "tiny": territories[2].neighbors = "a1": "a1" does not list "b1" back (borders must be symmetric)`},
		{"self-loop", func(ts []Territory) { ts[1].Neighbors = append(ts[1].Neighbors, 1) },
			`NewMap "tiny": territories[1].neighbors = "a2": a territory cannot border itself`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := terr()
			c.change(ts)
			_, err := NewMap("tiny", conts, ts)
			assert.EqualError(t, err, c.want)
		})
	}
}

func embeddedRules(tb testing.TB, name string) string {
	tb.Helper()
	data, err := configs.Rules(name)
	require.NoError(tb, err)
	return string(data)
}

func TestParseRulesErrors(t *testing.T) {
	t.Parallel()
	const armies = `starting_armies = [0, 0, 40, 35, 30, 25, 20]`
	cases := []struct {
		base     string // embedded rule set
		old, new string // replace old by new (old must occur)
		want     string // substring of the error
	}{
		{"classic", `min = 3`, `min = = 3`, `r.toml: toml: line 18`},
		{"classic", `divisor = 3`, `divisor = 3.5`, `r.toml:17: reinforce.divisor = 3.5: must be an integer (TOML value has type float)`},
		{"classic", `[cards]`, "[cards]\njokers = 2", `r.toml:22: unknown key "cards.jokers" (allowed: mode, wilds, fixed_values, escalating, escalating_step, territory_bonus, forced_trade_at, one_per_turn, take_on_elimination, voluntary_per_turn)`},
		{"classic", `[cards]`, "[cards]\njokers = 2\nbank = 1", `r.toml:22: unknown key "cards.jokers" (allowed: mode, wilds, fixed_values, escalating, escalating_step, territory_bonus, forced_trade_at, one_per_turn, take_on_elimination, voluntary_per_turn)`},
		{"classic", `players = 6`, "players = 6\n[extra]\na = 1\nb = 2", `r.toml:9: unknown key "extra" (allowed: name, map, players, starting_armies, setup, reinforce, cards, attack, fortify, end, info, missions)`},
		{"classic", `name = "classic"`, `name = ""`, `r.toml: name = "": must not be empty`},
		{"classic", `map = "classic"`, `map = ""`, `r.toml: map = "": must not be empty`},
		{"classic", `players = 6`, `players = 7`, `r.toml: players = 7: must be 2..6`},
		{"classic", `players = 6`, `players = 1`, `r.toml: players = 1: must be 2..6`},
		{"classic", `players = 6`, ``, `r.toml: players: missing (2..6)`},
		{"classic", `name = "classic"`, ``, `r.toml: name: missing (the rule set's name)`},
		{"classic", armies, ``, `r.toml: starting_armies: missing (7 entries, entry k for k players)`},
		{"classic", `deal = "random"`, ``, `r.toml: setup.deal: missing ("random")`},
		{"classic", `rounding = "floor"`, ``, `r.toml: reinforce.rounding: missing ("floor" or "ceil")`},
		{"classic", "min = 3\n", ``, `r.toml: reinforce.min: missing (0..100000)`},
		{"classic", "continent_bonus = true\n", ``, `r.toml: reinforce.continent_bonus: missing (true or false)`},
		{"classic", `mode = "escalating"`, ``, `r.toml: cards.mode: missing ("none", "fixed" or "escalating")`},
		{"classic", "wilds = 2\n", ``, `r.toml: cards.wilds: missing (0..10)`},
		{"classic", "escalating = [4, 6, 8, 10, 12, 15]\n", ``, `r.toml: cards.escalating: missing (the values of the first sets, 1..100000)`},
		{"classic", "escalating_step = 5", ``, `r.toml: cards.escalating_step: missing (0..100000)`},
		{"classic", "territory_bonus = 2\n", ``, `r.toml: cards.territory_bonus: missing (0..100000)`},
		{"classic", "forced_trade_at = 5\n", ``, `r.toml: cards.forced_trade_at: missing (5..10)`},
		{"fixedcards", "one_per_turn = true\n", ``, `r.toml: cards.one_per_turn: missing (true or false)`},
		{"fixedcards", "take_on_elimination = true\n", ``, `r.toml: cards.take_on_elimination: missing (true or false)`},
		{"fixedcards", "fixed_values = [4, 6, 8, 10]", ``, `r.toml: cards.fixed_values: missing (4 values 1..100000: three infantry, three cavalry, three artillery, one of each)`},
		{"fixedcards", "attacker_dice = 3\n", ``, `r.toml: attack.attacker_dice: missing (1..3)`},
		{"fixedcards", "ties_to_attacker = false\n", ``, `r.toml: attack.ties_to_attacker: missing (true or false)`},
		{"fixedcards", "move_in_at_least_dice = true\n", ``, `r.toml: attack.move_in_at_least_dice: missing (true or false)`},
		{"fixedcards", "[fortify]\nmode = \"connected\"", `[fortify]`, `r.toml: fortify.mode: missing ("single", "one-step" or "connected")`},
		{"fixedcards", `win = "domination"`, ``, `r.toml: end.win: missing ("domination" or "missions")`},
		{"fixedcards", "round_limit = 200", ``, `r.toml: end.round_limit: missing (>= 0, 0 = no limit)`},
		{"fixedcards", "[attack]\nattacker_dice = 3\ndefender_dice = 2\nties_to_attacker = false\nmove_in_at_least_dice = true\n", ``,
			`r.toml: attack.attacker_dice: missing (1..3)`},
		{"missions", `name = "Occupy Asia and Africa"`, ``, `r.toml: missions[5].name: missing (a short description)`},
		{"missions", `kind = "eliminate"`, ``, `r.toml: missions[8].kind: missing ("continents", "territories" or "eliminate")`},
		{"missions", `continents = ["Asia", "Africa"]`, ``, `r.toml: missions[5].continents: missing (a list of continent names)`},
		{"missions", `count = 24`, ``, `r.toml: missions[6].count: missing (1..10000)`},
		{"missions", `min_armies = 2`, ``, `r.toml: missions[7].min_armies: missing (1..100000)`},
		{"missions", `min_armies = 2`, "min_armies = 2\ncolour = \"red\"", `r.toml:86: unknown key "missions[7].colour" (allowed: name, kind, continents, extra, count, min_armies)`},
		{"classic", armies, `starting_armies = [0, 0, 40, 35, 30, 25, 0]`, `r.toml: starting_armies[6] = 0: must be 1..100000`},
		{"classic", armies, `starting_armies = [0, 0, 40, 35, -30, 25, 20]`, `r.toml: starting_armies[4] = -30: must be 1..100000`},
		{"classic", armies, `starting_armies = [1, 0, 40, 35, 30, 25, 20]`, `r.toml: starting_armies[0] = 1: must be 0 (entries 0 and 1 are unused`},
		{"classic", armies, `starting_armies = [40, 35, 30, 25, 20]`, `r.toml:9: starting_armies = [40, 35, 30, 25, 20]: expected array length 7; got TOML array of length 5`},
		{"classic", `deal = "random"`, `deal = "chosen"`, `r.toml:12: setup.deal = "chosen": must be "random"`},
		{"classic", `initial_armies = "bots"`, `initial_armies = "all"`, `r.toml:13: setup.initial_armies = "all": must be "random" or "bots"`},
		{"classic", `rounding = "floor"`, `rounding = "round"`, `r.toml:16: reinforce.rounding = "round": must be "floor" or "ceil"`},
		{"classic", `divisor = 3`, `divisor = 0`, `r.toml: reinforce.divisor = 0: must be 1..100000`},
		{"classic", `min = 3`, `min = -1`, `r.toml: reinforce.min = -1: must be 0..100000`},
		{"classic", `mode = "escalating"`, `mode = "bogus"`, `r.toml:22: cards.mode = "bogus": must be "none", "fixed" or "escalating"`},
		{"classic", `wilds = 2`, `wilds = 11`, `r.toml: cards.wilds = 11: must be 0..10`},
		{"classic", `wilds = 2`, `wilds = -1`, `r.toml: cards.wilds = -1: must be 0..10`},
		{"classic", `escalating = [4, 6, 8, 10, 12, 15]`, `escalating = []`, `r.toml: cards.escalating: must list at least one value in mode "escalating"`},
		{"classic", `escalating = [4, 6, 8, 10, 12, 15]`, `escalating = [4, -6]`, `r.toml: cards.escalating[1] = -6: must be 1..100000`},
		{"classic", `escalating_step = 5`, `escalating_step = -5`, `r.toml: cards.escalating_step = -5: must be 0..100000`},
		{"classic", `territory_bonus = 2`, `territory_bonus = -2`, `r.toml: cards.territory_bonus = -2: must be 0..100000`},
		{"classic", `forced_trade_at = 5`, `forced_trade_at = 3`, `r.toml: cards.forced_trade_at = 3: must be 5..10`},
		{"classic", `forced_trade_at = 5`, `forced_trade_at = 11`, `r.toml: cards.forced_trade_at = 11: must be 5..10`},
		{"classic", `forced_trade_at = 5`, `forced_trade_at = 0`, `r.toml: cards.forced_trade_at = 0: must be 5..10`},
		{"classic", `mode = "escalating"`, `mode = "fixed"`, `r.toml: cards.fixed_values: missing`},
		{"classic", `mode = "escalating"`, "mode = \"fixed\"\nfixed_values = [0, 6, 8, 10]", `r.toml: cards.fixed_values[0] = 0: must be 1..100000`},
		{"classic", `mode = "escalating"`, `mode = "none"`, `r.toml: cards.escalating = [4, 6, 8, 10, 12, 15]: must be empty unless cards.mode = "escalating"`},
		{"classic", `wilds = 2`, "wilds = 2\nfixed_values = [4, 6, 8, 10]", `r.toml: cards.fixed_values[0] = 4: must be 0 unless cards.mode = "fixed"`},
		{"fixedcards", `fixed_values = [4, 6, 8, 10]`, `fixed_values = [4, 6, 0, 10]`, `r.toml: cards.fixed_values[2] = 0: must be 1..100000`},
		{"fixedcards", `wilds = 0`, "wilds = 0\nescalating_step = 5", `r.toml: cards.escalating_step = 5: must be 0 unless cards.mode = "escalating"`},
		{"fixedcards", `fixed_values = [4, 6, 8, 10]`, `fixed_values = [4, 6, 8]`, `r.toml:32: cards.fixed_values = [4, 6, 8]: expected array length 4; got TOML array of length 3`},
		{"classic", `attacker_dice = 3`, `attacker_dice = 4`, `r.toml: attack.attacker_dice = 4: must be 1..3`},
		{"classic", `attacker_dice = 3`, `attacker_dice = 0`, `r.toml: attack.attacker_dice = 0: must be 1..3`},
		{"classic", `defender_dice = 2`, `defender_dice = 3`, `r.toml: attack.defender_dice = 3: must be 1..2`},
		{"classic", `mode = "single"`, `mode = "anywhere"`, `r.toml:38: fortify.mode = "anywhere": must be "single", "one-step" or "connected"`},
		{"classic", `mode = "single"`, "mode = \"single\"\nmovable = \"all\"", `r.toml: fortify.movable = "all": must be "spare" or "start" (or left out)`},
		{"classic", `win = "domination"`, `win = "capital"`, `r.toml:41: end.win = "capital": must be "domination" or "missions"`},
		{"classic", `round_limit = 500`, `round_limit = -1`, `r.toml: end.round_limit = -1: must be >= 0 (0 = no limit)`},
		{"classic", `round_limit = 500`, "round_limit = 500\n[[missions]]\nname = \"x\"\nkind = \"eliminate\"", `r.toml: missions: 1 missions: only allowed with end.win = "missions"`},
		{"classic", `win = "domination"`, `win = "missions"`, `r.toml: missions: 0 missions: need at least one per player (players = 6)`},
		{"missions", `kind = "eliminate"`, `kind = 3`, `r.toml:89: missions[8].kind = 3: must be "continents", "territories" or "eliminate"`},
		{"missions", `kind = "territories"`, `kind = "occupy"`, `r.toml:77: missions[6].kind = "occupy": must be "continents", "territories" or "eliminate"`},
		{"missions", `kind = "eliminate"`, `kind = "conquer"`, `r.toml:89: missions[8].kind = "conquer": must be "continents", "territories" or "eliminate"`},
		{"missions", `name = "Eliminate a player"`, `name = ""`, `r.toml: missions[8].name = "": must not be empty`},
		{"missions", `count = 24`, `count = 0`, `r.toml: missions[6].count = 0: must be 1..10000`},
		{"missions", `min_armies = 2`, `min_armies = 0`, `r.toml: missions[7].min_armies = 0: must be 1..100000`},
		{"missions", `extra = 1`, `extra = -1`, `r.toml: missions[0].extra = -1: must be >= 0`},
		{"missions", `continents = ["Asia", "Africa"]`, `continents = ["Asia", "Asia"]`, `r.toml: missions[5].continents = "Asia": listed twice`},
		{"missions", `continents = ["Asia", "Africa"]`, `continents = []`, `r.toml: missions[5]: asks for no continent: list continents or set extra >= 1`},
		{"missions", `kind = "eliminate"`, "kind = \"eliminate\"\ncontinents = [\"Asia\"]", `r.toml: missions[8].continents = ["Asia"]: only allowed with kind = "continents"`},
		{"missions", `kind = "eliminate"`, "kind = \"eliminate\"\nextra = 2", `r.toml: missions[8].extra = 2: only allowed with kind = "continents"`},
		{"missions", `extra = 1`, "extra = 1\ncount = 3", `r.toml: missions[0].count = 3: only allowed with kind = "territories"`},
		{"missions", `kind = "eliminate"`, "kind = \"eliminate\"\nmin_armies = 2", `r.toml: missions[8].min_armies = 2: only allowed with kind = "territories"`},
		{"missions", `[[missions]]`, `[[missions.x]]`, `r.toml: toml: line 49: Key 'missions' was already created and cannot be used as an array`},
		{"lux", `initial_per_turn = 4`, `initial_per_turn = 0`, `r.toml: setup.initial_per_turn = 0: must be 1..100000 (leave the key out to place one army at a time through PlaceInitial)`},
		{"lux", `initial_per_turn = 4`, `initial_per_turn = -4`, `r.toml: setup.initial_per_turn = -4: must be 1..100000 (armies a player places per setup turn)`},
		{"lux", `initial_per_turn = 4`, `initial_per_turn = 100001`, `r.toml: setup.initial_per_turn = 100001: must be 1..100000`},
		{"lux", `initial_armies = "bots"`, `initial_armies = "random"`, `r.toml: setup.initial_per_turn = 4: must be left out unless setup.initial_armies = "bots"`},
		{"lux", `initial_per_turn = 4`, `initial_per_turn = "4"`, `r.toml:28: setup.initial_per_turn = "4": must be an integer`},
		{"lux", `voluntary_per_turn = 1`, `voluntary_per_turn = 0`, `r.toml: cards.voluntary_per_turn = 0: must be 1..10 (leave the key out for no bound)`},
		{"lux", `voluntary_per_turn = 1`, `voluntary_per_turn = 11`, `r.toml: cards.voluntary_per_turn = 11: must be 1..10 (sets a player may trade per turn unforced)`},
		{"lux", `voluntary_per_turn = 1`, `voluntary_per_turn = -1`, `r.toml: cards.voluntary_per_turn = -1: must be 1..10`},
	}
	for _, c := range cases {
		t.Run(c.base+"/"+c.want, func(t *testing.T) {
			base := embeddedRules(t, c.base)
			require.Contains(t, base, c.old)
			_, err := ParseRules("r.toml", []byte(strings.Replace(base, c.old, c.new, 1)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// noCards returns the classic rules with cards.mode "none" and no other
// card key.
func noCards(tb testing.TB) string {
	tb.Helper()
	text := embeddedRules(tb, "classic")
	i, j := strings.Index(text, "[cards]"), strings.Index(text, "[attack]")
	return text[:i] + "[cards]\nmode = \"none\"\n\n" + text[j:]
}

// TestParseRulesOptionalKeys: the card keys other than the mode may be left
// out when there are no cards, a mission's extra when it is 0.
func TestParseRulesOptionalKeys(t *testing.T) {
	t.Parallel()
	r, err := ParseRules("none.toml", []byte(noCards(t)))
	require.NoError(t, err)
	assert.Equal(t, CardRules{Mode: CardsNone}, r.Cards)
	_, err = ParseRules("none.toml", []byte(strings.Replace(noCards(t), `mode = "none"`, "mode = \"none\"\nvoluntary_per_turn = 1", 1)))
	assert.EqualError(t, err, `none.toml: cards.voluntary_per_turn = 1: must be left out with cards.mode = "none"`)
	m, err := LoadRules("missions")
	require.NoError(t, err)
	assert.Equal(t, 0, m.Missions[2].Extra)
	assert.Equal(t, 1, m.Missions[0].Extra)
}

// withoutSource returns a copy of r that does not remember its source.
func withoutSource(r *Rules) *Rules {
	c := r.Clone()
	c.source = ""
	return c
}

func TestValidateAgainstMap(t *testing.T) {
	t.Parallel()
	classic := loadClassic(t)
	tiny, err := ParseMap("tiny.toml", []byte(readTiny(t)))
	require.NoError(t, err)
	missions, err := LoadRules("missions")
	require.NoError(t, err)
	cases := []struct {
		name   string
		m      *Map
		change func(r *Rules)
		want   string // "" = valid
	}{
		{"classic ok", classic, func(r *Rules) {}, ""},
		{"few armies", classic, func(r *Rules) { r.StartingArmies[6] = 6 },
			`configs/rules/missions.toml: starting_armies[6] = 6: must be at least 7: 6 players share the 42 territories of map "classic"`},
		{"just enough armies", classic, func(r *Rules) { r.StartingArmies[6] = 7; r.StartingArmies[5] = 9 }, ""},
		{"too few for 5", classic, func(r *Rules) { r.StartingArmies[5] = 8 },
			`configs/rules/missions.toml: starting_armies[5] = 8: must be at least 9: 5 players share the 42 territories of map "classic"`},
		{"too many territories", classic, func(r *Rules) { r.Missions[6].Count = 43 },
			`configs/rules/missions.toml: missions[6].count = 43: must be 1..42 (territories of map "classic")`},
		{"all territories", classic, func(r *Rules) { r.Missions[6].Count = 42 }, ""},
		{"too many continents", classic, func(r *Rules) { r.Missions[0].Extra = 5 },
			`configs/rules/missions.toml: missions[0].extra = 5: 2 listed + 5 extra continents: map "classic" has only 6`},
		{"all continents", classic, func(r *Rules) { r.Missions[0].Extra = 4 }, ""},
		{"unknown continent", tiny, func(r *Rules) {},
			`configs/rules/missions.toml: missions[0].continents = "Europe": no such continent on map "tiny"`},
		{"tiny map without continent missions", tiny, func(r *Rules) { r.Missions = r.Missions[6:]; r.Players = 3; r.Missions[0].Count = 3 },
			`configs/rules/missions.toml: missions[1].count = 18: must be 1..3 (territories of map "tiny")`},
		{"nil map", nil, func(r *Rules) { r.Missions[0].Continents[0] = "Atlantis" }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := missions.Clone()
			c.change(r)
			err := r.Validate(c.m)
			if c.want == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, c.want)
			}
		})
	}
	// The test rules are valid on the ring maps.
	assert.NoError(t, testRules(FortifyOneStep).Validate(ringMap(3, 4)))
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	m := loadClassic(t)
	var buf bytes.Buffer
	require.NoError(t, EncodeMap(&buf, m))
	m2, err := ParseMap("encoded", buf.Bytes())
	require.NoError(t, err, buf.String())
	assert.Equal(t, m, m2, "classic map differs after EncodeMap and ParseMap")
	for _, name := range configs.RulesNames() {
		r, err := LoadRules(name)
		require.NoError(t, err)
		buf.Reset()
		require.NoError(t, EncodeRules(&buf, r))
		r2, err := ParseRules("encoded", buf.Bytes())
		require.NoError(t, err, "%s:\n%s", name, buf.String())
		assert.Equal(t, withoutSource(r), withoutSource(r2), "%s: rules differ after EncodeRules and ParseRules", name)
		// The canonical encoding is a fixed point: encoding the decoded
		// rules again gives the same bytes, so digests are stable.
		var again bytes.Buffer
		require.NoError(t, EncodeRules(&again, r2))
		assert.Equal(t, buf.String(), again.String(), name)
	}
}

func TestLoadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mapPath := filepath.Join(dir, "tiny.toml")
	require.NoError(t, os.WriteFile(mapPath, []byte(readTiny(t)), 0o644))
	m, err := LoadMap(mapPath)
	require.NoError(t, err)
	assert.Equal(t, "tiny", m.Name)
	assert.Equal(t, 3, m.NumTerritories())
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(embeddedRules(t, "classic"), "forced_trade_at = 5", "forced_trade_at = 3", 1)), 0o644))
	cases := []struct {
		name string
		load func(string) error
		arg  string
		want string
	}{
		{"rules file", func(s string) error { _, err := LoadRules(s); return err }, bad,
			bad + ": cards.forced_trade_at = 3: must be 5..10"},
		{"missing map file", func(s string) error { _, err := LoadMap(s); return err }, filepath.Join(dir, "none.toml"),
			"load map: open " + filepath.Join(dir, "none.toml")},
		{"missing relative file", func(s string) error { _, err := LoadRules(s); return err }, "nowhere.toml",
			"load rules: open nowhere.toml: no such file or directory"},
		{"unknown embedded map", func(s string) error { _, err := LoadMap(s); return err }, "earth",
			`load map: no embedded map named "earth" (have classic)`},
		{"unknown embedded rules", func(s string) error { _, err := LoadRules(s); return err }, "hasbro",
			`load rules: no embedded rules named "hasbro" (have classic, fixedcards, lux, lux-escalating, mars2006, mars2006-escalating, missions)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.load(c.arg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestRulesMap: the map key of a rules file names an embedded map or a
// file relative to the rules file's folder, and an error names the rules
// file and the key.
func TestRulesMap(t *testing.T) {
	classic, err := LoadRules("classic")
	require.NoError(t, err)
	assert.Equal(t, "classic", classic.MapPath())
	m, err := classic.LoadMap()
	require.NoError(t, err)
	assert.Equal(t, "classic", m.Name)

	// testdata/load/rules/local.toml says map = "maps/tiny.toml": the file
	// next to it, whatever the working directory.
	local := filepath.Join("testdata", "load", "rules", "local.toml")
	abs, err := filepath.Abs(local)
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	r, err := LoadRules(abs)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(filepath.Dir(abs), "maps", "tiny.toml"), r.MapPath())
	m, err = r.LoadMap()
	require.NoError(t, err)
	assert.Equal(t, "tiny", m.Name)
	require.NoError(t, r.Validate(m))

	atlantis := filepath.Join(filepath.Dir(abs), "atlantis.toml")
	r, err = LoadRules(atlantis)
	require.NoError(t, err)
	_, err = r.LoadMap()
	assert.EqualError(t, err, atlantis+`: map: no embedded map named "atlantis" (have classic)`)

	missing := r.Clone()
	missing.Map = "maps/none.toml"
	_, err = missing.LoadMap()
	require.Error(t, err)
	assert.Contains(t, err.Error(), atlantis+": map: open "+filepath.Join(filepath.Dir(abs), "maps", "none.toml"))

	inCode := withoutSource(classic)
	inCode.Map = "atlantis"
	_, err = inCode.LoadMap()
	assert.EqualError(t, err, `rules "classic": map: no embedded map named "atlantis" (have classic)`)
}

func TestEmbeddedErrorNamesFile(t *testing.T) {
	t.Parallel()
	// An embedded rule set is reported under its repository path.
	r, err := LoadRules("classic")
	require.NoError(t, err)
	r.Cards.ForcedTradeAt = 3
	assert.EqualError(t, r.Validate(nil), `configs/rules/classic.toml: cards.forced_trade_at = 3: must be 5..10`)
	// Rules built in code are named by their name.
	assert.EqualError(t, withoutSource(r).Validate(nil), `rules "classic": cards.forced_trade_at = 3: must be 5..10`)
	var buf bytes.Buffer
	require.NoError(t, EncodeRules(&buf, r))
	_, err = ParseRules(configs.Path("rules", "classic"), buf.Bytes())
	assert.EqualError(t, err, `configs/rules/classic.toml: cards.forced_trade_at = 3: must be 5..10`)
}

// TestModesText: every mode reads and writes its spelling as text (TOML
// and JSON), and an unknown spelling is an error listing the allowed ones.
func TestModesText(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, valid []string, unmarshal func([]byte) (string, error), allowed string) {
		for _, v := range valid {
			got, err := unmarshal([]byte(v))
			require.NoError(t, err)
			assert.Equal(t, v, got)
		}
		_, err := unmarshal([]byte("bogus"))
		assert.EqualError(t, err, `"bogus": must be `+allowed)
	}
	t.Run("fortify", func(t *testing.T) {
		check(t, []string{"single", "one-step", "connected"}, func(b []byte) (string, error) {
			var m FortifyMode
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"single", "one-step" or "connected"`)
	})
	t.Run("cards", func(t *testing.T) {
		check(t, []string{"none", "fixed", "escalating"}, func(b []byte) (string, error) {
			var m CardMode
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"none", "fixed" or "escalating"`)
	})
	t.Run("deal", func(t *testing.T) {
		check(t, []string{"random"}, func(b []byte) (string, error) {
			var m DealMode
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"random"`)
	})
	t.Run("initial armies", func(t *testing.T) {
		check(t, []string{"random", "bots"}, func(b []byte) (string, error) {
			var m InitialArmiesMode
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"random" or "bots"`)
	})
	t.Run("rounding", func(t *testing.T) {
		check(t, []string{"floor", "ceil"}, func(b []byte) (string, error) {
			var m Rounding
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"floor" or "ceil"`)
	})
	t.Run("win", func(t *testing.T) {
		check(t, []string{"domination", "missions"}, func(b []byte) (string, error) {
			var m WinCondition
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"domination" or "missions"`)
	})
	t.Run("mission kind", func(t *testing.T) {
		check(t, []string{"continents", "territories", "eliminate"}, func(b []byte) (string, error) {
			var m MissionKind
			err := m.UnmarshalText(b)
			return m.String(), err
		}, `"continents", "territories" or "eliminate"`)
	})
	// JSON writes the spellings, as the string fields did.
	r, err := LoadRules("fixedcards")
	require.NoError(t, err)
	b, err := json.Marshal(r.Fortify)
	require.NoError(t, err)
	assert.JSONEq(t, `{"Mode":"connected"}`, string(b))
	var f FortifyRules
	require.Error(t, json.Unmarshal([]byte(`{"Mode":"sideways"}`), &f))
	require.NoError(t, json.Unmarshal(b, &f))
	assert.Equal(t, FortifyConnected, f.Mode)
	// Validate catches an unknown mode set in code.
	bad := withoutSource(r)
	bad.Fortify.Mode = "sideways"
	assert.EqualError(t, bad.Validate(nil), `rules "fixedcards": fortify.mode = "sideways": must be "single", "one-step" or "connected"`)
}

func BenchmarkParseMap(b *testing.B) {
	data, err := configs.Map("classic")
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseMap("classic", data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*42/b.Elapsed().Seconds(), "territories/s")
}

func BenchmarkParseRules(b *testing.B) {
	data, err := configs.Rules("missions")
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseRules("missions", data); err != nil {
			b.Fatal(err)
		}
	}
}
