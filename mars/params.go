package mars

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots"
)

// GoalValue says what w_i, the value of a goal in the offensive bid of
// equation (4), is made of; the paper has the agents of a chain append
// their values without saying how w_i follows from them.
type GoalValue int

const (
	// GoalValueSum values a goal at the sum of V_c over every territory
	// of its path (parameter value "sum").
	GoalValueSum GoalValue = iota
	// GoalValueTarget values a goal at V_c of its goal territory, the
	// path's last (parameter value "target").
	GoalValueTarget
)

// GoalPaths says which goal paths an own agent keeps from the placement
// messages.
type GoalPaths int

const (
	// GoalPathsAll keeps every simple path of at most G_l enemy
	// territories from the agent to a goal territory (parameter value
	// "all").
	GoalPathsAll GoalPaths = iota
	// GoalPathsShortest keeps, for each goal territory, one path of the
	// fewest territories, the first to arrive (messages travel
	// breadth-first): the paper's footnote to equation (4) computes p_i
	// "through its shortest path" (parameter value "shortest").
	GoalPathsShortest
)

// DefensiveBid says how equation (5), the defensive bid, is read.
type DefensiveBid int

const (
	// DefensiveGain bids b_d = max_{i>=1} P_db·v·(d_(m+i) − d_m)/i, the
	// gain in holding probability the i armies buy (parameter value
	// "gain").
	DefensiveGain DefensiveBid = iota
	// DefensiveLiteral bids equation (5) as printed, times P_db:
	// P_db·v·d_m for i = 0 (only before the agent's first win of the
	// placement, as a zero-army offensive bid) and P_db·v·d_(m+i)/i for
	// i >= 1 (parameter value "literal").
	DefensiveLiteral
)

// HoldUnit is the unit of the hold probabilities d_m and d_(m+i) in
// equation (5), the defensive bid. The paper prints its only odds, Table
// 4, in percent and publishes P_db = 3.5 beside P_ob = 170 as multipliers
// that are "not independent"; v in (5) and the terms of w in (4) are the
// same valuation V_c of equation (2), so with probabilities as fractions
// in both bids an offensive bid is about P_ob/P_db ≈ 49 times a defensive
// one of the same territory value and defence almost never wins an
// auction. Counting (5)'s probabilities in percent, as Table 4 does, puts
// the two bids on the scale where the published ratio trades them off.
type HoldUnit int

const (
	// HoldFraction counts d in (5) as a probability in [0, 1], as in (4)
	// (parameter value "fraction").
	HoldFraction HoldUnit = iota
	// HoldPercent counts d in (5) in percent, [0, 100], the unit of the
	// paper's Table 4: every defensive bid is 100 times its [HoldFraction]
	// value (parameter value "percent").
	HoldPercent
)

// AttackTargets says what an agent may bid for in the attack auction. The
// paper has the agent "with the highest success odds" attack and hand its
// goal path on to the conquered territory's agent, and says that "only the
// goals that win a bidding will be pursued"; it does not say whether an
// agent without a goal good enough may attack at all.
type AttackTargets int

const (
	// AttackAny bids the best odds over the agent's live pursued goals,
	// and otherwise (no live goal reaches the threshold, or it pursues
	// none) its best single-battle odds against any enemy neighbour
	// (parameter value "any").
	AttackAny AttackTargets = iota
	// AttackGoals bids only for the agent's live pursued goals: an agent
	// that pursues none does not attack (parameter value "goals").
	AttackGoals
)

