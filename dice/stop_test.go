package dice

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStopHandWorked checks one roll of 1 against 1 (P(win) = 15/36): the
// attacker rolls when the territory is worth more than the army it risks.
func TestStopHandWorked(t *testing.T) {
	tests := []struct {
		u    Utility
		want string
		roll bool
	}{
		{Utility{Territory: 1}, "5/12", true},            // 15/36 · 1 against 0
		{Utility{Territory: 1, Army: 1}, "1", false},     // 15/36 · 2 against 1
		{Utility{Territory: 2, Army: 1}, "5/4", true},    // 15/36 · 3 against 1
		{Utility{Army: 1, Kill: 1}, "1", false},          // 15/36 · 2 against 1
		{Utility{Goal: 1}, "5/12", true},                 // the probability target
		{Utility{Territory: 3, Army: 1.5}, "15/8", true}, // 15/36 · 4.5 against 1.5
	}
	for _, tt := range tests {
		st, err := Stop(Classic, 1, []int{1}, tt.u)
		require.NoError(t, err)
		ex, err := StopExact(context.Background(), Classic, 1, []int{1}, tt.u)
		require.NoError(t, err)
		assert.Equal(t, tt.want, ex.Value().RatString(), "%v", tt.u)
		f, _ := ex.Value().Float64()
		assert.InDelta(t, f, st.Value(), 1e-15, "%v", tt.u)
		_, roll, win, ok := st.At(0, 1, 1)
		require.True(t, ok)
		assert.Equal(t, tt.roll, roll, "%v", tt.u)
		assert.InDelta(t, 15.0/36, win, 1e-15)
	}
}

// stopCases are small problems for the brute-force and exact checks.
var stopCases = []struct {
	a    int
	defs []int
	u    Utility
}{
	{3, []int{2}, Utility{Territory: 1, Army: 0.5}},
	{3, []int{2}, Utility{Territory: 1, Army: 0.3, Kill: 0.2}},
	{4, []int{2, 1}, Utility{Territory: 1, Army: 0.4}},
	{4, []int{2, 1}, Utility{Territory: 0.5, Army: 0.2, Kill: 0.1}},
	{4, []int{1, 2}, Utility{Goal: 1, Keep: 2}},
	{5, []int{1, 1, 1}, Utility{Goal: 2, Keep: 1}},
	{5, []int{3}, Utility{Territory: 2, Army: 1}},
	{4, []int{2, 1}, Utility{Territory: -1, Army: 0.1}},
	{4, []int{2, 1}, Utility{Path: 3, Army: 0.5}},
	{5, []int{1, 1, 1}, Utility{Territory: 0.2, Path: 2, Army: 0.4, Kill: 0.1}},
}

// decisionStates lists the decision states of a problem.
func decisionStates(sp *stopSpace) [][3]int {
	var out [][3]int
	for k := 0; k < sp.n(); k++ {
		for x := 1; x <= sp.a-k; x++ {
			for y := 1; y <= sp.defs[k]; y++ {
				out = append(out, [3]int{k, x, y})
			}
		}
	}
	return out
}

// TestStopBruteForce enumerates every deterministic policy of small
// problems: none beats the optimum, and the best equals it.
func TestStopBruteForce(t *testing.T) {
	for _, c := range stopCases {
		st, err := Stop(Classic, c.a, c.defs, c.u)
		require.NoError(t, err)
		states := decisionStates(st.sp)
		require.LessOrEqual(t, len(states), 16, "keep the enumeration small")
		idx := map[[3]int]int{}
		for i, s := range states {
			idx[s] = i
		}
		best := math.Inf(-1)
		for mask := 0; mask < 1<<len(states); mask++ {
			v := st.evaluate(func(k, x, y int) bool { return mask&(1<<idx[[3]int{k, x, y}]) != 0 })
			assert.LessOrEqual(t, v, st.Value()+1e-12, "a=%d %v %v policy %b", c.a, c.defs, c.u, mask)
			best = max(best, v)
		}
		assert.InDelta(t, st.Value(), best, 1e-12, "a=%d %v %v", c.a, c.defs, c.u)
		// The optimal policy's own evaluation gives its value.
		opt := st.evaluate(func(k, x, y int) bool { _, r, _, _ := st.At(k, x, y); return r })
		assert.InDelta(t, st.Value(), opt, 1e-12)
		// No threshold rule beats the optimum.
		for _, th := range st.Thresholds() {
			assert.GreaterOrEqual(t, th.Loss, -1e-12, "W=%v", th.W)
		}
	}
}

