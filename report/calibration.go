package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/textfmt"
	"github.com/marslab-risk/marslab/plots"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/stats"
)

// calibrationNotes are the note sections of a calibration notebook.
var calibrationNotes = []string{"intro", "narrow", "paper", "cmaes", "effects", "validation", "tournament", "conclusion", "timing"}

// calibrationConfig is the config of a calibration notebook: a narrowing
// search of two parameters, a CMA-ES search of many, the named options'
// effects and the validation of the results against a reference on fresh
// deals (package search).
type calibrationConfig struct {
	Header
	Calibration struct {
		// Narrow and CMAES are search config files (package search's
		// format, with a [narrow] and a [cmaes] table), relative to the
		// notebook's folder. The notebook's seed replaces theirs.
		Narrow string `toml:"narrow"`
		CMAES  string `toml:"cmaes"`
		// Against is the reference seat of the validations and effects.
		Against string `toml:"against"`
		// ValidateBlocks is the number of fresh blocks of each validation;
		// EffectBlocks those of each option's effect.
		ValidateBlocks int `toml:"validate_blocks"`
		EffectBlocks   int `toml:"effect_blocks"`
		// Workers is the number of games played at once (0 = every core).
		Workers int `toml:"workers"`
		// ConfirmSeed, when not 0, is the experiment seed of a second
		// validation of every candidate, on blocks of a seed that neither
		// search nor the first validation used (it must differ from the
		// notebook's seed).
		ConfirmSeed int64 `toml:"confirm_seed"`
	} `toml:"calibration"`
	// Quick is the reduced size: the narrowing's levels, rounds, blocks
	// and points per parameter, the CMA-ES generations and blocks, and the
	// validation and effect blocks.
	Quick struct {
		Levels         int `toml:"levels"`
		Rounds         int `toml:"rounds"`
		Blocks         int `toml:"blocks"`
		Points         int `toml:"points"`
		Generations    int `toml:"generations"`
		CMAESBlocks    int `toml:"cmaes_blocks"`
		ValidateBlocks int `toml:"validate_blocks"`
		EffectBlocks   int `toml:"effect_blocks"`
	} `toml:"quick"`
	// Tournament, when present, plays a tournament notebook's round robin
	// with the tuned result, and reference seats, in the calibrated bot's
	// place (see calTournament).
	Tournament *calTournament `toml:"tournament"`
	tn         *tournamentConfig
	// Paper holds the published values of the narrowed parameters.
	Paper struct {
		Source string             `toml:"source"`
		Values map[string]float64 `toml:"values"`
	} `toml:"paper"`
	path string
}

func parseCalibration(path string, data []byte) (experiment, error) {
	c := calibrationConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	k := &c.Calibration
	ck.nonEmpty("calibration.narrow", k.Narrow)
	ck.nonEmpty("calibration.cmaes", k.CMAES)
	ck.nonEmpty("calibration.against", k.Against)
	ck.intIn("calibration.validate_blocks", k.ValidateBlocks, 2, 1<<20)
	ck.intIn("calibration.effect_blocks", k.EffectBlocks, 2, 1<<20)
	ck.intIn("calibration.workers", k.Workers, 0, maxWorkers)
	q := &c.Quick
	ck.intIn("quick.levels", q.Levels, 1, 10)
	ck.intIn("quick.rounds", q.Rounds, 1, 10)
	ck.intIn("quick.blocks", q.Blocks, 1, 100)
	ck.intIn("quick.points", q.Points, 1, 10)
	ck.intIn("quick.generations", q.Generations, 1, 100)
	ck.intIn("quick.cmaes_blocks", q.CMAESBlocks, 1, 100)
	ck.intIn("quick.validate_blocks", q.ValidateBlocks, 2, 1000)
	ck.intIn("quick.effect_blocks", q.EffectBlocks, 2, 1000)
	ck.nonEmpty("paper.source", c.Paper.Source)
	if k.ConfirmSeed < 0 || (k.ConfirmSeed != 0 && uint64(k.ConfirmSeed) == c.Seed) {
		ck.fail("calibration.confirm_seed", "%d: want 0 (none) or a positive seed other than the notebook's seed %d", k.ConfirmSeed, c.Seed)
	}
	if c.Tournament != nil {
		c.tn = c.Tournament.check(ck, path)
	}
	if ck.err != nil {
		return nil, ck.err
	}
	for _, f := range []struct{ key, file string }{{"calibration.narrow", k.Narrow}, {"calibration.cmaes", k.CMAES}} {
		sc, err := search.LoadConfig(notebookPath(filepath.Dir(path), f.file))
		if err != nil {
			return nil, fmt.Errorf("%s: key %s: %w", path, f.key, err)
		}
		if f.key == "calibration.narrow" && (sc.Narrow == nil || len(sc.Params) != 2) {
			return nil, fmt.Errorf("%s: key %s: %s needs a [narrow] table and two [[param]] tables", path, f.key, sc.Source)
		}
		if f.key == "calibration.cmaes" && sc.CMAES == nil {
			return nil, fmt.Errorf("%s: key %s: %s needs a [cmaes] table", path, f.key, sc.Source)
		}
	}
	return &c, nil
}