// Params are MARS's tunable parameters: Table 1 (general) and Table 2
// (territory valuation) of Johansson & Olsson (2006), and the named
// options of the readings where the paper is silent or ambiguous
// (GoalValue, GoalPaths, Defensive, HoldUnit, Attack). Every field is set by its name
// through [Params.Set] and read through [Params.Get]; [PaperParams] returns the published
// values and the default readings.
type Params struct {
	// Pdb (P_db, Table 1) multiplies the defensive bids of equation (5);
	// a higher value makes the bot more defensive. Range [0, 10000].
	Pdb float64
	// Pob (P_ob, Table 1) multiplies the offensive bids of equation (4);
	// a higher value makes the bot more offensive. Range [0, 10000].
	Pob float64
	// Wp (W_p, Table 1) is the least win probability at which an agent may
	// attack once the bot has conquered a territory this turn. Range [0, 1].
	Wp float64
	// Wp1 (W_p1, Table 1) is the threshold used instead of Wp before the
	// first conquest of the turn. Range [0, 1].
	Wp1 float64
	// Gl (G_l, Table 1) is the longest goal chain, in territories, that
	// placement messages may grow to. Integer in [1, 10].
	Gl int
	// Csv (C_sv, Table 2) multiplies the static value V_sv = V_b/(V_s*V_nb).
	Csv float64
	// Cfn (C_fn, Table 2) is the value of each friendly neighbour (V_fn).
	Cfn float64
	// Cen (C_en, Table 2) is the value of each enemy neighbour (V_en).
	Cen float64
	// Cfnu (C_fnu, Table 2) is the value of each army on friendly
	// neighbours (V_fnu).
	Cfnu float64
	// Cenu (C_enu, Table 2) is the value of each army on enemy neighbours
	// (V_enu).
	Cenu float64
	// Ccb (C_cb, Table 2) is the bonus per other continent the territory
	// borders (V_cb).
	Ccb float64
	// Coc (C_oc, Table 2) is the bonus, in units of V_b, for owning the
	// whole continent except this territory (V_oc).
	Coc float64
	// Ceoc (C_eoc, Table 2) is the bonus, in units of V_b, when one enemy
	// owns the whole continent (V_eoc).
	Ceoc float64
	// GoalValue (goal_value) is w_i of equation (4): the sum of the path's
	// values or the goal territory's value (default).
	GoalValue GoalValue
	// GoalPaths (goal_paths) is the set of goal paths an agent keeps:
	// the shortest to each goal territory (the paper's footnote) or every
	// simple path up to G_l (default).
	GoalPaths GoalPaths
	// Defensive (defensive_bid) is the reading of equation (5): the gain
	// in holding probability (default) or the equation as printed.
	Defensive DefensiveBid
	// HoldUnit (hold_unit) is the unit of the probabilities of equation
	// (5): fractions or percent (default).
	HoldUnit HoldUnit
	// Attack (attack_targets) is what an agent bids for in the attack
	// auction: its pursued goals, else any single battle, or its pursued
	// goals only (default).
	Attack AttackTargets
	// Stop (stop) decides whether to attack once more: the paper's
	// thresholds (default) or the optimal stopping policy (see [StopRule]).
	Stop StopRule
	// StopStats (stop_stats) is 1 to count, at every attack decision, how
	// the rule in force differs from the optimal stopping policy, in the
	// game stats (see stopState.stats); 0 (default) counts nothing. The
	// play is the same either way.
	StopStats int
}

// PaperParams returns the parameters published in Tables 1 and 2 of the
// MARS paper with the default readings of its silences (goal_value =
// target, goal_paths = all, defensive_bid = gain, hold_unit = percent,
// attack_targets = goals; the contents of
// configs/bots/mars-paper.toml, seat spec mars@paper).
func PaperParams() Params {
	return Params{
		Pdb: 3.5, Pob: 170, Wp: 0.7375, Wp1: 0.25, Gl: 5,
		Csv: 70, Cfn: 1.2, Cen: -0.3, Cfnu: 0.05, Cenu: -0.03,
		Ccb: 0.5, Coc: 20, Ceoc: 4,
		GoalValue: GoalValueTarget, GoalPaths: GoalPathsAll, Defensive: DefensiveGain, HoldUnit: HoldPercent,
		Attack: AttackGoals,
	}
}

