package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

// cmdRun runs the main job: a narrowing search, then one validation of
// its optimum and of the config's named seats against the reference on
// fresh blocks, and the report of both.
func cmdRun(ctx context.Context, reg *bots.Registry, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", `usage: marslab run CONFIG [flags]

The main job (make run plays configs/experiments/paper-run.toml): narrows the two [[param]]
parameters of CONFIG as marslab sweep does (into DIR/narrow), then validates on the same
fresh blocks (deals the search never played) the narrowing optimum and every seat of the
[validate] table's seats against its against (e.g. mars@paper), Holm-adjusted over the
candidates (into DIR/validate). DIR/report.md holds the verdicts, generated from the numbers
(the reference's point inside or outside the narrowing's last window; each candidate better,
worse or not shown different; the difference the blocks detect), the surface with the
reference's point and the windows marked, the table against the paper and the validation
table; DIR/outcome.md the verdict lines alone, DIR/validation.csv the validation.
With -resume an interrupted run continues and a complete one writes its reports again.`, stderr)
	f := searchFlags{
		out:     fs.String("out", "", "output directory (default results/NAME, NAME the config's name)"),
		workers: fs.Int("workers", 0, "games played at once, >= 0 (0 = every core)"),
		resume:  fs.Bool("resume", false, "continue the run in the output directory (a complete one writes its reports again)"),
		figures: fs.Bool("figures", true, "draw the figures (PNG)"),
		quiet:   fs.Bool("quiet", false, "print neither the progress nor the verdicts"),
	}
	setup, err := loadSearch(fs, reg, args, stdout)
	if err != nil {
		return err
	}
	switch {
	case *f.workers < 0:
		return fmt.Errorf("run: -workers %d: must be >= 0 (0 = every core)", *f.workers)
	}
	cfg := setup.Config
	ncfg, err := setup.NarrowConfig()
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if cfg.Validate == nil {
		return fmt.Errorf("run: %s: no [validate] table: want against, blocks and seats", cfg.Source)
	}
	field := setup.Field
	field.Workers = *f.workers
	ref, err := reg.ParseSeat(cfg.Validate.Against, nil)
	if err != nil {
		return fmt.Errorf("run: %s: key validate.against: %w", cfg.Source, err)
	}
	full := search.FullSpace(field)
	type cand struct {
		name string
		x    []float64
	}
	var seats []cand
	for i, spec := range append([]string{cfg.Validate.Against}, cfg.Validate.Seats...) {
		seat, err := reg.ParseSeat(spec, nil)
		key := "validate.against"
		if i > 0 {
			key = fmt.Sprintf("validate.seats[%d]", i-1)
		}
		if err != nil {
			return fmt.Errorf("run: %s: key %s: %w", cfg.Source, key, err)
		}
		if seat.Factory.Name != field.Base.Factory.Name {
			return fmt.Errorf("run: %s: key %s: %s is a %s seat, but the config searches %s", cfg.Source, key, spec, seat.Factory.Name, field.Base.Factory.Name)
		}
		seats = append(seats, cand{spec, search.SeatValues(full, seat.Params)})
	}
	dir := f.dir(cfg.Name)
	lock, err := ownDir(dir)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	defer lock.Release()
	var progress io.Writer
	if !*f.quiet {
		progress = stderr
	}

	// 1. The narrowing, in DIR/narrow.
	ndir := filepath.Join(dir, "narrow")
	ns := &search.Search[*search.Narrowing]{
		Dir:      ndir,
		Config:   setup.Fingerprint("narrow"),
		New:      func() (*search.Narrowing, error) { return search.NewNarrowing(ncfg) },
		Eval:     field,
		Players:  field.Players,
		Progress: progress, ProgressLines: !isTerminal(stderr), Label: "run: narrowing",
	}
	ns.Report = func(n *search.Narrowing) error {
		return searchreport.WriteNarrow(ndir, setup, n, *f.figures)
	}
	if !*f.quiet {
		fmt.Fprintf(stderr, "run: 1/2 narrowing of %s in %s\n", setup.Space.Label(search.SeatValues(setup.Space, ref.Params)), ndir)
	}
	st, err := ns.Run(ctx, *f.resume)
	if err != nil {
		return fmt.Errorf("run: narrowing: %w", err)
	}
	n := st.Method
	best, _ := n.Best()

	// 2. The validation of the optimum and the seats against the
	// reference, in DIR/validate: the optimum is the reference seat with
	// the narrowed values.
	optimum := ref.Params.Clone()
	for i, d := range setup.Space {
		optimum[d.Param.Name] = best.X[i]
	}
	names := []string{"narrowing optimum " + setup.Space.Label(best.X)}
	vcfg := search.PanelConfig{Sets: [][]float64{search.SeatValues(full, optimum)}, Ref: seats[0].x, Blocks: cfg.Validate.Blocks, Chunk: 10}
	for _, c := range seats[1:] {
		names = append(names, c.name)
		vcfg.Sets = append(vcfg.Sets, c.x)
	}
	vfield := *field
	vfield.Space = full
	vdir := filepath.Join(dir, "validate")
	vs := &search.Search[*search.Panel]{
		Dir:      vdir,
		Config:   setup.ValidationSetFingerprint(names, cfg.Validate.Against, vcfg),
		New:      func() (*search.Panel, error) { return search.NewPanel(vcfg) },
		Eval:     &vfield,
		Players:  field.Players,
		Progress: progress, ProgressLines: !isTerminal(stderr), Label: "run: validation",
	}
	if !*f.quiet {
		fmt.Fprintf(stderr, "run: 2/2 validation of %d candidates against %s on %d fresh blocks in %s\n", len(names), cfg.Validate.Against, cfg.Validate.Blocks, vdir)
	}
	vst, err := vs.Run(ctx, *f.resume)
	if err != nil {
		return fmt.Errorf("run: validation: %w", err)
	}
	cands, holm, err := vst.Method.Candidates(names)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	r := &searchreport.MainRun{Setup: setup, Narrowing: n, Reference: cfg.Validate.Against,
		RefNarrow: search.SeatValues(setup.Space, ref.Params), Candidates: cands, Holm: holm}
	var figs []string
	if *f.figures {
		figs = []string{"surface.png"}
	}
	if err := r.Write(dir, "narrow", figs); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if !*f.quiet {
		for _, v := range r.Verdicts() {
			fmt.Fprintln(stdout, v)
		}
		fmt.Fprintf(stdout, "report in %s\n", filepath.Join(dir, "report.md"))
	}
	return nil
}
