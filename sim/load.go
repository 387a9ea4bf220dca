package sim

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
)

// Limits on configuration values. They keep every count the engine derives
// (armies, card values, incomes) far from integer overflow and territory ids
// within a Card's int16.
const (
	// maxTerritories is the largest number of territories a map may have.
	maxTerritories = 10000
	// maxArmyValue bounds every configured army count: continent bonuses,
	// starting armies, reinforcement minimum and divisor, card values and
	// the territory bonus.
	maxArmyValue = 100000
	// maxWilds is the largest number of wild cards in a deck.
	maxWilds = 10
	// maxVoluntaryPerTurn bounds cards.voluntary_per_turn.
	maxVoluntaryPerTurn = 10
)

// isEmbeddedName reports whether nameOrPath names an embedded configuration
// (no path separator, no ".toml" suffix) rather than a file.
func isEmbeddedName(nameOrPath string) bool {
	return configs.IsName(nameOrPath)
}

// ConfigPath resolves a rule set or map that the file source names (a
// config's rules or map key, a rule set's map key), as [LoadRules] and
// [LoadMap] take it: an embedded name (no path separator, no ".toml" suffix)
// and an absolute path as they are, a relative file path joined to the
// folder of source ("" or a name without a folder: the working directory).
// Every config of marslab resolves its rules and map files through it.
func ConfigPath(source, nameOrPath string) string {
	if isEmbeddedName(nameOrPath) || filepath.IsAbs(nameOrPath) {
		return nameOrPath
	}
	return filepath.Join(filepath.Dir(source), nameOrPath)
}

// LoadMap loads and validates a map. A name without a path separator and
// without a ".toml" suffix (e.g. "classic") is an embedded map of package
// configs; anything else is the path of a TOML file (see [ParseMap] for the
// format).
func LoadMap(nameOrPath string) (*Map, error) {
	source, data, err := MapSource(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("load map: %w", err)
	}
	return ParseMap(source, data)
}

// LoadRules loads and validates a rule set. A name without a path separator
// and without a ".toml" suffix ("classic", "mars2006", "fixedcards",
// "missions") is an embedded rule set of package configs; anything else is
// the path of a TOML file (see [ParseRules]). The rules are validated on
// their own; Validate checks them against a map.
func LoadRules(nameOrPath string) (*Rules, error) {
	source, data, err := RulesSource(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("load rules: %w", err)
	}
	return ParseRules(source, data)
}

// MapSource returns the TOML text of a map, embedded or in a file (as
// [LoadMap] reads it), and the source name its errors use: the embedded
// file's path (configs/maps/NAME.toml) or the file path.
func MapSource(nameOrPath string) (source string, data []byte, err error) {
	return loadSource("maps", nameOrPath, configs.Map)
}

// RulesSource returns the TOML text of a rule set, embedded or in a file (as
// [LoadRules] reads it), and the source name its errors use.
func RulesSource(nameOrPath string) (source string, data []byte, err error) {
	return loadSource("rules", nameOrPath, configs.Rules)
}

// MapPath returns the map that the rules' map key names, as [LoadMap] and
// [MapSource] take it: an embedded map's name as it is, a relative file path
// joined to the folder of the file the rules were read from (the working
// directory for rules built in code), an absolute path as it is.
func (r *Rules) MapPath() string {
	return ConfigPath(r.source, r.Map)
}

// MapSource returns the TOML text of the map that the rules' map key names
// (see MapPath) and the source name its errors use. An error names the
// rules file and its key, e.g.
//
//	mars2006.toml: map: no embedded map named "atlantis" (have classic)
func (r *Rules) MapSource() (source string, data []byte, err error) {
	source, data, err = MapSource(r.MapPath())
	if err != nil {
		return "", nil, fmt.Errorf("%s: map: %w", r.label(), err)
	}
	return source, data, nil
}

// LoadMap loads and validates the map that the rules' map key names (see
// MapPath and [MapSource]).
func (r *Rules) LoadMap() (*Map, error) {
	source, data, err := r.MapSource()
	if err != nil {
		return nil, err
	}
	return ParseMap(source, data)
}

func loadSource(dir, nameOrPath string, embedded func(string) ([]byte, error)) (string, []byte, error) {
	if isEmbeddedName(nameOrPath) {
		data, err := embedded(nameOrPath)
		return configs.Path(dir, nameOrPath), data, err
	}
	data, err := fileread.ReadFile(nameOrPath, fileread.Config)
	return nameOrPath, data, err
}