// paramSpecs is the immutable parameter table, in the papers' order, then
// the named options.
// Ranges: probabilities in [0, 1]; bid multipliers in [0.01, 10000] on a
// log scale (the paper's values are 3.5 and 170; a search varies them by
// factors, not by steps); valuation coefficients in [-1000, 1000] (the
// paper's are all within ±70); G_l in 1..10 (longer chains are never won
// in practice and cost time exponentially).
var paramSpecs = [...]bots.Param{
	{Name: "P_db", Default: 3.5, Min: 0.01, Max: 10000, Log: true, Doc: "Table 1: defensive bid multiplier in eq. (5); higher is more defensive"},
	{Name: "P_ob", Default: 170, Min: 0.01, Max: 10000, Log: true, Doc: "Table 1: offensive bid multiplier in eq. (4); higher is more offensive"},
	{Name: "W_p", Default: 0.7375, Min: 0, Max: 1, Doc: "Table 1: least win probability to attack (after the turn's first conquest)"},
	{Name: "W_p1", Default: 0.25, Min: 0, Max: 1, Doc: "Table 1: least win probability to attack before the turn's first conquest"},
	{Name: "G_l", Default: 5, Min: 1, Max: 10, Integer: true, Doc: "Table 1: maximum goal path length (territories in a placement chain)"},
	{Name: "C_sv", Default: 70, Min: -1000, Max: 1000, Doc: "Table 2: multiplier of the static value V_sv = V_b/(V_s*V_nb)"},
	{Name: "C_fn", Default: 1.2, Min: -1000, Max: 1000, Doc: "Table 2: value of each friendly neighbour"},
	{Name: "C_en", Default: -0.3, Min: -1000, Max: 1000, Doc: "Table 2: value of each enemy neighbour"},
	{Name: "C_fnu", Default: 0.05, Min: -1000, Max: 1000, Doc: "Table 2: value of each army on friendly neighbours"},
	{Name: "C_enu", Default: -0.03, Min: -1000, Max: 1000, Doc: "Table 2: value of each army on enemy neighbours"},
	{Name: "C_cb", Default: 0.5, Min: -1000, Max: 1000, Doc: "Table 2: bonus per other continent bordered"},
	{Name: "C_oc", Default: 20, Min: -1000, Max: 1000, Doc: "Table 2: bonus (x V_b) for owning the whole continent but this territory"},
	{Name: "C_eoc", Default: 4, Min: -1000, Max: 1000, Doc: "Table 2: bonus (x V_b) when an enemy owns the whole continent"},
	{Name: "goal_value", Default: float64(GoalValueTarget), Max: 1, Integer: true, Choices: []string{"sum", "target"},
		Doc: "eq. (4): goal value w_i, the sum of V_c along the path or V_c of the goal territory (paper silent)"},
	{Name: "goal_paths", Default: float64(GoalPathsAll), Max: 1, Integer: true, Choices: []string{"all", "shortest"},
		Doc: "goal paths kept: every simple path up to G_l, or the shortest to each goal territory (eq. (4) footnote)"},
	{Name: "defensive_bid", Default: float64(DefensiveGain), Max: 1, Integer: true, Choices: []string{"gain", "literal"},
		Doc: "eq. (5): P_db*v*(d_(m+i)-d_m)/i, the holding gain, or P_db*v*d_(m+i)/i as printed"},
	{Name: "hold_unit", Default: float64(HoldPercent), Max: 1, Integer: true, Choices: []string{"fraction", "percent"},
		Doc: "eq. (5): hold probabilities d as fractions, or in percent as in the paper's Table 4 (defensive bids x100)"},
	{Name: "attack_targets", Default: float64(AttackGoals), Max: 1, Integer: true, Choices: []string{"any", "goals"},
		Doc: "attack auction: pursued goals, else the best single battle, or pursued goals only (paper silent)"},
	{Name: "stop", Default: float64(StopThreshold), Max: 1, Integer: true, Choices: []string{"threshold", "optimal"},
		Doc: "attack again while the best odds reach W_p1/W_p (paper), or when the optimal stopping policy rolls"},
	{Name: "stop_stats", Default: 0, Max: 1, Integer: true,
		Doc: "1: count the attack decisions against the optimal stopping policy in the game stats (play unchanged)"},
}