func (c *calibrationConfig) template() string { return "calibration.md.tmpl" }

func (c *calibrationConfig) sizes(quick bool) string {
	if quick {
		q := c.Quick
		return fmt.Sprintf("narrowing %d level(s) x %d round(s) x %d block(s), %d points per parameter; CMA-ES %d generation(s) of %d block(s); validation %d blocks, effects %d blocks",
			q.Levels, q.Rounds, q.Blocks, q.Points, q.Generations, q.CMAESBlocks, q.ValidateBlocks, q.EffectBlocks)
	}
	return fmt.Sprintf("the searches as configured in %s and %s; validation %d blocks, effects %d blocks",
		c.Calibration.Narrow, c.Calibration.CMAES, c.Calibration.ValidateBlocks, c.Calibration.EffectBlocks)
}

// calibrationData is what the calibration template sees.
type calibrationData struct {
	NarrowConfig, CMAESConfig string
	Field                     string
	Against                   string
	PaperSource               string
	// Narrowing.
	Levels                   mdTable
	NarrowBest               string
	NarrowRate               float64
	NarrowCI                 stats.Interval
	NarrowGames, NarrowEvals int
	PaperTable               mdTable
	// CMA-ES.
	Generations int
	Lambda      int
	CMAESParams mdTable
	CMAESBest   string
	CMAESRate   float64
	CMAESCI     stats.Interval
	CMAESGames  int
	// Effects and validations.
	Effects     mdTable
	Validations mdTable
	Blocks      int
	Tuned       string
	Better      bool
	Verdict     string
	// Confirmations are the validations on ConfirmSeed (none when 0);
	// Confirmed says what they found for the tuned candidate.
	Confirmations mdTable
	ConfirmSeed   int64
	Confirmed     string
	// Tournament is the round robin with the tuned result (nil without a
	// [tournament] table).
	Tournament *calTourneyData
	// Timing.
	Seconds, GamesPerSecond float64
	Games                   int
	// ReadBack is the games read back from the work folder, not played.
	ReadBack int
	// TunedName is the name the tuned result ships under.
	TunedName string
}

// comparison is one validation or effect: A against the reference.
type comparison struct {
	name string
	x    []float64
	c    search.Comparison
}

