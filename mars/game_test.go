package mars_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/race"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

func TestPaperParamsMatchConfig(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	f, ok := reg.Lookup("mars")
	require.True(t, ok, "mars is not registered")
	vals, err := bots.ReadParamFile(f, "../configs/bots/mars-paper.toml")
	require.NoError(t, err)
	specs := mars.ParamSpecs()
	require.Len(t, vals, len(specs), "mars-paper.toml sets every parameter")
	paper := mars.PaperParams()
	for _, s := range specs {
		got, ok := paper.Get(s.Name)
		require.True(t, ok, s.Name)
		assert.Equal(t, got, vals[s.Name], "%s: toml against PaperParams", s.Name)
		assert.Equal(t, got, s.Default, "%s: spec default against PaperParams", s.Name)
	}
	want := []float64{3.5, 170, 0.7375, 0.25, 5, 70, 1.2, -0.3, 0.05, -0.03, 0.5, 20, 4, 1, 0, 0, 1, 1, 0, 0}
	for i, s := range specs {
		assert.Equal(t, want[i], s.Default, "%s default: Tables 1-2", s.Name)
	}
}

func TestParamsSet(t *testing.T) {
	t.Parallel()
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
		t.Run(fmt.Sprintf("%s=%v", tc.name, tc.v), func(t *testing.T) {
			p := mars.PaperParams()
			err := p.Set(tc.name, tc.v)
			if tc.wantErr == "" {
				require.NoError(t, err)
				got, ok := p.Get(tc.name)
				assert.True(t, ok)
				assert.Equal(t, tc.v, got, "Get after Set")
				return
			}
			require.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, mars.PaperParams(), p, "a failed Set changes nothing")
		})
	}
	bad := mars.PaperParams()
	bad.Wp = 2
	_, err := mars.New(bad)
	assert.Error(t, err, "New accepts W_p = 2")
}

func FuzzParamsSet(f *testing.F) {
	f.Add("W_p", 0.5)
	f.Add("G_l", 11.0)
	f.Add("C_oc", -1e9)
	f.Fuzz(func(t *testing.T, name string, v float64) {
		p := mars.PaperParams()
		if err := p.Set(name, v); err != nil {
			require.Equal(t, mars.PaperParams(), p, "failed Set(%q, %v) changed the parameters", name, v)
			return
		}
		got, ok := p.Get(name)
		require.True(t, ok, "Set(%q, %v) ok but Get fails", name, v)
		require.Equal(t, v, got, "Set(%q, %v) then Get", name, v)
		require.NoError(t, p.Validate(), "Set(%q, %v) ok but Validate fails", name, v)
	})
}

