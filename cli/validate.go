package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/internal/searchreport"
	"github.com/marslab-risk/marslab/search"
)

const validateUsage = `usage: marslab validate CONFIG -a SEAT [flags]

Plays candidate A (a seat of CONFIG's bot, e.g. mars@results/narrow-wp-pob/best.toml) and
reference B (default: the [validate] table's against, e.g. mars@paper) on the same fresh
blocks of CONFIG's field (deals never used by a search: blocks from 2^30), each block with
the candidate in every seat, and reports both win rates with Wilson intervals, the paired
difference A - B with its 95 % interval and p-value (t test over blocks) and McNemar's test
over the game pairs; -sprt stops as soon as Wald's sequential test decides. The evaluations
go to DIR/log.jsonl (resume, shards and merge as marslab sweep) and the report to
DIR/validation.md.`

// validateFlags are the flags of marslab validate.
type validateFlags struct {
	searchFlags
	a, b            *string
	blocks, chunk   *int
	sprt            *bool
	p1, alpha, beta *float64
}

func validateFlagSet(fs *flag.FlagSet) *validateFlags {
	return &validateFlags{
		searchFlags: addSearchFlags(fs),
		a:           fs.String("a", "", "candidate A: a seat of the config's bot (required)"),
		b:           fs.String("b", "", "reference B (default: the config's [validate] against)"),
		blocks:      fs.Int("blocks", 0, "blocks to play, >= 2 (default: the config's [validate] blocks); the most with -sprt"),
		chunk:       fs.Int("chunk", 10, "blocks per step (the SPRT is checked after each), >= 1"),
		sprt:        fs.Bool("sprt", false, "stop when Wald's sequential probability ratio test decides"),
		p1:          fs.Float64("p1", 0.6, "SPRT: A's share of the discordant game pairs under H1, in (0.5, 1)"),
		alpha:       fs.Float64("alpha", 0.05, "SPRT: error rate of deciding A better when it is not"),
		beta:        fs.Float64("beta", 0.1, "SPRT: error rate of deciding A not better when it wins a share p1"),
	}
}

// cmdValidate plays a candidate against a reference on fresh blocks of a
// search config's field and reports the paired difference.
func cmdValidate(ctx context.Context, in *invocation, f *validateFlags) error {
	setup, err := loadSearch(in)
	if err != nil {
		return err
	}
	cfg := setup.Config
	vcfg, err := f.config(in.reg, setup)
	if err != nil {
		return err
	}
	field := setup.Field
	field.Space = search.FullSpace(field)
	field.Workers = *f.workers
	dir := f.dir(cfg.Name + "-validate")
	s := &search.Search[*search.Validation]{
		Dir:     dir,
		Config:  setup.ValidationFingerprint(*f.a, *f.b, vcfg),
		New:     func() (*search.Validation, error) { return search.NewValidation(vcfg) },
		Eval:    field,
		Players: field.Players,
	}
	var verdict string
	s.Report = func(v *search.Validation) error {
		verdict, err = searchreport.WriteValidation(dir, setup, *f.a, *f.b, v)
		return err
	}
	return runSearch(ctx, in, f.searchFlags, s, "validation.md", func(st *search.State[*search.Validation]) {
		printValidation(in.stdout, st.Method, *f.a, *f.b, verdict)
	})
}

// config checks the flags of marslab validate against the config of
// setup (-b and -blocks default to its [validate] table) and returns the
// validation they ask for.
func (f *validateFlags) config(reg *bots.Registry, setup *search.Setup) (search.ValidateConfig, error) {
	cfg, field := setup.Config, setup.Field
	if *f.b == "" && cfg.Validate != nil {
		*f.b = cfg.Validate.Against
	}
	if *f.blocks == 0 && cfg.Validate != nil {
		*f.blocks = cfg.Validate.Blocks
	}
	switch {
	case *f.a == "":
		return search.ValidateConfig{}, fmt.Errorf("-a: want the candidate's seat, e.g. mars@results/%s/best.toml", cfg.Name)
	case *f.b == "":
		return search.ValidateConfig{}, fmt.Errorf("-b: want the reference seat (or a [validate] table with against in %s)", cfg.Source)
	case *f.blocks < 2:
		return search.ValidateConfig{}, fmt.Errorf("-blocks %d: want >= 2 (or a [validate] table with blocks in %s)", *f.blocks, cfg.Source)
	case *f.chunk < 1:
		return search.ValidateConfig{}, fmt.Errorf("-chunk %d: want >= 1", *f.chunk)
	}
	space := search.FullSpace(field)
	var xs [2][]float64
	for i, spec := range []string{*f.a, *f.b} {
		seat, err := reg.ParseSeat(spec, nil)
		if err != nil {
			return search.ValidateConfig{}, fmt.Errorf("-%c: %w", "ab"[i], err)
		}
		if seat.Factory.Name != field.Base.Factory.Name {
			return search.ValidateConfig{}, fmt.Errorf("-%c %s: a %s seat, but %s searches %s", "ab"[i], spec, seat.Factory.Name, cfg.Source, field.Base.Factory.Name)
		}
		xs[i] = search.SeatValues(space, seat.Params)
	}
	vcfg := search.ValidateConfig{A: xs[0], B: xs[1], Blocks: *f.blocks, Chunk: *f.chunk}
	field.SplitConditions(&vcfg)
	if *f.sprt {
		vcfg.SPRT = &search.SPRT{P1: *f.p1, Alpha: *f.alpha, Beta: *f.beta}
		if err := vcfg.SPRT.Check(); err != nil {
			return search.ValidateConfig{}, err
		}
	}
	return vcfg, nil
}

// printValidation prints the comparison of a complete validation v of
// seat a against seat b, and its verdict.
func printValidation(w io.Writer, v *search.Validation, a, b, verdict string) {
	c, err := v.Compare()
	if err != nil {
		fmt.Fprintf(w, "validate: %v\n", err)
		return
	}
	fmt.Fprintf(w, "validate: A %s %.3f [%.3f, %.3f], B %s %.3f [%.3f, %.3f] over %d games each\n", a, c.WinA, c.WilsonA.Lo, c.WilsonA.Hi, b, c.WinB, c.WilsonB.Lo, c.WilsonB.Hi, c.Games)
	fmt.Fprintf(w, "A - B %+.3f, 95 %% interval [%+.3f, %+.3f], p = %.3g (%d blocks)", c.Diff.Mean, c.Diff.Interval.Lo, c.Diff.Interval.Hi, c.Diff.P, c.Blocks)
	if c.Decision != "" {
		fmt.Fprintf(w, "; SPRT: %s", c.Decision)
	}
	fmt.Fprintf(w, "\n%s\n", verdict)
}