// mapFile is the TOML form of a Map.
type mapFile struct {
	Name        string          `toml:"name"`
	Continents  []continentFile `toml:"continents"`
	Territories []territoryFile `toml:"territories"`
}

type continentFile struct {
	Name  string `toml:"name"`
	Bonus int    `toml:"bonus"`
}

type territoryFile struct {
	Name      string   `toml:"name"`
	Continent string   `toml:"continent"`
	Neighbors []string `toml:"neighbors"`
	X         *float64 `toml:"x,omitempty"`
	Y         *float64 `toml:"y,omitempty"`
}

// ParseMap parses and validates a map in TOML; source names the data in
// error messages (usually its file name). The format is
//
//	name = "classic"
//
//	[[continents]]
//	name = "North America"
//	bonus = 5
//
//	[[territories]]
//	name = "Alaska"
//	continent = "North America"
//	neighbors = ["Northwest Territory", "Alberta", "Kamchatka"]
//
// with ids in the order of the tables. A territory may also give its
// position on a drawing of the board, x and y (numbers within
// ±1e6, x to the right and y downwards; see [Map.Layout]): then
// every territory must, each at a position of its own. The map must have a name, at least 2
// territories, unique non-empty names (no control characters or surrounding
// spaces), every territory in an existing continent, every continent
// non-empty with a bonus in 0..100000, neighbours that exist, without
// self-loops or repeats, listed on both sides of every border, and a
// connected board. Every key shown above is required (a continent's bonus
// too, even if 0); unknown keys are errors. A value of the wrong type is
// reported with its line and full key, e.g.
//
//	my.toml:5: continents[0].bonus = 2.5: must be an integer (TOML value has type float)
func ParseMap(source string, data []byte) (*Map, error) {
	var f mapFile
	md, raw, err := decodeTOML(source, data, &f)
	if err != nil {
		return nil, err
	}
	if err := mapKeysPresent(source, &md, raw, &f); err != nil {
		return nil, err
	}
	return buildMap(source, &f)
}

// mapKeysPresent reports the first key of a map file that is missing.
func mapKeysPresent(source string, md *toml.MetaData, raw map[string]any, f *mapFile) error {
	if !md.IsDefined("name") {
		return missing(source, "name", "the map's name")
	}
	for i := range f.Continents {
		for _, k := range [...]struct{ key, hint string }{
			{"name", "a unique name"},
			{"bonus", fmt.Sprintf("0..%d", maxArmyValue)},
		} {
			if !inTable(raw, "continents", i, k.key) {
				return missing(source, fmt.Sprintf("continents[%d].%s", i, k.key), k.hint)
			}
		}
	}
	for i := range f.Territories {
		for _, k := range [...]struct{ key, hint string }{
			{"name", "a unique name"},
			{"continent", "a continent's name"},
			{"neighbors", "the names of the adjacent territories"},
		} {
			if !inTable(raw, "territories", i, k.key) {
				return missing(source, fmt.Sprintf("territories[%d].%s", i, k.key), k.hint)
			}
		}
	}
	return nil
}

// NewMap builds and validates a map from continents (Name and Bonus) and
// territories (Name, Continent id and Neighbors ids, in any order), under
// the rules of [ParseMap]; the derived fields (sorted neighbours, continent
// territory and border lists) are computed and the inputs are not kept.
// Errors name the offending element as [ParseMap] would, e.g.
// `NewMap "ring": territories[2].neighbors = "b": listed twice ...`.
func NewMap(name string, continents []Continent, territories []Territory) (*Map, error) {
	source := fmt.Sprintf("NewMap %q", name)
	f := mapFile{
		Name:        name,
		Continents:  make([]continentFile, len(continents)),
		Territories: make([]territoryFile, len(territories)),
	}
	for i, c := range continents {
		f.Continents[i] = continentFile{Name: c.Name, Bonus: c.Bonus}
	}
	for i, t := range territories {
		if t.Continent < 0 || t.Continent >= len(continents) {
			return nil, badValue(source, fmt.Sprintf("territories[%d].continent", i), t.Continent,
				"must be a continent id 0..%d", len(continents)-1)
		}
		nb := make([]string, len(t.Neighbors))
		for j, id := range t.Neighbors {
			if id < 0 || id >= len(territories) {
				return nil, badValue(source, fmt.Sprintf("territories[%d].neighbors", i), id,
					"must be a territory id 0..%d", len(territories)-1)
			}
			nb[j] = territories[id].Name
		}
		f.Territories[i] = territoryFile{Name: t.Name, Continent: continents[t.Continent].Name, Neighbors: nb}
	}
	return buildMap(source, &f)
}

