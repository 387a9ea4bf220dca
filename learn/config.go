package learn

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/sim"
)

// Config describes an environment: the game, the learner's seat, its
// actions, the opponents, the observation and the rewards.
type Config struct {
	// Source names the config in errors: its file, or "FILE [env]" for the
	// [env] table of an experiment config. parseConfig and ParseExperiment
	// set it; "" reads as "env config". It is no setting: fingerprints
	// leave it out.
	Source string `json:"-"`
	// File is the config file read: a relative Rules file is relative to
	// its folder; "" (a config built in code) is the working directory. It
	// is no setting: fingerprints leave it out.
	File string `json:"-"`
	// Rules is the rule set: an embedded name ("fixedcards", the paper's
	// environment, is the default) or a TOML file, relative to the config
	// file's folder ([sim.ConfigPath]). The game is played on the map the
	// rules name.
	Rules string
	// Players is the number of seats, 2..6 (the paper: 4).
	Players int
	// Seat is the learner's seat, 0..Players-1, or -1 for a seat drawn
	// uniformly per episode (the paper: 0, the first to move).
	Seat int
	// Actions are the bots the learner chooses from at each turn, as seat
	// specifications ([bots.Registry.ParseSeat]): action i plays the whole turn
	// when the learner picks i. The paper: passive, pacifist, aggressive.
	Actions []string
	// Opponents are the bots an opponent seat is drawn from, uniformly and
	// independently per seat and episode; the drawn bot plays the whole
	// game. The paper: passive, pacifist, aggressive.
	Opponents []string
	// Features lists the observation's features by name, in order (see
	// featureNames); the paper observes "territories" alone.
	Features []string
	// Rewards is the reward scheme.
	Rewards Rewards
}

// Rewards is a reward scheme, after Sciberras (2022), section 4.2. The
// paper gives the per-turn cost only through its printed returns (-200
// over 200 steps: -1 a turn) and the placement rewards at the turn cap
// (250, 100, 0, -50 by rank in territories); "large positive", "small
// negative" and "large negative" for a win, a loss while alive and an
// elimination are given values here (500, -100, -500). Every reward is in
// [-maxReward, maxReward].
type Rewards struct {
	// PerTurn is added at every step (the paper: -1, "to deter from
	// stalling a win").
	PerTurn float64
	// Win is added when the learner wins.
	Win float64
	// Loss is added when another seat wins while the learner is alive
	// (possible under missions rules).
	Loss float64
	// Eliminated is added when the learner is eliminated.
	Eliminated float64
	// Placement[k] is added at the round limit (a stalemate) when k seats
	// own more territories than the learner (ties rank the learner higher,
	// as the paper's comparison does); one entry per seat.
	Placement []float64
}

// DefaultConfig returns the paper's set-up: four players on the rules
// "fixedcards" (the paper's environment, cut off after 200 rounds), the
// learner in seat 0 choosing passive, pacifist or aggressive each turn
// against three opponents drawn from the same three, every feature
// observed, and defaultRewards.
func DefaultConfig() *Config {
	return &Config{
		Rules:     "fixedcards",
		Players:   4,
		Seat:      0,
		Actions:   []string{"passive", "pacifist", "aggressive"},
		Opponents: []string{"passive", "pacifist", "aggressive"},
		Features:  slices.Clone(defaultFeatures),
		Rewards:   defaultRewards(),
	}
}

// defaultRewards returns the default reward scheme (see Rewards).
func defaultRewards() Rewards {
	return Rewards{PerTurn: -1, Win: 500, Loss: -100, Eliminated: -500, Placement: []float64{250, 100, 0, -50}}
}

// ConfigFile is the TOML form of a Config (see parseConfig); absent keys
// keep the defaults. An experiment file embeds it as its [env] table.
type ConfigFile struct {
	Rules     *string    `toml:"rules"`
	Players   *int       `toml:"players"`
	Seat      *int       `toml:"seat"`
	Actions   []string   `toml:"actions"`
	Opponents []string   `toml:"opponents"`
	Features  []string   `toml:"features"`
	Rewards   rewardFile `toml:"rewards"`
}

type rewardFile struct {
	PerTurn    *float64  `toml:"per_turn"`
	Win        *float64  `toml:"win"`
	Loss       *float64  `toml:"loss"`
	Eliminated *float64  `toml:"eliminated"`
	Placement  []float64 `toml:"placement"`
}

