package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plGames samples games of k of the players named p0..p(n-1), whose true
// Plackett-Luce weights are exp(skill[i]), in random line-ups.
func plGames(rng *rand.Rand, skill []float64, k, games int) []Game {
	out := make([]Game, games)
	for g := range out {
		seats := rng.Perm(len(skill))[:k]
		left := append([]int(nil), seats...)
		ranks := make([]int, k)
		for place := 1; len(left) > 0; place++ {
			sum := 0.0
			for _, s := range left {
				sum += math.Exp(skill[s])
			}
			u := rng.Float64() * sum
			pick := len(left) - 1
			for i, s := range left {
				if u -= math.Exp(skill[s]); u < 0 {
					pick = i
					break
				}
			}
			for i, s := range seats {
				if s == left[pick] {
					ranks[i] = place
				}
			}
			left = append(left[:pick], left[pick+1:]...)
		}
		names := make([]string, k)
		for i, s := range seats {
			names[i] = fmt.Sprintf("p%d", s)
		}
		out[g] = Game{Players: names, Ranks: ranks}
	}
	return out
}

// TestFitRecoversOrder: on 2,000 six-player games of ten players of known
// skill, the fitted means come in the true order and every σ settles
// below 1.5 (from 25/3).
func TestFitRecoversOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	skill := []float64{0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8}
	games := plGames(rng, skill, 6, 2000)
	entries, err := Default().Fit(games)
	require.NoError(t, err)
	require.Len(t, entries, 10)
	for i, e := range entries {
		assert.Equal(t, fmt.Sprintf("p%d", 9-i), e.Name, "place %d", i)
		assert.Less(t, e.Sigma, 1.5, e.Name)
	}
}

// TestHoldoutBeatsEqual: ratings fitted on 200 games predict the
// placements of the 800 others (every fifth game kept) better than equal players, by more than three
// standard errors of the paired mean. (On games drawn from a
// Plackett-Luce model, win rate alone is nearly the true model; whether
// ratings beat it is a question for real games: cli's TestRateHoldout.)
func TestHoldoutBeatsEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	skill := []float64{0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1}
	games := plGames(rng, skill, 6, 1000)
	h, err := Default().Holdout(games, 0.8)
	require.NoError(t, err)
	assert.Equal(t, 200, h.Train)
	assert.Equal(t, 800, h.Test)
	assert.InDelta(t, -math.Log(720), h.Equal, 1e-12)
	assert.Greater(t, h.BeatsEqual, 3*h.DiffEqualSE)
	assert.InDelta(t, h.Rated-h.Equal, h.BeatsEqual, 1e-9)
	assert.InDelta(t, h.Rated-h.WinRate, h.BeatsWinRate, 1e-9)
	_, err = Default().Holdout(games, 1)
	assert.ErrorContains(t, err, "fraction 1 of 1000 games leaves 0 to fit and 1000 to predict")
	tied := []Game{{[]string{"a", "b"}, []int{1, 2}}, {[]string{"a", "b"}, []int{1, 1}}}
	_, err = Default().Holdout(tied, 0.5)
	assert.ErrorContains(t, err, "held-out games must be strict")
}

// TestHoldoutByHand: with two thirds held out, games 1 and 2 are
// predicted from game 0: a beats b in the one training game; the test
// games are a win of a and a win of b. Ratings: a = 27.635..., b = 22.364...,
// both σ = 8.0655..., so P(a first) = 1/(1 + e^{-(μ_a−μ_b)/c}) with c² =
// 2(σ² + β²); win rates (1+1)/(1+2) = 2/3 and 1/3; equal players 1/2.
func TestHoldoutByHand(t *testing.T) {
	games := []Game{
		{[]string{"a", "b"}, []int{1, 2}},
		{[]string{"a", "b"}, []int{1, 2}},
		{[]string{"a", "b"}, []int{2, 1}},
	}
	h, err := Default().Holdout(games, 2.0/3)
	require.NoError(t, err)
	assert.Equal(t, 1, h.Train)
	mu, s := 27.63523138347365-22.36476861652635, 8.065506316323548
	c := math.Sqrt(2 * (s*s + 625.0/36))
	pa := 1 / (1 + math.Exp(-mu/c))
	assert.InDelta(t, (math.Log(pa)+math.Log(1-pa))/2, h.Rated, 1e-12)
	assert.InDelta(t, (math.Log(2.0/3)+math.Log(1.0/3))/2, h.WinRate, 1e-12)
	assert.InDelta(t, math.Log(0.5), h.Equal, 1e-12)
	// Standard error of two values x, y: |x − y|/2.
	assert.InDelta(t, math.Abs(math.Log(2.0/3)-math.Log(1.0/3))/2, h.WinSE, 1e-12)
}

