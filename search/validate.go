package search

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/stats"
)

// validationBlock0 is the first block of a validation, 2^30: far above
// any block a search plays (level·rounds·blocks stays far below 2^30), so
// a validation plays deals never used in the search.
const validationBlock0 = 1 << 30

// SPRT configures Wald's sequential probability ratio test of a
// validation on the discordant game pairs (the games of a block and seat
// that exactly one of A and B won): H0, A wins half of them, against H1, A
// wins a share P1 > 0.5 of them, with error rates Alpha (accepting H1 when
// H0 holds) and Beta (accepting H0 when H1 holds).
type SPRT struct {
	P1, Alpha, Beta float64
}

// Check reports whether the test is well formed.
func (s SPRT) Check() error {
	switch {
	case !(s.P1 > 0.5 && s.P1 < 1):
		return fmt.Errorf("sprt p1 %v: want in (0.5, 1)", s.P1)
	case !(s.Alpha > 0 && s.Alpha < 0.5) || !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("sprt alpha %v, beta %v: want in (0, 0.5)", s.Alpha, s.Beta)
	}
	return nil
}

// ValidateConfig configures a validation: candidate A against reference B
// on the same fresh blocks.
type ValidateConfig struct {
	// A and B are the two candidates' values of every parameter of Space.
	A, B []float64
	// Blocks is the number of blocks (the most with SPRT), >= 2; Chunk the
	// blocks played per step (>= 1).
	Blocks, Chunk int
	// SPRT, when not nil, stops the validation as soon as the sequential
	// test decides (checked after every step).
	SPRT *SPRT
	// First is the first block, counted from validationBlock0, so that
	// several validations of one experiment can play different deals.
	First int
	// Conditions, when not empty, names the conditions of a mixture field
	// and Of returns the condition (an index into Conditions) of a block
	// ([Games.SplitConditions] sets both): the validation then compares A and B within each
	// condition as well as overall.
	Conditions []string
	Of         func(block int) int
}

// Validation is the Method of a validation: each step plays A (candidate
// 0) and B (candidate 1) on the next Chunk blocks from validationBlock0.
// Its result is the paired comparison of the win rates per block.
type Validation struct {
	cfg      ValidateConfig
	step     int
	all      tally   // every block
	cond     []tally // the blocks of each condition
	decision string  // SPRT decision, "" while undecided
	llr      float64
}

// tally accumulates the paired results of a set of blocks.
type tally struct {
	sa, sb []float64 // block win rates
	// Game-level pairs (block, seat) for McNemar and the SPRT.
	pairs  stats.PairCounts
	wa, wb int
	games  int
}

// add records A's result a and B's result b on one block.
func (t *tally) add(a, b Result) {
	t.sa = append(t.sa, a.score())
	t.sb = append(t.sb, b.score())
	t.wa += a.Wins
	t.wb += b.Wins
	t.games += a.Games
	for r := 0; r < a.Games; r++ {
		x, y := a.Won[r], b.Won[r]
		switch {
		case x && y:
			t.pairs.Both++
		case x:
			t.pairs.OnlyX++
		case y:
			t.pairs.OnlyY++
		default:
			t.pairs.Neither++
		}
	}
}

// NewValidation returns a validation.
func NewValidation(cfg ValidateConfig) (*Validation, error) {
	switch {
	case len(cfg.A) != len(cfg.B):
		return nil, fmt.Errorf("search: validation: %d and %d values", len(cfg.A), len(cfg.B))
	case cfg.Blocks < 2 || cfg.Blocks > maxBlocks:
		return nil, fmt.Errorf("search: validation: blocks %d: want 2..%d", cfg.Blocks, maxBlocks)
	case cfg.Chunk < 1:
		return nil, fmt.Errorf("search: validation: chunk %d: want >= 1", cfg.Chunk)
	case cfg.First < 0 || cfg.First > 1<<29:
		return nil, fmt.Errorf("search: validation: first block %d: want 0..2^29", cfg.First)
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Check(); err != nil {
			return nil, fmt.Errorf("search: validation: %w", err)
		}
	}
	if len(cfg.Conditions) > 0 && cfg.Of == nil {
		return nil, fmt.Errorf("search: validation: %d conditions without the block's condition (Of)", len(cfg.Conditions))
	}
	return &Validation{cfg: cfg, cond: make([]tally, len(cfg.Conditions))}, nil
}