func (c *calibrationConfig) run(ctx context.Context, w *writer) (any, error) {
	start := time.Now()
	dir := filepath.Dir(c.path)
	load := func(file string) (*search.Setup, error) {
		sc, err := search.LoadConfig(notebookPath(dir, file))
		if err != nil {
			return nil, err
		}
		sc.Seed = w.seed
		setup, err := sc.Resolve(w.reg)
		if err != nil {
			return nil, err
		}
		setup.Field.Workers = c.Calibration.Workers
		return setup, nil
	}
	ns, err := load(c.Calibration.Narrow)
	if err != nil {
		return nil, err
	}
	es, err := load(c.Calibration.CMAES)
	if err != nil {
		return nil, err
	}
	q := c.Quick
	if w.quick {
		ns.Config.Narrow.Levels, ns.Config.Narrow.Rounds, ns.Config.Narrow.Blocks = q.Levels, q.Rounds, q.Blocks
		for i := range ns.Config.Params {
			ns.Config.Params[i].Points = q.Points
		}
		m := es.Config.CMAES
		m.Generations, m.Blocks, m.MaxBlocks, m.MeanBlocks, m.FinalBlocks = q.Generations, q.CMAESBlocks, 2*q.CMAESBlocks, q.CMAESBlocks, 2*q.CMAESBlocks
	}
	vblocks, eblocks := c.Calibration.ValidateBlocks, c.Calibration.EffectBlocks
	if w.quick {
		vblocks, eblocks = q.ValidateBlocks, q.EffectBlocks
	}
	ref, err := w.reg.ParseSeat(c.Calibration.Against, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: key calibration.against: %w", c.path, err)
	}
	games := 0
	count := &counter{}

	// 1. Narrowing over two parameters.
	ncfg, err := ns.NarrowConfig()
	if err != nil {
		return nil, err
	}
	w.logf("calibration: narrowing %s", ns.Config.Source)
	nm, nevals, err := w.playSearch(ctx, "narrow", ns.Fingerprint("narrow"),
		func() (search.Method, error) { return search.NewNarrowing(ncfg) }, count.wrap(ns.Field), logStep(w))
	if err != nil {
		return nil, err
	}
	narrow := nm.(*search.Narrowing)
	d := &calibrationData{NarrowConfig: c.Calibration.Narrow, CMAESConfig: c.Calibration.CMAES, Against: c.Calibration.Against,
		PaperSource: c.Paper.Source, Blocks: vblocks}
	d.Field = field(ns)
	d.TunedName = "mars@tuned"
	if c.Tournament != nil {
		d.TunedName = c.Tournament.Tuned
	}
	head, rows := narrow.Table()
	if err := w.csv("narrow-cells.csv", head, rows); err != nil {
		return nil, err
	}
	paperX := search.SeatValues(ncfg.Space, ref.Params)
	for _, f := range narrow.Figures("calibration, narrowing", paperX, c.Calibration.Against) {
		if err := w.figure(f.Name, f.Fig); err != nil {
			return nil, err
		}
	}
	best, _ := narrow.Best()
	d.NarrowBest = ncfg.Space.Label(best.X)
	d.NarrowRate, d.NarrowCI, d.NarrowGames = best.Mean(), best.Wilson(), best.Games
	d.NarrowEvals = nevals
	d.Levels = mdTable{Header: []string{"level", "window", "cells", "alive at the end", "games", "best cell", "win rate", "95 % Wilson"}}
	for k, l := range narrow.Levels() {
		g := 0
		for _, cell := range l.Cells {
			g += cell.Games
		}
		if g == 0 {
			continue
		}
		bc := l.Cells[l.Best]
		iv := bc.Wilson()
		d.Levels.Rows = append(d.Levels.Rows, []string{itoa(k + 1), windowText(ncfg.Space, &l), itoa(len(l.Cells)), itoa(l.Alive()), itoa(g),
			"`" + ncfg.Space.Label(bc.X) + "`", textfmt.Fixed(bc.Mean(), 3), fmt.Sprintf("[%s, %s]", textfmt.Fixed(iv.Lo, 3), textfmt.Fixed(iv.Hi, 3))})
	}
	d.PaperTable = mdTable{Header: []string{"parameter", "paper", "reference seat", "narrowing optimum", "last window"}}
	_, last := narrow.Best()
	for i, dim := range ncfg.Space {
		pv := "-"
		if v, ok := c.Paper.Values[dim.Param.Name]; ok {
			pv = bots.FormatNum(v)
		}
		d.PaperTable.Rows = append(d.PaperTable.Rows, []string{dim.Param.Name, pv, dim.Param.Format(paperX[i]), dim.Param.Format(best.X[i]),
			fmt.Sprintf("[%s, %s]", bots.FormatNum(dim.Value(last.Lo[i])), bots.FormatNum(dim.Value(last.Hi[i])))})
	}

	// 2. CMA-ES over many parameters.
	ecfg, err := es.EvolveConfig()
	if err != nil {
		return nil, err
	}
	w.logf("calibration: CMA-ES %s", es.Config.Source)
	em, _, err := w.playSearch(ctx, "cmaes", es.Fingerprint("cmaes"),
		func() (search.Method, error) { return search.NewEvolve(ecfg) }, count.wrap(es.Field), logStep(w))
	if err != nil {
		return nil, err
	}
	evo := em.(*search.Evolve)
	head, rows = evo.Table()
	if err := w.csv("cmaes-generations.csv", head, rows); err != nil {
		return nil, err
	}
	for _, f := range evo.Figures("calibration") {
		if err := w.figure("cmaes-"+f.Name, f.Fig); err != nil {
			return nil, err
		}
	}
	fin := evo.Final()
	d.Generations, d.Lambda = len(evo.Generations()), evo.Lambda()
	d.CMAESBest = ecfg.Space.Label(fin.Mean)
	d.CMAESRate, d.CMAESCI, d.CMAESGames = float64(fin.Wins)/float64(fin.Games), fin.Wilson(), fin.Games
	d.CMAESParams = mdTable{Header: []string{"parameter", "start (reference)", "final mean", "searched range"}}
	for i, dim := range ecfg.Space {
		d.CMAESParams.Rows = append(d.CMAESParams.Rows, []string{dim.Param.Name, dim.Param.Format(ecfg.Start[i]), dim.Param.Format(fin.Mean[i]),
			fmt.Sprintf("[%s, %s]", dim.Param.Format(dim.Lo), dim.Param.Format(dim.Hi))})
	}

	// 3. Validations on fresh blocks: each candidate (full parameter set)
	// against the reference, then the named options' effects.
	full := search.FullSpace(ns.Field)
	vfield := *ns.Field
	vfield.Space = full
	refX := search.SeatValues(full, ref.Params)
	withVals := func(sp search.Space, x []float64) []float64 {
		p := ref.Params.Clone()
		for i, dim := range sp {
			p[dim.Param.Name] = x[i]
		}
		return search.SeatValues(full, p)
	}
	validateIn := func(field *search.Games, key, name string, x []float64, first, blocks int) (comparison, error) {
		vc := search.ValidateConfig{A: x, B: refX, Blocks: blocks, Chunk: blocks, First: first}
		vs := *ns
		vs.Field = field
		w.logf("calibration: validation %s (seed %d)", name, field.Seed)
		m, _, err := w.playSearch(ctx, key, vs.ValidationFingerprint(name, c.Calibration.Against, vc),
			func() (search.Method, error) { return search.NewValidation(vc) }, count.wrap(field), nil)
		if err != nil {
			return comparison{}, err
		}
		cmp, err := m.(*search.Validation).Compare()
		return comparison{name: name, x: x, c: cmp}, err
	}
	validate := func(key, name string, x []float64, first, blocks int) (comparison, error) {
		return validateIn(&vfield, key, name, x, first, blocks)
	}
	cands := []struct {
		name string
		x    []float64
	}{
		{"narrowing optimum " + d.NarrowBest, withVals(ncfg.Space, best.X)},
		{"CMA-ES final mean", withVals(ecfg.Space, fin.Mean)},
	}
	var vals []comparison
	for i, cd := range cands {
		cmp, err := validate(fmt.Sprintf("validate-%d", i+1), cd.name, cd.x, 0, vblocks)
		if err != nil {
			return nil, err
		}
		vals = append(vals, cmp)
	}
	tab, adj, err := c.validationTable(w, "validation.csv", vals)
	if err != nil {
		return nil, err
	}
	d.Validations = tab
	pick := 0
	for i, v := range vals {
		if v.c.Diff.Mean > vals[pick].c.Diff.Mean {
			pick = i
		}
	}
	pc := vals[pick]
	d.Better = pc.c.Diff.Mean > 0 && adj[pick] < 0.05
	d.Tuned = pc.name
	if d.Better {
		d.Verdict = fmt.Sprintf("the %s beats %s on %d fresh blocks by %s points of win rate (95 %% interval [%s, %s], Holm-adjusted p %s)",
			pc.name, c.Calibration.Against, pc.c.Blocks, textfmt.Fixed(100*pc.c.Diff.Mean, 1), textfmt.Fixed(100*pc.c.Diff.Interval.Lo, 1),
			textfmt.Fixed(100*pc.c.Diff.Interval.Hi, 1), pRel(adj[pick]))
	} else {
		d.Verdict = fmt.Sprintf("no candidate is shown better than %s on %d fresh blocks: the best difference, the %s's, is %s points (95 %% interval [%s, %s], Holm-adjusted p %s)",
			c.Calibration.Against, pc.c.Blocks, pc.name, textfmt.Fixed(100*pc.c.Diff.Mean, 1), textfmt.Fixed(100*pc.c.Diff.Interval.Lo, 1),
			textfmt.Fixed(100*pc.c.Diff.Interval.Hi, 1), pRel(adj[pick]))
	}
	confirmed := ""
	if seed := c.Calibration.ConfirmSeed; seed != 0 {
		// Once more on blocks of a seed that neither search nor the first
		// validation used.
		cfield := vfield
		cfield.Seed = uint64(seed)
		var cvals []comparison
		for i, cd := range cands {
			cmp, err := validateIn(&cfield, fmt.Sprintf("confirm-%d", i+1), cd.name, cd.x, 0, vblocks)
			if err != nil {
				return nil, err
			}
			cvals = append(cvals, cmp)
		}
		tab, cadj, err := c.validationTable(w, "confirmation.csv", cvals)
		if err != nil {
			return nil, err
		}
		d.Confirmations, d.ConfirmSeed = tab, seed
		cc := cvals[pick].c
		ok := cc.Diff.Mean > 0 && cadj[pick] < 0.05
		d.Confirmed = fmt.Sprintf("on seed %d (%d blocks) the %s is %s: %s points (95 %% interval [%s, %s], Holm-adjusted p %s)",
			seed, cc.Blocks, pc.name, map[bool]string{true: "again shown better", false: "not shown better"}[ok],
			signed(100*cc.Diff.Mean, 1), signed(100*cc.Diff.Interval.Lo, 1), signed(100*cc.Diff.Interval.Hi, 1), pRel(cadj[pick]))
		confirmed = ".\nConfirmation " + d.Confirmed
		d.Better = d.Better && ok
	}
	comment := fmt.Sprintf("MARS parameters from the %s notebook (marslab report notebooks/%s): the %s.\nValidation on %d fresh blocks against %s: difference %+.3f in win rate, 95 %% interval [%+.3f, %+.3f], Holm p %s%s:\n%s.",
		c.name(), c.name(), pc.name, pc.c.Blocks, c.Calibration.Against, pc.c.Diff.Mean, pc.c.Diff.Interval.Lo, pc.c.Diff.Interval.Hi, pRel(adj[pick]),
		confirmed, map[bool]string{true: "shown better", false: "NOT shown better"}[d.Better])
	if err := search.WriteParamFile(filepath.Join(w.dir, "tuned.toml"), &vfield, pc.x, comment); err != nil {
		return nil, err
	}
	w.files = append(w.files, "tuned.toml")
	if c.Tournament != nil {
		tuned := ref
		tuned.Params = ref.Params.Clone()
		for i, dim := range full {
			tuned.Params[dim.Param.Name] = pc.x[i]
		}
		if d.Tournament, err = c.playTournaments(ctx, w, tuned, count); err != nil {
			return nil, err
		}
	}

	// Named options: each other choice of every choice parameter against
	// the reference, on fresh blocks after the validations'.
	var eff []comparison
	first := vblocks
	for i, dim := range full {
		if len(dim.Param.Choices) == 0 {
			continue
		}
		for ch := range dim.Param.Choices {
			if float64(ch) == refX[i] {
				continue
			}
			x := append([]float64(nil), refX...)
			x[i] = float64(ch)
			name := dim.Param.Name + "=" + dim.Param.Choices[ch]
			cmp, err := validate("effect-"+name, name, x, first, eblocks)
			if err != nil {
				return nil, err
			}
			eff = append(eff, cmp)
			first += eblocks
		}
	}
	d.Effects = mdTable{Header: []string{"option", "blocks", "win rate", c.Calibration.Against, "effect", "95 % interval", "p"}}
	chart := &plots.EffectChart{Title: "named options against " + c.Calibration.Against, YLabel: "change in win rate", SlantLabels: true}
	var erows [][]string
	for _, e := range eff {
		cc := e.c
		d.Effects.Rows = append(d.Effects.Rows, []string{"`" + e.name + "`", itoa(cc.Blocks), textfmt.Fixed(cc.WinA, 3), textfmt.Fixed(cc.WinB, 3),
			signed(cc.Diff.Mean, 3), fmt.Sprintf("[%s, %s]", signed(cc.Diff.Interval.Lo, 3), signed(cc.Diff.Interval.Hi, 3)), fmtP(cc.Diff.P)})
		erows = append(erows, []string{e.name, itoa(cc.Blocks), num(cc.WinA), num(cc.WinB), num(cc.Diff.Mean), num(cc.Diff.Interval.Lo), num(cc.Diff.Interval.Hi), num(cc.Diff.P)})
		chart.Categories = append(chart.Categories, e.name)
		chart.Values = append(chart.Values, cc.Diff.Mean)
		chart.Lo = append(chart.Lo, cc.Diff.Interval.Lo)
		chart.Hi = append(chart.Hi, cc.Diff.Interval.Hi)
	}
	if err := w.csv("effects.csv", []string{"option", "blocks", "win_rate", "reference_win_rate", "effect", "effect95_lo", "effect95_hi", "p"}, erows); err != nil {
		return nil, err
	}
	if len(eff) > 0 {
		if err := w.figure("effects", chart); err != nil {
			return nil, err
		}
	}
	games = count.games
	d.Games, d.ReadBack = games, w.readBack
	d.Seconds = time.Since(start).Seconds()
	d.GamesPerSecond = float64(games) / math.Max(d.Seconds, 1e-9)
	if err := w.csv(TimingsFile, []string{"measure", "subject", "value", "unit"}, [][]string{
		{"seconds", "whole run", num(d.Seconds), "s"}, {"games_per_second", "whole run", num(d.GamesPerSecond), "games/s"}}); err != nil {
		return nil, err
	}
	return d, nil
}

