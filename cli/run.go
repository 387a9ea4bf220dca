package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

const runUsage = `usage: marslab run CONFIG [flags]

The main job (make run plays configs/experiments/paper-run.toml): narrows the two [[param]]
parameters of CONFIG as marslab sweep does (into DIR/narrow), then validates on the same
fresh blocks (deals the search never played) the narrowing optimum and every seat of the
[validate] table's seats against its against (e.g. mars@paper), Holm-adjusted over the
candidates (into DIR/validate). DIR/report.md holds the verdicts, generated from the numbers
(the reference's point inside or outside the narrowing's last window; each candidate better,
worse or not shown different; the difference the blocks detect), the surface with the
reference's point and the windows marked, the table against the paper and the validation
table; DIR/outcome.md the verdict lines alone, DIR/validation.csv the validation.
With -resume an interrupted run continues and a complete one writes its reports again.

A CONFIG without a [narrow] table (e.g. configs/experiments/calibration-paper-fast.toml), or
-method, searches by its [cmaes], [spsa], [surrogate] or [halving] table instead (into
DIR/search, the files of marslab evolve) and validates the method's recommendation (every
other parameter the base's) and the seats likewise. -seed N replaces the config's seed (the
deals of the search and of the validation, and the method's random choices); the default
folder is then results/NAME-seed-N.`

// runFlags are run's flags: the search flags, -method and -seed.
type runFlags struct {
	searchFlags
	method *string
	seed   *int64
}

func runFlagSet(fs *flag.FlagSet) runFlags {
	return runFlags{searchFlags: searchFlags{
		out:     fs.String("out", "", "output directory (default results/NAME, NAME the config's name)"),
		workers: workersFlag(fs),
		resume:  fs.Bool("resume", false, "continue the run in the output directory (a complete one writes its reports again)"),
		figures: fs.Bool("figures", true, "draw the figures (PNG)"),
		quiet:   fs.Bool("quiet", false, "print neither the progress nor the verdicts"),
	},
		method: fs.String("method", "", "search by this method of the config's tables (cmaes, spsa, surrogate, halving) instead of [narrow]"),
		seed:   fs.Int64("seed", -1, "replace the config's seed, >= 0 (default: the config's)"),
	}
}

// mainRun is one marslab run: its setup, flags, folder and the seats the
// validation plays, the reference first.
type mainRun struct {
	in       *invocation
	f        runFlags
	setup    *search.Setup
	dir      string
	ref      bots.Seat
	seats    []runSeat
	progress io.Writer
	// method names the search method: "narrow", or a method of the
	// config's tables that mk makes.
	method string
	mk     func() (search.Recommender, error)
}

// runSeat is a seat of the validation: its specification and its values in
// the full space of the bot's parameters.
type runSeat struct {
	name string
	x    []float64
}

// cmdRun runs the main job: a narrowing search, then one validation of
// its optimum and of the config's named seats against the reference on
// fresh blocks, and the report of both.
func cmdRun(ctx context.Context, in *invocation, f runFlags) error {
	r, err := newMainRun(in, f)
	if err != nil {
		return err
	}
	lock, err := ownDir(r.dir)
	if err != nil {
		return err
	}
	defer lock.Release()
	if r.method != "narrow" {
		rec, err := r.search(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", r.method, err)
		}
		return r.validate(ctx, nil, rec)
	}
	n, err := r.narrow(ctx)
	if err != nil {
		return fmt.Errorf("narrowing: %w", err)
	}
	return r.validate(ctx, n, nil)
}