func buildMap(source string, f *mapFile) (*Map, error) {
	if err := checkName(f.Name); err != nil {
		return nil, badValue(source, "name", f.Name, "%v", err)
	}
	if len(f.Continents) == 0 {
		return nil, badKey(source, "continents", "no continents: need at least 1")
	}
	if n := len(f.Territories); n < 2 || n > maxTerritories {
		return nil, badKey(source, "territories", "%d territories: must be 2..%d", n, maxTerritories)
	}
	m := &Map{
		Name:        f.Name,
		Continents:  make([]Continent, len(f.Continents)),
		Territories: make([]Territory, len(f.Territories)),
	}
	contID := make(map[string]int, len(f.Continents))
	for i, c := range f.Continents {
		if err := addName(contID, source, "continents", i, c.Name); err != nil {
			return nil, err
		}
		if c.Bonus < 0 || c.Bonus > maxArmyValue {
			return nil, badValue(source, fmt.Sprintf("continents[%d].bonus", i), c.Bonus, "must be 0..%d", maxArmyValue)
		}
		m.Continents[i] = Continent{Name: c.Name, Bonus: c.Bonus}
	}
	terrID := make(map[string]int, len(f.Territories))
	for i, t := range f.Territories {
		if err := addName(terrID, source, "territories", i, t.Name); err != nil {
			return nil, err
		}
		c, ok := contID[t.Continent]
		if !ok {
			return nil, badValue(source, fmt.Sprintf("territories[%d].continent", i), t.Continent, "no such continent (territory %q)", t.Name)
		}
		m.Territories[i] = Territory{Name: t.Name, Continent: c}
	}
	for i, t := range f.Territories {
		key := fmt.Sprintf("territories[%d].neighbors", i)
		if len(t.Neighbors) == 0 {
			return nil, badKey(source, key, "territory %q has no neighbours", t.Name)
		}
		nb := make([]int, 0, len(t.Neighbors))
		for _, name := range t.Neighbors {
			id, ok := terrID[name]
			switch {
			case !ok:
				return nil, badValue(source, key, name, "no such territory (neighbour of %q)", t.Name)
			case id == i:
				return nil, badValue(source, key, name, "a territory cannot border itself")
			case slices.Contains(nb, id):
				return nil, badValue(source, key, name, "listed twice (neighbours of %q)", t.Name)
			}
			nb = append(nb, id)
		}
		slices.Sort(nb)
		m.Territories[i].Neighbors = nb
	}
	for i := range m.Territories {
		t := &m.Territories[i]
		for _, nb := range t.Neighbors {
			if _, found := slices.BinarySearch(m.Territories[nb].Neighbors, i); !found {
				return nil, badValue(source, fmt.Sprintf("territories[%d].neighbors", i), m.Territories[nb].Name,
					"%q does not list %q back (borders must be symmetric)", m.Territories[nb].Name, t.Name)
			}
		}
	}
	count := make([]int, len(m.Continents))
	for _, t := range m.Territories {
		count[t.Continent]++
	}
	for c, k := range count {
		if k == 0 {
			return nil, badValue(source, fmt.Sprintf("continents[%d].name", c), m.Continents[c].Name,
				"no territory belongs to this continent")
		}
	}
	if err := buildLayout(source, f, m); err != nil {
		return nil, err
	}
	if far := unreachable(m); far >= 0 {
		return nil, badKey(source, "territories", "the map is not connected: %q cannot be reached from %q",
			m.Territories[far].Name, m.Territories[0].Name)
	}
	m.finish()
	return m, nil
}

// buildLayout sets m.Layout from the territories' x and y keys: all or
// addName checks the name of entry i of table (continents or
// territories) and adds it to ids; an invalid or repeated name is an error
// naming the key.
func addName(ids map[string]int, source, table string, i int, name string) error {
	key := fmt.Sprintf("%s[%d].name", table, i)
	if err := checkName(name); err != nil {
		return badValue(source, key, name, "%v", err)
	}
	if j, dup := ids[name]; dup {
		return badValue(source, key, name, "duplicate of %s[%d]", table, j)
	}
	ids[name] = i
	return nil
}

