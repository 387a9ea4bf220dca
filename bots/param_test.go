package bots

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/sim"
)

var (
	prob   = Param{Name: "W_p", Default: 0.5, Min: 0, Max: 1}
	count  = Param{Name: "G_l", Default: 5, Min: 1, Max: 10, Integer: true}
	bid    = Param{Name: "P_ob", Default: 170, Min: 0.01, Max: 10000, Log: true}
	choice = Param{Name: "goal_value", Default: 1, Max: 2, Integer: true, Choices: []string{"sum", "target", "max"}}
)

func TestParamCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    Param
		v    float64
		want string // "" for allowed
	}{
		{prob, 0, ""}, {prob, 1, ""}, {prob, 0.25, ""},
		{prob, -0.1, "must be in [0, 1]"},
		{prob, math.NaN(), "must be a finite number in [0, 1]"},
		{prob, math.Inf(1), "must be a finite number in [0, 1]"},
		{count, 3, ""}, {count, 3.5, "must be an integer in [1, 10]"}, {count, 11, "must be in [1, 10]"},
		{bid, 0.01, ""}, {bid, 0, "must be in [0.01, 10000]"},
		{choice, 0, ""}, {choice, 2, ""},
		{choice, 3, "choice index 3: must be one of sum, target, max"},
		{choice, 0.5, "choice index 0.5: must be one of sum, target, max"},
		{choice, -1, "must be one of"}, {choice, math.NaN(), "must be one of"},
	}
	for _, tt := range tests {
		err := tt.p.Check(tt.v)
		if tt.want == "" {
			assert.NoError(t, err, "%s = %v", tt.p.Name, tt.v)
		} else {
			assert.ErrorContains(t, err, tt.want, "%s = %v", tt.p.Name, tt.v)
		}
	}
}

func TestParamParseFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    Param
		s    string
		v    float64
		text string // Format(v); "" for a parse error
		err  string
	}{
		{prob, "0.50", 0.5, "0.5", ""},
		{prob, " 1e-1 ", 0.1, "0.1", ""},
		{prob, "x", 0, "", `"x" is not a number`},
		{prob, "2", 0, "", "must be in [0, 1]"},
		{count, "7", 7, "7", ""},
		{bid, "150", 150, "150", ""},
		{choice, "target", 1, "target", ""},
		{choice, " max", 2, "max", ""},
		{choice, "1", 0, "", `"1" is not a choice: must be one of sum, target, max`},
		{choice, "Sum", 0, "", `"Sum" is not a choice`},
	}
	for _, tt := range tests {
		v, err := tt.p.Parse(tt.s)
		if tt.err != "" {
			require.Error(t, err, tt.s)
			assert.Contains(t, err.Error(), tt.err)
			continue
		}
		require.NoError(t, err, tt.s)
		assert.Equal(t, tt.v, v, tt.s)
		assert.Equal(t, tt.text, tt.p.Format(v), tt.s)
	}
	// Out-of-range choice indices are shown as numbers.
	assert.Equal(t, "7", choice.Format(7))
}

