package bots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"marslab/sim"
)

// tunedFactory is a test bot with MARS-like parameters.
func tunedFactory() Factory {
	return Factory{
		Name: "tuned",
		Doc:  "test bot with parameters",
		Params: []Param{
			{Name: "W_p", Default: 0.7375, Min: 0, Max: 1, Doc: "win-probability threshold"},
			{Name: "P_ob", Default: 170, Min: 0, Max: 1000, Doc: "offensive bid multiplier"},
			{Name: "G_l", Default: 5, Min: 1, Max: 10, Integer: true, Doc: "goal path length"},
		},
		New: func(map[string]float64) (sim.Player, error) { return &sim.BasePlayer{}, nil },
	}
}

func testRegistry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry()
	must(t, r.Register(tunedFactory()))
	return r
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	must(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestRegistryNames(t *testing.T) {
	r := NewRegistry()
	equal(t, r.Names(), []string{"aggressive", "mars", "pacifist", "passive", "random"})
	for _, n := range r.Names() {
		f, ok := r.Lookup(n)
		if !ok || f.Name != n || f.Doc == "" {
			t.Fatalf("Lookup(%q) = %+v, %v", n, f, ok)
		}
	}
	_, ok := r.Lookup("lux")
	if ok {
		t.Fatal("Lookup(lux) found a bot")
	}
	// Registering in one registry leaves another untouched.
	r2 := testRegistry(t)
	if _, ok := r2.Lookup("tuned"); !ok {
		t.Fatal("tuned not registered")
	}
	if _, ok := r.Lookup("tuned"); ok {
		t.Fatal("tuned leaked into another registry")
	}
	// Names returns a copy.
	r.Names()[0] = "zzz"
	equal(t, r.Names()[0], "aggressive")
}

func TestRegister(t *testing.T) {
	newP := func(map[string]float64) (sim.Player, error) { return nil, nil }
	tests := []struct {
		name string
		f    Factory
		want string
	}{
		{"dup", Factory{Name: "random", New: newP}, `"random": name already registered`},
		{"badname", Factory{Name: "a b", New: newP}, `register "a b": name must match`},
		{"empty", Factory{Name: "", New: newP}, `register "": name must match`},
		{"nilnew", Factory{Name: "x"}, `register "x": New is nil`},
		{"badparam", Factory{Name: "x", New: newP, Params: []Param{{Name: "a-b", Max: 1}}}, `bad or duplicate parameter name "a-b"`},
		{"dupparam", Factory{Name: "x", New: newP, Params: []Param{{Name: "a", Max: 1}, {Name: "a", Max: 1}}}, `bad or duplicate parameter name "a"`},
		{"range", Factory{Name: "x", New: newP, Params: []Param{{Name: "a", Min: 2, Max: 1, Default: 1}}}, `parameter a: range [2, 1] is empty`},
		{"default", Factory{Name: "x", New: newP, Params: []Param{{Name: "a", Min: 0, Max: 1, Default: 3}}}, `parameter a: default 3 must be in [0, 1]`},
		{"intdefault", Factory{Name: "x", New: newP, Params: []Param{{Name: "a", Min: 0, Max: 9, Default: 1.5, Integer: true}}}, `default 1.5 must be an integer in [0, 9]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewRegistry().Register(tt.f)
			wantErr(t, err, tt.want)
		})
	}
}

func TestParseSeat(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "mars-tuned.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\nG_l = 7\n")
	def := map[string]float64{"W_p": 0.7375, "P_ob": 170, "G_l": 5}
	with := func(kv ...any) map[string]float64 {
		m := map[string]float64{"W_p": 0.7375, "P_ob": 170, "G_l": 5}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(float64)
		}
		return m
	}
	tests := []struct {
		spec   string
		ov     map[string]map[string]float64
		label  string
		params map[string]float64
	}{
		{"aggressive", nil, "aggressive", map[string]float64{}},
		{"  passive ", nil, "passive", map[string]float64{}},
		{"random", nil, "random", map[string]float64{"stop": 0.2}},
		{"random(stop=0.5)", nil, "random(stop=0.5)", map[string]float64{"stop": 0.5}},
		{"random( stop = 0.50 )", nil, "random(stop=0.5)", map[string]float64{"stop": 0.5}},
		{"tuned", nil, "tuned", def},
		{"tuned(W_p=0.8;P_ob=150)", nil, "tuned(W_p=0.8;P_ob=150)", with("W_p", 0.8, "P_ob", 150.0)},
		{"tuned(P_ob=150,W_p=0.8)", nil, "tuned(P_ob=150;W_p=0.8)", with("W_p", 0.8, "P_ob", 150.0)},
		{"tuned(G_l=10;W_p=1)", nil, "tuned(G_l=10;W_p=1)", with("W_p", 1.0, "G_l", 10.0)},
		{"tuned(P_ob=1e2)", nil, "tuned(P_ob=100)", with("P_ob", 100.0)},
		// Overrides come last and join the label.
		{"tuned", map[string]map[string]float64{"tuned": {"W_p": 0.9}}, "tuned(W_p=0.9)", with("W_p", 0.9)},
		{"tuned(W_p=0.8;G_l=2)", map[string]map[string]float64{"tuned": {"W_p": 0.9}, "random": {"stop": 1}},
			"tuned(W_p=0.9;G_l=2)", with("W_p", 0.9, "G_l", 2.0)},
		{"random", map[string]map[string]float64{"tuned": {"W_p": 0.9}}, "random", map[string]float64{"stop": 0.2}},
		// File values sit between defaults and inline values.
		{"tuned@" + file, nil, "tuned@mars-tuned", with("W_p", 0.5, "G_l", 7.0)},
		{"tuned@" + file + "(W_p=0.25)", nil, "tuned@mars-tuned(W_p=0.25)", with("W_p", 0.25, "G_l", 7.0)},
		{"tuned@" + file, map[string]map[string]float64{"tuned": {"G_l": 3}}, "tuned@mars-tuned(G_l=3)", with("W_p", 0.5, "G_l", 3.0)},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := r.ParseSeat(tt.spec, tt.ov)
			must(t, err)
			equal(t, s.Label, tt.label)
			equal(t, s.Params, tt.params)
			p, err := s.New()
			must(t, err)
			if p == nil {
				t.Fatal("nil player")
			}
		})
	}
}

func TestParseSeatErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\n")
	tests := []struct {
		spec string
		ov   map[string]map[string]float64
		want string
	}{
		{"", nil, `seat "": empty seat`},
		{"lux", nil, `seat "lux": unknown bot "lux" (registered: aggressive, mars, pacifist, passive, random, tuned)`},
		{"passive(x=1)", nil, `seat "passive(x=1)": bot "passive" takes no parameters`},
		{"random()", nil, `empty parameter list ()`},
		{"random(stop)", nil, `parameter "stop": want K=V`},
		{"random(stop=)", nil, `parameter "stop=": want K=V`},
		{"random(stop=0.1;)", nil, `parameter "": want K=V`},
		{"random(stop=x)", nil, `stop = "x": not a number`},
		{"random(stop=1.5)", nil, `seat "random(stop=1.5)": stop = 1.5: must be in [0, 1]`},
		{"random(stop=NaN)", nil, `stop = NaN: must be a finite number in [0, 1]`},
		{"random(go=1)", nil, `bot "random" has no parameter "go" (parameters: stop)`},
		{"tuned(G_l=2.5)", nil, `G_l = 2.5: must be an integer in [1, 10]`},
		{"tuned(G_l=0)", nil, `G_l = 0: must be in [1, 10]`},
		{"tuned(W_p=0.1;W_p=0.2)", nil, `parameter W_p given twice`},
		{"tuned(W_p=(1))", nil, `want name, name(K=V;...) or name@file.toml`},
		{"tuned(W_p=1))", nil, `unbalanced parentheses`},
		{"tuned)", nil, `unbalanced ')'`},
		{"tuned(W_p=1", nil, `want name, name(K=V;...) or name@file.toml`},
		{"tuned W_p=1", nil, `want name, name(K=V;...) or name@file.toml`},
		{"tuned x", nil, `unknown bot "tuned x"`},
		{"tuned@", nil, `empty parameter file after '@'`},
		{"@" + good, nil, `missing bot name`},
		{"tuned@" + filepath.Join(dir, "none.toml"), nil, `bot parameter file: open`},
		{"random@" + good, nil, good + `: bot = "tuned": this seat is a "random" bot`},
		{"tuned", map[string]map[string]float64{"tuned": {"X": 1}}, `-param tuned.X: bot "tuned" has no parameter "X"`},
		{"tuned", map[string]map[string]float64{"tuned": {"W_p": 2}}, `-param tuned.W_p = 2: must be in [0, 1]`},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := r.ParseSeat(tt.spec, tt.ov)
			wantErr(t, err, tt.want)
		})
	}
}

func TestParamFile(t *testing.T) {
	f := tunedFactory()
	tests := []struct {
		name, text string
		want       map[string]float64
		err        string
	}{
		{"ok", "bot = \"tuned\"\n[params]\nW_p = 0.8 # comment\nG_l = 3\nP_ob = 150\n",
			map[string]float64{"W_p": 0.8, "G_l": 3, "P_ob": 150}, ""},
		{"noparams", "bot = \"tuned\"\n", map[string]float64{}, ""},
		{"range", "bot = \"tuned\"\n[params]\nW_p = 1.3\n", nil, "mars-tuned.toml: params.W_p = 1.3: must be in [0, 1]"},
		{"integer", "bot = \"tuned\"\n[params]\nG_l = 2.5\n", nil, "mars-tuned.toml: params.G_l = 2.5: must be an integer in [1, 10]"},
		{"unknownparam", "bot = \"tuned\"\n[params]\nW_x = 1\n", nil, `mars-tuned.toml: params.W_x: bot "tuned" has no parameter "W_x" (parameters: W_p, P_ob, G_l)`},
		{"unknownkey", "bot = \"tuned\"\nseed = 3\n", nil, `mars-tuned.toml: unknown key "seed" (allowed: bot, params)`},
		{"wrongbot", "bot = \"mars\"\n", nil, `mars-tuned.toml: bot = "mars": this seat is a "tuned" bot`},
		{"nobot", "[params]\nW_p = 0.5\n", nil, `mars-tuned.toml: missing key bot (want bot = "tuned")`},
		{"string", "bot = \"tuned\"\n[params]\nW_p = \"high\"\n", nil, `mars-tuned.toml: params.W_p = high: not a number`},
		{"syntax", "bot = tuned\n", nil, `mars-tuned.toml: toml:`},
		{"nan", "bot = \"tuned\"\n[params]\nW_p = nan\n", nil, `params.W_p = NaN: must be a finite number in [0, 1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "mars-tuned.toml", tt.text)
			got, err := ReadParamFile(&f, path)
			if tt.err != "" {
				wantErr(t, err, tt.err)
				return
			}
			must(t, err)
			equal(t, got, tt.want)
		})
	}
}

