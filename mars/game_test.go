package mars_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"marslab/bots"
	"marslab/mars"
	"marslab/sim"
)

func TestPaperParamsMatchConfig(t *testing.T) {
	reg := bots.NewRegistry()
	f, ok := reg.Lookup("mars")
	if !ok {
		t.Fatal("mars is not registered")
	}
	vals, err := bots.ReadParamFile(f, "../configs/bots/mars-paper.toml")
	if err != nil {
		t.Fatal(err)
	}
	specs := mars.ParamSpecs()
	if len(vals) != len(specs) {
		t.Fatalf("mars-paper.toml sets %d parameters, want all %d", len(vals), len(specs))
	}
	paper := mars.PaperParams()
	for _, s := range specs {
		got, _ := paper.Get(s.Name)
		if vals[s.Name] != got || s.Default != got {
			t.Errorf("%s: toml %v, PaperParams %v, spec default %v", s.Name, vals[s.Name], got, s.Default)
		}
	}
	want := []float64{3.5, 170, 0.7375, 0.25, 5, 70, 1.2, -0.3, 0.05, -0.03, 0.5, 20, 4}
	for i, s := range specs {
		if s.Default != want[i] {
			t.Errorf("%s default %v, Tables 1-2 say %v", s.Name, s.Default, want[i])
		}
	}
}

func TestParamsSet(t *testing.T) {
	tests := []struct {
		name    string
		v       float64
		wantErr string
	}{
		{"W_p", 0.8, ""},
		{"W_p", 1.2, "W_p = 1.2: must be in [0, 1]"},
		{"G_l", 3, ""},
		{"G_l", 2.5, "must be an integer"},
		{"G_l", 0, "must be in [1, 10]"},
		{"P_ob", -1, "must be in [0, 10000]"},
		{"C_en", -0.5, ""},
		{"X", 1, `unknown parameter "X"`},
	}
	for _, tc := range tests {
		p := mars.PaperParams()
		err := p.Set(tc.name, tc.v)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("Set(%s, %v): %v", tc.name, tc.v, err)
				continue
			}
			if got, _ := p.Get(tc.name); got != tc.v {
				t.Errorf("Get(%s) = %v after Set %v", tc.name, got, tc.v)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Set(%s, %v) = %v, want error containing %q", tc.name, tc.v, err, tc.wantErr)
		}
		if p != mars.PaperParams() {
			t.Errorf("failed Set(%s) changed the parameters", tc.name)
		}
	}
	bad := mars.PaperParams()
	bad.Wp = 2
	if _, err := mars.New(bad); err == nil {
		t.Error("New accepted W_p = 2")
	}
}

func FuzzParamsSet(f *testing.F) {
	f.Add("W_p", 0.5)
	f.Add("G_l", 11.0)
	f.Add("C_oc", -1e9)
	f.Fuzz(func(t *testing.T, name string, v float64) {
		p := mars.PaperParams()
		err := p.Set(name, v)
		if err == nil {
			if got, ok := p.Get(name); !ok || got != v {
				t.Fatalf("Set(%q, %v) ok but Get = %v, %v", name, v, got, ok)
			}
			if verr := p.Validate(); verr != nil {
				t.Fatalf("Set(%q, %v) ok but Validate: %v", name, v, verr)
			}
		} else if p != mars.PaperParams() {
			t.Fatalf("failed Set(%q, %v) changed the parameters", name, v)
		}
	})
}

