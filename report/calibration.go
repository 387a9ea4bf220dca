package report

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/outdir"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
	"github.com/marslab-risk/marslab/table"
)

// calibrationNotes are the note sections of a calibration notebook.
var calibrationNotes = []string{"intro", "narrow", "paper", "cmaes", "search", "readings", "effects", "validation", "tournament", "conclusion", "timing"}

// calibrationConfig is the config of a calibration notebook: a narrowing
// search of two parameters (optional), a search of many by CMA-ES or
// another method, the other named-option readings at its result
// (optional), the named options' effects and the validation of the
// results against a reference on fresh deals (package search).
type calibrationConfig struct {
	Header
	Calibration struct {
		// Narrow and CMAES are search config files (package search's
		// format, with a [narrow] and a [cmaes] table), relative to the
		// notebook's folder. The notebook's seed replaces theirs. Narrow
		// may be empty (no narrowing); Search, with Method, replaces
		// CMAES: a config with the table of Method (cmaes, spsa,
		// surrogate, halving; "" = its one method table).
		Narrow string `toml:"narrow"`
		CMAES  string `toml:"cmaes"`
		Search string `toml:"search"`
		Method string `toml:"method"`
		// Against is the reference seat of the validations and effects.
		Against string `toml:"against"`
		// ValidateBlocks is the number of fresh blocks of each validation;
		// EffectBlocks those of each option's effect (0 = no effects);
		// ReadingBlocks those of each other reading at the search's result
		// (0 = none compared).
		ValidateBlocks int `toml:"validate_blocks"`
		EffectBlocks   int `toml:"effect_blocks"`
		ReadingBlocks  int `toml:"reading_blocks"`
		// Tuned is the name the tuned result ships under when shown better
		// (default mars@tuned; tournament.tuned when a round robin is
		// played).
		Tuned string `toml:"tuned"`
		// Versus are seats of the calibrated bot that the tuned result
		// meets on the validation's blocks (e.g. "mars@paperfield").
		Versus []string `toml:"versus"`
		// Workers is the number of games played at once (0 = every core).
		Workers int `toml:"workers"`
		// ConfirmSeed, when not 0, is the experiment seed of a second
		// validation of every candidate, on blocks of a seed that neither
		// search nor the first validation used (it must differ from the
		// notebook's seed).
		ConfirmSeed int64 `toml:"confirm_seed"`
	} `toml:"calibration"`
	// Quick is the reduced size: the narrowing's levels, rounds, blocks
	// and points per parameter (with a narrowing), the search's
	// generations (SPSA's iterations, the surrogate's rounds, halving's
	// brackets) and blocks per evaluation, and the validation, effect
	// and reading blocks.
	Quick struct {
		Levels         int `toml:"levels"`
		Rounds         int `toml:"rounds"`
		Blocks         int `toml:"blocks"`
		Points         int `toml:"points"`
		Generations    int `toml:"generations"`
		CMAESBlocks    int `toml:"cmaes_blocks"`
		ValidateBlocks int `toml:"validate_blocks"`
		EffectBlocks   int `toml:"effect_blocks"`
		ReadingBlocks  int `toml:"reading_blocks"`
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
	// search is the config file of the search of many parameters (CMAES
	// or Search), method its method.
	search, method string
}

func parseCalibration(path string, data []byte) (experiment, error) {
	c := calibrationConfig{path: path}
	if err := decodeStrict(path, data, &c); err != nil {
		return nil, err
	}
	ck := &checker{path: path}
	k := &c.Calibration
	switch {
	case k.CMAES != "" && k.Search != "":
		ck.fail("calibration.search", "%q: want either calibration.cmaes or calibration.search, not both", k.Search)
	case k.CMAES != "":
		c.search, c.method = k.CMAES, "cmaes"
		if k.Method != "" && k.Method != "cmaes" {
			ck.fail("calibration.method", "%q: calibration.cmaes searches by cmaes (use calibration.search for another method)", k.Method)
		}
	case k.Search != "":
		c.search, c.method = k.Search, k.Method
		if k.Method != "" && !slices.Contains([]string{"cmaes", "spsa", "surrogate", "halving"}, k.Method) {
			ck.fail("calibration.method", "%q: want cmaes, spsa, surrogate or halving (or none: the search config's one method table)", k.Method)
		}
	default:
		ck.fail("calibration.search", "missing: want the config of the search of many parameters (or calibration.cmaes)")
	}
	ck.nonEmpty("calibration.against", k.Against)
	ck.intIn("calibration.validate_blocks", k.ValidateBlocks, 2, 1<<20)
	if k.EffectBlocks != 0 {
		ck.intIn("calibration.effect_blocks", k.EffectBlocks, 2, 1<<20)
	}
	if k.ReadingBlocks != 0 {
		ck.intIn("calibration.reading_blocks", k.ReadingBlocks, 2, 1<<20)
	}
	if k.Tuned != "" && c.Tournament != nil {
		ck.fail("calibration.tuned", "%q: the tournament's tuned names the result (tournament.tuned)", k.Tuned)
	}
	for i, v := range k.Versus {
		ck.nonEmpty(fmt.Sprintf("calibration.versus[%d]", i), v)
	}
	distinct(ck, "calibration.versus", k.Versus)
	ck.intIn("calibration.workers", k.Workers, 0, maxWorkers)
	q := &c.Quick
	if k.Narrow != "" {
		ck.intIn("quick.levels", q.Levels, 1, 10)
		ck.intIn("quick.rounds", q.Rounds, 1, 10)
		ck.intIn("quick.blocks", q.Blocks, 1, 100)
		ck.intIn("quick.points", q.Points, 1, 10)
	}
	ck.intIn("quick.generations", q.Generations, 1, 100)
	ck.intIn("quick.cmaes_blocks", q.CMAESBlocks, 1, 100)
	ck.intIn("quick.validate_blocks", q.ValidateBlocks, 2, 1000)
	if k.EffectBlocks != 0 {
		ck.intIn("quick.effect_blocks", q.EffectBlocks, 2, 1000)
	}
	if k.ReadingBlocks != 0 {
		ck.intIn("quick.reading_blocks", q.ReadingBlocks, 2, 1000)
	}
	if k.Narrow != "" || len(c.Paper.Values) > 0 {
		ck.nonEmpty("paper.source", c.Paper.Source)
	}
	if k.ConfirmSeed < 0 || (k.ConfirmSeed != 0 && uint64(k.ConfirmSeed) == c.Seed) {
		ck.fail("calibration.confirm_seed", "%d: want 0 (none) or a positive seed other than the notebook's seed %d", k.ConfirmSeed, c.Seed)
	}
	if c.Tournament != nil {
		c.tn = c.Tournament.check(ck, path)
	}
	if ck.err != nil {
		return nil, ck.err
	}
	if k.Narrow != "" {
		sc, err := search.LoadConfig(notebookPath(filepath.Dir(path), k.Narrow))
		if err != nil {
			return nil, fmt.Errorf("%s: key calibration.narrow: %w", path, err)
		}
		if sc.Narrow == nil || len(sc.Params) != 2 {
			return nil, fmt.Errorf("%s: key calibration.narrow: %s needs a [narrow] table and two [[param]] tables", path, sc.Source)
		}
	}
	key := "calibration.search"
	if k.CMAES != "" {
		key = "calibration.cmaes"
	}
	sc, err := search.LoadConfig(notebookPath(filepath.Dir(path), c.search))
	if err != nil {
		return nil, fmt.Errorf("%s: key %s: %w", path, key, err)
	}
	if c.method == "cmaes" && sc.CMAES == nil {
		return nil, fmt.Errorf("%s: key %s: %s needs a [cmaes] table", path, key, sc.Source)
	}
	if c.method == "" {
		var have []string
		for m, ok := range map[string]bool{"cmaes": sc.CMAES != nil, "spsa": sc.SPSA != nil, "surrogate": sc.Surrogate != nil, "halving": sc.Halving != nil} {
			if ok {
				have = append(have, m)
			}
		}
		if len(have) != 1 {
			return nil, fmt.Errorf("%s: key %s: %s has %d method tables: want one, or name it in calibration.method", path, key, sc.Source, len(have))
		}
		c.method = have[0]
	}
	if m := c.method; (m == "spsa" && sc.SPSA == nil) || (m == "surrogate" && sc.Surrogate == nil) || (m == "halving" && sc.Halving == nil) {
		return nil, fmt.Errorf("%s: key calibration.method: %s needs a [%s] table", path, sc.Source, m)
	}
	return &c, nil
}

func (c *calibrationConfig) template() string { return "calibration.md.tmpl" }

func (c *calibrationConfig) sizes(quick bool) string {
	if quick {
		q := c.Quick
		var parts []string
		if c.Calibration.Narrow != "" {
			parts = append(parts, fmt.Sprintf("narrowing %d level(s) x %d round(s) x %d block(s), %d points per parameter", q.Levels, q.Rounds, q.Blocks, q.Points))
		}
		steps := map[string]string{"cmaes": "generation(s)", "spsa": "iteration(s)", "surrogate": "round(s)", "halving": "bracket(s)"}[c.method]
		parts = append(parts, fmt.Sprintf("%s %d %s of %d block(s)", methodTitle(c.method), q.Generations, steps, q.CMAESBlocks))
		checks := fmt.Sprintf("validation %d blocks", q.ValidateBlocks)
		if c.Calibration.EffectBlocks > 0 {
			checks += fmt.Sprintf(", effects %d blocks", q.EffectBlocks)
		}
		if c.Calibration.ReadingBlocks > 0 {
			checks += fmt.Sprintf(", readings %d blocks", q.ReadingBlocks)
		}
		return strings.Join(append(parts, checks), "; ")
	}
	s := "the searches as configured in " + c.Calibration.Narrow + " and " + c.search
	if c.Calibration.Narrow == "" {
		s = "the search as configured in " + c.search
	}
	s += fmt.Sprintf("; validation %d blocks", c.Calibration.ValidateBlocks)
	if c.Calibration.EffectBlocks > 0 {
		s += fmt.Sprintf(", effects %d blocks", c.Calibration.EffectBlocks)
	}
	if c.Calibration.ReadingBlocks > 0 {
		s += fmt.Sprintf(", readings %d blocks", c.Calibration.ReadingBlocks)
	}
	return s
}

// methodTitle names search method m in a sentence.
func methodTitle(m string) string {
	return map[string]string{"cmaes": "CMA-ES", "spsa": "SPSA", "surrogate": "the surrogate", "halving": "successive halving"}[m]
}

// calibrationData is what the calibration template sees: the tables and
// sentences package searchreport renders from the calibration's result,
// and the notebook's set-up and timing.
type calibrationData struct {
	NarrowConfig, CMAESConfig string
	// Narrowed and Evolved say whether the notebook has a narrowing and a
	// CMA-ES search.
	Narrowed, Evolved bool
	Field             string
	Against           string
	// Unsearched names where a candidate's unsearched parameters come
	// from: the searches' base seat.
	Unsearched  string
	PaperSource string
	// Cal is the calibration's result: the template reads its numbers
	// (e.g. .Cal.NarrowEvals).
	Cal *search.Calibration
	// Narrowing.
	Levels     table.Table
	BestText   string
	PaperTable table.Table
	PaperText  string
	// CMA-ES.
	Generations int
	Lambda      int
	FinalText   string
	CMAESParams table.Table
	// Another method's search: its name in a sentence, its description,
	// the start and result of every searched parameter, the games it
	// played and the sentence on its last recommendation.
	Method      string
	MethodText  string
	SearchTable table.Table
	SearchGames int
	// Readings: each other named-option reading at the search's result
	// against it, and the sentence on the one kept.
	Readings     table.Table
	ReadingsText string
	// Versus: the tuned result against further seats on the validation's
	// blocks, and a sentence per seat; TunedWin states the tuned
	// result's win rate on the validations.
	Versus     table.Table
	VersusText []string
	TunedWin   string
	// Effects and validations.
	Effects     table.Table
	EffectsText string
	Validations table.Table
	// ConditionValidations are each candidate's comparisons within the
	// conditions of a mixture field (none for one condition).
	ConditionValidations []condValidation
	Blocks               int
	Tuned                string
	Better               bool
	Verdict              string
	// Confirmations are the validations on ConfirmSeed (none when 0);
	// Confirmed says what they found for the tuned candidate.
	Confirmations table.Table
	ConfirmSeed   uint64
	Confirmed     string
	// Tournament is the round robin with the tuned result (nil without a
	// [tournament] table).
	Tournament *calTourneyData
	runTiming
	// TunedName is the name the tuned result ships under.
	TunedName string
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
	var ns *search.Setup
	if c.Calibration.Narrow != "" {
		var err error
		if ns, err = load(c.Calibration.Narrow); err != nil {
			return nil, err
		}
	}
	es, err := load(c.search)
	if err != nil {
		return nil, err
	}
	q := c.Quick
	if w.quick {
		if ns != nil {
			ns.Config.Narrow.Levels, ns.Config.Narrow.Rounds, ns.Config.Narrow.Blocks = q.Levels, q.Rounds, q.Blocks
			for i := range ns.Config.Params {
				ns.Config.Params[i].Points = q.Points
			}
		}
		switch sc := es.Config; c.method {
		case "cmaes":
			m := sc.CMAES
			m.Generations, m.Blocks, m.MaxBlocks, m.MeanBlocks, m.FinalBlocks = q.Generations, q.CMAESBlocks, 2*q.CMAESBlocks, q.CMAESBlocks, 2*q.CMAESBlocks
		case "spsa":
			sc.SPSA.Iterations, sc.SPSA.Blocks, sc.SPSA.FinalBlocks = q.Generations, q.CMAESBlocks, q.CMAESBlocks
		case "surrogate":
			sc.Surrogate.Rounds, sc.Surrogate.Blocks, sc.Surrogate.FinalBlocks = q.Generations, q.CMAESBlocks, q.CMAESBlocks
		case "halving":
			sc.Halving.Brackets, sc.Halving.Blocks, sc.Halving.FinalBlocks = q.Generations, q.CMAESBlocks, q.CMAESBlocks
		}
	}
	vblocks, eblocks, rblocks := c.Calibration.ValidateBlocks, c.Calibration.EffectBlocks, c.Calibration.ReadingBlocks
	if w.quick {
		vblocks = q.ValidateBlocks
		if eblocks > 0 {
			eblocks = q.EffectBlocks
		}
		if rblocks > 0 {
			rblocks = q.ReadingBlocks
		}
	}
	ref, err := w.reg.ParseSeat(c.Calibration.Against, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: key calibration.against: %w", c.path, err)
	}
	var versus []bots.Seat
	for i, v := range c.Calibration.Versus {
		s, err := w.reg.ParseSeat(v, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: key calibration.versus[%d]: %w", c.path, i, err)
		}
		versus = append(versus, s)
	}
	count := &counter{}
	cal, err := search.Calibrate(ctx, search.CalibrateConfig{Narrow: ns, CMAES: es, Method: c.method, Reference: ref, ReferenceName: c.Calibration.Against,
		ValidateBlocks: vblocks, EffectBlocks: eblocks, ReadingBlocks: rblocks, Versus: versus, ConfirmSeed: uint64(c.Calibration.ConfirmSeed), Log: w.logf,
		Play: func(ctx context.Context, key string, fp []byte, newM func() (search.Method, error), ev search.Evaluator) (search.Method, int, error) {
			var progress func(step, steps int, status string)
			switch key {
			case "narrow", "cmaes":
				progress = logStep(w)
			case c.method:
				// SPSA's hundreds of iterations: every 50th.
				progress = func(step, steps int, status string) {
					if (step+1)%50 == 0 || step+1 == steps {
						w.logf("  step %d/%d: %s", step+1, steps, status)
					}
				}
			}
			return playSearch(ctx, w, key, fp, newM, count.wrap(ev), progress)
		}})
	if err != nil {
		return nil, err
	}
	d, err := c.render(w, cal)
	if err != nil {
		return nil, err
	}
	if err := searchreport.WriteTuned(cal, filepath.Join(w.dir, "tuned.toml"), c.name()); err != nil {
		return nil, err
	}
	w.files = append(w.files, "tuned.toml")
	if c.Tournament != nil {
		if d.Tournament, err = c.playTournaments(ctx, w, tunedSeat(cal, ref), count); err != nil {
			return nil, err
		}
	}
	if err := d.finish(w, count.games, start); err != nil {
		return nil, err
	}
	return d, nil
}

// runTiming is a whole run's size and speed: the games played (ReadBack
// more were read back from the work folder, not played), the seconds and
// the games per second.
type runTiming struct {
	Seconds, GamesPerSecond float64
	Games                   int
	ReadBack                int
}

// finish fills t from the games played since start and writes the run's
// timings.csv.
func (t *runTiming) finish(w *writer, games int, start time.Time) error {
	t.Games, t.ReadBack = games, w.readBack
	t.Seconds = time.Since(start).Seconds()
	t.GamesPerSecond = float64(games) / math.Max(t.Seconds, 1e-9)
	return w.csv(timingsFile, []string{"measure", "subject", "value", "unit"}, [][]string{
		{"seconds", "whole run", num(t.Seconds), "s"}, {"games_per_second", "whole run", num(t.GamesPerSecond), "games/s"}})
}

// render writes the calibration's CSV files and figures and returns the
// template data of its tables and sentences, all rendered by package
// searchreport.
func (c *calibrationConfig) render(w *writer, cal *search.Calibration) (*calibrationData, error) {
	n, e := cal.Narrowing, cal.Evolve
	d := &calibrationData{NarrowConfig: c.Calibration.Narrow, CMAESConfig: c.search, Against: c.Calibration.Against,
		PaperSource: c.Paper.Source, Blocks: cal.Blocks, Field: field(cal.EvolveSetup), TunedName: "mars@tuned", Cal: cal,
		Narrowed: n != nil, Evolved: e != nil, Method: methodTitle(cal.Method), MethodText: searchreport.MethodText(cal.Method)}
	if c.Calibration.Tuned != "" {
		d.TunedName = c.Calibration.Tuned
	}
	if c.Tournament != nil {
		d.TunedName = c.Tournament.Tuned
	}
	narrowBase := cal.EvolveSetup.Field.Base.Label
	if n != nil {
		d.Field = field(cal.NarrowSetup)
		narrowBase = cal.NarrowSetup.Field.Base.Label
		if err := w.table("narrow-cells.csv", searchreport.Cells(n)); err != nil {
			return nil, err
		}
		nfigs, err := searchreport.NarrowFigures(n, "calibration, narrowing", cal.RefNarrow, c.Calibration.Against)
		if err != nil {
			return nil, err
		}
		for _, f := range nfigs {
			if err := w.figure(f.Name, f.Fig); err != nil {
				return nil, err
			}
		}
		d.Levels, d.PaperTable = searchreport.Levels(n), searchreport.PaperTable(cal, c.Paper.Values)
		d.BestText, d.PaperText = searchreport.BestText(n), searchreport.PaperText(cal, c.Paper.Values)
	}
	start := "start (reference)"
	if base := cal.EvolveSetup.Field.Base.Label; base != c.Calibration.Against {
		start = "start (`" + base + "`)"
	}
	if e != nil {
		if err := w.table("cmaes-generations.csv", searchreport.Generations(e)); err != nil {
			return nil, err
		}
		for _, f := range searchreport.EvolveFigures(e, "calibration") {
			if err := w.figure("cmaes-"+f.Name, f.Fig); err != nil {
				return nil, err
			}
		}
		d.Generations, d.Lambda, d.FinalText = len(e.Generations()), e.Config().Lambda, searchreport.FinalText(e)
		d.CMAESParams = searchreport.Params(e, start)
	} else {
		name := cal.Method + "-trace"
		if err := w.table(name+".csv", searchreport.TraceTable(cal, 100)); err != nil {
			return nil, err
		}
		if err := w.figure(name, searchreport.TraceFigure(cal, methodTitle(cal.Method))); err != nil {
			return nil, err
		}
		d.SearchTable = searchreport.SearchParams(cal, start)
		if len(cal.TraceGames) > 0 {
			d.SearchGames = cal.TraceGames[len(cal.TraceGames)-1]
		}
	}
	if len(cal.Readings) > 0 {
		var readings table.Table
		d.Readings, readings = searchreport.ReadingsTables(cal)
		d.ReadingsText = searchreport.ReadingsText(cal)
		if err := w.table("readings.csv", readings); err != nil {
			return nil, err
		}
	}
	d.Unsearched = unsearched(c.Calibration.Against, narrowBase, cal.EvolveSetup.Field.Base.Label)
	var validations table.Table
	d.Validations, validations = searchreport.CandidatesTables(c.Calibration.Against, cal.Validations, cal.Holm)
	if err := w.table("validation.csv", validations); err != nil {
		return nil, err
	}
	if len(cal.Validations) > 0 && len(cal.Validations[0].Conditions) > 0 {
		csv := table.Table{Header: append([]string{"candidate"}, searchreport.ConditionTable(nil).Header...)}
		for _, v := range cal.Validations {
			t := searchreport.ConditionTable(v.Conditions)
			d.ConditionValidations = append(d.ConditionValidations, condValidation{Name: v.Name, Table: t})
			for _, r := range t.Rows {
				csv.Rows = append(csv.Rows, append([]string{v.Name}, r...))
			}
		}
		if err := w.table("validation-conditions.csv", csv); err != nil {
			return nil, err
		}
	}
	d.Better, d.Tuned, d.Verdict = cal.ShownBetter(), cal.Validations[cal.Pick].Name, searchreport.Verdict(cal)
	if len(cal.Confirmations) > 0 {
		var confirmations table.Table
		d.Confirmations, confirmations = searchreport.CandidatesTables(c.Calibration.Against, cal.Confirmations, cal.ConfirmHolm)
		d.ConfirmSeed, d.Confirmed = cal.ConfirmSeed, searchreport.ConfirmedText(cal)
		if err := w.table("confirmation.csv", confirmations); err != nil {
			return nil, err
		}
	}
	d.TunedWin = searchreport.TunedWinText(cal)
	if len(cal.Versus) > 0 {
		var versus table.Table
		d.Versus, versus = searchreport.VersusTables(cal)
		d.VersusText = searchreport.VersusText(cal)
		if err := w.table("versus.csv", versus); err != nil {
			return nil, err
		}
	}
	if len(cal.Effects) == 0 {
		return d, nil
	}
	var effects table.Table
	d.Effects, effects = searchreport.EffectsTables(c.Calibration.Against, cal.Effects)
	d.EffectsText = searchreport.EffectsText(cal.Effects)
	if err := w.table("effects.csv", effects); err != nil {
		return nil, err
	}
	if chart := searchreport.EffectsChart(c.Calibration.Against, cal.Effects); chart != nil {
		if err := w.figure("effects", chart); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// logStep returns a progress function that logs each step of a search
// with its status.
func logStep(w *writer) func(step, steps int, status string) {
	return func(step, steps int, status string) { w.logf("  step %d/%d: %s", step+1, steps, status) }
}

// tunedSeat returns the reference seat ref with the tuned result's values
// of calibration c.
func tunedSeat(c *search.Calibration, ref bots.Seat) bots.Seat {
	s := ref
	s.Params = ref.Params.Clone()
	x := c.Validations[c.Pick].X
	for i, dim := range c.Field.Space {
		s.Params[dim.Param.Name] = x[i]
	}
	return s
}

// name is the notebook's name, its folder's.
func (c *calibrationConfig) name() string { return filepath.Base(filepath.Dir(c.path)) }

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

// condValidation is one candidate's table of comparisons within the
// conditions of a mixture.
type condValidation struct {
	Name  string
	Table table.Table
}

// field describes a search's field in words.
func field(s *search.Setup) string { return searchreport.FieldText(s) }

// unsearched says whose values a candidate holds where its search leaves
// the parameters alone: the base seat of each search (narrowBase,
// cmaesBase), named against the reference.
func unsearched(against, narrowBase, cmaesBase string) string {
	switch {
	case narrowBase == against && cmaesBase == against:
		return "`" + against + "`'s"
	case narrowBase == cmaesBase:
		return "those of the searches' start, `" + narrowBase + "`"
	}
	return "those of each search's start, `" + narrowBase + "` for the narrowing and `" + cmaesBase + "` for CMA-ES"
}

// playSearch plays every step of the search method newM makes with ev and
// returns the method at its end: in memory, or, when the writer has a
// work folder, logged in its subfolder name under the fingerprint fp
// (search.Search), so that an interrupted run continues from the log and
// a finished one is replayed, not played again. It also returns the
// number of evaluations of the whole search (played or replayed).
// progress is called after each step played in memory.
func playSearch[M search.Method](ctx context.Context, w *writer, name string, fp []byte, newM func() (M, error),
	ev search.Evaluator, progress func(step, steps int, status string)) (M, int, error) {
	s := &search.Search[M]{New: newM, Eval: ev, Progress: w.progress, ProgressLines: w.progressLines, Label: name}
	if w.work == "" {
		s.Step = progress
		st, err := s.Run(ctx, false)
		if err != nil {
			var zero M
			return zero, 0, err
		}
		return st.Method, st.Lines, nil
	}
	s.Dir, s.Config = filepath.Join(w.work, name), fp
	// One process plays a search of the work folder at a time: the shards
	// of a transfer notebook (of any count) may share the folder, each
	// cell played by one of them.
	lock, err := outdir.Acquire(s.Dir)
	if err != nil {
		var zero M
		return zero, 0, err
	}
	defer lock.Release()
	st, err := s.Run(ctx, true)
	if err != nil {
		var zero M
		return zero, 0, fmt.Errorf("%s: %w", s.Dir, err)
	}
	w.readBack += st.ReadBack
	w.logf("  %s: %d evaluations in %s", name, st.Lines, s.Dir)
	return st.Method, st.Lines, nil
}