func TestPaperParamFileShape(t *testing.T) {
	// configs/bots/mars-paper.toml must parse for a factory with its keys.
	data, err := os.ReadFile("../configs/bots/mars-paper.toml")
	must(t, err)
	f := Factory{Name: "mars", New: func(map[string]float64) (sim.Player, error) { return nil, nil }}
	for _, k := range []string{"P_db", "P_ob", "W_p", "W_p1", "G_l", "C_sv", "C_fn", "C_en", "C_fnu", "C_enu", "C_cb", "C_oc", "C_eoc"} {
		f.Params = append(f.Params, Param{Name: k, Min: -1000, Max: 1000})
	}
	vals, err := ParseParamFile(&f, "mars-paper.toml", data)
	must(t, err)
	equal(t, len(vals), 13)
	equal(t, vals["W_p"], 0.7375)
	equal(t, vals["G_l"], 5.0)
	equal(t, vals["C_enu"], -0.03)
}

func TestParseSeats(t *testing.T) {
	r := testRegistry(t)
	seats, err := r.ParseSeats("aggressive, tuned(W_p=0.8,P_ob=150),random(stop=0.1) ,passive", nil)
	must(t, err)
	var labels []string
	for _, s := range seats {
		labels = append(labels, s.Label)
	}
	equal(t, labels, []string{"aggressive", "tuned(W_p=0.8;P_ob=150)", "random(stop=0.1)", "passive"})

	bad := []struct {
		list string
		ov   map[string]map[string]float64
		want string
	}{
		{"aggressive,,passive", nil, `seats "aggressive,,passive": seat 2 is empty`},
		{"aggressive,", nil, `seat 2 is empty`},
		{"tuned(W_p=1,passive", nil, `unbalanced '('`},
		{"tuned),passive", nil, `unbalanced ')'`},
		{"aggressive,lux", nil, `unknown bot "lux"`},
		// Overrides are checked even for bots without a seat.
		{"passive", map[string]map[string]float64{"tuned": {"W_q": 1}}, `-param tuned.W_q: bot "tuned" has no parameter "W_q"`},
		{"passive", map[string]map[string]float64{"lux": {"x": 1}}, `-param lux.*: unknown bot "lux"`},
		{"passive", map[string]map[string]float64{"random": {"stop": -1}}, `-param random.stop = -1: must be in [0, 1]`},
	}
	for _, tt := range bad {
		_, err := r.ParseSeats(tt.list, tt.ov)
		wantErr(t, err, tt.want, tt.list)
	}
}