// logGames returns the games of the evaluations in the search log at
// path (0 if there is none yet).
func logGames(path string) (int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if l, err := search.ParseLine(line); err == nil {
			n += l.Games
		}
	}
	return n, nil
}

// logStep returns a progress function that logs each step of a search
// with its status.
func logStep(w *writer) func(m search.Method, step int) {
	return func(m search.Method, step int) { w.logf("  step %d/%d: %s", step+1, m.Steps(), m.Status()) }
}

// name is the notebook's name, its folder's.
func (c *calibrationConfig) name() string { return filepath.Base(filepath.Dir(c.path)) }

// validationTable returns the table of validations vals against the
// reference, with p-values Holm-corrected over them, writes it to the
// CSV file csvName and returns the corrected p-values too.
func (c *calibrationConfig) validationTable(w *writer, csvName string, vals []comparison) (mdTable, []float64, error) {
	ps := make([]float64, len(vals))
	for i, v := range vals {
		ps[i] = v.c.Diff.P
	}
	adj, err := stats.Holm(ps)
	if err != nil {
		return mdTable{}, nil, err
	}
	t := mdTable{Header: []string{"candidate", "games", "win rate", "95 % Wilson", c.Calibration.Against, "difference", "95 % interval", "p", "Holm p"}}
	var rows [][]string
	for i, v := range vals {
		cc := v.c
		t.Rows = append(t.Rows, []string{v.name, itoa(cc.Games), textfmt.Fixed(cc.WinA, 3),
			fmt.Sprintf("[%s, %s]", textfmt.Fixed(cc.WilsonA.Lo, 3), textfmt.Fixed(cc.WilsonA.Hi, 3)), textfmt.Fixed(cc.WinB, 3),
			signed(cc.Diff.Mean, 3), fmt.Sprintf("[%s, %s]", signed(cc.Diff.Interval.Lo, 3), signed(cc.Diff.Interval.Hi, 3)), fmtP(cc.Diff.P), fmtP(adj[i])})
		rows = append(rows, []string{v.name, itoa(cc.Blocks), itoa(cc.Games), num(cc.WinA), num(cc.WinB), num(cc.Diff.Mean),
			num(cc.Diff.Interval.Lo), num(cc.Diff.Interval.Hi), num(cc.Diff.P), num(adj[i])})
	}
	if err := w.csv(csvName, []string{"candidate", "blocks", "games", "win_rate", "reference_win_rate", "difference",
		"diff95_lo", "diff95_hi", "p", "holm_p"}, rows); err != nil {
		return mdTable{}, nil, err
	}
	return t, adj, nil
}

