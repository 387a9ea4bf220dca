package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/configs"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/gameconf"
	"github.com/marslab-risk/marslab/internal/textfmt"
)

// Config is a search as its TOML file describes it:
//
//	name = "narrow-wp-pob"            # the default output folder is results/NAME
//	base = "mars@paper"               # the searched bot and the values of the rest
//	players = 4                       # seats per game, 2..6
//	opponents = ["angry", "communist", "shaft"]  # a fixed line-up of players-1
//	sample = false                    # true: sample players-1 of opponents per block
//	rules = "mars2006"                # embedded rule set or TOML file
//	seed = 1
//
//	[[param]]                         # one per searched parameter
//	name = "W_p"
//	min = 0.5                         # default: the parameter's bounds
//	max = 0.95
//	points = 7                        # narrowing grid points per level
//
//	[narrow]                          # marslab sweep
//	levels = 3
//	rounds = 3
//	blocks = 4
//	alpha = 0.05
//	margin = 1
//	zoom = 0.5
//
//	[cmaes]                           # marslab evolve
//	generations = 20
//	...
//
//	[validate]                        # marslab validate and the report's validation
//	against = "mars@paper"
//	blocks = 100
//
// Instead of players, opponents, sample, rules and map, a search may play
// a mixture of conditions, each block drawing one from the seed and the block alone:
//
//	[[condition]]
//	name = "escalating-4p"            # default: RULES/Np
//	rules = "mars2006-escalating"
//	players = 4
//	opponents = ["evilpixie", "pixie", "shaft", "bort", "boscoe"]
//	sample = true
//	weight = 1                        # relative share of the blocks, > 0
type Config struct {
	// Source names the file, for messages; its folder anchors relative
	// rules and map paths.
	Source string
	// Name names the search (default output folder results/NAME).
	Name string
	// Base is the seat specification of the searched bot with the values
	// of every parameter not searched.
	Base string
	// Players is the number of seats per game, 2..6.
	Players int
	// Opponents are seat specifications: the fixed line-up (Players-1) or,
	// with Sample, the pool line-ups are drawn from.
	Opponents []string
	Sample    bool
	// Rules and Map name the rule set and map (Map "" = the rules' map).
	Rules, Map string
	// Seed is the experiment seed.
	Seed uint64
	// Params are the searched parameters.
	Params []ParamRange
	// Conditions are the [[condition]] tables of a mixture field (empty
	// for a field of one condition, which the keys above describe).
	Conditions []ConditionSection
	// Narrow, CMAES, SPSA, Surrogate, Halving and Validate are the method
	// tables [narrow], [cmaes], [spsa], [surrogate], [halving] and
	// [validate] (nil when absent; their keys are in docs/search.md).
	Narrow    *narrowSection
	CMAES     *cmaesSection
	SPSA      *spsaSection
	Surrogate *surrogateSection
	Halving   *halvingSection
	Validate  *validateSection
}

// ParamRange is one [[param]] entry: a parameter name, the searched range
// (default: the parameter's bounds) and its narrowing grid points (0 = the
// [narrow] default).
type ParamRange struct {
	Name   string   `toml:"name" json:"name"`
	Min    *float64 `toml:"min" json:"min,omitempty"`
	Max    *float64 `toml:"max" json:"max,omitempty"`
	Points int      `toml:"points" json:"points,omitempty"`
}

// ConditionSection is one [[condition]] table: a condition of a mixture
// field (see Condition).
type ConditionSection struct {
	// Name names the condition (default "RULES/Np", RULES the rules key's
	// base name without .toml).
	Name string `toml:"name" json:"name"`
	// Rules and Map name the rule set and map (Map "" = the rules' map).
	Rules string `toml:"rules" json:"rules"`
	Map   string `toml:"map" json:"map,omitempty"`
	// Players is the number of seats, 2..6.
	Players int `toml:"players" json:"players"`
	// Opponents and Sample are as the top-level keys.
	Opponents []string `toml:"opponents" json:"opponents"`
	Sample    bool     `toml:"sample" json:"sample"`
	// Weight is the relative share of the blocks, > 0 (0 = 1).
	Weight float64 `toml:"weight" json:"weight"`
}

