package search

import (
	"fmt"

	"github.com/marslab-risk/marslab/stats"
)

// A Recommender is a Method that names, after any step, the point it would
// ship if it were stopped there: CMA-ES its distribution mean, spsaSearch its
// averaged iterate, the surrogate its posterior-mean optimum among the
// points evaluated, successive halving its incumbent (the last bracket's
// winner). The tuners benchmark validates these points at budgets in games.
type Recommender interface {
	Method
	// Recommend returns the values (Space order) of the current
	// recommendation.
	Recommend() []float64
}

// estimate is a point's win rate over its own blocks: the last step of the
// methods that end by playing their recommendation once more.
type estimate struct {
	// X holds the values; Wins of Games its games' wins.
	X           []float64
	Wins, Games int
}

// Rate returns the win rate (0 without games).
func (e *estimate) Rate() float64 {
	if e.Games == 0 {
		return 0
	}
	return float64(e.Wins) / float64(e.Games)
}

// Wilson returns the 95 % Wilson interval of the win rate.
func (e *estimate) Wilson() stats.Interval { return wilson95(e.Wins, e.Games) }

// finalEvals returns the evaluations of x on blocks first..first+n-1 as
// candidate 0.
func finalEvals(x []float64, first, n int) []Eval {
	ev := make([]Eval, n)
	for b := range ev {
		ev[b] = Eval{Cand: 0, X: x, Block: first + b}
	}
	return ev
}

// tally returns the estimate of x from res.
func tallyEstimate(x []float64, res []Result) *estimate {
	e := &estimate{X: x}
	for _, r := range res {
		e.Wins += r.Wins
		e.Games += r.Games
	}
	return e
}

// checkStart checks a method's space and start values and returns the
// start's normalised coordinates clamped into the box.
func checkStart(method string, sp Space, start []float64) ([]float64, error) {
	switch {
	case len(sp) == 0:
		return nil, fmt.Errorf("search: %s: no parameter to search", method)
	case len(start) != len(sp):
		return nil, fmt.Errorf("search: %s: %d start values for %d parameters", method, len(start), len(sp))
	}
	for _, d := range sp {
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("search: %s: %w", method, err)
		}
	}
	u := sp.units(start)
	for i := range u {
		u[i] = min(1, max(0, u[i]))
	}
	return u, nil
}

// meanScore returns the win rate of results rs.
func meanScore(rs []Result) float64 {
	w, n := 0, 0
	for _, r := range rs {
		w += r.Wins
		n += r.Games
	}
	if n == 0 {
		return 0
	}
	return float64(w) / float64(n)
}

// levelSpacing returns, per dimension, the normalised spacing of an integer
// parameter's levels (0 for a continuous one).
func levelSpacing(sp Space) []float64 {
	s := make([]float64, len(sp))
	for i, d := range sp {
		if d.Param.Integer {
			k := max(2, d.Hi-d.Lo)
			s[i] = min(1, 1/k)
		}
	}
	return s
}

// Budgeted runs Method's steps, less its last (the methods' own final
// estimate), while the next step fits in Budget games, and records the
// recommendation before the first step and after every step with the games
// spent: the tuners benchmark's runs. A step that would go over the budget
// is replaced by an empty one, as is every step after it, so that a log
// replays the same decisions, and the log of a smaller budget is a prefix
// of a larger one's. Set Method, Budget and Players before the first step.
type Budgeted struct {
	// Method is the search run, in its initial state; Budget is the most
	// games it may spend, Players the games of one evaluation.
	Method  Recommender
	Budget  int
	Players int

	games   int
	stopped bool
	trace   []budgetPoint
}

// budgetPoint is a recommendation after games games.
type budgetPoint struct {
	games int
	x     []float64
}

func (b *Budgeted) steps() int { return b.Method.steps() - 1 }

func (b *Budgeted) next() ([]Eval, error) {
	if b.trace == nil {
		b.trace = []budgetPoint{{0, b.Method.Recommend()}}
	}
	if b.stopped {
		return nil, nil
	}
	ev, err := b.Method.next()
	if err != nil {
		return nil, err
	}
	if b.games+len(ev)*b.Players > b.Budget {
		b.stopped = true
		return nil, nil
	}
	return ev, nil
}

func (b *Budgeted) tell(res []Result) error {
	if b.stopped {
		return nil
	}
	if err := b.Method.tell(res); err != nil {
		return err
	}
	for _, r := range res {
		b.games += r.Games
	}
	b.trace = append(b.trace, budgetPoint{b.games, b.Method.Recommend()})
	return nil
}

func (b *Budgeted) status() string { return b.Method.status() }

// At returns the recommendation after the last step with at most games
// games spent, and the games spent by then.
func (b *Budgeted) At(games int) (spent int, x []float64) {
	if b.trace == nil {
		return 0, b.Method.Recommend()
	}
	p := b.trace[0]
	for _, t := range b.trace {
		if t.games <= games {
			p = t
		}
	}
	return p.games, p.x
}