// newMainRun loads and checks the config of a marslab run and the seats
// of its [validate] table.
func newMainRun(in *invocation, f runFlags) (*mainRun, error) {
	setup, err := loadSearch(in)
	if err != nil {
		return nil, err
	}
	if err := checkWorkers(*f.workers); err != nil {
		return nil, err
	}
	if *f.seed < -1 {
		return nil, fmt.Errorf("-seed %d: must be >= 0", *f.seed)
	}
	cfg := setup.Config
	name := cfg.Name
	if *f.seed >= 0 {
		cfg.Seed, setup.Field.Seed = uint64(*f.seed), uint64(*f.seed)
		name = fmt.Sprintf("%s-seed-%d", cfg.Name, *f.seed)
	}
	method := "narrow"
	var mk func() (search.Recommender, error)
	if cfg.Narrow != nil && *f.method == "" {
		if _, err := setup.NarrowConfig(); err != nil {
			return nil, err
		}
	} else if method, mk, err = setup.Recommender(*f.method); err != nil {
		return nil, err
	}
	if cfg.Validate == nil {
		return nil, fmt.Errorf("%s: no [validate] table: want against, blocks and seats", cfg.Source)
	}
	setup.Field.Workers = *f.workers
	r := &mainRun{in: in, f: f, setup: setup, dir: f.dir(name), progress: in.progress(*f.quiet), method: method, mk: mk}
	if r.ref, err = in.reg.ParseSeat(cfg.Validate.Against, nil); err != nil {
		return nil, fmt.Errorf("%s: key validate.against: %w", cfg.Source, err)
	}
	return r, r.parseSeats()
}

// parseSeats parses the [validate] table's against and seats, each a seat
// of the searched bot.
func (r *mainRun) parseSeats() error {
	cfg, field := r.setup.Config, r.setup.Field
	full := search.FullSpace(field)
	for i, spec := range append([]string{cfg.Validate.Against}, cfg.Validate.Seats...) {
		seat, err := r.in.reg.ParseSeat(spec, nil)
		key := "validate.against"
		if i > 0 {
			key = fmt.Sprintf("validate.seats[%d]", i-1)
		}
		if err != nil {
			return fmt.Errorf("%s: key %s: %w", cfg.Source, key, err)
		}
		if seat.Factory.Name != field.Base.Factory.Name {
			return fmt.Errorf("%s: key %s: %s is a %s seat, but the config searches %s", cfg.Source, key, spec, seat.Factory.Name, field.Base.Factory.Name)
		}
		r.seats = append(r.seats, runSeat{spec, search.SeatValues(full, seat.Params)})
	}
	return nil
}

// narrow runs the narrowing, in DIR/narrow.
func (r *mainRun) narrow(ctx context.Context) (*search.Narrowing, error) {
	setup := r.setup
	ncfg, err := setup.NarrowConfig()
	if err != nil {
		return nil, err
	}
	ndir := filepath.Join(r.dir, "narrow")
	ns := &search.Search[*search.Narrowing]{
		Dir:      ndir,
		Config:   setup.Fingerprint("narrow"),
		New:      func() (*search.Narrowing, error) { return search.NewNarrowing(ncfg) },
		Eval:     setup.Field,
		Players:  setup.Field.Players,
		Progress: r.progress, ProgressLines: !isTerminal(r.in.stderr), Label: "run: narrowing",
	}
	ns.Report = func(n *search.Narrowing) error {
		return searchreport.WriteNarrow(ndir, setup, n, *r.f.figures)
	}
	if r.progress != nil {
		fmt.Fprintf(r.progress, "run: 1/2 narrowing of %s in %s\n", setup.Space.Label(search.SeatValues(setup.Space, r.ref.Params)), ndir)
	}
	st, err := ns.Run(ctx, *r.f.resume)
	if err != nil {
		return nil, err
	}
	return st.Method, nil
}