// narrowSection is the [narrow] table (see NarrowConfig).
type narrowSection struct {
	Levels int     `toml:"levels" json:"levels"`
	Rounds int     `toml:"rounds" json:"rounds"`
	Blocks int     `toml:"blocks" json:"blocks"`
	Points int     `toml:"points" json:"points"`
	Alpha  float64 `toml:"alpha" json:"alpha"`
	Margin float64 `toml:"margin" json:"margin"`
	Zoom   float64 `toml:"zoom" json:"zoom"`
	// Reference plays the base seat's values beside the cells in every
	// racing round (NarrowConfig.Reference); Fit centres a cut window on
	// the fitted optimum (NarrowConfig.Fit).
	Reference bool `toml:"reference" json:"reference,omitempty"`
	Fit       bool `toml:"fit" json:"fit,omitempty"`
	// Halve sets aside the worse half of the cells after every round but
	// a level's last and doubles the blocks of each round
	// (NarrowConfig.Halve).
	Halve bool `toml:"halve" json:"halve,omitempty"`
}

// cmaesSection is the [cmaes] table (see EvolveConfig).
type cmaesSection struct {
	// Generations is the number of generations, >= 1.
	Generations int `toml:"generations" json:"generations"`
	// Lambda is the population size (0 = 4 + floor(3 ln d)).
	Lambda int `toml:"lambda" json:"lambda"`
	// Sigma is the initial step size in normalised coordinates, in (0, 1]
	// (0 = 0.3).
	Sigma float64 `toml:"sigma" json:"sigma"`
	// Blocks is the number of blocks each candidate plays per generation
	// at first, maxBlocks the most the uncertainty handling may ask for
	// (0 = 4 x blocks).
	Blocks    int `toml:"blocks" json:"blocks"`
	MaxBlocks int `toml:"max_blocks" json:"max_blocks"`
	// Reeval turns on the UH-CMA-ES re-evaluation of part of each
	// generation on fresh blocks.
	Reeval bool `toml:"reeval" json:"reeval"`
	// MeanBlocks is the number of blocks the distribution mean plays each
	// generation (0 = blocks); FinalBlocks those of the final mean
	// (0 = 10 x blocks).
	MeanBlocks  int `toml:"mean_blocks" json:"mean_blocks"`
	FinalBlocks int `toml:"final_blocks" json:"final_blocks"`
	// Noise is what the uncertainty handling does to sigma once the
	// blocks are at max_blocks and noise still dominates: "sigma"
	// (UH-CMA-ES: increase), "evals" (leave), "decay" (decrease); "" =
	// "sigma".
	Noise string `toml:"noise" json:"noise,omitempty"`
}

// spsaSection is the [spsa] table (see spsaConfig).
type spsaSection struct {
	Iterations  int     `toml:"iterations" json:"iterations"`
	Blocks      int     `toml:"blocks" json:"blocks"`
	A           float64 `toml:"a" json:"a"`
	C           float64 `toml:"c" json:"c"`
	BigA        float64 `toml:"big_a" json:"big_a"`
	Alpha       float64 `toml:"alpha" json:"alpha"`
	Gamma       float64 `toml:"gamma" json:"gamma"`
	Average     float64 `toml:"average" json:"average"`
	FinalBlocks int     `toml:"final_blocks" json:"final_blocks"`
}

// surrogateSection is the [surrogate] table (see surrogateConfig).
type surrogateSection struct {
	Init        int `toml:"init" json:"init"`
	Batch       int `toml:"batch" json:"batch"`
	Rounds      int `toml:"rounds" json:"rounds"`
	Blocks      int `toml:"blocks" json:"blocks"`
	Candidates  int `toml:"candidates" json:"candidates"`
	Window      int `toml:"window" json:"window"`
	FinalBlocks int `toml:"final_blocks" json:"final_blocks"`
}

// halvingSection is the [halving] table (see halvingConfig).
type halvingSection struct {
	Brackets    int     `toml:"brackets" json:"brackets"`
	Candidates  int     `toml:"candidates" json:"candidates"`
	Blocks      int     `toml:"blocks" json:"blocks"`
	Proposer    string  `toml:"proposer" json:"proposer"`
	Sigma       float64 `toml:"sigma" json:"sigma"`
	FinalBlocks int     `toml:"final_blocks" json:"final_blocks"`
}

