package mars

import (
	"fmt"
	"math"

	"github.com/marslab-risk/marslab/sim"
)

// transportCost is the share of a buyer's bid lost per step an army
// travels in the fortification (MARS's choice; the paper names a
// transportation cost without a value). Every sale of the intra-cluster
// auction is between neighbours, so one step, a flat 10 %: a front
// territory sells an army to another front territory only if the buyer's
// bid, less 10 %, beats its own bid for keeping it (interior sellers bid
// nothing for their armies and sell to the best buyer). Armies farther
// from the front travel by relay demand (see fortify), not by sale, so no
// sale spans more steps. Under the `connected` rule the one move may cover
// several steps, and there the bid of a front territory d owned steps
// from the moving stack counts 0.9^d.
const transportCost = 0.1

// valueFloor is the least territory value a fortification bid is based on
// (see buyBid).
const valueFloor = 1.0

// fortifier holds the fortification phase's buffers. The searches through
// MARS's territories (distances to the front, steps from the moving stack,
// clusters) are [sim.OwnedPaths] searches on the board's State.
type fortifier struct {
	front   []int  // own territories with an enemy neighbour
	dist    []int  // steps to the nearest front territory of the cluster, -1 if none
	threat  []int  // largest enemy stack next to each territory
	spare   []int  // armies each territory can sell
	sold    []int  // armies sold in the auction
	got     []int  // armies bought in the auction
	demand  []int  // armies each territory asked for
	steps   []int  // owned steps from the moving stack (connected rule), -1 unreached
	source  [1]int // the moving stack (connected rule), the source of steps
	seen    []bool // territories of the clusters counted so far (clusters)
	comp    []int  // one cluster's territories (clusters)
	net     flowNet
	edges   []flowEdge
	nseller int
	// sales holds the seller-buyer pairs of the intra-cluster auction and
	// bids each territory's buyBid during it (see auction).
	sales []sale
	bids  []float64
}

// sale is a seller and a front territory next to it that may buy its armies
// in the intra-cluster auction.
type sale struct{ s, u int }

// flowEdge remembers which network edge moves armies from one territory
// to another.
type flowEdge struct{ e, from, to int }

func (f *fortifier) init(n int) {
	f.front = make([]int, 0, n)
	f.dist = make([]int, n)
	f.threat = make([]int, n)
	f.spare = make([]int, n)
	f.sold = make([]int, n)
	f.got = make([]int, n)
	f.demand = make([]int, n)
	f.steps = make([]int, n)
	f.seen = make([]bool, n)
	f.bids = make([]float64, n)
	f.comp = make([]int, 0, n)
}

// analyse finds every own territory's distance (in owned steps) to the
// front (own territories with an enemy neighbour), the threat each faces
// and the armies it can spare, which in the paper's words "depends on its
// environment, how strong the enemies are, or if the territory is a
// cluster, or a continent border": an interior territory can spare all but
// one army; a front territory on the border of a continent MARS holds
// whole keeps all its armies (it guards the continent's bonus); any other
// front territory keeps as many armies as its strongest enemy neighbour
// (at least one) and can spare the rest. An own territory in a cluster
// without a front has distance -1 and spares nothing.
func (m *mediator) analyse() {
	b, f := m.b, &m.fl
	f.nseller = 0
	f.front = f.front[:0]
	for t := range b.Owner {
		f.sold[t], f.got[t], f.demand[t], f.spare[t], f.threat[t] = 0, 0, 0, 0, 0
		if b.Owner[t] != b.me {
			continue
		}
		f.threat[t] = b.maxEnemy(t, nil)
		if b.IsBorder(b.me, t) {
			f.front = append(f.front, t)
		}
	}
	f.dist = b.s.Paths().Distances(b.s, b.me, f.front, f.dist)
	for t := range b.Owner {
		switch {
		case b.Owner[t] != b.me || f.dist[t] < 0:
		case f.dist[t] > 0:
			f.spare[t] = b.Armies[t] - 1
		case b.holdsContinentOf(t):
		default:
			f.spare[t] = max(0, b.Armies[t]-max(1, f.threat[t]))
		}
		if f.spare[t] > 0 {
			f.nseller++
		}
	}
}

