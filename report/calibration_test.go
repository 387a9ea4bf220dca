package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tinyCalibration is a calibration notebook on 2-player games of MARS
// against Angry, with two-parameter searches.
const tinyCalibration = `kind = "calibration"
title = "Tiny calibration"
summary = "A tiny calibration notebook."
question = "Does the calibration notebook run?"
seed = 5
thumbnail = "surface.png"

[calibration]
narrow = "narrow.toml"
cmaes = "cmaes.toml"
against = "mars@paper"
validate_blocks = 3
effect_blocks = 2
workers = 2

[quick]
levels = 1
rounds = 1
blocks = 1
points = 2
generations = 1
cmaes_blocks = 1
validate_blocks = 2
effect_blocks = 2

[paper]
source = "a test"
values = { W_p = 0.7375, P_ob = 170 }

[notes]
validation = "The validation is read."
`

const tinySearchHead = `base = "mars@paper"
players = 2
opponents = ["angry"]
rules = "mars2006"
seed = 1

[[param]]
name = "W_p"
min = 0.5
max = 0.9
points = 2

[[param]]
name = "P_ob"
min = 10
max = 1000
points = 2
`

func writeCalibration(t *testing.T) string {
	t.Helper()
	narrow := "name = \"tiny-narrow\"\n" + tinySearchHead + "\n[narrow]\nlevels = 2\nrounds = 1\nblocks = 2\n"
	cmaes := "name = \"tiny-cmaes\"\n" + tinySearchHead + "\n[cmaes]\ngenerations = 2\nblocks = 1\nfinal_blocks = 2\nreeval = true\n"
	return writeNotebook(t, "calibration", tinyCalibration, file{"narrow.toml", narrow}, file{"cmaes.toml", cmaes})
}

func TestCalibrationNotebook(t *testing.T) {
	a, b := runTwice(t, writeCalibration(t), false)
	assertSameResults(t, a, b)
	assertFiles(t, a, "narrow-cells.csv", "cmaes-generations.csv", "validation.csv", "effects.csv", TimingsFile, "tuned.toml",
		"surface.png", "surface.svg", "surface-level-2.png", "halfwidth.png", "cmaes-convergence.png", "cmaes-traces.png", "effects.png")
	rep := readFile(t, filepath.Join(a, ReportFile))
	assert.Contains(t, rep, "## Narrowing over two parameters")
	assert.Contains(t, rep, "| W_p | 0.7375 | 0.7375 |")
	assert.Contains(t, rep, "**Verdict:**")
	assert.Contains(t, rep, "> The validation is read.")
	assert.Contains(t, rep, "`goal_paths=all`")
	// Two validations of 3 blocks, three options of 2 blocks.
	val := readFile(t, filepath.Join(a, "validation.csv"))
	assert.Equal(t, 3, strings.Count(val, "\n"))
	assert.Contains(t, val, ",3,6,", "3 blocks, 6 games of the 2-player field")
	eff := readFile(t, filepath.Join(a, "effects.csv"))
	assert.Equal(t, 4, strings.Count(eff, "\n"))
	tuned := readFile(t, filepath.Join(a, "tuned.toml"))
	assert.Contains(t, tuned, "bot = \"mars\"")
	assert.Contains(t, tuned, "goal_paths = \"shortest\"")
}

func TestCalibrationNotebookQuick(t *testing.T) {
	nb, err := Load(writeCalibration(t))
	require.NoError(t, err)
	out := t.TempDir()
	require.NoError(t, nb.Run(t.Context(), Options{Out: out, Quick: true}))
	rep := readFile(t, filepath.Join(out, ReportFile))
	assert.Contains(t, rep, "quick size: narrowing 1 level(s) x 1 round(s) x 1 block(s), 2 points per parameter")
	assert.NotContains(t, rep, "surface-level-2")
}

func TestCalibrationParseErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{`narrow = "narrow.toml"`, `narrow = ""`, "key calibration.narrow: missing"},
		{`validate_blocks = 3`, `validate_blocks = 1`, "key calibration.validate_blocks: 1 outside [2, 1048576]"},
		{`narrow = "narrow.toml"`, `narrow = "none.toml"`, "key calibration.narrow:"},
		{`narrow = "narrow.toml"`, `narrow = "cmaes.toml"`, "needs a [narrow] table"},
		{`points = 2`, `points = 0`, "key quick.points: 0 outside [1, 10]"},
	} {
		dir := writeCalibration(t)
		cfg := strings.Replace(tinyCalibration, tc.from, tc.to, 1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ConfigFile), []byte(cfg), 0o644))
		_, err := Load(dir)
		assert.ErrorContains(t, err, tc.want, tc.to)
	}
}
