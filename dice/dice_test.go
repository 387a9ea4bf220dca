package dice

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return r
}

func TestRollExactCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		na, nd int
		total  int64
		count  []int64 // by defender losses 0..m
	}{
		{1, 1, 36, []int64{21, 15}},
		{2, 1, 216, []int64{91, 125}},
		{3, 1, 1296, []int64{441, 855}},
		{1, 2, 216, []int64{161, 55}},
		{2, 2, 1296, []int64{581, 420, 295}},
		{3, 2, 7776, []int64{2275, 2611, 2890}},
	}
	for _, tt := range tests {
		o, err := Roll(Classic, tt.na, tt.nd)
		require.NoError(t, err)
		assert.Equal(t, tt.total, o.Total, "%dv%d", tt.na, tt.nd)
		require.Equal(t, len(tt.count)-1, o.Pairs())
		for j, c := range tt.count {
			assert.Equal(t, c, o.Count[j], "%dv%d defender loses %d", tt.na, tt.nd, j)
			assert.Equal(t, big.NewRat(c, tt.total).String(), o.rat(j).String())
			assert.InDelta(t, float64(c)/float64(tt.total), o.P(j), 1e-16)
		}
	}
}

func TestRollTiesToAttacker(t *testing.T) {
	t.Parallel()
	r := Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}
	o, err := Roll(r, 1, 1)
	require.NoError(t, err)
	// Attacker wins whenever its die is >= the defender's: 21 of 36.
	assert.Equal(t, int64(21), o.Count[1])
	assert.Equal(t, int64(15), o.Count[0])
	// Three defending dice: a variant; 6^6 outcomes.
	o, err = Roll(Rules{AttackerDice: 3, DefenderDice: 3}, 3, 3)
	require.NoError(t, err)
	assert.Equal(t, int64(46656), o.Total)
	assert.Equal(t, int64(46656), o.Count[0]+o.Count[1]+o.Count[2]+o.Count[3])
}

func TestRollErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r      Rules
		na, nd int
		msg    string
	}{
		{Rules{AttackerDice: 0, DefenderDice: 2}, 1, 1, "attacker dice 0 outside [1, 3]"},
		{Rules{AttackerDice: 3, DefenderDice: 4}, 1, 1, "defender dice 4 outside [1, 3]"},
		{Classic, 4, 1, "4 attacking dice outside [1, 3]"},
		{Classic, 1, 3, "3 defending dice outside [1, 2]"},
		{Classic, 0, 1, "0 attacking dice"},
	}
	for _, tt := range tests {
		_, err := Roll(tt.r, tt.na, tt.nd)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.msg)
	}
}

// TestTable4 checks the MARS paper's rounded Table 4 against the exact
// counts: every entry is the exact value rounded to a whole percent.
func TestTable4(t *testing.T) {
	t.Parallel()
	for _, row := range table4() {
		o, err := Roll(Classic, row.AttackerDice, row.DefenderDice)
		require.NoError(t, err)
		m := o.Pairs()
		pct := func(j int) int { return int(math.Round(100 * o.P(j))) }
		att, def := pct(m), pct(0)
		assert.Equal(t, row.Attacker, att, "%dv%d", row.AttackerDice, row.DefenderDice)
		assert.Equal(t, row.Defender, def, "%dv%d", row.AttackerDice, row.DefenderDice)
		if m == 2 {
			assert.Equal(t, row.OneEach, pct(1))
		} else {
			assert.Equal(t, -1, row.OneEach)
		}
	}
}

func TestWinSmall(t *testing.T) {
	t.Parallel()
	w21 := new(big.Rat).Add(rat("125/216"), new(big.Rat).Mul(rat("91/216"), rat("15/36")))
	w12 := new(big.Rat).Mul(rat("55/216"), rat("15/36"))
	want := map[[2]int]*big.Rat{
		{0, 0}: rat("1"), {0, 3}: rat("0"), {4, 0}: rat("1"),
		{1, 1}: rat("15/36"), {2, 1}: w21, {1, 2}: w12,
	}
	tab, err := NewTable(Classic, 5)
	require.NoError(t, err)
	ex, err := NewTableExact(context.Background(), Classic, 5)
	require.NoError(t, err)
	for k, w := range want {
		a, d := k[0], k[1]
		got, err := WinExact(Classic, a, d)
		require.NoError(t, err)
		assert.Equal(t, w.String(), got.String(), "WinExact(%d, %d)", a, d)
		assert.Equal(t, w.String(), ex.Win(a, d).String(), "TableExact(%d, %d)", a, d)
		f, _ := w.Float64()
		assert.InDelta(t, f, tab.Win(a, d), 1e-16, "Table(%d, %d)", a, d)
	}
}