// TestStopMatchesExact checks values and policies against big.Rat on
// problems up to 12 armies and paths of three territories.
func TestStopMatchesExact(t *testing.T) {
	cases := append([]struct {
		a    int
		defs []int
		u    Utility
	}{
		{12, []int{3, 2, 1}, Utility{Territory: 1, Army: 0.25, Kill: 0.1}},
		{12, []int{5}, Utility{Territory: 3, Army: 1}},
		{10, []int{4, 4}, Utility{Goal: 2, Keep: 2}},
		{9, []int{2, 3, 2}, Utility{Territory: 1.5, Army: 0.6}},
		{12, []int{3, 2, 2}, Utility{Path: 7.3, Army: 0.9}},
	}, stopCases...)
	for _, r := range []Rules{Classic, {AttackerDice: 2, DefenderDice: 3, TiesToAttacker: true}} {
		for _, c := range cases {
			st, err := Stop(r, c.a, c.defs, c.u)
			require.NoError(t, err)
			ex, err := StopExact(context.Background(), r, c.a, c.defs, c.u)
			require.NoError(t, err)
			sp := st.sp
			for k := 0; k <= sp.n(); k++ {
				for x := 0; x <= sp.a-k; x++ {
					for y := 0; y < sp.width(k); y++ {
						v, roll, _, ok := st.At(k, x, y)
						require.True(t, ok)
						ev, eroll, erv, ok := ex.at(k, x, y)
						require.True(t, ok)
						f, _ := ev.Float64()
						assert.InDelta(t, f, v, 1e-13*max(1, math.Abs(f)), "%v a=%d %v (%d,%d,%d)", r, c.a, c.defs, k, x, y)
						if erv == nil {
							assert.False(t, roll)
							continue
						}
						// Where rolling and stopping differ by more than rounding, the
						// float policy is the exact one.
						if d, _ := new(big.Rat).Sub(erv, ex.stop[sp.index(k, x, y)]).Float64(); math.Abs(d) > 1e-9 {
							assert.Equal(t, eroll, roll, "%v a=%d %v (%d,%d,%d)", r, c.a, c.defs, k, x, y)
						}
					}
				}
			}
		}
	}
}

// TestStopThresholdOptimal checks utilities for which a threshold rule is
// optimal: territories only (always roll, W = 0) and armies only (never
// roll); and that the threshold losses are never negative.
func TestStopThresholdOptimal(t *testing.T) {
	st, err := Stop(Classic, 20, []int{5, 3, 4}, Utility{Territory: 1})
	require.NoError(t, err)
	ok, _, _ := st.IsThreshold()
	assert.True(t, ok)
	ths := st.Thresholds()
	assert.InDelta(t, 0, ths[0].Loss, 1e-12, "W at the lowest win probability rolls everywhere")
	assert.Greater(t, ths[len(ths)-1].Loss, 0.5, "never rolling loses the expected territories")
	// Territories only: the value is the expected number of territories
	// taken attacking to the end.
	c := NewChainer(Classic, 20)
	want := 0.0
	for _, p := range c.WinFirst(nil, 20, []int{5, 3, 4}) {
		want += p
	}
	assert.InDelta(t, want, st.Value(), 1e-12)

	st, err = Stop(Classic, 20, []int{5, 3, 4}, Utility{Army: 1})
	require.NoError(t, err)
	assert.Equal(t, 20.0, st.Value(), "never attacking keeps every army")
	ths = st.Thresholds()
	assert.Equal(t, 2.0, ths[len(ths)-1].W)
	assert.Equal(t, 0.0, ths[len(ths)-1].Loss)
	ok, _, hi := st.IsThreshold()
	assert.True(t, ok)
	assert.Equal(t, 2.0, hi, "no state rolls")

	// A mixed utility: the best threshold is never better than the optimum,
	// and MARS-style two thresholds are evaluated consistently.
	st, err = Stop(Classic, 15, []int{4, 2, 3}, Utility{Territory: 1, Army: 0.3})
	require.NoError(t, err)
	for _, th := range st.Thresholds() {
		assert.GreaterOrEqual(t, th.Loss, -1e-12)
		assert.InDelta(t, th.Value, st.Threshold(th.W, th.W), 1e-15)
	}
}