// steps returns ceil(Blocks/Chunk).
func (v *Validation) steps() int { return (v.cfg.Blocks + v.cfg.Chunk - 1) / v.cfg.Chunk }

// next returns A and B on the step's blocks; nothing once the SPRT has
// decided.
func (v *Validation) next() ([]Eval, error) {
	if v.decision != "" {
		return nil, nil
	}
	first := v.step * v.cfg.Chunk
	last := min(first+v.cfg.Chunk, v.cfg.Blocks)
	var ev []Eval
	for c, x := range [][]float64{v.cfg.A, v.cfg.B} {
		for b := first; b < last; b++ {
			ev = append(ev, Eval{Cand: c, X: x, Block: validationBlock0 + v.cfg.First + b})
		}
	}
	return ev, nil
}

// tell records the step's results and runs the sequential test.
func (v *Validation) tell(res []Result) error {
	defer func() { v.step++ }()
	if len(res) == 0 {
		return nil
	}
	n := len(res) / 2
	if len(res) != 2*n {
		return fmt.Errorf("validation: %d results: want A and B on the same blocks", len(res))
	}
	for i := 0; i < n; i++ {
		a, b := res[i], res[n+i]
		if a.Games != b.Games || len(a.Won) < a.Games || len(b.Won) < b.Games {
			return fmt.Errorf("validation: %d and %d games in a block", a.Games, b.Games)
		}
		v.all.add(a, b)
		if len(v.cond) > 0 {
			c := v.cfg.Of(validationBlock0 + v.cfg.First + v.step*v.cfg.Chunk + i)
			if c < 0 || c >= len(v.cond) {
				return fmt.Errorf("validation: block of condition %d: want 0..%d", c, len(v.cond)-1)
			}
			v.cond[c].add(a, b)
		}
	}
	if s := v.cfg.SPRT; s != nil && v.decision == "" {
		// log LR of the discordant pairs: each A-only win multiplies the
		// likelihood ratio by P1/0.5, each B-only win by (1-P1)/0.5.
		v.llr = float64(v.all.pairs.OnlyX)*math.Log(s.P1/0.5) + float64(v.all.pairs.OnlyY)*math.Log((1-s.P1)/0.5)
		switch {
		case v.llr >= math.Log((1-s.Beta)/s.Alpha):
			v.decision = "A better (H1 accepted)"
		case v.llr <= math.Log(s.Beta/(1-s.Alpha)):
			v.decision = "not better (H0 accepted)"
		}
	}
	return nil
}

// status describes the comparison so far.
func (v *Validation) status() string {
	if len(v.all.sa) < 2 {
		return fmt.Sprintf("%d blocks", len(v.all.sa))
	}
	c, err := v.Compare()
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d blocks: A-B %+.3f [%+.3f, %+.3f], p %.3g", c.Blocks, c.Diff.Mean, c.Diff.Interval.Lo, c.Diff.Interval.Hi, c.Diff.P)
}

// Comparison is the result of a validation.
type Comparison struct {
	// Blocks and Games count the blocks and each candidate's games;
	// FirstBlock is the validation's first block, 2^30 or above (deals a
	// search never plays).
	Blocks, Games, FirstBlock int
	// WinA and WinB are the candidates' win rates with 95 % Wilson
	// intervals.
	WinA, WinB       float64
	WilsonA, WilsonB stats.Interval
	// Diff is the paired t comparison of the per-block win rates of A and
	// B (blocks are independent; the games of a block share a deal): the
	// mean difference in win rate, its 95 % interval and two-sided
	// p-value.
	Diff stats.Paired
	// McNemar compares the game-level pairs (Newcombe interval, exact
	// McNemar p-value), treating the games of a block as independent.
	McNemar stats.PairedProportion
	// SPRT is the sequential test the validation ran (nil without);
	// Decision its decision ("" without SPRT or undecided), LLR its log
	// likelihood ratio.
	SPRT     *SPRT
	Decision string
	LLR      float64
	// Conditions holds the comparison within each condition of a mixture
	// field (none for a field of one condition).
	Conditions []ConditionComparison
}

