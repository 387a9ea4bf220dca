package mars

import "github.com/marslab-risk/marslab/dice"

// chainStore keeps the chain odds of defender sequences for a whole game:
// P(a) of conquering a path depends only on its defenders in attack order
// and the attacking armies a, so the odds of a sequence computed in one
// placement or attack serve every later goal with the same defenders.
// Sequences are kept as a trie of suffixes, from the last territory to the
// first: the odds of a path are one [dice.Chainer.Prepend] pass over the
// odds of its suffix, so paths that end alike (goals towards the same
// territory, a goal whose first defender lost armies in a roll) share all
// but their first passes. The values are those of one [dice.Chainer.WinAll]
// pass over the whole path, bit for bit, whatever the store holds.
type chainStore struct {
	ch *dice.Chainer
	// nodes[i] is the suffix ending node i: its odds V(0..n-1) are
	// vals[off:off+n]. index maps (parent node + 1, defenders of the
	// node's first territory) to the node; parent -1 is the empty path.
	nodes []chainNode
	index nodeIndex
	vals  []float64
	ones  []float64 // the empty path's odds: all 1
	// gen counts the trims: a node index is valid only in the generation
	// that returned it.
	gen int
	// lastParent is the suffix node of the chainer's last Prepend (whose
	// grid PrependFewer reuses), -2 for none.
	lastParent int32
	// limit is the most values kept (maxStoreVals; tests set less).
	limit int
}

type chainNode struct {
	parent int32
	d      int32
	off, n int
}

// minChainLen is the fewest army counts a stored vector covers.
const minChainLen = 16

// maxStoreVals is the most float64 values (16 MB) the store keeps: a
// lookup empties it beyond that (see trim). Games of mars2006 never come
// near; in the long escalating-card games, whose stacks reach thousands,
// paths of a thousand army counts each fill it, and a smaller store empties
// every few turns and computes the same chains again.
const maxStoreVals = 1 << 21

func newChainStore(ch *dice.Chainer) *chainStore {
	return &chainStore{ch: ch, lastParent: -2, limit: maxStoreVals}
}

// trim empties the store if it holds more than its limit of values,
// starting a new generation: node indices from before are invalid.
func (s *chainStore) trim() {
	if len(s.vals) <= s.limit {
		return
	}
	s.nodes = s.nodes[:0]
	s.vals = s.vals[:0]
	s.index.reset()
	s.gen++
	s.lastParent = -2
}

// lookup returns the node of the defender sequence defs (attack order,
// every count in [0, 1<<31)), its odds computed for at least n army counts
// a = 0..n-1. Vectors are computed for a power of two of army counts (at
// least minChainLen), so a node asked for more armies than it covers
// grows at most logarithmically often. A lookup may trim the store first
// (see trim): indices of earlier generations must not be used.
func (s *chainStore) lookup(defs []int, n int) int {
	s.trim()
	l := storeLen(n)
	node := int32(-1)
	for k := len(defs) - 1; k >= 0; k-- {
		d := defs[k]
		key := uint64(uint32(node+1))<<32 | uint64(uint32(d))
		i := s.index.find(key, int32(len(s.nodes)))
		if int(i) == len(s.nodes) {
			s.nodes = append(s.nodes, chainNode{parent: node, d: int32(d)})
		}
		if s.nodes[i].n < n {
			// The suffix (node) covers at least l counts: it was grown
			// in the previous step, or is the empty path.
			var rest []float64
			if node < 0 {
				for len(s.ones) < l {
					s.ones = append(s.ones, 1)
				}
				rest = s.ones[:l]
			} else {
				p := &s.nodes[node]
				rest = s.vals[p.off : p.off+l]
			}
			off := len(s.vals)
			// A roll on a path's first territory leaves it fewer
			// defenders before the same suffix: the last grid has them.
			ok := false
			if s.lastParent == node && s.ch.LastLen() >= l {
				s.vals, ok = s.ch.PrependFewer(s.vals, d)
			}
			if ok {
				l = s.ch.LastLen()
			} else {
				s.vals = s.ch.Prepend(s.vals, rest, d)
				s.lastParent = node
			}
			s.nodes[i].off, s.nodes[i].n = off, l
		} else {
			// The node covers n counts but maybe fewer than l: later
			// steps need no more than it has.
			l = min(l, s.nodes[i].n)
		}
		node = i
	}
	return int(node)
}

// storeLen returns the army counts a vector computed for n counts covers:
// the least power of two >= n and >= minChainLen.
func storeLen(n int) int {
	l := minChainLen
	for l < n {
		l *= 2
	}
	return l
}

// odds returns the chain odds of node i for a attacking armies, which
// must be below the node's count (see lookup).
func (s *chainStore) odds(i, a int) float64 {
	nd := &s.nodes[i]
	return s.vals[nd.off+a]
}

// covers returns the number of army counts node i's odds are computed for.
func (s *chainStore) covers(i int) int { return s.nodes[i].n }

// nodeIndex is a hash table from chain-store keys to node indices, with
// open addressing and linear probing: the store looks a key up for every
// territory of every path it is asked for, and a table of two words a slot
// that is emptied wholesale at a trim serves it faster than a Go map.
type nodeIndex struct {
	// slots has a power-of-two length (0 before the first key); a slot
	// holds key and node+1, 0 for an empty slot.
	slots []indexSlot
	n     int // keys held
}

type indexSlot struct {
	key  uint64
	node int32 // node index + 1; 0: empty
}

// find returns the node of key, adding key with node next if it is not
// held.
func (x *nodeIndex) find(key uint64, next int32) int32 {
	if 2*(x.n+1) > len(x.slots) {
		x.grow()
	}
	mask := uint64(len(x.slots) - 1)
	for h := indexHash(key) & mask; ; h = (h + 1) & mask {
		s := &x.slots[h]
		if s.node == 0 {
			s.key, s.node = key, next+1
			x.n++
			return next
		}
		if s.key == key {
			return s.node - 1
		}
	}
}

// grow doubles the table (at least 1024 slots) and re-inserts every key.
func (x *nodeIndex) grow() {
	old := x.slots
	x.slots = make([]indexSlot, max(1024, 2*len(old)))
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s.node == 0 {
			continue
		}
		h := indexHash(s.key) & mask
		for x.slots[h].node != 0 {
			h = (h + 1) & mask
		}
		x.slots[h] = s
	}
}

// reset empties the table, keeping its slots.
func (x *nodeIndex) reset() {
	clear(x.slots)
	x.n = 0
}

// indexHash spreads a key over the table's slots (Fibonacci hashing: the
// high bits of the product are well mixed, and are folded down).
func indexHash(key uint64) uint64 {
	h := key * 0x9e3779b97f4a7c15
	return h ^ h>>29
}
