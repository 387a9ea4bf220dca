package search

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
)

// tinyCalibration returns the config of a calibration of
// testdata/tiny-calibration.toml on workers, against its base.
func tinyCalibration(t *testing.T, workers int) CalibrateConfig {
	t.Helper()
	reg := registry.Default()
	load := func() *Setup {
		cfg, err := LoadConfig("testdata/tiny-calibration.toml")
		require.NoError(t, err)
		s, err := cfg.Resolve(reg)
		require.NoError(t, err)
		s.Field.Workers = workers
		return s
	}
	var ref bots.Seat
	ref, err := reg.ParseSeat("mars@paper(goal_paths=shortest)", nil)
	require.NoError(t, err)
	return CalibrateConfig{Narrow: load(), CMAES: load(), Reference: ref, ReferenceName: "mars@paper(goal_paths=shortest)", ValidateBlocks: 2, EffectBlocks: 2, ConfirmSeed: 99}
}

// outputs are the numbers of a calibration: every cell of the narrowing,
// every generation of CMA-ES and its final mean, the validations,
// confirmations and effects with their p-values, the tuned result and the
// narrowing's evaluations.
func outputs(c *Calibration) []string {
	return []string{fmt.Sprintf("%+v", c.Narrowing.Levels()), fmt.Sprintf("%+v", c.Evolve.Generations()), fmt.Sprintf("%+v", *c.Evolve.Final()),
		fmt.Sprintf("%+v %v", c.Validations, c.Holm), fmt.Sprintf("%+v %v", c.Confirmations, c.ConfirmHolm), fmt.Sprintf("%+v", c.Effects),
		fmt.Sprint(c.Pick, c.ShownBetter(), c.Confirmed(), c.Validations[c.Pick].X), fmt.Sprint(c.NarrowEvals)}
}

// Calibrate gives the same result in memory and through resumable search
// folders (as marslab report -work plays it), whatever the workers; every
// search is played under its key.
func TestCalibrateInMemoryAndInFolders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mem, err := Calibrate(ctx, tinyCalibration(t, 1))
	require.NoError(t, err)

	dir := t.TempDir()
	cfg := tinyCalibration(t, 2)
	var keys []string
	cfg.Play = func(ctx context.Context, key string, fp []byte, newM func() (Method, error), ev Evaluator) (Method, int, error) {
		keys = append(keys, key)
		s := &Search[Method]{Dir: filepath.Join(dir, key), Config: fp, New: newM, Eval: ev}
		st, err := s.Run(ctx, true)
		if err != nil {
			return nil, 0, err
		}
		return st.Method, st.Lines, nil
	}
	disk, err := Calibrate(ctx, cfg)
	require.NoError(t, err)
	assert.Equal(t, outputs(mem), outputs(disk))

	require.GreaterOrEqual(t, len(keys), 7)
	assert.Equal(t, []string{"narrow", "cmaes", "validate-1", "validate-2", "confirm-1", "confirm-2"}, keys[:6])
	for _, k := range keys[6:] {
		assert.Regexp(t, `^effect-\w+=\w+$`, k)
	}
	assert.Len(t, disk.Effects, len(keys)-6)
	assert.Equal(t, "CMA-ES final mean", disk.Validations[1].Name)
	assert.Equal(t, disk.ShownBetter(), betterHolm(disk.Validations[disk.Pick], disk.Holm[disk.Pick]) && disk.Confirmed())

	// Played again from the folders: every search is read back.
	again, err := Calibrate(ctx, cfg)
	require.NoError(t, err)
	assert.Equal(t, outputs(disk), outputs(again))
}

// A calibration whose searches start from another seat than the reference
// builds its results from that seat (the values it does not search are
// the start's, not the reference's) and validates the start beside them.
func TestCalibrateFromAnotherStart(t *testing.T) {
	t.Parallel()
	cfg := tinyCalibration(t, 2)
	reg := registry.Default()
	start, err := reg.ParseSeat("mars@paper(goal_paths=shortest;G_l=3;C_sv=50)", nil)
	require.NoError(t, err)
	cfg.Narrow.Field.Base, cfg.CMAES.Field.Base = start, start
	c, err := Calibrate(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, c.Validations, 3)
	require.Len(t, c.Confirmations, 3)
	full := c.Field.Space
	at := func(x []float64, name string) float64 {
		for i, dim := range full {
			if dim.Param.Name == name {
				return x[i]
			}
		}
		t.Fatalf("no parameter %s", name)
		return 0
	}
	for _, v := range c.Validations {
		assert.Equal(t, 3.0, at(v.X, "G_l"), v.Name)
		assert.Equal(t, 50.0, at(v.X, "C_sv"), v.Name)
	}
	assert.Equal(t, "search start "+start.Label, c.Validations[2].Name)
	assert.Equal(t, SeatValues(full, start.Params), c.Validations[2].X)
	// Started from the reference, only the two results are validated.
	c, err = Calibrate(context.Background(), tinyCalibration(t, 2))
	require.NoError(t, err)
	assert.Len(t, c.Validations, 2)
}