// TestTableMatchesExact checks the float64 table against exact rational
// arithmetic for every a, d <= 60.
func TestTableMatchesExact(t *testing.T) {
	t.Parallel()
	const n = 60
	for _, r := range []Rules{Classic, {AttackerDice: 3, DefenderDice: 2, TiesToAttacker: true}, {AttackerDice: 2, DefenderDice: 3}} {
		tab, err := NewTable(r, n)
		require.NoError(t, err)
		ex, err := NewTableExact(context.Background(), r, n)
		require.NoError(t, err)
		worst := 0.0
		for a := 0; a <= n; a++ {
			for d := 0; d <= n; d++ {
				f, _ := ex.Win(a, d).Float64()
				worst = max(worst, math.Abs(f-tab.Win(a, d)))
			}
		}
		assert.Less(t, worst, 1e-14, "rules %v", r)
	}
}

func TestTableErrorsAndBounds(t *testing.T) {
	t.Parallel()
	_, err := NewTable(Classic, -1)
	assert.ErrorContains(t, err, "table size -1 outside [0, 5000]")
	_, err = NewTable(Rules{}, 3)
	assert.ErrorContains(t, err, "attacker dice 0")
	tab, err := NewTable(Classic, 3)
	require.NoError(t, err)
	assert.Equal(t, 3, tab.N())
	assert.Equal(t, Classic, tab.rules())
	assert.True(t, tab.Contains(3, 0))
	assert.False(t, tab.Contains(4, 0))
	assert.False(t, tab.Contains(0, -1))
	assert.PanicsWithValue(t, "dice: Table.Win(4, 1) outside table of size 3", func() { tab.Win(4, 1) })
}

func TestBattleOneVsOne(t *testing.T) {
	t.Parallel()
	res, err := Battle(Classic, 1, 1)
	require.NoError(t, err)
	require.Len(t, res.Outcomes, 2)
	assert.Equal(t, [2]int{1, 0}, [2]int{res.Outcomes[0].AttackerLeft, res.Outcomes[0].DefenderLeft})
	assert.Equal(t, [2]int{0, 1}, [2]int{res.Outcomes[1].AttackerLeft, res.Outcomes[1].DefenderLeft})
	assert.InDelta(t, 15.0/36, res.Outcomes[0].P, 1e-16)
	assert.InDelta(t, 21.0/36, res.Outcomes[1].P, 1e-16)
	p := 15.0 / 36
	assert.InDelta(t, p, res.Win, 1e-16)
	assert.InDelta(t, 1-p, res.AttackerLossMean, 1e-15)
	assert.InDelta(t, p, res.DefenderLossMean, 1e-16)
	assert.InDelta(t, p*(1-p), res.AttackerLossVar, 1e-16)
	assert.InDelta(t, p*(1-p), res.DefenderLossVar, 1e-16)
}

