package search

import (
	"context"
	"fmt"
	"slices"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/stats"
)

// CalibrateConfig configures a calibration: a narrowing search of two
// parameters, a CMA-ES search of many, the validation of both results
// against a reference on fresh blocks (and once more on a second seed),
// and the effect of each other choice of every named option against the
// reference.
type CalibrateConfig struct {
	// Narrow and CMAES are the two searches' resolved setups: Narrow's
	// config needs a [narrow] table and two parameters, CMAES's a [cmaes]
	// table. The validations and effects play in Narrow's field.
	Narrow, CMAES *Setup
	// Reference is the seat the candidates are compared with, named
	// ReferenceName in the results (e.g. "mars@paper").
	Reference     bots.Seat
	ReferenceName string
	// ValidateBlocks is the number of fresh blocks of each validation,
	// EffectBlocks those of each option's effect (>= 2 each).
	ValidateBlocks, EffectBlocks int
	// ConfirmSeed, when not 0, is the experiment seed of a second
	// validation of every candidate, on blocks that neither search nor the
	// first validation used.
	ConfirmSeed uint64
	// Play plays one search method to its end and returns it with its
	// number of evaluations; key names the search within the calibration
	// ("narrow", "cmaes", "validate-K", "confirm-K", "effect-OPTION") and
	// fp is its fingerprint (the config.json of a search folder). Nil
	// plays every search in memory (a [Search] without a folder).
	Play func(ctx context.Context, key string, fp []byte, newM func() (Method, error), ev Evaluator) (Method, int, error)
	// Log, when not nil, receives one line per stage.
	Log func(format string, args ...any)
}

// Candidate is one validated parameter set: its name, its values of
// every parameter of the bot (FullSpace) and its comparison with the
// reference.
type Candidate struct {
	Name string
	X    []float64
	Comparison
}

// Calibration is the result of Calibrate: the two searches, the
// validations of their results and the named options' effects, all in
// numbers; ShownBetter and Confirmed give its verdict.
type Calibration struct {
	// Reference names the reference seat; Blocks is the blocks of each
	// validation.
	Reference string
	Blocks    int
	// Narrowing is the finished narrowing search, NarrowEvals its
	// evaluations; NarrowSetup its setup.
	Narrowing   *Narrowing
	NarrowEvals int
	NarrowSetup *Setup
	// RefNarrow holds the reference seat's values of the narrowed
	// parameters (the mark on the narrowing's figures).
	RefNarrow []float64
	// Evolve is the finished CMA-ES search; EvolveSetup its setup.
	Evolve      *Evolve
	EvolveSetup *Setup
	// Field is the field of the validations: Narrow's, over every
	// parameter of the bot (FullSpace).
	Field Games
	// Validations are the candidates (the narrowing optimum, then the
	// CMA-ES final mean) against the reference on fresh blocks, Holm
	// their Holm-adjusted p-values and Pick the index of the candidate
	// with the larger mean difference (the tuned result).
	Validations []Candidate
	Holm        []float64
	Pick        int
	// Confirmations are the same candidates on ConfirmSeed's blocks, with
	// their Holm-adjusted p-values (none when ConfirmSeed is 0).
	Confirmations []Candidate
	ConfirmHolm   []float64
	ConfirmSeed   uint64
	// Effects are the named options' effects: each other choice of every
	// choice parameter set in the reference, against the reference.
	Effects []Candidate
}