// clusters returns the number of MARS's clusters (maximal sets of own
// territories joined through own territories), for the explanation.
func (m *mediator) clusters() int {
	b, f := m.b, &m.fl
	paths := b.s.Paths()
	clear(f.seen)
	n := 0
	for t := range b.Owner {
		if b.Owner[t] != b.me || f.seen[t] {
			continue
		}
		f.comp = paths.Component(b.s, b.me, t, f.comp[:0])
		for _, u := range f.comp {
			f.seen[u] = true
		}
		n++
	}
	return n
}

// buyBid is front territory u's bid for one more army in the intra-cluster
// auction: max(V_c(u), valueFloor)·(threat+1)/(armies+bought+1), which
// prefers valuable, threatened and weak territories and falls with every
// army bought. The bid is MARS's design, not the paper's; the floor keeps
// it positive: V_c falls with every enemy army next to the territory
// (C_enu < 0), so a front facing a huge enemy stack can have V_c <= 0, and
// a bid on V_c alone would then starve exactly the most threatened fronts
// (a MARS with huge interior stacks stalemated on a big map). With the
// floor such a front bids on its threat, (threat+1)/(armies+bought+1).
func (m *mediator) buyBid(u int) float64 {
	f := &m.fl
	return max(m.vals[u], valueFloor) * float64(f.threat[u]+1) / float64(m.b.Armies[u]+f.got[u]-f.sold[u]+1)
}

// auction sells, army by army, the spare armies of the sellers next to
// the front (interior territories one step from it, and front territories
// with spare armies) to the front territories that bid most for them. A
// front seller sells only if the buyer's bid less the transport cost beats
// its own bid for the army; a front territory with spare armies buys only
// from interior sellers. Each sale adds one to the buyer's demand. Sellers
// are taken in ascending order and their buyers in the order of the
// neighbour lists; the first best sale wins.
//
// The seller-buyer pairs are listed once, in that order, and the bids are
// kept: a sale changes only its seller's and its buyer's bid and whether
// the seller has armies left.
func (m *mediator) auction() {
	b, f := m.b, &m.fl
	f.sales = f.sales[:0]
	for s := range b.Owner {
		if f.spare[s] <= 0 || f.dist[s] > 1 {
			continue
		}
		for _, u := range b.nbr[s] {
			if b.Owner[u] != b.me || f.dist[u] != 0 || (f.dist[s] == 0 && f.spare[u] > 0) {
				continue
			}
			f.sales = append(f.sales, sale{s: s, u: u})
			f.bids[u] = m.buyBid(u)
			if f.dist[s] == 0 {
				f.bids[s] = m.buyBid(s)
			}
		}
	}
	for {
		bestS, bestU, best := -1, -1, 0.0
		for _, p := range f.sales {
			s := p.s
			if f.spare[s]-f.sold[s] <= 0 {
				continue
			}
			keep := 0.0
			if f.dist[s] == 0 {
				keep = f.bids[s]
			}
			if price := f.bids[p.u] * (1 - transportCost); price > keep && price > best {
				bestS, bestU, best = s, p.u, price
			}
		}
		if bestS < 0 {
			return
		}
		f.sold[bestS]++
		f.got[bestU]++
		f.demand[bestU]++
		f.bids[bestS], f.bids[bestU] = m.buyBid(bestS), m.buyBid(bestU)
	}
}

