package bots_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/baseline"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/internal/fileread"
	"github.com/marslab-risk/marslab/internal/fuzzfile"
	"github.com/marslab-risk/marslab/mars"
	"github.com/marslab-risk/marslab/sim"
)

// tunedFactory is a test bot with MARS-like parameters.
func tunedFactory() bots.Factory {
	return bots.Factory{
		Name: "tuned",
		Doc:  "test bot with parameters",
		Params: []bots.Param{
			{Name: "W_p", Default: 0.7375, Min: 0, Max: 1, Doc: "win-probability threshold"},
			{Name: "P_ob", Default: 170, Min: 0.01, Max: 1000, Log: true, Doc: "offensive bid multiplier"},
			{Name: "G_l", Default: 5, Min: 1, Max: 10, Integer: true, Doc: "goal path length"},
		},
		New: func(bots.Values) (sim.Player, error) { return &sim.BasePlayer{}, nil },
	}
}

// choiceFactory is a test bot with a parameter of named choices.
func choiceFactory() bots.Factory {
	return bots.Factory{
		Name: "choosy",
		Doc:  "test bot with named choices",
		Params: []bots.Param{
			{Name: "goal_value", Default: 0, Min: 0, Max: 2, Integer: true, Choices: []string{"sum", "target", "max"}, Doc: "how goals are valued"},
			{Name: "W_p", Default: 0.5, Min: 0, Max: 1, Doc: "threshold"},
		},
		New: func(bots.Values) (sim.Player, error) { return &sim.BasePlayer{}, nil },
	}
}

