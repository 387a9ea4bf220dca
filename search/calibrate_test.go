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