// validateSection is the [validate] table.
type validateSection struct {
	// Against is the seat specification of the reference (e.g. mars@paper).
	Against string `toml:"against" json:"against"`
	// Blocks is the number of fresh blocks of the validation (the maximum
	// with SPRT).
	Blocks int `toml:"blocks" json:"blocks"`
	// Seats are further candidates (seats of the searched bot, e.g.
	// mars@paperfield) that marslab run validates beside the narrowing
	// optimum against Against, on the same blocks.
	Seats []string `toml:"seats" json:"seats,omitempty"`
}

type file struct {
	Name      string            `toml:"name"`
	Base      string            `toml:"base"`
	Players   *int              `toml:"players"`
	Opponents []string          `toml:"opponents"`
	Sample    *bool             `toml:"sample"`
	Rules     string            `toml:"rules"`
	Map       string            `toml:"map"`
	Seed      *int64            `toml:"seed"`
	Params    []ParamRange      `toml:"param"`
	Condition []condFile        `toml:"condition"`
	Narrow    *narrowSection    `toml:"narrow"`
	CMAES     *cmaesSection     `toml:"cmaes"`
	SPSA      *spsaSection      `toml:"spsa"`
	Surrogate *surrogateSection `toml:"surrogate"`
	Halving   *halvingSection   `toml:"halving"`
	Validate  *validateSection  `toml:"validate"`
}

type condFile struct {
	Name      string   `toml:"name"`
	Rules     string   `toml:"rules"`
	Map       string   `toml:"map"`
	Players   *int     `toml:"players"`
	Opponents []string `toml:"opponents"`
	Sample    bool     `toml:"sample"`
	Weight    *float64 `toml:"weight"`
}

// LoadConfig reads and checks a search config file (see parseConfig).
func LoadConfig(path string) (*Config, error) {
	data, err := fileread.ReadFile(path, fileread.Config)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return parseConfig(path, data)
}

