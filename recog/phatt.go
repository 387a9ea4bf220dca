package recog

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/sim"
)

// Params are the weights of [PHATT] as Khan & Rovatsos (2013) apply it to
// Risk (section 3.3). Occupations are weighted by the pending-set model of
// Algorithms 3.3.3-3.3.5; the other actions scale an explanation by a
// factor.
type Params struct {
	// WSuccess is w of a successful occupation: the extra probability of a
	// consistent action over the base (Algorithm 3.3.3). The worked example
	// of section 3.3.1 uses 0.02. Range [0, 1).
	WSuccess float64
	// WFailed is w of a failed occupation, "set to a lower value than that
	// of Successful-Occupation" (section 3.3.1). Range [0, 1).
	WFailed float64
	// Up multiplies the explanations a consistent defence, movement or
	// reinforcement bears on (1.02 in section 3.3.1); Down those an
	// inconsistent one does (0.98). Ranges (0.9, 1.1) as section 3.2.2.2
	// asks.
	Up, Down float64
	// StateWeights turns on the state-dependent weights proposed in section
	// 6.0.3: an occupation's w for an explanation is scaled by
	// StateScale * (1 - cons/total) * share, where cons/total is the
	// proportion of the player's possible occupations consistent with the
	// explanation and share the proportion of the explanation's territories
	// the player owns before the action (the paper's example:
	// 0.1 * (1 - 1/13) * 9/10 for 1 consistent attack of 13 while owning 9
	// of 10 territories).
	StateWeights bool
	// StateScale is the factor of StateWeights (the paper's 0.1 is
	// StateScale 5 times WSuccess 0.02). Range (0, 100].
	StateScale float64
}

// DefaultParams returns the weights of the paper's worked example
// (w = 0.02, factors 1.02 and 0.98), with w = 0.01 for a failed occupation
// (the paper gives no value) and StateScale 5 (off).
func DefaultParams() Params {
	return Params{WSuccess: 0.02, WFailed: 0.01, Up: 1.02, Down: 0.98, StateScale: 5}
}

// Validate checks every weight against its range; the error names the
// field and the range.
func (p Params) Validate() error {
	switch {
	case !(p.WSuccess >= 0 && p.WSuccess < 1):
		return fmt.Errorf("recog: w_success = %v: must be in [0, 1)", p.WSuccess)
	case !(p.WFailed >= 0 && p.WFailed < 1):
		return fmt.Errorf("recog: w_failed = %v: must be in [0, 1)", p.WFailed)
	case !(p.Up > 0.9 && p.Up < 1.1):
		return fmt.Errorf("recog: up = %v: must be in (0.9, 1.1)", p.Up)
	case !(p.Down > 0.9 && p.Down < 1.1):
		return fmt.Errorf("recog: down = %v: must be in (0.9, 1.1)", p.Down)
	case !(p.StateScale > 0 && p.StateScale <= 100):
		return fmt.Errorf("recog: state_scale = %v: must be in (0, 100]", p.StateScale)
	}
	return nil
}

// maxSumWeight caps w * cons (Algorithm 3.3.3's sumWeight) so that the base
// stays positive: the paper notes that a larger action space could make
// leftOver negative. When w * cons would exceed it, w is scaled down to
// maxSumWeight / cons.
const maxSumWeight = 0.9

// baseWeight is Algorithm 3.3.3 (computeBaseWeight): the probability left
// to every one of total possible actions once cons consistent ones have
// received w each, (1 - w*cons) / total. It needs total >= 1 and
// 0 <= cons <= total; w*cons is capped at 0.9 (see Params).
func baseWeight(w float64, total, cons int) float64 {
	return (1 - w*float64(cons)) / float64(total)
}