// parseConfig parses an environment config (TOML; every key optional, the
// defaults are [DefaultConfig]'s):
//
//	rules     = "fixedcards"                           # embedded rule set or TOML file
//	players   = 4                                      # 2..6
//	seat      = 0                                      # learner's seat, or -1: drawn per episode
//	actions   = ["passive", "pacifist", "aggressive"]  # seat specs, 2..64 of them
//	opponents = ["passive", "pacifist", "aggressive"]  # seat specs, >= 1
//	features  = ["territories", "armies", "continents", "cards", "round", "threat"]
//
//	[rewards]
//	per_turn   = -1.0
//	win        = 500.0
//	loss       = -100.0   # another seat wins, the learner alive
//	eliminated = -500.0
//	placement  = [250.0, 100.0, 0.0, -50.0]   # one per seat, by rank in territories at the round limit
//
// source names the data in errors; an unknown key or a value out of range
// is an error naming source, the key and the allowed values.
func parseConfig(source string, data []byte) (*Config, error) {
	var f ConfigFile
	if _, err := configs.DecodeStrict(source, data, &f); err != nil {
		return nil, err
	}
	return f.Config(source, "")
}

// LoadConfig reads an environment config from a file (see parseConfig).
func LoadConfig(path string) (*Config, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("env config: %w", err)
	}
	return parseConfig(path, data)
}

// Config checks f and returns its Config; prefix is prepended to key names
// in errors ("env." inside an experiment file).
func (f *ConfigFile) Config(source, prefix string) (*Config, error) {
	c := DefaultConfig()
	c.Source = source
	c.File = source
	if prefix != "" {
		c.Source = source + " [" + strings.TrimSuffix(prefix, ".") + "]"
	}
	bad := func(key, format string, a ...any) error {
		return fmt.Errorf("%s: key %s%s: %s", source, prefix, key, fmt.Sprintf(format, a...))
	}
	if f.Rules != nil {
		if *f.Rules == "" {
			return nil, bad("rules", "empty: want an embedded rule set (%s) or a TOML file", strings.Join(configs.RulesNames(), ", "))
		}
		c.Rules = *f.Rules
	}
	if f.Players != nil {
		if *f.Players < sim.MinPlayers || *f.Players > sim.MaxPlayers {
			return nil, bad("players", "%d: want %d..%d", *f.Players, sim.MinPlayers, sim.MaxPlayers)
		}
		c.Players = *f.Players
		if f.Rewards.Placement == nil && c.Players != len(c.Rewards.Placement) {
			return nil, bad("rewards.placement", "missing: the default has 4 entries, players = %d needs one per seat", c.Players)
		}
	}
	if f.Seat != nil {
		if *f.Seat < -1 || *f.Seat >= c.Players {
			return nil, bad("seat", "%d: want -1 (drawn per episode) or 0..%d", *f.Seat, c.Players-1)
		}
		c.Seat = *f.Seat
	}
	if f.Actions != nil {
		if len(f.Actions) < 2 || len(f.Actions) > maxActions {
			return nil, bad("actions", "%d entries: want 2..%d seat specifications", len(f.Actions), maxActions)
		}
		c.Actions = f.Actions
	}
	if f.Opponents != nil {
		if len(f.Opponents) < 1 {
			return nil, bad("opponents", "empty: want at least one seat specification")
		}
		c.Opponents = f.Opponents
	}
	for _, list := range []struct {
		key string
		v   []string
	}{{"actions", c.Actions}, {"opponents", c.Opponents}} {
		for i, s := range list.v {
			if strings.TrimSpace(s) == "" {
				return nil, bad(list.key, "entry %d is empty", i)
			}
			// The learner's choices and the pool opponents are drawn from
			// are sets: a repeated entry would be a second action of the
			// same bot, or drawn twice as often.
			if j := slices.Index(list.v[:i], s); j >= 0 {
				return nil, bad(list.key, "%q listed twice (entries %d and %d)", s, j, i)
			}
		}
	}
	if f.Features != nil {
		if len(f.Features) == 0 {
			return nil, bad("features", "empty: want some of %s", strings.Join(featureNames(), ", "))
		}
		for i, n := range f.Features {
			if !slices.Contains(featureNames(), n) {
				return nil, bad("features", "entry %d %q: want one of %s", i, n, strings.Join(featureNames(), ", "))
			}
			if j := slices.Index(f.Features[:i], n); j >= 0 {
				return nil, bad("features", "%q listed twice (entries %d and %d)", n, j, i)
			}
		}
		c.Features = f.Features
	}
	r := &f.Rewards
	for _, v := range []struct {
		key string
		src *float64
		dst *float64
	}{{"rewards.per_turn", r.PerTurn, &c.Rewards.PerTurn}, {"rewards.win", r.Win, &c.Rewards.Win},
		{"rewards.loss", r.Loss, &c.Rewards.Loss}, {"rewards.eliminated", r.Eliminated, &c.Rewards.Eliminated}} {
		if v.src == nil {
			continue
		}
		if !rewardOK(*v.src) {
			return nil, bad(v.key, "%v: want a number in [-%g, %g]", *v.src, maxReward, maxReward)
		}
		*v.dst = *v.src
	}
	if r.Placement != nil {
		if len(r.Placement) != c.Players {
			return nil, bad("rewards.placement", "%d entries: want one per seat, players = %d", len(r.Placement), c.Players)
		}
		for i, v := range r.Placement {
			if !rewardOK(v) {
				return nil, bad("rewards.placement", "entry %d %v: want a number in [-%g, %g]", i, v, maxReward, maxReward)
			}
		}
		c.Rewards.Placement = r.Placement
	}
	return c, nil
}

