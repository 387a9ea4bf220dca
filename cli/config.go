package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// gameConfig is a loaded map and rule set with the texts they came from.
type gameConfig struct {
	Map       *sim.Map
	Rules     *sim.Rules
	MapName   string
	RulesName string
	MapTOML   []byte
	RulesTOML []byte
}

// loadConfig loads rules (embedded name or file) and a map (embedded name,
// file, or "" for the rules' own map), keeping the texts for logs.
func loadConfig(rulesArg, mapArg string) (*gameConfig, error) {
	c := &gameConfig{RulesName: rulesArg}
	src, data, err := sim.RulesSource(rulesArg)
	if err != nil {
		return nil, fmt.Errorf("-rules: %w", err)
	}
	c.RulesTOML = data
	if c.Rules, err = sim.ParseRules(src, data); err != nil {
		return nil, err
	}
	if mapArg == "" {
		c.MapName = c.Rules.MapPath()
		if src, data, err = c.Rules.MapSource(); err != nil {
			return nil, err
		}
	} else {
		c.MapName = mapArg
		if src, data, err = sim.MapSource(mapArg); err != nil {
			return nil, fmt.Errorf("-map: %w", err)
		}
	}
	c.MapTOML = data
	if c.Map, err = sim.ParseMap(src, data); err != nil {
		return nil, err
	}
	if err := c.Rules.Validate(c.Map); err != nil {
		return nil, err
	}
	return c, nil
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseSeats parses -players and -param into seats.
func parseSeats(reg *bots.Registry, players string, params []string) ([]bots.Seat, error) {
	over, err := bots.ParseOverrides(params)
	if err != nil {
		return nil, fmt.Errorf("-param: %w", err)
	}
	seats, err := reg.ParseSeats(players, over)
	if err != nil {
		return nil, fmt.Errorf("-players: %w", err)
	}
	if len(seats) < sim.MinPlayers || len(seats) > sim.MaxPlayers {
		return nil, fmt.Errorf("-players: %d seats: must be %d..%d", len(seats), sim.MinPlayers, sim.MaxPlayers)
	}
	return seats, nil
}

// gameFlags are the flags of every command that seats bots on a map under
// a rule set: -players, -rules, -map and -param.
type gameFlags struct {
	players string
	rules   string
	mapArg  string
	params  multiFlag
}

// addGameFlags defines the shared flags on fs; seating explains how the
// seats are used by the command.
func addGameFlags(fs *flag.FlagSet, seating string) *gameFlags {
	f := &gameFlags{}
	fs.StringVar(&f.players, "players", defaultPlayers, "comma-separated seat specs (2..6 seats): NAME, NAME(K=V;...), NAME@SET (embedded, e.g. mars@paper) or NAME@params.toml; "+seating)
	fs.StringVar(&f.rules, "rules", "mars2006", "rule set: embedded name (classic, mars2006, mars2006-escalating, lux, lux-escalating, fixedcards, missions) or TOML file")
	fs.StringVar(&f.mapArg, "map", "", "map: embedded name or TOML file (default: the rules' map)")
	fs.Var(&f.params, "param", "set a bot parameter for every seat of that bot, BOT.NAME=VALUE (repeatable)")
	return f
}

// load loads the configuration and parses the seats with reg.
func (f *gameFlags) load(reg *bots.Registry) (*gameConfig, []bots.Seat, error) {
	cfg, err := loadConfig(f.rules, f.mapArg)
	if err != nil {
		return nil, nil, err
	}
	seats, err := parseSeats(reg, f.players, f.params)
	if err != nil {
		return nil, nil, err
	}
	return cfg, seats, nil
}
