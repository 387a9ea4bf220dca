package search

import (
	"fmt"
	"strings"
)

// MethodNames are the search methods a config's tables select, in the
// order of their tables: [narrow], [cmaes], [spsa], [surrogate],
// [halving].
var methodNames = []string{"narrow", "cmaes", "spsa", "surrogate", "halving"}

// methods returns the names of the methods whose tables the config has, in
// the order narrow, cmaes, spsa, surrogate, halving.
func (c *Config) methods() []string {
	var out []string
	for _, m := range methodNames {
		if c.has(m) {
			out = append(out, m)
		}
	}
	return out
}

func (c *Config) has(method string) bool {
	switch method {
	case "narrow":
		return c.Narrow != nil
	case "cmaes":
		return c.CMAES != nil
	case "spsa":
		return c.SPSA != nil
	case "surrogate":
		return c.Surrogate != nil
	case "halving":
		return c.Halving != nil
	}
	return false
}

// checkMethodSections checks the [spsa], [surrogate] and [halving] tables
// and fills their defaults.
func checkMethodSections(bad func(key, format string, a ...any) error, f *file) error {
	if s := f.SPSA; s != nil {
		switch {
		case s.Iterations < 1 || s.Iterations > maxGenerations:
			return bad("spsa.iterations", "%d: want 1..%d", s.Iterations, maxGenerations)
		case s.Blocks < 1 || s.Blocks > maxBlocks:
			return bad("spsa.blocks", "%d: want 1..%d", s.Blocks, maxBlocks)
		case !(s.A > 0) || s.A > 1e6:
			return bad("spsa.a", "%v: want in (0, 1e6] (the step gain's numerator)", s.A)
		case !(s.C > 0 && s.C <= 0.5):
			return bad("spsa.c", "%v: want in (0, 0.5] (the perturbation's numerator, normalised units)", s.C)
		case s.BigA < 0 || s.BigA > 1e9:
			return bad("spsa.big_a", "%v: want 0..1e9 (0 = 10 %% of iterations)", s.BigA)
		case s.Alpha < 0 || s.Alpha > 1:
			return bad("spsa.alpha", "%v: want in (0, 1] (0 = 0.602)", s.Alpha)
		case s.Gamma < 0 || s.Gamma > 1:
			return bad("spsa.gamma", "%v: want in (0, 1] (0 = 0.101)", s.Gamma)
		case s.Average < 0 || s.Average > 1:
			return bad("spsa.average", "%v: want in [0, 1] (the share of the iterates the recommendation averages)", s.Average)
		case s.FinalBlocks < 0 || s.FinalBlocks > maxBlocks:
			return bad("spsa.final_blocks", "%d: want 1..%d (0 = 10 x blocks)", s.FinalBlocks, maxBlocks)
		case 2*s.Blocks > maxStepBlocks:
			return bad("spsa.blocks", "%d: want at most %d", s.Blocks, maxStepBlocks/2)
		}
		if s.FinalBlocks == 0 {
			s.FinalBlocks = min(maxBlocks, 10*s.Blocks)
		}
	}
	if s := f.Surrogate; s != nil {
		switch {
		case s.Init < 2 || s.Init > 10000:
			return bad("surrogate.init", "%d: want 2..10000 (the start and init-1 Latin hypercube points)", s.Init)
		case s.Batch < 1 || s.Batch > 1000:
			return bad("surrogate.batch", "%d: want 1..1000", s.Batch)
		case s.Rounds < 1 || s.Rounds > maxGenerations:
			return bad("surrogate.rounds", "%d: want 1..%d", s.Rounds, maxGenerations)
		case s.Blocks < 1 || s.Blocks > maxBlocks || s.Blocks*max(s.Init, s.Batch) > maxStepBlocks:
			return bad("surrogate.blocks", "%d: want 1..%d, and blocks x max(init, batch) at most %d", s.Blocks, maxBlocks, maxStepBlocks)
		case s.Candidates < 0 || s.Candidates > 1000000:
			return bad("surrogate.candidates", "%d: want 1..1000000 (0 = 1000)", s.Candidates)
		case s.Window != 0 && (s.Window < 4 || s.Window > 2000):
			return bad("surrogate.window", "%d: want 4..2000 (0 = 200)", s.Window)
		case s.FinalBlocks < 0 || s.FinalBlocks > maxBlocks:
			return bad("surrogate.final_blocks", "%d: want 1..%d (0 = 10 x blocks)", s.FinalBlocks, maxBlocks)
		}
		if s.FinalBlocks == 0 {
			s.FinalBlocks = min(maxBlocks, 10*s.Blocks)
		}
	}
	if s := f.Halving; s != nil {
		if s.Proposer == "" {
			s.Proposer = "cmaes"
		}
		switch {
		case s.Brackets < 1 || s.Brackets > maxGenerations:
			return bad("halving.brackets", "%d: want 1..%d", s.Brackets, maxGenerations)
		case s.Candidates < 2 || s.Candidates > maxLambda:
			return bad("halving.candidates", "%d: want 2..%d (4.. with the cmaes proposer)", s.Candidates, maxLambda)
		case s.Proposer == "cmaes" && s.Candidates < 4:
			return bad("halving.candidates", "%d: the cmaes proposer wants 4..%d", s.Candidates, maxLambda)
		case s.Blocks < 1 || s.Blocks > maxBlocks:
			return bad("halving.blocks", "%d: want 1..%d", s.Blocks, maxBlocks)
		case !validProposer(s.Proposer):
			return bad("halving.proposer", "%q: want one of %s", s.Proposer, strings.Join(proposers, ", "))
		case s.Sigma < 0 || s.Sigma > 1:
			return bad("halving.sigma", "%v: want in (0, 1] (0 = 0.2)", s.Sigma)
		case s.FinalBlocks < 0 || s.FinalBlocks > maxBlocks:
			return bad("halving.final_blocks", "%d: want 1..%d (0 = 10 x blocks)", s.FinalBlocks, maxBlocks)
		}
		if s.FinalBlocks == 0 {
			s.FinalBlocks = min(maxBlocks, 10*s.Blocks)
		}
	}
	return nil
}

