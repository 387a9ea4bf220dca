package search

import (
	"context"
	"fmt"
	"slices"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/stats"
)

// CalibrateConfig configures a calibration: a narrowing search of two
// parameters (optional), a search of many by CMA-ES or another method,
// the other readings of the named options at that search's result
// (optional), the validation of the results against a reference on fresh
// blocks (and once more on a second seed), the tuned result against
// further seats on the validation's blocks, and the effect of each other
// choice of every named option against the reference.
type CalibrateConfig struct {
	// Narrow and CMAES are the two searches' resolved setups: Narrow's
	// config needs a [narrow] table and two parameters; CMAES's the table
	// of Method. Narrow may be nil (no narrowing). The validations and
	// effects play in Narrow's field, or CMAES's without a narrowing.
	Narrow, CMAES *Setup
	// Method is the method of the search of CMAES's setup: "" or "cmaes"
	// (CMA-ES, its final mean the result), "spsa", "surrogate" or
	// "halving" (the method's recommendation the result).
	Method string
	// ReadingBlocks, when > 0, is the number of fresh blocks on which
	// each other choice of every named option, set in the search's result,
	// is compared with that result (paired, Holm-corrected over the
	// choices); the choice shown better by the most, if any, is validated
	// as a candidate beside the result.
	ReadingBlocks int
	// Versus are seats of the searched bot that the tuned result is
	// compared with (each named by its Label), on the confirmation's
	// blocks of ConfirmSeed (the tuned result was picked on the first
	// validation's), or on the first validation's without a ConfirmSeed.
	Versus []bots.Seat
	// Reference is the seat the candidates are compared with, named
	// ReferenceName in the results (e.g. "mars@paper").
	Reference     bots.Seat
	ReferenceName string
	// ValidateBlocks is the number of fresh blocks of each validation,
	// EffectBlocks those of each option's effect (>= 2; 0 EffectBlocks
	// measures no effects).
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
	// Evolve is the finished CMA-ES search (nil when Method is another);
	// EvolveSetup the setup of the search of many parameters, whichever
	// its method.
	Evolve      *Evolve
	EvolveSetup *Setup
	// Method is that search's method (cmaes, spsa, surrogate, halving);
	// Search the finished search when it is not CMA-ES, SearchEvals its
	// evaluations. Trace holds its recommendation (EvolveSetup.Space
	// order) before its first step and after every step, TraceGames the
	// games it had spent by then (nil for CMA-ES).
	Method      string
	Search      Recommender
	SearchEvals int
	Trace       [][]float64
	TraceGames  []int
	// Readings are the other choices of the named options, each set in
	// the search's result, against that result (Candidate.X the choice's
	// full values), ReadingsHolm their Holm-adjusted p-values and Reading
	// the index of the one validated beside the result (-1: none shown
	// better).
	Readings     []Candidate
	ReadingsHolm []float64
	Reading      int
	// Field is the field of the validations: Narrow's, over every
	// parameter of the bot (FullSpace).
	Field Games
	// Validations are the candidates (the narrowing optimum, the CMA-ES
	// final mean or the other method's recommendation, that with the
	// reading shown better, the search's start when not the reference)
	// against the reference on fresh blocks, Holm
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
	// Versus are the tuned candidate against each seat of
	// CalibrateConfig.Versus on the confirmation's blocks (the first
	// validation's without one): Name the seat's label, X its values, the
	// comparison tuned minus seat.
	Versus []Candidate
	// Effects are the named options' effects: each other choice of every
	// choice parameter set in the reference, against the reference.
	Effects []Candidate
}

// searchNames are the candidate names of the result of each method of
// the search of many parameters.
var searchNames = map[string]string{"cmaes": "CMA-ES final mean", "spsa": "SPSA recommendation",
	"surrogate": "surrogate recommendation", "halving": "halving incumbent"}

// traced is a Recommender that records its recommendation before its
// first step and after every step, with the games spent by then.
type traced struct {
	Recommender
	games  int
	trace  [][]float64
	gamesA []int
}

func (t *traced) record() {
	t.trace = append(t.trace, t.Recommend())
	t.gamesA = append(t.gamesA, t.games)
}

func (t *traced) next() ([]Eval, error) {
	if t.trace == nil {
		t.record()
	}
	return t.Recommender.next()
}