// PHATT is the plan recogniser of Khan & Rovatsos (2013): PHATT's
// Bayesian update over a fully enumerated set of explanations, kept for
// every seat of a game. It watches the events of a game (as a [sim.Observer],
// or through Watching as one seat sees them), keeps its own copy of who
// owns what, and after every observed action multiplies each explanation's
// probability by Pr(obs | exp) and normalises (Algorithm 3.3.5):
//
//   - a successful or failed occupation of t by p: the pending set is every
//     territory not p's next to one of p's (Algorithm 3.3.2, before the
//     action); with total its size and cons the number of them in the
//     explanation's continents, base = (1 - w*cons) / total and
//     Pr(obs | exp) = base + w if t is in the explanation, base if not
//     (Algorithms 3.3.3, 3.3.4; Tables 3.4-3.6);
//   - a successful defence of t, or armies moved into t: the explanations
//     with t are multiplied by Up, the others are left alone;
//   - a failed defence of t: the explanations with t are multiplied by Down;
//   - a reinforcement of t: every explanation is multiplied, by Up if it
//     has t, by Down if not.
//
// Each explanation starts at the prior 1/n, n the number of continent
// cards (section 3.2.1); children of one card share its prior in full
// (Pr(plans|goals) = 1, section 3.2.1). A PHATT is for one game at a time
// and is reused by Start; it is not safe for concurrent use.
type PHATT struct {
	par   Params
	m     *sim.Map
	exps  []Explanation
	cards []int
	inExp [][]bool // inExp[e][t]: territory t is in explanation e
	size  []int    // size[e]: territories of explanation e
	prior float64

	owner []int
	prob  [][]float64

	acts    []action
	pending []bool
	list    []int
	lik     []float64
}

// NewPHATT returns a recogniser of the continent missions among missions on
// map m with the weights par (validated).
func NewPHATT(m *sim.Map, missions []sim.Mission, par Params) (*PHATT, error) {
	if err := par.Validate(); err != nil {
		return nil, err
	}
	exps, err := Explanations(m, missions)
	if err != nil {
		return nil, err
	}
	r := &PHATT{par: par, m: m, exps: exps, cards: Cards(exps)}
	r.prior = 1 / float64(len(r.cards))
	n := len(m.Territories)
	r.inExp = make([][]bool, len(exps))
	r.size = make([]int, len(exps))
	for e, ex := range exps {
		r.inExp[e] = make([]bool, n)
		for _, c := range ex.Continents {
			for _, t := range m.Continents[c].Territories {
				r.inExp[e][t] = true
				r.size[e]++
			}
		}
	}
	r.owner = make([]int, n)
	r.pending = make([]bool, n)
	r.lik = make([]float64, len(exps))
	return r, nil
}

// Explanations returns the recogniser's explanations (not to be changed).
func (r *PHATT) Explanations() []Explanation { return r.exps }

// Start prepares the recogniser for a game of players seats: every
// territory unowned, every explanation of every seat at its prior.
func (r *PHATT) Start(players int) {
	for t := range r.owner {
		r.owner[t] = -1
	}
	for len(r.prob) < players {
		r.prob = append(r.prob, make([]float64, len(r.exps)))
	}
	r.prob = r.prob[:players]
	for p := range r.prob {
		for e := range r.prob[p] {
			r.prob[p][e] = r.prior
		}
	}
}

// setOwner records that seat p owns territory t, for a game observed from a
// position rather than from its deal.
func (r *PHATT) setOwner(t, p int) { r.owner[t] = p }

// Observe updates the explanations of the seats the event shows acting.
func (r *PHATT) Observe(e *sim.Event) {
	if e.Kind == sim.EvDeal {
		r.owner[e.To] = e.Player
		return
	}
	r.acts = actions(r.acts[:0], e)
	for _, a := range r.acts {
		r.apply(a)
	}
	if e.Kind == sim.EvOccupation {
		r.owner[e.To] = e.Player
	}
}

