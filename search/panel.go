package search

import (
	"encoding/json"
	"fmt"
	"strings"
)

// PanelConfig configures a panel: several candidates each compared with
// one reference on the same fresh blocks, the reference played once.
type PanelConfig struct {
	// Sets are the candidates' values, Ref the reference's, each of every
	// parameter of the field's Space.
	Sets [][]float64
	Ref  []float64
	// Blocks, Chunk and First are as in ValidateConfig.
	Blocks, Chunk, First int
}

// Panel is the Method of a panel: each step plays every candidate
// (candidates 0..len(Sets)-1) and the reference (candidate len(Sets)) on
// the next Chunk blocks from validationBlock0+First. Candidate i's
// comparison is the Validation of it against the reference on those
// blocks, so that a panel of one candidate gives the validation's numbers.
type Panel struct {
	cfg  PanelConfig
	step int
	vals []*Validation
}

// NewPanel returns a panel.
func NewPanel(cfg PanelConfig) (*Panel, error) {
	if len(cfg.Sets) == 0 {
		return nil, fmt.Errorf("search: panel: no candidates")
	}
	p := &Panel{cfg: cfg}
	for i, x := range cfg.Sets {
		v, err := NewValidation(ValidateConfig{A: x, B: cfg.Ref, Blocks: cfg.Blocks, Chunk: cfg.Chunk, First: cfg.First})
		if err != nil {
			return nil, fmt.Errorf("search: panel candidate %d: %w", i, err)
		}
		p.vals = append(p.vals, v)
	}
	return p, nil
}

// steps returns ceil(Blocks/Chunk).
func (p *Panel) steps() int { return p.vals[0].steps() }

// next returns every candidate and then the reference on the step's blocks.
func (p *Panel) next() ([]Eval, error) {
	first := p.step * p.cfg.Chunk
	last := min(first+p.cfg.Chunk, p.cfg.Blocks)
	var ev []Eval
	for c, x := range append(append([][]float64{}, p.cfg.Sets...), p.cfg.Ref) {
		for b := first; b < last; b++ {
			ev = append(ev, Eval{Cand: c, X: x, Block: validationBlock0 + p.cfg.First + b})
		}
	}
	return ev, nil
}

// tell gives each candidate's results and the reference's to the
// candidate's validation.
func (p *Panel) tell(res []Result) error {
	defer func() { p.step++ }()
	k := len(p.cfg.Sets) + 1
	n := len(res) / k
	if len(res) != k*n {
		return fmt.Errorf("panel: %d results: want %d candidates on the same blocks", len(res), k)
	}
	ref := res[(k-1)*n:]
	for i, v := range p.vals {
		if err := v.tell(append(append([]Result{}, res[i*n:(i+1)*n]...), ref...)); err != nil {
			return fmt.Errorf("panel candidate %d: %w", i, err)
		}
	}
	return nil
}

// status describes each candidate's comparison so far.
func (p *Panel) status() string {
	var s []string
	for i, v := range p.vals {
		s = append(s, fmt.Sprintf("%d: %s", i, v.status()))
	}
	return strings.Join(s, "; ")
}

// Compare returns candidate i's comparison with the reference.
func (p *Panel) Compare(i int) (Comparison, error) { return p.vals[i].Compare() }

// Candidates returns the comparisons of the candidates with the reference,
// named names, and their Holm-adjusted p-values.
func (p *Panel) Candidates(names []string) ([]Candidate, []float64, error) {
	if len(names) != len(p.vals) {
		return nil, nil, fmt.Errorf("search: panel: %d names for %d candidates", len(names), len(p.vals))
	}
	var cs []Candidate
	for i, v := range p.vals {
		cmp, err := v.Compare()
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, Candidate{Name: names[i], X: p.cfg.Sets[i], Comparison: cmp})
	}
	holm, err := holmOf(cs)
	if err != nil {
		return nil, nil, err
	}
	return cs, holm, nil
}

// PanelFingerprint returns the config.json of a panel of the candidates
// named names against ref in field g (a field of one condition) under the
// experiment name.
func PanelFingerprint(name string, g *Games, names []string, ref string, cfg PanelConfig) []byte {
	s := &Setup{Config: &Config{Name: name}, Field: g, Space: g.Space}
	if g.mixed() {
		for _, c := range g.Mixture {
			s.CondRulesSHA256 = append(s.CondRulesSHA256, fingerprint(c.Rules))
			s.CondMapSHA256 = append(s.CondMapSHA256, fingerprint(c.Map))
		}
	} else {
		s.RulesSHA256, s.MapSHA256 = fingerprint(g.Rules), fingerprint(g.Map)
	}
	v := struct {
		Format string      `json:"format"`
		Method string      `json:"method"`
		Name   string      `json:"name"`
		Sets   []string    `json:"sets"`
		Ref    string      `json:"ref"`
		Values [][]float64 `json:"values"`
		RefX   []float64   `json:"ref_values"`
		Base   seatJSON    `json:"base"`
		fieldJSON
		Blocks int `json:"blocks"`
		Chunk  int `json:"chunk"`
		First  int `json:"first,omitempty"`
	}{Format: "marslab-search/1", Method: "panel", Name: name, Sets: names, Ref: ref, Values: cfg.Sets, RefX: cfg.Ref,
		Base: seatInfo(g.Base), fieldJSON: s.fieldJSON(), Blocks: cfg.Blocks, Chunk: cfg.Chunk, First: cfg.First}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}

// ValidationSetFingerprint returns the config.json of the validation of
// the candidates named names against ref in setup's field, the [Panel] of
// cfg (whose First is 0).
func (s *Setup) ValidationSetFingerprint(names []string, ref string, cfg PanelConfig) []byte {
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
	}{Format: "marslab-search/1", Method: "validate-set", Name: s.Config.Name, Cands: names, Ref: ref, Values: append(append([][]float64{}, cfg.Sets...), cfg.Ref),
		fieldJSON: s.fieldJSON(), Blocks: cfg.Blocks, Chunk: cfg.Chunk}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}