func (t *traced) tell(res []Result) error {
	if err := t.Recommender.tell(res); err != nil {
		return err
	}
	for _, r := range res {
		t.games += r.Games
	}
	t.record()
	return nil
}

// Calibrate runs the calibration cfg describes: the narrowing search (if
// any), the search of many parameters, the other readings at its result
// (if ReadingBlocks), the validation of the results against the reference
// (and on ConfirmSeed), the tuned result against the Versus seats, and
// the named options' effects, each search played by cfg.Play in that
// order. The same config gives the same Calibration whatever the workers.
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
	method := cfg.Method
	if method == "" {
		method = "cmaes"
	}
	resName, ok := searchNames[method]
	if !ok {
		return nil, fmt.Errorf("search: calibration: method %q: want cmaes, spsa, surrogate or halving", method)
	}
	if es == nil {
		return nil, fmt.Errorf("search: calibration: no search of many parameters")
	}
	if cfg.ReadingBlocks < 0 || cfg.EffectBlocks < 0 || cfg.ValidateBlocks < 2 {
		return nil, fmt.Errorf("search: calibration: validate blocks %d, effect blocks %d, reading blocks %d: want >= 2, >= 0, >= 0",
			cfg.ValidateBlocks, cfg.EffectBlocks, cfg.ReadingBlocks)
	}
	vs := ns
	if vs == nil {
		vs = es
	}
	c := &Calibration{Reference: cfg.ReferenceName, Blocks: cfg.ValidateBlocks, NarrowSetup: ns, EvolveSetup: es, ConfirmSeed: cfg.ConfirmSeed,
		Method: method, Reading: -1}

	// 1. Narrowing over two parameters, 2. a search of many.
	var ncfg NarrowConfig
	if ns != nil {
		var err error
		if ncfg, err = ns.NarrowConfig(); err != nil {
			return nil, err
		}
		logf("calibration: narrowing %s", ns.Config.Source)
		if c.Narrowing, c.NarrowEvals, err = playAs(ctx, play, "narrow", ns.Fingerprint("narrow"), func() (*Narrowing, error) { return NewNarrowing(ncfg) }, ns.Field); err != nil {
			return nil, err
		}
		c.RefNarrow = SeatValues(ncfg.Space, cfg.Reference.Params)
	}
	var result []float64 // the search's result, in es.Space order
	if method == "cmaes" {
		ecfg, err := es.EvolveConfig()
		if err != nil {
			return nil, err
		}
		logf("calibration: CMA-ES %s", es.Config.Source)
		if c.Evolve, c.SearchEvals, err = playAs(ctx, play, "cmaes", es.Fingerprint("cmaes"), func() (*Evolve, error) { return NewEvolve(ecfg) }, es.Field); err != nil {
			return nil, err
		}
		fin := c.Evolve.Final()
		if fin == nil {
			return nil, fmt.Errorf("search: calibration: the CMA-ES final mean is not evaluated")
		}
		result = fin.Mean
	} else {
		mk, err := es.recommender(method)
		if err != nil {
			return nil, err
		}
		logf("calibration: %s %s", method, es.Config.Source)
		t, n, err := playAs(ctx, play, method, es.Fingerprint(method), func() (*traced, error) {
			m, err := mk()
			return &traced{Recommender: m}, err
		}, es.Field)
		if err != nil {
			return nil, err
		}
		c.Search, c.SearchEvals, c.Trace, c.TraceGames = t.Recommender, n, t.trace, t.gamesA
		result = t.Recommend()
	}

	// 3. Validations on fresh blocks: each candidate (a full parameter
	// set) against the reference.
	full := FullSpace(vs.Field)
	c.Field = *vs.Field
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
	// compare plays a (named name) against b (named against) on blocks
	// first.. of field.
	compare := func(field *Games, key, name, against string, a, b []float64, first, blocks int) (Candidate, error) {
		vc := ValidateConfig{A: a, B: b, Blocks: blocks, Chunk: blocks, First: first}
		field.SplitConditions(&vc)
		vset := *vs
		vset.Field = field
		logf("calibration: %s against %s (seed %d)", name, against, field.Seed)
		v, _, err := playAs(ctx, play, key, vset.ValidationFingerprint(name, against, vc), func() (*Validation, error) { return NewValidation(vc) }, field)
		if err != nil {
			return Candidate{}, err
		}
		cmp, err := v.Compare()
		return Candidate{Name: name, X: a, Comparison: cmp}, err
	}
	// others lists every other choice of every named option of x.
	type other struct {
		name string
		x    []float64
	}
	others := func(x []float64) []other {
		var out []other
		for i, dim := range full {
			for ch := range dim.Param.Choices {
				if float64(ch) == x[i] {
					continue
				}
				y := append([]float64(nil), x...)
				y[i] = float64(ch)
				out = append(out, other{dim.Param.Name + "=" + dim.Param.Choices[ch], y})
			}
		}
		return out
	}
	resX := withVals(es.Field.Base.Params, es.Space, result)
	var cands []Candidate
	if ns != nil {
		best, _ := c.Narrowing.Best()
		cands = append(cands, Candidate{Name: "narrowing optimum " + ncfg.Space.Label(best.X), X: withVals(ns.Field.Base.Params, ncfg.Space, best.X)})
	}
	cands = append(cands, Candidate{Name: resName, X: resX})

	// Blocks from 2^30 of the field's seed: the validations [0, V), the
	// effects [V, V+nE), the readings after them.
	effectsFirst := cfg.ValidateBlocks
	readingsFirst := effectsFirst + len(others(refX))*cfg.EffectBlocks
	if cfg.ReadingBlocks > 0 {
		// The other readings at the search's result, against it.
		first := readingsFirst
		for _, o := range others(resX) {
			r, err := compare(&c.Field, "reading-"+o.name, o.name, resName, o.x, resX, first, cfg.ReadingBlocks)
			if err != nil {
				return nil, err
			}
			c.Readings = append(c.Readings, r)
			first += cfg.ReadingBlocks
		}
		if len(c.Readings) > 0 {
			var err error
			if c.ReadingsHolm, err = holmOf(c.Readings); err != nil {
				return nil, err
			}
			for i, r := range c.Readings {
				if betterHolm(r, c.ReadingsHolm[i]) && (c.Reading < 0 || r.Diff.Mean > c.Readings[c.Reading].Diff.Mean) {
					c.Reading = i
				}
			}
		}
		if c.Reading >= 0 {
			r := c.Readings[c.Reading]
			cands = append(cands, Candidate{Name: resName + " with " + r.Name, X: r.X})
		}
	}
	// A search that starts from another seat than the reference has its
	// start validated beside its results: a result is worth shipping only
	// where it beats the set it began from.
	if start := SeatValues(full, es.Field.Base.Params); !slices.Equal(start, refX) {
		cands = append(cands, Candidate{Name: "search start " + es.Field.Base.Label, X: start})
	}
	validateAll := func(field *Games, prefix string) ([]Candidate, []float64, error) {
		var out []Candidate
		for i, cd := range cands {
			v, err := compare(field, fmt.Sprintf("%s-%d", prefix, i+1), cd.Name, cfg.ReferenceName, cd.X, refX, 0, cfg.ValidateBlocks)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, v)
		}
		holm, err := holmOf(out)
		return out, holm, err
	}
	var err error
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
	// The tuned candidate against each further seat, on the
	// confirmation's blocks (it was picked on the validation's).
	tuned := c.Validations[c.Pick]
	vfield := c.Field
	if cfg.ConfirmSeed != 0 {
		vfield.Seed = cfg.ConfirmSeed
	}
	for i, s := range cfg.Versus {
		if s.Factory == nil || s.Factory.Name != vs.Field.Base.Factory.Name {
			return nil, fmt.Errorf("search: calibration: versus seat %q: want a seat of the searched bot", s.Label)
		}
		v, err := compare(&vfield, fmt.Sprintf("versus-%d", i+1), tuned.Name, s.Label, tuned.X, SeatValues(full, s.Params), 0, cfg.ValidateBlocks)
		if err != nil {
			return nil, err
		}
		v.Name, v.X = s.Label, SeatValues(full, s.Params)
		c.Versus = append(c.Versus, v)
	}

	// 4. Named options: each other choice of every choice parameter
	// against the reference, on fresh blocks after the validations'.
	if cfg.EffectBlocks > 0 {
		first := effectsFirst
		for _, o := range others(refX) {
			e, err := compare(&c.Field, "effect-"+o.name, o.name, cfg.ReferenceName, o.x, refX, first, cfg.EffectBlocks)
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