func TestBattleStop(t *testing.T) {
	t.Parallel()
	// 3 attacking armies stop at 2: one 3v2 roll decides.
	ex, err := BattleStopExact(context.Background(), Classic, 3, 2, 2)
	require.NoError(t, err)
	want := []struct {
		x, y int
		p    string
	}{{3, 0, "2890/7776"}, {2, 1, "2611/7776"}, {1, 2, "2275/7776"}}
	require.Len(t, ex.Outcomes, len(want))
	for i, w := range want {
		o := ex.Outcomes[i]
		assert.Equal(t, [2]int{w.x, w.y}, [2]int{o.AttackerLeft, o.DefenderLeft})
		assert.Equal(t, rat(w.p).String(), o.P.String())
	}
	assert.Equal(t, rat("2890/7776").String(), ex.Win.String())
	// Attacker losses: 0 w.p. 2890, 1 w.p. 2611, 2 w.p. 2275 (over 7776):
	// mean (2611 + 2·2275)/7776 = 7161/7776.
	assert.Equal(t, rat("7161/7776").String(), ex.AttackerLossMean.String())
	f, err := BattleStop(Classic, 3, 2, 2)
	require.NoError(t, err)
	am, _ := ex.AttackerLossMean.Float64()
	assert.InDelta(t, am, f.AttackerLossMean, 1e-15)
	// No dice are rolled when a <= stop.
	f, err = BattleStop(Classic, 2, 5, 2)
	require.NoError(t, err)
	assert.Equal(t, []Outcome{{2, 5, 1}}, f.Outcomes)
	assert.Zero(t, f.Win)
	_, err = BattleStop(Classic, 2, 5, -1)
	assert.ErrorContains(t, err, "stop level -1 is negative")
	_, err = Battle(Classic, -2, 5)
	assert.ErrorContains(t, err, "attacking armies -2 outside [0, 2000]")
}

func TestBattleMatchesExact(t *testing.T) {
	t.Parallel()
	tab, err := NewTable(Classic, 30)
	require.NoError(t, err)
	for _, c := range [][3]int{{5, 5, 0}, {12, 7, 0}, {30, 30, 0}, {20, 10, 4}, {7, 15, 1}} {
		a, d, stop := c[0], c[1], c[2]
		f, err := BattleStop(Classic, a, d, stop)
		require.NoError(t, err)
		ex, err := BattleStopExact(context.Background(), Classic, a, d, stop)
		require.NoError(t, err)
		require.Equal(t, len(ex.Outcomes), len(f.Outcomes))
		sum := 0.0
		for i, o := range f.Outcomes {
			e := ex.Outcomes[i]
			require.Equal(t, [2]int{e.AttackerLeft, e.DefenderLeft}, [2]int{o.AttackerLeft, o.DefenderLeft})
			p, _ := e.P.Float64()
			assert.InDelta(t, p, o.P, 1e-14)
			sum += o.P
		}
		assert.InDelta(t, 1, sum, 1e-13)
		for _, pair := range [][2]any{
			{ex.Win, f.Win}, {ex.AttackerLossMean, f.AttackerLossMean}, {ex.DefenderLossMean, f.DefenderLossMean},
			{ex.AttackerLossVar, f.AttackerLossVar}, {ex.DefenderLossVar, f.DefenderLossVar},
		} {
			e, _ := pair[0].(*big.Rat).Float64()
			assert.True(t, agrees(pair[1].(float64), e), "(%d, %d, stop %d): %v, exact %v", a, d, stop, pair[1], e)
		}
		if stop == 0 {
			assert.InDelta(t, tab.Win(a, d), f.Win, 1e-14)
		}
	}
}

func TestChainHandWorked(t *testing.T) {
	t.Parallel()
	c := NewChainer(Classic, 4)
	// 2 armies against 1 then 1: only the 2-survivor conquest (125/216)
	// can go on, with 1 army against 1.
	want := 125.0 / 216 * 15 / 36
	assert.InDelta(t, want, c.Win(2, []int{1, 1}), 1e-16)
	first := c.WinFirst(nil, 2, []int{1, 1})
	require.Len(t, first, 2)
	assert.InDelta(t, 125.0/216+91.0/216*15/36, first[0], 1e-16)
	assert.InDelta(t, want, first[1], 1e-16)
	surv := c.survivors(nil, 2, []int{1, 1})
	assert.InDeltaSlice(t, []float64{0, want, 0}, surv, 1e-16)
	// Empty path, empty territory.
	assert.Equal(t, 1.0, c.Win(3, nil))
	assert.Equal(t, []float64{0, 0, 0, 1}, c.survivors(nil, 3, nil))
	assert.InDelta(t, 15.0/36, c.Win(2, []int{0, 1}), 1e-16)
	// Invalid arguments give NaN, not a panic.
	assert.True(t, math.IsNaN(c.Win(-1, []int{1})))
	assert.True(t, math.IsNaN(c.Win(3, []int{2, -1})))
	bad := NewChainer(Rules{AttackerDice: 9, DefenderDice: 2}, 3)
	assert.ErrorContains(t, bad.Err(), "attacker dice 9")
	assert.True(t, math.IsNaN(bad.Win(3, []int{1})))
}

