// Package recognition runs the recognition experiment of Khan & Rovatsos
// (2013), section 5, on simulated games: mission-mode games of mission-aware
// bots (arms such as six mission(w=4), six mission(w=100) and six
// constrained bots), every player watched by four recognisers (plain PHATT,
// PHATT with the state-dependent weights of section 6.0.3, and the
// data-driven recogniser of package recog, trained on separate games, with
// its joint and its choice likelihoods), and the predictions at every 5 % of
// each game scored against the true cards: the paper's appendix tables
// (correct and incorrect at 25/50/75/100 % of the game, winners and losers
// apart, accuracy per mission) with Wilson intervals, the random-guess
// baseline, and paired comparisons of the recognisers.
//
// Every game's random streams derive from (seed, arm, game) alone, so the
// results are byte-identical for any number of workers or shards; Run writes
// one line per game, in order, to games.jsonl, resumes an interrupted run
// from it, and plays one shard of the games (Options.Shard); Merge joins
// the shards.
package recognition

import (
	"fmt"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/recog"
	"github.com/marslab-risk/marslab/sim"
)

// Config is an experiment as its TOML file describes it:
//
//	rules = "phatt-missions.toml"   # embedded name or file (relative to this file)
//	seed = 15                       # the test games' streams
//	train_seed = 16                 # the training games' streams (differs from seed)
//	games = 500                     # test games per arm, 1..1000000
//	train_games = 500               # training games per arm, 0..1000000 (0: no data-driven recogniser)
//	out = "results/phatt"           # default output folder
//
//	[[arms]]
//	name = "mission-w4"             # [A-Za-z0-9_-]+
//	players = "mission(w=4),mission(w=4),mission(w=4),mission(w=4),mission(w=4),mission(w=4)"
//
//	[phatt]                         # recog.Params; every key optional (recog.DefaultParams)
//	w_success = 0.02
//	w_failed = 0.01
//	up = 1.02
//	down = 0.98
//	state_scale = 5
//
//	[data]
//	alpha = 1                       # the data model's smoothing, > 0
//	per_arm = false                 # one model per arm (true) or one of every arm's games
type Config struct {
	// Source names the file, for messages.
	Source string
	// Rules is the rule set (mission mode, with continent cards).
	Rules string
	// Seed and TrainSeed are the experiment seeds of the test and training
	// games.
	Seed, TrainSeed uint64
	// Games and TrainGames are the test and training games per arm.
	Games, TrainGames int
	// Out is the default output folder.
	Out string
	// Arms are the line-ups.
	Arms []Arm
	// Params are PHATT's weights (StateWeights is set by the experiment for
	// its second recogniser).
	Params recog.Params
	// Alpha is the data model's smoothing.
	Alpha float64
	// PerArm trains one data model per arm (on that arm's games) instead
	// of one on every arm's.
	PerArm bool
}

// Arm is one line-up of the experiment.
type Arm struct {
	// Name names the arm in tables, e.g. "mission-w4".
	Name string `toml:"name"`
	// Players is the seat list (registry syntax), 2..6 seats.
	Players string `toml:"players"`
}

// Bounds of the config.
const (
	MaxGames = 1_000_000
	maxArms  = 16
)

type fileConfig struct {
	Rules      string `toml:"rules"`
	Seed       *int64 `toml:"seed"`
	TrainSeed  *int64 `toml:"train_seed"`
	Games      int    `toml:"games"`
	TrainGames int    `toml:"train_games"`
	Out        string `toml:"out"`
	Arms       []Arm  `toml:"arms"`
	PHATT      struct {
		WSuccess   *float64 `toml:"w_success"`
		WFailed    *float64 `toml:"w_failed"`
		Up         *float64 `toml:"up"`
		Down       *float64 `toml:"down"`
		StateScale *float64 `toml:"state_scale"`
	} `toml:"phatt"`
	Data struct {
		Alpha  *float64 `toml:"alpha"`
		PerArm bool     `toml:"per_arm"`
	} `toml:"data"`
}

// Load reads and checks the experiment config at path.
func Load(path string) (*Config, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, err
	}
	return parse(path, data)
}