// TestLogLikelihood: three players with weights 1, 2, 3 finishing b, c, a
// have probability 2/6 · 3/4 · 1 = 1/4; with a and c tied last, 2/6 ·
// 3/4 · 1/4 (each tied player's denominator is the tied pair's sum).
func TestLogLikelihood(t *testing.T) {
	ll, err := logLikelihood([]float64{1, 2, 3}, []int{3, 1, 2})
	require.NoError(t, err)
	assert.InDelta(t, math.Log(0.25), ll, 1e-15)
	ll, err = logLikelihood([]float64{1, 2, 3}, []int{2, 1, 2})
	require.NoError(t, err)
	assert.InDelta(t, math.Log(2.0/6*1.0/4*3.0/4), ll, 1e-15)
	_, err = logLikelihood([]float64{1, 0}, []int{1, 2})
	assert.ErrorContains(t, err, "weight 1 is 0")
	_, err = logLikelihood([]float64{1}, []int{1, 2})
	assert.ErrorContains(t, err, "1 weights for 2 ranks")
}

// TestFitTwoSeats: a name seated twice in a game takes both seats'
// changes of μ and both factors on σ², from its rating before the game.
func TestFitTwoSeats(t *testing.T) {
	m := Default()
	entries, err := m.Fit([]Game{{Players: []string{"a", "b", "a"}, Ranks: []int{1, 2, 3}}})
	require.NoError(t, err)
	r, err := m.Rate(ffa(m, 3), nil)
	require.NoError(t, err)
	byName := map[string]Entry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	a := byName["a"]
	assert.InDelta(t, 25+(r[0][0].Mu-25)+(r[2][0].Mu-25), a.Mu, 1e-12)
	s2 := m.Sigma * m.Sigma
	assert.InDelta(t, math.Sqrt(s2*(r[0][0].Sigma*r[0][0].Sigma/s2)*(r[2][0].Sigma*r[2][0].Sigma/s2)), a.Sigma, 1e-12)
	assert.Equal(t, 2, a.Games)
	assert.Equal(t, 1, a.Wins)
	assert.InDelta(t, 2.0, a.MeanRank, 1e-15)
	assert.InDelta(t, r[1][0].Mu, byName["b"].Mu, 1e-12)
	_, err = m.Fit([]Game{{Players: []string{"a"}, Ranks: []int{1}}})
	assert.ErrorContains(t, err, "game 0: 1 players: want at least 2")
}

func TestHeadToHead(t *testing.T) {
	games := []Game{
		{Players: []string{"a", "b", "c"}, Ranks: []int{1, 2, 3}},
		{Players: []string{"c", "b"}, Ranks: []int{1, 2}},
		{Players: []string{"b", "a"}, Ranks: []int{1, 1}},
	}
	names, ahead, met, err := HeadToHead(games)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, names)
	assert.Equal(t, [][]int{{0, 1, 1}, {0, 0, 1}, {0, 1, 0}}, ahead)
	assert.Equal(t, [][]int{{0, 2, 1}, {2, 0, 2}, {1, 2, 0}}, met)
	_, _, _, err = HeadToHead(nil)
	assert.ErrorContains(t, err, "no games")
}