// fortify plans the fortification phase (MARS paper, "Fortify"): clusters
// and sellers, the intra-cluster auction (front demand), relay demand
// (an interior territory asks for every spare army of its neighbours one
// step farther from the front, so armies flow towards the front), then a
// maximum flow (Edmonds-Karp) from sellers to buyers over the owned
// borders, capacities spare and demand. Each army crosses one border at
// most and no territory sends more than it can spare, which is exactly the
// `one-step` rule, and every flow edge with a positive flow is a move.
// Under `single` the same flow is planned and only its largest edge (the
// first on ties) becomes the one move. Under `connected` there is no
// auction and no flow: only interior territories are sources, and the
// interior territory with the most spare armies sends them all along owned
// territories to the front territory of its cluster with the highest
// bid, discounted per step (fortifyConnected).
func (m *mediator) fortify(mode sim.FortifyMode, buf []sim.Move) []sim.Move {
	b, f := m.b, &m.fl
	m.analyse()
	// V_c of the front territories: the bids (buyBid) read it of fronts
	// only, buyers and selling fronts alike.
	for t, o := range b.Owner {
		if o == b.me && f.dist[t] == 0 {
			m.vals[t] = b.value(&m.p, t)
		}
	}
	if mode == sim.FortifyConnected {
		return m.fortifyConnected(buf)
	}
	m.auction()
	for u := range b.Owner {
		if b.Owner[u] != b.me || f.dist[u] < 1 {
			continue
		}
		for _, s := range b.nbr[u] {
			if b.Owner[s] == b.me && f.dist[s] == f.dist[u]+1 {
				f.demand[u] += f.spare[s]
			}
		}
	}
	n := len(b.Owner)
	src, sink := 2*n, 2*n+1
	f.net.reset(2*n + 2)
	f.edges = f.edges[:0]
	for s := range b.Owner {
		if b.Owner[s] != b.me {
			continue
		}
		// A front seller sells only what the auction sold; an interior one
		// all it can spare.
		supply := f.spare[s]
		if f.dist[s] == 0 {
			supply = f.sold[s]
		}
		if supply > 0 {
			f.net.addEdge(src, s, supply)
			for _, u := range b.nbr[s] {
				if b.Owner[u] != b.me || f.demand[u] == 0 {
					continue
				}
				ok := f.dist[u] == f.dist[s]-1 || (f.dist[s] <= 1 && f.dist[u] == 0 && f.got[u] > 0)
				if ok {
					f.edges = append(f.edges, flowEdge{e: f.net.addEdge(s, n+u, supply), from: s, to: u})
				}
			}
		}
		if f.demand[s] > 0 {
			f.net.addEdge(n+s, sink, f.demand[s])
		}
	}
	total := f.net.maxFlow(src, sink)
	if m.w != nil {
		fmt.Fprintf(m.w, "  fortify (%s): %d clusters, %d sellers, max flow %d\n", mode, m.clusters(), f.nseller, total)
	}
	if mode == sim.FortifySingle {
		bi, bf := -1, 0
		for i, e := range f.edges {
			if fl := f.net.flow(e.e); fl > bf {
				bi, bf = i, fl
			}
		}
		if bi >= 0 {
			e := f.edges[bi]
			buf = append(buf, sim.Move{From: e.from, To: e.to, Armies: bf})
		}
	} else {
		for _, e := range f.edges {
			if fl := f.net.flow(e.e); fl > 0 {
				buf = append(buf, sim.Move{From: e.from, To: e.to, Armies: fl})
			}
		}
	}
	if m.w != nil {
		for _, mv := range buf {
			fmt.Fprintf(m.w, "  flow %s > %s: %d armies\n", m.name(mv.From), m.name(mv.To), mv.Armies)
		}
	}
	return buf
}

// fortifyConnected picks the `connected`-rule move: the interior
// territory with the most spare armies (ties to the lowest id; front
// territories are never sources) sends them all to the front territory u
// of its cluster with the highest buyBid(u)·(1-transportCost)^d, d the
// owned steps from the source to u (ties to the lowest id).
func (m *mediator) fortifyConnected(buf []sim.Move) []sim.Move {
	b, f := m.b, &m.fl
	src := -1
	for t := range b.Owner {
		if f.dist[t] > 0 && f.spare[t] > 0 && (src < 0 || f.spare[t] > f.spare[src]) {
			src = t
		}
	}
	if src < 0 {
		if m.w != nil {
			fmt.Fprintf(m.w, "  fortify (connected): %d clusters, no interior army to move\n", m.clusters())
		}
		return buf
	}
	f.source[0] = src
	f.steps = b.s.Paths().Distances(b.s, b.me, f.source[:], f.steps)
	u, best := -1, 0.0
	for t := range b.Owner {
		if f.steps[t] > 0 && f.dist[t] == 0 {
			if v := m.buyBid(t) * math.Pow(1-transportCost, float64(f.steps[t])); u < 0 || v > best {
				u, best = t, v
			}
		}
	}
	if u < 0 {
		return buf
	}
	if m.w != nil {
		fmt.Fprintf(m.w, "  fortify (connected): %d clusters; %s > %s: %d armies (bid %.2f after %d steps)\n",
			m.clusters(), m.name(src), m.name(u), f.spare[src], best, f.steps[u])
	}
	return append(buf, sim.Move{From: src, To: u, Armies: f.spare[src]})
}
