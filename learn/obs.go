package learn

import (
	"fmt"

	"github.com/marslab-risk/marslab/sim"
)

// The observation's features, by name. Every value is computed from what
// the learner's seat is shown: the board, the card counts and the round,
// all public ([sim.State] of the seat); no other seat's cards or mission.
const (
	// nameTerritories is the paper's observation: the share of the
	// territories the seat owns, in [0, 1] (the paper prints it in
	// percent).
	nameTerritories = "territories"
	// nameArmies is the seat's share of all armies on the board, in [0, 1].
	nameArmies = "armies"
	// nameContinents is one value per continent of the map, in the map's
	// order: 1 if the seat owns it whole, else 0.
	nameContinents = "continents"
	// nameCards is the seat's hand size over the rules' forced-trade size
	// (cards.forced_trade_at, or 5 when there is none); it can exceed 1
	// after cards taken on an elimination.
	nameCards = "cards"
	// nameRound is the round over the rules' round limit (over 100 when
	// there is none), in [0, 1] with a limit.
	nameRound = "round"
	// nameThreat is the neighbours' threat, E/(E+M) in [0, 1]: E the
	// armies on enemy territories adjacent to the seat's, M the armies on
	// the seat's territories adjacent to an enemy (0 when both are 0).
	nameThreat = "threat"
	// FeatFront is the share of the seat's armies that stand on its
	// territories adjacent to an enemy, in [0, 1]: low when its armies
	// sit inland, where they can neither attack nor defend.
	FeatFront = "front"
	// nameIncome is the seat's share of the live seats' reinforcements
	// (equation (1) of Johansson & Olsson 2006), in [0, 1].
	nameIncome = "income"
	// nameAlive is the share of the other seats still in the game, in
	// [0, 1].
	nameAlive = "alive"
)

var allFeatures = []string{nameTerritories, nameArmies, nameContinents, nameCards, nameRound, nameThreat, FeatFront, nameIncome, nameAlive}

var defaultFeatures = []string{nameTerritories, nameArmies, nameContinents, nameCards, nameRound, nameThreat}

// featureNames returns the names of every feature, in a fixed order.
func featureNames() []string { return append([]string(nil), allFeatures...) }

// feature appends its values for seat p to dst.
type feature func(o *observer, s *sim.State, p int, dst []float64) []float64

// featureFuncs holds the feature of each name.
var featureFuncs = map[string]feature{
	nameTerritories: featTerritories, nameArmies: featArmies, nameContinents: featContinents,
	nameCards: featCards, nameRound: featRound, nameThreat: featThreat,
	FeatFront: featFront, nameIncome: featIncome, nameAlive: featAlive,
}

// observer computes observations on one map; it holds its scratch.
type observer struct {
	m     *sim.Map
	r     *sim.Rules
	fs    []feature
	n     int    // observation length
	enemy []bool // scratch: enemy territory counted
}

// features resolves names into features and the names of the values
// (continents expand to "continent:NAME").
func features(names []string, m *sim.Map) ([]feature, []string, error) {
	var fs []feature
	var out []string
	for _, n := range names {
		f, ok := featureFuncs[n]
		if !ok {
			return nil, nil, fmt.Errorf("unknown feature %q (want one of %v)", n, allFeatures)
		}
		fs = append(fs, f)
		if n != nameContinents {
			out = append(out, n)
			continue
		}
		for _, c := range m.Continents {
			out = append(out, "continent:"+c.Name)
		}
	}
	return fs, out, nil
}

func newObserver(m *sim.Map, r *sim.Rules, fs []feature, n int) *observer {
	return &observer{m: m, r: r, fs: fs, n: n, enemy: make([]bool, m.NumTerritories())}
}

// observe appends the observation of seat p to dst[:0].
func (o *observer) observe(s *sim.State, p int, dst []float64) []float64 {
	dst = dst[:0]
	for _, f := range o.fs {
		dst = f(o, s, p, dst)
	}
	return dst
}

func featTerritories(o *observer, s *sim.State, p int, dst []float64) []float64 {
	return append(dst, float64(s.TerritoryCount(p))/float64(s.NumTerritories()))
}

func featArmies(o *observer, s *sim.State, p int, dst []float64) []float64 {
	total := 0
	for q := range s.NumPlayers() {
		total += s.TotalArmies(q)
	}
	if total == 0 {
		return append(dst, 0)
	}
	return append(dst, float64(s.TotalArmies(p))/float64(total))
}

func featContinents(o *observer, s *sim.State, p int, dst []float64) []float64 {
	for c := range o.m.Continents {
		v := 0.0
		if s.OwnsContinent(p, c) {
			v = 1
		}
		dst = append(dst, v)
	}
	return dst
}

func featCards(o *observer, s *sim.State, p int, dst []float64) []float64 {
	k := o.r.Cards.ForcedTradeAt
	if k <= 0 {
		k = 5
	}
	return append(dst, float64(s.NumCards(p))/float64(k))
}

func featRound(o *observer, s *sim.State, p int, dst []float64) []float64 {
	l := o.r.End.RoundLimit
	if l <= 0 {
		l = 100
	}
	return append(dst, float64(s.Round())/float64(l))
}

func featThreat(o *observer, s *sim.State, p int, dst []float64) []float64 {
	clear(o.enemy)
	e, m := 0, 0
	for t := range s.NumTerritories() {
		if s.Owner(t) != p {
			continue
		}
		border := false
		for _, u := range o.m.Neighbors(t) {
			if s.Owner(u) == p {
				continue
			}
			border = true
			if !o.enemy[u] {
				o.enemy[u] = true
				e += s.Armies(u)
			}
		}
		if border {
			m += s.Armies(t)
		}
	}
	if e+m == 0 {
		return append(dst, 0)
	}
	return append(dst, float64(e)/float64(e+m))
}

func featFront(o *observer, s *sim.State, p int, dst []float64) []float64 {
	front, all := 0, 0
	for t := range s.NumTerritories() {
		if s.Owner(t) != p {
			continue
		}
		all += s.Armies(t)
		for _, u := range o.m.Neighbors(t) {
			if s.Owner(u) != p {
				front += s.Armies(t)
				break
			}
		}
	}
	if all == 0 {
		return append(dst, 0)
	}
	return append(dst, float64(front)/float64(all))
}

func featIncome(o *observer, s *sim.State, p int, dst []float64) []float64 {
	total := 0
	for q := range s.NumPlayers() {
		if s.Alive(q) {
			total += s.Income(q)
		}
	}
	if total == 0 || !s.Alive(p) {
		return append(dst, 0)
	}
	return append(dst, float64(s.Income(p))/float64(total))
}

func featAlive(o *observer, s *sim.State, p int, dst []float64) []float64 {
	n := s.NumPlayers()
	alive := 0
	for q := range n {
		if q != p && s.Alive(q) {
			alive++
		}
	}
	return append(dst, float64(alive)/float64(n-1))
}