// maxActions is the largest action space an environment offers.
const maxActions = 64

// maxReward bounds the absolute value of every reward of a Rewards scheme,
// so that an episode's return (a sum of at most one reward a step) stays
// a finite number that a reply of Serve can write as JSON.
const maxReward = 1e6

// rewardOK reports whether x is a reward in [-maxReward, maxReward].
func rewardOK(x float64) bool { return x >= -maxReward && x <= maxReward }

// check reports a reward of r outside [-maxReward, maxReward], naming its
// key.
func (r Rewards) check() error {
	for _, v := range []struct {
		key string
		x   float64
	}{{"rewards.per_turn", r.PerTurn}, {"rewards.win", r.Win}, {"rewards.loss", r.Loss}, {"rewards.eliminated", r.Eliminated}} {
		if !rewardOK(v.x) {
			return fmt.Errorf("%s: %v: want a number in [-%g, %g]", v.key, v.x, maxReward, maxReward)
		}
	}
	for i, x := range r.Placement {
		if !rewardOK(x) {
			return fmt.Errorf("rewards.placement: entry %d %v: want a number in [-%g, %g]", i, x, maxReward, maxReward)
		}
	}
	return nil
}

// setup is a Config resolved against a registry: the rules, the map and
// the parsed seats.
type setup struct {
	cfg       *Config
	rules     *sim.Rules
	m         *sim.Map
	actions   []bots.Seat
	opponents []bots.Seat
	features  []feature
	names     []string
}

// resolve loads the rules and map and parses the seats with reg.
func (c *Config) resolve(reg *bots.Registry) (*setup, error) {
	if reg == nil {
		return nil, errors.New("learn: no bot registry (nil *bots.Registry)")
	}
	src := c.Source
	if src == "" {
		src = "env config"
	}
	src += ": key "
	if len(c.Rewards.Placement) != c.Players {
		return nil, fmt.Errorf("%srewards.placement: %d entries: want one per seat, players = %d", src, len(c.Rewards.Placement), c.Players)
	}
	if err := c.Rewards.check(); err != nil {
		return nil, fmt.Errorf("%s%w", src, err)
	}
	if c.Seat < -1 || c.Seat >= c.Players {
		return nil, fmt.Errorf("%sseat: %d: want -1 or 0..%d", src, c.Seat, c.Players-1)
	}
	if len(c.Actions) < 2 || len(c.Actions) > maxActions {
		return nil, fmt.Errorf("%sactions: %d entries: want 2..%d", src, len(c.Actions), maxActions)
	}
	if len(c.Opponents) == 0 {
		return nil, fmt.Errorf("%sopponents: empty: want at least one", src)
	}
	s := &setup{cfg: c}
	var err error
	if s.rules, err = sim.LoadRules(sim.ConfigPath(c.File, c.Rules)); err != nil {
		return nil, fmt.Errorf("%srules: %w", src, err)
	}
	if s.m, err = s.rules.LoadMap(); err != nil {
		return nil, fmt.Errorf("%srules: %s: %w", src, c.Rules, err)
	}
	for i, spec := range c.Actions {
		seat, err := reg.ParseSeat(spec, nil)
		if err != nil {
			return nil, fmt.Errorf("%sactions: entry %d: %w", src, i, err)
		}
		s.actions = append(s.actions, seat)
	}
	for i, spec := range c.Opponents {
		seat, err := reg.ParseSeat(spec, nil)
		if err != nil {
			return nil, fmt.Errorf("%sopponents: entry %d: %w", src, i, err)
		}
		s.opponents = append(s.opponents, seat)
	}
	if s.features, s.names, err = features(c.Features, s.m); err != nil {
		return nil, fmt.Errorf("%sfeatures: %w", src, err)
	}
	return s, nil
}