// none of the territories must give both.
func buildLayout(source string, f *mapFile, m *Map) error {
	given := 0
	for _, t := range f.Territories {
		if t.X != nil || t.Y != nil {
			given++
		}
	}
	if given == 0 {
		return nil
	}
	at := make(map[Point]int, len(f.Territories))
	m.Layout = make([]Point, len(f.Territories))
	for i, t := range f.Territories {
		key := fmt.Sprintf("territories[%d]", i)
		switch {
		case t.X == nil && t.Y == nil:
			return badKey(source, key+".x", "missing: territory %q has no position, but %d other territories have one (give x and y to all or none)", t.Name, given)
		case t.X == nil:
			return badKey(source, key+".x", "missing: territory %q has y but no x", t.Name)
		case t.Y == nil:
			return badKey(source, key+".y", "missing: territory %q has x but no y", t.Name)
		}
		for _, c := range []struct {
			k string
			v float64
		}{{"x", *t.X}, {"y", *t.Y}} {
			if !(c.v >= -maxCoordinate && c.v <= maxCoordinate) { // also NaN
				return badValue(source, key+"."+c.k, c.v, "must be a number within ±%g", maxCoordinate)
			}
		}
		p := Point{*t.X, *t.Y}
		if j, dup := at[p]; dup {
			return badValue(source, key+".x", p.X, "territory %q is at (%g, %g), the position of territories[%d] (%q)", t.Name, p.X, p.Y, j, f.Territories[j].Name)
		}
		at[p] = i
		m.Layout[i] = p
	}
	return nil
}

// unreachable returns the first territory that cannot be reached from
// territory 0, or -1 if the map is connected: the owned-path search (see
// [OwnedPaths]) with every territory owned by one seat.
func unreachable(m *Map) int {
	var paths OwnedPaths
	dist := paths.DistancesOn(m, make([]int, len(m.Territories)), 0, []int{0}, nil)
	return slices.Index(dist, -1)
}

// checkName reports whether s is acceptable as a map, territory or
// continent name.
func checkName(s string) error {
	switch {
	case s == "":
		return errors.New("must not be empty")
	case strings.TrimSpace(s) != s:
		return errors.New("must not begin or end with spaces")
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return errors.New("must not contain control characters")
	}
	return nil
}

// EncodeMap writes m in the TOML format read by [ParseMap].
func EncodeMap(w io.Writer, m *Map) error {
	f := mapFile{
		Name:        m.Name,
		Continents:  make([]continentFile, len(m.Continents)),
		Territories: make([]territoryFile, len(m.Territories)),
	}
	for i, c := range m.Continents {
		f.Continents[i] = continentFile{Name: c.Name, Bonus: c.Bonus}
	}
	for i, t := range m.Territories {
		nb := make([]string, len(t.Neighbors))
		for j, id := range t.Neighbors {
			nb[j] = m.Territories[id].Name
		}
		f.Territories[i] = territoryFile{Name: t.Name, Continent: m.Continents[t.Continent].Name, Neighbors: nb}
		if m.Layout != nil {
			f.Territories[i].X, f.Territories[i].Y = &m.Layout[i].X, &m.Layout[i].Y
		}
	}
	enc := toml.NewEncoder(w)
	enc.Indent = ""
	return enc.Encode(&f)
}

// EncodeRules writes r in the TOML format read by [ParseRules].
func EncodeRules(w io.Writer, r *Rules) error {
	enc := toml.NewEncoder(w)
	enc.Indent = ""
	return enc.Encode(r)
}

