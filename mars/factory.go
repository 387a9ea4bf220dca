package mars

import (
	"fmt"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/sim"
)

// Factory returns the registry entry of the MARS bot, "mars". Its
// parameters are those of [ParamSpecs]: Tables 1 and 2 of Johansson & Olsson
// (2006), with the published values as defaults, and the named options
// goal_value, goal_paths, defensive_bid and hold_unit.
//
// The bots of one Factory value share a pool of dice tables and chain-odds
// stores: a bot that is collected leaves its odds to the next one, which
// plays the same games faster (see oddsPool).
func Factory() bots.Factory {
	spare := new(oddsPool)
	return bots.Factory{
		Name:   "mars",
		Doc:    "MARS multi-agent bot (Johansson & Olsson 2006): territory agents bidding in auctions",
		Params: ParamSpecs(),
		New: func(v bots.Values) (sim.Player, error) {
			b, err := newFromValues(v)
			if err != nil {
				return nil, err
			}
			b.spare = spare
			return b, nil
		},
	}
}

// newFromValues builds a MARS bot from named parameter values (a named
// option's value is its choice index); parameters absent from params keep
// the values of [PaperParams].
func newFromValues(params bots.Values) (*Bot, error) {
	p := PaperParams()
	for _, s := range paramSpecs {
		v, ok := params[s.Name]
		if !ok {
			continue
		}
		if err := p.Set(s.Name, v); err != nil {
			return nil, err // "mars: parameter W_p = 5: ..."
		}
	}
	for name := range params {
		if _, ok := p.Get(name); !ok {
			return nil, fmt.Errorf("mars: unknown parameter %q", name)
		}
	}
	return New(p)
}