func TestChainMatchesTableAndExact(t *testing.T) {
	t.Parallel()
	tab, err := NewTable(Classic, 40)
	require.NoError(t, err)
	c := NewChainer(Classic, 2) // grows on demand
	for a := 0; a <= 40; a++ {
		for d := 0; d <= 40; d += 3 {
			assert.InDelta(t, tab.Win(a, d), c.Win(a, []int{d}), 1e-14, "a=%d d=%d", a, d)
		}
	}
	for _, q := range []struct {
		a    int
		defs []int
	}{{30, []int{3, 5, 2, 7, 1}}, {60, []int{20, 1, 12, 4, 9}}, {9, []int{2, 0, 3}}} {
		ex, err := ChainExact(context.Background(), Classic, q.a, q.defs)
		require.NoError(t, err)
		f, err := Chain(Classic, q.a, q.defs)
		require.NoError(t, err)
		w, _ := ex.Win.Float64()
		assert.InDelta(t, w, f.Win, 1e-14)
		assert.InDelta(t, w, c.Win(q.a, q.defs), 1e-14)
		for j := range q.defs {
			e, _ := ex.WinFirst[j].Float64()
			assert.InDelta(t, e, f.WinFirst[j], 1e-14)
		}
		for s := range f.Survivors {
			e, _ := ex.Survivors[s].Float64()
			assert.InDelta(t, e, f.Survivors[s], 1e-14)
		}
	}
}

func TestChainRuleVariants(t *testing.T) {
	t.Parallel()
	defs := []int{4, 1, 6, 2}
	for _, r := range []Rules{
		{AttackerDice: 1, DefenderDice: 1},
		{AttackerDice: 2, DefenderDice: 3},
		{AttackerDice: 3, DefenderDice: 3, TiesToAttacker: true},
		{AttackerDice: 3, DefenderDice: 1},
	} {
		ex, err := ChainExact(context.Background(), r, 25, defs)
		require.NoError(t, err)
		c := NewChainer(r, 5)
		first := c.WinFirst(nil, 25, defs)
		for j := range defs {
			e, _ := ex.WinFirst[j].Float64()
			assert.InDelta(t, e, first[j], 1e-14, "rules %v territory %d", r, j+1)
		}
		tab, err := NewTable(r, 25)
		require.NoError(t, err)
		assert.InDelta(t, tab.Win(25, 4), first[0], 1e-14, "rules %v", r)
	}
}

func TestChainerWinAll(t *testing.T) {
	for _, r := range []Rules{Classic, {AttackerDice: 2, DefenderDice: 3}, {AttackerDice: 1, DefenderDice: 1, TiesToAttacker: true}} {
		for _, defs := range [][]int{nil, {3}, {5, 0, 2, 7}, {0}, {1, 1, 1, 1, 1, 1}, {20, 4, 12}} {
			c := NewChainer(r, 3)
			all := c.WinAll(nil, 45, defs)
			require.Len(t, all, 46)
			for a, got := range all {
				assert.InDelta(t, c.Win(a, defs), got, 1e-14, "rules %v a=%d path %v", r, a, defs)
			}
		}
	}
	c := NewChainer(Classic, 10)
	assert.Len(t, c.WinAll(nil, -1, []int{2}), 0)
	bad := c.WinAll([]float64{7}, 2, []int{2, -1})
	require.Len(t, bad, 4)
	assert.Equal(t, 7.0, bad[0])
	assert.True(t, math.IsNaN(bad[3]))
	dst := make([]float64, 0, 61)
	c.WinAll(dst, 60, []int{20, 5, 12, 3, 8})
	assert.Zero(t, testing.AllocsPerRun(20, func() { dst = c.WinAll(dst[:0], 60, []int{20, 5, 12, 3, 8}) }))
}