// parse reads and checks an experiment config; source names it in errors,
// which name the key and its allowed range.
func parse(source string, data []byte) (*Config, error) {
	var f fileConfig
	if _, err := configs.DecodeStrict(source, data, &f); err != nil {
		return nil, err
	}
	fail := configs.KeyErrors(source)
	c := &Config{Source: source, Rules: f.Rules, Games: f.Games, TrainGames: f.TrainGames, Out: f.Out,
		Arms: f.Arms, Params: recog.DefaultParams(), Alpha: 1}
	switch {
	case f.Rules == "":
		return nil, fail("rules", "missing (an embedded rule set or a TOML file)")
	case f.Seed == nil:
		return nil, fail("seed", "missing (an integer >= 0)")
	case *f.Seed < 0:
		return nil, fail("seed", "%d: want >= 0", *f.Seed)
	case f.TrainSeed == nil:
		return nil, fail("train_seed", "missing (an integer >= 0 other than seed)")
	case *f.TrainSeed < 0:
		return nil, fail("train_seed", "%d: want >= 0", *f.TrainSeed)
	case *f.TrainSeed == *f.Seed:
		return nil, fail("train_seed", "%d: must differ from seed, so that the training games are not the test games", *f.TrainSeed)
	case f.Games < 1 || f.Games > MaxGames:
		return nil, fail("games", "%d outside [1, %d]", f.Games, MaxGames)
	case f.TrainGames < 0 || f.TrainGames > MaxGames:
		return nil, fail("train_games", "%d outside [0, %d]", f.TrainGames, MaxGames)
	case len(f.Arms) < 1 || len(f.Arms) > maxArms:
		return nil, fail("arms", "%d arms, want 1 to %d", len(f.Arms), maxArms)
	}
	c.Seed, c.TrainSeed = uint64(*f.Seed), uint64(*f.TrainSeed)
	for i, a := range f.Arms {
		key := fmt.Sprintf("arms[%d]", i)
		if !validName(a.Name) {
			return nil, fail(key+".name", "%q: want [A-Za-z0-9_-]+", a.Name)
		}
		for _, b := range f.Arms[:i] {
			if b.Name == a.Name {
				return nil, fail(key+".name", "%q: used twice", a.Name)
			}
		}
		if a.Players == "" {
			return nil, fail(key+".players", "missing (a seat list)")
		}
	}
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	p := &c.Params
	set(&p.WSuccess, f.PHATT.WSuccess)
	set(&p.WFailed, f.PHATT.WFailed)
	set(&p.Up, f.PHATT.Up)
	set(&p.Down, f.PHATT.Down)
	set(&p.StateScale, f.PHATT.StateScale)
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: key phatt.%s", source, strings.TrimPrefix(err.Error(), "recog: "))
	}
	set(&c.Alpha, f.Data.Alpha)
	c.PerArm = f.Data.PerArm
	if !(c.Alpha > 0 && c.Alpha <= 1e6) {
		return nil, fail("data.alpha", "%v outside (0, 1e6]", c.Alpha)
	}
	return c, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// Setup is a config resolved against the rules, the map and a registry.
type Setup struct {
	Rules *sim.Rules
	Map   *sim.Map
	// Seats[a] are arm a's seats.
	Seats [][]bots.Seat
	// Cards are the continent cards the recognisers know (recog.Cards).
	Cards []int
}

// Resolve loads the rules and map and parses every arm's seats with reg.
// The rules must be mission mode with at least one continent card and as
// many cards as the largest arm has seats.
func (c *Config) Resolve(reg *bots.Registry) (*Setup, error) {
	r, err := sim.LoadRules(sim.ConfigPath(c.Source, c.Rules))
	if err != nil {
		return nil, fmt.Errorf("%s: key rules: %w", c.Source, err)
	}
	if r.End.Win != sim.WinMissions {
		return nil, fmt.Errorf("%s: key rules: %q is not a mission rule set (end.win = %q)", c.Source, c.Rules, r.End.Win)
	}
	m, err := r.LoadMap()
	if err != nil {
		return nil, fmt.Errorf("%s: key rules: %w", c.Source, err)
	}
	exps, err := recog.Explanations(m, r.Missions)
	if err != nil {
		return nil, fmt.Errorf("%s: key rules: %w", c.Source, err)
	}
	s := &Setup{Rules: r, Map: m, Cards: recog.Cards(exps)}
	for i, a := range c.Arms {
		seats, err := reg.ParseSeats(a.Players, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key arms[%d].players: %w", c.Source, i, err)
		}
		if len(seats) < sim.MinPlayers || len(seats) > sim.MaxPlayers || len(seats) > len(r.Missions) {
			return nil, fmt.Errorf("%s: key arms[%d].players: %d seats: want %d to %d", c.Source, i, len(seats), sim.MinPlayers, min(sim.MaxPlayers, len(r.Missions)))
		}
		s.Seats = append(s.Seats, seats)
	}
	return s, nil
}
