package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/marslab-risk/marslab/sim"
)

// mapJSON is the -json form of a map: territories and continents in id
// order, referring to each other by name.
type mapJSON struct {
	Territories []territoryJSON `json:"territories"`
	Continents  []continentJSON `json:"continents"`
}

type territoryJSON struct {
	Name      string   `json:"name"`
	Continent string   `json:"continent"`
	Neighbors []string `json:"neighbors"`
	X         *float64 `json:"x,omitempty"` // the map's layout, when it has one
	Y         *float64 `json:"y,omitempty"`
}

type continentJSON struct {
	Name        string   `json:"name"`
	Bonus       int      `json:"bonus"`
	Territories []string `json:"territories"`
}

const mapUsage = "usage: marslab map [-json | -toml | -rules NAME|PATH] [NAME|PATH]\n\n" +
	"Prints a map: an embedded one (default classic) or a TOML file. Flags:"

// mapFlags are the flags of marslab map.
type mapFlags struct {
	json, toml *bool
	rules      *string
}

func mapFlagSet(fs *flag.FlagSet) *mapFlags {
	return &mapFlags{
		json:  fs.Bool("json", false, "print the map as JSON"),
		toml:  fs.Bool("toml", false, "print the map as TOML (the format of configs/maps)"),
		rules: fs.String("rules", "", "print this rule set (embedded name or TOML file) as TOML, validated against the map"),
	}
}

// cmdMap prints a map (embedded name or TOML file, default classic) as a
// text listing by continent, as JSON (-json) or as normalised TOML
// (-toml); with -rules it prints a rule set, validated against the map,
// as TOML.
func cmdMap(_ context.Context, in *invocation, f *mapFlags) error {
	if len(in.args) > 1 {
		in.fs.Usage()
		return fmt.Errorf("want at most one map, got %q", in.args)
	}
	if *f.json && *f.toml || *f.rules != "" && (*f.json || *f.toml) {
		return errors.New("-json, -toml and -rules exclude each other")
	}
	var rules *sim.Rules
	mapArg := "classic"
	if *f.rules != "" {
		var err error
		if rules, err = sim.LoadRules(*f.rules); err != nil {
			return err
		}
		mapArg = rules.MapPath()
	}
	if len(in.args) == 1 {
		mapArg = in.args[0]
	}
	m, err := sim.LoadMap(mapArg)
	if err != nil {
		return err
	}
	switch {
	case rules != nil:
		if err := rules.Validate(m); err != nil {
			return err
		}
		return sim.EncodeRules(in.stdout, rules)
	case *f.toml:
		return sim.EncodeMap(in.stdout, m)
	case *f.json:
		return writeMapJSON(in.stdout, m)
	}
	return writeMapText(in.stdout, m)
}

func writeMapJSON(w io.Writer, m *sim.Map) error {
	names := func(ids []int) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = m.Territories[id].Name
		}
		return out
	}
	v := mapJSON{
		Territories: make([]territoryJSON, len(m.Territories)),
		Continents:  make([]continentJSON, len(m.Continents)),
	}
	for i, t := range m.Territories {
		v.Territories[i] = territoryJSON{Name: t.Name, Continent: m.Continents[t.Continent].Name, Neighbors: names(t.Neighbors)}
		if m.Layout != nil {
			v.Territories[i].X, v.Territories[i].Y = &m.Layout[i].X, &m.Layout[i].Y
		}
	}
	for i, c := range m.Continents {
		v.Continents[i] = continentJSON{Name: c.Name, Bonus: c.Bonus, Territories: names(c.Territories)}
	}
	return json.NewEncoder(w).Encode(&v)
}

// writeMapText lists the map by continent: each territory with its
// neighbours; territories on their continent's border are starred, and
// neighbours in another continent carry that continent's name.
func writeMapText(w io.Writer, m *sim.Map) error {
	var b strings.Builder
	fmt.Fprintf(&b, "map %s: %d territories, %d continents, %d borders\n",
		m.Name, m.NumTerritories(), len(m.Continents), m.NumBorders())
	width := 0
	for _, t := range m.Territories {
		width = max(width, len(t.Name))
	}
	for c, ct := range m.Continents {
		fmt.Fprintf(&b, "\n%s: bonus %d, %d territories, %d on the border\n", ct.Name, ct.Bonus, len(ct.Territories), len(ct.Borders))
		for _, id := range ct.Territories {
			t := m.Territories[id]
			mark := " "
			nb := make([]string, len(t.Neighbors))
			for i, n := range t.Neighbors {
				nb[i] = m.Territories[n].Name
				if oc := m.Territories[n].Continent; oc != c {
					nb[i] += " (" + m.Continents[oc].Name + ")"
					mark = "*"
				}
			}
			fmt.Fprintf(&b, "  %s %-*s  %s\n", mark, width, t.Name, strings.Join(nb, ", "))
		}
	}
	b.WriteString("\n* borders another continent\n")
	_, err := io.WriteString(w, b.String())
	return err
}