// parseConfig parses and checks a search config; source names it in
// errors. Unknown keys are errors; bots and parameters are checked by
// Resolve.
func parseConfig(source string, data []byte) (*Config, error) {
	var f file
	if _, err := configs.DecodeStrict(source, data, &f); err != nil {
		return nil, err
	}
	sample := f.Sample != nil && *f.Sample
	bad := configs.KeyErrors(source)
	switch {
	case f.Name == "" || !bots.ValidName(f.Name):
		return nil, bad("name", "%q: want a name [A-Za-z_][A-Za-z0-9_-]*", f.Name)
	case f.Base == "":
		return nil, bad("base", "missing: want the searched bot's seat, e.g. \"mars@paper\"")
	}
	var conds []ConditionSection
	if len(f.Condition) > 0 {
		var err error
		if conds, err = checkConditions(bad, &f); err != nil {
			return nil, err
		}
	} else {
		if err := gameconf.CheckPlayers(bad, f.Players); err != nil {
			return nil, err
		}
		if err := gameconf.CheckSeedRules(bad, f.Seed, f.Rules); err != nil {
			return nil, err
		}
		if err := checkLineup(bad, "", *f.Players, f.Opponents, sample); err != nil {
			return nil, err
		}
	}
	switch {
	case len(f.Params) == 0:
		return nil, bad("param", "missing: want at least one [[param]] table naming a parameter")
	}
	seen := map[string]int{}
	for i, p := range f.Params {
		if j, ok := seen[p.Name]; ok {
			return nil, bad("param", "entries %d and %d both search %q", j, i, p.Name)
		}
		seen[p.Name] = i
		if p.Points < 0 || p.Points > 1000 {
			return nil, bad(fmt.Sprintf("param[%d].points", i), "%d: want 1..1000 (0 = the [narrow] default)", p.Points)
		}
	}
	if n := f.Narrow; n != nil {
		switch {
		case n.Levels < 1 || n.Levels > maxLevels:
			return nil, bad("narrow.levels", "%d: want 1..%d", n.Levels, maxLevels)
		case n.Rounds < 1 || n.Rounds > maxRounds:
			return nil, bad("narrow.rounds", "%d: want 1..%d", n.Rounds, maxRounds)
		case n.Blocks < 1 || n.Blocks > maxBlocks:
			return nil, bad("narrow.blocks", "%d: want 1..%d", n.Blocks, maxBlocks)
		case n.Points < 0 || n.Points > maxPoints:
			return nil, bad("narrow.points", "%d: want 1..%d (0 = 5)", n.Points, maxPoints)
		case n.Alpha < 0 || n.Alpha >= 1:
			return nil, bad("narrow.alpha", "%v: want in (0, 1) (0 = 0.05)", n.Alpha)
		case n.Margin < 0 || n.Margin > 1000:
			return nil, bad("narrow.margin", "%v: want 0..1000 grid spacings", n.Margin)
		case n.Zoom < 0 || n.Zoom > 1:
			return nil, bad("narrow.zoom", "%v: want in (0, 1] (0 = 0.5)", n.Zoom)
		}
		def := n.Points
		if def == 0 {
			def = 5
		}
		cells := 1
		var pts []string
		for _, p := range f.Params {
			k := p.Points
			if k == 0 {
				k = def
			}
			cells *= k
			pts = append(pts, fmt.Sprint(k))
			if cells > maxCells {
				return nil, bad("narrow.points", "a grid of %s points has more than %d cells: want at most %d (fewer points or parameters)", strings.Join(pts, " x "), maxCells, maxCells)
			}
		}
		if cells*n.Blocks > maxStepBlocks {
			return nil, bad("narrow.blocks", "%d blocks on %d cells make %d per round: want at most %d", n.Blocks, cells, cells*n.Blocks, maxStepBlocks)
		}
	}
	if c := f.CMAES; c != nil {
		switch {
		case c.Generations < 1 || c.Generations > maxGenerations:
			return nil, bad("cmaes.generations", "%d: want 1..%d", c.Generations, maxGenerations)
		case c.Lambda < 0 || c.Lambda > 0 && c.Lambda < 4 || c.Lambda > maxLambda:
			return nil, bad("cmaes.lambda", "%d: want 4..%d (0 = 4 + floor(3 ln d))", c.Lambda, maxLambda)
		case c.Sigma < 0 || c.Sigma > 1:
			return nil, bad("cmaes.sigma", "%v: want in (0, 1] (0 = 0.3)", c.Sigma)
		case c.Blocks < 1 || c.Blocks > maxBlocks:
			return nil, bad("cmaes.blocks", "%d: want 1..%d", c.Blocks, maxBlocks)
		case c.MaxBlocks != 0 && (c.MaxBlocks < c.Blocks || c.MaxBlocks > maxBlocks):
			return nil, bad("cmaes.max_blocks", "%d: want %d..%d (at least blocks = %d; 0 = 4 x blocks)", c.MaxBlocks, c.Blocks, maxBlocks, c.Blocks)
		case c.MeanBlocks < 0 || c.MeanBlocks > maxBlocks:
			return nil, bad("cmaes.mean_blocks", "%d: want 1..%d (0 = blocks)", c.MeanBlocks, maxBlocks)
		case c.FinalBlocks < 0 || c.FinalBlocks > maxBlocks:
			return nil, bad("cmaes.final_blocks", "%d: want 1..%d (0 = 10 x blocks)", c.FinalBlocks, maxBlocks)
		}
		if !noiseTreatments[c.Noise] {
			return nil, bad("cmaes.noise", "%q: want \"sigma\" (UH-CMA-ES), \"evals\" or \"decay\"", c.Noise)
		}
	}
	if err := checkMethodSections(bad, &f); err != nil {
		return nil, err
	}
	if v := f.Validate; v != nil {
		switch {
		case v.Against == "":
			return nil, bad("validate.against", "missing: want the reference seat, e.g. \"mars@paper\"")
		case v.Blocks < 2 || v.Blocks > maxBlocks:
			return nil, bad("validate.blocks", "%d: want 2..%d", v.Blocks, maxBlocks)
		}
		for i, seat := range v.Seats {
			if seat == "" {
				return nil, bad(fmt.Sprintf("validate.seats[%d]", i), "empty: want a seat of the searched bot, e.g. \"mars@paperfield\"")
			}
		}
	}
	c := &Config{Source: source, Name: f.Name, Base: f.Base, Opponents: f.Opponents,
		Sample: sample, Rules: f.Rules, Map: f.Map, Seed: uint64(*f.Seed), Params: f.Params, Conditions: conds,
		Narrow: f.Narrow, CMAES: f.CMAES, SPSA: f.SPSA, Surrogate: f.Surrogate, Halving: f.Halving, Validate: f.Validate}
	if f.Players != nil {
		c.Players = *f.Players
	}
	for _, cd := range conds {
		c.Players = max(c.Players, cd.Players)
	}
	if n := c.Narrow; n != nil {
		if n.Points == 0 {
			n.Points = 5
		}
		if n.Alpha == 0 {
			n.Alpha = 0.05
		}
		if n.Zoom == 0 {
			n.Zoom = 0.5
		}
	}
	if m := c.CMAES; m != nil {
		if m.Sigma == 0 {
			m.Sigma = 0.3
		}
		if m.MaxBlocks == 0 {
			m.MaxBlocks = 4 * m.Blocks
		}
		if m.MeanBlocks == 0 {
			m.MeanBlocks = m.Blocks
		}
		if m.FinalBlocks == 0 {
			m.FinalBlocks = 10 * m.Blocks
		}
		bad := configs.KeyErrors(source)
		switch {
		case m.MaxBlocks > maxBlocks:
			return nil, bad("cmaes.max_blocks", "0 = 4 x blocks = %d: want at most %d (set max_blocks, or fewer blocks)", m.MaxBlocks, maxBlocks)
		case m.FinalBlocks > maxBlocks:
			return nil, bad("cmaes.final_blocks", "0 = 10 x blocks = %d: want at most %d (set final_blocks, or fewer blocks)", m.FinalBlocks, maxBlocks)
		}
		lambda := m.Lambda
		if lambda == 0 {
			lambda = 4 + int(3*math.Log(float64(len(c.Params))))
		}
		if n := lambda*2*m.MaxBlocks + m.MeanBlocks; n > maxStepBlocks {
			return nil, bad("cmaes.lambda", "%d candidates of up to 2 x %d blocks and the mean's %d make %d blocks per generation: want at most %d", lambda, m.MaxBlocks, m.MeanBlocks, n, maxStepBlocks)
		}
	}
	return c, nil
}

