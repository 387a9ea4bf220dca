package rating

import (
	"errors"
	"fmt"
	"math"
)

// Kind is a model of how skills give placements.
type Kind int

const (
	// PlackettLuce ranks a game's players as successive choices of the
	// next best among those left, each with probability proportional to
	// exp(μ/c) (Weng & Lin, Algorithm 4).
	PlackettLuce Kind = iota
	// BradleyTerryFull compares every pair of players of a game by the
	// Bradley-Terry model (Weng & Lin, Algorithm 1).
	BradleyTerryFull
)

// String returns the model's name: "plackett-luce" or "bradley-terry-full".
func (k Kind) String() string {
	switch k {
	case PlackettLuce:
		return "plackett-luce"
	case BradleyTerryFull:
		return "bradley-terry-full"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind returns the Kind that String names.
func ParseKind(s string) (Kind, error) {
	for _, k := range []Kind{PlackettLuce, BradleyTerryFull} {
		if s == k.String() {
			return k, nil
		}
	}
	return 0, fmt.Errorf("rating model %q: want %q or %q", s, PlackettLuce, BradleyTerryFull)
}

// Model holds the parameters of the Bayesian approximation.
type Model struct {
	// Kind is the model of placements.
	Kind Kind
	// Mu and Sigma are a new player's prior mean and standard deviation
	// of skill (paper and OpenSkill: 25 and 25/3).
	Mu, Sigma float64
	// Beta is the standard deviation of a player's performance in one
	// game around its skill (paper: σ/2 = 25/6), > 0.
	Beta float64
	// Kappa is the least factor a game may shrink a variance by (paper:
	// 0.0001), in (0, 1], so that σ stays positive.
	Kappa float64
	// Tau is added to every σ² before a game (skill drift per game,
	// OpenSkill's τ); 0 (the paper's algorithms, and right for bots whose
	// skill does not change) adds nothing.
	Tau float64
}

// Default returns the model of the paper and OpenSkill: Plackett-Luce,
// μ = 25, σ = 25/3, β = 25/6, κ = 0.0001, τ = 0.
func Default() Model {
	return Model{Kind: PlackettLuce, Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
}

// Validate checks the model's ranges.
func (m Model) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case m.Kind != PlackettLuce && m.Kind != BradleyTerryFull:
		return fmt.Errorf("rating: model kind %d: want %v or %v", int(m.Kind), PlackettLuce, BradleyTerryFull)
	case !finite(m.Mu):
		return fmt.Errorf("rating: mu %v: want a finite number", m.Mu)
	case !finite(m.Sigma) || m.Sigma <= 0:
		return fmt.Errorf("rating: sigma %v: want > 0", m.Sigma)
	case !finite(m.Beta) || m.Beta <= 0:
		return fmt.Errorf("rating: beta %v: want > 0", m.Beta)
	case !(m.Kappa > 0 && m.Kappa <= 1):
		return fmt.Errorf("rating: kappa %v: want in (0, 1]", m.Kappa)
	case !finite(m.Tau) || m.Tau < 0:
		return fmt.Errorf("rating: tau %v: want >= 0", m.Tau)
	}
	return nil
}

// Rating is a belief about one player's skill: N(Mu, Sigma²).
type Rating struct {
	Mu    float64 // mean skill
	Sigma float64 // standard deviation of the belief, > 0
}

// prior returns a new player's rating, N(m.Mu, m.Sigma²).
func (m Model) prior() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Ordinal returns the conservative skill μ − 3σ.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Rate returns the ratings of the players of one game after it: teams[i]
// are the ratings of the players of team (or single player) i before the
// game, ranks[i] its finishing position (lower is better, equal ranks
// tie; nil means the order of teams). The result has the shape of teams;
// the input is not modified. A team's skill is the sum of its players';
// each player takes the share σ_j²/σ_team² of the team's update (Weng &
// Lin, Section 3.6).
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(teams) == 0 {
		return nil, errors.New("rating: no teams")
	}
	if ranks != nil && len(ranks) != len(teams) {
		return nil, fmt.Errorf("rating: %d ranks for %d teams", len(ranks), len(teams))
	}
	n := len(teams)
	mu := make([]float64, n)
	s2 := make([]float64, n)
	rank := make([]int, n)
	for i, t := range teams {
		if len(t) == 0 {
			return nil, fmt.Errorf("rating: team %d has no players", i)
		}
		for j, r := range t {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
				return nil, fmt.Errorf("rating: team %d player %d: rating %v: want a finite mu and sigma > 0", i, j, r)
			}
			mu[i] += r.Mu
			s2[i] += r.Sigma*r.Sigma + m.Tau*m.Tau
		}
		rank[i] = i
		if ranks != nil {
			rank[i] = ranks[i]
		}
	}
	omega := make([]float64, n)
	delta := make([]float64, n)
	if m.Kind == BradleyTerryFull {
		m.bradleyTerryFull(mu, s2, rank, omega, delta)
	} else {
		m.plackettLuce(mu, s2, rank, omega, delta)
	}
	out := make([][]Rating, n)
	for i, t := range teams {
		out[i] = make([]Rating, len(t))
		for j, r := range t {
			v := r.Sigma*r.Sigma + m.Tau*m.Tau
			share := v / s2[i]
			out[i][j] = Rating{
				Mu:    r.Mu + share*omega[i],
				Sigma: math.Sqrt(v * max(1-share*delta[i], m.Kappa)),
			}
		}
	}
	return out, nil
}