func TestRegistrySeat(t *testing.T) {
	reg := bots.NewRegistry()
	seat, err := reg.ParseSeat("mars(W_p=0.8;G_l=3)", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := seat.New()
	if err != nil {
		t.Fatal(err)
	}
	b, ok := p.(*mars.Bot)
	if !ok {
		t.Fatalf("mars seat made a %T", p)
	}
	if b.Params().Wp != 0.8 || b.Params().Gl != 3 || b.Params().Pob != 170 {
		t.Errorf("params %+v", b.Params())
	}
	if _, ok := p.(bots.Explainer); !ok {
		t.Error("*mars.Bot is not a bots.Explainer")
	}
	if _, err := reg.ParseSeat("mars(W_p=1.5)", nil); err == nil {
		t.Error("W_p = 1.5 accepted")
	}
}

// TestGames plays MARS under every embedded rule set and 2 to 6 players:
// no faults, and the same seed gives the same result.
func TestGames(t *testing.T) {
	m, err := sim.LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	reg := bots.NewRegistry()
	others := []string{"aggressive", "random", "pacifist", "passive", "aggressive"}
	for _, rname := range []string{"mars2006", "classic", "fixedcards", "missions"} {
		r, err := sim.LoadRules(rname)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 6; n += 2 {
			ps := []sim.Player{}
			for i := 0; i < n; i++ {
				spec := "mars"
				if i%2 == 1 {
					spec = others[i-1]
				}
				seat, err := reg.ParseSeat(spec, nil)
				if err != nil {
					t.Fatal(err)
				}
				p, err := seat.New()
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
			g, err := sim.NewGame(m, r, n)
			if err != nil {
				t.Fatal(err)
			}
			for idx := uint64(0); idx < 2; idx++ {
				res, err := g.Play(ps, 7, idx)
				if err != nil {
					t.Fatal(err)
				}
				for s, f := range res.Faults {
					if f != 0 {
						t.Errorf("%s, %d players, game %d: seat %d made %d faults", rname, n, idx, s, f)
					}
				}
				again, _ := g.Play(ps, 7, idx)
				if !reflect.DeepEqual(res, again) {
					t.Errorf("%s, %d players, game %d: replay differs: %+v vs %+v", rname, n, idx, res, again)
				}
			}
		}
	}
}

func TestExplain(t *testing.T) {
	g := newGame(t)
	ps := baseline(t)
	var buf bytes.Buffer
	ps[0].(*mars.Bot).SetExplain(&buf)
	res, err := g.Play(ps, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"goals", "b_o ", "b_d ", "auction 1:", "attack: ", ">= threshold", "fortify (one-step)", "flow "} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q", want)
		}
	}
	// Explaining changes no decision.
	ps[0].(*mars.Bot).SetExplain(nil)
	quiet, _ := g.Play(ps, 1, 0)
	if !reflect.DeepEqual(res, quiet) {
		t.Errorf("explained game %+v differs from quiet game %+v", res, quiet)
	}
}

// BenchmarkMarsTurn measures MARS's decisions alone: the same game is
// replayed and only the time inside MARS's methods is reported per turn.
func BenchmarkMarsTurn(b *testing.B) {
	g := newGame(b)
	ps := baseline(b)
	bot := ps[0].(*mars.Bot)
	c := &countingPlayer{Player: bot}
	ps[0] = c
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Play(ps, 1, 3); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.turns)/float64(b.N), "mars-turns/op")
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(c.turns), "ms/mars-turn")
}

// countingPlayer counts the turns of the player it wraps (one Fortify per
// turn that reaches the fortify phase, one Place per turn).
type countingPlayer struct {
	sim.Player
	turns int
}

func (c *countingPlayer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	if s.Phase() == sim.PhasePlace {
		c.turns++
	}
	return c.Player.Place(s, armies, buf)
}

func Example() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("mars2006")
	g, _ := sim.NewGame(m, r, 2)
	p := mars.PaperParams()
	if err := p.Set("W_p", 0.8); err != nil {
		fmt.Println(err)
		return
	}
	a, _ := mars.New(p)
	b, _ := mars.New(mars.PaperParams())
	res, _ := g.Play([]sim.Player{a, b}, 1, 0)
	fmt.Println("winner:", res.Winner >= 0, "faults:", res.Faults)
	fmt.Println(p.Set("W_p", 2))
	// Output:
	// winner: true faults: [0 0]
	// mars: parameter W_p = 2: must be in [0, 1]
}
