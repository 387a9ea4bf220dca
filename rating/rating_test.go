package rating

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ffa seats n new players, one per team.
func ffa(m Model, n int) [][]Rating {
	teams := make([][]Rating, n)
	for i := range teams {
		teams[i] = []Rating{m.prior()}
	}
	return teams
}

func assertRatings(t *testing.T, want, got [][]Rating, tol float64) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		require.Len(t, got[i], len(want[i]), "team %d", i)
		for j := range want[i] {
			assert.InDelta(t, want[i][j].Mu, got[i][j].Mu, tol, "team %d player %d mu", i, j)
			assert.InDelta(t, want[i][j].Sigma, got[i][j].Sigma, tol, "team %d player %d sigma", i, j)
		}
	}
}

// TestRateOpenSkill: the published examples of openskill.js
// (src/models/__tests__/plackett-luce.test.js and bradley-terry-full.test.js:
// free-for-alls of 2 to 5 new players and three teams of 3, 1 and 2 new
// players, in the order given), to 1e-12.
func TestRateOpenSkill(t *testing.T) {
	pl := Default()
	bt := Default()
	bt.Kind = BradleyTerryFull
	r := pl.prior()
	mixed := [][]Rating{{r, r, r}, {r}, {r, r}}
	one := func(mu, sigma float64) []Rating { return []Rating{{mu, sigma}} }
	cases := []struct {
		name  string
		model Model
		teams [][]Rating
		want  [][]Rating
	}{
		{"PL solo", pl, ffa(pl, 1), [][]Rating{one(25, 25.0/3)}},
		{"PL 2p", pl, ffa(pl, 2), [][]Rating{one(27.63523138347365, 8.065506316323548), one(22.36476861652635, 8.065506316323548)}},
		{"PL 3p", pl, ffa(pl, 3), [][]Rating{one(27.868876552746237, 8.204837030780652), one(25.717219138186557, 8.057829747583874), one(21.413904309067206, 8.057829747583874)}},
		{"PL 4p", pl, ffa(pl, 4), [][]Rating{one(27.795084971874736, 8.263160757613477), one(26.552824984374855, 8.179213704945203), one(24.68943500312503, 8.083731307186588), one(20.96265504062538, 8.083731307186588)}},
		{"PL 5p", pl, ffa(pl, 5), [][]Rating{one(27.666666666666668, 8.290556877154474), one(26.833333333333332, 8.240145629781066), one(25.72222222222222, 8.179996679645559), one(24.055555555555557, 8.111796013701358), one(20.72222222222222, 8.111796013701358)}},
		{"PL teams", pl, mixed, [][]Rating{
			{{25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}},
			{{27.21366020491262, 8.274321317985242}},
			{{21.84646897330287, 8.213058173195341}, {21.84646897330287, 8.213058173195341}}}},
		{"BT 2p", bt, ffa(bt, 2), [][]Rating{one(27.63523138347365, 8.065506316323548), one(22.36476861652635, 8.065506316323548)}},
		{"BT 3p", bt, ffa(bt, 3), [][]Rating{one(30.2704627669473, 7.788474807872566), one(25.0, 7.788474807872566), one(19.7295372330527, 7.788474807872566)}},
		{"BT 4p", bt, ffa(bt, 4), [][]Rating{one(32.90569415042095, 7.5012190693964005), one(27.63523138347365, 7.5012190693964005), one(22.36476861652635, 7.5012190693964005), one(17.09430584957905, 7.5012190693964005)}},
		{"BT 5p", bt, ffa(bt, 5), [][]Rating{one(35.5409255338946, 7.202515895247076), one(30.2704627669473, 7.202515895247076), one(25.0, 7.202515895247076), one(19.729537233052703, 7.202515895247076), one(14.4590744661054, 7.202515895247076)}},
		{"BT teams", bt, mixed, [][]Rating{
			{{25.992743915179297, 8.19709997489984}, {25.992743915179297, 8.19709997489984}, {25.992743915179297, 8.19709997489984}},
			{{28.48909130001799, 8.220848339985736}},
			{{20.518164784802714, 8.127515465304823}, {20.518164784802714, 8.127515465304823}}}},
		// The README of openskill.py and openskill.js (Plackett-Luce): a
		// team of a1 = N(25, 25/3) and a2 = N(32.444, 5.123) beats b1 =
		// N(43.381, 2.421) and b2 = N(25.188, 6.211).
		{"PL README", pl, [][]Rating{{{25, 25.0 / 3}, {32.444, 5.123}}, {{43.381, 2.421}, {25.188, 6.211}}}, [][]Rating{
			{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
			{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.model.Rate(c.teams, nil)
			require.NoError(t, err)
			assertRatings(t, c.want, got, 1e-12)
		})
	}
}

// TestRateSeriesTies: openskill.js's plackett-luce-series test, whose
// numbers come from rank-1.02 (Weng and Lin's own code): three games of
// five new players with ties given by scores (9, 7, 7, 5, 5), (9, 5, 5) and
// (9, 9, 7, 7), to the 1e-9 its test prints.
func TestRateSeriesTies(t *testing.T) {
	m := Default()
	p := make([]Rating, 5)
	for i := range p {
		p[i] = m.prior()
	}
	play := func(seats []int, ranks []int) {
		teams := make([][]Rating, len(seats))
		for i, s := range seats {
			teams[i] = []Rating{p[s]}
		}
		out, err := m.Rate(teams, ranks)
		require.NoError(t, err)
		for i, s := range seats {
			p[s] = out[i][0]
		}
	}
	play([]int{0, 1, 2, 3, 4}, []int{1, 2, 2, 4, 4})
	play([]int{4, 2, 1}, []int{1, 2, 2})
	play([]int{3, 1, 2, 0}, []int{1, 1, 3, 3})
	want := []Rating{{26.353761103, 8.11102706}, {24.618479789, 7.90533551}, {23.065819512, 7.822005595}, {24.476332403, 8.106111471}, {26.385499685, 8.054090809}}
	for i := range want {
		assert.InDelta(t, want[i].Mu, p[i].Mu, 1e-8, "player %d mu", i)
		assert.InDelta(t, want[i].Sigma, p[i].Sigma, 1e-8, "player %d sigma", i)
	}
}

// TestRateByHand works Algorithm 4 by hand for three new players finishing
// 1, 2, 3 (μ = 25, σ² = 625/9, β² = 625/36): every e^{μ/c} is equal, so
// with c² = 3(σ² + β²) = 3125/12 the probabilities are p = 1/3 at q = 1 and
// 1/2 at q = 2, and
//
//	Ω_1 = σ²/c · (1 − 1/3)                 = (2/3) σ²/c
//	Ω_2 = σ²/c · (−1/3 + 1 − 1/2)          = (1/6) σ²/c
//	Ω_3 = σ²/c · (−1/3 − 1/2 + 1 − 1)      = −(5/6) σ²/c
//	Δ_1 = (σ/c) σ²/c² · (2/9)
//	Δ_2 = Δ_3 = (σ/c) σ²/c² · (2/9 + 1/4)  = (σ/c) σ²/c² · (17/36)
//
// σ²/c and σ³/c³ come from their squares σ⁴/c² = 500/27 and σ⁶/c⁶, worked
// in exact rational arithmetic (big.Rat).
func TestRateByHand(t *testing.T) {
	s2 := big.NewRat(625, 9)
	b2 := big.NewRat(625, 36)
	c2 := new(big.Rat).Mul(big.NewRat(3, 1), new(big.Rat).Add(s2, b2))
	require.Equal(t, "3125/12", c2.RatString())
	// (σ²/c)² = σ⁴/c², and (σ³/c³)² = σ⁶/c⁶, exact.
	s4c2 := new(big.Rat).Quo(new(big.Rat).Mul(s2, s2), c2)
	s6c6 := new(big.Rat).Quo(new(big.Rat).Mul(s2, new(big.Rat).Mul(s2, s2)), new(big.Rat).Mul(c2, new(big.Rat).Mul(c2, c2)))
	require.Equal(t, "500/27", s4c2.RatString())
	f4, _ := s4c2.Float64()
	f6, _ := s6c6.Float64()
	sc := math.Sqrt(f4) // σ²/c
	s3 := math.Sqrt(f6) // σ³/c³
	sigma2 := 625.0 / 9
	want := []Rating{
		{25 + 2.0/3*sc, math.Sqrt(sigma2 * (1 - s3*2/9))},
		{25 + 1.0/6*sc, math.Sqrt(sigma2 * (1 - s3*17/36))},
		{25 - 5.0/6*sc, math.Sqrt(sigma2 * (1 - s3*17/36))},
	}
	m := Default()
	got, err := m.Rate(ffa(m, 3), nil)
	require.NoError(t, err)
	for i := range want {
		assert.InDelta(t, want[i].Mu, got[i][0].Mu, 1e-12, "player %d mu", i)
		assert.InDelta(t, want[i].Sigma, got[i][0].Sigma, 1e-12, "player %d sigma", i)
	}
	// The same as numbers: the first player's μ rises by (2/3) σ²/c = 2.868876...
	assert.InDelta(t, 2.868876552746237, got[0][0].Mu-25, 1e-12)
}

// TestRateOrderInvariant: the teams' order does not matter, only their
// ranks; a tie of everyone leaves the means where they were.
func TestRateOrderInvariant(t *testing.T) {
	for _, kind := range []Kind{PlackettLuce, BradleyTerryFull} {
		m := Default()
		m.Kind = kind
		a := [][]Rating{{{30, 5}}, {{20, 7}}, {{25, 3}}, {{27, 6}}}
		ra := []int{3, 1, 4, 2}
		b := [][]Rating{a[1], a[3], a[0], a[2]}
		rb := []int{1, 2, 3, 4}
		ga, err := m.Rate(a, ra)
		require.NoError(t, err)
		gb, err := m.Rate(b, rb)
		require.NoError(t, err)
		assertRatings(t, [][]Rating{gb[2], gb[0], gb[3], gb[1]}, ga, 1e-12)
		same := ffa(m, 4)
		tie, err := m.Rate(same, []int{1, 1, 1, 1})
		require.NoError(t, err)
		for i := range tie {
			assert.InDelta(t, 25, tie[i][0].Mu, 1e-12, "%v tie: mu", kind)
			assert.Less(t, tie[i][0].Sigma, 25.0/3, "%v tie: sigma shrinks", kind)
		}
	}
}

func TestRateErrors(t *testing.T) {
	m := Default()
	cases := []struct {
		name  string
		model Model
		teams [][]Rating
		ranks []int
		want  string
	}{
		{"no teams", m, nil, nil, "no teams"},
		{"ranks", m, ffa(m, 2), []int{1}, "1 ranks for 2 teams"},
		{"empty team", m, [][]Rating{{m.prior()}, {}}, nil, "team 1 has no players"},
		{"sigma", m, [][]Rating{{m.prior()}, {{25, 0}}}, nil, "sigma > 0"},
		{"nan", m, [][]Rating{{m.prior()}, {{math.NaN(), 1}}}, nil, "finite mu"},
		{"beta", Model{Mu: 25, Sigma: 1, Beta: 0, Kappa: 0.1}, ffa(m, 2), nil, "beta 0: want > 0"},
		{"kappa", Model{Mu: 25, Sigma: 1, Beta: 1, Kappa: 0}, ffa(m, 2), nil, "kappa 0: want in (0, 1]"},
		{"kind", Model{Kind: 7, Mu: 25, Sigma: 1, Beta: 1, Kappa: 0.1}, ffa(m, 2), nil, "model kind 7"},
		{"tau", Model{Mu: 25, Sigma: 1, Beta: 1, Kappa: 0.1, Tau: -1}, ffa(m, 2), nil, "tau -1"},
	}
	for _, c := range cases {
		_, err := c.model.Rate(c.teams, c.ranks)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
	}
	k, err := ParseKind("bradley-terry-full")
	require.NoError(t, err)
	assert.Equal(t, BradleyTerryFull, k)
	_, err = ParseKind("elo")
	assert.ErrorContains(t, err, `rating model "elo": want "plackett-luce" or "bradley-terry-full"`)
}
