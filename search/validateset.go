package search

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/marslab-risk/marslab/stats"
)

// ValidationSet is the Method of a validation of several candidates
// against one reference on the same fresh blocks: each step plays every
// candidate (Cand 0..K-1) and then the reference (Cand K) on the next
// Chunk blocks from validationBlock0, so the reference plays each block
// once whatever the number of candidates. Each candidate's comparison is
// the paired comparison of a Validation; Holm adjusts their p-values.
type ValidationSet struct {
	cands, blocks, chunk, step int
	x                          [][]float64 // candidates, then the reference
	vs                         []*Validation
}

// NewValidationSet returns the validation of candidates (each one's values
// of every parameter of the field's Space) against ref on blocks fresh
// blocks, chunk blocks per step.
func NewValidationSet(candidates [][]float64, ref []float64, blocks, chunk int) (*ValidationSet, error) {
	if len(candidates) == 0 {
		return nil, fmt.Errorf("search: validation: no candidates")
	}
	s := &ValidationSet{cands: len(candidates), blocks: blocks, chunk: chunk}
	for _, x := range candidates {
		v, err := NewValidation(ValidateConfig{A: x, B: ref, Blocks: blocks, Chunk: chunk})
		if err != nil {
			return nil, err
		}
		s.vs = append(s.vs, v)
		s.x = append(s.x, x)
	}
	s.x = append(s.x, ref)
	return s, nil
}

// Steps returns ceil(blocks/chunk).
func (s *ValidationSet) Steps() int { return s.vs[0].Steps() }

// Next returns every candidate, then the reference, on the step's blocks.
func (s *ValidationSet) Next() ([]Eval, error) {
	first := s.step * s.chunk
	last := min(first+s.chunk, s.blocks)
	var ev []Eval
	for c, x := range s.x {
		for b := first; b < last; b++ {
			ev = append(ev, Eval{Cand: c, X: x, Block: validationBlock0 + b})
		}
	}
	return ev, nil
}

// Tell gives each candidate's validation its results and the reference's.
func (s *ValidationSet) Tell(res []Result) error {
	defer func() { s.step++ }()
	n := len(res) / (s.cands + 1)
	if len(res) != n*(s.cands+1) {
		return fmt.Errorf("validation: %d results: want %d candidates and the reference on the same blocks", len(res), s.cands)
	}
	ref := res[s.cands*n:]
	for c, v := range s.vs {
		pair := append(append(make([]Result, 0, 2*n), res[c*n:(c+1)*n]...), ref...)
		if err := v.Tell(pair); err != nil {
			return err
		}
	}
	return nil
}

// Status describes each candidate's comparison so far.
func (s *ValidationSet) Status() string {
	var parts []string
	for c, v := range s.vs {
		parts = append(parts, fmt.Sprintf("%d: %s", c+1, v.Status()))
	}
	return strings.Join(parts, "; ")
}

// Compare returns the comparisons of the candidates with the reference
// (named names) and their Holm-adjusted p-values.
func (s *ValidationSet) Compare(names []string) ([]Candidate, []float64, error) {
	if len(names) != len(s.vs) {
		return nil, nil, fmt.Errorf("search: validation: %d names for %d candidates", len(names), len(s.vs))
	}
	var cs []Candidate
	for c, v := range s.vs {
		cmp, err := v.Compare()
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, Candidate{Name: names[c], X: s.x[c], Comparison: cmp})
	}
	holm, err := holmOf(cs)
	if err != nil {
		return nil, nil, err
	}
	return cs, holm, nil
}

// ValidationSetFingerprint returns the config.json of a validation of the
// named candidates against ref in setup's field.
func (s *Setup) ValidationSetFingerprint(names []string, ref string, set *ValidationSet) []byte {
	v := struct {
		Format string      `json:"format"`
		Method string      `json:"method"`
		Name   string      `json:"name"`
		Cands  []string    `json:"candidates"`
		Ref    string      `json:"reference"`
		Values [][]float64 `json:"values"`
		fieldJSON
		Blocks int `json:"blocks"`
		Chunk  int `json:"chunk"`
	}{Format: "marslab-search/1", Method: "validate-set", Name: s.Config.Name, Cands: names, Ref: ref, Values: set.x,
		fieldJSON: s.fieldJSON(), Blocks: set.blocks, Chunk: set.chunk}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}

// detectableDiff returns the smallest difference in win rate that a
// paired t test over blocks blocks, with the per-block differences'
// standard deviation sd, finds at two-sided level alpha with probability
// power (normal approximation: (z_{1-alpha/2} + z_power)·sd/√blocks).
func detectableDiff(sd float64, blocks int, alpha, power float64) (float64, error) {
	if blocks < 2 || !(sd >= 0) || !(alpha > 0 && alpha < 1) || !(power > 0.5 && power < 1) {
		return 0, fmt.Errorf("search: detectable difference: sd %v, %d blocks, alpha %v, power %v: want sd >= 0, blocks >= 2, alpha and power in (0.5, 1)", sd, blocks, alpha, power)
	}
	za, err := stats.NormalQuantile(1 - alpha) // two-sided: z_{1-alpha/2}
	if err != nil {
		return 0, err
	}
	zp, err := stats.NormalQuantile(2*power - 1) // one-sided: z_power
	if err != nil {
		return 0, err
	}
	return (za + zp) * sd / math.Sqrt(float64(blocks)), nil
}