// plackettLuce sets omega[i] and delta[i], the team updates Ω_i and Δ_i
// of Weng & Lin's Algorithm 4:
//
//	c   = (Σ_i (σ_i² + β²))^½
//	C_q = Σ_{s: r(s) ≥ r(q)} e^{μ_s/c}
//	A_q = |{s: r(s) = r(q)}|
//	Ω_i = σ_i²/c · Σ_{q: r(q) ≤ r(i)} (δ_qi − e^{μ_i/c}/C_q) / A_q
//	Δ_i = γ_i σ_i²/c² · Σ_{q: r(q) ≤ r(i)} (e^{μ_i/c}/C_q)(1 − e^{μ_i/c}/C_q) / A_q
//
// with γ_i = σ_i/c.
func (m Model) plackettLuce(mu, s2 []float64, rank []int, omega, delta []float64) {
	n := len(mu)
	c2 := 0.0
	top := math.Inf(-1)
	for i := range n {
		c2 += s2[i] + m.Beta*m.Beta
		top = max(top, mu[i])
	}
	c := math.Sqrt(c2)
	e := make([]float64, n)
	for i := range n {
		e[i] = math.Exp((mu[i] - top) / c) // the ratios are unchanged by the shift
	}
	sum := make([]float64, n)  // C_q
	ties := make([]float64, n) // A_q
	for q := range n {
		for s := range n {
			if rank[s] >= rank[q] {
				sum[q] += e[s]
			}
			if rank[s] == rank[q] {
				ties[q]++
			}
		}
	}
	for i := range n {
		o, d := 0.0, 0.0
		for q := range n {
			if rank[q] > rank[i] {
				continue
			}
			p := e[i] / sum[q]
			if q == i {
				o += (1 - p) / ties[q]
			} else {
				o -= p / ties[q]
			}
			d += p * (1 - p) / ties[q]
		}
		gamma := math.Sqrt(s2[i]) / c
		omega[i] = s2[i] / c * o
		delta[i] = gamma * s2[i] / c2 * d
	}
}

// bradleyTerryFull sets omega[i] and delta[i] of Weng & Lin's Algorithm 1:
// for every pair i ≠ q, c_iq = (σ_i² + σ_q² + 2β²)^½,
// p̂_iq = e^{μ_i/c_iq} / (e^{μ_i/c_iq} + e^{μ_q/c_iq}), s = 1, ½ or 0 as i
// finished ahead of, level with or behind q, and
//
//	Ω_i = Σ_q σ_i²/c_iq (s − p̂_iq)
//	Δ_i = Σ_q γ_q σ_i²/c_iq² p̂_iq p̂_qi
//
// with γ_q = σ_i/c_iq.
func (m Model) bradleyTerryFull(mu, s2 []float64, rank []int, omega, delta []float64) {
	n := len(mu)
	for i := range n {
		o, d := 0.0, 0.0
		for q := range n {
			if q == i {
				continue
			}
			c2 := s2[i] + s2[q] + 2*m.Beta*m.Beta
			c := math.Sqrt(c2)
			p := 1 / (1 + math.Exp((mu[q]-mu[i])/c))
			s := 0.0
			switch {
			case rank[q] > rank[i]:
				s = 1
			case rank[q] == rank[i]:
				s = 0.5
			}
			o += s2[i] / c * (s - p)
			gamma := math.Sqrt(s2[i]) / c
			d += gamma * s2[i] / c2 * p * (1 - p)
		}
		omega[i], delta[i] = o, d
	}
}