func TestChainerNoAllocs(t *testing.T) {
	c := NewChainer(Classic, 60)
	defs := []int{20, 5, 12, 3, 8}
	dst := make([]float64, 0, 8)
	c.Win(60, defs) // grow once
	assert.Zero(t, testing.AllocsPerRun(50, func() { c.Win(60, defs) }))
	assert.Zero(t, testing.AllocsPerRun(50, func() { dst = c.WinFirst(dst[:0], 60, defs) }))
	tab, err := NewTable(Classic, 50)
	require.NoError(t, err)
	var sink float64
	assert.Zero(t, testing.AllocsPerRun(50, func() { sink += tab.Win(50, 7) }))
}

func FuzzChainer(f *testing.F) {
	f.Add(10, 3, 2, 1, false)
	f.Add(0, 0, 0, 0, true)
	f.Add(45, 20, 1, 9, false)
	f.Fuzz(func(t *testing.T, a, d1, d2, d3 int, ties bool) {
		if a > 80 || d1 > 30 || d2 > 30 || d3 > 30 {
			t.Skip()
		}
		r := Rules{AttackerDice: 3, DefenderDice: 2, TiesToAttacker: ties}
		c := NewChainer(r, 3)
		defs := []int{d1, d2, d3}
		first := c.WinFirst(nil, a, defs)
		w := c.Win(a, defs)
		if a < 0 || d1 < 0 || d2 < 0 || d3 < 0 {
			require.True(t, math.IsNaN(w), "invalid query gave %v", w)
			return
		}
		prev := 1.0
		for j, p := range first {
			require.True(t, p >= 0 && p <= prev+1e-15, "WinFirst[%d] = %v after %v", j, p, prev)
			prev = p
		}
		require.InDelta(t, first[2], w, 1e-15, "Win and WinFirst[2]")
		require.InDelta(t, w, c.WinAll(nil, a, defs)[a], 1e-14, "WinAll[a] and Win")
		s := 0.0
		for _, v := range c.survivors(nil, a, defs) {
			s += v
		}
		require.InDelta(t, w, s, 1e-13, "survivors sum and win")
	})
}

// TestRollSides checks dice with other numbers of faces: two-sided dice
// by hand, the 6-sided default, and every total against s^n.
func TestRollSides(t *testing.T) {
	// 1 against 1 with coins (faces 1, 2): the attacker wins only 2 > 1.
	o, err := Roll(Rules{AttackerDice: 3, DefenderDice: 2, Sides: 2}, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, int64(4), o.Total)
	assert.Equal(t, int64(1), o.Count[1])
	// Sides 6 is the classic die, Sides 0 its zero value.
	o6, err := Roll(Rules{AttackerDice: 3, DefenderDice: 2, Sides: 6}, 3, 2)
	require.NoError(t, err)
	o0, err := Roll(Classic, 3, 2)
	require.NoError(t, err)
	assert.Equal(t, o0, o6)
	// 1 against 1 with s faces: the attacker wins s(s-1)/2 of s².
	for _, s := range []int{2, 3, 5, 8, 12} {
		r := Rules{AttackerDice: 3, DefenderDice: 2, Sides: s}
		o, err := Roll(r, 1, 1)
		require.NoError(t, err)
		assert.Equal(t, int64(s*(s-1)/2), o.Count[1], "d%d", s)
		o, err = Roll(r, 3, 2)
		require.NoError(t, err)
		assert.Equal(t, int64(s*s*s*s*s), o.Count[0]+o.Count[1]+o.Count[2])
	}
	assert.Equal(t, "3v2 d8", Rules{AttackerDice: 3, DefenderDice: 2, Sides: 8}.String())
	assert.ErrorContains(t, Rules{AttackerDice: 3, DefenderDice: 2, Sides: 13}.Validate(), "13-sided dice outside [2, 12]")
	assert.ErrorContains(t, Rules{AttackerDice: 3, DefenderDice: 2, Sides: 1}.Validate(), "1-sided")
	// More faces favour the attacker of 1 against 1 (ties, which go to the
	// defender, grow rarer): P = (s-1)/(2s).
	tab, err := NewTable(Rules{AttackerDice: 3, DefenderDice: 2, Sides: 12}, 3)
	require.NoError(t, err)
	assert.InDelta(t, 11.0/24, tab.Win(1, 1), 1e-15)
}