// counter counts the evaluations and games an evaluator plays.
type counter struct{ evals, games int }

type countingEval struct {
	search.Evaluator
	c *counter
}

func (c *counter) wrap(e search.Evaluator) search.Evaluator { return countingEval{e, c} }

func (e countingEval) Evaluate(ctx context.Context, evals []search.Eval, emit func(int, search.Result) error) (int, error) {
	return e.Evaluator.Evaluate(ctx, evals, func(k int, r search.Result) error {
		e.c.evals++
		e.c.games += r.Games
		return emit(k, r)
	})
}

// field describes a search's field in words.
func field(s *search.Setup) string {
	c := s.Config
	opp := fmt.Sprintf("the line-up %v", c.Opponents)
	if c.Sample {
		opp = fmt.Sprintf("%d opponents drawn per block from %v", c.Players-1, c.Opponents)
	}
	return fmt.Sprintf("%d-player games of rules `%s`, `%s` against %s", c.Players, s.Field.Rules.Name, c.Base, opp)
}

func windowText(sp search.Space, l *search.Level) string {
	s := ""
	for i, d := range sp {
		if i > 0 {
			s += " × "
		}
		s += fmt.Sprintf("%s [%s, %s]", d.Param.Name, bots.FormatNum(d.Value(l.Lo[i])), bots.FormatNum(d.Value(l.Hi[i])))
	}
	return s
}