func TestParseOverrides(t *testing.T) {
	got, err := ParseOverrides([]string{"mars.W_p=0.8", "mars.P_ob = 150", "random.stop=0.5", "mars.W_p=0.9"})
	must(t, err)
	equal(t, got, map[string]map[string]float64{"mars": {"W_p": 0.9, "P_ob": 150}, "random": {"stop": 0.5}})

	empty, err := ParseOverrides(nil)
	must(t, err)
	equal(t, len(empty), 0)

	for _, bad := range []string{"mars", "W_p=0.8", "mars.=1", ".W_p=1", "mars.W_p=", "mars.W_p=x", "mars.W_p=Inf", "mars.W-p=1", "ma rs.W_p=1"} {
		_, err := ParseOverrides([]string{bad})
		wantErr(t, err, "-param", bad)
	}
}

func TestSeatNew(t *testing.T) {
	r := NewRegistry()
	s, err := r.ParseSeat("aggressive", nil)
	must(t, err)
	p1, err := s.New()
	must(t, err)
	p2, err := s.New()
	must(t, err)
	if p1 == p2 {
		t.Fatal("two New calls returned the same player")
	}
	equal(t, p1.(*Sciberras).Strategy, Aggressive)

	s, err = r.ParseSeat("random(stop=0.75)", nil)
	must(t, err)
	p, err := s.New()
	must(t, err)
	equal(t, p.(*Random).Stop, 0.75)

	// The factory's New cannot alter the seat's parameters.
	s.Factory = &Factory{Name: "x", New: func(p map[string]float64) (sim.Player, error) { p["stop"] = 9; return nil, nil }}
	_, _ = s.New()
	equal(t, s.Params["stop"], 0.75)

	_, err = Seat{Label: "empty"}.New()
	wantErr(t, err, `seat "empty": no factory`)

	f, _ := r.Lookup("random")
	_, err = f.New(map[string]float64{"stop": 2})
	wantErr(t, err, "random: stop = 2: must be in [0, 1]")
}