// TestStopThresholdOptimalInterior checks battles and chains whose optimum
// is a threshold rule that rolls in some states and stops in others
// (IsThreshold with both bounds inside [0, 1]): the rule with W = hi, the
// lowest win probability of a rolling state, has the optimum's value, and
// where the problem is small enough, no policy of all 2^states beats it.
func TestStopThresholdOptimalInterior(t *testing.T) {
	for _, c := range []struct {
		a    int
		defs []int
		u    Utility
	}{
		{3, []int{2}, Utility{Territory: 1, Army: 0.5}},
		{15, []int{6}, Utility{Territory: 1, Army: 0.2, Kill: 0.1}},
		{4, []int{2, 1}, Utility{Path: 3, Army: 0.5}},
		{4, []int{1, 2}, Utility{Path: 2, Army: 0.6}},
		{4, []int{3, 1}, Utility{Territory: 0.5, Path: 1, Army: 0.4}},
	} {
		st, err := Stop(Classic, c.a, c.defs, c.u)
		require.NoError(t, err)
		ok, lo, hi := st.IsThreshold()
		require.True(t, ok, "a=%d %v %v", c.a, c.defs, c.u)
		assert.GreaterOrEqual(t, lo, 0.0, "a=%d %v %v: some state stops", c.a, c.defs, c.u)
		assert.LessOrEqual(t, hi, 1.0, "a=%d %v %v: some state rolls", c.a, c.defs, c.u)
		assert.Less(t, lo, hi)
		assert.InDelta(t, st.Value(), st.Threshold(hi, hi), 1e-12, "a=%d %v %v: W = hi is optimal", c.a, c.defs, c.u)
		bestLoss := math.Inf(1)
		for _, th := range st.Thresholds() {
			bestLoss = min(bestLoss, th.Loss)
		}
		assert.InDelta(t, 0, bestLoss, 1e-12, "a=%d %v %v: the best threshold rule is the optimum", c.a, c.defs, c.u)
		assert.Greater(t, st.Value()-st.Threshold(0, 0), 1e-6, "a=%d %v %v: attacking to the end is worse", c.a, c.defs, c.u)
		assert.Greater(t, st.Value()-st.Threshold(2, 2), 1e-6, "a=%d %v %v: never attacking is worse", c.a, c.defs, c.u)
		states := decisionStates(st.sp)
		if len(states) > 16 {
			continue
		}
		idx := map[[3]int]int{}
		for i, s := range states {
			idx[s] = i
		}
		best := math.Inf(-1)
		for mask := 0; mask < 1<<len(states); mask++ {
			best = max(best, st.evaluate(func(k, x, y int) bool { return mask&(1<<idx[[3]int{k, x, y}]) != 0 }))
		}
		assert.InDelta(t, best, st.Threshold(hi, hi), 1e-12, "a=%d %v %v: every policy enumerated", c.a, c.defs, c.u)
	}
}

