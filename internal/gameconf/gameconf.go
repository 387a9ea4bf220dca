// Package gameconf loads the rule set and map that an experiment's config
// file names, as search and tourney read their rules and map keys.
package gameconf

import (
	"fmt"
	"strings"

	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/sim"
)

// Load loads the rule set rules and the map mapArg ("" = the map the rules
// name) of the config file source (both resolved by [sim.ConfigPath]) and checks them
// against each other. An error names source and the key: "SOURCE: key
// rules: ...", "SOURCE: key map: ..." or "SOURCE: keys rules, map: ...".
func Load(source, rules, mapArg string) (*sim.Rules, *sim.Map, error) {
	rsrc, rdata, err := sim.RulesSource(sim.ConfigPath(source, rules))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: key rules: %w", source, err)
	}
	r, err := sim.ParseRules(rsrc, rdata)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: key rules: %w", source, err)
	}
	var msrc string
	var mdata []byte
	if mapArg == "" {
		msrc, mdata, err = r.MapSource()
	} else {
		msrc, mdata, err = sim.MapSource(sim.ConfigPath(source, mapArg))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: key map: %w", source, err)
	}
	m, err := sim.ParseMap(msrc, mdata)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: key map: %w", source, err)
	}
	if err := r.Validate(m); err != nil {
		return nil, nil, fmt.Errorf("%s: keys rules, map: %w", source, err)
	}
	return r, m, nil
}

// CheckPlayers checks an experiment config's players key: present and
// 2..6. bad makes the error naming the file ([configs.KeyErrors]).
func CheckPlayers(bad func(key, format string, a ...any) error, players *int) error {
	switch {
	case players == nil:
		return bad("players", "missing: want the players per game, 2..6")
	case *players < sim.MinPlayers || *players > sim.MaxPlayers:
		return bad("players", "%d: want %d..%d", *players, sim.MinPlayers, sim.MaxPlayers)
	}
	return nil
}

// CheckSeedRules checks an experiment config's seed key (present, >= 0)
// and its rules key (present). bad makes the error naming the file
// ([configs.KeyErrors]).
func CheckSeedRules(bad func(key, format string, a ...any) error, seed *int64, rules string) error {
	switch {
	case seed == nil:
		return bad("seed", "missing: want an integer >= 0")
	case *seed < 0:
		return bad("seed", "%d: want >= 0", *seed)
	case rules == "":
		return bad("rules", "missing: want an embedded rule set (%s) or a TOML file", strings.Join(configs.RulesNames(), ", "))
	}
	return nil
}