func TestRegistrySeat(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	seat, err := reg.ParseSeat("mars(W_p=0.8;G_l=3)", nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	require.IsType(t, &mars.Bot{}, p)
	b := p.(*mars.Bot)
	assert.Equal(t, 0.8, b.Params().Wp)
	assert.Equal(t, 3, b.Params().Gl)
	assert.Equal(t, 170.0, b.Params().Pob)
	assert.Implements(t, (*bots.Explainer)(nil), p)
	_, err = reg.ParseSeat("mars(W_p=1.5)", nil)
	assert.Error(t, err, "W_p = 1.5 accepted")
}

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

// errorf reports the first broken invariant of the games watched.
func (c *invariants) errorf(format string, args ...any) {
	if !c.failed {
		assert.Fail(c.t, c.name+": "+fmt.Sprintf(format, args...))
	}
	c.failed = true
}

// TestGames plays MARS under every embedded rule set with 2 to 6 players,
// on the classic map and on a small custom map (testdata/small.toml: a
// board unlike the classic one, with a continent without borders to two
// others, a hub territory and a one-territory bridge; every rule set but
// missions, whose cards name classic continents): no faults, the engine's
// invariants hold after every event, and the same seed gives the same
// result.
func TestGames(t *testing.T) {
	t.Parallel()
	classic, err := sim.LoadMap("classic")
	require.NoError(t, err)
	small, err := sim.LoadMap("testdata/small.toml")
	require.NoError(t, err)
	reg := registry.Default()
	others := []string{"aggressive", "random", "pacifist", "passive", "aggressive"}
	for _, m := range []*sim.Map{classic, small} {
		for _, rname := range []string{"mars2006", "mars2006-escalating", "classic", "fixedcards", "missions"} {
			if rname == "missions" && m != classic {
				continue
			}
			r, err := sim.LoadRules(rname)
			require.NoError(t, err)
			step := 1
			if race.Enabled {
				step = 2 // 2, 4 and 6 players
			}
			for n := 2; n <= 6; n += step {
				ps := []sim.Player{}
				for i := 0; i < n; i++ {
					spec := "mars"
					if i%2 == 1 {
						spec = others[i-1]
					}
					seat, err := reg.ParseSeat(spec, nil)
					require.NoError(t, err)
					p, err := seat.New()
					require.NoError(t, err)
					ps = append(ps, p)
				}
				g, err := sim.NewGame(m, r, n)
				require.NoError(t, err)
				name := fmt.Sprintf("%s map, %s rules, %d players", m.Name, rname, n)
				inv := &invariants{t: t, g: g, name: name}
				g.Observe(inv)
				// Under the race detector (one goroutine: nothing to detect, the
				// games ten times slower) one game, not replayed.
				games := uint64(2)
				if race.Enabled {
					games = 1
				}
				for idx := uint64(0); idx < games; idx++ {
					res, err := g.Play(ps, 7, idx)
					require.NoError(t, err)
					assert.Equal(t, make([]int, n), res.Faults, "%s, game %d: faults per seat", name, idx)
					if race.Enabled {
						continue
					}
					again, err := g.Play(ps, 7, idx)
					require.NoError(t, err)
					assert.Equal(t, res, again, "%s, game %d: replay", name, idx)
				}
				assert.GreaterOrEqual(t, inv.events, 100, "%s: events observed", name)
			}
		}
	}
}

// TestParamFile loads a parameter file holding every numeric parameter
// and checks each lands in its field of Params (the named options keep
// the paper's readings).
func TestParamFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "set.toml")
	require.NoError(t, os.WriteFile(path, []byte(`bot = "mars"
[params]
P_db = 0.95
P_ob = 105.5
W_p = 0.58
W_p1 = 0.206
G_l = 6
C_sv = 83.8
C_fn = 1.78
C_en = -0.757
C_fnu = 0.166
C_enu = -0.165
C_cb = 1.45
C_oc = 36.6
C_eoc = 9.15
`), 0o644))
	seat, err := registry.Default().ParseSeat("mars@"+path, nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	require.IsType(t, &mars.Bot{}, p)
	want := mars.PaperParams()
	want.Pdb, want.Pob, want.Wp, want.Wp1, want.Gl = 0.95, 105.5, 0.58, 0.206, 6
	want.Csv, want.Cfn, want.Cen, want.Cfnu, want.Cenu = 83.8, 1.78, -0.757, 0.166, -0.165
	want.Ccb, want.Coc, want.Ceoc = 1.45, 36.6, 9.15
	assert.Equal(t, want, p.(*mars.Bot).Params(), path)
}

func TestExplain(t *testing.T) {
	t.Parallel()
	g := newGame(t)
	// The readings closest to the paper's words, under which every kind of
	// line below occurs in this game.
	ps := baseline(t, "mars@paper("+wordReadings+")")
	var buf bytes.Buffer
	ps[0].(*mars.Bot).SetExplain(&buf)
	res, err := g.Play(ps, 1, 0)
	require.NoError(t, err)
	out := buf.String()
	for _, want := range []string{"goals", "b_o ", "b_d ", "auction 1:", "attack: ", ">= W_p1=0.25 ", ">= W_p=0.7375 ",
		"< W_p=0.7375", "    bids of ", " more\n", " pursues ", "fortify (one-step)", "flow "} {
		assert.Contains(t, out, want, "explanation")
	}
	// Every auction win shows the terms of its equation, (4) or (5).
	wins := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  attack: ") {
			assert.NotContains(t, line, "threshold", "an attack line names its threshold")
		}
		if !strings.Contains(line, "auction ") || !strings.Contains(line, " wins ") {
			continue
		}
		wins++
		off := strings.Contains(line, "b_o ") && strings.Contains(line, "P_ob*p*w*d/i with i=") &&
			strings.Contains(line, " p=") && strings.Contains(line, " w=") && strings.Contains(line, " d=")
		def := strings.Contains(line, "b_d ") && strings.Contains(line, "P_db*v*(d_(m+i)-d_m)/i with i=") &&
			strings.Contains(line, " v=") && strings.Contains(line, " d_m=") && strings.Contains(line, " d_(m+i)=")
		assert.True(t, off || def, "auction win without the bid's terms: %s", line)
	}
	assert.GreaterOrEqual(t, wins, 10, "auction wins explained")
	// Explaining changes no decision.
	ps[0].(*mars.Bot).SetExplain(nil)
	quiet, err := g.Play(ps, 1, 0)
	require.NoError(t, err)
	assert.Equal(t, res, quiet, "the explained game and the quiet one")
}