// ParamSpecs returns a copy of the parameter table (the [bots.Param] of every
// field of Params), in the order of the paper's Tables 1 and 2, then the
// named options goal_value, goal_paths, defensive_bid, hold_unit,
// attack_targets and stop, and stop_stats.
func ParamSpecs() []bots.Param {
	out := make([]bots.Param, len(paramSpecs))
	copy(out, paramSpecs[:])
	return out
}

// field returns a pointer to the float64 or int field of the parameter
// called name; the named options are read and set by choice and setChoice.
func (p *Params) field(name string) (f *float64, g *int) {
	switch name {
	case "P_db":
		return &p.Pdb, nil
	case "P_ob":
		return &p.Pob, nil
	case "W_p":
		return &p.Wp, nil
	case "W_p1":
		return &p.Wp1, nil
	case "G_l":
		return nil, &p.Gl
	case "stop_stats":
		return nil, &p.StopStats
	case "C_sv":
		return &p.Csv, nil
	case "C_fn":
		return &p.Cfn, nil
	case "C_en":
		return &p.Cen, nil
	case "C_fnu":
		return &p.Cfnu, nil
	case "C_enu":
		return &p.Cenu, nil
	case "C_cb":
		return &p.Ccb, nil
	case "C_oc":
		return &p.Coc, nil
	case "C_eoc":
		return &p.Ceoc, nil
	}
	return nil, nil
}

// choice returns the index of the named option called name, and false if
// name is no named option.
func (p Params) choice(name string) (int, bool) {
	switch name {
	case "goal_value":
		return int(p.GoalValue), true
	case "goal_paths":
		return int(p.GoalPaths), true
	case "defensive_bid":
		return int(p.Defensive), true
	case "hold_unit":
		return int(p.HoldUnit), true
	case "attack_targets":
		return int(p.Attack), true
	case "stop":
		return int(p.Stop), true
	}
	return 0, false
}

// setChoice sets the named option called name to the choice of index v.
func (p *Params) setChoice(name string, v int) {
	switch name {
	case "goal_value":
		p.GoalValue = GoalValue(v)
	case "goal_paths":
		p.GoalPaths = GoalPaths(v)
	case "defensive_bid":
		p.Defensive = DefensiveBid(v)
	case "hold_unit":
		p.HoldUnit = HoldUnit(v)
	case "attack_targets":
		p.Attack = AttackTargets(v)
	case "stop":
		p.Stop = StopRule(v)
	}
}

func spec(name string) (bots.Param, bool) {
	for _, s := range paramSpecs {
		if s.Name == name {
			return s, true
		}
	}
	return bots.Param{}, false
}

// check reports whether v is an allowed value for parameter s.
func check(s bots.Param, v float64) error {
	if err := s.Check(v); err != nil {
		return fmt.Errorf("mars: parameter %s = %v: %w", s.Name, v, err)
	}
	return nil
}

// Set sets the parameter called name (a paper name such as "W_p", or a
// named option such as "goal_value", whose v is the index of the choice in
// its [bots.Param.Choices]) to v, or returns an error naming the parameter
// and its allowed range.
func (p *Params) Set(name string, v float64) error {
	s, ok := spec(name)
	if !ok {
		return fmt.Errorf("mars: unknown parameter %q", name)
	}
	if err := check(s, v); err != nil {
		return err
	}
	f, g := p.field(name)
	switch {
	case f != nil:
		*f = v
	case g != nil:
		*g = int(v)
	default:
		p.setChoice(name, int(v))
	}
	return nil
}

// Get returns the value of the parameter called name (for a named option,
// the index of its choice).
func (p Params) Get(name string) (float64, bool) {
	f, g := p.field(name)
	switch {
	case f != nil:
		return *f, true
	case g != nil:
		return float64(*g), true
	}
	if c, ok := p.choice(name); ok {
		return float64(c), true
	}
	return 0, false
}

// Validate checks every parameter against its range.
func (p Params) Validate() error {
	for _, s := range paramSpecs {
		v, _ := p.Get(s.Name)
		if err := check(s, v); err != nil {
			return err
		}
	}
	return nil
}