func fmtP(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return textfmt.Fixed(p, 3)
}

// pRel returns "= p" or "< 0.001".
func pRel(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return "= " + textfmt.Fixed(p, 3)
}

// playSearch plays every step of the search method newM makes with ev and
// returns the method at its end: in memory, or, when the writer has a
// work folder, logged in its subfolder name under the fingerprint fp
// (search.Search), so that an interrupted run continues from the log and
// a finished one is replayed, not played again. It also returns the
// number of evaluations of the whole search (played or replayed).
// progress is called after each step played in memory.
func (w *writer) playSearch(ctx context.Context, name string, fp []byte, newM func() (search.Method, error),
	ev search.Evaluator, progress func(m search.Method, step int)) (search.Method, int, error) {
	if w.work == "" {
		m, err := newM()
		if err != nil {
			return nil, 0, err
		}
		c := &counter{}
		err = search.Play(ctx, m, c.wrap(ev), func(step int) {
			if progress != nil {
				progress(m, step)
			}
		})
		return m, c.evals, err
	}
	s := &search.Search{Dir: filepath.Join(w.work, name), Config: fp, New: newM, Eval: ev}
	before, err := logGames(filepath.Join(s.Dir, "log.jsonl"))
	if err != nil {
		return nil, 0, err
	}
	st, err := s.Run(ctx, true)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", s.Dir, err)
	}
	w.readBack += before
	w.logf("  %s: %d evaluations in %s", name, st.Lines, s.Dir)
	return st.Method, st.Lines, nil
}