// BenchmarkMarsTurn measures MARS's decisions alone: the same game (seed
// 1, index 3) is replayed and only the time inside MARS's methods (Start
// excluded; the five other bots and the engine are not timed) is reported,
// per MARS turn (ms/mars-turn) and per game (mars-ms/op). The framework's
// ns/op is the whole game's.
func BenchmarkMarsTurn(b *testing.B) {
	g := newGame(b)
	ps := baseline(b, "mars@paper")
	c := &innerTimer{Player: ps[0]}
	ps[0] = c
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		_, err := g.Play(ps, 1, 3)
		require.NoError(b, err)
		games++
	}
	b.ReportMetric(float64(c.turns)/float64(games), "mars-turns/op")
	b.ReportMetric(c.inside.Seconds()*1e3/float64(c.turns), "ms/mars-turn")
	b.ReportMetric(c.inside.Seconds()*1e3/float64(games), "mars-ms/op")
}

// innerTimer wraps a player and adds up the wall time spent inside its
// decision methods (Start excluded) and counts its turns (one Place call
// in the place phase per turn).
type innerTimer struct {
	sim.Player
	inside time.Duration
	turns  int
}

func (c *innerTimer) PlaceInitial(s *sim.State) int {
	t0 := time.Now()
	v := c.Player.PlaceInitial(s)
	c.inside += time.Since(t0)
	return v
}

func (c *innerTimer) Trade(s *sim.State, forced bool) ([3]int, bool) {
	t0 := time.Now()
	set, ok := c.Player.Trade(s, forced)
	c.inside += time.Since(t0)
	return set, ok
}

func (c *innerTimer) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	if s.Phase() == sim.PhasePlace {
		c.turns++
	}
	t0 := time.Now()
	buf = c.Player.Place(s, armies, buf)
	c.inside += time.Since(t0)
	return buf
}

func (c *innerTimer) Attack(s *sim.State) (sim.AttackOrder, bool) {
	t0 := time.Now()
	o, ok := c.Player.Attack(s)
	c.inside += time.Since(t0)
	return o, ok
}

func (c *innerTimer) Occupy(s *sim.State, from, to, lo, hi int) int {
	t0 := time.Now()
	k := c.Player.Occupy(s, from, to, lo, hi)
	c.inside += time.Since(t0)
	return k
}

func (c *innerTimer) Fortify(s *sim.State, buf []sim.Move) []sim.Move {
	t0 := time.Now()
	buf = c.Player.Fortify(s, buf)
	c.inside += time.Since(t0)
	return buf
}