// Compare returns the comparison of the blocks played so far, and within
// each condition of a mixture.
func (v *Validation) Compare() (Comparison, error) {
	c, err := v.all.compare()
	c.FirstBlock = validationBlock0 + v.cfg.First
	c.SPRT, c.Decision, c.LLR = v.cfg.SPRT, v.decision, v.llr
	c.Conditions = v.compareConditions()
	return c, err
}

// ConditionComparison is the comparison of the blocks of one condition of
// a mixture.
type ConditionComparison struct {
	// Name names the condition.
	Name string
	Comparison
	// Err, when not nil, says why the comparison is missing (fewer than
	// two blocks of the condition, or no difference to test).
	Err error
}

// compareConditions returns the comparison within each condition (nil for
// a validation without conditions).
func (v *Validation) compareConditions() []ConditionComparison {
	out := make([]ConditionComparison, len(v.cond))
	for i := range v.cond {
		c, err := v.cond[i].compare()
		c.FirstBlock = validationBlock0 + v.cfg.First
		out[i] = ConditionComparison{Name: v.cfg.Conditions[i], Comparison: c, Err: err}
	}
	return out
}

// compare returns the paired comparison of the tally's blocks.
func (t *tally) compare() (Comparison, error) {
	c := Comparison{Blocks: len(t.sa), Games: t.games}
	if c.Blocks < 2 {
		return c, fmt.Errorf("validation: %d blocks played: want >= 2", c.Blocks)
	}
	var err error
	if c.Diff, err = stats.PairedT(t.sa, t.sb, stats.Level); err != nil {
		return c, fmt.Errorf("validation: %w", err)
	}
	if c.McNemar, err = stats.PairedProportions(t.pairs, stats.Level); err != nil {
		return c, fmt.Errorf("validation: %w", err)
	}
	c.WinA, c.WinB = float64(t.wa)/float64(t.games), float64(t.wb)/float64(t.games)
	if c.WilsonA, err = stats.Wilson(t.wa, t.games, stats.Level); err != nil {
		return c, fmt.Errorf("validation: %w", err)
	}
	if c.WilsonB, err = stats.Wilson(t.wb, t.games, stats.Level); err != nil {
		return c, fmt.Errorf("validation: %w", err)
	}
	return c, nil
}

// FullSpace returns a space of every parameter of the field's bot, each
// over its whole range, in the factory's order: the space of a validation,
// whose candidates are complete parameter sets.
func FullSpace(g *Games) Space {
	var s Space
	for _, p := range g.Base.Factory.Params {
		s = append(s, Dim{Param: p, Lo: p.Min, Hi: p.Max})
	}
	return s
}

// SeatValues returns the values of seat's parameters in the order of
// space.
func SeatValues(space Space, params map[string]float64) []float64 {
	x := make([]float64, len(space))
	for i, d := range space {
		x[i] = params[d.Param.Name]
	}
	return x
}

// ValidationFingerprint returns the config.json of a validation of a
// against b in setup's field.
func (s *Setup) ValidationFingerprint(a, b string, cfg ValidateConfig) []byte {
	v := struct {
		Format  string    `json:"format"`
		Method  string    `json:"method"`
		Name    string    `json:"name"`
		A       string    `json:"a"`
		B       string    `json:"b"`
		ValuesA []float64 `json:"values_a"`
		ValuesB []float64 `json:"values_b"`
		fieldJSON
		Blocks int   `json:"blocks"`
		Chunk  int   `json:"chunk"`
		First  int   `json:"first,omitempty"`
		SPRT   *SPRT `json:"sprt,omitempty"`
	}{Format: "marslab-search/1", Method: "validate", Name: s.Config.Name, A: a, B: b, ValuesA: cfg.A, ValuesB: cfg.B,
		fieldJSON: s.fieldJSON(), Blocks: cfg.Blocks, Chunk: cfg.Chunk, First: cfg.First, SPRT: cfg.SPRT}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}