func FuzzParseSeat(f *testing.F) {
	for _, s := range []string{"aggressive", "random(stop=0.5)", "tuned(W_p=0.8;P_ob=150)", "tuned(G_l=2,W_p=1)", "x@y(z)", "((", "random(stop=1e-300)"} {
		f.Add(s)
	}
	r := testRegistry(f)
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.Contains(spec, "@") {
			return // no file system access while fuzzing
		}
		s, err := r.ParseSeat(spec, nil)
		if err != nil {
			return
		}
		for _, p := range s.Factory.Params {
			v, ok := s.Params[p.Name]
			if !ok || p.Check(v) != nil {
				t.Fatalf("%q: parameter %s = %v not valid", spec, p.Name, v)
			}
		}
		// The label is itself a seat spec giving the same seat.
		s2, err := r.ParseSeat(s.Label, nil)
		if err != nil {
			t.Fatalf("%q: label %q does not parse: %v", spec, s.Label, err)
		}
		if s2.Label != s.Label || len(s2.Params) != len(s.Params) {
			t.Fatalf("%q: label %q re-parses to %q", spec, s.Label, s2.Label)
		}
		for k, v := range s.Params {
			if s2.Params[k] != v {
				t.Fatalf("%q: %s = %v, re-parsed %v", spec, k, v, s2.Params[k])
			}
		}
	})
}

func FuzzParseParamFile(f *testing.F) {
	f.Add("bot = \"tuned\"\n[params]\nW_p = 0.8\nG_l = 3\n")
	f.Add("bot = \"tuned\"\n[params]\nW_p = 1.3\n")
	f.Add("bot = 1\n")
	fac := tunedFactory()
	f.Fuzz(func(t *testing.T, text string) {
		vals, err := ParseParamFile(&fac, "fuzz.toml", []byte(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for k, v := range vals {
			p, ok := fac.Param(k)
			if !ok || p.Check(v) != nil {
				t.Fatalf("accepted %s = %v", k, v)
			}
		}
	})
}