// ParseRules parses a rule set in TOML and validates it on its own (every
// check of Validate that does not need a map); source names the data in
// error messages (usually its file name), and the Rules keep it for the
// errors of Validate and [NewGame]. The keys are the `toml` tags of Rules and
// its parts. Nothing is defaulted: every key that applies to the chosen
// modes must be present (the keys of cards.mode "none" other than the mode
// are optional, and so is a mission's extra, 0 if left out), a key that
// does not apply must be left out, and unknown keys are errors, e.g.
//
//	my.toml: cards.one_per_turn: missing (true or false)
//
// A value of the wrong type or an unknown mode is reported with its line:
//
//	my.toml:38: fortify.mode = "sideways": must be "single", "one-step" or "connected"
func ParseRules(source string, data []byte) (*Rules, error) {
	r := new(Rules)
	md, raw, err := decodeTOML(source, data, r)
	if err != nil {
		return nil, err
	}
	if err := r.keysPresent(source, &md, raw); err != nil {
		return nil, err
	}
	if err := r.validate(source, nil); err != nil {
		return nil, err
	}
	r.source = source
	return r, nil
}

// keysPresent reports the first key that applies to the rules' modes (as
// decoded) but is missing from the TOML data.
func (r *Rules) keysPresent(source string, md *toml.MetaData, raw map[string]any) error {
	type need struct {
		key  []string
		hint string
	}
	const boolean = "true or false"
	army := func(lo int) string { return fmt.Sprintf("%d..%d", lo, maxArmyValue) }
	needs := []need{
		{[]string{"name"}, "the rule set's name"},
		{[]string{"map"}, "the default map's name"},
		{[]string{"players"}, fmt.Sprintf("%d..%d", MinPlayers, MaxPlayers)},
		{[]string{"starting_armies"}, "7 entries, entry k for k players"},
		{[]string{"setup", "deal"}, oneOf(dealModes)},
		{[]string{"setup", "initial_armies"}, oneOf(initialArmiesModes)},
		{[]string{"reinforce", "rounding"}, oneOf(roundings)},
		{[]string{"reinforce", "divisor"}, army(1)},
		{[]string{"reinforce", "min"}, army(0)},
		{[]string{"reinforce", "continent_bonus"}, boolean},
		{[]string{"cards", "mode"}, oneOf(cardModes)},
	}
	if m := r.Cards.Mode; m == CardsFixed || m == CardsEscalating {
		needs = append(needs, need{[]string{"cards", "wilds"}, fmt.Sprintf("0..%d", maxWilds)})
		if m == CardsFixed {
			needs = append(needs, need{[]string{"cards", "fixed_values"},
				"4 values " + army(1) + ": three infantry, three cavalry, three artillery, one of each"})
		} else {
			needs = append(needs,
				need{[]string{"cards", "escalating"}, "the values of the first sets, " + army(1)},
				need{[]string{"cards", "escalating_step"}, army(0)})
		}
		needs = append(needs,
			need{[]string{"cards", "territory_bonus"}, army(0)},
			need{[]string{"cards", "forced_trade_at"}, "5..10"},
			need{[]string{"cards", "one_per_turn"}, boolean},
			need{[]string{"cards", "take_on_elimination"}, boolean})
	}
	needs = append(needs,
		need{[]string{"attack", "attacker_dice"}, "1..3"},
		need{[]string{"attack", "defender_dice"}, "1..2"},
		need{[]string{"attack", "ties_to_attacker"}, boolean},
		need{[]string{"attack", "move_in_at_least_dice"}, boolean},
		need{[]string{"fortify", "mode"}, oneOf(fortifyModes)},
		need{[]string{"end", "win"}, oneOf(winConditions)},
		need{[]string{"end", "round_limit"}, ">= 0, 0 = no limit"})
	for _, n := range needs {
		if !md.IsDefined(n.key...) {
			return missing(source, strings.Join(n.key, "."), n.hint)
		}
	}
	// The optional keys read 0 when left out: written out, 0 is out of range.
	if md.IsDefined("setup", "initial_per_turn") && r.Setup.InitialPerTurn == 0 {
		return badValue(source, "setup.initial_per_turn", 0, "must be 1..%d (leave the key out to place one army at a time through PlaceInitial)", maxArmyValue)
	}
	if md.IsDefined("cards", "voluntary_per_turn") && r.Cards.VoluntaryPerTurn == 0 {
		return badValue(source, "cards.voluntary_per_turn", 0, "must be 1..%d (leave the key out for no bound)", maxVoluntaryPerTurn)
	}
	if r.End.Win != WinMissions {
		return nil // missions are not allowed: validate says so
	}
	// IsDefined cannot look into the tables of an array: raw can.
	for i, ms := range r.Missions {
		keys := []need{{[]string{"name"}, "a short description"},
			{[]string{"kind"}, oneOf(missionKinds)}}
		switch ms.Kind {
		case MissionContinents:
			keys = append(keys, need{[]string{"continents"}, "a list of continent names"})
		case MissionTerritories:
			keys = append(keys, need{[]string{"count"}, fmt.Sprintf("1..%d", maxTerritories)},
				need{[]string{"min_armies"}, army(1)})
		}
		for _, k := range keys {
			if !inTable(raw, "missions", i, k.key[0]) {
				return missing(source, fmt.Sprintf("missions[%d].%s", i, k.key[0]), k.hint)
			}
		}
	}
	return nil
}

