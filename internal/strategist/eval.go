package strategist

import (
	"context"
	"fmt"
	"github.com/marslab-risk/marslab/learn"
	"math/rand/v2"

	"github.com/marslab-risk/marslab/bots"
)

// policy is a named way of acting, for evaluate.
type policy struct {
	// Name labels the policy in results.
	Name string
	// NewActor returns an actor for one goroutine; evaluate passes it a
	// random stream of the episode's own (sim.GameSeed(seed, index)).
	NewActor func() Actor
}

// Greedy returns the policy that acts greedily with l (Act with no
// random stream).
func Greedy(name string, l Learner) policy {
	return policy{Name: name, NewActor: func() Actor { return greedy{l.NewActor()} }}
}

// Fixed returns the policy that always takes action a.
func Fixed(name string, a int) policy {
	return policy{Name: name, NewActor: func() Actor { return fixed(a) }}
}

// Uniform returns the policy that takes an action drawn uniformly from n
// at every step.
func Uniform(name string, n int) policy {
	return policy{Name: name, NewActor: func() Actor { return uniform(n) }}
}

type greedy struct{ a Actor }

func (g greedy) Act(obs []float64, _ *rand.Rand) int { return g.a.Act(obs, nil) }

type fixed int

func (f fixed) Act([]float64, *rand.Rand) int { return int(f) }

type uniform int

func (u uniform) Act(_ []float64, rng *rand.Rand) int { return rng.IntN(int(u)) }

// policyLearner lets a Policy play through playBatch.
type policyLearner struct{ p policy }

func (p policyLearner) NewActor() Actor { return p.p.NewActor() }
func (p policyLearner) Learn([]Episode) {}

// Evaluation is what one policy did in the evaluation episodes.
type Evaluation struct {
	Name string
	// Won[i] and Return[i] are episode i's.
	Won    []bool
	Return []float64
	// Steps is the total of steps; ActionShare[a] the share of steps
	// taking action a.
	Steps       int
	ActionShare []float64
	// Eliminated and Stalemates count those endings.
	Eliminated, Stalemates int
}

// evaluate plays episodes 0 .. games-1 of seed with each policy: every
// policy meets the same seats, opponents and deals (common random numbers),
// so the results are paired by episode. workers <= 0 means one per core.
func evaluate(ctx context.Context, env *learn.Config, reg *bots.Registry, seed uint64, games, workers int, policies []policy) ([]Evaluation, error) {
	if games < 1 || games > maxEvalGames {
		return nil, fmt.Errorf("learn: evaluate: games %d: want 1..%d", games, maxEvalGames)
	}
	runners, err := newRunners(env, reg, workers)
	if err != nil {
		return nil, err
	}
	nact := runners[0].NumActions()
	eps := make([]Episode, games)
	var out []Evaluation
	for _, p := range policies {
		if err := playBatch(ctx, runners, policyLearner{p}, seed, 0, eps, true); err != nil {
			return out, fmt.Errorf("evaluate %s: %w", p.Name, err)
		}
		ev := Evaluation{Name: p.Name, Won: make([]bool, games), Return: make([]float64, games), ActionShare: make([]float64, nact)}
		for i := range eps {
			o := &eps[i].Outcome
			ev.Won[i], ev.Return[i] = o.Won, o.Return
			if o.Eliminated {
				ev.Eliminated++
			}
			if o.Stalemate {
				ev.Stalemates++
			}
			for _, a := range eps[i].Actions {
				ev.ActionShare[a]++
			}
			ev.Steps += len(eps[i].Actions)
		}
		for a := range ev.ActionShare {
			if ev.Steps > 0 {
				ev.ActionShare[a] /= float64(ev.Steps)
			}
		}
		out = append(out, ev)
	}
	return out, nil
}