// search runs the search by r.method, in DIR/search, and returns its
// recommendation.
func (r *mainRun) search(ctx context.Context) ([]float64, error) {
	setup := r.setup
	sdir := filepath.Join(r.dir, "search")
	ss := &search.Search[search.Recommender]{
		Dir:      sdir,
		Config:   setup.Fingerprint(r.method),
		New:      r.mk,
		Eval:     setup.Field,
		Players:  setup.Field.Players,
		Progress: r.progress, ProgressLines: !isTerminal(r.in.stderr), Label: "run: " + r.method,
	}
	ss.Report = func(m search.Recommender) error {
		return searchreport.WriteSearchResult(sdir, setup, r.method, m)
	}
	if r.progress != nil {
		fmt.Fprintf(r.progress, "run: 1/2 %s search of %d parameters in %s\n", r.method, len(setup.Space), sdir)
	}
	st, err := ss.Run(ctx, *r.f.resume)
	if err != nil {
		return nil, err
	}
	return st.Method.Recommend(), nil
}

// validate runs the validation of the search's result (the optimum of the
// narrowing n, or the recommendation rec of another method) and of the
// seats against the reference, in DIR/validate, and writes the report.
func (r *mainRun) validate(ctx context.Context, n *search.Narrowing, rec []float64) error {
	setup, v := r.setup, r.setup.Config.Validate
	full := search.FullSpace(setup.Field)
	var optimum bots.Values
	var names []string
	if n != nil {
		// The optimum is the reference seat with the narrowed values.
		best, _ := n.Best()
		optimum = r.ref.Params.Clone()
		for i, d := range setup.Space {
			optimum[d.Param.Name] = best.X[i]
		}
		names = []string{"narrowing optimum " + setup.Space.Label(best.X)}
	} else {
		// The recommendation is the base seat with the searched values.
		optimum = setup.Field.Base.Params.Clone()
		for i, d := range setup.Space {
			optimum[d.Param.Name] = rec[i]
		}
		names = []string{r.method + " recommendation"}
	}
	vcfg := search.PanelConfig{Sets: [][]float64{search.SeatValues(full, optimum)}, Ref: r.seats[0].x, Blocks: v.Blocks, Chunk: 10}
	for _, c := range r.seats[1:] {
		names = append(names, c.name)
		vcfg.Sets = append(vcfg.Sets, c.x)
	}
	vfield := *setup.Field
	vfield.Space = full
	vdir := filepath.Join(r.dir, "validate")
	vs := &search.Search[*search.Panel]{
		Dir:      vdir,
		Config:   setup.ValidationSetFingerprint(names, v.Against, vcfg),
		New:      func() (*search.Panel, error) { return search.NewPanel(vcfg) },
		Eval:     &vfield,
		Players:  setup.Field.Players,
		Progress: r.progress, ProgressLines: !isTerminal(r.in.stderr), Label: "run: validation",
	}
	if r.progress != nil {
		fmt.Fprintf(r.progress, "run: 2/2 validation of %d candidates against %s on %d fresh blocks in %s\n", len(names), v.Against, v.Blocks, vdir)
	}
	vst, err := vs.Run(ctx, *r.f.resume)
	if err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	cands, holm, err := vst.Method.Candidates(names)
	if err != nil {
		return err
	}
	return r.report(n, rec, cands, holm)
}

// report writes DIR/report.md of the narrowing n and the validation's
// candidates and prints the verdicts.
func (r *mainRun) report(n *search.Narrowing, rec []float64, cands []search.Candidate, holm []float64) error {
	mr := &searchreport.MainRun{Setup: r.setup, Narrowing: n, Method: r.method, Recommended: rec, Reference: r.setup.Config.Validate.Against,
		RefNarrow: search.SeatValues(r.setup.Space, r.ref.Params), Candidates: cands, Holm: holm}
	var figs []string
	sub := "search"
	if n != nil {
		sub = "narrow"
		if *r.f.figures {
			figs = []string{"surface.png"}
		}
	}
	if err := mr.Write(r.dir, sub, figs); err != nil {
		return err
	}
	if !*r.f.quiet {
		for _, v := range mr.Verdicts() {
			fmt.Fprintln(r.in.stdout, v)
		}
		fmt.Fprintf(r.in.stdout, "report in %s\n", filepath.Join(r.dir, "report.md"))
	}
	return nil
}