func TestStopErrors(t *testing.T) {
	for _, tt := range []struct {
		a    int
		defs []int
		u    Utility
		msg  string
	}{
		{3, nil, Utility{Territory: 1}, "at least one territory"},
		{3, []int{0}, Utility{Territory: 1}, "defenders of territory 1: 0 outside [1, 2000]"},
		{-1, []int{1}, Utility{Territory: 1}, "attacking armies -1"},
		{3, []int{1}, Utility{Territory: math.NaN()}, "territory value NaN is not finite"},
		{3, []int{1}, Utility{Goal: 2}, "goal 2 territories outside [0, 1]"},
		{3, []int{1}, Utility{Goal: 1, Keep: 4}, "keep 4 armies outside [0, 3]"},
		{3, []int{1}, Utility{Keep: 1}, "keep needs a goal"},
		{3, []int{1}, Utility{Goal: 1, Army: 1}, "excludes the linear values"},
		{3, []int{1}, Utility{Goal: 1, Path: 1}, "excludes the linear values"},
		{3, []int{1}, Utility{Path: math.Inf(1)}, "path value +Inf is not finite"},
		{2000, []int{2000}, Utility{Territory: 1}, "more than 1048576 states"},
	} {
		_, err := Stop(Classic, tt.a, tt.defs, tt.u)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.msg)
		_, err = StopExact(context.Background(), Classic, tt.a, tt.defs, tt.u)
		require.Error(t, err)
	}
	st, err := Stop(Classic, 3, []int{2}, Utility{Territory: 1})
	require.NoError(t, err)
	_, _, _, ok := st.At(0, 4, 1)
	assert.False(t, ok)
	_, _, _, ok = st.At(1, 2, 1)
	assert.False(t, ok, "the whole path taken has y = 0 only")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = StopExact(ctx, Classic, 30, []int{10, 10}, Utility{Territory: 1})
	assert.ErrorIs(t, err, context.Canceled)
}

// FuzzStop checks the optimum on arbitrary small problems: it is never
// below never attacking, attacking to the end or any threshold rule, and
// its policy's own evaluation gives its value.
func FuzzStop(f *testing.F) {
	f.Add(uint8(6), uint8(2), uint8(1), uint8(3), 1.0, 0.3, 0.0, 0.0, uint8(0), uint8(0))
	f.Add(uint8(9), uint8(4), uint8(0), uint8(0), 0.0, 0.0, 0.0, 0.0, uint8(1), uint8(2))
	f.Add(uint8(12), uint8(3), uint8(3), uint8(3), -1.0, 0.5, 0.2, 4.0, uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, a, d1, d2, d3 uint8, terr, army, kill, path float64, goal, keep uint8) {
		defs := []int{int(d1%6) + 1}
		for _, d := range []uint8{d2, d3} {
			if d%7 > 0 {
				defs = append(defs, int(d%7))
			}
		}
		u := Utility{Territory: terr, Army: army, Kill: kill, Path: path, Goal: int(goal % 4), Keep: int(keep % 4)}
		if u.Goal > 0 {
			u.Territory, u.Army, u.Kill, u.Path = 0, 0, 0, 0
		} else {
			u.Keep = 0
		}
		for _, v := range []float64{terr, army, kill, path} {
			if math.IsNaN(v) || math.Abs(v) > 1e6 {
				return
			}
		}
		st, err := Stop(Classic, int(a%16), defs, u)
		if err != nil {
			assert.Error(t, u.Validate(len(defs), int(a%16)), "only a bad utility is refused")
			return
		}
		v := st.Value()
		tol := 1e-9 * max(1, math.Abs(v))
		assert.GreaterOrEqual(t, v+tol, st.Threshold(2, 2), "never attacking")
		assert.GreaterOrEqual(t, v+tol, st.Threshold(0, 0), "attacking to the end")
		for _, th := range st.Thresholds() {
			assert.GreaterOrEqual(t, th.Loss, -tol)
		}
		opt := st.evaluate(func(k, x, y int) bool { _, r, _, _ := st.At(k, x, y); return r })
		assert.InDelta(t, v, opt, tol)
	})
}