// Validate checks the rules against the documentation of Rules and, when
// m is not nil, against map m: every player count 2..6 must start with at
// least one army per dealt territory, mission continents must exist on m,
// at most its number of continents may be asked for, and territory
// missions may not ask for more territories than m has. The error names
// the file the rules were read from (`rules "NAME"` for rules built in
// code), the TOML key and the allowed range, e.g.
//
//	my_rules.toml: cards.forced_trade_at = 3: must be 5..10
//	my_missions.toml: missions[0].continents = "Europe": no such continent on map "pair"
func (r *Rules) Validate(m *Map) error {
	return r.validate(r.label(), m)
}

func (r *Rules) validate(src string, m *Map) error {
	if err := checkName(r.Name); err != nil {
		return badValue(src, "name", r.Name, "%v", err)
	}
	if err := checkName(r.Map); err != nil {
		return badValue(src, "map", r.Map, "%v", err)
	}
	if r.Players < MinPlayers || r.Players > MaxPlayers {
		return badValue(src, "players", r.Players, "must be %d..%d", MinPlayers, MaxPlayers)
	}
	for k, a := range r.StartingArmies {
		key := fmt.Sprintf("starting_armies[%d]", k)
		if k < 2 {
			if a != 0 {
				return badValue(src, key, a, "must be 0 (entries 0 and 1 are unused; entry k is for k players)")
			}
			continue
		}
		if a < 1 || a > maxArmyValue {
			return badValue(src, key, a, "must be 1..%d", maxArmyValue)
		}
		if m != nil {
			if need := (m.NumTerritories() + k - 1) / k; a < need {
				return badValue(src, key, a, "must be at least %d: %d players share the %d territories of map %q",
					need, k, m.NumTerritories(), m.Name)
			}
		}
	}
	if !r.Setup.Deal.valid() {
		return badValue(src, "setup.deal", r.Setup.Deal, "must be %s", oneOf(dealModes))
	}
	if !r.Setup.InitialArmies.valid() {
		return badValue(src, "setup.initial_armies", r.Setup.InitialArmies, "must be %s", oneOf(initialArmiesModes))
	}
	switch k := r.Setup.InitialPerTurn; {
	case k != 0 && r.Setup.InitialArmies != InitialBots:
		return badValue(src, "setup.initial_per_turn", k, `must be left out unless setup.initial_armies = "bots"`)
	case k < 0 || k > maxArmyValue:
		return badValue(src, "setup.initial_per_turn", k, "must be 1..%d (armies a player places per setup turn)", maxArmyValue)
	}
	if err := r.Reinforce.validate(src); err != nil {
		return err
	}
	if err := r.Cards.validate(src); err != nil {
		return err
	}
	if a := r.Attack.AttackerDice; a < 1 || a > 3 {
		return badValue(src, "attack.attacker_dice", a, "must be 1..3")
	}
	if d := r.Attack.DefenderDice; d < 1 || d > 2 {
		return badValue(src, "attack.defender_dice", d, "must be 1..2")
	}
	if !r.Fortify.Mode.valid() {
		return badValue(src, "fortify.mode", r.Fortify.Mode, "must be %s", oneOf(fortifyModes))
	}
	if !r.Fortify.Movable.valid() {
		return badValue(src, "fortify.movable", string(r.Fortify.Movable), "must be %s (or left out)", oneOf(fortifyMovables))
	}
	if !r.End.Win.valid() {
		return badValue(src, "end.win", r.End.Win, "must be %s", oneOf(winConditions))
	}
	if r.End.RoundLimit < 0 {
		return badValue(src, "end.round_limit", r.End.RoundLimit, "must be >= 0 (0 = no limit)")
	}
	return r.validateMissions(src, m)
}

