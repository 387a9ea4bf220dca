package mars_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/bots"
	"github.com/marslab-risk/marslab/bots/registry"
	"github.com/marslab-risk/marslab/mars"
)

func TestFactory(t *testing.T) {
	t.Parallel()
	f := mars.Factory()
	require.NoError(t, f.Validate())
	assert.Equal(t, "mars", f.Name)
	require.Len(t, f.Params, 20)
	wp, ok := f.Param("W_p")
	require.True(t, ok)
	assert.Equal(t, bots.Param{Name: "W_p", Default: 0.7375, Min: 0, Max: 1, Doc: wp.Doc}, wp)
	gl, _ := f.Param("G_l")
	assert.True(t, gl.Integer)
	assert.Equal(t, []float64{5, 1, 10}, []float64{gl.Default, gl.Min, gl.Max})
	for _, name := range []string{"P_db", "P_ob"} {
		p, _ := f.Param(name)
		assert.True(t, p.Log, name)
		assert.Positive(t, p.Min, name)
	}

	p, err := f.New(bots.Values{"W_p": 0.8, "P_ob": 150})
	require.NoError(t, err)
	want := mars.PaperParams()
	want.Wp, want.Pob = 0.8, 150
	assert.Equal(t, want, p.(*mars.Bot).Params())

	tests := []struct {
		params  bots.Values
		wantErr string
	}{
		{bots.Values{"W_p": 2}, "mars: parameter W_p = 2: must be in [0, 1]"},
		{bots.Values{"G_l": 1.5}, "mars: parameter G_l = 1.5: must be an integer"},
		{bots.Values{"P_db": 0}, "mars: parameter P_db = 0: must be in [0.01, 10000]"},
		{bots.Values{"nope": 1}, `mars: unknown parameter "nope"`},
	}
	for _, tc := range tests {
		_, err := f.New(tc.params)
		require.Error(t, err, tc.params)
		assert.True(t, strings.HasPrefix(err.Error(), tc.wantErr), "%v: the bot is named once: %v", tc.params, err)
	}
	// A seat names itself once more, and only once.
	_, err = bots.Seat{Factory: &f, Params: bots.Values{"W_p": 2}, Label: "mars"}.New()
	assert.EqualError(t, err, "seat mars: mars: parameter W_p = 2: must be in [0, 1]")
}

func TestFactorySeatFile(t *testing.T) {
	t.Parallel()
	seat, err := registry.Default().ParseSeat("mars@../configs/bots/mars-paper.toml(W_p=0.5)", nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	want := mars.PaperParams()
	want.Wp = 0.5
	assert.Equal(t, want, p.(*mars.Bot).Params())
}

// TestFactoryNamedOptions checks the named options by name in a seat spec,
// in a parameter file's override and by index, with their errors.
func TestFactoryNamedOptions(t *testing.T) {
	t.Parallel()
	seat, err := registry.Default().ParseSeat("mars(goal_value=target;goal_paths=all;defensive_bid=literal;hold_unit=percent;attack_targets=goals)", nil)
	require.NoError(t, err)
	p, err := seat.New()
	require.NoError(t, err)
	want := mars.PaperParams()
	want.GoalValue, want.GoalPaths, want.Defensive = mars.GoalValueTarget, mars.GoalPathsAll, mars.DefensiveLiteral
	want.HoldUnit, want.Attack = mars.HoldPercent, mars.AttackGoals
	assert.Equal(t, want, p.(*mars.Bot).Params())

	seat, err = registry.Default().ParseSeat("mars@../configs/bots/mars-paper.toml(goal_paths=all)", nil)
	require.NoError(t, err)
	p, err = seat.New()
	require.NoError(t, err)
	want = mars.PaperParams()
	want.GoalPaths = mars.GoalPathsAll
	assert.Equal(t, want, p.(*mars.Bot).Params())

	_, err = registry.Default().ParseSeat("mars(goal_value=max)", nil)
	assert.ErrorContains(t, err, `"max" is not a choice: must be one of sum, target`)

	var q mars.Params = mars.PaperParams()
	require.NoError(t, q.Set("defensive_bid", 1))
	assert.Equal(t, mars.DefensiveLiteral, q.Defensive)
	v, ok := q.Get("defensive_bid")
	assert.True(t, ok)
	assert.Equal(t, 1.0, v)
	assert.ErrorContains(t, q.Set("goal_paths", 2), "goal_paths")
	require.NoError(t, q.Set("hold_unit", 1))
	assert.Equal(t, mars.HoldPercent, q.HoldUnit)
	assert.ErrorContains(t, q.Set("hold_unit", 2), "must be one of fraction, percent")
	require.NoError(t, q.Set("attack_targets", 1))
	assert.Equal(t, mars.AttackGoals, q.Attack)
	assert.ErrorContains(t, q.Set("attack_targets", 2), "must be one of any, goals")
	_, err = registry.Default().ParseSeat("mars(attack_targets=none)", nil)
	assert.ErrorContains(t, err, `"none" is not a choice: must be one of any, goals`)
	for _, name := range []string{"goal_value", "goal_paths", "defensive_bid", "hold_unit", "attack_targets"} {
		s, ok := mars.Factory().Param(name)
		require.True(t, ok, name)
		assert.Len(t, s.Choices, 2, name)
	}
}