func TestParamValidate(t *testing.T) {
	t.Parallel()
	for _, p := range []Param{prob, count, bid, choice, {Name: "wide", Min: -math.MaxFloat64, Max: 0}} {
		assert.NoError(t, p.Validate(), p.Name)
	}
	tests := []struct {
		p    Param
		want string
	}{
		{Param{Name: "1x", Max: 1}, `parameter "1x": name must match`},
		{Param{Name: "a", Min: 1, Max: 0}, "parameter a: range [1, 0] is empty or unbounded"},
		{Param{Name: "a", Min: 0, Max: math.Inf(1)}, "is empty or unbounded"},
		{Param{Name: "a", Min: math.NaN(), Max: 1}, "is empty or unbounded"},
		{Param{Name: "a", Min: -1.7e308, Max: 1.7e308}, "parameter a: range [-1.7e+308, 1.7e+308]: its width Max-Min overflows a float64"},
		{Param{Name: "a", Min: 0, Max: 1, Default: 2}, "parameter a: default 2: must be in [0, 1]"},
		{Param{Name: "a", Min: 0, Max: 1, Log: true}, "parameter a: log scale needs Min > 0, have 0"},
		{Param{Name: "a", Max: 1, Choices: []string{"x", "y"}}, "parameter a: 2 choices need Min 0, Max 1, Integer and no log scale"},
		{Param{Name: "a", Max: 1, Integer: true, Choices: []string{"x", "x"}}, `parameter a: bad or duplicate choice "x"`},
		{Param{Name: "a", Max: 1, Integer: true, Choices: []string{"x", "a b"}}, `bad or duplicate choice "a b"`},
		{Param{Name: "a", Max: 1, Integer: true, Default: 1.5, Choices: []string{"x", "y"}}, "default 1.5: choice index 1.5"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		require.Error(t, err, tt.want)
		assert.Contains(t, err.Error(), tt.want)
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	v := Values{"a": 1, "b": 2}
	c := v.Clone()
	assert.True(t, v.equal(c))
	c["a"] = 3
	assert.Equal(t, 1.0, v["a"], "Clone copies")
	assert.False(t, v.equal(c))
	assert.False(t, v.equal(Values{"a": 1}))
	assert.False(t, v.equal(Values{"a": 1, "c": 2}))
	assert.True(t, Values{}.equal(nil))
}

func TestNames(t *testing.T) {
	t.Parallel()
	for s, want := range map[string][2]bool{
		"mars": {true, true}, "W_p1": {true, true}, "_x": {true, true}, "a-b": {true, false},
		"": {false, false}, "1a": {false, false}, "a b": {false, false}, "a.b": {false, false}, "-a": {false, false},
	} {
		assert.Equal(t, want[0], ValidName(s), s)
		assert.Equal(t, want[1], validParamName(s), s)
	}
	for _, tt := range []struct {
		s  string
		v  float64
		ok bool
	}{{"1.5", 1.5, true}, {" -2 ", -2, true}, {"1e3", 1000, true}, {"NaN", 0, false}, {"-Inf", 0, false}, {"x", 0, false}} {
		v, err := parseNum(tt.s)
		assert.Equal(t, tt.ok, err == nil, tt.s)
		assert.Equal(t, tt.v, v, tt.s)
	}
	assert.Equal(t, "1e-06", FormatNum(1e-6))
	assert.Equal(t, "150", FormatNum(150))
}

func TestFactory(t *testing.T) {
	t.Parallel()
	var got Values
	f := Factory{
		Name:   "test",
		Doc:    "a test bot",
		Params: []Param{prob, choice},
		New: func(v Values) (sim.Player, error) {
			got = v
			v["W_p"] = 9
			return &sim.BasePlayer{}, nil
		},
	}
	require.NoError(t, f.Validate())
	assert.Equal(t, Values{"W_p": 0.5, "goal_value": 1}, f.Defaults())
	assert.Equal(t, "W_p, goal_value", f.ParamNames())
	assert.Equal(t, "none", Factory{}.ParamNames())
	p, ok := f.Param("goal_value")
	assert.True(t, ok)
	assert.Equal(t, choice.Choices, p.Choices)
	_, ok = f.Param("x")
	assert.False(t, ok)

	seat := Seat{Factory: &f, Params: Values{"W_p": 0.25, "goal_value": 2}, Label: "test(W_p=0.25)"}
	pl, err := seat.New()
	require.NoError(t, err)
	assert.NotNil(t, pl)
	assert.Equal(t, 0.25, seat.Params["W_p"], "New gets a copy")
	assert.Equal(t, 9.0, got["W_p"])

	dup := f
	dup.Params = []Param{prob, prob}
	assert.ErrorContains(t, dup.Validate(), `bot "test": parameter W_p defined twice`)
	bad := f
	bad.Params = []Param{{Name: "x", Min: 1, Max: 0}}
	assert.ErrorContains(t, bad.Validate(), `bot "test": parameter x: range [1, 0]`)
	assert.ErrorContains(t, Factory{Name: "x"}.Validate(), `bot "x": New is nil`)
	assert.ErrorContains(t, Factory{Name: "x y", New: f.New}.Validate(), `bot "x y": name must match`)

	_, err = Seat{Label: "s"}.New()
	assert.ErrorContains(t, err, `seat "s": no factory`)
}

// TestSeatNewBadFactory: a New that panics, or returns a nil player and
// no error, is an error naming the seat and the bot, not a crash.
func TestSeatNewBadFactory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		new  func(Values) (sim.Player, error)
		want string
	}{
		{"panics", func(Values) (sim.Player, error) { panic("out of luck") },
			"seat b1: bot b: bad factory: New panicked: out of luck"},
		{"nil", func(Values) (sim.Player, error) { return nil, nil },
			"seat b1: bot b: bad factory: New returned a nil player and no error"},
		{"typed nil", func(Values) (sim.Player, error) { return (*sim.BasePlayer)(nil), nil },
			"seat b1: bot b: bad factory: New returned a nil player and no error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Factory{Name: "b", New: tc.new}
			p, err := Seat{Factory: &f, Label: "b1"}.New()
			assert.Nil(t, p)
			require.ErrorIs(t, err, errBadNew)
			assert.EqualError(t, err, tc.want)
		})
	}
}

func FuzzParamParse(f *testing.F) {
	for _, s := range []string{"0.5", "target", "1e308", "-0", "NaN", "sum", " max "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []Param{prob, count, bid, choice} {
			v, err := p.Parse(s)
			if err != nil {
				continue
			}
			require.NoError(t, p.Check(v), "%s: Parse(%q) = %v", p.Name, s, v)
			// Format gives text that parses to the same value.
			v2, err := p.Parse(p.Format(v))
			require.NoError(t, err)
			require.Equal(t, v, v2)
		}
	})
}