func validProposer(p string) bool {
	for _, q := range proposers {
		if p == q {
			return true
		}
	}
	return false
}

// start returns the base seat's values of the searched parameters,
// clamped into the ranges.
func (s *Setup) start() []float64 {
	x := make([]float64, len(s.Space))
	for i, d := range s.Space {
		x[i] = min(d.Hi, max(d.Lo, s.Field.Base.Params[d.Param.Name]))
	}
	return x
}

// spsaConfig returns the spsaSearch config of the [spsa] section, starting from
// the base seat's values.
func (s *Setup) spsaConfig() (spsaConfig, error) {
	m := s.Config.SPSA
	if m == nil {
		return spsaConfig{}, fmt.Errorf("%s: no [spsa] table", s.Config.Source)
	}
	bigA := m.BigA
	if bigA == 0 {
		bigA = -1
	}
	cfg := spsaConfig{Space: s.Space, Start: s.start(), Iterations: m.Iterations, Blocks: m.Blocks, A: m.A, C: m.C, BigA: bigA,
		Alpha: m.Alpha, Gamma: m.Gamma, Average: m.Average, FinalBlocks: m.FinalBlocks, Seed: s.Config.Seed}
	if _, err := newSPSA(cfg); err != nil {
		return cfg, fmt.Errorf("%s: [spsa]: %w", s.Config.Source, err)
	}
	return cfg, nil
}

// surrogateConfig returns the surrogate config of the [surrogate] section,
// starting from the base seat's values.
func (s *Setup) surrogateConfig() (surrogateConfig, error) {
	m := s.Config.Surrogate
	if m == nil {
		return surrogateConfig{}, fmt.Errorf("%s: no [surrogate] table", s.Config.Source)
	}
	cfg := surrogateConfig{Space: s.Space, Start: s.start(), Init: m.Init, Batch: m.Batch, Rounds: m.Rounds, Blocks: m.Blocks,
		Candidates: m.Candidates, Window: m.Window, FinalBlocks: m.FinalBlocks, Seed: s.Config.Seed}
	if _, err := newSurrogate(cfg); err != nil {
		return cfg, fmt.Errorf("%s: [surrogate]: %w", s.Config.Source, err)
	}
	return cfg, nil
}

// halvingConfig returns the successive-halving config of the [halving]
// section, starting from the base seat's values.
func (s *Setup) halvingConfig() (halvingConfig, error) {
	m := s.Config.Halving
	if m == nil {
		return halvingConfig{}, fmt.Errorf("%s: no [halving] table", s.Config.Source)
	}
	cfg := halvingConfig{Space: s.Space, Start: s.start(), Brackets: m.Brackets, Candidates: m.Candidates, Blocks: m.Blocks,
		Proposer: m.Proposer, Sigma: m.Sigma, FinalBlocks: m.FinalBlocks, Seed: s.Config.Seed}
	if _, err := newHalving(cfg); err != nil {
		return cfg, fmt.Errorf("%s: [halving]: %w", s.Config.Source, err)
	}
	return cfg, nil
}

// Recommender returns the name and a constructor of the search method
// named method (cmaes, spsa, surrogate or halving) from its table, checked:
// every call returns a fresh search in its initial state. Method "" is the
// config's one table of the four (an error when it has none or several).
func (s *Setup) Recommender(method string) (string, func() (Recommender, error), error) {
	if method == "" {
		var have []string
		for _, m := range s.Config.methods() {
			if m != "narrow" {
				have = append(have, m)
			}
		}
		if len(have) != 1 {
			return "", nil, fmt.Errorf("%s: %d method tables (%s): want exactly one of [cmaes], [spsa], [surrogate], [halving], or name the method", s.Config.Source, len(have), strings.Join(have, ", "))
		}
		method = have[0]
	}
	mk, err := s.recommender(method)
	return method, mk, err
}

func (s *Setup) recommender(method string) (func() (Recommender, error), error) {
	switch method {
	case "cmaes":
		cfg, err := s.EvolveConfig()
		if err != nil {
			return nil, err
		}
		return func() (Recommender, error) { return NewEvolve(cfg) }, nil
	case "spsa":
		cfg, err := s.spsaConfig()
		if err != nil {
			return nil, err
		}
		return func() (Recommender, error) { return newSPSA(cfg) }, nil
	case "surrogate":
		cfg, err := s.surrogateConfig()
		if err != nil {
			return nil, err
		}
		return func() (Recommender, error) { return newSurrogate(cfg) }, nil
	case "halving":
		cfg, err := s.halvingConfig()
		if err != nil {
			return nil, err
		}
		return func() (Recommender, error) { return newHalving(cfg) }, nil
	}
	return nil, fmt.Errorf("%s: method %q: want one of cmaes, spsa, surrogate, halving", s.Config.Source, method)
}