// likelihoods appends Pr(obs | exp) of action a for every explanation to
// dst, on the recogniser's current board (before a's effect), and returns
// it. A defence, movement or reinforcement gives the factor it multiplies
// the explanation by (1 where it leaves it alone).
func (r *PHATT) likelihoods(dst []float64, a action) []float64 {
	dst = dst[:0]
	switch a.Kind {
	case successfulOccupation, failedOccupation:
		w := r.par.WSuccess
		if a.Kind == failedOccupation {
			w = r.par.WFailed
		}
		total := r.pendingSet(a.Player)
		for e := range r.exps {
			cons, owned := 0, 0
			for _, t := range r.list {
				if r.inExp[e][t] {
					cons++
				}
			}
			we := w
			if r.par.StateWeights && total > 0 {
				for t, o := range r.owner {
					if o == a.Player && r.inExp[e][t] {
						owned++
					}
				}
				we = w * r.par.StateScale * (1 - float64(cons)/float64(total)) * float64(owned) / float64(r.size[e])
			}
			if we*float64(cons) > maxSumWeight {
				we = maxSumWeight / float64(cons)
			}
			l := 1.0
			if total > 0 {
				l = baseWeight(we, total, cons)
				if r.inExp[e][a.Territory] {
					l += we
				}
			}
			dst = append(dst, l)
		}
	default:
		for e := range r.exps {
			l := 1.0
			in := r.inExp[e][a.Territory]
			switch {
			case in && (a.Kind == successfulDefence || a.Kind == movement || a.Kind == reinforce):
				l = r.par.Up
			case in && a.Kind == failedDefence:
				l = r.par.Down
			case !in && a.Kind == reinforce:
				l = r.par.Down
			}
			dst = append(dst, l)
		}
	}
	return dst
}

// pendingSet fills r.list with p's possible occupations (Algorithm 3.3.2):
// the territories not p's next to one of p's, in increasing id order, and
// returns their number.
func (r *PHATT) pendingSet(p int) int {
	clear(r.pending)
	for t, o := range r.owner {
		if o != p {
			continue
		}
		for _, u := range r.m.Territories[t].Neighbors {
			if r.owner[u] != p {
				r.pending[u] = true
			}
		}
	}
	r.list = r.list[:0]
	for t, in := range r.pending {
		if in {
			r.list = append(r.list, t)
		}
	}
	return len(r.list)
}

// apply updates the explanations of a.Player by action a (Algorithm
// 3.3.5): multiply by the likelihoods, then normalise. Seats outside the
// game are ignored.
func (r *PHATT) apply(a action) {
	if a.Player < 0 || a.Player >= len(r.prob) || a.Territory < 0 || a.Territory >= len(r.owner) {
		return
	}
	r.lik = r.likelihoods(r.lik, a)
	pr := r.prob[a.Player]
	sum := 0.0
	for e, l := range r.lik {
		pr[e] *= l
		sum += pr[e]
	}
	if sum > 0 && !math.IsInf(sum, 0) {
		for e := range pr {
			pr[e] /= sum
		}
	}
}

// Probabilities returns seat p's explanation probabilities, in the order of
// Explanations (the recogniser's own slice: copy it to keep it). Before
// any observation of p they are the priors; after one they sum to 1.
func (r *PHATT) Probabilities(p int) []float64 { return r.prob[p] }

// Predict returns the card (an index into Rules.Missions) of seat p's most
// probable explanation. Explanations within a relative 1e-12 of the
// largest are tied; tie picks among them (tie mod their number, in
// explanation order), so a caller breaks ties at random by passing a random
// number and deterministically by passing 0.
func (r *PHATT) Predict(p int, tie uint64) int {
	return r.exps[argmaxTie(r.prob[p], tie)].Mission
}

// Tied returns the number of different cards among seat p's most probable
// explanations (within a relative 1e-12 of the largest): 1 when one card
// leads. Two children of one card tied at the top are one card; the
// children "Europe + Australia + South America" of one card and "Europe +
// South America + Australia" of another, which ask for the same continents,
// are two.
func (r *PHATT) Tied(p int) int {
	xs := r.prob[p]
	lim := topLimit(xs)
	n := 0
	for e, x := range xs {
		if x < lim {
			continue
		}
		first := true
		for f := range e {
			if xs[f] >= lim && r.exps[f].Mission == r.exps[e].Mission {
				first = false
				break
			}
		}
		if first {
			n++
		}
	}
	return n
}

// topLimit returns the least value tied with the largest of xs (within a
// relative 1e-12).
func topLimit(xs []float64) float64 {
	best := xs[0]
	for _, x := range xs {
		best = max(best, x)
	}
	return best - 1e-12*math.Abs(best)
}

// argmaxTie returns the index of the largest of xs, ties (within a
// relative 1e-12) broken by tie modulo their number.
func argmaxTie(xs []float64, tie uint64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	lim := xs[best] - 1e-12*math.Abs(xs[best])
	n := 0
	for _, x := range xs {
		if x >= lim {
			n++
		}
	}
	k := int(tie % uint64(n))
	for i, x := range xs {
		if x >= lim {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return best
}
