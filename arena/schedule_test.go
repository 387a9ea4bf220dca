package arena

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotation(t *testing.T) {
	t.Parallel()
	r := rotation{Seats: 4}
	tests := []struct {
		g    int
		want []int
	}{
		{0, []int{0, 1, 2, 3}},
		{1, []int{1, 2, 3, 0}},
		{3, []int{3, 0, 1, 2}},
		{4, []int{0, 1, 2, 3}},
		{1001, []int{1, 2, 3, 0}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.Lineup(tt.g, nil), "game %d", tt.g)
		assert.Equal(t, uint64(tt.g), r.Stream(tt.g))
	}
	assert.Equal(t, 4, r.Players())
	assert.Equal(t, 4, r.Pool())
	assert.Equal(t, "rotation(4 of 4)", r.Spec().String())
}

func TestSubsets(t *testing.T) {
	t.Parallel()
	s, err := NewSubsets(5, 3, 2, 11)
	require.NoError(t, err)
	assert.Equal(t, 3, s.Players())
	assert.Equal(t, 5, s.Pool())
	assert.Equal(t, 2, s.replications())
	require.Equal(t, 20, s.Games(), "C(5,3)·2")

	// The first C(5,3) games play every 3-subset once, in colexicographic
	// order; the next ten repeat them.
	want := [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}, {0, 1, 4}, {0, 2, 4}, {1, 2, 4}, {0, 3, 4}, {1, 3, 4}, {2, 3, 4}}
	for g := range s.Games() {
		assert.Equal(t, want[g%10], s.subset(g, nil), "game %d", g)
		lu := s.Lineup(g, nil)
		require.NoError(t, checkLineup(s, g, lu))
		assert.Equal(t, want[g%10], slices.Sorted(slices.Values(lu)), "game %d seats its subset", g)
		assert.Equal(t, lu, s.Lineup(g, make([]int, 0, 3)), "game %d: the seating depends on (seed, g) only", g)
		assert.Equal(t, uint64(g), s.Stream(g))
	}

	// Another seed seats the same subsets differently somewhere.
	o, err := NewSubsets(5, 3, 2, 12)
	require.NoError(t, err)
	differs := 0
	for g := range s.Games() {
		assert.Equal(t, s.subset(g, nil), o.subset(g, nil))
		if !slices.Equal(s.Lineup(g, nil), o.Lineup(g, nil)) {
			differs++
		}
	}
	assert.Greater(t, differs, 5, "seatings of seed 11 vs 12")

	// The spec rebuilds the schedule.
	spec := s.Spec()
	assert.Equal(t, ScheduleSpec{Kind: KindSubsets, Players: 3, Pool: 5, Replications: 2, Seed: 11}, spec)
	assert.Equal(t, "subsets(3 of 5, x2, seed 11)", spec.String())
	back, err := spec.Schedule()
	require.NoError(t, err)
	for g := range s.Games() {
		assert.Equal(t, s.Lineup(g, nil), back.Lineup(g, nil))
	}
}

// TestSubsetsSeatingUniform checks that the random seating puts each entry
// of a subset in each seat about equally often (a chi-square bound far in
// the tail, so that the test fails only for a biased shuffle).
func TestSubsetsSeatingUniform(t *testing.T) {
	t.Parallel()
	const reps = 600
	s, err := NewSubsets(4, 4, reps, 3)
	require.NoError(t, err)
	var count [4][4]int // count[entry][seat]
	for g := range s.Games() {
		for seat, e := range s.Lineup(g, nil) {
			count[e][seat]++
		}
	}
	chi2 := 0.0
	exp := float64(reps) / 4
	for e := range count {
		for seat := range count[e] {
			d := float64(count[e][seat]) - exp
			chi2 += d * d / exp
		}
	}
	// 9 degrees of freedom: P(chi2 > 33.7) < 1e-4.
	assert.Less(t, chi2, 33.7, "seat counts %v", count)
}