func testRegistry(t testing.TB) *bots.Registry {
	t.Helper()
	r := registry.Default()
	require.NoError(t, r.Register(tunedFactory()))
	require.NoError(t, r.Register(choiceFactory()))
	return r
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestRegister(t *testing.T) {
	t.Parallel()
	newP := func(bots.Values) (sim.Player, error) { return nil, nil }
	p := func(ps ...bots.Param) bots.Factory { return bots.Factory{Name: "x", New: newP, Params: ps} }
	tests := []struct {
		name string
		f    bots.Factory
		want string
	}{
		{"dup", bots.Factory{Name: "random", New: newP}, `"random": name already registered`},
		{"dupcase", bots.Factory{Name: "Random", New: newP}, `registry: register "Random": name already registered as "random" (names differ in more than case)`},
		{"dupcase2", bots.Factory{Name: "MARS", New: newP}, `name already registered as "mars"`},
		{"badname", bots.Factory{Name: "a b", New: newP}, `bot "a b": name must match`},
		{"empty", bots.Factory{Name: "", New: newP}, `bot "": name must match`},
		{"nilnew", bots.Factory{Name: "x"}, `bot "x": New is nil`},
		{"badparam", p(bots.Param{Name: "a-b", Max: 1}), `parameter "a-b": name must match`},
		{"dupparam", p(bots.Param{Name: "a", Max: 1}, bots.Param{Name: "a", Max: 1}), `parameter a defined twice`},
		{"range", p(bots.Param{Name: "a", Min: 2, Max: 1, Default: 1}), `parameter a: range [2, 1] is empty`},
		{"default", p(bots.Param{Name: "a", Min: 0, Max: 1, Default: 3}), `parameter a: default 3: must be in [0, 1]`},
		{"intdefault", p(bots.Param{Name: "a", Min: 0, Max: 9, Default: 1.5, Integer: true}), `default 1.5: must be an integer in [0, 9]`},
		{"log0", p(bots.Param{Name: "a", Min: 0, Max: 9, Default: 1, Log: true}), `parameter a: log scale needs Min > 0, have 0`},
		{"choicerange", p(bots.Param{Name: "a", Max: 2, Integer: true, Choices: []string{"x", "y"}}), `parameter a: 2 choices need Min 0, Max 1, Integer`},
		{"choiceint", p(bots.Param{Name: "a", Max: 1, Choices: []string{"x", "y"}}), `2 choices need Min 0, Max 1, Integer`},
		{"choicedup", p(bots.Param{Name: "a", Max: 1, Integer: true, Choices: []string{"x", "x"}}), `bad or duplicate choice "x"`},
		{"choicename", p(bots.Param{Name: "a", Max: 1, Integer: true, Choices: []string{"x", "1y"}}), `bad or duplicate choice "1y"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := registry.Default().Register(tt.f)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// The registry keeps its own copy of the parameters.
	r := bots.NewRegistry()
	f := choiceFactory()
	require.NoError(t, r.Register(f))
	f.Params[0].Choices[0] = "changed"
	got, _ := r.Lookup("choosy")
	assert.Equal(t, "sum", got.Params[0].Choices[0])
}

func TestParseSeat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFile(t, dir, "mars-tuned.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\nG_l = 7\n")
	cfile := writeFile(t, dir, "c.toml", "bot = \"choosy\"\n[params]\ngoal_value = \"max\"\n")
	with := func(kv ...any) bots.Values {
		m := bots.Values{"W_p": 0.7375, "P_ob": 170, "G_l": 5}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(float64)
		}
		return m
	}
	choosy := func(goal, wp float64) bots.Values { return bots.Values{"goal_value": goal, "W_p": wp} }
	tests := []struct {
		spec   string
		ov     bots.Overrides
		label  string
		params bots.Values
	}{
		{"aggressive", nil, "aggressive", bots.Values{}},
		{"  passive ", nil, "passive", bots.Values{}},
		{"random", nil, "random", bots.Values{"stop": 0.2}},
		{"random(stop=0.5)", nil, "random(stop=0.5)", bots.Values{"stop": 0.5}},
		{"random( stop = 0.50 )", nil, "random(stop=0.5)", bots.Values{"stop": 0.5}},
		{"tuned", nil, "tuned", with()},
		{"tuned(W_p=0.8;P_ob=150)", nil, "tuned(W_p=0.8;P_ob=150)", with("W_p", 0.8, "P_ob", 150.0)},
		{"tuned(P_ob=150,W_p=0.8)", nil, "tuned(P_ob=150;W_p=0.8)", with("W_p", 0.8, "P_ob", 150.0)},
		{"tuned(G_l=10;W_p=1)", nil, "tuned(G_l=10;W_p=1)", with("W_p", 1.0, "G_l", 10.0)},
		{"tuned(P_ob=1e2)", nil, "tuned(P_ob=100)", with("P_ob", 100.0)},
		// bots.Overrides come last and join the label.
		{"tuned", bots.Overrides{"tuned": {"W_p": "0.9"}}, "tuned(W_p=0.9)", with("W_p", 0.9)},
		{"tuned(W_p=0.8;G_l=2)", bots.Overrides{"tuned": {"W_p": "0.9"}, "random": {"stop": "1"}},
			"tuned(W_p=0.9;G_l=2)", with("W_p", 0.9, "G_l", 2.0)},
		{"random", bots.Overrides{"tuned": {"W_p": "0.9"}}, "random", bots.Values{"stop": 0.2}},
		// File values sit between defaults and inline values.
		{"tuned@" + file, nil, "tuned@mars-tuned", with("W_p", 0.5, "G_l", 7.0)},
		{"tuned@" + file + "(W_p=0.25)", nil, "tuned@mars-tuned(W_p=0.25)", with("W_p", 0.25, "G_l", 7.0)},
		{"tuned@" + file, bots.Overrides{"tuned": {"G_l": "3"}}, "tuned@mars-tuned(G_l=3)", with("W_p", 0.5, "G_l", 3.0)},
		// Named choices: by name in, by name out; the value is the index.
		{"choosy", nil, "choosy", choosy(0, 0.5)},
		{"choosy(goal_value=target)", nil, "choosy(goal_value=target)", choosy(1, 0.5)},
		{"choosy(W_p=0.1,goal_value=max)", nil, "choosy(W_p=0.1;goal_value=max)", choosy(2, 0.1)},
		{"choosy", bots.Overrides{"choosy": {"goal_value": "target"}}, "choosy(goal_value=target)", choosy(1, 0.5)},
		{"choosy@" + cfile, nil, "choosy@c", choosy(2, 0.5)},
		// Embedded parameter sets.
		{"mars@paper", nil, "mars@paper", mars.Factory().Defaults()},
		{"mars@paperfield(W_p1=0.3)", nil, "mars@paperfield(W_p1=0.3)", func() bots.Values {
			// configs/bots/mars-paperfield.toml, with W_p1 set inline.
			f := mars.Factory()
			v := f.Defaults()
			fromFile, err := bots.ReadParamFile(&f, "../configs/bots/mars-paperfield.toml")
			require.NoError(t, err)
			maps.Copy(v, fromFile)
			v["W_p1"] = 0.3
			return v
		}()},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := r.ParseSeat(tt.spec, tt.ov)
			require.NoError(t, err)
			assert.Equal(t, tt.label, s.Label)
			assert.Equal(t, tt.params, s.Params)
			p, err := s.New()
			require.NoError(t, err)
			assert.NotNil(t, p)
		})
	}
}

func TestParseSeatErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFile(t, dir, "good.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\n")
	esc := writeFile(t, dir, "red\x1b[31m.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\n")
	tests := []struct {
		spec string
		ov   bots.Overrides
		want string
	}{
		{"", nil, `seat "": empty seat`},
		// A file's name labels the seat in tables, logs and the terminal.
		{"tuned@" + esc, nil, fmt.Sprintf("seat %q: parameter file %q: byte %d is a control character: rename the file (its name labels the seat)", "tuned@"+esc, esc, len(dir)+4)},
		{"lux", nil, `seat "lux": unknown bot "lux" (registered: aggressive, angry, bort, boscoe, cautious, choosy, cluster, communist, constrained, evilpixie, mars, mcts, mission, mission-greedy, pacifist, passive, pixie, quo, random, shaft, stinky, tuned, vulture, yakool)`},
		{"passive(x=1)", nil, `seat "passive(x=1)": bot "passive" takes no parameters`},
		{"random()", nil, `empty parameter list ()`},
		{"random(stop)", nil, `parameter "stop": want K=V`},
		{"random(stop=)", nil, `parameter "stop=": want K=V`},
		{"random(stop=0.1;)", nil, `parameter "": want K=V`},
		{"random(stop=x)", nil, `stop = x: "x" is not a number`},
		{"random(stop=1.5)", nil, `seat "random(stop=1.5)": stop = 1.5: must be in [0, 1]`},
		{"random(stop=NaN)", nil, `stop = NaN: must be a finite number in [0, 1]`},
		{"random(go=1)", nil, `bot "random" has no parameter "go" (parameters: stop)`},
		{"tuned(G_l=2.5)", nil, `G_l = 2.5: must be an integer in [1, 10]`},
		{"tuned(G_l=0)", nil, `G_l = 0: must be in [1, 10]`},
		{"tuned(W_p=0.1;W_p=0.2)", nil, `parameter W_p given twice`},
		{"tuned(W_p=(1))", nil, `want name, name(K=V;...), name@set or name@file.toml`},
		{"tuned(W_p=1))", nil, `unbalanced parentheses`},
		{"tuned)", nil, `unbalanced ')'`},
		{"tuned(W_p=1", nil, `want name, name(K=V;...), name@set or name@file.toml`},
		{"tuned W_p=1", nil, `want name, name(K=V;...), name@set or name@file.toml`},
		{"tuned x", nil, `unknown bot "tuned x"`},
		{"tuned@", nil, `empty parameter set or file after '@'`},
		{"@" + good, nil, `missing bot name`},
		{"tuned@" + filepath.Join(dir, "none.toml"), nil, `bot parameter file: open`},
		{"random@" + good, nil, good + `: bot = "tuned": this seat is a "random" bot`},
		{"tuned", bots.Overrides{"tuned": {"X": "1"}}, `parameter override tuned.X: bot "tuned" has no parameter "X"`},
		{"tuned", bots.Overrides{"tuned": {"W_p": "2"}}, `parameter override tuned.W_p = 2: must be in [0, 1]`},
		{"choosy(goal_value=best)", nil, `goal_value = best: "best" is not a choice: must be one of sum, target, max`},
		{"choosy(goal_value=1)", nil, `goal_value = 1: "1" is not a choice: must be one of sum, target, max`},
		{"choosy", bots.Overrides{"choosy": {"goal_value": "x"}}, `parameter override choosy.goal_value = x: "x" is not a choice: must be one of sum, target, max`},
		{"mars@nope", nil, `seat "mars@nope": no embedded parameter set "nope" for bot "mars" (have paper, paperfield, robust, strong, tuned; a file needs a path separator or .toml)`},
		{"random@paper", nil, `no embedded parameter set "paper" for bot "random" (have ;`},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := r.ParseSeat(tt.spec, tt.ov)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestParamFile(t *testing.T) {
	t.Parallel()
	f := tunedFactory()
	c := choiceFactory()
	tests := []struct {
		name string
		f    *bots.Factory
		text string
		want bots.Values
		err  string
	}{
		{"ok", &f, "bot = \"tuned\"\n[params]\nW_p = 0.8 # comment\nG_l = 3\nP_ob = 150\n",
			bots.Values{"W_p": 0.8, "G_l": 3, "P_ob": 150}, ""},
		{"noparams", &f, "bot = \"tuned\"\n", bots.Values{}, ""},
		{"range", &f, "bot = \"tuned\"\n[params]\nW_p = 1.3\n", nil, "mars-tuned.toml: params.W_p = 1.3: must be in [0, 1]"},
		{"integer", &f, "bot = \"tuned\"\n[params]\nG_l = 2.5\n", nil, "mars-tuned.toml: params.G_l = 2.5: must be an integer in [1, 10]"},
		{"unknownparam", &f, "bot = \"tuned\"\n[params]\nW_x = 1\n", nil, `mars-tuned.toml: params.W_x: bot "tuned" has no parameter "W_x" (parameters: W_p, P_ob, G_l)`},
		{"unknownkey", &f, "bot = \"tuned\"\nseed = 3\n", nil, `mars-tuned.toml:2: unknown key "seed" (allowed: bot, params)`},
		{"wrongbot", &f, "bot = \"mars\"\n", nil, `mars-tuned.toml: bot = "mars": this seat is a "tuned" bot`},
		{"nobot", &f, "[params]\nW_p = 0.5\n", nil, `mars-tuned.toml: missing key bot (want bot = "tuned")`},
		{"string", &f, "bot = \"tuned\"\n[params]\nW_p = \"high\"\n", nil, `mars-tuned.toml: params.W_p = "high": not a number`},
		{"syntax", &f, "bot = tuned\n", nil, `mars-tuned.toml: toml:`},
		{"nan", &f, "bot = \"tuned\"\n[params]\nW_p = nan\n", nil, `params.W_p = NaN: must be a finite number in [0, 1]`},
		{"choice", &c, "bot = \"choosy\"\n[params]\ngoal_value = \"target\"\n", bots.Values{"goal_value": 1}, ""},
		{"choicebad", &c, "bot = \"choosy\"\n[params]\ngoal_value = \"best\"\n", nil, `mars-tuned.toml: params.goal_value: "best" is not a choice: must be one of sum, target, max`},
		{"choicenumber", &c, "bot = \"choosy\"\n[params]\ngoal_value = 1\n", nil, `mars-tuned.toml: params.goal_value = 1: want a choice name in quotes, one of sum, target, max`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "mars-tuned.toml", tt.text)
			got, err := bots.ReadParamFile(tt.f, path)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestEmbeddedSets checks that mars@paper and mars@paperfield are read from the
// embedded files, from a directory holding no configs, and match the files
// in configs/bots.
func TestEmbeddedSets(t *testing.T) {
	assert.Equal(t, []string{"paper", "paperfield", "robust", "strong", "tuned"}, bots.EmbeddedSets("mars"))
	assert.Empty(t, bots.EmbeddedSets("random"))
	f := mars.Factory()
	fromFile, err := bots.ReadParamFile(&f, "../configs/bots/mars-paperfield.toml")
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	r := registry.Default()
	paper, err := r.ParseSeat("mars@paper", nil)
	require.NoError(t, err)
	assert.Equal(t, f.Defaults(), paper.Params, "mars@paper holds the paper's values")
	tuned, err := r.ParseSeat("mars@paperfield", nil)
	require.NoError(t, err)
	require.NotEmpty(t, fromFile)
	for k, v := range fromFile {
		assert.Equal(t, v, tuned.Params[k], k)
	}
	assert.NotEqual(t, paper.Params, tuned.Params, "mars@paperfield is not the paper's set")
	// A spec with a separator or .toml is a file, relative to the directory.
	_, err = r.ParseSeat("mars@paper.toml", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bot parameter file: open paper.toml")
}

func labels(seats []bots.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = s.Label
	}
	return out
}

func TestParseSeats(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	seats, err := r.ParseSeats("aggressive, tuned(W_p=0.8,P_ob=150),random(stop=0.1) ,passive,aggressive", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"aggressive", "tuned(W_p=0.8;P_ob=150)", "random(stop=0.1)", "passive", "aggressive"}, labels(seats))

	bad := []struct {
		list string
		ov   bots.Overrides
		want string
	}{
		{"aggressive,,passive", nil, `seats "aggressive,,passive": seat 2 is empty`},
		{"aggressive,", nil, `seat 2 is empty`},
		{"tuned(W_p=1,passive", nil, `unbalanced '('`},
		{"tuned),passive", nil, `unbalanced ')'`},
		{"aggressive,lux", nil, `unknown bot "lux"`},
		// bots.Overrides are checked even for bots without a seat.
		{"passive", bots.Overrides{"tuned": {"W_q": "1"}}, `parameter override tuned.W_q: bot "tuned" has no parameter "W_q"`},
		{"passive", bots.Overrides{"lux": {"x": "1"}}, `parameter override lux.*: unknown bot "lux"`},
		{"passive", bots.Overrides{"random": {"stop": "-1"}}, `parameter override random.stop = -1: must be in [0, 1]`},
		{"passive", bots.Overrides{"choosy": {"goal_value": "none"}}, `parameter override choosy.goal_value = none: "none" is not a choice`},
	}
	for _, tt := range bad {
		_, err := r.ParseSeats(tt.list, tt.ov)
		require.Error(t, err, tt.list)
		assert.Contains(t, err.Error(), tt.want, tt.list)
	}
}

// TestUniqueLabels checks that seats of different configurations never
// share a label (they would be pooled into one result row), and that seats
// of one configuration do.
func TestUniqueLabels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "y"), 0o755))
	xa := writeFile(t, dir, "x/a.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\n")
	ya := writeFile(t, dir, "y/a.toml", "bot = \"tuned\"\n[params]\nW_p = 0.6\n")
	za := writeFile(t, dir, "a.toml", "bot = \"tuned\"\n[params]\nW_p = 0.5\n")
	ta := writeFile(t, dir, "a.toml.toml", "bot = \"tuned\"\n[params]\nW_p = 0.7\n")
	tests := []struct {
		name  string
		specs []string
		want  []string
	}{
		{"same base name", []string{"tuned@" + xa, "tuned@" + ya, "aggressive"},
			[]string{"tuned@" + xa, "tuned@" + ya, "aggressive"}},
		{"same file twice pools", []string{"tuned@" + xa, "tuned@" + xa, "tuned@" + ya},
			[]string{"tuned@" + xa, "tuned@" + xa, "tuned@" + ya}},
		{"same values pool", []string{"tuned@" + xa, "tuned@" + za},
			[]string{"tuned@a", "tuned@a"}},
		{"equal configurations share the first label", []string{"random", "random(stop=0.2)", "random(stop=0.3)"},
			[]string{"random", "random", "random(stop=0.3)"}},
		{"inline on colliding files", []string{"tuned@" + xa + "(G_l=2)", "tuned@" + ya + "(G_l=2)"},
			[]string{"tuned@" + xa + "(G_l=2)", "tuned@" + ya + "(G_l=2)"}},
		{"path labels collide too", []string{"tuned@" + xa, "tuned@" + ya, "tuned@" + ta, "tuned@" + filepath.Join(dir, "y", ".", "a.toml") + "(G_l=3)"},
			nil},
		{"simple specs keep their labels", []string{"aggressive", "random", "passive", "aggressive", "pacifist"},
			[]string{"aggressive", "random", "passive", "aggressive", "pacifist"}},
	}
	r := testRegistry(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seats, err := r.ParseSeats(strings.Join(tt.specs, ","), nil)
			require.NoError(t, err)
			if tt.want != nil {
				assert.Equal(t, tt.want, labels(seats))
			}
			for i := range seats {
				for j := range seats {
					same := bots.SameConfig(seats[i], seats[j])
					assert.Equal(t, same, seats[i].Label == seats[j].Label,
						"seats %d (%s) and %d (%s): same configuration %v", i, seats[i].Label, j, seats[j].Label, same)
				}
			}
		})
	}
}

func TestUniqueLabelsFallback(t *testing.T) {
	t.Parallel()
	// Path labels that still clash get the number of the first seat.
	f := tunedFactory()
	seats := []bots.Seat{
		{Factory: &f, Params: bots.Values{"W_p": 0.1}, Label: "tuned@a"},
		{Factory: &f, Params: bots.Values{"W_p": 0.2}, Label: "tuned@a"},
		{Factory: &f, Params: bots.Values{"W_p": 0.1}, Label: "tuned@b"},
	}
	bots.UniqueLabels(seats, []string{"tuned@p", "tuned@p", "tuned@q"})
	assert.Equal(t, []string{"tuned@p#1", "tuned@p#2", "tuned@p#1"}, labels(seats))
}

func TestParseOverrides(t *testing.T) {
	t.Parallel()
	got, err := bots.ParseOverrides([]string{"mars.W_p=0.8", "mars.P_ob = 150", "random.stop=0.5", "mars.W_p=0.9", "mars.goal_value=target"})
	require.NoError(t, err)
	assert.Equal(t, bots.Overrides{"mars": {"W_p": "0.9", "P_ob": "150", "goal_value": "target"}, "random": {"stop": "0.5"}}, got)

	empty, err := bots.ParseOverrides(nil)
	require.NoError(t, err)
	assert.Empty(t, empty)

	for _, bad := range []string{"mars", "W_p=0.8", "mars.=1", ".W_p=1", "mars.W_p=", "mars.W_p=1x", "mars.W_p=-Inf", "mars.W-p=1", "ma rs.W_p=1", "mars.W_p=a b"} {
		_, err := bots.ParseOverrides([]string{bad})
		require.Error(t, err, bad)
		assert.ErrorIs(t, err, bots.ErrOverride, bad)
	}
}

func TestSeatNew(t *testing.T) {
	t.Parallel()
	r := registry.Default()
	s, err := r.ParseSeat("aggressive", nil)
	require.NoError(t, err)
	p1, err := s.New()
	require.NoError(t, err)
	p2, err := s.New()
	require.NoError(t, err)
	assert.NotSame(t, p1, p2, "two New calls returned the same player")
	assert.Equal(t, baseline.Aggressive, p1.(*baseline.Sciberras).Strategy)

	s, err = r.ParseSeat("random(stop=0.75)", nil)
	require.NoError(t, err)
	p, err := s.New()
	require.NoError(t, err)
	assert.Equal(t, 0.75, p.(*baseline.Random).Stop)

	// The factory's New cannot alter the seat's parameters.
	s.Factory = &bots.Factory{Name: "x", New: func(p bots.Values) (sim.Player, error) { p["stop"] = 9; return nil, nil }}
	_, _ = s.New()
	assert.Equal(t, 0.75, s.Params["stop"])

	_, err = bots.Seat{Label: "empty"}.New()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `seat "empty": no factory`)

	f, _ := r.Lookup("random")
	_, err = f.New(bots.Values{"stop": 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "random: stop = 2: must be in [0, 1]")
}

func FuzzParseSeat(f *testing.F) {
	for _, s := range []string{"aggressive", "random(stop=0.5)", "tuned(W_p=0.8;P_ob=150)", "tuned(G_l=2,W_p=1)", "x@y(z)", "((",
		"random(stop=1e-300)", "choosy(goal_value=target)", "mars@paper(W_p=0.5)", "mars@paperfield"} {
		f.Add(s)
	}
	r := testRegistry(f)
	f.Fuzz(func(t *testing.T, spec string) {
		if _, path, _, err := bots.SplitSpec(spec); err == nil && bots.IsFile(path) {
			return // no file system access while fuzzing
		}
		s, err := r.ParseSeat(spec, nil)
		if err != nil {
			return
		}
		for _, p := range s.Factory.Params {
			v, ok := s.Params[p.Name]
			require.True(t, ok, "%q: parameter %s missing", spec, p.Name)
			require.NoError(t, p.Check(v), "%q: parameter %s = %v", spec, p.Name, v)
		}
		// The label is itself a seat spec giving the same seat.
		s2, err := r.ParseSeat(s.Label, nil)
		require.NoError(t, err, "%q: label %q does not parse", spec, s.Label)
		require.Equal(t, s.Label, s2.Label, spec)
		require.Equal(t, s.Params, s2.Params, spec)
	})
}

// requireKnownValues requires that every value of vals belongs to a
// parameter of fac and lies within its bounds.
func requireKnownValues(t *testing.T, fac *bots.Factory, vals bots.Values) {
	t.Helper()
	for k, v := range vals {
		p, ok := fac.Param(k)
		require.True(t, ok, "accepted unknown %s", k)
		require.NoError(t, p.Check(v), "accepted %s = %v", k, v)
	}
}

func FuzzParseParamFile(f *testing.F) {
	f.Add("bot = \"tuned\"\n[params]\nW_p = 0.8\nG_l = 3\n")
	f.Add("bot = \"tuned\"\n[params]\nW_p = 1.3\n")
	f.Add("bot = 1\n")
	f.Add("bot = \"choosy\"\n[params]\ngoal_value = \"max\"\n")
	tuned, choosy := tunedFactory(), choiceFactory()
	f.Fuzz(func(t *testing.T, text string) {
		for _, fac := range []*bots.Factory{&tuned, &choosy} {
			vals, err := bots.ParseParamFile(fac, "fuzz.toml", []byte(text))
			if err != nil {
				require.True(t, strings.HasPrefix(err.Error(), "fuzz.toml:"), "error %q does not name the file", err)
				continue
			}
			requireKnownValues(t, fac, vals)
		}
	})
}

// FuzzReadParamFile: a parameter file of any bytes, read from its file
// (sparse, one byte over the 1 MiB cap, when over): never a panic, over the
// cap refused unread, every error naming the file, accepted values within
// their parameters' bounds.
func FuzzReadParamFile(f *testing.F) {
	f.Add([]byte("bot = \"tuned\"\n[params]\nW_p = 0.8\n"), false)
	f.Add([]byte("bot = \"tuned\"\n[params]\nW_p = 0.8\n"), true)
	f.Add([]byte("\x00\xff"), false)
	tuned := tunedFactory()
	f.Fuzz(func(t *testing.T, data []byte, over bool) {
		path := fuzzfile.Write(t, t.TempDir(), "p.toml", data, over, fileread.Params)
		vals, err := bots.ReadParamFile(&tuned, path)
		if fuzzfile.Refused(t, err, over, path) {
			return
		}
		requireKnownValues(t, &tuned, vals)
	})
}

// TestReplayPlayers: a logged seat list becomes one player per seat with
// the logged values; an unknown bot or value is an error naming the seat.
func TestReplayPlayers(t *testing.T) {
	t.Parallel()
	reg := registry.Default()
	ps, err := reg.ReplayPlayers(sim.LogHeader{Seats: []sim.LogSeat{
		{Label: "a", Bot: "aggressive"},
		{Label: "m", Bot: "mars", Params: map[string]float64{"W_p": 0.6}},
	}})
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.NotNil(t, ps[0])
	assert.NotNil(t, ps[1])

	tests := []struct {
		name string
		seat sim.LogSeat
		err  string
	}{
		{"unknown bot", sim.LogSeat{Label: "x", Bot: "nosuchbot"}, `seat 1: unknown bot "nosuchbot"`},
		{"bad value", sim.LogSeat{Label: "m", Bot: "mars", Params: map[string]float64{"W_p": 7}}, "seat 1 (m): "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reg.ReplayPlayers(sim.LogHeader{Seats: []sim.LogSeat{{Label: "a", Bot: "aggressive"}, tt.seat}})
			assert.ErrorContains(t, err, tt.err)
		})
	}
}
