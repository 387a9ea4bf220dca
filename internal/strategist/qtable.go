package strategist

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

func sqrt(x float64) float64 { return math.Sqrt(x) }

// QConfig configures tabular Q-learning.
type QConfig struct {
	// Features are the indices into the observation that make the state;
	// each value is cut into Bins equal bins over [0, 1] (values outside
	// go to the end bins).
	Features []int
	Bins     int
	// Alpha is the learning rate (0, 1]; Gamma the discount [0, 1];
	// Epsilon the exploration rate [0, 1] of the epsilon-greedy policy.
	Alpha, Gamma, Epsilon float64
}

// QTable is tabular Q-learning (Watkins) over a discretised observation,
// with an epsilon-greedy policy while training and a greedy one after.
// Ties between actions go to the lowest action.
type QTable struct {
	cfg   QConfig
	nact  int
	Q     []float64 // Q[state*nact + action]
	Visit []int     // visits of (state, action)
}

// NewQTable returns a table of zeros for nact actions.
func NewQTable(cfg QConfig, nact int) (*QTable, error) {
	switch {
	case len(cfg.Features) == 0:
		return nil, fmt.Errorf("learn: q: no features")
	case cfg.Bins < 1 || cfg.Bins > 100:
		return nil, fmt.Errorf("learn: q: bins %d: want 1..100", cfg.Bins)
	case !(cfg.Alpha > 0 && cfg.Alpha <= 1):
		return nil, fmt.Errorf("learn: q: alpha %v: want (0, 1]", cfg.Alpha)
	case !(cfg.Gamma >= 0 && cfg.Gamma <= 1):
		return nil, fmt.Errorf("learn: q: gamma %v: want [0, 1]", cfg.Gamma)
	case !(cfg.Epsilon >= 0 && cfg.Epsilon <= 1):
		return nil, fmt.Errorf("learn: q: epsilon %v: want [0, 1]", cfg.Epsilon)
	}
	states := math.Pow(float64(cfg.Bins), float64(len(cfg.Features)))
	if states > 1<<22 {
		return nil, fmt.Errorf("learn: q: %d features of %d bins make %.0f states: want at most %d", len(cfg.Features), cfg.Bins, states, 1<<22)
	}
	n := int(states) * nact
	return &QTable{cfg: cfg, nact: nact, Q: make([]float64, n), Visit: make([]int, n)}, nil
}

// state returns the state of an observation.
func (q *QTable) state(obs []float64) int {
	s := 0
	for _, f := range q.cfg.Features {
		b := int(obs[f] * float64(q.cfg.Bins))
		b = max(0, min(b, q.cfg.Bins-1))
		s = s*q.cfg.Bins + b
	}
	return s
}

// greedy returns the action of the highest value in state s.
func (q *QTable) greedy(s int) int {
	row := q.Q[s*q.nact : (s+1)*q.nact]
	best := 0
	for a, v := range row {
		if v > row[best] {
			best = a
		}
	}
	return best
}

// NewActor returns the table itself: acting reads it only.
func (q *QTable) NewActor() Actor { return q }

// Act is epsilon-greedy with rng, greedy without.
func (q *QTable) Act(obs []float64, rng *rand.Rand) int {
	if rng != nil && rng.Float64() < q.cfg.Epsilon {
		return rng.IntN(q.nact)
	}
	return q.greedy(q.state(obs))
}

// Learn applies the one-step Q-learning update to every transition of the
// batch, episodes in order, steps in order:
// Q(s,a) += alpha·(r + gamma·max Q(s',·) − Q(s,a)), with no max term at
// the episode's last step.
func (q *QTable) Learn(batch []Episode) {
	for i := range batch {
		e := &batch[i]
		n := len(e.Actions)
		for t := range n {
			s := q.state(e.state(t))
			k := s*q.nact + e.Actions[t]
			target := e.reward(t)
			if t < n-1 {
				s2 := q.state(e.state(t + 1))
				target += q.cfg.Gamma * slices.Max(q.Q[s2*q.nact:(s2+1)*q.nact])
			}
			q.Q[k] += q.cfg.Alpha * (target - q.Q[k])
			q.Visit[k]++
		}
	}
}

// policyBy summarises the greedy policy along the k-th state feature
// (index into QConfig.Features): share[b][a] is the share of the training
// visits, among the states whose feature k falls in bin b, spent in states
// whose greedy action is a; visits[b] counts those visits.
func (q *QTable) policyBy(k int) (share [][]float64, visits []int) {
	nb, nf := q.cfg.Bins, len(q.cfg.Features)
	share = make([][]float64, nb)
	for b := range share {
		share[b] = make([]float64, q.nact)
	}
	visits = make([]int, nb)
	stride := 1
	for range nf - 1 - k {
		stride *= nb
	}
	states := len(q.Q) / q.nact
	for s := range states {
		n := 0
		for a := range q.nact {
			n += q.Visit[s*q.nact+a]
		}
		if n == 0 {
			continue
		}
		b := (s / stride) % nb
		share[b][q.greedy(s)] += float64(n)
		visits[b] += n
	}
	for b := range share {
		for a := range share[b] {
			if visits[b] > 0 {
				share[b][a] /= float64(visits[b])
			}
		}
	}
	return share, visits
}
