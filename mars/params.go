package mars

import (
	"fmt"

	"marslab/bots"
)

// Params are MARS's tunable parameters: Table 1 (general) and Table 2
// (territory valuation) of Johansson & Olsson (2006). Every field is set by
// its paper name through Set and read through Get; PaperParams returns the
// published values.
type Params struct {
	// Pdb (P_db, Table 1) multiplies the defensive bids of equation (5);
	// a higher value makes the bot more defensive. Range [0, 10000].
	Pdb float64
	// Pob (P_ob, Table 1) multiplies the offensive bids of equation (4);
	// a higher value makes the bot more offensive. Range [0, 10000].
	Pob float64
	// Wp (W_p, Table 1) is the least win probability at which an agent may
	// attack once the bot has conquered a territory this turn. Range [0, 1].
	Wp float64
	// Wp1 (W_p1, Table 1) is the threshold used instead of Wp before the
	// first conquest of the turn. Range [0, 1].
	Wp1 float64
	// Gl (G_l, Table 1) is the longest goal chain, in territories, that
	// placement messages may grow to. Integer in [1, 10].
	Gl int
	// Csv (C_sv, Table 2) multiplies the static value V_sv = V_b/(V_s*V_nb).
	Csv float64
	// Cfn (C_fn, Table 2) is the value of each friendly neighbour (V_fn).
	Cfn float64
	// Cen (C_en, Table 2) is the value of each enemy neighbour (V_en).
	Cen float64
	// Cfnu (C_fnu, Table 2) is the value of each army on friendly
	// neighbours (V_fnu).
	Cfnu float64
	// Cenu (C_enu, Table 2) is the value of each army on enemy neighbours
	// (V_enu).
	Cenu float64
	// Ccb (C_cb, Table 2) is the bonus per other continent the territory
	// borders (V_cb).
	Ccb float64
	// Coc (C_oc, Table 2) is the bonus, in units of V_b, for owning the
	// whole continent except this territory (V_oc).
	Coc float64
	// Ceoc (C_eoc, Table 2) is the bonus, in units of V_b, when one enemy
	// owns the whole continent (V_eoc).
	Ceoc float64
}

// PaperParams returns the parameters published in Tables 1 and 2 of the
// MARS paper (the contents of configs/bots/mars-paper.toml, seat spec
// mars@paper).
func PaperParams() Params {
	return Params{
		Pdb: 3.5, Pob: 170, Wp: 0.7375, Wp1: 0.25, Gl: 5,
		Csv: 70, Cfn: 1.2, Cen: -0.3, Cfnu: 0.05, Cenu: -0.03,
		Ccb: 0.5, Coc: 20, Ceoc: 4,
	}
}

// paramSpecs is the immutable parameter table, in the papers' order.
// Ranges: probabilities in [0, 1]; bid multipliers in [0.01, 10000] on a
// log scale (the paper's values are 3.5 and 170; a search varies them by
// factors, not by steps); valuation coefficients in [-1000, 1000] (the
// paper's are all within ±70); G_l in 1..10 (longer chains are never won
// in practice and cost time exponentially).
var paramSpecs = [...]bots.Param{
	{Name: "P_db", Default: 3.5, Min: 0.01, Max: 10000, Log: true, Doc: "Table 1: defensive bid multiplier in eq. (5); higher is more defensive"},
	{Name: "P_ob", Default: 170, Min: 0.01, Max: 10000, Log: true, Doc: "Table 1: offensive bid multiplier in eq. (4); higher is more offensive"},
	{Name: "W_p", Default: 0.7375, Min: 0, Max: 1, Doc: "Table 1: least win probability to attack (after the turn's first conquest)"},
	{Name: "W_p1", Default: 0.25, Min: 0, Max: 1, Doc: "Table 1: least win probability to attack before the turn's first conquest"},
	{Name: "G_l", Default: 5, Min: 1, Max: 10, Integer: true, Doc: "Table 1: maximum goal path length (territories in a placement chain)"},
	{Name: "C_sv", Default: 70, Min: -1000, Max: 1000, Doc: "Table 2: multiplier of the static value V_sv = V_b/(V_s*V_nb)"},
	{Name: "C_fn", Default: 1.2, Min: -1000, Max: 1000, Doc: "Table 2: value of each friendly neighbour"},
	{Name: "C_en", Default: -0.3, Min: -1000, Max: 1000, Doc: "Table 2: value of each enemy neighbour"},
	{Name: "C_fnu", Default: 0.05, Min: -1000, Max: 1000, Doc: "Table 2: value of each army on friendly neighbours"},
	{Name: "C_enu", Default: -0.03, Min: -1000, Max: 1000, Doc: "Table 2: value of each army on enemy neighbours"},
	{Name: "C_cb", Default: 0.5, Min: -1000, Max: 1000, Doc: "Table 2: bonus per other continent bordered"},
	{Name: "C_oc", Default: 20, Min: -1000, Max: 1000, Doc: "Table 2: bonus (x V_b) for owning the whole continent but this territory"},
	{Name: "C_eoc", Default: 4, Min: -1000, Max: 1000, Doc: "Table 2: bonus (x V_b) when an enemy owns the whole continent"},
}

// ParamSpecs returns a copy of the parameter table (the bots.Param of every
// field of Params), in the order of the paper's Tables 1 and 2.
func ParamSpecs() []bots.Param {
	out := make([]bots.Param, len(paramSpecs))
	copy(out, paramSpecs[:])
	return out
}

func (p *Params) field(name string) (f *float64, g *int) {
	switch name {
	case "P_db":
		return &p.Pdb, nil
	case "P_ob":
		return &p.Pob, nil
	case "W_p":
		return &p.Wp, nil
	case "W_p1":
		return &p.Wp1, nil
	case "G_l":
		return nil, &p.Gl
	case "C_sv":
		return &p.Csv, nil
	case "C_fn":
		return &p.Cfn, nil
	case "C_en":
		return &p.Cen, nil
	case "C_fnu":
		return &p.Cfnu, nil
	case "C_enu":
		return &p.Cenu, nil
	case "C_cb":
		return &p.Ccb, nil
	case "C_oc":
		return &p.Coc, nil
	case "C_eoc":
		return &p.Ceoc, nil
	}
	return nil, nil
}

func spec(name string) (bots.Param, bool) {
	for _, s := range paramSpecs {
		if s.Name == name {
			return s, true
		}
	}
	return bots.Param{}, false
}

// check reports whether v is an allowed value for parameter s.
func check(s bots.Param, v float64) error {
	if err := s.Check(v); err != nil {
		return fmt.Errorf("mars: parameter %s = %v: %w", s.Name, v, err)
	}
	return nil
}

// Set sets the parameter called name (a paper name such as "W_p") to v,
// or returns an error naming the parameter and its allowed range.
func (p *Params) Set(name string, v float64) error {
	s, ok := spec(name)
	if !ok {
		return fmt.Errorf("mars: unknown parameter %q", name)
	}
	if err := check(s, v); err != nil {
		return err
	}
	f, g := p.field(name)
	if f != nil {
		*f = v
	} else {
		*g = int(v)
	}
	return nil
}

// Get returns the value of the parameter called name.
func (p Params) Get(name string) (float64, bool) {
	f, g := p.field(name)
	switch {
	case f != nil:
		return *f, true
	case g != nil:
		return float64(*g), true
	}
	return 0, false
}

// Validate checks every parameter against its range.
func (p Params) Validate() error {
	for _, s := range paramSpecs {
		v, _ := p.Get(s.Name)
		if err := check(s, v); err != nil {
			return err
		}
	}
	return nil
}