// TestInnerTimer checks that the benchmark's timer passes every decision
// through (the timed game is the untimed one), counts MARS's turns and
// times something.
func TestInnerTimer(t *testing.T) {
	t.Parallel()
	g := newGame(t)
	ps := baseline(t, "mars@paper")
	want, err := g.Play(ps, 1, 3)
	require.NoError(t, err)
	c := &innerTimer{Player: ps[0]}
	ps[0] = c
	got, err := g.Play(ps, 1, 3)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the timed game")
	assert.Positive(t, c.turns, "MARS turns")
	assert.Positive(t, c.inside, "time inside MARS")
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

// MARS asked for one decision at a position that a test builds: the
// attack it orders with 12 armies in Alaska, next to Kamchatka's 3.
func ExampleBot_Attack() {
	m, _ := sim.LoadMap("classic")
	r, _ := sim.LoadRules("classic")
	pos, err := sim.LoadPosition("testdata/cards.toml", m, r)
	if err != nil {
		fmt.Println(err)
		return
	}
	alaska, _ := m.TerritoryID("Alaska")
	pos.Armies[alaska] = 12
	pos.Phase = sim.PhaseAttack
	s, err := sim.NewStateAt(m, r, pos, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := mars.PaperParams()
	p.GoalValue, p.GoalPaths, p.HoldUnit, p.Attack = mars.GoalValueSum, mars.GoalPathsShortest, mars.HoldFraction, mars.AttackAny
	bot, _ := mars.New(p)
	bot.Start(s, 0, rand.New(rand.NewPCG(1, 2)))
	o, ok := bot.Attack(s)
	fmt.Println(ok, m.Territories[o.From].Name, "->", m.Territories[o.To].Name, s.CheckAttack(0, o))
	// Output:
	// true Alaska -> Kamchatka <nil>
}

// TestGameStats checks the bot's own counts over a game: every army the
// bot placed was won by an offensive, a defensive or a zero-army bid or
// left unbid, the counts restart with each game, and the names come in
// their documented order.
func TestGameStats(t *testing.T) {
	t.Parallel()
	for _, hu := range []mars.HoldUnit{mars.HoldFraction, mars.HoldPercent} {
		p := mars.PaperParams()
		p.HoldUnit = hu
		b, err := mars.New(p)
		require.NoError(t, err)
		placed := playCounting(t, b, 3)
		st := b.GameStats(nil)
		names := make([]string, len(st))
		c := map[string]int64{}
		for i, s := range st {
			names[i] = s.Name
			c[s.Name] = s.Count
			assert.GreaterOrEqual(t, s.Count, int64(0), s.Name)
		}
		assert.Equal(t, []string{"place_offensive", "place_defensive", "place_zero", "armies_offensive", "armies_defensive", "armies_unbid"}, names)
		assert.Equal(t, placed, c["armies_offensive"]+c["armies_defensive"]+c["armies_unbid"], "hold_unit %d: every placed army counted once", hu)
		assert.Positive(t, c["place_offensive"])
		if hu == mars.HoldPercent {
			assert.Positive(t, c["place_defensive"], "percent gives defence auctions")
		}
		// A second game counts afresh.
		placed2 := playCounting(t, b, 4)
		st2 := b.GameStats(st[:0])
		var sum int64
		for _, s := range st2 {
			if strings.HasPrefix(s.Name, "armies_") {
				sum += s.Count
			}
		}
		assert.Equal(t, placed2, sum)
	}
}

// placeCounter counts the armies the bot it wraps places in a game.
type placeCounter struct {
	*mars.Bot
	armies int64
}

func (c *placeCounter) PlaceInitial(s *sim.State) int {
	c.armies++
	return c.Bot.PlaceInitial(s)
}

func (c *placeCounter) Place(s *sim.State, armies int, buf []sim.Placement) []sim.Placement {
	c.armies += int64(armies)
	return c.Bot.Place(s, armies, buf)
}

// playCounting plays game index of seed 1 with b in seat 0 against five
// baseline bots and returns the armies b placed.
func playCounting(t *testing.T, b *mars.Bot, index uint64) int64 {
	t.Helper()
	ps := baseline(t, "mars@paper")
	c := &placeCounter{Bot: b}
	ps[0] = c
	_, err := newGame(t).Play(ps, 1, index)
	require.NoError(t, err)
	return c.armies
}

// TestShippedMatchNotebooks checks that each calibration notebook's result
// is shipped as its embedded parameter set exactly when the notebook's
// validation shows it better than mars@paper (the verdict the notebook writes
// into its tuned.toml), and that a shipped set holds the notebook's values.
func TestShippedMatchNotebooks(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	params := func(path string) mars.Params {
		seat, err := reg.ParseSeat("mars@"+path, nil)
		require.NoError(t, err, path)
		p, err := seat.New()
		require.NoError(t, err, path)
		return p.(*mars.Bot).Params()
	}
	for _, tc := range []struct{ notebook, set string }{
		{"calibration", "tuned"},
		{"calibration-paper", "paperfield"},
		{"calibration-robust", "robust"},
		{"calibration-strong", "strong"},
	} {
		result := "../notebooks/" + tc.notebook + "/tuned.toml"
		data, err := os.ReadFile(result)
		require.NoError(t, err)
		better := strings.Contains(string(data), "shown better") && !strings.Contains(string(data), "NOT shown better")
		shipped := "../configs/bots/mars-" + tc.set + ".toml"
		if !better {
			assert.NoFileExists(t, shipped, "%s's result is not shown better, so it is not shipped", tc.notebook)
			_, err := reg.ParseSeat("mars@"+tc.set, nil)
			assert.Error(t, err, "mars@%s", tc.set)
			continue
		}
		assert.Equal(t, params(result), params(shipped), shipped)
		assert.Equal(t, params(shipped), params(tc.set), "the embedded set mars@%s", tc.set)
	}
}

// wordReadings are the named options that follow the paper's words most
// literally, as a seat's inline values.
const wordReadings = "goal_value=sum;goal_paths=shortest;hold_unit=fraction;attack_targets=any"
