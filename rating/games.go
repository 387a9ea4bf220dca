package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Game is one game's result: Players[i] (a name; a name seated twice
// plays twice) finished at Ranks[i] (1 = first, lower is better, equal
// ranks tie).
type Game struct {
	Players []string
	Ranks   []int
}

func (g *Game) check() error {
	if len(g.Players) < 2 {
		return fmt.Errorf("%d players: want at least 2", len(g.Players))
	}
	if len(g.Ranks) != len(g.Players) {
		return fmt.Errorf("%d ranks for %d players", len(g.Ranks), len(g.Players))
	}
	return nil
}

// Entry is one player's rating after a sequence of games.
type Entry struct {
	Name string
	Rating
	// Games is the number of seats the player took; Wins the number of
	// those it finished first in alone.
	Games, Wins int
	// MeanRank is the player's mean finishing position.
	MeanRank float64
}

// Fit rates the players of games, played in the order given (the
// approximation is online: each game updates the ratings the games
// before it left). A player seated twice in one game has both seats
// rated from its rating before the game, and takes the sum of the two
// changes of μ and the product of the two factors on σ². The entries
// come by descending ordinal μ − 3σ, then by name.
func (m Model) Fit(games []Game) ([]Entry, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	f := newFitter(m)
	for i := range games {
		if err := f.add(&games[i]); err != nil {
			return nil, fmt.Errorf("rating: game %d: %w", i, err)
		}
	}
	return f.entries(), nil
}

// fitter holds the ratings of named players during Fit.
type fitter struct {
	m       Model
	index   map[string]int
	list    []Entry
	rankSum []int
	teams   [][]Rating
}

func newFitter(m Model) *fitter { return &fitter{m: m, index: map[string]int{}} }

func (f *fitter) player(name string) int {
	k, ok := f.index[name]
	if !ok {
		k = len(f.list)
		f.index[name] = k
		f.list = append(f.list, Entry{Name: name, Rating: f.m.prior()})
		f.rankSum = append(f.rankSum, 0)
	}
	return k
}

func (f *fitter) add(g *Game) error {
	if err := g.check(); err != nil {
		return err
	}
	f.teams = f.teams[:0]
	for _, p := range g.Players {
		f.teams = append(f.teams, []Rating{f.list[f.player(p)].Rating})
	}
	out, err := f.m.Rate(f.teams, g.Ranks)
	if err != nil {
		return err
	}
	// Changes from the rating before the game, summed over a player's seats.
	type change struct{ dmu, factor float64 }
	ch := map[int]*change{}
	best := slices.Min(g.Ranks)
	firsts := 0
	for _, r := range g.Ranks {
		if r == best {
			firsts++
		}
	}
	for i, p := range g.Players {
		k := f.index[p]
		before := f.list[k].Rating
		c := ch[k]
		if c == nil {
			c = &change{factor: 1}
			ch[k] = c
		}
		c.dmu += out[i][0].Mu - before.Mu
		c.factor *= (out[i][0].Sigma * out[i][0].Sigma) / (before.Sigma*before.Sigma + f.m.Tau*f.m.Tau)
		e := &f.list[k]
		e.Games++
		if g.Ranks[i] == best && firsts == 1 {
			e.Wins++
		}
		f.rankSum[k] += g.Ranks[i]
	}
	for k, c := range ch {
		e := &f.list[k]
		v := (e.Sigma*e.Sigma + f.m.Tau*f.m.Tau) * c.factor
		e.Mu += c.dmu
		e.Sigma = math.Sqrt(max(v, 0))
	}
	return nil
}

