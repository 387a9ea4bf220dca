package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rateTournament plays a tournament of four-player games of six quick
// bots (every line-up reps times, 15·reps games) into dir.
func rateTournament(t *testing.T, dir string, reps int) {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "t.toml")
	require.NoError(t, os.WriteFile(conf, []byte(`bots = ["aggressive", "pacifist", "passive", "random", "cautious", "stinky"]
players = 4
replications = `+strconv.Itoa(reps)+`
rules = "mars2006"
seed = 46
`), 0o644))
	out, err := runOut(t, "tournament", conf, "-quiet", "-figures=false", "-out", dir)
	require.NoError(t, err, out)
}

// TestRateHoldout: the ratings of a real tournament, fitted on half its
// games, predict the placements of the other half better than equal
// players and than win % alone, each by more than three standard errors;
// -out writes the table printed, byte-identical on a second run.
func TestRateHoldout(t *testing.T) {
	base := t.TempDir()
	tour := filepath.Join(base, "tour")
	rateTournament(t, tour, 40)
	out := filepath.Join(base, "r")
	text, err := runOut(t, "rate", "-holdout", "0.5", "-out", out, tour)
	require.NoError(t, err, text)
	assert.Equal(t, text, readText(t, filepath.Join(out, "ratings.txt")))
	lines := strings.Split(text, "\n")
	require.Contains(t, lines[0], "Ratings (Weng-Lin plackett-luce, 600 games")
	// Six bots, each seated in 400 games.
	csv := readText(t, filepath.Join(out, "ratings.csv"))
	rows := strings.Split(strings.TrimSpace(csv), "\n")
	require.Len(t, rows, 7, csv)
	assert.Equal(t, "rank,bot,mu,sigma,ordinal,lo,hi,games,wins,win %,mean place", rows[0])
	for _, r := range rows[1:] {
		assert.Equal(t, "400", strings.Split(r, ",")[7], r)
	}
	holdout := map[string][]float64{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 4 && (f[0] == "win" || f[0] == "equal") {
			d, err1 := strconv.ParseFloat(f[len(f)-2], 64)
			se, err2 := strconv.ParseFloat(f[len(f)-1], 64)
			require.NoError(t, err1, l)
			require.NoError(t, err2, l)
			holdout[f[0]] = []float64{d, se}
		}
	}
	require.Len(t, holdout, 2, text)
	for k, v := range holdout {
		assert.Greater(t, v[0], 3*v[1], "ratings minus %s: %v (se %v)", k, v[0], v[1])
	}
	again, err := runOut(t, "rate", "-holdout", "0.5", "-out", out, tour)
	require.NoError(t, err)
	assert.Equal(t, text, again)
	assert.Equal(t, csv, readText(t, filepath.Join(out, "ratings.csv")))
}

func TestRateErrors(t *testing.T) {
	base := t.TempDir()
	tour := filepath.Join(base, "tour")
	rateTournament(t, tour, 2)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no batch or tournament folders given"},
		{[]string{"-holdout", "1", tour}, "-holdout 1: want a fraction in [0, 1)"},
		{[]string{"-model", "elo", tour}, `-model: rating model "elo": want "plackett-luce" or "bradley-terry-full"`},
		{[]string{"-sigma", "0", tour}, "sigma 0: want > 0"},
		{[]string{"-kappa", "2", tour}, "kappa 2: want in (0, 1]"},
		{[]string{filepath.Join(base, "nope")}, "nope"},
		{[]string{"-out", tour, tour}, "holds a tournament"},
	}
	for _, tt := range tests {
		_, err := runOut(t, append([]string{"rate"}, tt.args...)...)
		assert.ErrorContains(t, err, tt.want, "rate %v", tt.args)
	}
	text, err := runOut(t, "rate", "-model", "bradley-terry-full", tour, tour)
	require.NoError(t, err)
	assert.Contains(t, text, "Ratings (Weng-Lin bradley-terry-full, 60 games")
}