func TestSubsetsCount(t *testing.T) {
	t.Parallel()
	tests := []struct{ n, k, want int }{{13, 2, 78}, {13, 4, 715}, {13, 6, 1716}, {6, 6, 1}, {7, 2, 21}}
	for _, tt := range tests {
		s, err := NewSubsets(tt.n, tt.k, 1, 0)
		require.NoError(t, err)
		require.Equal(t, tt.want, s.Games(), "C(%d,%d)", tt.n, tt.k)
		seen := map[string]bool{}
		for g := range s.Games() {
			sub := s.subset(g, nil)
			key := fmt.Sprint(sub)
			assert.False(t, seen[key], "C(%d,%d): subset %v twice", tt.n, tt.k, sub)
			seen[key] = true
			assert.True(t, slices.IsSorted(sub) && sub[0] >= 0 && sub[tt.k-1] < tt.n, "subset %v", sub)
		}
	}
}

func TestScheduleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec ScheduleSpec
		err  string
	}{
		{ScheduleSpec{Kind: KindSubsets, Players: 1, Pool: 5, Replications: 1}, "1 players per game: want 2..6"},
		{ScheduleSpec{Kind: KindSubsets, Players: 7, Pool: 9, Replications: 1}, "7 players per game: want 2..6"},
		{ScheduleSpec{Kind: KindSubsets, Players: 4, Pool: 3, Replications: 1}, "pool of 3 entries: want >= 4"},
		{ScheduleSpec{Kind: KindSubsets, Players: 4, Pool: 13, Replications: 0}, "replications 0: want >= 1"},
		{ScheduleSpec{Kind: KindSubsets, Players: 6, Pool: 1000, Replications: 1}, "too many"},
		{ScheduleSpec{Kind: KindSubsets, Players: 2, Pool: 10, Replications: 1 << 62}, "too many"},
		{ScheduleSpec{Kind: kindRotation, Players: 7, Pool: 7}, "7 seats: want 2..6"},
		{ScheduleSpec{Kind: kindRotation, Players: 4, Pool: 5}, "pool 5 must equal players 4"},
		{ScheduleSpec{Kind: kindRotation, Players: 4, Pool: 4, Seed: 3}, "replications 0 and seed 3: want 0"},
		{ScheduleSpec{Kind: "swiss", Players: 4, Pool: 4}, `schedule kind "swiss"`},
	}
	for _, tt := range tests {
		t.Run(tt.spec.String(), func(t *testing.T) {
			_, err := tt.spec.Schedule()
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

func TestCheckLineup(t *testing.T) {
	t.Parallel()
	r := rotation{Seats: 3}
	assert.NoError(t, checkLineup(r, 0, []int{2, 0, 1}))
	assert.ErrorContains(t, checkLineup(r, 5, []int{0, 1}), "game 5: line-up of 2 entries, want 3")
	assert.ErrorContains(t, checkLineup(r, 5, []int{0, 1, 3}), "seat 2 is entry 3, want 0..2")
	assert.ErrorContains(t, checkLineup(r, 5, []int{0, 1, 1}), "entry 1 seated twice")
}

func TestLineupAllocs(t *testing.T) {
	s, err := NewSubsets(13, 4, 3, 1)
	require.NoError(t, err)
	dst := make([]int, 0, 6)
	g := 0
	assert.Zero(t, testing.AllocsPerRun(100, func() { dst = s.Lineup(g, dst); g++ }), "Subsets.Lineup")
	assert.Zero(t, testing.AllocsPerRun(100, func() { dst = rotation{Seats: 6}.Lineup(g, dst); g++ }), "Rotation.Lineup")
}

func BenchmarkSubsetsLineup(b *testing.B) {
	s, err := NewSubsets(13, 6, 1, 1)
	require.NoError(b, err)
	dst := make([]int, 0, 6)
	b.ReportAllocs()
	g := 0
	for b.Loop() {
		dst = s.Lineup(g, dst)
		g++
	}
}

func ExampleSubsets() {
	// Every 3-subset of 4 bots, twice: 8 games, each bot in 6 of them.
	s, _ := NewSubsets(4, 3, 2, 1)
	played := make([]int, s.Pool())
	for g := range s.Games() {
		for _, e := range s.Lineup(g, nil) {
			played[e]++
		}
	}
	fmt.Println(s.Games(), "games; games per bot:", played)
	fmt.Println(s.subset(0, nil), s.subset(1, nil), s.subset(4, nil))
	// Output:
	// 8 games; games per bot: [6 6 6 6]
	// [0 1 2] [0 1 3] [0 1 2]
}

// FuzzScheduleSpec: a spec read from config.json either fails with an error
// or gives a schedule whose line-ups are valid and reproduce its spec.
func FuzzScheduleSpec(f *testing.F) {
	f.Add(kindRotation, 4, 4, 0, uint64(0), 3)
	f.Add(KindSubsets, 3, 13, 2, uint64(9), 100)
	f.Add(KindSubsets, 6, 6, 1, uint64(1), 0)
	f.Add("swiss", 2, 2, 1, uint64(1), 0)
	f.Fuzz(func(t *testing.T, kind string, players, pool, reps int, seed uint64, g int) {
		if pool > 64 || g < 0 {
			return // keep the table of subsets small
		}
		spec := ScheduleSpec{Kind: kind, Players: players, Pool: pool, Replications: reps, Seed: seed}
		s, err := spec.Schedule()
		if err != nil {
			return
		}
		assert.Equal(t, spec, s.Spec())
		require.NoError(t, checkLineup(s, g, s.Lineup(g, nil)))
	})
}

// TestRandom: random line-ups are valid, depend on (seed, g) alone, seat
// every entry and every seat about equally often, and rebuild from their
// spec; out-of-range sizes are refused.
func TestRandom(t *testing.T) {
	r, err := NewRandom(8, 6, 3)
	require.NoError(t, err)
	assert.Equal(t, 6, r.Players())
	assert.Equal(t, 8, r.Pool())
	assert.Equal(t, "random(6 of 8, seed 3)", r.Spec().String())
	const games = 8000
	seats := make([][]int, 8) // seats[e][i]: games entry e played seat i
	for e := range seats {
		seats[e] = make([]int, 6)
	}
	dst := make([]int, 0, 6)
	for g := range games {
		dst = r.Lineup(g, dst)
		require.NoError(t, checkLineup(r, g, dst))
		assert.Equal(t, uint64(g), r.Stream(g))
		for i, e := range dst {
			seats[e][i]++
		}
	}
	// Each (entry, seat) cell has mean games/8 = 1000 and sd about 30.
	for e := range seats {
		for i, n := range seats[e] {
			assert.InDelta(t, 1000, n, 150, "entry %d seat %d", e, i)
		}
	}
	again, err := r.Spec().Schedule()
	require.NoError(t, err)
	o, err := NewRandom(8, 6, 4)
	require.NoError(t, err)
	differs := 0
	for g := range 50 {
		assert.Equal(t, r.Lineup(g, nil), again.Lineup(g, nil))
		if !slices.Equal(r.Lineup(g, nil), o.Lineup(g, nil)) {
			differs++
		}
	}
	assert.Greater(t, differs, 40)
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { dst = r.Lineup(7, dst) }))
	for _, c := range []struct {
		n, k int
		want string
	}{{5, 6, "pool of 5 entries: want 6..1024"}, {8, 1, "1 players per game: want 2..6"}, {2000, 6, "pool of 2000"}} {
		_, err := NewRandom(c.n, c.k, 0)
		assert.ErrorContains(t, err, c.want)
	}
	_, err = ScheduleSpec{Kind: "random", Players: 6, Pool: 8, Replications: 2}.Schedule()
	assert.ErrorContains(t, err, "replications 2: want 0")
	_, err = ScheduleSpec{Kind: "lottery", Players: 6, Pool: 8}.Schedule()
	assert.ErrorContains(t, err, `want "rotation", "subsets" or "random"`)
}
