package mars

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/marslab-risk/marslab/dice"
)

// TestChernoffLimit checks that the pruning limits beyond exactLimits
// never prune what the exact limit keeps: the Chernoff limit is at least
// pruneLimit for the same budget, and both grow with the budget.
func TestChernoffLimit(t *testing.T) {
	t.Parallel()
	q, err := killOdds(dice.Classic)
	require.NoError(t, err)
	lo := pruneLimit(q, 100)
	for _, b := range []int{100, 500, 2049, 5000} {
		exact := pruneLimit(q, b)
		ch := chernoffLimit(q, b, lo)
		assert.GreaterOrEqual(t, ch, exact, "budget %d", b)
		assert.Less(t, float64(ch), 1.2*float64(exact)+20, "budget %d: the bound should stay close", b)
		assert.GreaterOrEqual(t, exact, lo, "limits grow with the budget")
	}
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	assert.Equal(t, pruneLimit(q, 300), o.limit(300))
	assert.Equal(t, chernoffLimit(q, 100000, o.limit(exactLimits)), o.limit(100000))
}

// TestChainOddsExactAndBounded checks chainOdds against WinAll where it is
// exact, and that beyond maxChainCells it answers (from halved armies)
// with a probability.
func TestChainOddsExactAndBounded(t *testing.T) {
	t.Parallel()
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	ch := dice.NewChainer(dice.Classic, 64)
	for _, defs := range [][]int{{3}, {2, 1}, {5, 0, 4}, {1, 1, 1, 1}, {40, 2}} {
		want := ch.WinAll(nil, 80, defs)
		for a := 1; a <= 80; a++ {
			require.True(t, exactChain(a, 40))
			assert.Equal(t, math.Float64bits(want[a]), math.Float64bits(o.chainOdds(defs, a)), "defs %v a %d", defs, a)
		}
	}
	// The answer without a division is the division's.
	for a := 0; a < 1100; a += 7 {
		for _, d := range []int{0, 1, 100, 2047, 2048, 4094, 4095, 4096, 5000} {
			require.Equal(t, storeLen(a+1) <= maxChainCells/(d+1), exactChain(a, d), "a %d maxD %d", a, d)
		}
	}
	assert.True(t, exactChain(1<<14-1, 15))
	assert.False(t, exactChain(1<<14, 15))
	assert.True(t, exactChain(1023, 255))
	assert.False(t, exactChain(1023, 256))
	assert.False(t, exactChain(5000, 5000))
	// Both sides in the thousands: halved four times until both are
	// below chainCap, 4999 against 4000 becomes 312 against 250.
	p := o.chainOdds([]int{4000}, 4999)
	assert.Greater(t, p, 0.9)
	assert.LessOrEqual(t, p, 1.0)
	assert.Equal(t, o.chainOdds([]int{250, 0}, 312), o.chainOdds([]int{4000, 12}, 4999), "halved four times")
	assert.Less(t, o.chainOdds([]int{50000, 50000}, 50000), 0.01)
	assert.Zero(t, o.chainOdds([]int{3}, 0))
}

// TestChainTooFew checks what mediator.chain returns without asking the
// store: a attacking armies conquer a path of k territories, each with a
// defender, with odds exactly 0 when a < k (one army stays in each
// conquered territory before the last), and with positive odds when a = k.
func TestChainTooFew(t *testing.T) {
	t.Parallel()
	o, err := newOdds(dice.Classic)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		defs := make([]int, 1+rng.IntN(maxGoalPath))
		for j := range defs {
			defs[j] = 1 + rng.IntN(12)
		}
		k := len(defs)
		i := o.store.lookup(defs, k+1)
		for a := range k {
			require.Equal(t, uint64(0), math.Float64bits(o.store.odds(i, a)), "defs %v a %d", defs, a)
			require.Equal(t, uint64(0), math.Float64bits(o.chainOdds(defs, a)), "defs %v a %d", defs, a)
		}
		assert.Positive(t, o.store.odds(i, k), "defs %v a %d", defs, k)
	}
}

// TestChainStore checks the store against one WinAll pass per query, bit
// for bit, over sequences that share suffixes, shrink on the first
// territory (PrependFewer), ask for more armies (growth) and overflow
// the store (trims).
func TestChainStore(t *testing.T) {
	t.Parallel()
	ch := dice.NewChainer(dice.Classic, 16)
	s := newChainStore(dice.NewChainer(dice.Classic, 16))
	s.limit = 1 << 18 // small enough for the queries to overflow it
	rng := rand.New(rand.NewPCG(3, 4))
	gen0 := s.gen
	var prev []int
	prevN := 0
	for q := range 3000 {
		k := 1 + rng.IntN(4)
		defs := make([]int, k)
		for j := range defs {
			defs[j] = rng.IntN(30)
		}
		n := 1 + rng.IntN(600)
		if q%3 == 0 && prev != nil {
			// A roll on the first territory of the last query.
			defs = append([]int(nil), prev...)
			defs[0] = max(0, defs[0]-1-rng.IntN(2))
			n = max(1, prevN-rng.IntN(3))
		}
		prev, prevN = defs, n
		i := s.lookup(defs, n)
		require.GreaterOrEqual(t, s.covers(i), n)
		want := ch.WinAll(nil, n-1, defs)
		for a := range n {
			require.Equal(t, math.Float64bits(want[a]), math.Float64bits(s.odds(i, a)),
				"query %d defs %v a %d: store %v, WinAll %v", q, defs, a, s.odds(i, a), want[a])
		}
	}
	assert.Greater(t, s.gen, gen0, "the queries should overflow the store")
	assert.LessOrEqual(t, len(s.vals), s.limit+4*1024, "a trim bounds the store")
}

// TestNodeIndex checks the chain store's hash table against a map: every
// key keeps the node it was given, through growth and after a reset.
func TestNodeIndex(t *testing.T) {
	t.Parallel()
	var x nodeIndex
	want := map[uint64]int32{}
	for round := range 2 {
		for i := range 5000 {
			// Keys as the store makes them: (parent+1)<<32 | defenders.
			key := uint64(i%1500/7)<<32 | uint64(i%1500%7*3)
			next := int32(len(want))
			got := x.find(key, next)
			if w, ok := want[key]; ok {
				require.Equal(t, w, got, "round %d key %#x", round, key)
			} else {
				require.Equal(t, next, got, "round %d new key %#x", round, key)
				want[key] = next
			}
			// A second find returns the same node and adds nothing.
			require.Equal(t, want[key], x.find(key, next+1))
		}
		require.Equal(t, len(want), x.n)
		x.reset()
		clear(want)
	}
}