// checkLineup checks the opponents of a field of players seats; prefix
// ("" or "condition[i].") is put before the key in errors.
func checkLineup(bad func(key, format string, a ...any) error, prefix string, players int, opponents []string, sample bool) error {
	switch {
	case !sample && len(opponents) != players-1:
		return bad(prefix+"opponents", "%d seats: a fixed line-up needs players-1 = %d (or sample = true to draw them from a pool)", len(opponents), players-1)
	case sample && len(opponents) < players-1:
		return bad(prefix+"opponents", "a pool of %d seats: want at least players-1 = %d", len(opponents), players-1)
	}
	if sample {
		// A pool is a set: a repeated entry would be drawn twice as often
		// and could sit twice in one game.
		for i, o := range opponents {
			if j := slices.Index(opponents[:i], o); j >= 0 {
				return bad(fmt.Sprintf("%sopponents[%d]", prefix, i), "%q repeats entry %d: a pool (sample = true) wants distinct seats", o, j)
			}
		}
	}
	return nil
}

// checkConditions checks the [[condition]] tables of f and returns them
// with their defaults: a mixture leaves the top-level players, opponents,
// sample, rules and map keys out.
func checkConditions(bad func(key, format string, a ...any) error, f *file) ([]ConditionSection, error) {
	for _, k := range []struct {
		key string
		set bool
	}{{"players", f.Players != nil}, {"opponents", f.Opponents != nil}, {"sample", f.Sample != nil}, {"rules", f.Rules != ""}, {"map", f.Map != ""}} {
		if k.set {
			return nil, bad(k.key, "set beside [[condition]] tables: a mixture gives it in each condition")
		}
	}
	switch {
	case f.Seed == nil:
		return nil, bad("seed", "missing: want an integer >= 0")
	case *f.Seed < 0:
		return nil, bad("seed", "%d: want >= 0", *f.Seed)
	case len(f.Condition) > maxConditions:
		return nil, bad("condition", "%d tables: want at most %d", len(f.Condition), maxConditions)
	}
	names := map[string]int{}
	var out []ConditionSection
	for i, cf := range f.Condition {
		p := fmt.Sprintf("condition[%d].", i)
		if cf.Rules == "" {
			return nil, bad(p+"rules", "missing: want an embedded rule set (%s) or a TOML file", strings.Join(configs.RulesNames(), ", "))
		}
		switch {
		case cf.Players == nil:
			return nil, bad(p+"players", "missing: want the players per game, 2..6")
		case *cf.Players < 2 || *cf.Players > 6:
			return nil, bad(p+"players", "%d: want 2..6", *cf.Players)
		}
		if err := checkLineup(bad, p, *cf.Players, cf.Opponents, cf.Sample); err != nil {
			return nil, err
		}
		w := 1.0
		if cf.Weight != nil {
			w = *cf.Weight
			if !(w > 0) || w > 1e6 {
				return nil, bad(p+"weight", "%v: want a number in (0, 1e6] (a relative share of the blocks)", w)
			}
		}
		name := cf.Name
		if name == "" {
			base := cf.Rules[strings.LastIndexAny(cf.Rules, `/\`)+1:]
			name = fmt.Sprintf("%s/%dp", strings.TrimSuffix(base, ".toml"), *cf.Players)
		}
		if textfmt.OneLine(name) != name || len(name) > maxConditionName {
			return nil, bad(p+"name", "%q: want at most %d bytes of printable text (no control characters, tabs or newlines): the name titles the condition's rows in report.md and the terminal", name, maxConditionName)
		}
		if j, ok := names[name]; ok {
			return nil, bad(p+"name", "%q names conditions %d and %d: want distinct names", name, j, i)
		}
		names[name] = i
		out = append(out, ConditionSection{Name: name, Rules: cf.Rules, Map: cf.Map, Players: *cf.Players,
			Opponents: cf.Opponents, Sample: cf.Sample, Weight: w})
	}
	return out, nil
}

// maxConditionName bounds a condition's name in bytes.
const maxConditionName = 100

// Setup is a resolved search config: its field (evaluator) and space.
type Setup struct {
	Config *Config
	// Field plays the games (Workers and Stream to be set by the caller).
	Field *Games
	// Space is the searched parameters.
	Space Space
	// RulesSHA256 and MapSHA256 fingerprint the rules and map (empty for
	// a mixture); CondRulesSHA256 and CondMapSHA256 those of each
	// condition of a mixture.
	RulesSHA256, MapSHA256         string
	CondRulesSHA256, CondMapSHA256 []string
}

// Resolve loads rules and map and parses the seats with reg; unknown bots
// and parameters and ranges outside a parameter's bounds are errors naming
// the file and key.
func (c *Config) Resolve(reg *bots.Registry) (*Setup, error) {
	g := &Games{Players: c.Players, Sample: c.Sample, Seed: c.Seed}
	var err error
	if g.Base, err = reg.ParseSeat(c.Base, nil); err != nil {
		return nil, fmt.Errorf("%s: key base: %w", c.Source, err)
	}
	seats := func(key string, specs []string) ([]bots.Seat, error) {
		var out []bots.Seat
		for i, spec := range specs {
			s, err := reg.ParseSeat(spec, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: key %s: entry %d: %w", c.Source, key, i, err)
			}
			out = append(out, s)
		}
		return out, nil
	}
	var rulesFP, mapFP []string
	if len(c.Conditions) == 0 {
		if g.Rules, g.Map, err = gameconf.Load(c.Source, c.Rules, c.Map); err != nil {
			return nil, err
		}
		if g.Opponents, err = seats("opponents", c.Opponents); err != nil {
			return nil, err
		}
	}
	for i, cd := range c.Conditions {
		cond := Condition{Name: cd.Name, Weight: cd.Weight, Players: cd.Players, Sample: cd.Sample}
		if cond.Rules, cond.Map, err = gameconf.Load(c.Source, cd.Rules, cd.Map); err != nil {
			return nil, fmt.Errorf("condition %d: %w", i, err)
		}
		if cond.Opponents, err = seats(fmt.Sprintf("condition[%d].opponents", i), cd.Opponents); err != nil {
			return nil, err
		}
		g.Mixture = append(g.Mixture, cond)
		rulesFP = append(rulesFP, fingerprint(cond.Rules))
		mapFP = append(mapFP, fingerprint(cond.Map))
	}
	var space Space
	for i, pr := range c.Params {
		p, ok := g.Base.Factory.Param(pr.Name)
		if !ok {
			return nil, fmt.Errorf("%s: key param[%d].name: bot %s has no parameter %q (it has %s)", c.Source, i, g.Base.Factory.Name, pr.Name, g.Base.Factory.ParamNames())
		}
		d := Dim{Param: p, Lo: p.Min, Hi: p.Max}
		if pr.Min != nil {
			d.Lo = *pr.Min
		}
		if pr.Max != nil {
			d.Hi = *pr.Max
		}
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("%s: key param[%d] (min, max): %w", c.Source, i, err)
		}
		space = append(space, d)
	}
	g.Space = space
	if g.mixed() {
		g.cost = &mixtureCost{}
	}
	s := &Setup{Config: c, Field: g, Space: space}
	if g.mixed() {
		s.CondRulesSHA256, s.CondMapSHA256 = rulesFP, mapFP
	} else {
		s.RulesSHA256, s.MapSHA256 = fingerprint(g.Rules), fingerprint(g.Map)
	}
	return s, nil
}

// Narrowing returns the narrowing config of the [narrow] section.
func (s *Setup) NarrowConfig() (NarrowConfig, error) {
	n := s.Config.Narrow
	if n == nil {
		return NarrowConfig{}, fmt.Errorf("%s: no [narrow] table (marslab sweep needs one)", s.Config.Source)
	}
	pts := make([]int, len(s.Space))
	for i := range pts {
		pts[i] = s.Config.Params[i].Points
		if pts[i] == 0 {
			pts[i] = n.Points
		}
	}
	cfg := NarrowConfig{Space: s.Space, Points: pts, Levels: n.Levels, Rounds: n.Rounds, Blocks: n.Blocks, Alpha: n.Alpha, Margin: n.Margin, Zoom: n.Zoom, Fit: n.Fit, Halve: n.Halve}
	if n.Reference {
		cfg.Reference = SeatValues(s.Space, s.Field.Base.Params)
	}
	if err := cfg.check(); err != nil {
		return cfg, fmt.Errorf("%s: [narrow]: %w", s.Config.Source, err)
	}
	return cfg, nil
}

// EvolveConfig returns the CMA-ES config of the [cmaes] section, starting
// from the base seat's values.
func (s *Setup) EvolveConfig() (EvolveConfig, error) {
	m := s.Config.CMAES
	if m == nil {
		return EvolveConfig{}, fmt.Errorf("%s: no [cmaes] table (marslab evolve needs one)", s.Config.Source)
	}
	start := make([]float64, len(s.Space))
	for i, d := range s.Space {
		start[i] = min(d.Hi, max(d.Lo, s.Field.Base.Params[d.Param.Name]))
	}
	cfg := EvolveConfig{Space: s.Space, Start: start, Generations: m.Generations, Lambda: m.Lambda, Sigma: m.Sigma,
		Blocks: m.Blocks, MaxBlocks: m.MaxBlocks, Reeval: m.Reeval, MeanBlocks: m.MeanBlocks, FinalBlocks: m.FinalBlocks, Noise: m.Noise, Seed: s.Config.Seed}
	if _, err := NewEvolve(cfg); err != nil {
		return cfg, fmt.Errorf("%s: [cmaes]: %w", s.Config.Source, err)
	}
	return cfg, nil
}

// seatJSON describes a seat in config.json.
type seatJSON struct {
	Label  string             `json:"label"`
	Bot    string             `json:"bot"`
	Params map[string]float64 `json:"params"`
}

func seatInfo(s bots.Seat) seatJSON {
	return seatJSON{Label: s.Label, Bot: s.Factory.Name, Params: s.Params}
}

type dimJSON struct {
	Name    string  `json:"name"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Log     bool    `json:"log,omitempty"`
	Integer bool    `json:"integer,omitempty"`
}

// Fingerprint returns the content of config.json for a search by method
// ("narrow" or "cmaes"): everything that decides its results (seats with
// every value, rules and map fingerprints, seed, space, the method's
// section), as indented JSON.
func (s *Setup) Fingerprint(method string) []byte {
	g := s.Field
	v := struct {
		Format string   `json:"format"`
		Method string   `json:"method"`
		Name   string   `json:"name"`
		Base   seatJSON `json:"base"`
		fieldJSON
		Space     []dimJSON         `json:"space"`
		Params    []ParamRange      `json:"params"`
		Narrow    *narrowSection    `json:"narrow,omitempty"`
		CMAES     *cmaesSection     `json:"cmaes,omitempty"`
		SPSA      *spsaSection      `json:"spsa,omitempty"`
		Surrogate *surrogateSection `json:"surrogate,omitempty"`
		Halving   *halvingSection   `json:"halving,omitempty"`
	}{Format: "marslab-search/1", Method: method, Name: s.Config.Name, Base: seatInfo(g.Base),
		fieldJSON: s.fieldJSON(), Params: s.Config.Params}
	for _, d := range s.Space {
		v.Space = append(v.Space, dimJSON{Name: d.Param.Name, Lo: d.Lo, Hi: d.Hi, Log: d.Param.Log, Integer: d.Param.Integer})
	}
	switch method {
	case "narrow":
		v.Narrow = s.Config.Narrow
	case "cmaes":
		v.CMAES = s.Config.CMAES
	case "spsa":
		v.SPSA = s.Config.SPSA
	case "surrogate":
		v.Surrogate = s.Config.Surrogate
	case "halving":
		v.Halving = s.Config.Halving
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(b, '\n')
}

// fieldJSON is the part of a fingerprint that describes the field the
// searched seat plays in: the seats against it, the rules and the map with
// their SHA-256 fingerprints, and the seed.
type fieldJSON struct {
	Players   int        `json:"players"`
	Opponents []seatJSON `json:"opponents"`
	Sample    bool       `json:"sample"`
	Rules     string     `json:"rules"`
	RulesSHA  string     `json:"rules_sha256"`
	Map       string     `json:"map"`
	MapSHA    string     `json:"map_sha256"`
	Seed      uint64     `json:"seed"`
	// Conditions describe a mixture's conditions (absent for one).
	Conditions []conditionJSON `json:"conditions,omitempty"`
}

// conditionJSON describes one condition of a mixture in a fingerprint.
type conditionJSON struct {
	Name      string     `json:"name"`
	Weight    float64    `json:"weight"`
	Players   int        `json:"players"`
	Opponents []seatJSON `json:"opponents"`
	Sample    bool       `json:"sample"`
	Rules     string     `json:"rules"`
	RulesSHA  string     `json:"rules_sha256"`
	Map       string     `json:"map"`
	MapSHA    string     `json:"map_sha256"`
}

// fieldJSON returns the field part of s's fingerprints.
func (s *Setup) fieldJSON() fieldJSON {
	g := s.Field
	if g.mixed() {
		f := fieldJSON{Players: g.Players, Seed: g.Seed}
		for i, c := range g.Mixture {
			cj := conditionJSON{Name: c.Name, Weight: c.Weight, Players: c.Players, Sample: c.Sample,
				Rules: c.Rules.Name, RulesSHA: s.CondRulesSHA256[i], Map: c.Map.Name, MapSHA: s.CondMapSHA256[i]}
			for _, o := range c.Opponents {
				cj.Opponents = append(cj.Opponents, seatInfo(o))
			}
			f.Conditions = append(f.Conditions, cj)
		}
		return f
	}
	f := fieldJSON{Players: g.Players, Sample: g.Sample, Rules: g.Rules.Name, RulesSHA: s.RulesSHA256,
		Map: g.Map.Name, MapSHA: s.MapSHA256, Seed: g.Seed}
	for _, o := range g.Opponents {
		f.Opponents = append(f.Opponents, seatInfo(o))
	}
	return f
}

// fingerprint returns the SHA-256 of v's JSON encoding, in hex ("" if v
// cannot be encoded).
func fingerprint(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
