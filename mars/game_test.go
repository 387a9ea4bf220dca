package mars_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"marslab/bots"
	"marslab/bots/registry"
	"marslab/mars"
	"marslab/sim"
)

func TestPaperParamsMatchConfig(t *testing.T) {
	reg := registry.Default()
	f, ok := reg.Lookup("mars")
	if !ok {
		t.Fatal("mars is not registered")
	}
	vals, err := registry.ReadParamFile(f, "../configs/bots/mars-paper.toml")
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
		{"P_ob", -1, "must be in [0.01, 10000]"},
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
	reg := registry.Default()
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

// smallMap is a 12-territory map of three continents for TestGames: a
// board unlike the classic one (a continent without borders to two
// others, a hub territory, a one-territory bridge).
const smallMap = `
name = "small"

[[continents]]
name = "West"
bonus = 3

[[continents]]
name = "East"
bonus = 2

[[continents]]
name = "Isle"
bonus = 1

[[territories]]
name = "W1"
continent = "West"
neighbors = ["W2", "W3", "W4"]

[[territories]]
name = "W2"
continent = "West"
neighbors = ["W1", "W3", "W5"]

[[territories]]
name = "W3"
continent = "West"
neighbors = ["W1", "W2", "W4", "W5", "E1"]

[[territories]]
name = "W4"
continent = "West"
neighbors = ["W1", "W3"]

[[territories]]
name = "W5"
continent = "West"
neighbors = ["W2", "W3"]

[[territories]]
name = "E1"
continent = "East"
neighbors = ["W3", "E2", "E3"]

[[territories]]
name = "E2"
continent = "East"
neighbors = ["E1", "E3", "E4"]

[[territories]]
name = "E3"
continent = "East"
neighbors = ["E1", "E2", "E4", "I1"]

[[territories]]
name = "E4"
continent = "East"
neighbors = ["E2", "E3"]

[[territories]]
name = "I1"
continent = "Isle"
neighbors = ["E3", "I2", "I3"]

[[territories]]
name = "I2"
continent = "Isle"
neighbors = ["I1", "I3"]

[[territories]]
name = "I3"
continent = "Isle"
neighbors = ["I1", "I2"]
`

// invariants is an observer that checks the engine's invariants after
// every event of the games it watches: every territory owned by a live
// player and holding at least one army once the deal is over (but the
// territory just emptied by a roll), the players' army and territory
// counters equal to the board, and the armies on the board equal to those
// dealt, placed and awarded less those lost in battle.
type invariants struct {
	t        *testing.T
	g        *sim.Game
	name     string
	expected int
	dealt    int
	events   int
	failed   bool
}

func (c *invariants) Observe(e *sim.Event) {
	s := c.g.State()
	c.events++
	switch e.Kind {
	case sim.EvStart:
		c.expected, c.dealt = 0, 0
	case sim.EvDeal:
		c.expected++
		c.dealt++
	case sim.EvSetupPlace, sim.EvPlace:
		c.expected += e.Armies
	case sim.EvTrade:
		if e.To >= 0 {
			c.expected += s.Rules().Cards.TerritoryBonus
		}
	case sim.EvRoll:
		c.expected -= e.AttackerLoss + e.DefenderLoss
	case sim.EvFault:
		c.errorf("fault: %s", e.Text)
	}
	total := 0
	armies := make([]int, s.NumPlayers())
	count := make([]int, s.NumPlayers())
	for t := range s.NumTerritories() {
		total += s.Armies(t)
		o := s.Owner(t)
		if o < 0 {
			if c.dealt == s.NumTerritories() {
				c.errorf("territory %d has no owner after %v", t, e.Kind)
			}
			continue
		}
		armies[o] += s.Armies(t)
		count[o]++
		if s.Armies(t) < 1 && !(e.Kind == sim.EvRoll && t == e.To) {
			c.errorf("territory %d has %d armies after %v", t, s.Armies(t), e.Kind)
		}
		if !s.Alive(o) {
			c.errorf("eliminated player %d owns territory %d", o, t)
		}
	}
	if total != c.expected {
		c.errorf("after %v: %d armies on the board, expected %d", e.Kind, total, c.expected)
	}
	for p := range s.NumPlayers() {
		if armies[p] != s.TotalArmies(p) || count[p] != s.TerritoryCount(p) {
			c.errorf("player %d: counters %d armies/%d territories, board %d/%d",
				p, s.TotalArmies(p), s.TerritoryCount(p), armies[p], count[p])
		}
	}
}

func (c *invariants) errorf(format string, args ...any) {
	if !c.failed {
		c.t.Errorf(c.name+": "+format, args...)
	}
	c.failed = true
}

// TestGames plays MARS under every embedded rule set with 2 to 6 players,
// on the classic map and on a small custom map (every rule set but
// missions, whose cards name classic continents): no faults, the engine's
// invariants hold after every event, and the same seed gives the same
// result.
func TestGames(t *testing.T) {
	classic, err := sim.LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	small, err := sim.ParseMap("smallMap", []byte(smallMap))
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.Default()
	others := []string{"aggressive", "random", "pacifist", "passive", "aggressive"}
	for _, m := range []*sim.Map{classic, small} {
		for _, rname := range []string{"mars2006", "classic", "fixedcards", "missions"} {
			if rname == "missions" && m != classic {
				continue
			}
			r, err := sim.LoadRules(rname)
			if err != nil {
				t.Fatal(err)
			}
			for n := 2; n <= 6; n++ {
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
				name := fmt.Sprintf("%s map, %s rules, %d players", m.Name, rname, n)
				inv := &invariants{t: t, g: g, name: name}
				g.Observe(inv)
				for idx := uint64(0); idx < 2; idx++ {
					res, err := g.Play(ps, 7, idx)
					if err != nil {
						t.Fatal(err)
					}
					for s, f := range res.Faults {
						if f != 0 {
							t.Errorf("%s, game %d: seat %d made %d faults", name, idx, s, f)
						}
					}
					again, _ := g.Play(ps, 7, idx)
					if !reflect.DeepEqual(res, again) {
						t.Errorf("%s, game %d: replay differs: %+v vs %+v", name, idx, res, again)
					}
				}
				if inv.events < 100 {
					t.Errorf("%s: only %d events observed", name, inv.events)
				}
			}
		}
	}
}

// TestTunedConfig loads configs/bots/mars-tuned.toml, the hand-picked
// variant docs/mars.md offers for trying the seat syntax: W_p 0.8, P_ob 150, every
// other parameter as published.
func TestTunedConfig(t *testing.T) {
	reg := registry.Default()
	seat, err := reg.ParseSeat("mars@../configs/bots/mars-tuned.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := seat.New()
	if err != nil {
		t.Fatal(err)
	}
	got := p.(*mars.Bot).Params()
	want := mars.PaperParams()
	want.Wp, want.Pob = 0.8, 150
	if got != want {
		t.Errorf("mars-tuned.toml gives %+v, want %+v", got, want)
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
	for _, want := range []string{"goals", "b_o ", "b_d ", "auction 1:", "attack: ", ">= W_p1=0.25 ", ">= W_p=0.7375 ",
		"< W_p=0.7375", " pursues ", "fortify (one-step)", "flow "} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q", want)
		}
	}
	// Every auction win shows the terms of its equation, (4) or (5).
	wins := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  attack: ") && strings.Contains(line, "threshold") {
			t.Errorf("attack line does not name its threshold: %s", line)
		}
		if !strings.Contains(line, "auction ") || !strings.Contains(line, " wins ") {
			continue
		}
		wins++
		off := strings.Contains(line, "b_o ") && strings.Contains(line, "P_ob*p*w*d/i with i=") &&
			strings.Contains(line, " p=") && strings.Contains(line, " w=") && strings.Contains(line, " d=")
		def := strings.Contains(line, "b_d ") && strings.Contains(line, "P_db*v*(d_(m+i)-d_m)/i with i=") &&
			strings.Contains(line, " v=") && strings.Contains(line, " d_m=") && strings.Contains(line, " d_(m+i)=")
		if !off && !def {
			t.Errorf("auction win without the bid's terms: %s", line)
		}
	}
	if wins < 10 {
		t.Errorf("only %d auction wins explained", wins)
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
