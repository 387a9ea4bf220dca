package bots

import (
	"fmt"

	"marslab/mars"
	"marslab/sim"
)

// marsFactory registers the MARS bot (package mars) under the name "mars".
// Its parameters are those of mars.ParamSpecs: Tables 1 and 2 of Johansson
// & Olsson (2006), with the published values as defaults.
func marsFactory() Factory {
	specs := mars.ParamSpecs()
	ps := make([]Param, len(specs))
	for i, s := range specs {
		ps[i] = Param{Name: s.Name, Default: s.Default, Min: s.Min, Max: s.Max, Integer: s.Integer, Doc: s.Doc}
	}
	return Factory{
		Name:   "mars",
		Doc:    "MARS multi-agent bot (Johansson & Olsson 2006): territory agents bidding in auctions",
		Params: ps,
		New:    newMars,
	}
}

// newMars builds a MARS bot from named parameter values; parameters absent
// from params keep the paper's values.
func newMars(params map[string]float64) (sim.Player, error) {
	p := mars.PaperParams()
	for _, s := range mars.ParamSpecs() {
		v, ok := params[s.Name]
		if !ok {
			continue
		}
		if err := p.Set(s.Name, v); err != nil {
			return nil, fmt.Errorf("bot mars: %w", err)
		}
	}
	for name := range params {
		if _, ok := p.Get(name); !ok {
			return nil, fmt.Errorf("bot mars: unknown parameter %q", name)
		}
	}
	return mars.New(p)
}