func (rr *ReinforceRules) validate(src string) error {
	if !rr.Rounding.valid() {
		return badValue(src, "reinforce.rounding", rr.Rounding, "must be %s", oneOf(roundings))
	}
	if rr.Divisor < 1 || rr.Divisor > maxArmyValue {
		return badValue(src, "reinforce.divisor", rr.Divisor, "must be 1..%d", maxArmyValue)
	}
	if rr.Min < 0 || rr.Min > maxArmyValue {
		return badValue(src, "reinforce.min", rr.Min, "must be 0..%d", maxArmyValue)
	}
	return nil
}

func (c *CardRules) validate(src string) error {
	if !c.Mode.valid() {
		return badValue(src, "cards.mode", c.Mode, "must be %s", oneOf(cardModes))
	}
	if c.Wilds < 0 || c.Wilds > maxWilds {
		return badValue(src, "cards.wilds", c.Wilds, "must be 0..%d", maxWilds)
	}
	for i, v := range c.FixedValues {
		key := fmt.Sprintf("cards.fixed_values[%d]", i)
		switch {
		case c.Mode == CardsFixed && (v < 1 || v > maxArmyValue):
			return badValue(src, key, v, "must be 1..%d", maxArmyValue)
		case c.Mode != CardsFixed && v != 0:
			return badValue(src, key, v, `must be 0 unless cards.mode = "fixed"`)
		}
	}
	if c.Mode == CardsEscalating {
		if len(c.Escalating) == 0 {
			return badKey(src, "cards.escalating", `must list at least one value in mode "escalating"`)
		}
		for i, v := range c.Escalating {
			if v < 1 || v > maxArmyValue {
				return badValue(src, fmt.Sprintf("cards.escalating[%d]", i), v, "must be 1..%d", maxArmyValue)
			}
		}
		if c.EscalatingStep < 0 || c.EscalatingStep > maxArmyValue {
			return badValue(src, "cards.escalating_step", c.EscalatingStep, "must be 0..%d", maxArmyValue)
		}
	} else {
		if len(c.Escalating) != 0 {
			return badValue(src, "cards.escalating", c.Escalating, `must be empty unless cards.mode = "escalating"`)
		}
		if c.EscalatingStep != 0 {
			return badValue(src, "cards.escalating_step", c.EscalatingStep, `must be 0 unless cards.mode = "escalating"`)
		}
	}
	if c.TerritoryBonus < 0 || c.TerritoryBonus > maxArmyValue {
		return badValue(src, "cards.territory_bonus", c.TerritoryBonus, "must be 0..%d", maxArmyValue)
	}
	switch v := c.VoluntaryPerTurn; {
	case v != 0 && c.Mode == CardsNone:
		return badValue(src, "cards.voluntary_per_turn", v, `must be left out with cards.mode = "none"`)
	case v < 0 || v > maxVoluntaryPerTurn:
		return badValue(src, "cards.voluntary_per_turn", v, "must be 1..%d (sets a player may trade per turn unforced)", maxVoluntaryPerTurn)
	}
	f := c.ForcedTradeAt
	switch {
	case c.Mode == CardsNone && f != 0 && (f < 5 || f > 10):
		return badValue(src, "cards.forced_trade_at", f, `must be 5..10, or 0 (off) with cards.mode = "none"`)
	case c.Mode != CardsNone && (f < 5 || f > 10):
		return badValue(src, "cards.forced_trade_at", f, "must be 5..10")
	}
	return nil
}

func (r *Rules) validateMissions(src string, m *Map) error {
	if r.End.Win != WinMissions {
		if len(r.Missions) != 0 {
			return badKey(src, "missions", `%d missions: only allowed with end.win = "missions"`, len(r.Missions))
		}
		return nil
	}
	if len(r.Missions) < r.Players {
		return badKey(src, "missions", "%d missions: need at least one per player (players = %d)",
			len(r.Missions), r.Players)
	}
	for i := range r.Missions {
		if err := r.Missions[i].validate(src, fmt.Sprintf("missions[%d]", i), m); err != nil {
			return err
		}
	}
	return nil
}

