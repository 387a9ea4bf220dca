package tourney

import (
	"fmt"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/arena"
	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/gameconf"
	"github.com/marslab-risk/marslab/sim"
)

// Config is a tournament as its TOML file describes it.
type Config struct {
	// Source names the file the config came from, for messages.
	Source string
	// Bots are the seat specifications of the field (registry syntax:
	// NAME, NAME(K=V), NAME@SET), at least Players of them, with distinct
	// labels.
	Bots []string
	// Players is the number of players per game, 2..6.
	Players int
	// Replications is the number of games played by every line-up,
	// 1..MaxGames (and C(len(Bots), Players) x Replications <= maxGames).
	Replications int
	// Rules is the rule set: an embedded name or a TOML file (a relative
	// path is read relative to the config file's directory).
	Rules string
	// Map is the map, an embedded name or a TOML file; "" means the
	// rules' own map.
	Map string
	// Seed is the experiment seed: it decides every seating and deal.
	Seed uint64
	// Out is the default output directory.
	Out string
}

// Limits of a tournament. Its report reads every game's record into
// memory, so the games are bounded.
const (
	// maxBots bounds the field (key bots).
	maxBots = 64
	// maxGames bounds the games: C(bots, players) x replications.
	maxGames = 10_000_000
)

// file is the TOML layout of a config file.
type file struct {
	Bots         []string `toml:"bots"`
	Players      *int     `toml:"players"`
	Replications *int     `toml:"replications"`
	Rules        string   `toml:"rules"`
	Map          string   `toml:"map"`
	Seed         *int64   `toml:"seed"`
	Out          string   `toml:"out"`
}

// Load reads and checks the config file at path (see Parse).
func Load(path string) (*Config, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("tourney: %w", err)
	}
	return Parse(path, data)
}

// Parse parses and checks a config; source names it in errors, and the
// directory of source anchors relative rules and map paths. Every key but
// map and out is required; unknown keys are errors. The bot names are
// checked against a registry by Resolve, not here.
func Parse(source string, data []byte) (*Config, error) {
	var f file
	if _, err := configs.DecodeStrict(source, data, &f); err != nil {
		return nil, err
	}
	bad := configs.KeyErrors(source)
	if err := gameconf.CheckPlayers(bad, f.Players); err != nil {
		return nil, err
	}
	switch {
	case f.Replications == nil:
		return nil, bad("replications", "missing: want the games per line-up, >= 1")
	case *f.Replications < 1 || *f.Replications > maxGames:
		return nil, bad("replications", "%d: want 1..%d", *f.Replications, maxGames)
	}
	if err := gameconf.CheckSeedRules(bad, f.Seed, f.Rules); err != nil {
		return nil, err
	}
	switch {
	case len(f.Bots) < *f.Players || len(f.Bots) > maxBots:
		return nil, bad("bots", "%d bots: want %d..%d (at least players = %d)", len(f.Bots), *f.Players, maxBots, *f.Players)
	}
	for i, b := range f.Bots {
		if strings.TrimSpace(b) == "" {
			return nil, bad("bots", "entry %d is empty", i)
		}
		if j := slices.Index(f.Bots[:i], b); j >= 0 {
			return nil, bad("bots", "%q listed twice (entries %d and %d)", b, j, i)
		}
	}
	sched, err := arena.NewSubsets(len(f.Bots), *f.Players, *f.Replications, uint64(*f.Seed))
	if err != nil {
		return nil, fmt.Errorf("%s: keys bots, players, replications: %w", source, err)
	}
	if g := sched.Games(); g > maxGames {
		return nil, fmt.Errorf("%s: keys bots, players, replications: C(%d,%d) line-ups x %d replications = %d games: want at most %d",
			source, len(f.Bots), *f.Players, *f.Replications, g, maxGames)
	}
	return &Config{Source: source, Bots: f.Bots, Players: *f.Players, Replications: *f.Replications,
		Rules: f.Rules, Map: f.Map, Seed: uint64(*f.Seed), Out: f.Out}, nil
}

// Games returns the number of games of the tournament:
// C(len(Bots), Players) · Replications.
func (c *Config) Games() int {
	s, err := c.schedule()
	if err != nil {
		return 0
	}
	return s.Games()
}

// schedule returns the tournament's schedule: every Players-subset of the
// bots, Replications times, seated at random from Seed.
func (c *Config) schedule() (*arena.Subsets, error) {
	return arena.NewSubsets(len(c.Bots), c.Players, c.Replications, c.Seed)
}

// Setup is a resolved tournament: its map, rules and seats.
type Setup struct {
	Map   *sim.Map
	Rules *sim.Rules
	Seats []bots.Seat
}

// Resolve loads the rules and the map and parses the bots with reg. A bot
// name reg does not know is an error naming the file, the key and the
// registered bots.
func (c *Config) Resolve(reg *bots.Registry) (*Setup, error) {
	var s Setup
	var err error
	if s.Rules, s.Map, err = gameconf.Load(c.Source, c.Rules, c.Map); err != nil {
		return nil, err
	}
	labels := make(map[string]int, len(c.Bots))
	for i, spec := range c.Bots {
		seat, err := reg.ParseSeat(spec, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key bots: entry %d: %w", c.Source, i, err)
		}
		if j, ok := labels[seat.Label]; ok {
			return nil, fmt.Errorf("%s: key bots: entries %d and %d share the label %q", c.Source, j, i, seat.Label)
		}
		labels[seat.Label] = i
		s.Seats = append(s.Seats, seat)
	}
	return &s, nil
}