// A calibration without a narrowing searches by SPSA, compares every other
// reading of the named options at its recommendation, validates the
// recommendation (and the reading shown better, if one is) and compares
// the tuned result with a further seat on the validation's blocks; in
// memory and through folders alike.
func TestCalibrateBySPSAWithReadings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := registry.Default()
	versus, err := reg.ParseSeat("mars@paperfield(goal_paths=shortest)", nil)
	require.NoError(t, err)
	tiny := func(workers int) CalibrateConfig {
		cfg := tinyCalibration(t, workers)
		cfg.Narrow, cfg.Method, cfg.ReadingBlocks, cfg.EffectBlocks = nil, "spsa", 2, 0
		cfg.Versus = []bots.Seat{versus}
		return cfg
	}
	mem, err := Calibrate(ctx, tiny(1))
	require.NoError(t, err)

	dir := t.TempDir()
	cfg := tiny(2)
	var keys []string
	cfg.Play = func(ctx context.Context, key string, fp []byte, newM func() (Method, error), ev Evaluator) (Method, int, error) {
		keys = append(keys, key)
		st, err := (&Search[Method]{Dir: filepath.Join(dir, key), Config: fp, New: newM, Eval: ev}).Run(ctx, true)
		if err != nil {
			return nil, 0, err
		}
		return st.Method, st.Lines, nil
	}
	c, err := Calibrate(ctx, cfg)
	require.NoError(t, err)
	show := func(c *Calibration) string {
		return fmt.Sprintf("%v %v %+v %v %d %+v %+v %+v", c.Trace, c.TraceGames, c.Readings, c.ReadingsHolm, c.Reading, c.Validations, c.Confirmations, c.Versus)
	}
	assert.Equal(t, show(mem), show(c))

	assert.Nil(t, c.Narrowing)
	assert.Nil(t, c.Evolve)
	assert.Equal(t, "spsa", c.Method)
	// 2 iterations of 2 x 1 block and the final block, 3 games a block.
	assert.Equal(t, 5, c.SearchEvals)
	assert.Equal(t, []int{0, 6, 12, 15}, c.TraceGames)
	require.Len(t, c.Trace, 4)
	assert.Equal(t, SeatValues(c.EvolveSetup.Space, c.EvolveSetup.Field.Base.Params), c.Trace[0])
	assert.Equal(t, c.Search.Recommend(), c.Trace[3])

	// Every other reading at the recommendation: one coordinate changed.
	rec := c.Validations[0]
	assert.Equal(t, "SPSA recommendation", rec.Name)
	var choices int
	for _, d := range c.Field.Space {
		choices += max(0, len(d.Param.Choices)-1)
	}
	require.Positive(t, choices)
	require.Len(t, c.Readings, choices)
	require.Len(t, c.ReadingsHolm, choices)
	for i, r := range c.Readings {
		var changed []string
		for k := range r.X {
			if r.X[k] != rec.X[k] {
				changed = append(changed, c.Field.Space[k].Param.Name)
			}
		}
		assert.Len(t, changed, 1, r.Name)
		assert.Equal(t, 2, r.Blocks, r.Name)
		assert.Equal(t, validationBlock0+2+2*i, r.FirstBlock, r.Name)
		assert.GreaterOrEqual(t, c.ReadingsHolm[i], r.Diff.P, r.Name)
	}
	if c.Reading >= 0 {
		require.Len(t, c.Validations, 2)
		assert.Equal(t, "SPSA recommendation with "+c.Readings[c.Reading].Name, c.Validations[1].Name)
		assert.Equal(t, c.Readings[c.Reading].X, c.Validations[1].X)
	} else {
		assert.Len(t, c.Validations, 1)
	}
	wantKeys := []string{"spsa"}
	for _, r := range c.Readings {
		wantKeys = append(wantKeys, "reading-"+r.Name)
	}
	for i := range c.Validations {
		wantKeys = append(wantKeys, fmt.Sprintf("validate-%d", i+1))
	}
	for i := range c.Validations {
		wantKeys = append(wantKeys, fmt.Sprintf("confirm-%d", i+1))
	}
	assert.Equal(t, append(wantKeys, "versus-1"), keys)

	// The tuned result against mars@paperfield on the confirmation's
	// blocks: the tuned side's games are the confirmation's, the same win
	// rate.
	require.Len(t, c.Versus, 1)
	v, tuned := c.Versus[0], c.Confirmations[c.Pick]
	assert.Equal(t, versus.Label, v.Name)
	assert.Equal(t, tuned.WinA, v.WinA)
	assert.Equal(t, tuned.FirstBlock, v.FirstBlock)
	assert.Equal(t, SeatValues(c.Field.Space, versus.Params), v.X)
	assert.InDelta(t, v.WinA-v.WinB, v.Diff.Mean, 1e-12)

	// A seat of another bot is refused.
	cfg = tiny(1)
	other, err := reg.ParseSeat("aggressive", nil)
	require.NoError(t, err)
	cfg.Versus = []bots.Seat{other}
	_, err = Calibrate(ctx, cfg)
	assert.ErrorContains(t, err, `versus seat "aggressive": want a seat of the searched bot`)
}