func (f *fitter) entries() []Entry {
	out := slices.Clone(f.list)
	for i := range out {
		out[i].MeanRank = float64(f.rankSum[f.index[out[i].Name]]) / float64(out[i].Games)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if c := cmp.Compare(b.Ordinal(), a.Ordinal()); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

// logLikelihood returns the log-probability of the placements ranks
// under the Plackett-Luce model with positive weights w: the product,
// over the players q in order of placement, of w_q divided by the sum of
// the weights of the players placed at or below q (tied players share
// their denominators, as C_q of Algorithm 4 does).
func logLikelihood(w []float64, ranks []int) (float64, error) {
	if len(w) != len(ranks) {
		return 0, fmt.Errorf("rating: %d weights for %d ranks", len(w), len(ranks))
	}
	ll := 0.0
	for q := range w {
		if !(w[q] > 0) || math.IsInf(w[q], 0) {
			return 0, fmt.Errorf("rating: weight %d is %v: want a finite number > 0", q, w[q])
		}
		sum := 0.0
		for s := range w {
			if ranks[s] >= ranks[q] {
				sum += w[s]
			}
		}
		ll += math.Log(w[q] / sum)
	}
	return ll, nil
}

// weights returns the Plackett-Luce weights e^{μ_i/c} the model gives
// the players of one game with ratings rs (c as in Rate, one player per
// team), scaled so that the largest is 1.
func (m Model) weights(rs []Rating) []float64 {
	c2, top := 0.0, math.Inf(-1)
	for _, r := range rs {
		c2 += r.Sigma*r.Sigma + m.Tau*m.Tau + m.Beta*m.Beta
		top = max(top, r.Mu)
	}
	c := math.Sqrt(c2)
	w := make([]float64, len(rs))
	for i, r := range rs {
		w[i] = math.Exp((r.Mu - top) / c)
	}
	return w
}

// Holdout is the comparison of three predictions of the placements of
// held-out games (Model.Holdout): the mean log-likelihood per game of the
// fitted ratings (Plackett-Luce with the model's weights), of equal
// players (every order equally likely) and of win rate alone
// (Plackett-Luce with each player's weight its training win rate,
// smoothed as (wins + 1)/(games + n) for games of n players).
type Holdout struct {
	Train, Test              int     // games fitted on and games predicted
	Rated, Equal, WinRate    float64 // mean log-likelihood per test game (nats)
	RatedSE, EqualSE, WinSE  float64 // standard errors of the means
	BeatsEqual, BeatsWinRate float64 // mean paired differences Rated − Equal, Rated − WinRate
	DiffEqualSE, DiffWinSE   float64 // their standard errors
}

// Holdout holds out the fraction frac of games, spread evenly (game i is
// held out when ⌊(i+1)·frac⌋ > ⌊i·frac⌋), fits the ratings on the others
// in order, and predicts the placements of the held-out games, which must
// be strict (no ties). A player met only in held-out games has the prior
// rating and the win rate 1/n.
func (m Model) Holdout(games []Game, frac float64) (Holdout, error) {
	var train, test []Game
	for i := range games {
		if math.Floor(float64(i+1)*frac) > math.Floor(float64(i)*frac) {
			test = append(test, games[i])
		} else {
			train = append(train, games[i])
		}
	}
	if !(frac > 0 && frac < 1) || len(train) == 0 || len(test) == 0 {
		return Holdout{}, fmt.Errorf("rating: holdout: fraction %v of %d games leaves %d to fit and %d to predict: want a fraction in (0, 1) and at least one of each", frac, len(games), len(train), len(test))
	}
	entries, err := m.Fit(train)
	if err != nil {
		return Holdout{}, err
	}
	byName := map[string]Entry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	var rated, equal, win, dEq, dWin moments
	for gi := range test {
		g := &test[gi]
		if err := g.check(); err != nil {
			return Holdout{}, fmt.Errorf("rating: held-out game %d: %w", gi, err)
		}
		n := len(g.Players)
		rs := make([]Rating, n)
		wr := make([]float64, n)
		seen := map[int]bool{}
		for i, p := range g.Players {
			if seen[g.Ranks[i]] {
				return Holdout{}, fmt.Errorf("rating: held-out game %d: ranks %v tie: held-out games must be strict", gi, g.Ranks)
			}
			seen[g.Ranks[i]] = true
			e, ok := byName[p]
			if !ok {
				e = Entry{Rating: m.prior()}
			}
			rs[i] = e.Rating
			wr[i] = (float64(e.Wins) + 1) / (float64(e.Games) + float64(n))
		}
		lr, err := logLikelihood(m.weights(rs), g.Ranks)
		if err != nil {
			return Holdout{}, err
		}
		lw, err := logLikelihood(wr, g.Ranks)
		if err != nil {
			return Holdout{}, err
		}
		le, _ := math.Lgamma(float64(n) + 1)
		le = -le
		rated.add(lr)
		equal.add(le)
		win.add(lw)
		dEq.add(lr - le)
		dWin.add(lr - lw)
	}
	h := Holdout{Train: len(train), Test: len(test)}
	h.Rated, h.RatedSE = rated.mean(), rated.se()
	h.Equal, h.EqualSE = equal.mean(), equal.se()
	h.WinRate, h.WinSE = win.mean(), win.se()
	h.BeatsEqual, h.DiffEqualSE = dEq.mean(), dEq.se()
	h.BeatsWinRate, h.DiffWinSE = dWin.mean(), dWin.se()
	return h, nil
}

// moments accumulates a mean and a standard error.
type moments struct{ n, sum, sum2 float64 }

func (m *moments) add(x float64) { m.n++; m.sum += x; m.sum2 += x * x }
func (m *moments) mean() float64 { return m.sum / m.n }
func (m *moments) se() float64 {
	if m.n < 2 {
		return math.NaN()
	}
	v := (m.sum2 - m.sum*m.sum/m.n) / (m.n - 1)
	return math.Sqrt(max(v, 0) / m.n)
}

// HeadToHead counts, for every ordered pair of the names players met,
// how often the first finished ahead of the second: names lists the
// players in order of first appearance, ahead[i][j] the games in which
// names[i] finished strictly ahead of names[j] and met[i][j] the games
// both played (seats of one name in one game are counted once per pair
// of seats).
func HeadToHead(games []Game) (names []string, ahead, met [][]int, err error) {
	index := map[string]int{}
	for gi := range games {
		g := &games[gi]
		if err := g.check(); err != nil {
			return nil, nil, nil, fmt.Errorf("rating: game %d: %w", gi, err)
		}
		for _, p := range g.Players {
			if _, ok := index[p]; !ok {
				index[p] = len(names)
				names = append(names, p)
			}
		}
	}
	if len(names) == 0 {
		return nil, nil, nil, errors.New("rating: no games")
	}
	n := len(names)
	ahead = make([][]int, n)
	met = make([][]int, n)
	for i := range n {
		ahead[i] = make([]int, n)
		met[i] = make([]int, n)
	}
	for gi := range games {
		g := &games[gi]
		for a, pa := range g.Players {
			for b, pb := range g.Players {
				if a == b || pa == pb {
					continue
				}
				i, j := index[pa], index[pb]
				met[i][j]++
				if g.Ranks[a] < g.Ranks[b] {
					ahead[i][j]++
				}
			}
		}
	}
	return names, ahead, met, nil
}