func (ms *Mission) validate(src, key string, m *Map) error {
	if err := checkName(ms.Name); err != nil {
		return badValue(src, key+".name", ms.Name, "%v", err)
	}
	if ms.Kind != MissionContinents {
		if len(ms.Continents) != 0 {
			return badValue(src, key+".continents", ms.Continents, "only allowed with kind = %q", MissionContinents)
		}
		if ms.Extra != 0 {
			return badValue(src, key+".extra", ms.Extra, "only allowed with kind = %q", MissionContinents)
		}
	}
	if ms.Kind != MissionTerritories {
		if ms.Count != 0 {
			return badValue(src, key+".count", ms.Count, "only allowed with kind = %q", MissionTerritories)
		}
		if ms.MinArmies != 0 {
			return badValue(src, key+".min_armies", ms.MinArmies, "only allowed with kind = %q", MissionTerritories)
		}
	}
	switch ms.Kind {
	case MissionContinents:
		for j, name := range ms.Continents {
			if slices.Index(ms.Continents, name) < j {
				return badValue(src, key+".continents", name, "listed twice")
			}
			if m != nil {
				if _, ok := m.ContinentID(name); !ok {
					return badValue(src, key+".continents", name, "no such continent on map %q", m.Name)
				}
			}
		}
		if ms.Extra < 0 {
			return badValue(src, key+".extra", ms.Extra, "must be >= 0")
		}
		total := len(ms.Continents) + ms.Extra
		if total < 1 {
			return badKey(src, key, "asks for no continent: list continents or set extra >= 1")
		}
		if m != nil && total > len(m.Continents) {
			return badValue(src, key+".extra", ms.Extra, "%d listed + %d extra continents: map %q has only %d",
				len(ms.Continents), ms.Extra, m.Name, len(m.Continents))
		}
	case MissionTerritories:
		if m != nil && (ms.Count < 1 || ms.Count > m.NumTerritories()) {
			return badValue(src, key+".count", ms.Count, "must be 1..%d (territories of map %q)", m.NumTerritories(), m.Name)
		}
		if ms.Count < 1 || ms.Count > maxTerritories {
			return badValue(src, key+".count", ms.Count, "must be 1..%d", maxTerritories)
		}
		if ms.MinArmies < 1 || ms.MinArmies > maxArmyValue {
			return badValue(src, key+".min_armies", ms.MinArmies, "must be 1..%d", maxArmyValue)
		}
	case MissionEliminate:
	default:
		return badValue(src, key+".kind", ms.Kind, "must be %s", oneOf(missionKinds))
	}
	return nil
}

// tableAt returns the i-th table of the array of tables v (either TOML
// form), or nil.
func tableAt(v any, i int) map[string]any {
	switch a := v.(type) {
	case []map[string]any:
		if i < len(a) {
			return a[i]
		}
	case []any:
		if i < len(a) {
			t, _ := a[i].(map[string]any)
			return t
		}
	}
	return nil
}

// decodeTOML decodes data into v strictly ([configs.DecodeStrict]: errors
// with the line and key) and into maps (raw, for the questions MetaData
// cannot answer about the tables of an array).
func decodeTOML(source string, data []byte, v any) (toml.MetaData, map[string]any, error) {
	md, err := configs.DecodeStrict(source, data, v)
	if err != nil {
		return md, nil, err
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return md, nil, fmt.Errorf("%s: %w", source, err)
	}
	return md, raw, nil
}

// inTable reports whether the i-th table of the top-level array of tables
// array defines key.
func inTable(raw map[string]any, array string, i int, key string) bool {
	_, ok := tableAt(raw[array], i)[key]
	return ok
}

// missing returns the error "source: key: missing (hint)".
func missing(source, key, hint string) error {
	return badKey(source, key, "missing (%s)", hint)
}

// badKey returns the error "source: key: message".
func badKey(source, key, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", source, key, fmt.Sprintf(format, args...))
}

// badValue returns the error "source: key = value: message".
func badValue(source, key string, value any, format string, args ...any) error {
	var v string
	switch x := value.(type) {
	case string:
		v = strconv.Quote(x)
	case fmt.Stringer:
		v = strconv.Quote(x.String())
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		v = "[" + strings.Join(q, ", ") + "]"
	case []int:
		q := make([]string, len(x))
		for i, n := range x {
			q[i] = strconv.Itoa(n)
		}
		v = "[" + strings.Join(q, ", ") + "]"
	default:
		v = fmt.Sprint(x)
	}
	return fmt.Errorf("%s: %s = %s: %s", source, key, v, fmt.Sprintf(format, args...))
}