// Calibrate runs the calibration cfg describes: the narrowing search, the
// CMA-ES search, the validation of both results against the reference
// (and on ConfirmSeed), and the named options' effects, each search
// played by cfg.Play in that order. The same config gives the same
// Calibration whatever the workers.
func Calibrate(ctx context.Context, cfg CalibrateConfig) (*Calibration, error) {
	play := cfg.Play
	if play == nil {
		play = func(ctx context.Context, _ string, _ []byte, newM func() (Method, error), ev Evaluator) (Method, int, error) {
			st, err := (&Search[Method]{New: newM, Eval: ev}).Run(ctx, false)
			if err != nil {
				return nil, 0, err
			}
			return st.Method, st.Lines, nil
		}
	}
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ns, es := cfg.Narrow, cfg.CMAES
	c := &Calibration{Reference: cfg.ReferenceName, Blocks: cfg.ValidateBlocks, NarrowSetup: ns, EvolveSetup: es, ConfirmSeed: cfg.ConfirmSeed}

	// 1. Narrowing over two parameters, 2. CMA-ES over many.
	ncfg, err := ns.NarrowConfig()
	if err != nil {
		return nil, err
	}
	ecfg, err := es.EvolveConfig()
	if err != nil {
		return nil, err
	}
	logf("calibration: narrowing %s", ns.Config.Source)
	if c.Narrowing, c.NarrowEvals, err = playAs(ctx, play, "narrow", ns.Fingerprint("narrow"), func() (*Narrowing, error) { return NewNarrowing(ncfg) }, ns.Field); err != nil {
		return nil, err
	}
	logf("calibration: CMA-ES %s", es.Config.Source)
	if c.Evolve, _, err = playAs(ctx, play, "cmaes", es.Fingerprint("cmaes"), func() (*Evolve, error) { return NewEvolve(ecfg) }, es.Field); err != nil {
		return nil, err
	}
	c.RefNarrow = SeatValues(ncfg.Space, cfg.Reference.Params)
	fin := c.Evolve.Final()
	if fin == nil {
		return nil, fmt.Errorf("search: calibration: the CMA-ES final mean is not evaluated")
	}

	// 3. Validations on fresh blocks: each candidate (a full parameter
	// set) against the reference.
	full := FullSpace(ns.Field)
	c.Field = *ns.Field
	c.Field.Space = full
	refX := SeatValues(full, cfg.Reference.Params)
	// A search's result is its base seat with the searched values.
	withVals := func(base bots.Values, sp Space, x []float64) []float64 {
		p := base.Clone()
		for i, dim := range sp {
			p[dim.Param.Name] = x[i]
		}
		return SeatValues(full, p)
	}
	validate := func(field *Games, key, name string, x []float64, first, blocks int) (Candidate, error) {
		vc := ValidateConfig{A: x, B: refX, Blocks: blocks, Chunk: blocks, First: first}
		field.SplitConditions(&vc)
		vs := *ns
		vs.Field = field
		logf("calibration: validation %s (seed %d)", name, field.Seed)
		v, _, err := playAs(ctx, play, key, vs.ValidationFingerprint(name, cfg.ReferenceName, vc), func() (*Validation, error) { return NewValidation(vc) }, field)
		if err != nil {
			return Candidate{}, err
		}
		cmp, err := v.Compare()
		return Candidate{Name: name, X: x, Comparison: cmp}, err
	}
	best, _ := c.Narrowing.Best()
	cands := []Candidate{
		{Name: "narrowing optimum " + ncfg.Space.Label(best.X), X: withVals(ns.Field.Base.Params, ncfg.Space, best.X)},
		{Name: "CMA-ES final mean", X: withVals(es.Field.Base.Params, ecfg.Space, fin.Mean)},
	}
	// A CMA-ES that starts from another seat than the reference has its
	// start validated beside its results: a result is worth shipping only
	// where it beats the set it began from.
	if start := SeatValues(full, es.Field.Base.Params); !slices.Equal(start, refX) {
		cands = append(cands, Candidate{Name: "search start " + es.Field.Base.Label, X: start})
	}
	validateAll := func(field *Games, prefix string) ([]Candidate, []float64, error) {
		var out []Candidate
		for i, cd := range cands {
			v, err := validate(field, fmt.Sprintf("%s-%d", prefix, i+1), cd.Name, cd.X, 0, cfg.ValidateBlocks)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, v)
		}
		holm, err := holmOf(out)
		return out, holm, err
	}
	if c.Validations, c.Holm, err = validateAll(&c.Field, "validate"); err != nil {
		return nil, err
	}
	for i, v := range c.Validations {
		if v.Diff.Mean > c.Validations[c.Pick].Diff.Mean {
			c.Pick = i
		}
	}
	if cfg.ConfirmSeed != 0 {
		// Once more on blocks of a seed that neither search nor the first
		// validation used.
		cfield := c.Field
		cfield.Seed = cfg.ConfirmSeed
		if c.Confirmations, c.ConfirmHolm, err = validateAll(&cfield, "confirm"); err != nil {
			return nil, err
		}
	}

	// 4. Named options: each other choice of every choice parameter
	// against the reference, on fresh blocks after the validations'.
	first := cfg.ValidateBlocks
	for i, dim := range full {
		for ch := range dim.Param.Choices {
			if float64(ch) == refX[i] {
				continue
			}
			x := append([]float64(nil), refX...)
			x[i] = float64(ch)
			name := dim.Param.Name + "=" + dim.Param.Choices[ch]
			e, err := validate(&c.Field, "effect-"+name, name, x, first, cfg.EffectBlocks)
			if err != nil {
				return nil, err
			}
			c.Effects = append(c.Effects, e)
			first += cfg.EffectBlocks
		}
	}
	return c, nil
}

// playFunc is the type of CalibrateConfig.Play.
type playFunc = func(ctx context.Context, key string, fp []byte, newM func() (Method, error), ev Evaluator) (Method, int, error)

// playAs plays the method newM makes with play and returns it as its own
// type M, with its number of evaluations; a play that returns another
// method than newM's is an error naming the search.
func playAs[M Method](ctx context.Context, play playFunc, key string, fp []byte, newM func() (M, error), ev Evaluator) (M, int, error) {
	var zero M
	m, n, err := play(ctx, key, fp, func() (Method, error) { return newM() }, ev)
	if err != nil {
		return zero, 0, err
	}
	t, ok := m.(M)
	if !ok {
		return zero, 0, fmt.Errorf("search: calibration: %s: Play returned a %T, want a %T", key, m, zero)
	}
	return t, n, nil
}

// holmOf returns the Holm-adjusted p-values of the candidates' paired
// differences.
func holmOf(cs []Candidate) ([]float64, error) {
	ps := make([]float64, len(cs))
	for i, v := range cs {
		ps[i] = v.Diff.P
	}
	adj, err := stats.Holm(ps)
	if err != nil {
		return nil, fmt.Errorf("search: calibration: %w", err)
	}
	return adj, nil
}

// ShownBetter reports whether the validation shows the tuned result
// better than the reference: its mean difference above 0 with a
// Holm-adjusted p below 0.05, and, with a confirmation, the same on the
// confirmation's blocks.
func (c *Calibration) ShownBetter() bool {
	ok := betterHolm(c.Validations[c.Pick], c.Holm[c.Pick])
	if len(c.Confirmations) > 0 {
		ok = ok && c.Confirmed()
	}
	return ok
}

// Confirmed reports whether the confirmation shows the tuned candidate
// better again (false without a confirmation).
func (c *Calibration) Confirmed() bool {
	return len(c.Confirmations) > 0 && betterHolm(c.Confirmations[c.Pick], c.ConfirmHolm[c.Pick])
}

func betterHolm(v Candidate, holm float64) bool { return v.Diff.Mean > 0 && holm < 0.05 }
